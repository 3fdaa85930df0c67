// Runs attention_f16, attention_bf16 and attention_fp8 on the GPU through
// their launch wrappers, with the default configuration (the wrapper picks by
// head_dim and masking) and every explicit one that applies, on sequence
// lengths below, at and not at multiples of the blocks (208: a multiple of 16,
// so the aligned variant, with TMA copies whose last boxes cross the end of a
// head, but of no block; 1040, eight whole blocks of 128 keys before the
// masked one, runs a rotated key loop through several iterations), and
// with 70 heads of 270 rows (210 blocks, more than an H100 or H200 runs at
// once: a persistent program takes several), causal and not, head_dim 64
// and 128, into
// poisoned outputs with guard zones; once more with misaligned pointers (the
// generic variant); and on one head of 4100 rows, past the length where
// the configurations' select rules change. An explicit configuration whose
// select rule refuses a length (64-row blocks past 4096, 256-row blocks up
// to 4096, a persistent head_dim-64 program of 128 rows past 1024) must return
// cudaErrorInvalidValue. Exits 77 without a GPU.
#include "attention.tile.h"
#include "configs.hpp"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <type_traits>

namespace {

struct Shape {
  int heads, seq;
};
constexpr Shape shapes[] = {{3, 1},    {3, 64},  {3, 70},   {3, 128},
                            {3, 200},  {3, 208}, {3, 1000}, {3, 1040},
                            {70, 270}, {1, 4100}};

/// Whether configuration c of the kernel for T's select rule refuses seq
/// (attention.tile.cpp).
template <class T> bool refuses(const tile::config &c, int seq) {
  const int bm = c.meta[0], d = c.meta[2], persistent = c.meta[4];
  return sizeof(T) != 1 && (bm == 64    ? seq > 4096
                            : bm == 256 ? seq <= 4096
                                        : d == 64 && persistent && seq > 1024);
}

template <class T> bool check(const char *name) {
  sample::Random rng(42);
  bool ok = true;
  int runs = 0;
  for (int d : {64, 128})
    for (int causal : {0, 1})
      for (const auto [heads, seq] : shapes) {
        const std::size_t n = std::size_t(heads) * seq * d;
        auto q = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
        auto k = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
        auto v = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
        const float scale = 1.0f / std::sqrt(float(d));
        auto want = reference::attention(
            sample::convert_all<float>(q), sample::convert_all<float>(k),
            sample::convert_all<float>(v), heads, seq, d, scale, causal);
        for (std::size_t shift : {0, 1}) {
          sample::DeviceArray<T> dq(q, shift), dk(k, shift),
              dv(v_operand(v, heads, seq, d), shift);
          sample::DeviceArray<out_type<T>> dout(n, shift);
          sample::DeviceArray<float> dlse(std::size_t(heads) * seq, shift);
          for (int config = -1; config < int(std::size(configs<T>()));
               ++config) {
            if (config >= 0 && (configs<T>()[config].meta[2] != d ||
                                configs<T>()[config].meta[3] != causal))
              continue;
            if (shift && config >= 0)
              continue; // the generic variant once, by default
            std::string what =
                std::string(name) + " " +
                sample::describe_config(configs<T>(), config, names_of<T>()) +
                " seq=" + std::to_string(seq) + " d=" + std::to_string(d) +
                " causal=" + std::to_string(causal) +
                (shift ? " misaligned" : "");
            auto launch = [&] {
              if constexpr (std::is_same_v<T, tile::half>)
                return tilecc::attention_f16(dq.get(), dk.get(), dv.get(),
                                             dout.get(), dlse.get(), scale, seq,
                                             heads, d, causal, nullptr, config);
              else if constexpr (std::is_same_v<T, tile::float8_e4m3>)
                return tilecc::attention_fp8(dq.get(), dk.get(), dv.get(),
                                             dout.get(), dlse.get(), scale, seq,
                                             heads, d, causal, nullptr, config);
              else
                return tilecc::attention_bf16(
                    dq.get(), dk.get(), dv.get(), dout.get(), dlse.get(), scale,
                    seq, heads, d, causal, nullptr, config);
            };
            if (config >= 0 && refuses<T>(configs<T>()[config], seq)) {
              if (launch() != cudaErrorInvalidValue) {
                std::printf("FAIL %s: not refused\n", what.c_str());
                ok = false;
              }
              continue;
            }
            dlse.poison();
            ok &= sample::check_launch(what + " out", dout, nullptr, launch,
                                       want.out, {out_tolerance<T>(), 0});
            ok &= dlse.guards_intact(what + " lse") &&
                  sample::compare(what + " lse", dlse.download_floats(),
                                  want.lse, {reference::lse_tolerance, 0});
            ++runs;
          }
        }
      }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  if (!sample::have_gpu())
    return sample::exit_skip;
  // Those named (fp16, bf16, fp8), or all.
  auto wanted = [&](const char *dtype) {
    return argc < 2 || std::any_of(argv + 1, argv + argc, [&](const char *a) {
             return std::string(a) == dtype;
           });
  };
  bool ok = true;
  if (wanted("fp16"))
    ok &= check<tile::half>("attention_f16");
  if (wanted("bf16"))
    ok &= check<tile::bfloat16>("attention_bf16");
  if (wanted("fp8"))
    ok &= check<tile::float8_e4m3>("attention_fp8");
  return ok ? 0 : 1;
}
