//===- samples/common/cuda_check.hpp - GPU test helpers ---------*- C++ -*-===//
//
// Error checking, GPU detection and device arrays with guard zones and an
// adjustable misalignment, for the samples' GPU tests and benchmarks.
//
//===----------------------------------------------------------------------===//

#ifndef SAMPLES_COMMON_CUDA_CHECK_HPP
#define SAMPLES_COMMON_CUDA_CHECK_HPP

#include "check.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

/// Stops the program with exit code 1 on any CUDA error: later calls would
/// only report the same sticky error again.
#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t err_ = (expr);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("FAIL: %s: %s (%s:%d)\n", #expr, cudaGetErrorString(err_),   \
                  __FILE__, __LINE__);                                         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace sample {

/// Exit code of a test that could not run (ctest's SKIP_RETURN_CODE).
inline constexpr int exit_skip = 77;

/// True when a CUDA device can be used; otherwise prints why not.
inline bool have_gpu() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("SKIP: no GPU (%s)\n", err != cudaSuccess
                                           ? cudaGetErrorString(err)
                                           : "no CUDA device");
    return false;
  }
  return true;
}

/// n floats on the device at `shift` elements past a 16-byte boundary (a
/// shift that is not a multiple of 4 makes the pointer misaligned, so the
/// launch wrapper must pick its generic variant), between guard zones.
class DeviceArray {
public:
  DeviceArray(std::size_t n, std::size_t shift)
      : n(n), shift(shift), total(n + shift + 2 * guard_elements) {
    CUDA_CHECK(cudaMalloc(&base, total * sizeof(float)));
  }
  DeviceArray(std::span<const float> host, std::size_t shift)
      : DeviceArray(host.size(), shift) {
    upload(host);
  }
  ~DeviceArray() { cudaFree(base); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;

  float *get() const { return base + guard_elements + shift; }
  std::size_t size() const { return n; }

  void upload(std::span<const float> host) {
    CUDA_CHECK(cudaMemcpy(get(), host.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  }

  /// Fills everything, guards included, with NaN (sample::poison()).
  void poison() { CUDA_CHECK(cudaMemset(base, 0xff, total * sizeof(float))); }

  std::vector<float> download() const {
    std::vector<float> host(n);
    CUDA_CHECK(cudaMemcpy(host.data(), get(), n * sizeof(float),
                          cudaMemcpyDeviceToHost));
    return host;
  }

  /// Whether the guard zones still hold the poison.
  bool guards_intact(const std::string &what) const {
    std::vector<float> front(guard_elements + shift), back(guard_elements);
    CUDA_CHECK(cudaMemcpy(front.data(), base, front.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(back.data(), get() + n, back.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
    return guard_intact(what, front, -std::ptrdiff_t(front.size())) &&
           guard_intact(what, back, std::ptrdiff_t(n));
  }

private:
  float *base = nullptr;
  std::size_t n, shift, total;
};

/// Launches into a poisoned output, waits, and compares the output with the
/// reference and its guard zones with the poison. launch() returns the
/// launch wrapper's error code.
template <class Launch>
bool check_launch(const std::string &what, DeviceArray &out,
                  cudaStream_t stream, Launch launch,
                  std::span<const float> want, Tolerance tol) {
  out.poison();
  CUDA_CHECK(launch());
  CUDA_CHECK(cudaStreamSynchronize(stream));
  bool ok = out.guards_intact(what);
  ok &= compare(what, out.download(), want, tol);
  return ok;
}

} // namespace sample

#endif // SAMPLES_COMMON_CUDA_CHECK_HPP
