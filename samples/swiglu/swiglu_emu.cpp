// Runs every configuration of the SwiGLU and GeGLU kernels, forward and
// backward, bf16 and fp16, in emulation on sizes that are not multiples of
// the blocks, and compares c, da and db with the double reference; the
// elements past n must keep their poison.
#include "swiglu.tile.cpp"

#include "check.hpp"
#include "inputs.hpp"
#include "reference.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

template <class T> struct Poisoned {
  std::vector<T> all;
  explicit Poisoned(std::size_t n) : all(n + sample::guard_elements) {
    std::memset(all.data(), 0xff, all.size() * sizeof(T));
  }
  T *data() { return all.data(); }
  std::vector<float> first(std::size_t n) const {
    return std::vector<float>(all.begin(), all.begin() + n);
  }
  bool tail_intact(const std::string &what, std::size_t n) const {
    return sample::guard_intact(what, all.data() + n, sample::guard_elements,
                                sizeof(T), std::ptrdiff_t(n));
  }
};

template <class T, class Fwd, class Bwd>
bool check(const std::string &name, bool gelu, Fwd for_fwd, Bwd for_bwd) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  const auto tol = reference::tolerance(bf16);
  sample::Random rng(81);
  bool ok = true;
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(5003)}) {
    const auto [a, b, dc, want] = sample::glu_inputs<T>(n, rng, gelu);
    const std::string size = " n=" + std::to_string(n);
    for_fwd([&](auto launch, const std::string &config, int) {
      Poisoned<T> c(n);
      launch(a.data(), b.data(), c.data(), int64_t(n));
      const std::string what = name + "_fwd " + config + size;
      ok &= c.tail_intact(what, n) &&
            sample::compare(what, c.first(n), want.c, {tol.abs, tol.rel});
    });
    for_bwd([&](auto launch, const std::string &config, int) {
      Poisoned<T> da(n), db(n);
      launch(dc.data(), a.data(), b.data(), da.data(), db.data(), int64_t(n));
      const std::string what = name + "_bwd " + config + size;
      ok &= da.tail_intact(what + " da", n) && db.tail_intact(what + " db", n);
      ok &= sample::compare(what + " da", da.first(n), want.da,
                            {tol.abs, tol.rel});
      ok &= sample::compare(what + " db", db.first(n), want.db,
                            {tol.abs, tol.rel});
    });
  }
  std::printf("%s: %s in emulation\n", ok ? "PASS" : "FAIL", name.c_str());
  return ok;
}

} // namespace

int main() {
#define GLU_CHECK(NAME, GELU, SUFFIX, T)                                       \
  check<T>(                                                                    \
      #NAME "_" #SUFFIX, GELU,                                                 \
      [](auto f) { SAMPLE_EACH_BLOCK_CONFIG(NAME##_fwd_##SUFFIX, f); },        \
      [](auto f) { SAMPLE_EACH_BLOCK_CONFIG(NAME##_bwd_##SUFFIX, f); })
  bool ok = GLU_CHECK(swiglu, false, bf16, tile::bfloat16);
  ok &= GLU_CHECK(swiglu, false, f16, tile::half);
  ok &= GLU_CHECK(geglu, true, bf16, tile::bfloat16);
  ok &= GLU_CHECK(geglu, true, f16, tile::half);
#undef GLU_CHECK
  return ok ? 0 : 1;
}
