// Runs count_targets and every configuration of cross_entropy, bf16 and
// fp16, in emulation on vocabularies that are not multiples of the blocks,
// rows a stride apart with one ignored target, with and without label
// smoothing (logits in [-4, 12), whose nonzero mean the smoothing term
// reads), and compares the loss shares and the gradient written in place
// of the logits with the double reference; the gaps between rows must keep
// their poison.
#include "cross_entropy.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr int64_t ignore_index = -100;

template <class T, class Configs>
bool check(const char *type, Configs for_configs) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  sample::Random rng(91);
  bool ok = true;
  for (int n_vocab : {1000, 5003}) {
    constexpr int n_rows = 5;
    const int stride = n_vocab + 5;
    std::vector<T> logits(std::size_t(n_rows) * stride);
    std::memset(logits.data(), 0xff, logits.size() * sizeof(T));
    for (int r = 0; r < n_rows; ++r)
      for (int v = 0; v < n_vocab; ++v)
        logits[std::size_t(r) * stride + v] = T(rng.uniform(-4, 12));
    std::vector<int64_t> target(n_rows);
    for (int64_t &t : target)
      t = int64_t(rng.next() % n_vocab);
    target[2] = ignore_index;
    const auto exact = sample::convert_all<float>(logits);
    for (double smoothing : {0.0, 0.1}) {
      const auto want = reference::cross_entropy(
          exact, target, n_rows, n_vocab, stride, ignore_index, smoothing);
      const double n = n_rows - 1;
      for_configs([&](auto launch, const std::string &config, int) {
        auto x = logits;
        std::vector<float> loss(n_rows, sample::poison());
        int count = 0;
        tile::emulate::launch(count_targets_grid<1024>(target.data(), &count,
                                                       n_rows, ignore_index),
                              count_targets<1024>, target.data(), &count,
                              n_rows, ignore_index);
        launch(x.data(), target.data(), loss.data(), &count, n_rows, n_vocab,
               int64_t(stride), ignore_index, float(smoothing));
        const std::string what = std::string("cross_entropy ") + type + " " +
                                 config + " V=" + std::to_string(n_vocab) +
                                 " smoothing=" + std::to_string(smoothing);
        bool gaps = true;
        for (int r = 0; r < n_rows && gaps; ++r) {
          const std::size_t gap = std::size_t(r) * stride + n_vocab;
          gaps = sample::guard_intact(what, x.data() + gap, stride - n_vocab,
                                      sizeof(T), std::ptrdiff_t(gap));
        }
        const auto lt = reference::loss_tolerance(n);
        const auto gt = reference::grad_tolerance(bf16, n);
        ok &= gaps && count == n_rows - 1;
        ok &=
            sample::compare(what + " loss", loss, want.loss, {lt.abs, lt.rel});
        ok &= sample::compare(
            what + " grad",
            sample::dense_rows(sample::convert_all<float>(x), n_rows, n_vocab,
                               stride),
            sample::dense_rows(want.grad, n_rows, n_vocab, stride),
            {gt.abs, gt.rel});
      });
    }
  }
  std::printf("%s: cross_entropy %s in emulation\n", ok ? "PASS" : "FAIL",
              type);
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::bfloat16>(
      "bf16", [](auto f) { SAMPLE_EACH_BLOCK_CONFIG(cross_entropy_bf16, f); });
  ok &= check<tile::half>(
      "fp16", [](auto f) { SAMPLE_EACH_BLOCK_CONFIG(cross_entropy_f16, f); });
  return ok ? 0 : 1;
}
