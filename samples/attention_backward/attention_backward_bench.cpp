// Times the backward pass (fp16) at batch 4, 32 heads, seq 1024, 4096 and
// 8192, head_dim 64 and 128, causal and not: each configuration of dK/dV, of
// dQ and of the fused kernel that applies, and the whole pass with the
// fastest of each, both ways: delta, then dK and dV beside dQ on a second
// stream; and, where a fused configuration serves, delta, then the fused
// kernel (dQ added up in fp32 beside dK and dV) and its cast. The faster is
// the pass's "best". O and lse are random (the kernels' arithmetic does not
// need them to come from a forward pass; lse = ln(keys) keeps P's rows near
// a sum of 1); 16 sampled rows of dQ, dK and dV are checked against the
// reference, for each way. Prints JSON lines (TFLOP/s: 2.5 x 4 B H seq^2 D /
// t, halved when causal: five matmuls to the forward's two; a kernel's own
// line, "part_of" the pass, counts the pass's) for scripts/bench.sh.
// Exits 77 without a GPU.
#include "attention_backward.tile.cpp"
#include "attention_backward.tile.h"

#include "backward_reference.hpp"
#include "bench.hpp"

#include <cstdio>
#include <string>

namespace {

constexpr std::initializer_list<const char *> block_names = {"BM", "BN", "D",
                                                             "CAUSAL"};
constexpr std::initializer_list<const char *> fused_names = {
    "BM", "BN", "D", "CAUSAL", "PERSISTENT"};

using T = tile::half;

struct Problem {
  int heads, seq, d, causal;
  float scale;
  sample::DeviceArray<T> &q, &k, &v, &o, &d_o, &dq, &dk, &dv;
  sample::DeviceArray<float> &lse, &delta, &dq_acc;

  cudaError_t delta_pass(cudaStream_t stream = nullptr) const {
    return tilecc::attention_bwd_delta_f16(o.get(), d_o.get(), delta.get(),
                                           nullptr, seq, heads, d, stream, -1);
  }
  cudaError_t dkdv_pass(int c, cudaStream_t stream = nullptr) const {
    return tilecc::attention_bwd_dkdv_f16(
        q.get(), k.get(), v.get(), d_o.get(), lse.get(), delta.get(), dk.get(),
        dv.get(), scale, seq, heads, d, causal, stream, c);
  }
  cudaError_t dq_pass(int c, cudaStream_t stream = nullptr) const {
    return tilecc::attention_bwd_dq_f16(q.get(), k.get(), v.get(), d_o.get(),
                                        lse.get(), delta.get(), dq.get(), scale,
                                        seq, heads, d, causal, stream, c);
  }
  /// The whole pass by the fused kernel: delta and dq_acc zeroed, then dQ
  /// added up there beside dK and dV, then rounded into dq.
  cudaError_t fused_pass(int c, cudaStream_t stream = nullptr) const {
    cudaError_t err = tilecc::attention_bwd_delta_f16(
        o.get(), d_o.get(), delta.get(), dq_acc.get(), seq, heads, d, stream);
    if (err == cudaSuccess)
      err = tilecc::attention_bwd_fused_f16(
          q.get(), k.get(), v.get(), d_o.get(), lse.get(), delta.get(),
          dk.get(), dv.get(), dq_acc.get(), scale, seq, heads, d, causal,
          stream, c);
    if (err == cudaSuccess)
      err = tilecc::attention_bwd_dq_cast_f16(dq_acc.get(), dq.get(), seq,
                                              heads, d, stream);
    return err;
  }
};

/// The whole pass as a user would run it: delta, then dK/dV and dQ, which
/// are independent of each other, side by side on two streams, so that
/// the programs of one fill the SMs the other's last wave leaves idle.
/// Ordered after, and waited for by, the legacy default stream (where the
/// benchmark's events are recorded).
class Overlapped {
public:
  Overlapped() {
    for (auto *s : {&first, &second})
      CUDA_CHECK(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    for (auto *e : {&begun, &delta_done, &first_done, &second_done})
      CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  }
  ~Overlapped() {
    for (auto s : {first, second})
      cudaStreamDestroy(s);
    for (auto e : {begun, delta_done, first_done, second_done})
      cudaEventDestroy(e);
  }
  Overlapped(const Overlapped &) = delete;
  Overlapped &operator=(const Overlapped &) = delete;

  template <class Delta, class One, class Other>
  cudaError_t run(Delta delta, One one, Other other) {
    cudaError_t err = cudaEventRecord(begun, nullptr);
    auto then = [&err](auto step) {
      if (err == cudaSuccess)
        err = step();
    };
    then([&] { return cudaStreamWaitEvent(first, begun); });
    then([&] { return delta(first); });
    then([&] { return cudaEventRecord(delta_done, first); });
    then([&] { return cudaStreamWaitEvent(second, delta_done); });
    then([&] { return one(first); });
    then([&] { return other(second); });
    then([&] { return cudaEventRecord(first_done, first); });
    then([&] { return cudaEventRecord(second_done, second); });
    then([&] { return cudaStreamWaitEvent(nullptr, first_done); });
    then([&] { return cudaStreamWaitEvent(nullptr, second_done); });
    return err;
  }

private:
  cudaStream_t first = nullptr, second = nullptr;
  cudaEvent_t begun = nullptr, delta_done = nullptr, first_done = nullptr,
              second_done = nullptr;
};

/// The configurations of a kernel that serve (d, causal), timed: the index
/// and milliseconds of each.
template <std::size_t N, class Pass>
std::vector<std::pair<int, double>>
time_configs(const tile::config (&configs)[N], int d, int causal, Pass pass) {
  std::vector<std::pair<int, double>> times;
  for (std::size_t c = 0; c < N; ++c)
    if (configs[c].meta[2] == d && configs[c].meta[3] == causal)
      times.emplace_back(
          int(c), sample::median_ms([&] { return pass(int(c)); }, 10, 50));
  return times;
}

bool bench() {
  constexpr int batch = 4, heads_per = 32, heads = batch * heads_per;
  bool ok = true;
  sample::Random rng(46);
  Overlapped overlapped;
  for (int d : {64, 128})
    for (int seq : {1024, 4096, 8192}) {
      const std::size_t n = std::size_t(heads) * seq * d,
                        rows = std::size_t(heads) * seq;
      auto random = [&] {
        return sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
      };
      auto q = random(), k = random(), v = random(), o = random(),
           d_o = random();
      sample::DeviceArray<T> g_q(q, 0), g_k(k, 0), g_v(v, 0), g_o(o, 0),
          g_do(d_o, 0), g_dq(n, 0), g_dk(n, 0), g_dv(n, 0);
      sample::DeviceArray<float> g_lse(rows, 0), g_delta(rows, 0),
          g_dq_acc(n, 0);
      auto qf = sample::convert_all<float>(q),
           kf = sample::convert_all<float>(k),
           vf = sample::convert_all<float>(v),
           d_of = sample::convert_all<float>(d_o);
      auto delta =
          reference::row_deltas(sample::convert_all<float>(o), d_of, rows, d);
      for (int causal : {0, 1}) {
        std::vector<float> lse(rows);
        for (std::size_t r = 0; r < rows; ++r)
          lse[r] = std::log(float(causal ? r % seq + 1 : seq));
        g_lse.upload(lse);
        const Problem p{heads,   seq,  d,    causal, 1.0f / std::sqrt(float(d)),
                        g_q,     g_k,  g_v,  g_o,    g_do,
                        g_dq,    g_dk, g_dv, g_lse,  g_delta,
                        g_dq_acc};
        const reference::BackwardInputs in{
            qf, kf, vf, d_of, lse, delta, seq, d, p.scale, bool(causal)};
        CUDA_CHECK(p.delta_pass());
        auto dkdv = time_configs(attention_bwd_dkdv_f16_tile_configs, d, causal,
                                 [&](int c) { return p.dkdv_pass(c); });
        auto dq = time_configs(attention_bwd_dq_f16_tile_configs, d, causal,
                               [&](int c) { return p.dq_pass(c); });
        auto fastest = [](const auto &times) {
          return std::min_element(
                     times.begin(), times.end(),
                     [](auto a, auto b) { return a.second < b.second; })
              ->first;
        };
        auto fused =
            time_configs(attention_bwd_fused_f16_tile_configs, d, causal,
                         [&](int c) { return p.fused_pass(c); });
        const int best_dkdv = fastest(dkdv), best_dq = fastest(dq);
        const int best_fused = fused.empty() ? -1 : fastest(fused);
        auto separate = [&] {
          return overlapped.run(
              [&](cudaStream_t s) { return p.delta_pass(s); },
              [&](cudaStream_t s) { return p.dkdv_pass(best_dkdv, s); },
              [&](cudaStream_t s) { return p.dq_pass(best_dq, s); });
        };
        auto fused_whole = [&] { return p.fused_pass(best_fused); };
        const std::string shape = " seq=" + std::to_string(seq) +
                                  " d=" + std::to_string(d) +
                                  " causal=" + std::to_string(causal);
        // 16 sampled rows of each gradient against the reference.
        auto check = [&](const std::string &what, auto whole) {
          for (auto *out : {&g_dq, &g_dk, &g_dv})
            out->poison();
          CUDA_CHECK(whole());
          CUDA_CHECK(cudaDeviceSynchronize());
          auto got_dq = g_dq.download_floats(), got_dk = g_dk.download_floats(),
               got_dv = g_dv.download_floats();
          std::vector<float> got_s, want_s(std::size_t(48) * d);
          for (int s = 0; s < 16; ++s) {
            const int h = int(rng.next() % heads), i = int(rng.next() % seq);
            auto want_row = [&](int which) {
              return std::span(want_s).subspan(std::size_t(3 * s + which) * d,
                                               d);
            };
            reference::query_gradient_row(in, h, i, want_row(0));
            reference::key_gradient_rows(in, h, i, want_row(1), want_row(2));
            for (auto *got : {&got_dq, &got_dk, &got_dv}) {
              auto row = got->begin() + (std::size_t(h) * seq + i) * d;
              got_s.insert(got_s.end(), row, row + d);
            }
          }
          return sample::compare(what + shape, got_s, want_s,
                                 {reference::gradient_abs_tolerance,
                                  reference::gradient_rel_tolerance});
        };
        const bool separate_right = check("attention_bwd_f16", separate);
        const bool fused_right =
            fused.empty() || check("attention_bwd_f16 fused", fused_whole);
        ok &= separate_right && fused_right;
        const double flops =
            2.5 * 4.0 * heads * double(seq) * seq * d * (causal ? 0.5 : 1.0);
        // A kernel's own line says which pass it is part of.
        auto line = [&](const char *workload, const std::string &config,
                        double ms, bool best, bool right, bool part) {
          std::printf(
              "{\"workload\": \"%s%s\", \"impl\": \"tilecc\", \"shape\": [%d, "
              "%d, %d, %d], \"dtype\": \"fp16\", \"config\": \"%s\", \"ms\": "
              "%.5f, \"tflops\": %.1f, \"best\": %s, \"ok\": %s%s}\n",
              workload, causal ? "_causal" : "", batch, heads_per, seq, d,
              config.c_str(), ms, flops / ms / 1e9, best ? "true" : "false",
              right ? "true" : "false",
              part ? ", \"part_of\": \"attention_bwd_f16\"" : "");
        };
        for (auto [c, ms] : dkdv)
          line("attention_bwd_dkdv_f16",
               sample::describe(attention_bwd_dkdv_f16_tile_configs[c],
                                block_names),
               ms, c == best_dkdv, separate_right, true);
        for (auto [c, ms] : dq)
          line("attention_bwd_dq_f16",
               sample::describe(attention_bwd_dq_f16_tile_configs[c],
                                block_names),
               ms, c == best_dq, separate_right, true);
        for (auto [c, ms] : fused)
          line("attention_bwd_fused_f16",
               sample::describe(attention_bwd_fused_f16_tile_configs[c],
                                fused_names),
               ms, c == best_fused, fused_right, true);
        // The whole pass both ways; the faster is the pass's result.
        const double separate_ms = sample::median_ms(separate, 10, 50);
        const double fused_ms =
            fused.empty() ? 0 : sample::median_ms(fused_whole, 10, 50);
        const bool fused_faster = !fused.empty() && fused_ms < separate_ms;
        line(
            "attention_bwd_f16",
            "dkdv " +
                sample::describe(attention_bwd_dkdv_f16_tile_configs[best_dkdv],
                                 block_names) +
                "; dq " +
                sample::describe(attention_bwd_dq_f16_tile_configs[best_dq],
                                 block_names),
            separate_ms, !fused_faster, separate_right, false);
        if (!fused.empty())
          line("attention_bwd_f16",
               "fused " + sample::describe(
                              attention_bwd_fused_f16_tile_configs[best_fused],
                              fused_names),
               fused_ms, fused_faster, fused_right, false);
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
