// Times attention_f16 and attention_fp8 (or those named: fp16, fp8) at
// batch 4, 32 heads, seq 1024, 4096 and 8192, head_dim 64 and 128, causal
// and not, with every configuration that applies (its head_dim and
// masking, and its select rule); checks 64 sampled rows of each result
// against the reference and prints JSON lines (TFLOP/s: 4 B H seq^2 D / t,
// halved when causal) for scripts/bench.sh. Exits 77 without a GPU.
#include "attention.tile.h"
#include "configs.hpp"

#include "bench.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>

namespace {

template <class T> bool bench(const char *name, const char *dtype) {
  constexpr int batch = 4, heads_per = 32, heads = batch * heads_per;
  bool ok = true;
  sample::Random rng(43);
  for (int d : {64, 128})
    for (int seq : {1024, 4096, 8192}) {
      const std::size_t n = std::size_t(heads) * seq * d;
      auto q = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
      auto k = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
      auto v = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
      auto qf = sample::convert_all<float>(q),
           kf = sample::convert_all<float>(k),
           vf = sample::convert_all<float>(v);
      sample::DeviceArray<T> dq(q, 0), dk(k, 0),
          dv(v_operand(v, heads, seq, d), 0);
      sample::DeviceArray<out_type<T>> dout(n, 0);
      sample::DeviceArray<float> dlse(std::size_t(heads) * seq, 0);
      const float scale = 1.0f / std::sqrt(float(d));
      for (int causal : {0, 1}) {
        std::vector<double> ms;
        std::vector<bool> right;
        std::vector<int> timed;
        for (int c = 0; c < int(std::size(configs<T>())); ++c) {
          if (configs<T>()[c].meta[2] != d || configs<T>()[c].meta[3] != causal)
            continue;
          auto launch = [&] {
            if constexpr (sizeof(T) == 1)
              return tilecc::attention_fp8(dq.get(), dk.get(), dv.get(),
                                           dout.get(), dlse.get(), scale, seq,
                                           heads, d, causal, nullptr, c);
            else
              return tilecc::attention_f16(dq.get(), dk.get(), dv.get(),
                                           dout.get(), dlse.get(), scale, seq,
                                           heads, d, causal, nullptr, c);
          };
          dout.poison();
          // A configuration whose select rule refuses this length (64-row
          // blocks past seq 4096) is refused before any launch.
          const cudaError_t first = launch();
          if (first == cudaErrorInvalidValue)
            continue;
          CUDA_CHECK(first);
          CUDA_CHECK(cudaDeviceSynchronize());
          auto got = dout.download_floats();
          std::vector<float> got_s, want_s(std::size_t(64) * d);
          for (int s = 0; s < 64; ++s) {
            int h = int(rng.next() % heads), i = int(rng.next() % seq);
            reference::attention_row(
                qf, kf, vf, seq, d, scale, causal, h, i,
                std::span(want_s).subspan(std::size_t(s) * d, d));
            auto row = got.begin() + (std::size_t(h) * seq + i) * d;
            got_s.insert(got_s.end(), row, row + d);
          }
          std::string what = std::string(name) + " " +
                             sample::describe(configs<T>()[c], names_of<T>()) +
                             " seq=" + std::to_string(seq);
          right.push_back(
              sample::compare(what, got_s, want_s, {out_tolerance<T>(), 0}));
          ms.push_back(sample::median_ms(launch, 10, 50));
          timed.push_back(c);
        }
        const double flops =
            4.0 * heads * double(seq) * seq * d * (causal ? 0.5 : 1.0);
        auto best = std::min_element(ms.begin(), ms.end()) - ms.begin();
        for (std::size_t i = 0; i < ms.size(); ++i) {
          std::printf(
              "{\"workload\": \"%s%s\", \"impl\": \"tilecc\", "
              "\"shape\": [%d, %d, %d, %d], \"dtype\": \"%s\", \"config\": "
              "\"%s\", \"ms\": %.5f, \"tflops\": %.1f, \"best\": %s, \"ok\": "
              "%s}\n",
              name, causal ? "_causal" : "", batch, heads_per, seq, d, dtype,
              sample::describe(configs<T>()[timed[i]], names_of<T>()).c_str(),
              ms[i], flops / ms[i] / 1e9,
              std::ptrdiff_t(i) == best ? "true" : "false",
              right[i] ? "true" : "false");
          ok &= right[i];
        }
      }
    }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  if (!sample::have_gpu())
    return sample::exit_skip;
  auto wanted = [&](const char *dtype) {
    return argc < 2 || std::any_of(argv + 1, argv + argc, [&](const char *a) {
             return std::string(a) == dtype;
           });
  };
  bool ok = true;
  if (wanted("fp16"))
    ok &= bench<tile::half>("attention_f16", "fp16");
  if (wanted("fp8"))
    ok &= bench<tile::float8_e4m3>("attention_fp8", "fp8e4m3");
  return ok ? 0 : 1;
}
