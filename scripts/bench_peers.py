#!/usr/bin/env python3
"""The peers of the samples' benchmarks: Triton and PyTorch on the same workloads.

    python3 scripts/bench_peers.py                 # run, print JSON lines
    python3 scripts/bench_peers.py --table FILE    # table from JSON lines in FILE

For each sample workload (vector_add, add_relu_mul, greyscale, softmax) this runs a Triton
kernel, autotuned over the configurations the tilecc sample declares, and the
PyTorch expression, on fresh random inputs of the sizes the samples' *_bench
binaries use. Each output is poisoned with NaN, computed once and checked against a
float64 reference with the sample's tolerance, then timed with
triton.testing.do_bench (median; L2 flushed before each run, as the *_bench
binaries do). One JSON line per result, in the *_bench binaries' format:
    {"workload", "impl": "triton"|"torch", "shape", "dtype", "config", "ms",
     "gbps", "ok", "max_rel_err"}
GB/s counts the bytes the operation must move (inputs read once, output written
once), the same count for every impl, so an unfused chain shows lower GB/s.

--table joins those lines with the tilecc ones (the best configuration of each
workload) into one table; scripts/bench.sh runs both steps.
"""

import argparse
import json
import sys

FLT_EPSILON = 2.0**-23


def peers():
    """Runs the Triton and PyTorch cases and prints their JSON lines."""
    import torch
    import triton
    import triton.language as tl
    from triton.testing import do_bench

    # The tilecc samples' configurations, in the same order.
    elementwise_configs = [
        triton.Config({"BLOCK": block}, num_warps=warps)
        for block, warps in ((1024, 4), (2048, 8), (4096, 8), (8192, 16))
    ]
    greyscale_configs = [
        triton.Config({"BLOCK_H": bh, "BLOCK_W": bw}, num_warps=warps)
        for bh, bw, warps in ((32, 32, 4), (16, 64, 4), (8, 128, 4), (16, 256, 8))
    ]

    # Offsets are int32 here, as in the tilecc kernels (the sizes fit).
    @triton.autotune(configs=elementwise_configs, key=["n"])
    @triton.jit
    def vector_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(x_ptr + offs, mask=mask)
        b = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, a + b, mask=mask)

    @triton.autotune(configs=elementwise_configs, key=["n"])
    @triton.jit
    def add_relu_mul_kernel(x_ptr, bias_ptr, out_ptr, scale, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        h = tl.load(x_ptr + offs, mask=mask) + tl.load(bias_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, tl.maximum(h, 0.0) * scale, mask=mask)

    @triton.autotune(configs=greyscale_configs, key=["h", "w"])
    @triton.jit
    def greyscale_kernel(rgb_ptr, grey_ptr, h, w, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
        offs_h = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
        offs_w = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
        offs = offs_h[:, None] * w + offs_w[None, :]
        mask = (offs_h[:, None] < h) & (offs_w[None, :] < w)
        plane = h * w
        r = tl.load(rgb_ptr + offs, mask=mask)
        g = tl.load(rgb_ptr + plane + offs, mask=mask)
        b = tl.load(rgb_ptr + 2 * plane + offs, mask=mask)
        tl.store(grey_ptr + offs, 0.2989 * r + 0.5870 * g + 0.1140 * b, mask=mask)

    # One row's softmax in fp32, stored in the output's type; the two
    # kernels below call it.
    @triton.jit
    def softmax_row(out_ptr, in_ptr, row, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
        x = x.to(tl.float32)
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        out = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, out.to(out_ptr.dtype.element_ty), mask=mask)

    # Triton's tutorial 02: one program per row, the block the next power of
    # two of the row length, num_warps by block size.
    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        softmax_row(out_ptr, in_ptr, tl.program_id(0), in_stride, out_stride, n_cols, BLOCK)

    # The persistent form (tutorial 02 as published): a few programs per SM,
    # each looping over rows; the same grid as tilecc's softmax_persistent.
    @triton.jit
    def softmax_persistent_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                                  BLOCK: tl.constexpr):
        for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
            softmax_row(out_ptr, in_ptr, row, in_stride, out_stride, n_cols, BLOCK)

    def best_config(kernel):
        c = getattr(kernel, "best_config", None)
        if c is None:
            return "autotuned"
        meta = ",".join(f"{k}={v}" for k, v in c.kwargs.items())
        return f"{meta},num_warps={c.num_warps}"

    def max_rel_err(out, ref, abs_tol=0.0):
        """Largest |out - ref| / |ref| (|out - ref| where ref is 0); NaN if any
        element of out is NaN, i.e. was not written. ref is computed in float64
        and rounded once to float32, as the samples' C++ references are, so the
        samples' tolerances apply."""
        ref = ref.float().double()
        err = ((out.double() - ref).abs() - abs_tol).clamp(min=0)
        scaled = torch.where(ref != 0, err / ref.abs(), err)
        if torch.isnan(out).any():
            return float("nan")
        return scaled.max().item()

    def report(workload, impl, shape, config, run, ref, nbytes, rel_tol, out=None, abs_tol=0.0):
        """Checks and times run(). A kernel writing into `out` is checked there,
        after poisoning it; otherwise run() returns the result. config() names
        the configuration once run() has picked it."""
        if out is not None:
            out.fill_(float("nan"))
        result = run()
        torch.cuda.synchronize()
        result = out if out is not None else result
        err = max_rel_err(result, ref, abs_tol)
        ms = do_bench(run, warmup=25, rep=100, return_mode="median")
        dtype = {torch.float32: "fp32", torch.float16: "fp16"}[result.dtype]
        line = {"workload": workload, "impl": impl, "shape": list(shape), "dtype": dtype,
                "config": config(), "ms": round(ms, 5), "gbps": round(nbytes / ms / 1e6, 1),
                "ok": err == err and err <= rel_tol, "max_rel_err": err}
        print(json.dumps(line), flush=True)

    torch.manual_seed(0)
    dev = "cuda"

    # vector_add: exact, as both round the sum once. Bytes: x, y read, out written.
    n = 1 << 28
    x = torch.rand(n, device=dev) * 2 - 1
    y = torch.rand(n, device=dev) * 2 - 1
    out = torch.empty_like(x)
    ref = x.double() + y.double()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    report("vector_add", "triton", [n], lambda: best_config(vector_add_kernel),
           lambda: vector_add_kernel[grid](x, y, out, n), ref, 12 * n, 0.0, out=out)
    report("vector_add", "torch", [n], lambda: "x + y", lambda: x + y, ref, 12 * n, 0.0)
    del x, y, out, ref

    # add_relu_mul: two fp32 roundings against the reference's one. The kernels
    # get scale as an fp32 value, so the reference uses that value.
    scale = 1.7
    scale32 = torch.tensor(scale, dtype=torch.float32).item()
    x = torch.rand(n, device=dev) * 2 - 1
    bias = torch.rand(n, device=dev) - 0.5
    out = torch.empty_like(x)
    ref = torch.relu(x.double() + bias.double()) * scale32
    report("add_relu_mul", "triton", [n], lambda: best_config(add_relu_mul_kernel),
           lambda: add_relu_mul_kernel[grid](x, bias, out, scale, n), ref, 12 * n,
           1.5 * FLT_EPSILON, out=out)
    report("add_relu_mul", "torch", [n], lambda: "torch.relu(x + bias) * scale",
           lambda: torch.relu(x + bias) * scale, ref, 12 * n, 1.5 * FLT_EPSILON)
    del x, bias, out, ref

    # greyscale: fp32 weights, products and sums; nothing cancels, as pixels
    # are non-negative. Bytes: three planes read, one written.
    h = w = 8192
    rgb = torch.rand(3, h, w, device=dev)
    grey = torch.empty(h, w, device=dev)
    rgb64 = rgb.double()
    ref = 0.2989 * rgb64[0] + 0.5870 * rgb64[1] + 0.1140 * rgb64[2]
    del rgb64
    grey_grid = lambda meta: (triton.cdiv(w, meta["BLOCK_W"]), triton.cdiv(h, meta["BLOCK_H"]))
    report("greyscale", "triton", [3, h, w], lambda: best_config(greyscale_kernel),
           lambda: greyscale_kernel[grey_grid](rgb, grey, h, w), ref, 16 * h * w,
           3 * FLT_EPSILON, out=grey)
    r, g, b = rgb[0], rgb[1], rgb[2]
    report("greyscale", "torch", [3, h, w], lambda: "0.2989 * r + 0.5870 * g + 0.1140 * b",
           lambda: 0.2989 * r + 0.5870 * g + 0.1140 * b, ref, 16 * h * w, 3 * FLT_EPSILON)
    del rgb, grey, ref, r, g, b

    # softmax: fp32 rows; the fast exp and a different summation order give a
    # few 1e-6 relative error (the sample's tolerance). Bytes: read once,
    # written once.
    # fp16 rows are computed in fp32 (Triton's tl.exp needs fp32) and rounded
    # once to half: half an ulp relative, 2^-25 absolute where subnormal.
    for workload, dtype, tol, abs_tol in (("softmax", torch.float32, 2e-5, 0.0),
                                          ("softmax_f16", torch.float16, 2.0**-11 + 2e-5,
                                           2.0**-25)):
        for rows, cols in ((32768, 4096), (16384, 8192)):
            x = (torch.rand(rows, cols, device=dev) * 16 - 8).to(dtype)
            y = torch.empty_like(x)
            ref = torch.softmax(x.double(), dim=1)
            nbytes = 2 * rows * cols * x.element_size()
            block = triton.next_power_of_2(cols)
            warps = 16 if block >= 4096 else 8 if block >= 2048 else 4
            report(workload, "triton", [rows, cols], lambda: f"BLOCK={block},num_warps={warps}",
                   lambda: softmax_kernel[(rows,)](y, x, x.stride(0), y.stride(0), cols,
                                                   BLOCK=block, num_warps=warps),
                   ref, nbytes, tol, out=y, abs_tol=abs_tol)
            report(workload, "torch", [rows, cols], lambda: "torch.softmax(x, dim=1)",
                   lambda: torch.softmax(x, dim=1), ref, nbytes, tol, abs_tol=abs_tol)
            if dtype == torch.float32:
                sms = torch.cuda.get_device_properties(0).multi_processor_count
                programs = min(rows, sms * max(4, 16384 // block))
                report("softmax_persistent", "triton", [rows, cols],
                       lambda: f"BLOCK={block},num_warps={warps},programs={programs}",
                       lambda: softmax_persistent_kernel[(programs,)](
                           y, x, x.stride(0), y.stride(0), rows, cols, BLOCK=block,
                           num_warps=warps),
                       ref, nbytes, tol, out=y, abs_tol=abs_tol)
                report("softmax_persistent", "torch", [rows, cols],
                       lambda: "torch.softmax(x, dim=1)", lambda: torch.softmax(x, dim=1),
                       ref, nbytes, tol, abs_tol=abs_tol)
            del x, y, ref


def table(path):
    """Prints one row per workload: tilecc's best configuration beside Triton and
    torch. Returns 1 if any result was wrong or missing, else 0."""
    rows = {}
    status = 0
    with open(path) as f:
        for text in f:
            try:
                r = json.loads(text)
            except ValueError:
                continue
            if not r.get("ok", False):
                status = 1
                print(f"WRONG RESULT: {text.strip()}")
            # One row per workload and shape.
            entry = rows.setdefault((r["workload"], tuple(r["shape"])),
                                    {"shape": r["shape"]})
            impl = r["impl"]
            if impl == "tilecc" and not r.get("best"):
                continue
            entry[impl] = r

    def gbps(e, impl):
        return e[impl]["gbps"] if impl in e else None

    def fmt(v, spec):
        return format(v, spec) if v is not None else "-"

    def ratio(a, b):
        return a / b if a is not None and b else None

    header = ("workload", "size", "tilecc GB/s", "triton GB/s", "torch GB/s",
              "tilecc/triton", "tilecc/torch")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for (workload, _), e in rows.items():
        ours, tri, tor = gbps(e, "tilecc"), gbps(e, "triton"), gbps(e, "torch")
        if ours is None or tri is None or tor is None:
            status = 1
        size = "x".join(str(d) for d in e["shape"])
        best = f" ({e['tilecc']['config']})" if "tilecc" in e else ""
        cells = (workload, size, fmt(ours, ".1f") + best, fmt(tri, ".1f"), fmt(tor, ".1f"),
                 fmt(ratio(ours, tri), ".3f"), fmt(ratio(ours, tor), ".3f"))
        print("| " + " | ".join(cells) + " |")
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", metavar="FILE", help="print the table of the JSON lines in FILE")
    args = ap.parse_args()
    if args.table:
        return table(args.table)
    peers()
    return 0


if __name__ == "__main__":
    sys.exit(main())
