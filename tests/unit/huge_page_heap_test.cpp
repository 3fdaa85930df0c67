// tilecc's heap on transparent huge pages (driver/HugePageHeap.h).
#include "driver/HugePageHeap.h"

#include <cstdint>
#include <cstdlib>
#include <doctest/doctest.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace {
/// The VmFlags of the mapping that holds Address, from /proc/self/smaps;
/// empty if no mapping holds it.
std::string mappingFlags(const void *Address) {
  const auto A = reinterpret_cast<std::uintptr_t>(Address);
  std::ifstream Smaps("/proc/self/smaps");
  bool Holds = false;
  for (std::string Line; std::getline(Smaps, Line);) {
    std::uintptr_t Begin = 0, End = 0;
    char Dash = 0;
    std::istringstream Range(Line);
    if (Range >> std::hex >> Begin >> Dash >> End && Dash == '-')
      Holds = Begin <= A && A < End;
    else if (Holds && Line.rfind("VmFlags:", 0) == 0)
      return Line;
  }
  return "";
}
} // namespace

TEST_CASE("allocations after backHeapWithHugePages are on advised pages") {
#if defined(__linux__) && defined(__GLIBC__)
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
    MESSAGE("this kernel has no transparent huge pages");
    return;
  }
  tilecc::backHeapWithHugePages();
  // Sizes of Clang's allocator slabs, and past glibc's default threshold
  // for allocations in mappings of their own.
  for (std::size_t Size :
       {std::size_t(4096), std::size_t(1) << 20, std::size_t(8) << 20}) {
    std::unique_ptr<char[]> Block(new char[Size]);
    Block[0] = 1;
    const std::string Flags = mappingFlags(Block.get());
    INFO("size " << Size << ": " << Flags);
    CHECK(Flags.find(" hg") != std::string::npos);
  }
#endif
}
