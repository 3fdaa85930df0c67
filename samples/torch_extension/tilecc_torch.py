"""tilecc's sample kernels as PyTorch operators.

    import tilecc_torch
    tilecc_torch.load("build")          # tilecc's CMake build folder
    y = tilecc_torch.layer_norm(x, weight, bias, 1e-5)
    o = tilecc_torch.attention(q, k, v, causal=True)
    o.sum().backward()                  # tilecc's backward kernels

load() compiles tilecc_ops.cpp with torch.utils.cpp_extension against the
kernel libraries the build made (its samples/torch_extension/extension.json
lists them) and loads it: the operators are torch.ops.tilecc.softmax,
layer_norm_fwd, layer_norm_bwd, attention_fwd, attention_bwd and matmul.
Each has a fake implementation (shapes and dtypes without running), so that
torch.compile traces through it; layer_norm_fwd and attention_fwd have
autograd formulas that call the backward operators, matmul one that calls
matmul. The functions below
are the Python API: they check their arguments (TypeError, ValueError)
before the operators check them again in C++ (RuntimeError).
"""

import json
import math
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _moved(path, manifest, build_dir):
    """path as extension.json recorded it, moved to where the build folder
    and the sources are now (the build may have been copied to another
    machine): build_dir, and the repository holding this file."""
    source_dir = os.path.dirname(os.path.dirname(_HERE))
    for old, new in ((manifest["build_dir"], build_dir), (manifest["source_dir"], source_dir)):
        if path == old or path.startswith(old.rstrip("/") + "/"):
            return os.path.join(new, os.path.relpath(path, old))
    return path


def load(build_dir, verbose=False):
    """Builds (once; torch caches it by content) and loads the extension,
    then registers the operators' fake implementations and autograd."""
    if hasattr(torch.ops.tilecc, "softmax"):
        return
    from torch.utils import cpp_extension

    build_dir = os.path.abspath(build_dir)
    manifest_path = os.path.join(build_dir, "samples", "torch_extension", "extension.json")
    if not os.path.exists(manifest_path):
        raise FileNotFoundError(f"{manifest_path} does not exist: build tilecc with CUDA "
                                "(cmake --build) before loading the extension")
    with open(manifest_path) as f:
        manifest = json.load(f)
    libraries = [_moved(p, manifest, build_dir) for p in manifest["libraries"]]
    includes = [_moved(p, manifest, build_dir) for p in manifest["include_dirs"]]
    runtime = manifest["cuda_runtime"]
    if not os.path.exists(runtime):
        # The toolkit's own layout differs between machines (lib, lib64).
        home = cpp_extension.CUDA_HOME or "/usr/local/cuda"
        found = [p for p in (os.path.join(home, d, "libcudart_static.a")
                             for d in ("lib64", "lib", "targets/x86_64-linux/lib"))
                 if os.path.exists(p)]
        runtime = found[0] if found else runtime
    for path in libraries + includes + [runtime]:
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}, which {manifest_path} lists, does not exist")
    cpp_extension.load(
        name="tilecc_torch_ops",
        sources=[os.path.join(_HERE, "tilecc_ops.cpp")],
        extra_include_paths=includes,
        extra_cflags=["-O2", "-std=c++20"],
        # The kernels' static CUDA runtime stays private to the extension
        # (--exclude-libs): torch's own runtime, loaded globally, must not
        # take its calls.
        extra_ldflags=libraries + [runtime, "-Wl,--exclude-libs,ALL",
                                   "-lc10_cuda", "-lrt", "-ldl", "-lpthread"],
        with_cuda=False,
        is_python_module=False,
        verbose=verbose)
    _register()


def _rows(x):
    return x.numel() // x.shape[-1] if x.dim() else 0


def _register():
    lib = "tilecc::"

    @torch.library.register_fake(lib + "softmax")
    def _(x):
        return torch.empty_like(x, memory_format=torch.contiguous_format)

    @torch.library.register_fake(lib + "layer_norm_fwd")
    def _(x, weight, bias, eps):
        stats = x.new_empty((_rows(x),), dtype=torch.float32)
        return torch.empty_like(x), stats, torch.empty_like(stats)

    @torch.library.register_fake(lib + "layer_norm_bwd")
    def _(dy, x, weight, mean, rstd):
        return torch.empty_like(x), torch.empty_like(weight), torch.empty_like(weight)

    @torch.library.register_fake(lib + "attention_fwd")
    def _(q, k, v, causal, sm_scale):
        return torch.empty_like(q), q.new_empty(q.shape[:3], dtype=torch.float32)

    @torch.library.register_fake(lib + "attention_bwd")
    def _(d_o, q, k, v, o, lse, causal, sm_scale):
        return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)

    @torch.library.register_fake(lib + "matmul")
    def _(a, b):
        return a.new_empty((a.shape[0], b.shape[1]))

    def layer_norm_setup(ctx, inputs, output):
        x, weight, _, _ = inputs
        _, mean, rstd = output
        ctx.mark_non_differentiable(mean, rstd)
        ctx.save_for_backward(x, weight, mean, rstd)

    def layer_norm_backward(ctx, dy, _dmean, _drstd):
        x, weight, mean, rstd = ctx.saved_tensors
        dx, dw, db = torch.ops.tilecc.layer_norm_bwd(dy.contiguous(), x, weight, mean, rstd)
        return dx, dw, db, None

    torch.library.register_autograd(lib + "layer_norm_fwd", layer_norm_backward,
                                    setup_context=layer_norm_setup)

    def attention_setup(ctx, inputs, output):
        q, k, v, causal, sm_scale = inputs
        o, lse = output
        ctx.mark_non_differentiable(lse)
        ctx.causal, ctx.sm_scale = causal, sm_scale
        ctx.save_for_backward(q, k, v, o, lse)

    def attention_backward(ctx, d_o, _dlse):
        q, k, v, o, lse = ctx.saved_tensors
        dq, dk, dv = torch.ops.tilecc.attention_bwd(d_o.contiguous(), q, k, v, o, lse,
                                                    ctx.causal, ctx.sm_scale)
        return dq, dk, dv, None, None

    torch.library.register_autograd(lib + "attention_fwd", attention_backward,
                                    setup_context=attention_setup)

    def matmul_setup(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    def matmul_backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        da = torch.ops.tilecc.matmul(dc, b.t().contiguous()) if ctx.needs_input_grad[0] else None
        db = torch.ops.tilecc.matmul(a.t().contiguous(), dc) if ctx.needs_input_grad[1] else None
        return da, db

    torch.library.register_autograd(lib + "matmul", matmul_backward, setup_context=matmul_setup)


def _expect(ok, message, error=ValueError):
    if not ok:
        raise error(message)


def _expect_cuda(name, t, dtypes):
    _expect(isinstance(t, torch.Tensor), f"{name} must be a torch.Tensor", TypeError)
    _expect(t.is_cuda, f"{name} must be a CUDA tensor, got one on {t.device}")
    _expect(t.dtype in dtypes,
            f"{name} has dtype {t.dtype}; this takes {', '.join(map(str, dtypes))}", TypeError)


def softmax(x):
    """Softmax over the last dimension of a 2-D float32 or float16 tensor
    whose rows are contiguous."""
    _expect_cuda("x", x, (torch.float32, torch.float16))
    _expect(x.dim() == 2 and x.stride(1) == 1,
            f"x must be 2-D with contiguous rows, got shape {tuple(x.shape)} "
            f"strides {x.stride()}")
    return torch.ops.tilecc.softmax(x)


def layer_norm(x, weight, bias, eps=1e-5):
    """Layer norm over the last dimension (float16 or bfloat16, computed in
    float32), differentiable in x, weight and bias; the backward pass takes
    rows of up to 8192 columns."""
    _expect_cuda("x", x, (torch.float16, torch.bfloat16))
    for name, t in (("weight", weight), ("bias", bias)):
        _expect_cuda(name, t, (x.dtype,))
        _expect(t.shape == x.shape[-1:], f"{name} must have shape {tuple(x.shape[-1:])}, "
                f"got {tuple(t.shape)}")
    y, _, _ = torch.ops.tilecc.layer_norm_fwd(x.contiguous(), weight.contiguous(),
                                              bias.contiguous(), eps)
    return y


def attention(q, k, v, causal=False, sm_scale=None):
    """softmax(sm_scale q k^T) v per head (default scale 1/sqrt(head_dim)),
    for q, k, v of shape (batch, heads, seq, head_dim), head_dim 64 or 128,
    float16 or bfloat16 (the backward pass: float16)."""
    _expect_cuda("q", q, (torch.float16, torch.bfloat16))
    for name, t in (("k", k), ("v", v)):
        _expect_cuda(name, t, (q.dtype,))
    _expect(q.dim() == 4 and k.shape == q.shape and v.shape == q.shape,
            f"q, k and v must share one shape (batch, heads, seq, head_dim), got "
            f"{tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    _expect(q.shape[3] in (64, 128), f"head_dim must be 64 or 128, got {q.shape[3]}")
    scale = 1.0 / math.sqrt(q.shape[3]) if sm_scale is None else float(sm_scale)
    o, _ = torch.ops.tilecc.attention_fwd(q.contiguous(), k.contiguous(), v.contiguous(),
                                          bool(causal), scale)
    return o


def matmul(a, b):
    """a @ b for float16 or bfloat16 matrices, differentiable in both."""
    _expect_cuda("a", a, (torch.float16, torch.bfloat16))
    _expect_cuda("b", b, (a.dtype,))
    _expect(a.dim() == 2 and b.dim() == 2 and a.shape[1] == b.shape[0],
            f"a and b must be matrices with a's columns as b's rows, got "
            f"{tuple(a.shape)} and {tuple(b.shape)}")
    return torch.ops.tilecc.matmul(a.contiguous(), b.contiguous())
