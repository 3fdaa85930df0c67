"""Tests of the PyTorch extension, on a GPU machine with torch:

    python3 samples/torch_extension/test_tilecc_torch.py BUILD_DIR

Each operator against float64 PyTorch on shapes with ragged edges and
both dtypes; the gradients of layer norm and attention, through autograd,
against float64 autograd of the same formulas; a torch.compile'd block
(fullgraph: the fake implementations must trace) against the same block
run eagerly; a side stream; and the errors bad arguments raise. Prints one
line per check and exits 1 if any failed.
"""

import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilecc_torch  # noqa: E402

failures = []


def check(name, ok, detail=""):
    print(f"{'PASS' if ok else 'FAIL'}: {name}{' (' + detail + ')' if detail else ''}",
          flush=True)
    if not ok:
        failures.append(name)


def close(name, got, want, atol, rtol):
    """got (any dtype) against want (float64): |got - want| <= atol + rtol|want|
    everywhere, and no NaN."""
    err = (got.double() - want).abs()
    bound = atol + rtol * want.abs()
    ok = bool(((err <= bound) & ~torch.isnan(got)).all())
    check(name, ok, f"max error {err.max().item():.3g}")


def rand(gen, shape, dtype, lo=-1.0, hi=1.0):
    return (torch.rand(shape, device="cuda", generator=gen) * (hi - lo) + lo).to(dtype)


def test_softmax(gen):
    for dtype, tol in ((torch.float32, 2e-5), (torch.float16, 2.0**-9)):
        for rows, cols in ((1000, 3000), (37, 781), (8, 16384)):
            x = rand(gen, (rows, cols), dtype, -8, 8)
            close(f"softmax {dtype} {rows}x{cols}", tilecc_torch.softmax(x),
                  torch.softmax(x.double(), 1), tol * 0.01, tol)
        # Rows with a stride (a slice of a wider tensor).
        wide = rand(gen, (64, 1200), dtype, -8, 8)
        close(f"softmax {dtype} strided rows", tilecc_torch.softmax(wide[:, 100:1100]),
              torch.softmax(wide[:, 100:1100].double(), 1), tol * 0.01, tol)


def reference_layer_norm(x, w, b, eps):
    return F.layer_norm(x, x.shape[-1:], w, b, eps)


def test_layer_norm(gen):
    for dtype in (torch.float16, torch.bfloat16):
        tol = 2.0**-7 if dtype == torch.bfloat16 else 2.0**-9
        for shape in ((4, 250, 1024), (300, 3000), (64, 8192), (16, 20000)):
            cols = shape[-1]
            x = rand(gen, shape, dtype, -4, 4).requires_grad_()
            w = rand(gen, (cols,), dtype, 0.5, 1.5).requires_grad_()
            b = rand(gen, (cols,), dtype).requires_grad_()
            y = tilecc_torch.layer_norm(x, w, b, 1e-5)
            x64, w64, b64 = (t.detach().double().requires_grad_() for t in (x, w, b))
            want = reference_layer_norm(x64, w64, b64, 1e-5)
            close(f"layer_norm {dtype} {shape} forward", y, want.detach(), tol, tol)
            if cols > 8192:
                try:
                    y.sum().backward()
                    check(f"layer_norm {dtype} {shape} backward refused", False)
                except RuntimeError as e:
                    check(f"layer_norm {dtype} {shape} backward refused",
                          "at most 8192 columns" in str(e))
                continue
            dy = rand(gen, shape, dtype)
            y.backward(dy)
            want.backward(dy.double())
            # dx sums cols products; dw and db sum every row: their rounding
            # grows with those counts.
            close(f"layer_norm {dtype} {shape} dx", x.grad, x64.grad, 4 * tol, 4 * tol)
            rows = x.numel() // cols
            gtol = tol * math.sqrt(rows)
            close(f"layer_norm {dtype} {shape} dw", w.grad, w64.grad, gtol, 4 * tol)
            close(f"layer_norm {dtype} {shape} db", b.grad, b64.grad, gtol, 4 * tol)


def reference_attention(q, k, v, causal, scale):
    s = (q @ k.transpose(-1, -2)) * scale
    if causal:
        n = q.shape[2]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1),
                          float("-inf"))
    return torch.softmax(s, -1) @ v


def test_attention(gen):
    for dtype in (torch.float16, torch.bfloat16):
        tol = 2e-2 if dtype == torch.float16 else 4e-2
        for d in (64, 128):
            for seq in (256, 1000):
                for causal in (False, True):
                    shape = (2, 3, seq, d)
                    q, k, v = (rand(gen, shape, dtype).requires_grad_() for _ in range(3))
                    o = tilecc_torch.attention(q, k, v, causal=causal)
                    q64, k64, v64 = (t.detach().double().requires_grad_() for t in (q, k, v))
                    want = reference_attention(q64, k64, v64, causal, 1 / math.sqrt(d))
                    what = f"attention {dtype} d{d} seq{seq}{' causal' if causal else ''}"
                    close(what + " forward", o, want.detach(), tol, tol)
                    if dtype != torch.float16:
                        continue
                    d_o = rand(gen, shape, dtype)
                    o.backward(d_o)
                    want.backward(d_o.double())
                    for name, got, ref in (("dq", q.grad, q64.grad), ("dk", k.grad, k64.grad),
                                           ("dv", v.grad, v64.grad)):
                        close(f"{what} {name}", got, ref, 2e-2, 2e-2)


def test_matmul(gen):
    for dtype in (torch.float16, torch.bfloat16):
        for m, n, k in ((1000, 3000, 500), (4096, 4096, 4096), (77, 129, 64)):
            a, b = rand(gen, (m, k), dtype), rand(gen, (k, n), dtype)
            want = a.double() @ b.double()
            tol = 2.0**-7 if dtype == torch.bfloat16 else 2.0**-10
            close(f"matmul {dtype} {m}x{n}x{k}", tilecc_torch.matmul(a, b), want,
                  tol * math.sqrt(k), tol)


class Block(torch.nn.Module):
    """Pre-norm attention with an output projection: every tilecc operator
    but softmax in one differentiable graph."""

    def __init__(self, dim, heads, dtype):
        super().__init__()
        self.heads = heads
        self.norm_w = torch.nn.Parameter(torch.ones(dim, device="cuda", dtype=dtype))
        self.norm_b = torch.nn.Parameter(torch.zeros(dim, device="cuda", dtype=dtype))
        self.qkv = torch.nn.Parameter(
            torch.randn(dim, 3 * dim, device="cuda", dtype=dtype) / math.sqrt(dim))
        self.out = torch.nn.Parameter(
            torch.randn(dim, dim, device="cuda", dtype=dtype) / math.sqrt(dim))

    def forward(self, x):
        batch, seq, dim = x.shape
        h = tilecc_torch.layer_norm(x, self.norm_w, self.norm_b)
        qkv = tilecc_torch.matmul(h.reshape(-1, dim), self.qkv)
        q, k, v = (t.reshape(batch, seq, self.heads, -1).transpose(1, 2)
                   for t in qkv.chunk(3, -1))
        o = tilecc_torch.attention(q, k, v, causal=True)
        o = o.transpose(1, 2).reshape(-1, dim)
        return x + tilecc_torch.matmul(o, self.out).reshape(batch, seq, dim)


def test_compile(gen):
    torch.manual_seed(5)
    block = Block(512, 4, torch.float16)
    x = rand(gen, (2, 384, 512), torch.float16).requires_grad_()
    eager = block(x)
    eager.float().pow(2).sum().backward()
    eager_grads = [p.grad.clone() for p in (x, *block.parameters())]
    for p in (x, *block.parameters()):
        p.grad = None
    compiled = torch.compile(block, fullgraph=True)
    got = compiled(x)
    got.float().pow(2).sum().backward()
    close("torch.compile block forward", got, eager.detach().double(), 1e-2, 1e-2)
    for i, p in enumerate((x, *block.parameters())):
        ref = eager_grads[i].double()
        scale = ref.abs().max().item()
        close(f"torch.compile block gradient {i}", p.grad, ref, 2e-2 * scale, 2e-2)


def test_stream(gen):
    x = rand(gen, (4096, 4096), torch.float32, -8, 8)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = tilecc_torch.softmax(x)
        z = y * 2
    torch.cuda.current_stream().wait_stream(side)
    close("softmax on a side stream", z, 2 * torch.softmax(x.double(), 1), 1e-7, 4e-5)


def test_errors(gen):
    def raises(name, error, fn, text):
        try:
            fn()
            check(name, False, "no error")
        except error as e:
            check(name, text in str(e), str(e)[:100])

    x = rand(gen, (8, 64), torch.float32)
    raises("softmax float64 refused", TypeError,
           lambda: tilecc_torch.softmax(x.double()), "dtype torch.float64")
    raises("softmax on the CPU refused", ValueError,
           lambda: tilecc_torch.softmax(x.cpu()), "CUDA tensor")
    raises("softmax 3-D refused", ValueError,
           lambda: tilecc_torch.softmax(x.reshape(2, 4, 64)), "2-D")
    raises("C++ check: softmax float64", RuntimeError,
           lambda: torch.ops.tilecc.softmax(x.double()), "tilecc::softmax")
    raises("C++ check: layer_norm non-contiguous", RuntimeError,
           lambda: torch.ops.tilecc.layer_norm_fwd(
               rand(gen, (64, 32), torch.float16).t(), rand(gen, (64,), torch.float16),
               rand(gen, (64,), torch.float16), 1e-5), "contiguous")
    q = rand(gen, (1, 2, 128, 32), torch.float16)
    raises("attention head_dim 32 refused", ValueError,
           lambda: tilecc_torch.attention(q, q, q), "head_dim")
    raises("C++ check: attention head_dim 32", RuntimeError,
           lambda: torch.ops.tilecc.attention_fwd(q, q, q, False, 1.0), "head_dim")
    a = rand(gen, (64, 32), torch.float16)
    raises("matmul shapes refused", ValueError, lambda: tilecc_torch.matmul(a, a), "columns")
    raises("matmul mixed dtypes refused", TypeError,
           lambda: tilecc_torch.matmul(a, a.t().to(torch.bfloat16)), "dtype")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        return 77
    tilecc_torch.load(sys.argv[1])
    gen = torch.Generator(device="cuda").manual_seed(54)
    for test in (test_softmax, test_layer_norm, test_attention, test_matmul, test_stream,
                 test_errors, test_compile):
        try:
            test(gen)
        except Exception as e:  # one broken test must not hide the others
            check(test.__name__, False, f"{type(e).__name__}: {str(e)[:300]}")
    print(f"{'FAIL' if failures else 'PASS'}: torch extension, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
