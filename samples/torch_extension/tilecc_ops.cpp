// The samples' tilecc kernels as PyTorch operators (namespace tilecc):
// softmax, layer norm forward and backward, attention forward and backward,
// matmul. Each takes CUDA tensors, checks their dtype, shape and strides
// (TORCH_CHECK: a RuntimeError in Python naming the operator and the
// argument), allocates its outputs through PyTorch's caching allocator and
// launches on PyTorch's current stream. tilecc_torch.py builds this file
// with torch.utils.cpp_extension against the kernel libraries CMake built,
// loads it as a library (the operators are reached through torch.ops.tilecc)
// and registers fake implementations and autograd formulas in Python.
//
// The kernel libraries bring their own CUDA runtime (static, hidden in the
// extension: tilecc_torch.py links with --exclude-libs): streams and device
// memory belong to the driver's primary context, which both runtimes share,
// but each runtime keeps its own current device, so every operator sets
// the kernels' runtime to its tensors' device first.
#include "attention.tile.h"
#include "attention_backward.tile.h"
#include "layer_norm_bwd.hpp"
#include "matmul.tile.h"
#include "softmax.tile.h"

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace {

using at::Tensor;

/// Raises, naming the operator, if a launch wrapper returned an error.
void check_launch(const char *op, cudaError_t err) {
  TORCH_CHECK(err == cudaSuccess, "tilecc::", op,
              ": the launch failed: ", cudaGetErrorString(err));
}

/// Checks that t is a CUDA tensor of one of the dtypes, and makes the
/// kernels' runtime use its device.
void check_cuda(const char *op, const char *name, const Tensor &t,
                std::initializer_list<at::ScalarType> dtypes) {
  TORCH_CHECK(t.is_cuda(), "tilecc::", op, ": ", name,
              " must be a CUDA tensor, got one on ", t.device());
  bool known = false;
  for (at::ScalarType d : dtypes)
    known |= t.scalar_type() == d;
  TORCH_CHECK(known, "tilecc::", op, ": ", name, " has dtype ", t.scalar_type(),
              ", which this operator does not take");
  check_launch(op, cudaSetDevice(t.get_device()));
}

void check_contiguous(const char *op, const char *name, const Tensor &t) {
  TORCH_CHECK(t.is_contiguous(), "tilecc::", op, ": ", name,
              " must be contiguous (call .contiguous() first)");
}

void check_same(const char *op, const char *name, const Tensor &t,
                const Tensor &like) {
  TORCH_CHECK(t.scalar_type() == like.scalar_type() &&
                  t.device() == like.device(),
              "tilecc::", op, ": ", name, " must have the dtype and device of ",
              "the first input (", like.scalar_type(), " on ", like.device(),
              "), got ", t.scalar_type(), " on ", t.device());
}

/// n as the kernels' 32-bit int, or an error naming what it counts.
int as_int(const char *op, const char *what, int64_t n) {
  TORCH_CHECK(n <= INT32_MAX, "tilecc::", op, ": ", what, " (", n,
              ") exceeds the kernels' 32-bit range");
  return static_cast<int>(n);
}

/// PyTorch's current stream on t's device.
cudaStream_t current_stream(const Tensor &t) {
  return c10::cuda::getCurrentCUDAStream(t.get_device());
}

bool is_half(const Tensor &t) { return t.scalar_type() == at::kHalf; }

template <class T> T *data(const Tensor &t) {
  return reinterpret_cast<T *>(t.data_ptr());
}

/// Row-wise softmax of a 2-D float32 or float16 tensor whose rows are
/// contiguous (any row stride).
Tensor softmax(const Tensor &x) {
  const char *op = "softmax";
  check_cuda(op, "x", x, {at::kFloat, at::kHalf});
  TORCH_CHECK(x.dim() == 2 && x.stride(1) == 1, "tilecc::softmax: x must be ",
              "2-D with contiguous rows, got sizes ", x.sizes(), " strides ",
              x.strides());
  Tensor y = at::empty_like(x, at::MemoryFormat::Contiguous);
  const int rows = as_int(op, "rows", x.size(0));
  const int cols = as_int(op, "columns", x.size(1));
  const int stride = as_int(op, "the row stride", x.stride(0));
  if (is_half(x))
    check_launch(op, tilecc::softmax_f16(data<tile::half>(x),
                                         data<tile::half>(y), stride, cols,
                                         rows, cols, current_stream(x)));
  else
    check_launch(op, tilecc::softmax(data<float>(x), data<float>(y), stride,
                                     cols, rows, cols, current_stream(x)));
  return y;
}

/// Layer norm over the last dimension of a contiguous float16 or bfloat16
/// tensor: y, and each row's mean and rstd (float32) for the backward pass.
std::tuple<Tensor, Tensor, Tensor>
layer_norm_fwd(const Tensor &x, const Tensor &w, const Tensor &b, double eps) {
  const char *op = "layer_norm_fwd";
  check_cuda(op, "x", x, {at::kHalf, at::kBFloat16});
  check_contiguous(op, "x", x);
  check_same(op, "weight", w, x);
  check_same(op, "bias", b, x);
  TORCH_CHECK(x.dim() >= 1, "tilecc::layer_norm_fwd: x must have a dimension");
  const int64_t cols = x.size(-1);
  TORCH_CHECK(w.dim() == 1 && w.size(0) == cols && b.dim() == 1 &&
                  b.size(0) == cols && w.is_contiguous() && b.is_contiguous(),
              "tilecc::layer_norm_fwd: weight and bias must be contiguous ",
              "vectors of x's last dimension (", cols, ")");
  const int rows = as_int(op, "rows", x.numel() / std::max<int64_t>(cols, 1));
  const int n = as_int(op, "columns", cols);
  Tensor y = at::empty_like(x);
  Tensor mean = at::empty({rows}, x.options().dtype(at::kFloat));
  Tensor rstd = at::empty({rows}, x.options().dtype(at::kFloat));
  const float e = static_cast<float>(eps);
  if (is_half(x))
    check_launch(
        op, tilecc::layer_norm_fwd(data<tile::half>(x), data<tile::half>(y),
                                   data<tile::half>(w), data<tile::half>(b),
                                   data<float>(mean), data<float>(rstd), n,
                                   rows, n, e, current_stream(x)));
  else
    check_launch(op, tilecc::layer_norm_fwd_bf16(
                         data<tile::bfloat16>(x), data<tile::bfloat16>(y),
                         data<tile::bfloat16>(w), data<tile::bfloat16>(b),
                         data<float>(mean), data<float>(rstd), n, rows, n, e,
                         current_stream(x)));
  return {y, mean, rstd};
}

template <class T>
cudaError_t layer_norm_bwd_launch(const Tensor &dx, const Tensor &dw,
                                  const Tensor &db, const Tensor &dy,
                                  const Tensor &x, const Tensor &w,
                                  const Tensor &mean, const Tensor &rstd,
                                  int rows, int cols) {
  const int groups = sample::layer_norm_groups(cols);
  auto f32 = x.options().dtype(at::kFloat);
  Tensor partial = at::empty({2, groups, cols}, f32);
  Tensor locks = at::empty({2 * groups}, x.options().dtype(at::kInt));
  sample::LayerNormScratch scratch{data<float>(partial),
                                   data<float>(partial) + groups * cols,
                                   data<int>(locks), groups};
  return sample::layer_norm_bwd<T>(
      data<T>(dx), data<T>(dw), data<T>(db), data<T>(dy), data<T>(x),
      data<T>(w), data<float>(mean), data<float>(rstd), scratch, cols, rows,
      cols, current_stream(x));
}

/// dx, dw and db of layer_norm_fwd, from dy and what the forward saved.
std::tuple<Tensor, Tensor, Tensor>
layer_norm_bwd(const Tensor &dy, const Tensor &x, const Tensor &w,
               const Tensor &mean, const Tensor &rstd) {
  const char *op = "layer_norm_bwd";
  check_cuda(op, "x", x, {at::kHalf, at::kBFloat16});
  check_same(op, "dy", dy, x);
  check_same(op, "weight", w, x);
  for (const Tensor *t : {&x, &dy, &w})
    check_contiguous(op, "each input", *t);
  TORCH_CHECK(dy.sizes() == x.sizes(), "tilecc::layer_norm_bwd: dy has sizes ",
              dy.sizes(), ", x ", x.sizes());
  TORCH_CHECK(x.dim() >= 1, "tilecc::layer_norm_bwd: x must have a dimension");
  const int64_t cols = x.size(-1);
  const int rows = as_int(op, "rows", x.numel() / std::max<int64_t>(cols, 1));
  TORCH_CHECK(mean.scalar_type() == at::kFloat &&
                  rstd.scalar_type() == at::kFloat && mean.numel() == rows &&
                  rstd.numel() == rows && mean.is_contiguous() &&
                  rstd.is_contiguous(),
              "tilecc::layer_norm_bwd: mean and rstd must be the float32 ",
              "vectors layer_norm_fwd returned");
  TORCH_CHECK(cols <= 8192, "tilecc::layer_norm_bwd: the backward kernels ",
              "hold whole rows of at most 8192 columns, got ", cols);
  const int n = static_cast<int>(cols);
  Tensor dx = at::empty_like(x), dw = at::empty_like(w), db = at::empty_like(w);
  check_launch(op, is_half(x) ? layer_norm_bwd_launch<tile::half>(
                                    dx, dw, db, dy, x, w, mean, rstd, rows, n)
                              : layer_norm_bwd_launch<tile::bfloat16>(
                                    dx, dw, db, dy, x, w, mean, rstd, rows, n));
  return {dx, dw, db};
}

/// Checks q, k and v: contiguous (batch, heads, seq, head_dim), one dtype,
/// head_dim 64 or 128.
void check_attention_inputs(const char *op, const Tensor &q, const Tensor &k,
                            const Tensor &v,
                            std::initializer_list<at::ScalarType> dtypes) {
  check_cuda(op, "q", q, dtypes);
  check_same(op, "k", k, q);
  check_same(op, "v", v, q);
  for (const Tensor *t : {&q, &k, &v})
    check_contiguous(op, "q, k and v", *t);
  TORCH_CHECK(q.dim() == 4 && k.sizes() == q.sizes() && v.sizes() == q.sizes(),
              "tilecc::", op, ": q, k and v must have one shape (batch, ",
              "heads, seq, head_dim), got ", q.sizes(), ", ", k.sizes(), ", ",
              v.sizes());
  TORCH_CHECK(q.size(3) == 64 || q.size(3) == 128, "tilecc::", op,
              ": head_dim must be 64 or 128, got ", q.size(3));
}

/// Fused attention: o = softmax(sm_scale q k^T) v per head (keys after the
/// query masked when causal), and each row's log-sum-exp (float32) for the
/// backward pass.
std::tuple<Tensor, Tensor> attention_fwd(const Tensor &q, const Tensor &k,
                                         const Tensor &v, bool causal,
                                         double sm_scale) {
  const char *op = "attention_fwd";
  check_attention_inputs(op, q, k, v, {at::kHalf, at::kBFloat16});
  const int heads = as_int(op, "batch x heads", q.size(0) * q.size(1));
  const int seq = as_int(op, "seq", q.size(2));
  const int d = static_cast<int>(q.size(3));
  Tensor o = at::empty_like(q);
  Tensor lse = at::empty({q.size(0), q.size(1), q.size(2)},
                         q.options().dtype(at::kFloat));
  const float scale = static_cast<float>(sm_scale);
  if (is_half(q))
    check_launch(op,
                 tilecc::attention_f16(data<tile::half>(q), data<tile::half>(k),
                                       data<tile::half>(v), data<tile::half>(o),
                                       data<float>(lse), scale, seq, heads, d,
                                       causal, current_stream(q)));
  else
    check_launch(op, tilecc::attention_bf16(
                         data<tile::bfloat16>(q), data<tile::bfloat16>(k),
                         data<tile::bfloat16>(v), data<tile::bfloat16>(o),
                         data<float>(lse), scale, seq, heads, d, causal,
                         current_stream(q)));
  return {o, lse};
}

/// dq, dk and dv of attention_fwd (float16), from d_o and what the forward
/// returned. One fused kernel where the sample has a configuration of it
/// (head_dim 128, or no mask), else dK/dV and dQ as two kernels.
std::tuple<Tensor, Tensor, Tensor>
attention_bwd(const Tensor &d_o, const Tensor &q, const Tensor &k,
              const Tensor &v, const Tensor &o, const Tensor &lse, bool causal,
              double sm_scale) {
  const char *op = "attention_bwd";
  check_attention_inputs(op, q, k, v, {at::kHalf});
  for (const Tensor *t : {&d_o, &o}) {
    check_same(op, "o and d_o", *t, q);
    check_contiguous(op, "o and d_o", *t);
    TORCH_CHECK(t->sizes() == q.sizes(), "tilecc::attention_bwd: o and d_o ",
                "must have q's shape ", q.sizes(), ", got ", t->sizes());
  }
  TORCH_CHECK(lse.scalar_type() == at::kFloat && lse.is_contiguous() &&
                  lse.numel() == q.numel() / q.size(3),
              "tilecc::attention_bwd: lse must be the float32 tensor ",
              "attention_fwd returned");
  const int heads = as_int(op, "batch x heads", q.size(0) * q.size(1));
  const int seq = as_int(op, "seq", q.size(2));
  const int d = static_cast<int>(q.size(3));
  const float scale = static_cast<float>(sm_scale);
  Tensor dq = at::empty_like(q), dk = at::empty_like(k), dv = at::empty_like(v);
  Tensor delta = at::empty_like(lse);
  cudaStream_t stream = current_stream(q);
  auto *qp = data<tile::half>(q), *kp = data<tile::half>(k),
       *vp = data<tile::half>(v), *dop = data<tile::half>(d_o);
  const bool fused = d == 128 || !causal;
  if (fused) {
    Tensor dq_acc = at::empty(q.sizes(), q.options().dtype(at::kFloat));
    check_launch(op, tilecc::attention_bwd_delta_f16(
                         data<tile::half>(o), dop, data<float>(delta),
                         data<float>(dq_acc), seq, heads, d, stream));
    check_launch(op, tilecc::attention_bwd_fused_f16(
                         qp, kp, vp, dop, data<float>(lse), data<float>(delta),
                         data<tile::half>(dk), data<tile::half>(dv),
                         data<float>(dq_acc), scale, seq, heads, d, causal,
                         stream));
    check_launch(op, tilecc::attention_bwd_dq_cast_f16(data<float>(dq_acc),
                                                       data<tile::half>(dq),
                                                       seq, heads, d, stream));
    return {dq, dk, dv};
  }
  check_launch(op, tilecc::attention_bwd_delta_f16(data<tile::half>(o), dop,
                                                   data<float>(delta), nullptr,
                                                   seq, heads, d, stream));
  check_launch(op, tilecc::attention_bwd_dkdv_f16(
                       qp, kp, vp, dop, data<float>(lse), data<float>(delta),
                       data<tile::half>(dk), data<tile::half>(dv), scale, seq,
                       heads, d, causal, stream));
  check_launch(
      op, tilecc::attention_bwd_dq_f16(qp, kp, vp, dop, data<float>(lse),
                                       data<float>(delta), data<tile::half>(dq),
                                       scale, seq, heads, d, causal, stream));
  return {dq, dk, dv};
}

/// a @ b of contiguous float16 or bfloat16 matrices.
Tensor matmul(const Tensor &a, const Tensor &b) {
  const char *op = "matmul";
  check_cuda(op, "a", a, {at::kHalf, at::kBFloat16});
  check_same(op, "b", b, a);
  check_contiguous(op, "a", a);
  check_contiguous(op, "b", b);
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0),
              "tilecc::matmul: a and b must be matrices with a's columns as ",
              "b's rows, got ", a.sizes(), " and ", b.sizes());
  const int m = as_int(op, "M", a.size(0)), k = as_int(op, "K", a.size(1)),
            n = as_int(op, "N", b.size(1));
  Tensor c = at::empty({m, n}, a.options());
  if (is_half(a))
    check_launch(op, tilecc::matmul_f16(
                         data<tile::half>(a), data<tile::half>(b),
                         data<tile::half>(c), m, n, k, current_stream(a)));
  else
    check_launch(op, tilecc::matmul_bf16(
                         data<tile::bfloat16>(a), data<tile::bfloat16>(b),
                         data<tile::bfloat16>(c), m, n, k, current_stream(a)));
  return c;
}

} // namespace

TORCH_LIBRARY(tilecc, m) {
  m.def("softmax(Tensor x) -> Tensor");
  m.def("layer_norm_fwd(Tensor x, Tensor weight, Tensor bias, float eps) -> "
        "(Tensor, Tensor, Tensor)");
  m.def("layer_norm_bwd(Tensor dy, Tensor x, Tensor weight, Tensor mean, "
        "Tensor rstd) -> (Tensor, Tensor, Tensor)");
  m.def("attention_fwd(Tensor q, Tensor k, Tensor v, bool causal, "
        "float sm_scale) -> (Tensor, Tensor)");
  m.def("attention_bwd(Tensor d_o, Tensor q, Tensor k, Tensor v, Tensor o, "
        "Tensor lse, bool causal, float sm_scale) -> (Tensor, Tensor, Tensor)");
  m.def("matmul(Tensor a, Tensor b) -> Tensor");
}

TORCH_LIBRARY_IMPL(tilecc, CUDA, m) {
  m.impl("softmax", &softmax);
  m.impl("layer_norm_fwd", &layer_norm_fwd);
  m.impl("layer_norm_bwd", &layer_norm_bwd);
  m.impl("attention_fwd", &attention_fwd);
  m.impl("attention_bwd", &attention_bwd);
  m.impl("matmul", &matmul);
}
