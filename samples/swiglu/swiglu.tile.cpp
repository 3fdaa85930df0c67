// The gated activations of LLM feed-forward layers (Liger-Kernel's SwiGLU
// and GeGLU), forward and backward, on bf16 or fp16 tensors of n elements,
// computed in fp32 and rounded once:
//   swiglu   c = silu(a) * b, silu(a) = a sigmoid(a);
//            da = dc b sigmoid(a) (1 + a (1 - sigmoid(a))), db = dc silu(a)
//   geglu    c = gelu(a) * b, gelu the tanh approximation
//            0.5 a (1 + tanh(k (a + 0.044715 a^3))), k = sqrt(2 / pi);
//            da = dc b gelu'(a), db = dc gelu(a)
// Elementwise at the copy ceiling: each program a BLOCK of elements, with
// 64-bit offsets (a layer's activations pass 2^31 elements at long
// sequences).
#include <cstdint>
#include <tile/tile.hpp>

namespace detail_glu {

inline constexpr float gelu_k = 0.7978845608028654f; // sqrt(2 / pi)

} // namespace detail_glu

template <class T, bool Gelu, int BLOCK>
void glu_fwd(const T *a, const T *b, T *c, int64_t n) {
  const int64_t first = int64_t(tile::program_id(0)) * BLOCK;
  auto offs = tile::arange<BLOCK>();
  auto live = offs < n - first;
  auto av = tile::cast<float>(tile::load(a + first + offs, live, 0.0f));
  auto bv = tile::cast<float>(tile::load(b + first + offs, live, 0.0f));
  auto act = av;
  if constexpr (Gelu)
    act = 0.5f * av *
          (1.0f +
           tile::tanh(detail_glu::gelu_k * (av + 0.044715f * av * av * av)));
  else
    act = av / (1.0f + tile::exp(-av));
  tile::store(c + first + offs, tile::cast<T>(act * bv), live);
}

template <class T, bool Gelu, int BLOCK>
void glu_bwd(const T *dc, const T *a, const T *b, T *da, T *db, int64_t n) {
  const int64_t first = int64_t(tile::program_id(0)) * BLOCK;
  auto offs = tile::arange<BLOCK>();
  auto live = offs < n - first;
  auto dcv = tile::cast<float>(tile::load(dc + first + offs, live, 0.0f));
  auto av = tile::cast<float>(tile::load(a + first + offs, live, 0.0f));
  auto bv = tile::cast<float>(tile::load(b + first + offs, live, 0.0f));
  auto act = av, slope = av;
  if constexpr (Gelu) {
    auto t = tile::tanh(detail_glu::gelu_k * (av + 0.044715f * av * av * av));
    act = 0.5f * av * (1.0f + t);
    slope = 0.5f * (1.0f + t) + 0.5f * av * (1.0f - t * t) *
                                    detail_glu::gelu_k *
                                    (1.0f + 3.0f * 0.044715f * av * av);
  } else {
    auto s = 1.0f / (1.0f + tile::exp(-av));
    act = av * s;
    slope = s * (1.0f + av * (1.0f - s));
  }
  tile::store(da + first + offs, tile::cast<T>(dcv * bv * slope), live);
  tile::store(db + first + offs, tile::cast<T>(dcv * act), live);
}

// The kernels for each activation and type (T is not a meta-parameter).
#define GLU_KERNELS(NAME, GELU, SUFFIX, T)                                     \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME##_fwd_##SUFFIX(const T *a, const T *b, T *c,           \
                                       int64_t n) {                            \
    glu_fwd<T, GELU, BLOCK>(a, b, c, n);                                       \
  }                                                                            \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME##_bwd_##SUFFIX(const T *dc, const T *a, const T *b,    \
                                       T *da, T *db, int64_t n) {              \
    glu_bwd<T, GELU, BLOCK>(dc, a, b, da, db, n);                              \
  }                                                                            \
  TILE_CONFIGS(NAME##_fwd_##SUFFIX,                                            \
               tile::config{.meta = {2048}, .num_warps = 8},                   \
               tile::config{.meta = {1024}, .num_warps = 4});                  \
  TILE_CONFIGS(NAME##_bwd_##SUFFIX,                                            \
               tile::config{.meta = {2048}, .num_warps = 8},                   \
               tile::config{.meta = {1024}, .num_warps = 4});                  \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME##_fwd_##SUFFIX)                                               \
  tile::grid NAME##_fwd_##SUFFIX##_grid(const T *, const T *, T *,             \
                                        int64_t n) {                           \
    return {int(tile::cdiv(n, int64_t(BLOCK)))};                               \
  }                                                                            \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME##_bwd_##SUFFIX)                                               \
  tile::grid NAME##_bwd_##SUFFIX##_grid(const T *, const T *, const T *, T *,  \
                                        T *, int64_t n) {                      \
    return {int(tile::cdiv(n, int64_t(BLOCK)))};                               \
  }

GLU_KERNELS(swiglu, false, bf16, tile::bfloat16)
GLU_KERNELS(swiglu, false, f16, tile::half)
GLU_KERNELS(geglu, true, bf16, tile::bfloat16)
GLU_KERNELS(geglu, true, f16, tile::half)
#undef GLU_KERNELS
