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

/// n elements (float by default; tile::half for fp16 samples) on the device
/// at `shift` elements past a 16-byte boundary (a shift that breaks the
/// alignment makes the launch wrapper pick its generic variant), between
/// guard zones.
template <class T = float> class DeviceArray {
public:
  DeviceArray(std::size_t n, std::size_t shift)
      : n(n), shift(shift), total(n + shift + 2 * guard_elements) {
    CUDA_CHECK(cudaMalloc(&base, total * sizeof(T)));
  }
  DeviceArray(std::span<const T> host, std::size_t shift)
      : DeviceArray(host.size(), shift) {
    upload(host);
  }
  ~DeviceArray() { cudaFree(base); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;

  T *get() const { return base + guard_elements + shift; }
  std::size_t size() const { return n; }

  void upload(std::span<const T> host) {
    CUDA_CHECK(
        cudaMemcpy(get(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }

  /// Fills everything, guards included, with all-ones bits (a NaN).
  void poison() { CUDA_CHECK(cudaMemset(base, 0xff, total * sizeof(T))); }

  std::vector<T> download() const { return download(0, n); }
  /// count elements from element first.
  std::vector<T> download(std::size_t first, std::size_t count) const {
    std::vector<T> host(count);
    CUDA_CHECK(cudaMemcpy(host.data(), get() + first, count * sizeof(T),
                          cudaMemcpyDeviceToHost));
    return host;
  }

  /// The output as floats, for comparison with a reference.
  std::vector<float> download_floats() const {
    std::vector<T> host = download();
    return std::vector<float>(host.begin(), host.end());
  }

  /// Whether the guard zones still hold the poison.
  bool guards_intact(const std::string &what) const {
    std::vector<T> front(guard_elements + shift), back(guard_elements);
    CUDA_CHECK(cudaMemcpy(front.data(), base, front.size() * sizeof(T),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(back.data(), get() + n, back.size() * sizeof(T),
                          cudaMemcpyDeviceToHost));
    return guard_intact(what, front.data(), front.size(), sizeof(T),
                        -std::ptrdiff_t(front.size())) &&
           guard_intact(what, back.data(), back.size(), sizeof(T),
                        std::ptrdiff_t(n));
  }

private:
  T *base = nullptr;
  std::size_t n, shift, total;
};
template <class T>
DeviceArray(const std::vector<T> &, std::size_t) -> DeviceArray<T>;

/// Launches into a poisoned output, waits, and compares the output with the
/// reference and its guard zones with the poison. launch() returns the
/// launch wrapper's error code.
template <class T, class Launch>
bool check_launch(const std::string &what, DeviceArray<T> &out,
                  cudaStream_t stream, Launch launch,
                  std::span<const float> want, Tolerance tol) {
  out.poison();
  CUDA_CHECK(launch());
  CUDA_CHECK(cudaStreamSynchronize(stream));
  bool ok = out.guards_intact(what);
  ok &= compare(what, out.download_floats(), want, tol);
  return ok;
}

} // namespace sample

#endif // SAMPLES_COMMON_CUDA_CHECK_HPP
