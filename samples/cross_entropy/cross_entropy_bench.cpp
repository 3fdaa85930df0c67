// Times cross_entropy (count_targets, then the fused loss and gradient) on
// 8192 tokens of 32000 and 128256 bf16 and fp16 logits, label smoothing
// 0.1, every configuration; checks the first run's loss and gradient of 64
// rows spread over the tile against the double reference of those rows (a
// row's loss share and gradient need only its logits and the count: the
// whole reference took minutes of the GPU machine's time) and prints JSON
// lines for scripts/bench.sh.
// The gradient replaces the logits, so the timed runs after the first read
// the previous run's gradient: the same bytes and work (no input value
// changes the kernel's path). Bytes: the logits read twice and the
// gradient written once. Exits 77 without a GPU.
#include "cross_entropy.tile.cpp"
#include "cross_entropy.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <algorithm>
#include <string>

namespace {

constexpr int64_t ignore_index = -100;

template <class T, class Kernel>
bool bench(const char *type, int n_vocab, const tile::config *configs,
           int n_configs, Kernel kernel, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr int n_rows = 8192;
  constexpr float smoothing = 0.1f;
  const std::size_t n = std::size_t(n_rows) * n_vocab;
  auto logits = sample::convert_all<T>(sample::random_vector(n, rng, -4, 12));
  std::vector<int64_t> target(n_rows);
  for (int64_t &t : target)
    t = int64_t(rng.next() % n_vocab);
  constexpr int n_sampled = 64;
  std::vector<int> rows(n_sampled);
  std::vector<float> sampled_logits;
  std::vector<int64_t> sampled_target;
  for (int i = 0; i < n_sampled; ++i) {
    rows[i] = i * (n_rows / n_sampled) + i % 13;
    const auto row = logits.begin() + std::size_t(rows[i]) * n_vocab;
    sampled_logits.insert(sampled_logits.end(), row, row + n_vocab);
    sampled_target.push_back(target[rows[i]]);
  }
  auto want =
      reference::cross_entropy(sampled_logits, sampled_target, n_sampled,
                               n_vocab, n_vocab, ignore_index, smoothing);
  // The reference's mean is over its rows, the run's over all of them (no
  // target is ignored): a power of two, so scaling rounds nothing.
  const float share = float(n_sampled) / n_rows;
  for (float &g : want.grad)
    g *= share;
  for (float &l : want.loss)
    l *= share;
  const auto gt = reference::grad_tolerance(bf16, n_rows);
  sample::DeviceArray<T> dx(n, 0);
  sample::DeviceArray<int64_t> dtarget(target, 0);
  sample::DeviceArray<float> dloss(n_rows, 0);
  sample::DeviceArray<int> dcount(1, 0);
  auto run = [&](int c) {
    if (cudaError_t e = cudaMemsetAsync(dcount.get(), 0, sizeof(int)))
      return e;
    if (cudaError_t e = tilecc::count_targets(
            dtarget.get(), dcount.get(), n_rows, ignore_index, nullptr, -1))
      return e;
    return kernel(dx.get(), dtarget.get(), dloss.get(), dcount.get(), n_rows,
                  n_vocab, int64_t(n_vocab), ignore_index, smoothing, nullptr,
                  c);
  };
  std::vector<sample::Timing> timings;
  for (int c = 0; c < n_configs; ++c) {
    dx.upload(logits);
    CUDA_CHECK(run(c));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::string config = sample::describe(configs[c], {"BLOCK"});
    const std::string what =
        std::string("cross_entropy_") + type + " " + config;
    std::vector<float> grad, loss;
    const auto all_loss = dloss.download();
    for (int r : rows) {
      const auto row = dx.download(std::size_t(r) * n_vocab, n_vocab);
      grad.insert(grad.end(), row.begin(), row.end());
      loss.push_back(all_loss[r]);
    }
    bool good =
        sample::compare(what + " grad", grad, want.grad, {gt.abs, gt.rel});
    const auto lt = reference::loss_tolerance(n_rows);
    good &= sample::compare(what + " loss", loss, want.loss, {lt.abs, lt.rel});
    timings.push_back(
        {config, sample::median_ms([&] { return run(c); }), good});
  }
  return sample::print_timings(std::string("cross_entropy_") + type,
                               {n_rows, n_vocab}, bf16 ? "bf16" : "fp16",
                               "gbps", 3.0 * n * sizeof(T), timings);
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(93);
  bool ok = true;
  for (int n_vocab : {32000, 128256}) {
    ok &=
        bench<tile::bfloat16>("bf16", n_vocab, cross_entropy_bf16_tile_configs,
                              tilecc::cross_entropy_bf16_num_configs,
                              tilecc::cross_entropy_bf16, rng);
    ok &= bench<tile::half>("f16", n_vocab, cross_entropy_f16_tile_configs,
                            tilecc::cross_entropy_f16_num_configs,
                            tilecc::cross_entropy_f16, rng);
  }
  return ok ? 0 : 1;
}
