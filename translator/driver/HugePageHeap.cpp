//===- HugePageHeap.cpp - Back the heap with transparent huge pages -------===//
#include "driver/HugePageHeap.h"
#include <cstdint>
#include <cstdlib> // Defines __GLIBC__ where the C library is glibc.

#if defined(__linux__) && defined(__GLIBC__)
#include <fstream>
#include <malloc.h>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace tilecc {

#if defined(__linux__) && defined(__GLIBC__)
namespace {
/// Where the heap begins (start_brk, the 47th field of /proc/self/stat),
/// or 0 if that cannot be read.
std::uintptr_t heapStart() {
  std::ifstream Stat("/proc/self/stat");
  std::string Line;
  std::getline(Stat, Line);
  // Fields from the third on follow the command name's closing parenthesis.
  std::size_t At = Line.rfind(')');
  if (At == std::string::npos)
    return 0;
  std::istringstream Fields(Line.substr(At + 1));
  std::string Field;
  for (int Index = 3; Index <= 47 && Fields >> Field; ++Index)
    if (Index == 47)
      return std::strtoull(Field.c_str(), nullptr, 10);
  return 0;
}
} // namespace

void backHeapWithHugePages() {
  // The heap grows in steps of Reserve and is never trimmed back, so
  // advising it once covers what the translation allocates; only pages it
  // touches are committed. Allocations up to 32 MB (the most glibc allows
  // here) stay on the heap instead of in mappings of their own.
  constexpr int Reserve = 512 << 20;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, Reserve);
  mallopt(M_TOP_PAD, Reserve);
  // More than the heap's free space, so that it grows now (volatile: a
  // compiler may drop an allocation that is only freed).
  void *volatile Grow = std::malloc(4 << 20);
  std::free(Grow);
  // The advice is a property of the mapping: the pages the heap already
  // holds become eligible too.
  const auto PageSize = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  std::uintptr_t Begin = heapStart() & ~(PageSize - 1);
  auto End = reinterpret_cast<std::uintptr_t>(sbrk(0));
  if (Begin && End > Begin)
    madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_HUGEPAGE);
}
#else
void backHeapWithHugePages() {}
#endif

} // namespace tilecc
