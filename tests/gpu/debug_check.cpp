// Runs debug.tile.cpp's kernel on the GPU and in emulation with their
// output captured, and compares the lines (as sets: GPU threads print in
// any order); then makes its assertion fail, which the launch must report
// as cudaErrorAssert (last: the error ends the CUDA context). Exits 77
// without a GPU.
#include "debug.tile.cpp"
#include "debug.tile.h"

#include "cuda_check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

/// The lines Run writes to standard output (the GPU's printf lines reach
/// it at the synchronization Run ends with).
template <class F> std::vector<std::string> captured(F Run) {
  std::fflush(stdout);
  char Path[] = "/tmp/tilecc_debug_XXXXXX";
  const int File = mkstemp(Path);
  const int Saved = dup(1);
  dup2(File, 1);
  Run();
  std::fflush(stdout);
  dup2(Saved, 1);
  close(Saved);
  close(File);
  std::vector<std::string> Lines;
  std::ifstream In(Path);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  std::remove(Path);
  std::sort(Lines.begin(), Lines.end());
  return Lines;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int N = 13;
  std::vector<int> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = 3 * I;
  sample::DeviceArray<int> DX(X, 0);
  auto Gpu = captured([&] {
    CUDA_CHECK(tilecc::printed(DX.get(), N));
    CUDA_CHECK(cudaDeviceSynchronize());
  });
  auto Emulated = captured([&] {
    tile::emulate::launch(printed_grid<8>(X.data(), N), printed<8>, X.data(),
                          N);
  });
  // Two programs of 8 elements (the 3 past n too, as Triton prints them),
  // each printed once, twice more as two operands and three times more as
  // bits; n once per program.
  bool Ok = Gpu == Emulated && Gpu.size() == 6 * 16 + 2;
  std::printf("%s: device_print, %zu lines on the GPU, %zu in emulation\n",
              Ok ? "ok" : "FAIL", Gpu.size(), Emulated.size());
  std::vector<std::string> OnlyGpu, OnlyEmulated;
  std::set_difference(Gpu.begin(), Gpu.end(), Emulated.begin(), Emulated.end(),
                      std::back_inserter(OnlyGpu));
  std::set_difference(Emulated.begin(), Emulated.end(), Gpu.begin(), Gpu.end(),
                      std::back_inserter(OnlyEmulated));
  for (size_t I = 0; I < std::min<size_t>(OnlyGpu.size(), 5); ++I)
    std::printf("  only on the GPU: %s\n", OnlyGpu[I].c_str());
  for (size_t I = 0; I < std::min<size_t>(OnlyEmulated.size(), 5); ++I)
    std::printf("  only in emulation: %s\n", OnlyEmulated[I].c_str());
  // A sanitizer reports the failed assertion as an error (scripts/gpu-check.sh
  // sets this where it runs one).
  if (std::getenv("TILECC_UNDER_SANITIZER")) {
    std::printf("device_assert: left out under a sanitizer\n");
    return Ok ? 0 : 1;
  }
  X[10] = -1;
  sample::DeviceArray<int> DBad(X, 0);
  cudaError_t E = tilecc::printed(DBad.get(), N);
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  const bool Asserted = E == cudaErrorAssert;
  std::printf("%s: device_assert: %s\n", Asserted ? "ok" : "FAIL",
              cudaGetErrorName(E));
  return Ok && Asserted ? 0 : 1;
}
