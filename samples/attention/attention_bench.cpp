// Times attention_f16 at batch 4, 32 heads, seq 1024, 4096 and 8192,
// head_dim 64 and 128, causal and not, with every configuration that
// applies (its head_dim and masking, and its select rule); checks 64
// sampled rows of each result against the reference and prints JSON lines
// (TFLOP/s: 4 B H seq^2 D / t, halved when causal) for scripts/bench.sh.
// Exits 77 without a GPU.
#include "attention.tile.cpp"
#include "attention.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

constexpr std::initializer_list<const char *> meta_names = {
    "BM", "BN", "D", "CAUSAL", "PERSISTENT"};

bool bench() {
  constexpr int batch = 4, heads_per = 32, heads = batch * heads_per;
  using T = tile::half;
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
      sample::DeviceArray<T> dq(q, 0), dk(k, 0), dv(v, 0), dout(n, 0);
      sample::DeviceArray<float> dlse(std::size_t(heads) * seq, 0);
      const float scale = 1.0f / std::sqrt(float(d));
      for (int causal : {0, 1}) {
        std::vector<double> ms;
        std::vector<bool> right;
        std::vector<int> configs;
        for (int c = 0; c < tilecc::attention_f16_num_configs; ++c) {
          if (attention_f16_tile_configs[c].meta[2] != d ||
              attention_f16_tile_configs[c].meta[3] != causal)
            continue;
          auto launch = [&] {
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
          std::string what =
              "attention_f16 " +
              sample::describe(attention_f16_tile_configs[c], meta_names) +
              " seq=" + std::to_string(seq);
          right.push_back(sample::compare(what, got_s, want_s,
                                          {reference::out_tolerance, 0}));
          ms.push_back(sample::median_ms(launch, 10, 50));
          configs.push_back(c);
        }
        const double flops =
            4.0 * heads * double(seq) * seq * d * (causal ? 0.5 : 1.0);
        auto best = std::min_element(ms.begin(), ms.end()) - ms.begin();
        for (std::size_t i = 0; i < ms.size(); ++i) {
          std::printf(
              "{\"workload\": \"attention_f16%s\", \"impl\": \"tilecc\", "
              "\"shape\": [%d, %d, %d, %d], \"dtype\": \"fp16\", \"config\": "
              "\"%s\", \"ms\": %.5f, \"tflops\": %.1f, \"best\": %s, \"ok\": "
              "%s}\n",
              causal ? "_causal" : "", batch, heads_per, seq, d,
              sample::describe(attention_f16_tile_configs[configs[i]],
                               meta_names)
                  .c_str(),
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

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  return bench() ? 0 : 1;
}
