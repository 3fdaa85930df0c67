//===- samples/common/bench.hpp - Benchmark timing and output ---*- C++ -*-===//
//
// Times every configuration of a kernel the way triton.testing.do_bench does
// (as long, L2 flushed before each run, one pair of events per run, the
// median), so that scripts/bench.sh can set the numbers beside Triton's and
// PyTorch's.
//
//===----------------------------------------------------------------------===//

#ifndef SAMPLES_COMMON_BENCH_HPP
#define SAMPLES_COMMON_BENCH_HPP

#include "cuda_check.hpp"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace sample {

/// What is measured; bytes are those the kernel must read plus those it
/// must write, each once.
struct Workload {
  std::string name;
  std::vector<long long> shape;
  double bytes;
  Tolerance tol;
  std::string dtype = "fp32";
};

/// How long median_ms warms up and measures: triton.testing.do_bench's
/// defaults as bench_peers.py calls it.
struct Budget {
  double warmup_ms = 25, measure_ms = 100;
};

/// Median milliseconds of launch() as triton.testing.do_bench(warmup=25,
/// rep=100) takes it, so that both sides run as long and a GPU that lowers
/// its clock under sustained load (an H100 at its power limit does within
/// about 100 ms) slows both alike: from the time of five runs, each after
/// the flush, as many warm-up runs as fill budget.warmup_ms and as many
/// timed runs as fill budget.measure_ms, but no fewer than `warmup` and
/// `reps`. Before each timed run a 256 MB buffer is cleared, as do_bench
/// does, so that no run finds its inputs in L2 (50 MB on an H100).
template <class Launch>
double median_ms(Launch launch, int warmup = 10, int reps = 100,
                 Budget budget = {}) {
  constexpr std::size_t flush_bytes = 256u << 20;
  constexpr int estimate_runs = 5;
  void *flush = nullptr;
  CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t begin, end;
  CUDA_CHECK(cudaEventCreate(&begin));
  CUDA_CHECK(cudaEventCreate(&end));
  CUDA_CHECK(launch());
  CUDA_CHECK(cudaEventRecord(begin));
  for (int i = 0; i < estimate_runs; ++i) {
    CUDA_CHECK(cudaMemsetAsync(flush, 0, flush_bytes));
    CUDA_CHECK(launch());
  }
  CUDA_CHECK(cudaEventRecord(end));
  CUDA_CHECK(cudaEventSynchronize(end));
  float estimate = 0;
  CUDA_CHECK(cudaEventElapsedTime(&estimate, begin, end));
  estimate = std::max(estimate / estimate_runs, 1e-3f);
  CUDA_CHECK(cudaEventDestroy(begin));
  CUDA_CHECK(cudaEventDestroy(end));
  warmup = std::max(warmup, int(budget.warmup_ms / estimate));
  reps = std::max(reps, int(budget.measure_ms / estimate));
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventCreate(&start[i]));
    CUDA_CHECK(cudaEventCreate(&stop[i]));
  }
  for (int i = 0; i < warmup; ++i)
    CUDA_CHECK(launch());
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaMemsetAsync(flush, 0, flush_bytes));
    CUDA_CHECK(cudaEventRecord(start[i]));
    CUDA_CHECK(launch());
    CUDA_CHECK(cudaEventRecord(stop[i]));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    float t;
    CUDA_CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
    ms[i] = t;
    CUDA_CHECK(cudaEventDestroy(start[i]));
    CUDA_CHECK(cudaEventDestroy(stop[i]));
  }
  CUDA_CHECK(cudaFree(flush));
  std::sort(ms.begin(), ms.end());
  return reps % 2 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
}

/// One configuration's result: its description, median milliseconds, and
/// whether its output was right.
struct Timing {
  std::string config;
  double ms;
  bool right;
};

/// Prints one JSON line per timing for scripts/bench.sh, the fastest marked
/// "best": true, with its rate: "gbps" (work in bytes) or "tflops" (work in
/// flops) per run. Returns whether every output was right.
inline bool print_timings(const std::string &workload,
                          const std::vector<long long> &shape,
                          const std::string &dtype, const char *rate,
                          double work, const std::vector<Timing> &timings) {
  std::string dims;
  for (long long d : shape)
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  const double scale = std::string(rate) == "tflops" ? 1e9 : 1e6;
  std::size_t best = 0;
  for (std::size_t i = 0; i < timings.size(); ++i)
    if (timings[i].ms < timings[best].ms)
      best = i;
  bool ok = true;
  for (std::size_t i = 0; i < timings.size(); ++i) {
    const Timing &t = timings[i];
    std::printf("{\"workload\": \"%s\", \"impl\": \"tilecc\", \"shape\": [%s], "
                "\"dtype\": \"%s\", \"config\": \"%s\", \"ms\": %.5f, "
                "\"%s\": %.1f, \"best\": %s, \"ok\": %s}\n",
                workload.c_str(), dims.c_str(), dtype.c_str(), t.config.c_str(),
                t.ms, rate, work / t.ms / scale, i == best ? "true" : "false",
                t.right ? "true" : "false");
    ok &= t.right;
  }
  return ok;
}

/// For each configuration: one launch into a poisoned output checked against
/// the reference, then the timing. Prints one JSON line per configuration,
/// the fastest marked "best": true. launch(config) returns the launch
/// wrapper's error code. Returns whether every output was right.
template <class T, class Launch>
bool bench_configs(const Workload &workload,
                   std::span<const tile::config> configs,
                   std::initializer_list<const char *> meta_names,
                   DeviceArray<T> &out, std::span<const float> want,
                   Launch launch) {
  std::vector<Timing> timings;
  for (int c = 0; c < static_cast<int>(configs.size()); ++c) {
    std::string what = workload.name + " " + describe(configs[c], meta_names);
    const bool right = check_launch(
        what, out, nullptr, [&] { return launch(c); }, want, workload.tol);
    timings.push_back({describe(configs[c], meta_names),
                       median_ms([&] { return launch(c); }), right});
  }
  return print_timings(workload.name, workload.shape, workload.dtype, "gbps",
                       workload.bytes, timings);
}

} // namespace sample

#endif // SAMPLES_COMMON_BENCH_HPP
