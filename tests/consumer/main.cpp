// Calls the generated saxpy wrapper on the GPU and checks the result against
// a host loop. Exit codes: 0 pass, 1 fail, 77 no GPU (ctest's skip code).
#include "saxpy.tile.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(err_));                                  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("SKIP: no GPU");
    return 77;
  }

  // Not a multiple of the block size, so the masked tail is exercised.
  const int n = 100003;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.001f * static_cast<float>(i % 1000);
    y[i] = 1.0f - 0.002f * static_cast<float>(i % 500);
  }

  const size_t bytes = n * sizeof(float);
  float *dx = nullptr, *dy = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(tilecc::saxpy(a, dx, dy, dout, n));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dout));

  for (int i = 0; i < n; ++i) {
    const float want = a * x[i] + y[i];
    if (std::fabs(out[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
      std::fprintf(stderr, "FAIL: out[%d] = %g, want %g\n", i, out[i], want);
      return 1;
    }
  }
  std::printf("PASS: saxpy over %d elements\n", n);
  return 0;
}
