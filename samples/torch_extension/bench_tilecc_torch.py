"""The benchmark of scripts/bench.sh, called through the PyTorch extension:

    python3 samples/torch_extension/bench_tilecc_torch.py BUILD_DIR [RESULTS.jsonl]

The workloads and shapes of the samples' benchmarks (softmax, layer norm
forward and backward, attention forward and backward, matmul), each timed
through the extension (impl "tilecc_torch") and with PyTorch's own kernel
(impl "torch": torch.softmax, F.layer_norm, scaled_dot_product_attention by
its fastest backend, torch.matmul), medians of do_bench on fresh random
inputs, each result checked first; one JSON line each. Then the cost of
the Python call path: host microseconds per call of a launch too small to
wait for the GPU, through the extension and through torch's own operator.
With RESULTS.jsonl (the sample benchmarks' lines from the same run), the
table also gives the extension's time against the C++ launch wrapper's best
configuration. Exits 1 if a result was wrong.
"""

import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F
from triton.testing import do_bench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
import tilecc_torch  # noqa: E402
from bench_peers import json_lines  # noqa: E402

lines = []


def report(workload, impl, shape, dtype, run, check, work, rate):
    """Times run() (after check() of its result) and prints one JSON line."""
    line = {"workload": workload, "impl": impl, "shape": list(shape), "dtype": dtype}
    try:
        ok = bool(check(run()))
        ms = do_bench(run, warmup=25, rep=100, return_mode="median")
        line.update({"ms": round(ms, 5), rate: round(work / ms / (1e9 if rate == "tflops" else 1e6), 1),
                     "ok": ok})
    except Exception as e:  # a failing case is reported, not fatal
        line.update({"ok": False, "error": str(e)[:300]})
    lines.append(line)
    print(json.dumps(line), flush=True)


def within(want, atol, rtol):
    return lambda got: bool(((got.double() - want).abs() <= atol + rtol * want.abs()).all())


def bench_softmax(gen):
    for rows, cols in ((32768, 4096), (16384, 8192)):
        x = torch.rand(rows, cols, device="cuda", generator=gen).mul_(16).sub_(8)
        want = torch.softmax(x.double(), 1)
        for impl, run in (("tilecc_torch", lambda: tilecc_torch.softmax(x)),
                          ("torch", lambda: torch.softmax(x, 1))):
            report("softmax", impl, (rows, cols), "fp32", run, within(want, 1e-7, 2e-5),
                   2.0 * x.numel() * 4, "gbps")
        del x, want


def bench_layer_norm(gen):
    for dtype, name, suffix in ((torch.float16, "fp16", ""), (torch.bfloat16, "bf16", "_bf16")):
        tol = 2.0**-7 if dtype == torch.bfloat16 else 2.0**-9
        for cols in (1024, 4096, 8192):
            rows = 32768
            x = torch.rand(rows, cols, device="cuda", generator=gen).mul_(8).sub_(4).to(dtype)
            w = torch.rand(cols, device="cuda", generator=gen).add_(0.5).to(dtype)
            b = torch.rand(cols, device="cuda", generator=gen).mul_(2).sub_(1).to(dtype)
            dy = torch.rand(rows, cols, device="cuda", generator=gen).mul_(2).sub_(1).to(dtype)
            want = F.layer_norm(x.double(), (cols,), w.double(), b.double(), 1e-5)
            nbytes = 2 * x.numel() * x.element_size()
            for impl, run in (
                    ("tilecc_torch", lambda: tilecc_torch.layer_norm(x, w, b, 1e-5)),
                    ("torch", lambda: F.layer_norm(x, (cols,), w, b, 1e-5))):
                report("layer_norm_fwd" + suffix, impl, (rows, cols), name, run,
                       within(want, tol, tol), nbytes, "gbps")
            # The backward pass alone: dx, dw, db from saved statistics.
            x64 = x.double().requires_grad_()
            F.layer_norm(x64, (cols,), w.double(), b.double(), 1e-5).backward(dy.double())
            want_dx = x64.grad
            _, mean, rstd = torch.ops.tilecc.layer_norm_fwd(x, w, b, 1e-5)
            xt = x.detach().requires_grad_()
            wt, bt = w.detach().requires_grad_(), b.detach().requires_grad_()
            yt = F.layer_norm(xt, (cols,), wt, bt, 1e-5)
            nbytes = 3 * x.numel() * x.element_size()
            for impl, run in (
                    ("tilecc_torch",
                     lambda: torch.ops.tilecc.layer_norm_bwd(dy, x, w, mean, rstd)[0]),
                    ("torch", lambda: torch.autograd.grad(yt, (xt, wt, bt), dy,
                                                          retain_graph=True)[0])):
                report("layer_norm_bwd" + suffix, impl, (rows, cols), name, run,
                       within(want_dx, 4 * tol, 4 * tol), nbytes, "gbps")
            del x, w, b, dy, want, x64, want_dx, xt, yt


def sdpa_best(q, k, v, causal):
    """torch's fastest SDPA backend for these inputs (cuDNN, flash), timed."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    best = None
    for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION):
        try:
            with sdpa_kernel(backend):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            def run(backend=backend):
                with sdpa_kernel(backend):
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            ms = do_bench(run, warmup=10, rep=50, return_mode="median")
            if best is None or ms < best[0]:
                best = (ms, run)
        except RuntimeError:
            continue
    return best[1]


def sampled_rows(gen, q, k, v, causal, count=32):
    """(picks, want): count random rows of the attention output in float64."""
    b, h, seq, d = q.shape
    picks = torch.randint(0, b * h * seq, (count,), device="cuda", generator=gen).tolist()
    picks = [(p // (h * seq), p // seq % h, p % seq) for p in picks]
    want = []
    for z, hh, i in picks:
        keys = i + 1 if causal else seq
        s = (k[z, hh, :keys].double() @ q[z, hh, i].double()) / math.sqrt(d)
        want.append(torch.softmax(s, 0) @ v[z, hh, :keys].double())
    return picks, torch.stack(want)


def bench_attention(gen):
    batch, heads = 4, 32
    for d in (64, 128):
        for seq in (1024, 4096, 8192):
            for causal in (False, True):
                shape = (batch, heads, seq, d)
                q, k, v = (torch.rand(shape, device="cuda", generator=gen).mul_(2).sub_(1).half()
                           for _ in range(3))
                picks, want = sampled_rows(gen, q, k, v, causal)

                def check(o):
                    got = torch.stack([o[z, h, i] for z, h, i in picks])
                    return within(want, 2e-2, 2e-2)(got)

                flops = 4.0 * batch * heads * seq * seq * d * (0.5 if causal else 1.0)
                name = "attention_f16" + ("_causal" if causal else "")
                dims = (batch, heads, seq, d)
                report(name, "tilecc_torch", dims, "fp16",
                       lambda: tilecc_torch.attention(q, k, v, causal), check, flops, "tflops")
                report(name, "torch", dims, "fp16", sdpa_best(q, k, v, causal), check, flops,
                       "tflops")
                # Backward: both from the same forward, dq checked on the
                # picked rows against torch's (whose own error is checked by
                # the sample's tests): 2.5 times the forward's flops.
                d_o = torch.rand(shape, device="cuda", generator=gen).mul_(2).sub_(1).half()
                o, lse = torch.ops.tilecc.attention_fwd(q, k, v, causal, 1 / math.sqrt(d))
                qt, kt, vt = (t.detach().requires_grad_() for t in (q, k, v))
                ot = F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal)
                want_dq = torch.autograd.grad(ot, qt, d_o, retain_graph=True)[0]
                want_rows = torch.stack([want_dq[z, h, i] for z, h, i in picks]).double()

                def check_dq(dq):
                    got = torch.stack([dq[z, h, i] for z, h, i in picks])
                    return within(want_rows, 3e-2, 3e-2)(got)

                name = "attention_bwd_f16" + ("_causal" if causal else "")
                report(name, "tilecc_torch", dims, "fp16",
                       lambda: torch.ops.tilecc.attention_bwd(d_o, q, k, v, o, lse, causal,
                                                              1 / math.sqrt(d))[0],
                       check_dq, 2.5 * flops, "tflops")
                report(name, "torch", dims, "fp16",
                       lambda: torch.autograd.grad(ot, (qt, kt, vt), d_o, retain_graph=True)[0],
                       check_dq, 2.5 * flops, "tflops")
                del q, k, v, d_o, o, lse, qt, kt, vt, ot, want_dq


def bench_matmul(gen):
    for dtype, name, workload in ((torch.float16, "fp16", "matmul_f16"),
                                  (torch.bfloat16, "bf16", "matmul_bf16")):
        for size in (4096, 8192):
            a, b = (torch.rand(size, size, device="cuda", generator=gen).mul_(2).sub_(1).to(dtype)
                    for _ in range(2))
            rows = torch.randint(0, size, (256,), device="cuda", generator=gen)
            cols = torch.randint(0, size, (256,), device="cuda", generator=gen)
            want = (a[rows].double() * b[:, cols].t().double()).sum(1)
            tol = 2.0**-7 if dtype == torch.bfloat16 else 2.0**-10

            def check(c):
                return within(want, tol * math.sqrt(size), tol)(c[rows, cols])

            for impl, run in (("tilecc_torch", lambda: tilecc_torch.matmul(a, b)),
                              ("torch", lambda: torch.matmul(a, b))):
                report(workload, impl, (size, size, size), name, run, check,
                       2.0 * size**3, "tflops")
            del a, b


def call_overhead():
    """Host microseconds per call, small enough that the GPU keeps up: the
    extension's softmax (argument checks, dispatcher, launch wrapper) and
    torch.softmax on the same 8 x 128 input; medians of 7 rounds of 2000."""
    x = torch.rand(8, 128, device="cuda")
    result = {}
    for impl, run in (("tilecc_torch", lambda: tilecc_torch.softmax(x)),
                      ("tilecc_torch_op", lambda: torch.ops.tilecc.softmax(x)),
                      ("torch", lambda: torch.softmax(x, 1))):
        rounds = []
        for _ in range(7):
            torch.cuda.synchronize()
            start = time.perf_counter()
            for _ in range(2000):
                run()
            rounds.append((time.perf_counter() - start) / 2000 * 1e6)
            torch.cuda.synchronize()
        result[impl] = sorted(rounds)[3]
    line = {"workload": "call_overhead", "shape": [8, 128], "us_per_call": result}
    print(json.dumps(line), flush=True)
    return result


def table(cpp_results):
    """One row per workload and shape: the extension and torch, and the C++
    benchmark's best configuration where RESULTS.jsonl has it."""
    cpp = {}
    if cpp_results:
        for r, _ in json_lines(cpp_results):
            if r.get("impl") == "tilecc" and r.get("ok") and "ms" in r:
                key = (r["workload"], tuple(r["shape"]))
                cpp[key] = min(cpp.get(key, math.inf), r["ms"])
    rows = {}
    for line in lines:
        rows.setdefault((line["workload"], tuple(line["shape"])), {})[line["impl"]] = line
    print("| workload | shape | via torch ms | C++ wrapper ms | via torch / C++ | torch ms "
          "| torch / via torch |")
    print("|---|---|---|---|---|---|---|")
    for (workload, shape), e in rows.items():
        ours, theirs = e.get("tilecc_torch", {}), e.get("torch", {})
        ms, tms, cms = ours.get("ms"), theirs.get("ms"), cpp.get((workload, shape))
        fmt = lambda v, spec=".4f": format(v, spec) if v is not None else "-"
        print(f"| {workload} | {'x'.join(map(str, shape))} | {fmt(ms)} | {fmt(cms)} | "
              f"{fmt(ms / cms if ms and cms else None, '.3f')} | {fmt(tms)} | "
              f"{fmt(tms / ms if ms and tms else None, '.3f')} |")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        return 2
    tilecc_torch.load(sys.argv[1])
    gen = torch.Generator(device="cuda").manual_seed(54)
    for bench in (bench_softmax, bench_layer_norm, bench_attention, bench_matmul):
        bench(gen)
        torch.cuda.empty_cache()
    overhead = call_overhead()
    table(sys.argv[2] if len(sys.argv) == 3 else None)
    print("\nHost time per call (us): " +
          ", ".join(f"{k} {v:.2f}" for k, v in overhead.items()))
    return 0 if all(line.get("ok") for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
