// Runs count_targets and every configuration of cross_entropy (and the
// wrapper's default), bf16 and fp16, on the GPU through the launch wrappers,
// on vocabularies of 1000, 32000 and 128256 with ignored targets, with and
// without label smoothing, and compares the loss shares and the gradient
// written in place of the logits with the double reference; the guard zones
// must keep their poison. Exits 77 without a GPU.
#include "cross_entropy.tile.cpp"
#include "cross_entropy.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

constexpr int64_t ignore_index = -100;

template <class T, class Kernel>
bool check(const char *type, const tile::config *configs, int n_configs,
           Kernel kernel, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  bool ok = true;
  int runs = 0;
  struct Case {
    int rows, vocab;
  };
  for (auto [n_rows, n_vocab] :
       {Case{1, 1000}, Case{257, 32000}, Case{37, 128256}}) {
    const std::size_t n = std::size_t(n_rows) * n_vocab;
    auto logits = sample::convert_all<T>(sample::random_vector(n, rng, -4, 12));
    std::vector<int64_t> target(n_rows);
    for (int64_t &t : target)
      t = int64_t(rng.next() % n_vocab);
    for (int r = 3; r < n_rows; r += 7)
      target[r] = ignore_index;
    const int live =
        int(std::count_if(target.begin(), target.end(),
                          [](int64_t t) { return t != ignore_index; }));
    const auto exact = sample::convert_all<float>(logits);
    sample::DeviceArray<T> dx(n, 0);
    sample::DeviceArray<int64_t> dtarget(target, 0);
    sample::DeviceArray<float> dloss(n_rows, 0);
    sample::DeviceArray<int> dcount(1, 0);
    for (double smoothing : {0.0, 0.1}) {
      const auto want = reference::cross_entropy(
          exact, target, n_rows, n_vocab, n_vocab, ignore_index, smoothing);
      const auto lt = reference::loss_tolerance(live);
      const auto gt = reference::grad_tolerance(bf16, live);
      // Tuned too: measuring overwrites the logits with gradients many
      // times and adds to the count, which the tuning rules restore and
      // reset.
      for (int c = tile::autotuned; c < n_configs; ++c) {
        const std::string what =
            std::string("cross_entropy ") + type + " " +
            sample::describe_config(configs, c, {"BLOCK"}) + " " +
            std::to_string(n_rows) + "x" + std::to_string(n_vocab) +
            " smoothing=" + std::to_string(smoothing);
        dx.poison();
        dx.upload(logits);
        dloss.poison();
        CUDA_CHECK(cudaMemset(dcount.get(), 0, sizeof(int)));
        CUDA_CHECK(tilecc::count_targets(dtarget.get(), dcount.get(), n_rows,
                                         ignore_index, nullptr,
                                         c == tile::autotuned ? c : -1));
        CUDA_CHECK(kernel(dx.get(), dtarget.get(), dloss.get(), dcount.get(),
                          n_rows, n_vocab, int64_t(n_vocab), ignore_index,
                          float(smoothing), nullptr, c));
        CUDA_CHECK(cudaDeviceSynchronize());
        ok &= dx.guards_intact(what) && dloss.guards_intact(what);
        ok &= dcount.download()[0] == live;
        ok &= sample::compare(what + " loss", dloss.download(), want.loss,
                              {lt.abs, lt.rel});
        ok &= sample::compare(what + " grad", dx.download_floats(), want.grad,
                              {gt.abs, gt.rel});
        ++runs;
      }
    }
  }
  std::printf("%s: cross_entropy %s on the GPU, %d runs\n",
              ok ? "PASS" : "FAIL", type, runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(92);
  bool ok = check<tile::bfloat16>("bf16", cross_entropy_bf16_tile_configs,
                                  tilecc::cross_entropy_bf16_num_configs,
                                  tilecc::cross_entropy_bf16, rng);
  ok &= check<tile::half>("fp16", cross_entropy_f16_tile_configs,
                          tilecc::cross_entropy_f16_num_configs,
                          tilecc::cross_entropy_f16, rng);
  return ok ? 0 : 1;
}
