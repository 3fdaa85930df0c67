// Times fused_linear_cross_entropy, forward and backward, on issue 51's
// shape (8192 tokens x 4096 hidden x 128256 vocab, bf16 and fp16) at chunks
// of 1024, 2048 and 4096 tokens, beside the same kernels with the logits
// whole (one chunk of every token: the products and the cross-entropy done
// separately), and prints JSON lines for scripts/bench.sh with "tflops"
// (the three products' 6 N H V flops) and "workspace_mb" (the chunk of
// logits, the memory the fusion holds beyond inputs and outputs). Checked:
// loss shares and dx of sampled tokens against the double reference of
// their rows, and every output of the chunked runs against the whole one
// (only the order of fp32 sums differs). Then the steps of one chunk of
// 4096 tokens, each on its own: the three products at each of their
// configurations (dW both as the first chunk writes it and as a later one
// adds to it) and the cross-entropy. Exits 77 without a GPU.
#include "fused_linear_cross_entropy.tile.cpp"
#include "fused_linear_cross_entropy.tile.h"

#include "bench.hpp"
#include "fused_linear_cross_entropy.hpp"
#include "sampled_tokens.hpp"
#include "wrappers.hpp"

#include <cstdio>
#include <string>

namespace {

constexpr int64_t ignore_index = -100;

/// The steps of one chunk of `rows` tokens timed on their own, each product
/// at each of its configurations (the chunked runs take the wrappers'
/// default), on the buffers of a chunked run just made: the launches are
/// that run's, `right` its check. One workload a step, named after its
/// kernel, for scripts/bench_peers.py's products beside them.
template <class T, class Wrappers>
bool bench_steps(const std::string &suffix, const char *dtype, bool right,
                 int rows, int hidden, int vocab, const T *x, const T *w,
                 T *logits, const int64_t *target, float *loss,
                 const int *count, T *dx, float *dw) {
  const double flops = 2.0 * rows * hidden * double(vocab);
  auto each_config = [&](auto launch) {
    std::vector<sample::Timing> timings;
    for (int c = 0; c < Wrappers::n_configs; ++c)
      timings.push_back(
          {sample::describe(Wrappers::configs[c],
                            {"BM", "BN", "BK", "GROUP_M"}),
           sample::median_ms([&] { return launch(Wrappers{c}); }, 2, 10),
           right});
    return timings;
  };
  bool ok = sample::print_timings(
      "flce_logits_" + suffix, {rows, vocab, hidden}, dtype, "tflops", flops,
      each_config([&](const Wrappers &k) {
        return k.logits(x, w, logits, rows, vocab, hidden);
      }));
  // In place: each timed run takes the previous one's gradient for logits,
  // the same bytes (read twice, written once) and work.
  ok &= sample::print_timings("flce_cross_entropy_" + suffix, {rows, vocab},
                              dtype, "gbps", 3.0 * rows * vocab * sizeof(T),
                              {{"rows of the chunk",
                                sample::median_ms(
                                    [&] {
                                      return Wrappers{}.cross_entropy(
                                          logits, target, loss, count, rows,
                                          vocab, vocab, ignore_index, 0.0f);
                                    },
                                    2, 10),
                                right}});
  ok &= sample::print_timings(
      "flce_grad_input_" + suffix, {rows, hidden, vocab}, dtype, "tflops",
      flops, each_config([&](const Wrappers &k) {
        return k.grad_input(logits, w, dx, count, rows, hidden, vocab);
      }));
  // dW as a later chunk adds to it (read and written in fp32) and as the
  // first writes it.
  for (bool accumulate : {true, false})
    ok &= sample::print_timings(
        std::string(accumulate ? "flce_grad_weight_"
                               : "flce_grad_weight_first_") +
            suffix,
        {vocab, hidden, rows}, dtype, "tflops", flops,
        each_config([&](const Wrappers &k) {
          return k.grad_weight(logits, x, dw, count, vocab, hidden, rows,
                               accumulate);
        }));
  return ok;
}

template <class T, class Wrappers>
bool bench(const char *name, const char *dtype, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr int tokens = 8192, hidden = 4096, vocab = 128256;
  auto x = sample::convert_all<T>(
      sample::random_vector(std::size_t(tokens) * hidden, rng, -1, 1));
  auto w = sample::convert_all<T>(
      sample::random_vector(std::size_t(vocab) * hidden, rng, -0.05f, 0.05f));
  std::vector<int64_t> target(tokens);
  for (int64_t &t : target)
    t = int64_t(rng.next() % vocab);
  for (int r = 7; r < tokens; r += 97)
    target[r] = ignore_index;
  const int live =
      int(std::count_if(target.begin(), target.end(),
                        [](int64_t t) { return t != ignore_index; }));
  sample::DeviceArray<T> dx_(x, 0), dw_(w, 0),
      logits(std::size_t(tokens) * vocab, 0), ddx(x.size(), 0),
      whole_dx(x.size(), 0);
  sample::DeviceArray<int64_t> dtarget(target, 0);
  sample::DeviceArray<float> dloss(tokens, 0), whole_loss(tokens, 0),
      ddw(std::size_t(vocab) * hidden, 0), whole_dw(ddw.size(), 0);
  sample::DeviceArray<int> dcount(1, 0);
  auto run = [&](int chunk, sample::DeviceArray<float> &loss,
                 sample::DeviceArray<T> &dx, sample::DeviceArray<float> &dw) {
    return flce::forward_backward(
        Wrappers{}, flce::Shape{tokens, hidden, vocab, chunk}, dx_.get(),
        dw_.get(), dtarget.get(), ignore_index, 0.0f, logits.get(),
        dcount.get(), loss.get(), dx.get(), dw.get());
  };
  // The whole run, checked on sampled tokens against their rows' reference
  // (a token's loss share and dx need only its own logits).
  CUDA_CHECK(run(tokens, whole_loss, whole_dx, whole_dw));
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto loss_all = whole_loss.download();
  const auto dx_all = whole_dx.download_floats();
  bool ok = flce::check_sampled_tokens<T>(name, x, w, target, hidden, vocab,
                                          ignore_index, live, loss_all, dx_all,
                                          {0, 1234, 4097, tokens - 1});
  const double flops = 6.0 * tokens * hidden * double(vocab);
  std::vector<sample::Timing> timings;
  for (int chunk : {1024, 2048, 4096}) {
    dloss.poison();
    ddx.poison();
    ddw.poison();
    CUDA_CHECK(run(chunk, dloss, ddx, ddw));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::string what =
        std::string(name) + " chunk=" + std::to_string(chunk);
    bool right = sample::compare(what + " loss", dloss.download(), loss_all,
                                 {1e-7, 1e-5});
    right &= sample::compare(what + " dx", ddx.download_floats(), dx_all,
                             {1e-6, bf16 ? 0x1p-7 : 0x1p-10});
    right &= sample::compare(what + " dw", ddw.download(), whole_dw.download(),
                             {1e-6, 1e-4});
    const double mb = double(chunk) * vocab * sizeof(T) / 1e6;
    timings.push_back(
        {"chunk=" + std::to_string(chunk) +
             ",workspace_mb=" + std::to_string(int(mb)),
         sample::median_ms([&] { return run(chunk, dloss, ddx, ddw); }, 2, 10),
         right});
  }
  ok &= sample::print_timings(name, {tokens, hidden, vocab}, dtype, "tflops",
                              flops, timings);
  // The last chunked run's (4096 tokens) steps on their own.
  ok &= bench_steps<T, Wrappers>(
      bf16 ? "bf16" : "f16", dtype, timings.back().right, 4096, hidden, vocab,
      dx_.get(), dw_.get(), logits.get(), dtarget.get(), dloss.get(),
      dcount.get(), ddx.get(), ddw.get());
  const double whole_mb = double(tokens) * vocab * sizeof(T) / 1e6;
  ok &= sample::print_timings(
      std::string("linear_cross_entropy_unfused_") + (bf16 ? "bf16" : "f16"),
      {tokens, hidden, vocab}, dtype, "tflops", flops,
      {{"logits whole,workspace_mb=" + std::to_string(int(whole_mb)),
        sample::median_ms(
            [&] { return run(tokens, whole_loss, whole_dx, whole_dw); }, 2, 10),
        true}});
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(59);
  bool ok = bench<tile::bfloat16, flce::Wrappers_bf16>(
      "fused_linear_cross_entropy_bf16", "bf16", rng);
  ok &= bench<tile::half, flce::Wrappers_f16>("fused_linear_cross_entropy_f16",
                                              "fp16", rng);
  return ok ? 0 : 1;
}
