#!/usr/bin/env python3
"""The peers of the samples' benchmarks: Triton and PyTorch on the same workloads.

    python3 scripts/bench_peers.py                 # run, print JSON lines
    python3 scripts/bench_peers.py --table FILE    # table from JSON lines in FILE

For each sample workload (vector_add, add_relu_mul, dropout, libdevice_asin, greyscale,
softmax, cumsum, histogram, moe_routing, rms_norm, swiglu, geglu, cross_entropy, rope) this runs a Triton
kernel, autotuned over the configurations the tilecc sample declares, and the
PyTorch expression, on fresh random inputs of the sizes the samples' *_bench
binaries use (grouped_gemm: tutorial 08's kernel, its TMA form and
torch.matmul per product, with --only matmul). Layer norm's forward and backward
(layer_norm_fwd, layer_norm_bwd in fp16, _bf16 after them in bf16; 32768 rows of
1024, 4096 or 8192) run Triton's tutorial 05 kernels with its
heuristics, and PyTorch's layer_norm and native_layer_norm_backward. Matmul
runs Triton's tutorial 03 and 09 kernels and torch.matmul (fp8: tutorial 03 and
torch._scaled_mm); attention a
tutorial-06-style kernel and torch's scaled_dot_product_attention, forward
and backward (--only memory|matmul|attention|attention_backward runs one of
those groups).
Each output is poisoned with NaN, computed once and checked against a
float64 reference with the sample's tolerance, then timed with
triton.testing.do_bench (median; L2 flushed before each run, as the *_bench
binaries do). One JSON line per result, in the *_bench binaries' format:
    {"workload", "impl": "triton"|"torch", "shape", "dtype", "config", "ms",
     "gbps", "ok", "max_rel_err"}
max_rel_err is that of the main output (layer_norm_bwd: dx); "ok" also covers
the others (the forward's saved mean and 1/std, the backward's dw and db).
GB/s counts the bytes the operation must move (inputs read once, output written
once), the same count for every impl, so an unfused chain shows lower GB/s; for
layer norm only the [M, N] arrays count, as in the tutorial (backward: x and dy
read, dx written).

--table joins those lines with the tilecc ones (the best configuration of each
workload) into one table; scripts/bench.sh runs both steps.
"""

import argparse
import json
import sys

FLT_EPSILON = 2.0**-23


def autotuned_config(kernel, stages=False):
    """The configuration triton.autotune picked for kernel, as the tilecc
    benchmarks describe theirs."""
    cfg = getattr(kernel, "best_config", None)
    if cfg is None:
        return "autotuned"
    meta = ",".join(f"{key}={v}" for key, v in cfg.kwargs.items())
    text = f"{meta},num_warps={cfg.num_warps}"
    return text + f",num_stages={cfg.num_stages}" if stages else text


def philox_uniform(torch, seed, n, dev):
    """tl.rand(seed, arange(n)) computed apart from Triton: Philox 4x32-10
    in int64 torch arithmetic (products of two 32-bit words fit 64 bits; their
    high halves are taken by shift and mask), then tl.uint_to_uniform_float."""
    m32 = 0xFFFFFFFF
    c0 = torch.arange(n, device=dev, dtype=torch.int64)
    c1 = torch.zeros_like(c0)
    c2 = torch.zeros_like(c0)
    c3 = torch.zeros_like(c0)
    k0, k1 = seed & m32, (seed >> 32) & m32
    for _ in range(10):
        pb = 0xCD9E8D57 * c2
        pa = 0xD2511F53 * c0
        c0, c1, c2, c3 = (((pb >> 32) & m32) ^ c1 ^ k0, pb & m32,
                          ((pa >> 32) & m32) ^ c3 ^ k1, pa & m32)
        k0, k1 = (k0 + 0x9E3779B9) & m32, (k1 + 0xBB67AE85) & m32
    signed = torch.where(c0 >= 1 << 31, c0 - (1 << 32), c0)
    folded = torch.where(signed < 0, -signed - 1, signed)
    return folded.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32)


def selects(names, workload):
    """Whether a --workloads list selects `workload`: no list, its own name,
    or the name of its sample (a prefix followed by "_": "rope" selects
    rope_fwd_bf16, "cross_entropy" not fused_linear_cross_entropy_bf16)."""
    return not names or any(workload == n or workload.startswith(n + "_") for n in names)


def peers(workloads=None):
    """Runs the Triton and PyTorch cases (those of `workloads` only, if given)
    and prints their JSON lines."""
    import torch
    import torch._functorch.config
    # Timing runs a compiled backward again (retain_graph=True), which a
    # backward compiled with donated buffers refuses.
    torch._functorch.config.donated_buffer = False
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice
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

    # Triton's tutorial 04, seeded dropout.
    @triton.autotune(configs=elementwise_configs, key=["n"])
    @triton.jit
    def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        keep = tl.rand(seed, offs) > p
        tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)

    # Triton's tutorial 07: libdevice's asin.
    @triton.autotune(configs=elementwise_configs, key=["n"])
    @triton.jit
    def asin_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        tl.store(y_ptr + offs, libdevice.asin(x), mask=mask)

    # The histogram sample's shared-memory configurations, in Triton: each
    # program counts block after block with tl.histogram, sums the counts,
    # and adds them once; the grid is PER_SM programs per SM.
    @triton.autotune(configs=[
        triton.Config({"BLOCK": block, "PER_SM": per_sm}, num_warps=warps)
        for block, warps in ((1024, 4), (2048, 8), (4096, 8), (8192, 16))
        for per_sm in (2, 4, 8)], key=["n", "n_bins"], reset_to_zero=["bins_ptr"])
    @triton.jit
    def histogram_kernel(x_ptr, bins_ptr, n, n_bins, BINS: tl.constexpr, BLOCK: tl.constexpr,
                         PER_SM: tl.constexpr):
        counts = tl.zeros((BINS,), dtype=tl.int32)
        for b in range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0)):
            offs = b * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            v = tl.load(x_ptr + offs, mask=mask, other=0) % n_bins
            counts += tl.histogram(v, BINS, mask=mask)
        bins = tl.arange(0, BINS)
        tl.atomic_add(bins_ptr + bins, counts, mask=bins < n_bins, sem="relaxed")

    # RMSNorm as Liger-Kernel writes it in Triton (forward: a row per program;
    # backward: one program per SM walking a contiguous chunk of rows, dw
    # summed in fp32 per program, the partial rows then summed by torch), with
    # the sample's arithmetic: all in fp32, each output rounded once.
    @triton.jit
    def rms_norm_fwd_kernel(x_ptr, y_ptr, w_ptr, rstd_ptr, stride, n_cols, eps,
                            BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
        tl.store(rstd_ptr + row, rstd)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty),
                 mask=mask)

    @triton.jit
    def rms_norm_bwd_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_part_ptr, stride,
                            n_rows, n_cols, rows_per_program, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        dw = tl.zeros((BLOCK,), dtype=tl.float32)
        first = pid * rows_per_program
        for row in range(first, tl.minimum(first + rows_per_program, n_rows)):
            offs = row.to(tl.int64) * stride + cols
            rstd = tl.load(rstd_ptr + row)
            xhat = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32) * rstd
            dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
            wdy = w * dy
            c = tl.sum(xhat * wdy, axis=0) / n_cols
            tl.store(dx_ptr + offs, ((wdy - xhat * c) * rstd).to(dx_ptr.dtype.element_ty),
                     mask=mask)
            dw += dy * xhat
        tl.store(dw_part_ptr + pid * n_cols + cols, dw, mask=mask)

    # SwiGLU and GeGLU (tanh GELU) forward and backward, elementwise in fp32
    # and rounded once, as the swiglu sample computes them (Liger-Kernel's
    # algorithm, flat over the tensor), autotuned over the elementwise
    # configurations.
    @triton.autotune(configs=elementwise_configs, key=["n"])
    @triton.jit
    def glu_fwd_kernel(a_ptr, b_ptr, c_ptr, n, GELU: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        if GELU:
            act = 0.5 * a * (1.0 + libdevice.tanh(0.7978845608028654 * (a + 0.044715 * a * a * a)))
        else:
            act = a / (1.0 + tl.exp(-a))
        tl.store(c_ptr + offs, (act * b).to(c_ptr.dtype.element_ty), mask=mask)

    @triton.autotune(configs=elementwise_configs, key=["n"])
    @triton.jit
    def glu_bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n, GELU: tl.constexpr,
                       BLOCK: tl.constexpr):
        offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        if GELU:
            t = libdevice.tanh(0.7978845608028654 * (a + 0.044715 * a * a * a))
            act = 0.5 * a * (1.0 + t)
            slope = 0.5 * (1.0 + t) + 0.5 * a * (1.0 - t * t) * 0.7978845608028654 * (
                1.0 + 3.0 * 0.044715 * a * a)
        else:
            sig = 1.0 / (1.0 + tl.exp(-a))
            act = a * sig
            slope = sig * (1.0 + a * (1.0 - sig))
        tl.store(da_ptr + offs, (dc * b * slope).to(da_ptr.dtype.element_ty), mask=mask)
        tl.store(db_ptr + offs, (dc * act).to(db_ptr.dtype.element_ty), mask=mask)

    # Cross-entropy fused with its gradient as Liger-Kernel writes it in
    # Triton: a program a row, an online log-sum-exp pass over the
    # vocabulary, then the gradient of the mean loss written in place of the
    # logits; label smoothing and ignore_index as the cross_entropy sample
    # computes them.
    @triton.jit
    def cross_entropy_kernel(x_ptr, target_ptr, loss_ptr, n_non_ignore_ptr, stride, n_vocab,
                             ignore_index, smoothing, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        x_ptr += row * stride
        y = tl.load(target_ptr + row)
        cols = tl.arange(0, BLOCK)
        if y == ignore_index:
            for v0 in range(0, n_vocab, BLOCK):
                tl.store(x_ptr + v0 + cols, tl.zeros((BLOCK,), dtype=x_ptr.dtype.element_ty),
                         mask=v0 + cols < n_vocab)
            tl.store(loss_ptr + row, 0.0)
            return
        n = tl.load(n_non_ignore_ptr).to(tl.float32)
        m = float("-inf")
        d = 0.0
        total = 0.0
        for v0 in range(0, n_vocab, BLOCK):
            live = v0 + cols < n_vocab
            v = tl.load(x_ptr + v0 + cols, mask=live, other=float("-inf")).to(tl.float32)
            m_new = tl.maximum(m, tl.max(v, axis=0))
            d = d * tl.exp(m - m_new) + tl.sum(tl.exp(v - m_new), axis=0)
            total += tl.sum(tl.where(live, v, 0.0), axis=0)
            m = m_new
        lse = m + tl.log(d)
        x_y = tl.load(x_ptr + y).to(tl.float32)
        loss = (1.0 - smoothing) * (lse - x_y) + smoothing * (lse - total / n_vocab)
        tl.store(loss_ptr + row, loss / n)
        floor = smoothing / n_vocab
        for v0 in range(0, n_vocab, BLOCK):
            live = v0 + cols < n_vocab
            v = tl.load(x_ptr + v0 + cols, mask=live, other=0.0).to(tl.float32)
            grad = tl.exp(v - lse) - floor - tl.where(v0 + cols == y, 1.0 - smoothing, 0.0)
            tl.store(x_ptr + v0 + cols, (grad / n).to(x_ptr.dtype.element_ty), mask=live)

    # RoPE as Liger-Kernel writes it in Triton (a program per position of a
    # sequence rotating all its query and key heads in place, the cache row
    # read once), rotate-half form, fp32 math rounded once; q and k are
    # [batch, heads, seq, head_dim] with strides.
    @triton.jit
    def rope_rotate_heads(x_ptr, base, head_stride, n_heads, c1, c2, s1, s2,
                          BACKWARD: tl.constexpr, BLOCK_H: tl.constexpr, HALF: tl.constexpr):
        h = tl.arange(0, BLOCK_H)
        offs = base + h[:, None] * head_stride + tl.arange(0, HALF)[None, :]
        mask = h[:, None] < n_heads
        x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        x2 = tl.load(x_ptr + offs + HALF, mask=mask, other=0.0).to(tl.float32)
        if BACKWARD:
            y1, y2 = x1 * c1 + x2 * s2, x2 * c2 - x1 * s1
        else:
            y1, y2 = x1 * c1 - x2 * s1, x2 * c2 + x1 * s2
        tl.store(x_ptr + offs, y1.to(x_ptr.dtype.element_ty), mask=mask)
        tl.store(x_ptr + offs + HALF, y2.to(x_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def rope_kernel(q_ptr, k_ptr, cos_ptr, sin_ptr, seq, n_q_heads, n_k_heads,
                    q_batch_stride, q_head_stride, q_seq_stride, k_batch_stride, k_head_stride,
                    k_seq_stride, BACKWARD: tl.constexpr, BLOCK_Q: tl.constexpr,
                    BLOCK_K: tl.constexpr, HALF: tl.constexpr):
        pid = tl.program_id(0)
        b = (pid // seq).to(tl.int64)
        s = (pid % seq).to(tl.int64)
        d = tl.arange(0, HALF)
        row = s * (2 * HALF)
        c1 = tl.load(cos_ptr + row + d).to(tl.float32)[None, :]
        c2 = tl.load(cos_ptr + row + HALF + d).to(tl.float32)[None, :]
        s1 = tl.load(sin_ptr + row + d).to(tl.float32)[None, :]
        s2 = tl.load(sin_ptr + row + HALF + d).to(tl.float32)[None, :]
        rope_rotate_heads(q_ptr, b * q_batch_stride + s * q_seq_stride, q_head_stride, n_q_heads,
                          c1, c2, s1, s2, BACKWARD, BLOCK_Q, HALF)
        rope_rotate_heads(k_ptr, b * k_batch_stride + s * k_seq_stride, k_head_stride, n_k_heads,
                          c1, c2, s1, s2, BACKWARD, BLOCK_K, HALF)

    # The moe_routing sample's algorithm in Triton: each row's logits and
    # experts packed into 32-bit keys (the logit's bits made to order as
    # unsigned, E - 1 - expert below), tl.topk of the keys, the softmax of the
    # K logits, and tl.histogram of the experts added to the counts once per
    # program.
    @triton.autotune(configs=[
        triton.Config({"BLOCK_T": block}, num_warps=warps)
        for block, warps in ((8, 4), (16, 4), (32, 4), (32, 8), (64, 8))],
        key=["n_tokens", "E", "K"], reset_to_zero=["counts_ptr"])
    @triton.jit
    def moe_routing_kernel(logits_ptr, weights_ptr, experts_ptr, counts_ptr, n_tokens,
                           E: tl.constexpr, K: tl.constexpr, BLOCK_T: tl.constexpr):
        rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
        cols = tl.arange(0, E)
        live = rows[:, None] < n_tokens
        x = tl.load(logits_ptr + rows[:, None] * E + cols[None, :], mask=live, other=0.0)
        bits = x.to(tl.uint16, bitcast=True).to(tl.uint32)
        ordered = tl.where(bits >= 0x8000, bits ^ 0xFFFF, bits | 0x8000)
        keys = (ordered << 16) | (E - 1 - cols).to(tl.uint32)[None, :]
        top = tl.topk(keys, K, dim=1)
        high = top >> 16
        value_bits = tl.where(high >= 0x8000, high ^ 0x8000, high ^ 0xFFFF)
        values = value_bits.to(tl.uint16).to(tl.bfloat16, bitcast=True).to(tl.float32)
        chosen = E - 1 - (top & 0xFFFF).to(tl.int32)
        e = tl.exp(values - tl.max(values, axis=1)[:, None])
        w = e / tl.sum(e, axis=1)[:, None]
        out = rows[:, None] * K + tl.arange(0, K)[None, :]
        out_live = rows[:, None] < n_tokens
        tl.store(weights_ptr + out, w, mask=out_live)
        tl.store(experts_ptr + out, chosen, mask=out_live)
        flat_live = tl.reshape(tl.broadcast_to(out_live, (BLOCK_T, K)), (BLOCK_T * K,))
        counts = tl.histogram(tl.reshape(chosen, (BLOCK_T * K,)), E, mask=flat_live)
        tl.atomic_add(counts_ptr + cols, counts, sem="relaxed")

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

    # A row a program, the block the row's power of two, warps tuned.
    @triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (4, 8, 16, 32)],
                     key=["n_cols"])
    @triton.jit
    def cumsum_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
        tl.store(y_ptr + row * stride + cols, tl.cumsum(v, axis=0), mask=mask)

    softmax_kernel, softmax_persistent_kernel = tutorial02_softmax()
    layer_norm_fwd_kernel = tutorial05_layer_norm_fwd()

    # Tutorial 05, backward, first kernel: one program per whole row computes
    # dx from the saved mean and 1/std, then adds the row's dy*xhat and dy
    # into its group's partial dw and db rows (group = row % GROUP_SIZE_M),
    # under the group's spin lock. The group's count word (after the locks)
    # tells the first row to overwrite, so the partial rows need no zeroing,
    # only the locks and counts.
    @triton.jit
    def layer_norm_bwd_dx_kernel(dx_ptr, dy_ptr, dw_part_ptr, db_part_ptr, x_ptr, w_ptr,
                                 mean_ptr, rstd_ptr, lock_ptr, stride, n_cols,
                                 GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK_SIZE_N)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        # Zero in the padding lanes, which the row sums below would count.
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = tl.where(mask, w * dy, 0.0)
        c1 = tl.sum(xhat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        group = row % GROUP_SIZE_M
        lock = lock_ptr + group
        count = lock_ptr + GROUP_SIZE_M + group
        dw_part_ptrs = dw_part_ptr + group * n_cols + cols
        db_part_ptrs = db_part_ptr + group * n_cols + cols
        part_dw = dy * xhat
        part_db = dy
        while tl.atomic_cas(lock, 0, 1) == 1:
            pass
        if tl.load(count) == 0:
            tl.atomic_xchg(count, 1)
        else:
            part_dw += tl.load(dw_part_ptrs, mask=mask)
            part_db += tl.load(db_part_ptrs, mask=mask)
        tl.store(dw_part_ptrs, part_dw, mask=mask)
        tl.store(db_part_ptrs, part_db, mask=mask)
        # Every thread's stores before the release; the lock is one word,
        # which one thread frees.
        tl.debug_barrier()
        tl.atomic_xchg(lock, 0)

    # Tutorial 05, backward, second kernel: each program sums BLOCK_SIZE_N
    # columns of the partial rows over the groups into the final dw and db.
    @triton.jit
    def layer_norm_bwd_dwdb_kernel(dw_part_ptr, db_part_ptr, dw_ptr, db_ptr, n_groups, n_cols,
                                   BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
        cols = tl.program_id(0) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        acc_dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        acc_db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for start in range(0, n_groups, BLOCK_SIZE_M):
            groups = start + tl.arange(0, BLOCK_SIZE_M)
            mask = (groups[:, None] < n_groups) & (cols[None, :] < n_cols)
            offs = groups[:, None] * n_cols + cols[None, :]
            acc_dw += tl.load(dw_part_ptr + offs, mask=mask, other=0.0)
            acc_db += tl.load(db_part_ptr + offs, mask=mask, other=0.0)
        dw = tl.sum(acc_dw, axis=0)
        db = tl.sum(acc_db, axis=0)
        tl.store(dw_ptr + cols, dw.to(dw_ptr.dtype.element_ty), mask=cols < n_cols)
        tl.store(db_ptr + cols, db.to(db_ptr.dtype.element_ty), mask=cols < n_cols)

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

    def within(out, ref, rel_tol, abs_tol=0.0):
        """Whether out is right by report()'s rule, for the outputs check() sees."""
        err = max_rel_err(out, ref, abs_tol)
        return err == err and err <= rel_tol

    def report(workload, impl, shape, config, run, ref, nbytes, rel_tol, out=None, abs_tol=0.0,
               check=None):
        """Checks and times run(). A kernel writing into `out` is checked there,
        after poisoning it; otherwise run() returns the result, or a tuple whose
        first element is the result. config() names the configuration once
        run() has picked it. check(), if given, gets what run() returned and
        says whether the other outputs are right (else "ok" is false); it runs
        before the timing, whose runs overwrite outputs written in place."""
        if not selects(workloads, workload):
            return
        if out is not None:
            out.fill_(float("nan"))
        returned = run()
        torch.cuda.synchronize()
        result = out if out is not None else returned
        if isinstance(result, tuple):
            result = result[0]
        err = max_rel_err(result, ref, abs_tol)
        others_ok = check is None or check(returned)
        ms = do_bench(run, warmup=25, rep=100, return_mode="median")
        dtype = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16",
                 torch.int32: "int32", torch.int64: "int64"}[result.dtype]
        line = {"workload": workload, "impl": impl, "shape": list(shape), "dtype": dtype,
                "config": config(), "ms": round(ms, 5), "gbps": round(nbytes / ms / 1e6, 1),
                "ok": err == err and err <= rel_tol and others_ok, "max_rel_err": err}
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
    report("vector_add", "triton", [n], lambda: autotuned_config(vector_add_kernel),
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
    report("add_relu_mul", "triton", [n], lambda: autotuned_config(add_relu_mul_kernel),
           lambda: add_relu_mul_kernel[grid](x, bias, out, scale, n), ref, 12 * n,
           1.5 * FLT_EPSILON, out=out)
    report("add_relu_mul", "torch", [n], lambda: "torch.relu(x + bias) * scale",
           lambda: torch.relu(x + bias) * scale, ref, 12 * n, 1.5 * FLT_EPSILON)
    del x, bias, out, ref

    # dropout (p = 0.5, seed 123): the mask from an independent Philox in
    # torch integer arithmetic (philox_uniform), kept values x / (1 - p), whose
    # fp32 division is div.full (2 ulp). PyTorch's dropout draws another mask
    # (its own generator, reseeded so that every timed run draws the same);
    # it is checked against the mask it drew.
    p, seed = 0.5, 123
    x = torch.rand(n, device=dev) * 2 - 1
    out = torch.empty_like(x)
    keep = philox_uniform(torch, seed, n, dev) > p
    ref = torch.where(keep, x.double() / (1 - p), 0.0)
    report("dropout", "triton", [n], lambda: autotuned_config(dropout_kernel),
           lambda: dropout_kernel[grid](x, out, n, p, seed), ref, 8 * n,
           2.5 * FLT_EPSILON, out=out)
    del keep, ref

    def torch_dropout():
        torch.cuda.manual_seed(5)
        return torch.nn.functional.dropout(x, p, training=True)

    drawn = torch_dropout()
    ref = torch.where(drawn != 0, x.double() / (1 - p), 0.0)
    report("dropout", "torch", [n], lambda: "F.dropout(x, p)", torch_dropout, ref, 8 * n,
           2.5 * FLT_EPSILON)
    del x, out, drawn, ref

    # libdevice_asin: within 2.5 ulp of asin in double (CUDA's asinf is
    # within 2). Bytes: x read, y written.
    x = torch.rand(n, device=dev) * 2 - 1
    out = torch.empty_like(x)
    ref = torch.asin(x.double())
    report("libdevice_asin", "triton", [n], lambda: autotuned_config(asin_kernel),
           lambda: asin_kernel[grid](x, out, n), ref, 8 * n, 2.5 * FLT_EPSILON, out=out)
    report("libdevice_asin", "torch", [n], lambda: "torch.asin(x)", lambda: torch.asin(x),
           ref, 8 * n, 2.5 * FLT_EPSILON)
    del x, out, ref

    # histogram: 2^26 int32 values uniform in [0, 2^20) into 256 and 65536
    # bins, as the sample's benchmark; exact. Each timed run clears the bins
    # first, as the sample's does. Bytes: the values read once. Triton's
    # tl.histogram keeps the bins in registers: 65536 of them are 512 a
    # thread at 4 warps, past what a kernel holds, so only torch runs there.
    nh = 1 << 26
    x = torch.randint(0, 1 << 20, (nh,), device=dev, dtype=torch.int32)
    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    hist_grid = lambda meta: (min(triton.cdiv(nh, meta["BLOCK"]), sms * meta["PER_SM"]),)
    for n_bins in (256, 65536):
        ref = torch.bincount((x % n_bins).long(), minlength=n_bins).double()
        bins = torch.empty(n_bins, device=dev, dtype=torch.int32)

        if n_bins == 256:
            def triton_histogram(bins=bins, n_bins=n_bins):
                bins.zero_()
                histogram_kernel[hist_grid](x, bins, nh, n_bins, BINS=n_bins)
                return bins

            report("histogram", "triton", [nh, n_bins],
                   lambda: autotuned_config(histogram_kernel), triton_histogram, ref, 4 * nh,
                   0.0)
        report("histogram", "torch", [nh, n_bins], lambda: "torch.bincount(x % n_bins, minlength)",
               lambda n_bins=n_bins: torch.bincount(x % n_bins, minlength=n_bins), ref, 4 * nh,
               0.0)
        del ref, bins
    del x

    # rms_norm (issue 51): Llama's RMSNorm on bf16 and fp16 rows of 4096 x
    # 4096, 4096 x 8192 and 16384 x 2048, as the sample's benchmark, forward
    # and backward: the Liger-style Triton kernels above, PyTorch eager (the
    # plain expression, autograd's backward) and torch.compile of it. y and
    # dx are checked against float64 within 2 ulps of the output type (fp32
    # math rounded once), rstd within 1e-5, dw within 2 ulps and 1e-6 per
    # row. Bytes: x read, y written; x and dy read, dx written.
    rms_eps = 1e-6

    def rms_norm_torch(x, w):
        xf = x.float()
        return (xf * torch.rsqrt(xf.square().mean(-1, keepdim=True) + rms_eps)
                * w.float()).to(x.dtype)

    rms_norm_compiled = torch.compile(rms_norm_torch)
    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    for rows, cols in ((4096, 4096), (4096, 8192), (16384, 2048)):
        for dtype, name, ulp in ((torch.bfloat16, "bf16", 2.0**-8),
                                 (torch.float16, "f16", 2.0**-11)):
            x = (torch.rand(rows, cols, device=dev) * 4 - 2).to(dtype)
            w = (torch.rand(cols, device=dev) + 0.5).to(dtype)
            dy = (torch.rand(rows, cols, device=dev) * 2 - 1).to(dtype)
            x64, w64, dy64 = x.double(), w.double(), dy.double()
            rstd64 = x64.square().mean(dim=1).add_(rms_eps).rsqrt_()
            xhat64 = x64 * rstd64[:, None]
            del x64
            ref_y = xhat64 * w64
            wdy64 = w64 * dy64
            ref_dx = (wdy64 - xhat64 * (xhat64 * wdy64).mean(dim=1, keepdim=True)) \
                * rstd64[:, None]
            ref_dw = (dy64 * xhat64).sum(dim=0)
            del xhat64, wdy64, dy64
            dw_abs = 1e-6 * rows + 1e-6
            block = triton.next_power_of_2(cols)
            warps = 16 if block >= 8192 else 8 if block >= 2048 else 4
            y = torch.empty_like(x)
            rstd = torch.empty(rows, device=dev)
            report(f"rms_norm_fwd_{name}", "triton", [rows, cols],
                   lambda: f"BLOCK={block},num_warps={warps}",
                   lambda: rms_norm_fwd_kernel[(rows,)](x, y, w, rstd, cols, cols, rms_eps,
                                                        BLOCK=block, num_warps=warps),
                   ref_y, 2 * rows * cols * x.element_size(), 2 * ulp, out=y, abs_tol=2 * ulp,
                   check=lambda _: within(rstd, rstd64, 1e-5))
            # torch.compile's lines are their own impl, so that both peers
            # stay in the results (the table's torch column is eager).
            for impl, label, fn in (("torch", "eager", rms_norm_torch),
                                    ("torch_compile", "torch.compile", rms_norm_compiled)):
                report(f"rms_norm_fwd_{name}", impl, [rows, cols], lambda label=label: label,
                       lambda fn=fn: fn(x, w), ref_y, 2 * rows * cols * x.element_size(),
                       2 * ulp, abs_tol=2 * ulp)
            dx = torch.empty_like(x)
            dw_part = torch.empty(sms, cols, device=dev)
            per_program = triton.cdiv(rows, sms)

            def triton_bwd():
                rms_norm_bwd_kernel[(sms,)](dy, x, w, rstd, dx, dw_part, cols, rows, cols,
                                            per_program, BLOCK=block, num_warps=warps)
                return dx, dw_part.sum(0).to(dtype)

            report(f"rms_norm_bwd_{name}", "triton", [rows, cols],
                   lambda: f"BLOCK={block},num_warps={warps},programs={sms}", triton_bwd,
                   ref_dx, 3 * rows * cols * x.element_size(), 2 * ulp, abs_tol=2 * ulp,
                   check=lambda r: within(r[1], ref_dw, 2 * ulp, dw_abs))
            for impl, label, fn in (("torch", "eager autograd", rms_norm_torch),
                                    ("torch_compile", "torch.compile autograd",
                                     rms_norm_compiled)):
                xg = x.detach().requires_grad_()
                wg = w.detach().requires_grad_()
                out = fn(xg, wg)
                report(f"rms_norm_bwd_{name}", impl, [rows, cols],
                       lambda label=label: label,
                       lambda out=out, xg=xg, wg=wg: torch.autograd.grad(
                           out, (xg, wg), dy, retain_graph=True),
                       ref_dx, 3 * rows * cols * x.element_size(), 2 * ulp, abs_tol=2 * ulp,
                       check=lambda r: within(r[1], ref_dw, 2 * ulp, dw_abs))
                del xg, wg, out
            del x, w, dy, y, rstd, dx, dw_part, rstd64, ref_y, ref_dx, ref_dw, w64

    # swiglu and geglu (issue 51): 4096 tokens x 14336, bf16 and fp16, as the
    # sample's benchmark: the Triton kernels above, PyTorch eager (the plain
    # expression F.silu(a) * b, or F.gelu(a, approximate="tanh") * b, in the
    # input type, and autograd's backward) and torch.compile of it. Checked
    # against float64: 2 ulps of the output type for the kernels that round
    # once, 4 for eager (it rounds the activation, then the product). Bytes:
    # a, b read, c written; dc, a, b read, da, db written.
    glu_n = 4096 * 14336
    glu_grid = lambda meta: (triton.cdiv(glu_n, meta["BLOCK"]),)
    for gelu, glu_name in ((False, "swiglu"), (True, "geglu")):
        def glu_torch(a, b, gelu=gelu):
            act = torch.nn.functional.gelu(a, approximate="tanh") if gelu \
                else torch.nn.functional.silu(a)
            return act * b

        glu_compiled = torch.compile(glu_torch)
        for dtype, name, ulp in ((torch.bfloat16, "bf16", 2.0**-8),
                                 (torch.float16, "f16", 2.0**-11)):
            a = (torch.rand(glu_n, device=dev) * 8 - 4).to(dtype)
            b = (torch.rand(glu_n, device=dev) * 8 - 4).to(dtype)
            dc = (torch.rand(glu_n, device=dev) * 8 - 4).to(dtype)
            a64, b64, dc64 = a.double(), b.double(), dc.double()
            if gelu:
                k = (2 / 3.141592653589793) ** 0.5
                t64 = torch.tanh(k * (a64 + 0.044715 * a64 ** 3))
                act64 = 0.5 * a64 * (1 + t64)
                slope64 = 0.5 * (1 + t64) + 0.5 * a64 * (1 - t64 ** 2) * k * (
                    1 + 3 * 0.044715 * a64 ** 2)
                del t64
            else:
                sig64 = torch.sigmoid(a64)
                act64 = a64 * sig64
                slope64 = sig64 * (1 + a64 * (1 - sig64))
                del sig64
            ref_c = act64 * b64
            ref_da = dc64 * b64 * slope64
            ref_db = dc64 * act64
            del a64, act64, slope64
            out = torch.empty_like(a)
            wl = f"{glu_name}_{name}"
            report(f"{wl}_fwd", "triton", [4096, 14336], lambda: autotuned_config(glu_fwd_kernel),
                   lambda: glu_fwd_kernel[glu_grid](a, b, out, glu_n, GELU=gelu), ref_c,
                   3 * glu_n * a.element_size(), 2 * ulp, out=out, abs_tol=1e-5)
            for impl, label, fn, tol in (("torch", "eager", glu_torch, 4 * ulp),
                                         ("torch_compile", "torch.compile", glu_compiled,
                                          4 * ulp)):
                report(f"{wl}_fwd", impl, [4096, 14336], lambda label=label: label,
                       lambda fn=fn: fn(a, b), ref_c, 3 * glu_n * a.element_size(), tol,
                       abs_tol=1e-5)
            da = torch.empty_like(a)
            db = torch.empty_like(a)

            def glu_triton_bwd():
                glu_bwd_kernel[glu_grid](dc, a, b, da, db, glu_n, GELU=gelu)
                return da, db

            report(f"{wl}_bwd", "triton", [4096, 14336], lambda: autotuned_config(glu_bwd_kernel),
                   glu_triton_bwd, ref_da, 5 * glu_n * a.element_size(), 2 * ulp, abs_tol=1e-5,
                   check=lambda r: within(r[1], ref_db, 2 * ulp, 1e-5))
            for impl, label, fn in (("torch", "eager autograd", glu_torch),
                                    ("torch_compile", "torch.compile autograd", glu_compiled)):
                ag = a.detach().requires_grad_()
                bg = b.detach().requires_grad_()
                y = fn(ag, bg)
                report(f"{wl}_bwd", impl, [4096, 14336], lambda label=label: label,
                       lambda y=y, ag=ag, bg=bg: torch.autograd.grad(y, (ag, bg), dc,
                                                                     retain_graph=True),
                       ref_da, 5 * glu_n * a.element_size(), 4 * ulp, abs_tol=1e-5,
                       check=lambda r: within(r[1], ref_db, 4 * ulp, 1e-5))
                del ag, bg, y
            del a, b, dc, b64, dc64, out, da, db, ref_c, ref_da, ref_db

    # cross_entropy (issue 51): 8192 tokens of 32000 and 128256 logits, bf16
    # and fp16, label smoothing 0.1, mean reduction, loss and gradient, as
    # the sample's benchmark: the Liger-style Triton kernel above (the count
    # of targets not ignored by torch, on the device, as Liger does), and
    # PyTorch eager and torch.compile of F.cross_entropy on the logits in
    # fp32 with autograd's gradient (the logits' gradient in their type).
    # The loss within 1e-5 and the gradient within 2 ulps of the type (1e-6 /
    # tokens absolute; fp16: 2^-24) of float64. Bytes: the logits read twice, the
    # gradient written. The Triton kernel's gradient replaces the logits:
    # timed runs after the first read the previous gradient, as the sample's
    # do.
    ce_tokens, ce_ignore, ce_smoothing = 8192, -100, 0.1

    def ce_torch(logits, target):
        return torch.nn.functional.cross_entropy(logits.float(), target,
                                                 ignore_index=ce_ignore,
                                                 label_smoothing=ce_smoothing)

    ce_compiled = torch.compile(ce_torch)
    for vocab in (32000, 128256):
        # fp16 rounds gradients below its smallest subnormal, 2^-24, to a
        # multiple of it: absolute error up to that, as the sample's test allows.
        for dtype, name, ulp, grad_abs in ((torch.bfloat16, "bf16", 2.0**-8, 1e-6 / ce_tokens),
                                           (torch.float16, "f16", 2.0**-11, 2.0**-24)):
            logits = (torch.rand(ce_tokens, vocab, device=dev) * 16 - 4).to(dtype)
            target = torch.randint(0, vocab, (ce_tokens,), device=dev)
            x64 = logits.double()
            lse64 = torch.logsumexp(x64, dim=1)
            rows64 = torch.arange(ce_tokens, device=dev)
            ref_loss = ((1 - ce_smoothing) * (lse64 - x64[rows64, target])
                        + ce_smoothing * (lse64 - x64.mean(dim=1))).mean()
            ref_grad = torch.exp(x64 - lse64[:, None]) - ce_smoothing / vocab
            ref_grad[rows64, target] -= 1 - ce_smoothing
            ref_grad /= ce_tokens
            del x64, lse64
            nbytes = 3 * ce_tokens * vocab * logits.element_size()
            x = logits.clone()
            loss_rows = torch.empty(ce_tokens, device=dev)
            block = 4096 if vocab <= 32000 else 8192
            warps = 8 if block == 4096 else 16

            def triton_ce():
                n_live = (target != ce_ignore).sum().to(torch.int32)
                cross_entropy_kernel[(ce_tokens,)](x, target, loss_rows, n_live, vocab, vocab,
                                                   ce_ignore, ce_smoothing, BLOCK=block,
                                                   num_warps=warps)
                return x, loss_rows.sum()

            x.copy_(logits)
            report(f"cross_entropy_{name}", "triton", [ce_tokens, vocab],
                   lambda: f"BLOCK={block},num_warps={warps}", triton_ce, ref_grad, nbytes,
                   2 * ulp, abs_tol=grad_abs,
                   check=lambda r: within(r[1].reshape(1), ref_loss.reshape(1), 1e-5))
            for impl, label, fn in (("torch", "eager F.cross_entropy + autograd", ce_torch),
                                    ("torch_compile", "torch.compile, + autograd",
                                     ce_compiled)):
                xg = logits.detach().requires_grad_()

                def torch_ce(fn=fn, xg=xg):
                    loss = fn(xg, target)
                    (grad,) = torch.autograd.grad(loss, (xg,))
                    return grad, loss

                report(f"cross_entropy_{name}", impl, [ce_tokens, vocab],
                       lambda label=label: label, torch_ce, ref_grad, nbytes, 2 * ulp,
                       abs_tol=grad_abs,
                       check=lambda r: within(r[1].reshape(1), ref_loss.reshape(1), 1e-5))
                del xg
            del logits, target, x, loss_rows, ref_grad, ref_loss

    # fused_linear_cross_entropy (issue 51): 8192 tokens x 4096 hidden x
    # 128256 vocabulary, bf16 and fp16, loss (mean, ignore_index) with dx and
    # dW, as the sample's benchmark. Liger-Kernel's algorithm ("triton"):
    # chunks of tokens, its chunk size (next power of 2 of tokens / (V / H)),
    # logits and dx by torch.mm (cuBLAS), the Triton cross-entropy above in
    # place, dW accumulated by addmm in the weight's type, as Liger does; the
    # same at 2048 tokens a chunk; and eager and torch.compile of
    # F.cross_entropy(x W^T) with autograd (the logits whole). Checked
    # against fp32 torch (logits, gradient, products in fp32 from the same
    # inputs): the loss within 1e-3 relative, dx and dW within 2^-5 (bf16) or
    # 2^-8 (fp16) of their largest reference element. One JSON line each
    # with "tflops" (the three products' 6 N H V) and "extra_mb" (the peak
    # memory beyond inputs and outputs).
    fl_tokens, fl_hidden, fl_vocab = 8192, 4096, 128256
    for dtype, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
        workload = f"fused_linear_cross_entropy_{name}"
        if not selects(workloads, workload):
            continue
        xin = ((torch.rand(fl_tokens, fl_hidden, device=dev) * 2 - 1)).to(dtype)
        win = ((torch.rand(fl_vocab, fl_hidden, device=dev) * 0.1 - 0.05)).to(dtype)
        target = torch.randint(0, fl_vocab, (fl_tokens,), device=dev)
        target[7::97] = ce_ignore
        n_live = (target != ce_ignore).sum()
        x32 = xin.float()
        w32 = win.float()
        logits32 = x32 @ w32.t()
        live = target != ce_ignore
        lse32 = torch.logsumexp(logits32, dim=1)
        safe = torch.where(live, target, 0)
        rows = torch.arange(fl_tokens, device=dev)
        ref_loss = ((lse32 - logits32[rows, safe]) * live).sum() / n_live
        grad32 = torch.exp(logits32 - lse32[:, None])
        grad32[rows, safe] -= 1.0
        grad32 *= (live.float() / n_live)[:, None]
        del logits32, lse32
        ref_dx = grad32 @ w32
        ref_dw = grad32.t() @ x32
        del grad32, x32, w32
        tol = 2.0**-5 if dtype == torch.bfloat16 else 2.0**-8
        flops = 6.0 * fl_tokens * fl_hidden * fl_vocab
        out_bytes = (fl_tokens + fl_vocab) * fl_hidden * xin.element_size()

        def liger(chunk):
            grad_input = torch.empty_like(xin)
            grad_weight = torch.zeros_like(win)
            loss_rows = torch.empty(fl_tokens, device=dev)
            count = (target != ce_ignore).sum().to(torch.int32)
            block = 8192
            for first in range(0, fl_tokens, chunk):
                xc = xin[first:first + chunk]
                logits = xc @ win.t()
                cross_entropy_kernel[(logits.shape[0],)](
                    logits, target[first:first + chunk], loss_rows[first:first + chunk], count,
                    fl_vocab, fl_vocab, ce_ignore, 0.0, BLOCK=block, num_warps=16)
                grad_input[first:first + chunk] = logits @ win
                grad_weight.addmm_(logits.t(), xc)
            return loss_rows.sum(), grad_input, grad_weight

        def plain(fn):
            xg = xin.detach().requires_grad_()
            wg = win.detach().requires_grad_()
            loss = fn(xg, wg)
            dx, dw = torch.autograd.grad(loss, (xg, wg))
            return loss, dx, dw

        def linear_ce(x, w):
            return torch.nn.functional.cross_entropy((x @ w.t()).float(), target,
                                                     ignore_index=ce_ignore)

        linear_ce_compiled = torch.compile(linear_ce)
        liger_chunk = triton.next_power_of_2(
            triton.cdiv(fl_tokens, triton.cdiv(fl_vocab, fl_hidden)))
        runs = [("triton", f"Liger chunk={liger_chunk} (dW {name})",
                 lambda: liger(liger_chunk)),
                ("triton", f"Liger chunk=2048 (dW {name})", lambda: liger(2048)),
                ("torch", "eager F.cross_entropy(x W^T) + autograd",
                 lambda: plain(linear_ce)),
                ("torch_compile", "torch.compile, + autograd",
                 lambda: plain(linear_ce_compiled))]
        for impl, label, run in runs:
            torch.cuda.synchronize()
            base = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            loss, dx, dw = run()
            torch.cuda.synchronize()
            extra_mb = (torch.cuda.max_memory_allocated() - base - out_bytes) / 1e6
            loss_err = abs(loss.item() - ref_loss.item()) / abs(ref_loss.item())
            dx_err = ((dx.float() - ref_dx).abs().max() / ref_dx.abs().max()).item()
            dw_err = ((dw.float() - ref_dw).abs().max() / ref_dw.abs().max()).item()
            del loss, dx, dw
            ms = do_bench(run, warmup=2, rep=400, return_mode="median")
            ok = loss_err <= 1e-3 and dx_err <= tol and dw_err <= tol
            print(json.dumps({"workload": workload, "impl": impl,
                              "shape": [fl_tokens, fl_hidden, fl_vocab],
                              "dtype": "bf16" if dtype == torch.bfloat16 else "fp16",
                              "config": label, "ms": round(ms, 4),
                              "tflops": round(flops / ms / 1e9, 1),
                              "extra_mb": round(extra_mb), "ok": ok,
                              "max_rel_err": max(loss_err, dx_err, dw_err),
                              "rel_err": {"loss": loss_err, "dx": dx_err, "dw": dw_err}}),
                  flush=True)
        del ref_dx, ref_dw, ref_loss
        # The three products of one chunk of 4096 tokens on their own, as the
        # sample's benchmark times its steps: torch.mm (cuBLAS) with the
        # output in the inputs' type (tilecc's dW update reads and writes
        # fp32 instead). Checked against the fp32 product, each output within
        # 2^-6 (bf16) or 2^-9 (fp16) of its largest element.
        step_rows = 4096
        xc = xin[:step_rows]
        # Gradients at the scale tilecc's kernels carry them (2^14 times the
        # summed loss's), clear of fp16's subnormals.
        g = ((torch.rand(step_rows, fl_vocab, device=dev) - 0.5)
             * (2.0**14 / fl_vocab)).to(dtype)
        step_tol = 2.0**-6 if dtype == torch.bfloat16 else 2.0**-9
        for step, shape, run, ref in (
                ("logits", [step_rows, fl_vocab, fl_hidden], lambda: xc @ win.t(),
                 lambda: xc.float() @ win.float().t()),
                ("grad_input", [step_rows, fl_hidden, fl_vocab], lambda: g @ win,
                 lambda: g.float() @ win.float()),
                ("grad_weight", [fl_vocab, fl_hidden, step_rows], lambda: g.t() @ xc,
                 lambda: g.float().t() @ xc.float())):
            got = run().float()
            want = ref()
            err = ((got - want).abs().max() / want.abs().max()).item()
            del got, want
            ms = do_bench(run, warmup=5, rep=100, return_mode="median")
            print(json.dumps({"workload": f"flce_{step}_{name}", "impl": "torch",
                              "shape": shape,
                              "dtype": "bf16" if dtype == torch.bfloat16 else "fp16",
                              "config": "torch.mm (cuBLAS)", "ms": round(ms, 5),
                              "tflops": round(2.0 * step_rows * fl_hidden * fl_vocab
                                              / ms / 1e9, 1),
                              "ok": err <= step_tol, "max_rel_err": err}), flush=True)
        del xin, win, target, xc, g

    # rope (issue 51): batch 4 x 4096 positions x head_dim 128, 32 query heads
    # and 32 or 8 key heads, bf16 and fp16, forward and backward, in place, as
    # the sample's benchmark: the Liger-style Triton kernel above, and PyTorch
    # eager and torch.compile of the Hugging Face expression (q * cos +
    # rotate_half(q) * sin, and the same for the backward's rotation by
    # -theta), which write new tensors. Checked against float64 within 2 ulps
    # of the type (1 ulp absolute) for the kernels, 4 for eager (several
    # roundings). Bytes: q and k read and written.
    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    def rope_torch(q, k, cos, sin):
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin

    rope_compiled = torch.compile(rope_torch)
    rb, rs, rhq, rd = 4, 4096, 32, 128
    freqs = torch.pow(10000.0, -torch.arange(0, rd // 2, device=dev, dtype=torch.float64) * 2 / rd)
    theta = torch.arange(rs, device=dev, dtype=torch.float64)[:, None] * freqs[None, :]
    theta = torch.cat((theta, theta), dim=-1)
    for rhk in (32, 8):
        for dtype, name, ulp in ((torch.bfloat16, "bf16", 2.0**-8),
                                 (torch.float16, "f16", 2.0**-11)):
            cos_t, sin_t = theta.cos().to(dtype), theta.sin().to(dtype)
            q0 = (torch.rand(rb, rhq, rs, rd, device=dev) * 4 - 2).to(dtype)
            k0 = (torch.rand(rb, rhk, rs, rd, device=dev) * 4 - 2).to(dtype)
            nbytes = 2 * (q0.numel() + k0.numel()) * q0.element_size()
            for backward in (False, True):
                sign = -1.0 if backward else 1.0
                c64, s64 = cos_t.double(), sin_t.double() * sign
                ref_q = q0.double() * c64 + rotate_half(q0.double()) * s64
                ref_k = k0.double() * c64 + rotate_half(k0.double()) * s64
                wl = f"rope_{'bwd' if backward else 'fwd'}_{name}"
                shape = [rb, rhq, rhk, rs, rd]
                q, k = q0.clone(), k0.clone()

                def triton_rope(backward=backward, q=q, k=k):
                    rope_kernel[(rb * rs,)](q, k, cos_t, sin_t, rs, rhq, rhk, q.stride(0),
                                            q.stride(1), q.stride(2), k.stride(0), k.stride(1),
                                            k.stride(2), BACKWARD=backward, BLOCK_Q=32,
                                            BLOCK_K=triton.next_power_of_2(rhk), HALF=rd // 2)
                    return q, k

                report(wl, "triton", shape, lambda: "BLOCK_Q=32,num_warps=4", triton_rope, ref_q,
                       nbytes, 2 * ulp, abs_tol=ulp,
                       check=lambda r, ref_k=ref_k: within(r[1], ref_k, 2 * ulp, ulp))
                sin_s = (sin_t * sign).to(dtype)
                for impl, label, fn in (("torch", "eager (Hugging Face expression)", rope_torch),
                                        ("torch_compile", "torch.compile", rope_compiled)):
                    report(wl, impl, shape, lambda label=label: label,
                           lambda fn=fn, sin_s=sin_s: fn(q0, k0, cos_t, sin_s), ref_q, nbytes,
                           4 * ulp, abs_tol=2 * ulp,
                           check=lambda r, ref_k=ref_k: within(r[1], ref_k, 4 * ulp, 2 * ulp))
                del ref_q, ref_k, q, k, c64, s64
            del q0, k0, cos_t, sin_t

    # moe_routing: 16384 and 65536 tokens of 128 bf16 logits, top 4 and 8, as
    # the sample's benchmark. The weights (the softmax of each row's K largest
    # logits) are checked against float64, within 1e-6; which of tied experts
    # is chosen is not (torch.topk leaves it open). Each timed run clears the
    # counts, as the sample's does. Bytes: the logits read, the weights and
    # experts written.
    n_experts = 128
    for n_tokens in (16384, 65536):
        logits = (torch.rand(n_tokens, n_experts, device=dev) * 8 - 4).to(torch.bfloat16)
        for k in (4, 8):
            top = torch.topk(logits.double(), k, dim=1).values
            ref = torch.softmax(top, dim=1)
            weights = torch.empty(n_tokens, k, device=dev)
            experts = torch.empty(n_tokens, k, device=dev, dtype=torch.int32)
            counts = torch.empty(n_experts, device=dev, dtype=torch.int32)
            nbytes = n_tokens * (2 * n_experts + 8 * k)

            def triton_routing():
                counts.zero_()
                moe_routing_kernel[lambda meta: (triton.cdiv(n_tokens, meta["BLOCK_T"]),)](
                    logits, weights, experts, counts, n_tokens, E=n_experts, K=k)
                return weights

            def torch_routing():
                values, chosen = torch.topk(logits, k, dim=1)
                return (torch.softmax(values.float(), dim=1),
                        torch.bincount(chosen.flatten(), minlength=n_experts))

            report("moe_routing", "triton", [n_tokens, n_experts, k],
                   lambda: autotuned_config(moe_routing_kernel), triton_routing, ref, nbytes,
                   1e-6, out=weights, abs_tol=1e-6)
            report("moe_routing", "torch", [n_tokens, n_experts, k],
                   lambda: "torch.topk, torch.softmax, torch.bincount", torch_routing, ref,
                   nbytes, 1e-6, abs_tol=1e-6)
            del top, ref, weights, experts, counts
        del logits

    # greyscale: fp32 weights, products and sums; nothing cancels, as pixels
    # are non-negative. Bytes: three planes read, one written.
    h = w = 8192
    rgb = torch.rand(3, h, w, device=dev)
    grey = torch.empty(h, w, device=dev)
    rgb64 = rgb.double()
    ref = 0.2989 * rgb64[0] + 0.5870 * rgb64[1] + 0.1140 * rgb64[2]
    del rgb64
    grey_grid = lambda meta: (triton.cdiv(w, meta["BLOCK_W"]), triton.cdiv(h, meta["BLOCK_H"]))
    report("greyscale", "triton", [3, h, w], lambda: autotuned_config(greyscale_kernel),
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
                # Tutorial 02's grid: the SM count times the programs an SM
                # holds, from the compiled kernel's registers and shared memory.
                props = triton.runtime.driver.active.utils.get_device_properties(
                    torch.cuda.current_device())
                stages = 4 if props["max_shared_mem"] > 200000 else 2
                compiled = softmax_persistent_kernel.warmup(
                    y, x, x.stride(0), y.stride(0), rows, cols, BLOCK=block,
                    NUM_STAGES=stages, num_warps=warps, grid=(1,))
                compiled._init_handles()
                occupancy = props["max_num_regs"] // (compiled.n_regs * 32 * warps)
                if compiled.metadata.shared:
                    occupancy = min(occupancy,
                                    props["max_shared_mem"] // compiled.metadata.shared)
                programs = min(rows, props["multiprocessor_count"] * max(1, occupancy))
                report("softmax_persistent", "triton", [rows, cols],
                       lambda: (f"BLOCK={block},num_warps={warps},num_stages={stages},"
                                f"programs={programs}"),
                       lambda: softmax_persistent_kernel[(programs,)](
                           y, x, x.stride(0), y.stride(0), rows, cols, BLOCK=block,
                           NUM_STAGES=stages, num_warps=warps),
                       ref, nbytes, tol, out=y, abs_tol=abs_tol)
                report("softmax_persistent", "torch", [rows, cols],
                       lambda: "torch.softmax(x, dim=1)", lambda: torch.softmax(x, dim=1),
                       ref, nbytes, tol, abs_tol=abs_tol)
            del x, y, ref

    # cumsum: fp32 rows of softmax's shapes, values in [-1, 1), each row a
    # program as the sample's (tl.cumsum, a scan along the row). The
    # tolerances are the sample's: 2e-6 a column absolute, 1e-5 relative.
    # Bytes: read once, written once.
    for rows, cols in ((32768, 4096), (16384, 8192)):
        x = torch.rand(rows, cols, device=dev) * 2 - 1
        y = torch.empty_like(x)
        ref = torch.cumsum(x.double(), dim=1)
        nbytes = 2 * rows * cols * x.element_size()
        block = triton.next_power_of_2(cols)
        report("cumsum", "triton", [rows, cols],
               lambda: f"BLOCK={block}" + autotuned_config(cumsum_kernel),
               lambda: cumsum_kernel[(rows,)](x, y, x.stride(0), cols, BLOCK=block),
               ref, nbytes, 1e-5, out=y, abs_tol=2e-6 * cols)
        report("cumsum", "torch", [rows, cols], lambda: "torch.cumsum(x, dim=1)",
               lambda: torch.cumsum(x, dim=1), ref, nbytes, 1e-5, abs_tol=2e-6 * cols)
        del x, y, ref

    # layer_norm_fwd, layer_norm_bwd: tutorial 05's inputs and eps, fp16; the
    # same in bf16 (layer_norm_fwd_bf16, layer_norm_bwd_bf16), whose
    # tolerances are 8 times fp16's (half an ulp: 2^-8 against 2^-11).
    eps = 1e-5
    rows = 32768
    nan = float("nan")
    for dtype, suffix, ulps in ((torch.float16, "", 1), (torch.bfloat16, "_bf16", 8)):
        for cols in (1024, 4096, 8192):
            x = (-2.3 + 0.5 * torch.randn(rows, cols, device=dev)).to(dtype)
            w = torch.rand(cols, device=dev).to(dtype)
            b = torch.rand(cols, device=dev).to(dtype)
            # The float64 references, from the rounded values the kernels read.
            x64, w64, b64 = x.double(), w.double(), b.double()
            mean64 = x64.mean(dim=1)
            xhat64 = x64 - mean64[:, None]
            del x64
            rstd64 = xhat64.square().mean(dim=1).add_(eps).rsqrt_()
            xhat64.mul_(rstd64[:, None])
            ref = xhat64 * w64 + b64

            # Forward. y is computed in fp32 from the exact inputs and rounded once
            # to the type (fp16: 2^-11 relative); where xhat*w and b cancel, the fp32 errors
            # of the terms (about 1e-6 of values up to ~4) are absolute. 2^-9 for
            # both leaves margin for the fast sqrt and division and torch's order.
            # The saved mean and 1/std (fp32 sums of at most 8192 terms of one
            # sign, a few 1e-7 relative) must be within 1e-5: the backward uses
            # them.
            y = torch.empty_like(x)
            mean = torch.empty(rows, device=dev)
            rstd = torch.empty(rows, device=dev)
            nbytes = 2 * rows * cols * x.element_size()
            block = min(65536 // x.element_size(), triton.next_power_of_2(cols))
            warps = min(max(block // 256, 1), 8)
            mean.fill_(nan)
            rstd.fill_(nan)
            report("layer_norm_fwd" + suffix, "triton", [rows, cols],
                   lambda: f"BLOCK={block},num_warps={warps}",
                   lambda: layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols,
                                                          eps, BLOCK=block, num_warps=warps),
                   ref, nbytes, ulps * 2.0**-9, out=y, abs_tol=ulps * 2.0**-9,
                   check=lambda _: within(mean, mean64, 1e-5) and within(rstd, rstd64, 1e-5))
            report("layer_norm_fwd" + suffix, "torch", [rows, cols],
                   lambda: "F.layer_norm(x, (N,), w, b, eps)",
                   lambda: torch.nn.functional.layer_norm(x, (cols,), w, b, eps), ref, nbytes,
                   ulps * 2.0**-9, abs_tol=ulps * 2.0**-9)
            # The backward's statistics also where the forward's lines are
            # filtered out (--workloads layer_norm_bwd): else they stay NaN.
            layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, eps,
                                           BLOCK=block, num_warps=warps)
            del y, ref

            # Backward, from the Triton forward's mean and 1/std (the references
            # use the float64 ones; the difference, ~1e-7, is far below the
            # tolerances). dx is rounded once like y: (fp16) 2^-8, relative and
            # absolute (where w*dy and xhat*c1 + c2 cancel).
            dy = (0.1 * torch.randn(rows, cols, device=dev)).to(dtype)
            dy64 = dy.double()
            ref_dw = (dy64 * xhat64).sum(dim=0)
            ref_db = dy64.sum(dim=0)
            wdy64 = dy64 * w64
            del dy64
            c1 = (xhat64 * wdy64).mean(dim=1, keepdim=True)
            c2 = wdy64.mean(dim=1, keepdim=True)
            ref = (wdy64 - (xhat64 * c1 + c2)) * rstd64[:, None]
            del xhat64, wdy64, c1, c2
            nbytes = 3 * rows * cols * x.element_size()
            # dw and db sum 32768 rows of terms of either sign (dy*xhat, dy: ~0.1
            # each), so their elements are typically 0.1 * sqrt(32768) ~ 18, a few
            # near 0. Each impl sums in fp32 in its own order (Triton: within the
            # group, then over the groups) and rounds once to the type (2^-11
            # relative, bf16 2^-8); near 0 what is left is the sum's error, absolute, on the
            # scale of the typical element: hence 1e-2 relative plus 1e-2 of the
            # elements' RMS. That is far above both, yet a partial row lost or
            # counted twice (~0.1 * sqrt(32768 / GROUP_SIZE_M) >= 1) is far outside.
            dw_abs = 1e-2 * ref_dw.square().mean().sqrt().item()
            db_abs = 1e-2 * ref_db.square().mean().sqrt().item()

            def grads_ok(dw, db):
                return within(dw, ref_dw, 1e-2, dw_abs) and within(db, ref_db, 1e-2, db_abs)

            dx = torch.empty_like(x)
            dw = torch.empty_like(w)
            db = torch.empty_like(b)
            # The tutorial's number of partial rows: more for shorter rows.
            group = 256 if cols <= 1024 else 128 if cols <= 4096 else 96 if cols <= 8192 else 64
            # Locks, then counts; zeroed on each run.
            locks = torch.empty(2 * group, dtype=torch.int32, device=dev)
            # fp32 partial rows (the tutorial's are x's type): the sums stay fp32
            # until the final dw, db.
            dw_part = torch.empty(group, cols, device=dev)
            db_part = torch.empty(group, cols, device=dev)
            block = triton.next_power_of_2(cols)
            warps = min(max(block // 256, 1), 8)

            def triton_bwd():
                locks.zero_()
                layer_norm_bwd_dx_kernel[(rows,)](dx, dy, dw_part, db_part, x, w, mean, rstd, locks,
                                                  x.stride(0), cols, GROUP_SIZE_M=group,
                                                  BLOCK_SIZE_N=block, num_warps=warps)
                layer_norm_bwd_dwdb_kernel[(triton.cdiv(cols, 128),)](
                    dw_part, db_part, dw, db, min(group, rows), cols, BLOCK_SIZE_M=32,
                    BLOCK_SIZE_N=128)

            # Poisoned partial rows also check that each group's first row
            # overwrites them.
            for t in (dw, db, dw_part, db_part):
                t.fill_(nan)
            report("layer_norm_bwd" + suffix, "triton", [rows, cols],
                   lambda: f"GROUP_SIZE_M={group},BLOCK_SIZE_N={block},num_warps={warps}",
                   triton_bwd, ref, nbytes, ulps * 2.0**-8, out=dx,
                   abs_tol=ulps * 2.0**-8,
                   check=lambda _: grads_ok(dw, db))
            # aten takes the saved statistics as [M, 1] fp32, as its forward returns them.
            mean_m1, rstd_m1 = mean[:, None], rstd[:, None]
            report("layer_norm_bwd" + suffix, "torch", [rows, cols],
                   lambda: "aten.native_layer_norm_backward",
                   lambda: torch.ops.aten.native_layer_norm_backward(
                       dy, x, [cols], mean_m1, rstd_m1, w, b, [True, True, True]),
                   ref, nbytes, ulps * 2.0**-8, abs_tol=ulps * 2.0**-8,
                   check=lambda r: grads_ok(r[1], r[2]))
            del x, w, b, dy, mean, rstd, mean_m1, rstd_m1, mean64, rstd64, w64, b64
            del dx, dw, db, locks, dw_part, db_part, ref, ref_dw, ref_db


def matmul_line(name, dtype, impl, variant, run, config, c, samples, tol):
    """Runs one matmul peer into the NaN-poisoned M x N output c, checks the
    sampled elements (rows, cols, want) within tol (abs, rel), times it, and
    prints its JSON line (TFLOP/s); a peer that fails is reported, not
    fatal."""
    import torch
    from triton.testing import do_bench

    m, n = c.shape
    k = m  # the workloads are square
    rows, cols, want = samples
    try:
        c.fill_(float("nan"))
        out = run()
        torch.cuda.synchronize()
        got = out[rows, cols].double()
        err = (got - want).abs()
        ok = bool(((err <= tol[0] + tol[1] * want.abs()) & ~torch.isnan(got)).all())
        ms = do_bench(run, warmup=25, rep=100, return_mode="median")
        line = {"workload": name, "impl": impl, "variant": variant,
                "shape": [m, n, k], "dtype": dtype, "config": config(),
                "ms": round(ms, 5), "tflops": round(2.0 * m * n * k / ms / 1e9, 1),
                "ok": ok}
    except Exception as e:
        line = {"workload": name, "impl": impl, "variant": variant,
                "shape": [m, n, k], "ok": False, "error": str(e)[:300]}
    print(json.dumps(line), flush=True)


def tutorial02_softmax():
    """Tutorial 02's softmax kernels: one program per row, and the persistent
    form; fp32 math, the output in its own type."""
    import triton
    import triton.language as tl

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

    # The persistent form (tutorial 02 as published): as many programs as the
    # SMs hold, each looping over rows with its loads pipelined over
    # NUM_STAGES (4 where an SM has more than 200 KB of shared memory).
    @triton.jit
    def softmax_persistent_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                                  BLOCK: tl.constexpr, NUM_STAGES: tl.constexpr):
        for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0),
                            num_stages=NUM_STAGES):
            softmax_row(out_ptr, in_ptr, row, in_stride, out_stride, n_cols, BLOCK)

    return softmax_kernel, softmax_persistent_kernel


def tutorial05_layer_norm_fwd():
    """Tutorial 05's forward kernel, one program per row."""
    import triton
    import triton.language as tl

    # Triton's tutorial 05, forward: one program per row, which walks the row
    # in BLOCK chunks three times (sum for the mean, sum of squares about the
    # mean, then normalize and store), all in fp32, and saves the row's mean
    # and 1/std for the backward.
    @triton.jit
    def layer_norm_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n_cols,
                              eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        x_ptr += row * stride
        y_ptr += row * stride
        sum_x = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            sum_x += tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        mean = tl.sum(sum_x, axis=0) / n_cols
        sum_sq = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
            # Padding lanes would add mean^2 each.
            d = tl.where(cols < n_cols, x - mean, 0.0)
            sum_sq += d * d
        rstd = 1 / tl.sqrt(tl.sum(sum_sq, axis=0) / n_cols + eps)
        tl.store(mean_ptr + row, mean)
        tl.store(rstd_ptr + row, rstd)
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n_cols
            x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
            w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
            b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
            y = (x - mean) * rstd * w + b
            tl.store(y_ptr + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    return layer_norm_fwd_kernel


def tutorial03_matmul():
    """Tutorial 03's kernel (grouped ordering), autotuned over the tutorial's
    H100 configurations keyed on M, N and K: for fp16/bf16, and for fp8 (BK
    of 128 bytes)."""
    import triton
    import triton.language as tl

    tut03_configs = [
        triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8}, num_stages=s, num_warps=w)
        for bm, bn, bk, s, w in ((128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4),
                                 (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (128, 128, 64, 4, 4),
                                 (128, 256, 64, 4, 8))
    ]

    # Tutorial 03's fp8 configurations (BK of 128 bytes).
    tut03_fp8_configs = [
        triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8}, num_stages=s, num_warps=w)
        for bm, bn, bk, s, w in ((128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4),
                                 (64, 256, 128, 4, 4), (128, 128, 128, 4, 4), (128, 64, 64, 4, 4),
                                 (64, 128, 64, 4, 4), (128, 32, 64, 4, 4))
    ]

    @triton.jit
    def grouped_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_bk, stride_bn,
                              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                              GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        blocks_m = tl.cdiv(M, BM)
        blocks_n = tl.cdiv(N, BN)
        in_group = GROUP_M * blocks_n
        first_m = pid // in_group * GROUP_M
        group_m = min(blocks_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % group_m
        pid_n = (pid % in_group) // group_m
        rm = (pid_m * BM + tl.arange(0, BM)) % M
        rn = (pid_n * BN + tl.arange(0, BN)) % N
        rk = tl.arange(0, BK)
        a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
        b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
            b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BK
            b_ptrs += BK * stride_bk
        cm = pid_m * BM + tl.arange(0, BM)
        cn = pid_n * BN + tl.arange(0, BN)
        tl.store(c_ptr + cm[:, None] * N + cn[None, :], acc.to(c_ptr.dtype.element_ty),
                 mask=(cm[:, None] < M) & (cn[None, :] < N))

    return (triton.autotune(configs=tut03_configs, key=["M", "N", "K"])(grouped_matmul_kernel),
            triton.autotune(configs=tut03_fp8_configs, key=["M", "N", "K"])(grouped_matmul_kernel))


def matmul_problem(gen, dtype, m, n, k, samples):
    """Random A (m x k) and B (k x n) in [-1, 1) of dtype, C (m x n) full of
    NaN, samples sampled elements of C with their float64 values, and the
    tolerance (abs, rel) of an fp32-accumulated product K deep."""
    import torch

    a = torch.rand(m, k, device="cuda", generator=gen).mul_(2).sub_(1).to(dtype)
    b = torch.rand(k, n, device="cuda", generator=gen).mul_(2).sub_(1).to(dtype)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    rows = torch.randint(0, m, (samples,), device="cuda", generator=gen)
    cols = torch.randint(0, n, (samples,), device="cuda", generator=gen)
    want = (a[rows].double() * b[:, cols].t().double()).sum(dim=1)
    return a, b, c, (rows, cols, want), (1e-2 * (k / 9.0 + 1.0) ** 0.5, 1e-2)


def tutorial03_run(grouped_matmul, a, b, c):
    """A function launching tutorial 03's kernel for C = A B."""
    import triton

    (m, k), n = a.shape, b.shape[1]

    def run():
        grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
        grouped_matmul[grid](a, b, c, m, n, k, n, 1)
        return c
    return run


# The shapes autotune_bench tunes tilecc's matmuls on (issue 52): M, N, K
# from {512, 1000, 3000, 4096, 8192, 12288}, skinny ones included.
AUTOTUNE_MATMUL_SHAPES = ((512, 512, 512), (1000, 1000, 1000), (3000, 3000, 3000),
                          (1000, 3000, 4096), (4096, 1000, 3000), (8192, 512, 4096),
                          (512, 8192, 8192), (12288, 4096, 1000), (3000, 12288, 512),
                          (8192, 8192, 1000), (4096, 12288, 4096), (12288, 12288, 512))


def tuned_peer_line(line, autotuner, run, check):
    """Completes and prints one "autotune" JSON line of a Triton kernel that
    triton.autotune tunes: the time of the first call with the new key,
    measuring included (and compiling where this specialization was not
    compiled yet), then of a second tuning with the choice forgotten
    (measuring alone, as tilecc's is ahead of time); check() of the tuned
    result; the tuned kernel's median."""
    import time

    import torch
    from triton.testing import do_bench

    try:
        tuning = []
        for _ in range(2):
            autotuner.cache.clear()
            torch.cuda.synchronize()
            start = time.perf_counter()
            run()
            torch.cuda.synchronize()
            tuning.append(1000 * (time.perf_counter() - start))
        ok = bool(check())
        ms = do_bench(run, warmup=25, rep=100, return_mode="median")
        line.update({"config": autotuned_config(autotuner, stages=True), "ms": round(ms, 5),
                     "tuning_ms_first": round(tuning[0], 1), "tuning_ms": round(tuning[1], 1),
                     "ok": ok})
    except Exception as e:  # a peer that fails is reported, not fatal
        line.update({"ok": False, "error": str(e)[:300]})
    print(json.dumps(line), flush=True)


def vendor_peer_line(line, run, check):
    """Completes and prints one "autotune" JSON line of a vendor library's
    kernel (which tunes itself by its own heuristics): check() of its
    result and its median."""
    from triton.testing import do_bench

    try:
        run()
        ok = bool(check())
        ms = do_bench(run, warmup=25, rep=100, return_mode="median")
        line.update({"ms": round(ms, 5), "ok": ok})
    except Exception as e:  # a peer that fails is reported, not fatal
        line.update({"ok": False, "error": str(e)[:300]})
    print(json.dumps(line), flush=True)


def autotune_peers(kernels=None):
    """Triton's own autotuning on the shapes of autotune_bench (of the
    kernels named in `kernels` only, if given), one JSON line
    each ("autotune": true; tuned_peer_line): tutorial 03's matmul (fp16,
    bf16) over its configurations, and cuBLAS's (torch.matmul), checked on
    1024 sampled elements against float64 sums; tutorial 02's softmax (fp32, 8192 rows of 3000 and 12000)
    over num_warps, and tutorial 05's layer-norm forward (fp16, same rows)
    over block sizes and num_warps, checked whole against float64; the
    tutorial-06-style attention (fp16, batch 4 x 32 heads, head_dim 128, seq
    512, 2000, 6000) over its configurations, checked on 64 sampled rows."""
    import torch
    import triton

    def wanted(kernel):
        return selects(kernels, kernel)

    grouped_matmul, _ = tutorial03_matmul()
    gen = torch.Generator(device="cuda").manual_seed(52)
    for dtype, name in ((torch.float16, "matmul_f16"), (torch.bfloat16, "matmul_bf16")):
        for m, n, k in AUTOTUNE_MATMUL_SHAPES if wanted(name) else ():
            a, b, c, (rows, cols, want), (tol_abs, tol_rel) = matmul_problem(
                gen, dtype, m, n, k, 1024)

            def check():
                got = c[rows, cols].double()
                err = (got - want).abs()
                return ((err <= tol_abs + tol_rel * want.abs()) & ~torch.isnan(got)).all()

            tuned_peer_line({"autotune": True, "kernel": name, "impl": "triton",
                             "variant": "tutorial03", "shape": [m, n, k]},
                            grouped_matmul, tutorial03_run(grouped_matmul, a, b, c), check)
            vendor_peer_line({"autotune": True, "kernel": name, "impl": "cublas",
                              "variant": "torch.matmul", "shape": [m, n, k]},
                             lambda: torch.matmul(a, b, out=c), check)
            del a, b, c

    softmax_kernel, _ = tutorial02_softmax()
    softmax = triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (4, 8, 16, 32)],
                              key=["n_cols"])(softmax_kernel)
    layer_norm = triton.autotune(
        configs=[triton.Config({"BLOCK": b}, num_warps=w)
                 for b in (1024, 2048, 4096, 8192, 16384) for w in (4, 8, 16)],
        key=["n_cols"])(tutorial05_layer_norm_fwd())
    rows = 8192
    for cols in (3000, 12000):
        # The samples' tolerances: softmax 2e-5 relative (fp32); layer norm's
        # y 2^-9 relative and absolute (fp16 output).
        x = torch.rand(rows, cols, device="cuda", generator=gen).mul_(16).sub_(8)
        y = torch.full_like(x, float("nan"))
        want = torch.softmax(x.double(), dim=1)
        if wanted("softmax"):
            tuned_peer_line({"autotune": True, "kernel": "softmax", "impl": "triton",
                             "variant": "tutorial02", "shape": [rows, cols]}, softmax,
                            lambda: softmax[(rows,)](y, x, x.stride(0), y.stride(0), cols,
                                                     BLOCK=triton.next_power_of_2(cols)),
                            lambda: ((y.double() - want).abs() <= 2e-5 * want.abs()).all())
        del x, y, want
        x = torch.rand(rows, cols, device="cuda", generator=gen).mul_(8).sub_(4).half()
        w = torch.rand(cols, device="cuda", generator=gen).add_(0.5).half()
        b = torch.rand(cols, device="cuda", generator=gen).mul_(2).sub_(1).half()
        y = torch.full_like(x, float("nan"))
        mean = torch.empty(rows, device="cuda")
        rstd = torch.empty(rows, device="cuda")
        want = torch.nn.functional.layer_norm(x.double(), (cols,), w.double(), b.double(), 1e-5)
        if wanted("layer_norm_fwd"):
            tuned_peer_line({"autotune": True, "kernel": "layer_norm_fwd", "impl": "triton",
                             "variant": "tutorial05", "shape": [rows, cols]}, layer_norm,
                            lambda: layer_norm[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols,
                                                        1e-5),
                            lambda: ((y.double() - want).abs()
                                     <= 2.0**-9 * (1 + want.abs())).all())
        del x, w, b, y, mean, rstd, want

    attention = tutorial06_attention()
    batch, heads, d = 4, 32, 128
    for seq in (512, 2000, 6000) if wanted("attention_f16") else ():
        shape = (batch, heads, seq, d)
        q, k, v = (torch.rand(shape, device="cuda", generator=gen).mul_(2).sub_(1).half()
                   for _ in range(3))
        o = torch.full_like(q, float("nan"))
        lse = torch.empty(batch * heads, seq, device="cuda")
        scale = 1.0 / d ** 0.5
        picks = torch.randint(0, batch * heads * seq, (64,), device="cuda", generator=gen)
        picks = [(int(p) // (heads * seq), int(p) // seq % heads, int(p) % seq) for p in picks]
        want = torch.stack([torch.softmax((k[b, h].double() @ q[b, h, i].double()) * scale, 0)
                            @ v[b, h].double() for b, h, i in picks])

        def run():
            grid = lambda meta: (triton.cdiv(seq, meta["BM"]), batch * heads)
            attention[grid](q, k, v, o, lse, scale, seq, d, False)

        tuned_peer_line({"autotune": True, "kernel": "attention_f16", "impl": "triton",
                         "variant": "tutorial06", "shape": list(shape)}, attention, run,
                        lambda: ((torch.stack([o[b, h, i] for b, h, i in picks]).double()
                                  - want).abs() <= 2e-2).all())
        del q, k, v, o, lse


# The workloads matmul_peers() reports.
MATMUL_WORKLOADS = ("matmul_f16", "matmul_bf16", "matmul_fp8", "matmul_i8", "matmul_tf32")


def matmul_peers():
    """Matrix multiply C = A B (fp16 and bf16, row-major, fp32 accumulation, C in
    the input type) at M = N = K = 4096 and 8192: a Triton tutorial-03-style
    kernel (grouped ordering, autotuned over the tutorial's H100
    configurations), a tutorial-09-style one (persistent over the SMs, TMA
    tensor descriptors), and torch.matmul (cuBLAS). Checked on 4096 sampled
    elements of C against float64 sums; one JSON line each with "tflops"."""
    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    grouped_matmul, grouped_matmul_fp8 = tutorial03_matmul()

    tut09_configs = [
        triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8}, num_stages=s, num_warps=w)
        for bm, bn, bk, s, w in ((128, 256, 64, 3, 8), (128, 128, 64, 4, 8), (128, 128, 64, 4, 4))
    ]

    def set_blocks(nargs):
        nargs["a_desc"].block_shape = [nargs["BM"], nargs["BK"]]
        nargs["b_desc"].block_shape = [nargs["BK"], nargs["BN"]]
        nargs["c_desc"].block_shape = [nargs["BM"], nargs["BN"]]

    for c in tut09_configs:
        c.pre_hook = set_blocks

    @triton.autotune(configs=tut09_configs, key=["M", "N", "K"])
    @triton.jit
    def persistent_tma_matmul(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr,
                              BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                              NUM_SMS: tl.constexpr):
        blocks_m = tl.cdiv(M, BM)
        blocks_n = tl.cdiv(N, BN)
        tiles = blocks_m * blocks_n
        in_group = GROUP_M * blocks_n
        for tile_id in tl.range(tl.program_id(0), tiles, NUM_SMS, flatten=True):
            first_m = tile_id // in_group * GROUP_M
            group_m = min(blocks_m - first_m, GROUP_M)
            pid_m = first_m + (tile_id % group_m)
            pid_n = (tile_id % in_group) // group_m
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k in range(0, tl.cdiv(K, BK)):
                a = a_desc.load([pid_m * BM, k * BK])
                b = b_desc.load([k * BK, pid_n * BN])
                acc = tl.dot(a, b, acc)
            c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    gen = torch.Generator(device="cuda").manual_seed(7)
    for dtype, name in ((torch.float16, "matmul_f16"), (torch.bfloat16, "matmul_bf16")):
        for size in (4096, 8192):
            m = n = k = size
            a, b, c, (rows, cols, want), (tol_abs, tol_rel) = matmul_problem(
                gen, dtype, m, n, k, 4096)
            run_tut03 = tutorial03_run(grouped_matmul, a, b, c)

            def run_tut09():
                a_desc = TensorDescriptor.from_tensor(a, [1, 1])
                b_desc = TensorDescriptor.from_tensor(b, [1, 1])
                c_desc = TensorDescriptor.from_tensor(c, [1, 1])
                grid = lambda meta: (min(sms, triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"])),)
                persistent_tma_matmul[grid](a_desc, b_desc, c_desc, m, n, k, NUM_SMS=sms)
                return c

            for impl, variant, run, config in (
                    ("triton", "tutorial03", run_tut03, lambda: autotuned_config(grouped_matmul, stages=True)),
                    ("triton", "tutorial09_tma_persistent", run_tut09,
                     lambda: autotuned_config(persistent_tma_matmul, stages=True)),
                    ("torch", "torch.matmul", lambda: torch.matmul(a, b), lambda: "cuBLAS")):
                matmul_line(name, name.split("_")[1], impl, variant, run, config, c,
                            (rows, cols, want), (tol_abs, tol_rel))
            del a, b, c
    matmul_fp8_peers(grouped_matmul_fp8)
    matmul_tf32_i8_peers(grouped_matmul)


def matmul_fp8_peers(grouped_matmul_fp8):
    """fp8 e4m3 C = A B with B given transposed (N x K, the layout fp8 GEMMs
    take), fp32 accumulation, C in fp16, at M = N = K = 4096 and 8192: the
    tutorial-03 kernel with its fp8 configurations and torch._scaled_mm
    (cuBLASLt) with unit scales. Checked as matmul_peers checks."""
    import torch
    import triton

    gen = torch.Generator(device="cuda").manual_seed(8)
    fp8 = torch.float8_e4m3fn
    one = torch.ones((), device="cuda", dtype=torch.float32)
    for size in (4096, 8192):
        m = n = k = size
        a = torch.rand(m, k, device="cuda", generator=gen).mul_(2).sub_(1).to(fp8)
        b_t = torch.rand(n, k, device="cuda", generator=gen).mul_(2).sub_(1).to(fp8)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        rows = torch.randint(0, m, (4096,), device="cuda", generator=gen)
        cols = torch.randint(0, n, (4096,), device="cuda", generator=gen)
        want = (a[rows].double() * b_t[cols].double()).sum(dim=1)
        tol_abs, tol_rel = 1e-2 * (k / 9.0 + 1.0) ** 0.5, 1e-2

        def run_tut03():
            grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
            grouped_matmul_fp8[grid](a, b_t, c, m, n, k, 1, k)
            return c

        def run_scaled_mm():
            return torch._scaled_mm(a, b_t.t(), scale_a=one, scale_b=one,
                                    out_dtype=torch.float16)

        for impl, variant, run, config in (
                ("triton", "tutorial03", run_tut03,
                 lambda: autotuned_config(grouped_matmul_fp8, stages=True)),
                ("torch", "torch._scaled_mm", run_scaled_mm, lambda: "cuBLASLt")):
            matmul_line("matmul_fp8", "fp8e4m3", impl, variant, run, config, c,
                        (rows, cols, want), (tol_abs, tol_rel))
        del a, b_t, c


def matmul_tf32_i8_peers(grouped_matmul):
    """fp32 C = A B at TF32 precision (row-major, fp32 accumulation): the
    tutorial-03 kernel (tl.dot reads fp32 as TF32) and torch.matmul with TF32
    allowed (cuBLAS); int8 C = A B with B given transposed and int32 C:
    torch._int_mm (cuBLASLt; the tutorial kernel accumulates in fp32, which
    Triton's int8 dot does not take). At M = N = K = 4096 and 8192, checked
    as matmul_peers checks (int8 exactly)."""
    import torch
    import triton

    gen = torch.Generator(device="cuda").manual_seed(9)
    allow = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = True
    for size in (4096, 8192):
        m = n = k = size
        a = torch.rand(m, k, device="cuda", generator=gen).mul_(2).sub_(1)
        b = torch.rand(k, n, device="cuda", generator=gen).mul_(2).sub_(1)
        c = torch.empty(m, n, device="cuda")
        rows = torch.randint(0, m, (4096,), device="cuda", generator=gen)
        cols = torch.randint(0, n, (4096,), device="cuda", generator=gen)
        want = (a[rows].double() * b[:, cols].t().double()).sum(dim=1)
        tol = (1e-2 * (k / 9.0 + 1.0) ** 0.5, 1e-2)

        def run_tut03():
            grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
            grouped_matmul[grid](a, b, c, m, n, k, n, 1)
            return c

        for impl, variant, run, config in (
                ("triton", "tutorial03", run_tut03,
                 lambda: autotuned_config(grouped_matmul, stages=True)),
                ("torch", "torch.matmul", lambda: torch.matmul(a, b), lambda: "cuBLAS TF32")):
            matmul_line("matmul_tf32", "tf32", impl, variant, run, config, c,
                        (rows, cols, want), tol)
        del a, b, c
    torch.backends.cuda.matmul.allow_tf32 = allow
    for size in (4096, 8192):
        m = n = k = size
        a = torch.randint(-127, 128, (m, k), device="cuda", generator=gen, dtype=torch.int8)
        b_t = torch.randint(-127, 128, (n, k), device="cuda", generator=gen, dtype=torch.int8)
        c = torch.empty(m, n, device="cuda")  # the shape; _int_mm returns its own
        rows = torch.randint(0, m, (4096,), device="cuda", generator=gen)
        cols = torch.randint(0, n, (4096,), device="cuda", generator=gen)
        want = (a[rows].double() * b_t[cols].double()).sum(dim=1)
        matmul_line("matmul_i8", "int8", "torch", "torch._int_mm",
                    lambda: torch._int_mm(a, b_t.t()), lambda: "cuBLASLt", c,
                    (rows, cols, want), (0.0, 0.0))
        del a, b_t, c


# Tutorial 06's autotuning list: BM 64/128, BN 32/64/128, 2-4 stages, 4 or 8
# warps, without 8 warps on blocks smaller than 128 x 128.
TUTORIAL06_CONFIGS = tuple((bm, bn, s, w) for bm in (64, 128) for bn in (32, 64, 128)
                           for s in (2, 3, 4) for w in (4, 8)
                           if not (bm * bn < 128 * 128 and w == 8))


def attention_fp8_peers(ds=(64, 128), seqs=(1024, 4096, 8192), causals=(False, True)):
    """Fused attention forward in fp8 (e4m3 Q, K and V, V given transposed as
    tutorial 06's fp8 path takes it; fp16 O), batch 4, 32 heads: the
    tutorial-06-style kernel with V transposed, autotuned over tutorial 06's
    whole list, and torch's scaled_dot_product_attention on the same values
    in fp16 (a reference point, not an fp8 peer). Checked with the fp8
    tolerance (probabilities rounded to e4m3 weigh values in [-1, 1]: 1/16
    and fp16's rounding of O); JSON lines as attention_peers'."""
    import torch

    def inputs(shape, gen):
        q, k, v = (torch.rand(shape, device="cuda", generator=gen).mul_(2).sub_(1)
                   .to(torch.float8_e4m3fn) for _ in range(3))
        return (q, k, v.transpose(2, 3).contiguous(), True,
                *(x.to(torch.float16) for x in (q, k, v)))

    attention_forward_peers("attention_fp8", "fp8e4m3", tutorial06_attention(TUTORIAL06_CONFIGS),
                            inputs, 10, 1 / 16 + 1 / 2048, ("tutorial06-fp8", "sdpa-fp16"),
                            ds, seqs, causals)


def attention_peer_lines(name, shape, flops, runs, poison, check, dtype="fp16"):
    """Runs, checks and times each (impl, variant, run, config) of an
    attention workload and prints its JSON line; poison() fills the outputs
    with NaN first so that a kernel that writes nothing fails check()."""
    import torch
    from triton.testing import do_bench

    for impl, variant, run, config in runs:
        try:
            poison()
            got = run()
            torch.cuda.synchronize()
            ok = check(got)
            ms = do_bench(run, warmup=25, rep=100, return_mode="median")
            line = {"workload": name, "impl": impl, "variant": variant,
                    "shape": list(shape), "dtype": dtype, "config": config(),
                    "ms": round(ms, 5), "tflops": round(flops / ms / 1e9, 1),
                    "ok": ok}
        except Exception as e:  # a peer that fails is reported, not fatal
            line = {"workload": name, "impl": impl, "variant": variant,
                    "shape": list(shape), "ok": False, "error": str(e)[:300]}
        print(json.dumps(line), flush=True)


def grouped_gemm_peers():
    """Grouped GEMM (tutorial 08's benchmark: a group of four N x N x N fp16
    products, N = 512, 1024, 2048, 4096, C in fp16, fp32 accumulation): tutorial
    08's algorithm (matrices by address, sizes and leading dimensions as triples,
    NUM_SM persistent programs walking the tiles of all problems), autotuned over
    its configurations; its Hopper form, whose programs make TMA tensor
    descriptors on the device (tl.make_tensor_descriptor); and torch.matmul over
    the group (cuBLAS, one call per product, the tutorial's reference). Checked
    on 4096 sampled elements against float64 sums; one JSON line each with
    "tflops" (2 N^3 per product)."""
    import torch
    import triton
    import triton.language as tl
    from triton.testing import do_bench

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    configs = [
        triton.Config({"BM": bm, "BN": bn, "BK": bk, "NUM_SM": programs})
        for bm, bn, bk, programs in ((128, 128, 32, 84), (128, 128, 32, 128), (64, 64, 32, 84),
                                     (64, 64, 32, 128), (128, 128, 64, sms), (64, 128, 64, sms))
    ]

    @triton.jit
    def grouped_problem(sizes, g, BM: tl.constexpr, BN: tl.constexpr):
        """Problem g's sizes, its tiles along N, and its tiles."""
        m = tl.load(sizes + 3 * g)
        n = tl.load(sizes + 3 * g + 1)
        k = tl.load(sizes + 3 * g + 2)
        tiles_n = tl.cdiv(n, BN)
        return m, n, k, tiles_n, tl.cdiv(m, BM) * tiles_n

    @triton.jit
    def grouped_operands(a_addrs, b_addrs, c_addrs, leading, g):
        """Problem g's leading dimensions and matrices."""
        return (tl.load(leading + 3 * g), tl.load(leading + 3 * g + 1),
                tl.load(leading + 3 * g + 2),
                tl.load(a_addrs + g).to(tl.pointer_type(tl.float16)),
                tl.load(b_addrs + g).to(tl.pointer_type(tl.float16)),
                tl.load(c_addrs + g).to(tl.pointer_type(tl.float16)))

    @triton.autotune(configs=configs, key=["group_size"])
    @triton.jit
    def grouped_kernel(a_addrs, b_addrs, c_addrs, sizes, leading, group_size,
                       NUM_SM: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
        tile = tl.program_id(0)
        start = 0
        for g in range(group_size):
            m, n, k, tiles_n, tiles = grouped_problem(sizes, g, BM, BN)
            while tile >= start and tile < start + tiles:
                lda, ldb, ldc, a, b, c = grouped_operands(a_addrs, b_addrs, c_addrs, leading, g)
                t = tile - start
                rm = t // tiles_n * BM + tl.arange(0, BM)
                rn = t % tiles_n * BN + tl.arange(0, BN)
                rk = tl.arange(0, BK)
                a_ptrs = a + rm[:, None] * lda + rk[None, :]
                b_ptrs = b + rk[:, None] * ldb + rn[None, :]
                acc = tl.zeros((BM, BN), dtype=tl.float32)
                for _ in range(0, tl.cdiv(k, BK)):
                    tl.multiple_of(a_ptrs, [16, 16])
                    tl.multiple_of(b_ptrs, [16, 16])
                    acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
                    a_ptrs += BK
                    b_ptrs += BK * ldb
                tl.store(c + rm[:, None] * ldc + rn[None, :], acc.to(tl.float16))
                tile += NUM_SM
            start += tiles

    tma_configs = [
        triton.Config({"BM": bm, "BN": bn, "BK": bk, "NUM_SM": sms}, num_stages=s, num_warps=w)
        for bm, bn, bk, s, w in ((128, 128, 64, 3, 4), (128, 128, 64, 4, 4), (128, 256, 64, 3, 8),
                                 (64, 128, 64, 4, 4))
    ]

    @triton.autotune(configs=tma_configs, key=["group_size"])
    @triton.jit
    def grouped_tma_kernel(a_addrs, b_addrs, c_addrs, sizes, leading, group_size,
                           NUM_SM: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                           BK: tl.constexpr):
        tile = tl.program_id(0)
        start = 0
        for g in range(group_size):
            m, n, k, tiles_n, tiles = grouped_problem(sizes, g, BM, BN)
            if tile >= start and tile < start + tiles:
                lda, ldb, ldc, a, b, c = grouped_operands(a_addrs, b_addrs, c_addrs, leading, g)
                a_desc = tl.make_tensor_descriptor(a, shape=[m, k], strides=[lda, 1],
                                                   block_shape=[BM, BK])
                b_desc = tl.make_tensor_descriptor(b, shape=[k, n], strides=[ldb, 1],
                                                   block_shape=[BK, BN])
                c_desc = tl.make_tensor_descriptor(c, shape=[m, n], strides=[ldc, 1],
                                                   block_shape=[BM, BN])
                while tile >= start and tile < start + tiles:
                    t = tile - start
                    om = t // tiles_n * BM
                    on = t % tiles_n * BN
                    acc = tl.zeros((BM, BN), dtype=tl.float32)
                    for kk in range(0, tl.cdiv(k, BK)):
                        acc += tl.dot(a_desc.load([om, kk * BK]), b_desc.load([kk * BK, on]))
                    c_desc.store([om, on], acc.to(tl.float16))
                    tile += NUM_SM
            start += tiles

    # Device-side descriptors live in a global scratch buffer Triton asks for.
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device="cuda"))
    for size in (512, 1024, 2048, 4096):
        a = [torch.empty(size, size, device="cuda", dtype=torch.float16).uniform_(-1, 1)
             for _ in range(4)]
        b = [torch.empty(size, size, device="cuda", dtype=torch.float16).uniform_(-1, 1)
             for _ in range(4)]
        c = [torch.empty(size, size, device="cuda", dtype=torch.float16) for _ in range(4)]
        addrs = [torch.tensor([t.data_ptr() for t in ts], device="cuda") for ts in (a, b, c)]
        sizes = torch.tensor([size] * 12, dtype=torch.int32, device="cuda")
        leading = sizes  # square and unpadded: every leading dimension is N
        g = torch.randint(0, 4, (4096,), device="cuda")
        rows = torch.randint(0, size, (4096,), device="cuda")
        cols = torch.randint(0, size, (4096,), device="cuda")
        a64 = torch.stack(a).double()
        b64 = torch.stack(b).double()
        want = (a64[g, rows, :] * b64[g, :, cols]).sum(1)
        del a64, b64
        tol = (1e-2 * (size / 9.0 + 1.0) ** 0.5, 1e-2)

        def triton_run(kernel):
            def run():
                kernel[lambda meta: (meta["NUM_SM"],)](*addrs, sizes, leading, 4)
                return c
            return run

        def torch_run():
            for x, y, out in zip(a, b, c):
                torch.matmul(x, y, out=out)
            return c

        for impl, variant, run, config in (
                ("triton", "tutorial 08", triton_run(grouped_kernel),
                 lambda: autotuned_config(grouped_kernel)),
                ("triton", "tutorial 08, device TMA descriptors", triton_run(grouped_tma_kernel),
                 lambda: autotuned_config(grouped_tma_kernel, stages=True)),
                ("torch", "torch.matmul per product", torch_run, lambda: "cuBLAS")):
            shape = [4, size, size, size]
            try:
                for out in c:
                    out.fill_(float("nan"))
                run()
                torch.cuda.synchronize()
                got = torch.stack(c)[g, rows, cols].double()
                err = (got - want).abs()
                ok = bool(((err <= tol[0] + tol[1] * want.abs()) & ~torch.isnan(got)).all())
                ms = do_bench(run, warmup=25, rep=100, return_mode="median")
                line = {"workload": "grouped_gemm", "impl": impl, "variant": variant,
                        "shape": shape, "dtype": "fp16", "config": config(),
                        "ms": round(ms, 5), "tflops": round(8.0 * size**3 / ms / 1e9, 1),
                        "ok": ok}
            except Exception as e:
                line = {"workload": "grouped_gemm", "impl": impl, "variant": variant,
                        "shape": shape, "ok": False, "error": str(e)[:300]}
            print(json.dumps(line), flush=True)
        del a, b, c, addrs


def tutorial06_attention(configs=None):
    """A tutorial-06-style fused attention forward (fp16 in, fp32 softmax
    statistics; online softmax with exp2; causal blocks split into the ones
    left of the diagonal and the diagonal ones), autotuned over
    tutorial-style configurations (or `configs`, (BM, BN, stages, warps)
    each) keyed on the sequence length, head_dim and causality. Sequences
    that are not a multiple of the blocks (tutorial 06 assumes they are)
    mask their last block's keys and rows. With V_T, V comes transposed
    (each head D x SEQ), as tutorial 06's fp8 path gives it."""
    import triton
    import triton.language as tl

    configs = [
        triton.Config({"BM": bm, "BN": bn}, num_stages=s, num_warps=w)
        for bm, bn, s, w in configs or ((128, 64, 3, 8), (128, 128, 3, 8), (128, 64, 4, 8),
                                        (128, 128, 2, 8), (64, 64, 3, 4))
    ]

    @triton.jit
    def attend(acc, l_i, m_i, q, k_base, v_base, start_m, qk_scale, offs_m, offs_n, offs_d,
               BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, STAGE: tl.constexpr,
               SEQ: tl.constexpr, V_T: tl.constexpr):
        if STAGE == 1:
            lo, hi = 0, start_m * BM
        elif STAGE == 2:
            lo, hi = start_m * BM, (start_m + 1) * BM
            lo = tl.multiple_of(lo, BM)
        else:
            lo, hi = 0, SEQ
        for start_n in tl.range(lo, hi, BN):
            start_n = tl.multiple_of(start_n, BN)
            keys = start_n + offs_n
            if SEQ % BN == 0:
                kt = tl.load(k_base + keys[None, :] * D + offs_d[:, None])
            else:
                kt = tl.load(k_base + keys[None, :] * D + offs_d[:, None],
                             mask=keys[None, :] < SEQ, other=0.0)
            qk = tl.dot(q, kt)
            if STAGE == 3:
                if SEQ % BN != 0:
                    qk = tl.where(keys[None, :] < SEQ, qk, -1.0e6)
            if STAGE == 2:
                keep = offs_m[:, None] >= keys[None, :]
                qk = qk * qk_scale + tl.where(keep, 0, -1.0e6)
                m_new = tl.maximum(m_i, tl.max(qk, 1))
                qk -= m_new[:, None]
            else:
                m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
                qk = qk * qk_scale - m_new[:, None]
            p = tl.math.exp2(qk)
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None]
            if V_T:
                v_ptrs = v_base + offs_d[None, :] * SEQ + keys[:, None]
            else:
                v_ptrs = v_base + keys[:, None] * D + offs_d[None, :]
            if SEQ % BN == 0:
                v = tl.load(v_ptrs)
            else:
                v = tl.load(v_ptrs, mask=keys[:, None] < SEQ, other=0.0)
            acc = tl.dot(p.to(v.dtype), v, acc)
            m_i = m_new
        return acc, l_i, m_i

    @triton.autotune(configs=configs, key=["SEQ", "D", "CAUSAL"])
    @triton.jit
    def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, sm_scale, SEQ: tl.constexpr,
                      D: tl.constexpr, CAUSAL: tl.constexpr, BM: tl.constexpr,
                      BN: tl.constexpr, V_T: tl.constexpr = False):
        start_m = tl.program_id(0)
        head = tl.program_id(1).to(tl.int64)
        base = head * SEQ * D
        offs_m = start_m * BM + tl.arange(0, BM)
        offs_n = tl.arange(0, BN)
        offs_d = tl.arange(0, D)
        rows_ok = offs_m < SEQ
        q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=rows_ok[:, None],
                    other=0.0)
        m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
        l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
        acc = tl.zeros([BM, D], dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504
        if CAUSAL:
            acc, l_i, m_i = attend(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, start_m,
                                   qk_scale, offs_m, offs_n, offs_d, BM, BN, D, 1, SEQ, V_T)
            acc, l_i, m_i = attend(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, start_m,
                                   qk_scale, offs_m, offs_n, offs_d, BM, BN, D, 2, SEQ, V_T)
        else:
            acc, l_i, m_i = attend(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, start_m,
                                   qk_scale, offs_m, offs_n, offs_d, BM, BN, D, 3, SEQ, V_T)
        tl.store(lse_ptr + head * SEQ + offs_m, m_i + tl.math.log2(l_i), mask=rows_ok)
        acc = acc / l_i[:, None]
        tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :],
                 acc.to(o_ptr.dtype.element_ty), mask=rows_ok[:, None])

    return attention_fwd


def attention_peers():
    """Fused attention forward (fp16, batch 4, 32 heads, seq 1024/4096/8192,
    head_dim 64/128, causal and not): a Triton tutorial-06-style kernel
    (online softmax with exp2, causal blocks split into the ones left of the
    diagonal and the diagonal ones, autotuned over tutorial-style
    configurations) and torch's scaled_dot_product_attention (its default
    backend). Checked on 64 sampled rows against float64; one JSON line each
    with "tflops" (4 B H S^2 D / t, halved when causal)."""
    import torch

    def inputs(shape, gen):
        q, k, v = (torch.rand(shape, device="cuda", generator=gen).mul_(2).sub_(1)
                   .to(torch.float16) for _ in range(3))
        return q, k, v, False, q, k, v

    attention_forward_peers("attention_f16", "fp16", tutorial06_attention(), inputs, 9, 2e-2,
                            ("tutorial06", "sdpa"))


def attention_forward_peers(name, dtype, attention_fwd, inputs, seed, tol, variants,
                            ds=(64, 128), seqs=(1024, 4096, 8192), causals=(False, True)):
    """The attention forward peers of one element type: inputs(shape, gen)
    gives the Triton kernel's Q, K and V, whether that V is transposed, and
    fp16 Q, K and V for torch's SDPA and the float64 reference of 64
    sampled rows, which every output must be within tol of; variants names
    the Triton and SDPA lines."""
    import torch
    import torch.nn.functional as F
    import triton

    gen = torch.Generator(device="cuda").manual_seed(seed)
    batch, heads = 4, 32
    for d in ds:
        for seq in seqs:
            shape = (batch, heads, seq, d)
            q, k, v, v_t, q16, k16, v16 = inputs(shape, gen)
            o = torch.empty(shape, device="cuda", dtype=torch.float16)
            lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
            scale = 1.0 / d ** 0.5
            picks = [(int(torch.randint(0, batch, (1,), generator=gen, device="cuda")),
                      int(torch.randint(0, heads, (1,), generator=gen, device="cuda")),
                      int(torch.randint(0, seq, (1,), generator=gen, device="cuda")))
                     for _ in range(64)]
            for causal in causals:
                want = []
                for b, h, i in picks:
                    keys = i + 1 if causal else seq
                    s = (k16[b, h, :keys].double() @ q16[b, h, i].double()) * scale
                    want.append(torch.softmax(s, 0) @ v16[b, h, :keys].double())
                want = torch.stack(want)

                def run_triton():
                    grid = lambda meta: (triton.cdiv(seq, meta["BM"]), batch * heads)
                    attention_fwd[grid](q, k, v, o, lse, scale, seq, d, causal, V_T=v_t)
                    return o

                def run_sdpa():
                    return F.scaled_dot_product_attention(q16, k16, v16, is_causal=causal,
                                                          scale=scale)

                flops = 4.0 * batch * heads * seq * seq * d * (0.5 if causal else 1.0)
                attention_peer_lines(
                    name + ("_causal" if causal else ""), shape, flops,
                    (("triton", variants[0], run_triton,
                      lambda: autotuned_config(attention_fwd, stages=True)),
                     ("torch", variants[1], run_sdpa,
                      lambda: "scaled_dot_product_attention (default backend"
                              + (", fp16)" if dtype != "fp16" else ")"))),
                    lambda: o.fill_(float("nan")),
                    lambda out: bool(((torch.stack([out[b, h, i] for b, h, i in picks])
                                       .double() - want).abs() <= tol).all()),
                    dtype=dtype)
            del q, k, v, q16, k16, v16, o, lse


def attention_backward_peers():
    """Fused attention backward (fp16, the forward's shapes): Triton kernels
    written like tutorial 06's backward (delta = rowsum(dO * O); a program
    per block of keys for dK and dV, the diagonal's queries masked; a program
    per block of queries for dQ; P recomputed from lse with exp2), autotuned
    over the tutorial's blocks and the sample's, and torch's
    scaled_dot_product_attention backward (autograd over its default
    backend). Checked on 16 sampled rows of dQ, dK and dV against float64;
    one JSON line each with "tflops" (2.5 x 4 B H S^2 D / t, halved when
    causal)."""
    import torch
    import torch.nn.functional as F
    import triton
    import triton.language as tl

    dkdv_configs = [
        triton.Config({"BM": bm, "BN": bn}, num_stages=s, num_warps=w)
        for bm, bn, s, w in ((32, 128, 5, 4), (64, 128, 2, 8), (64, 128, 3, 8),
                             (64, 64, 2, 4), (32, 64, 3, 4))
    ]
    dq_configs = [
        triton.Config({"BM": bm, "BN": bn}, num_stages=s, num_warps=w)
        for bm, bn, s, w in ((128, 32, 5, 4), (128, 64, 2, 8), (128, 64, 3, 8),
                             (64, 64, 2, 4), (64, 32, 3, 4))
    ]

    @triton.jit
    def bwd_delta(o_ptr, do_ptr, delta_ptr, SEQ: tl.constexpr, D: tl.constexpr,
                  BM: tl.constexpr):
        rows = tl.program_id(0) * BM + tl.arange(0, BM)
        head = tl.program_id(1).to(tl.int64)
        at = head * SEQ * D + rows[:, None] * D + tl.arange(0, D)[None, :]
        o = tl.load(o_ptr + at).to(tl.float32)
        do = tl.load(do_ptr + at).to(tl.float32)
        tl.store(delta_ptr + head * SEQ + rows, tl.sum(o * do, 1))

    @triton.jit
    def key_steps(dk, dv, k, v, q_base, do_base, lse_base, delta_base, cols, lo, hi,
                  qk_scale, D: tl.constexpr, BM: tl.constexpr, MASK: tl.constexpr):
        offs_d = tl.arange(0, D)
        for start_m in tl.range(lo, hi, BM):
            rows = start_m + tl.arange(0, BM)
            qt = tl.load(q_base + rows[None, :] * D + offs_d[:, None])
            lse2 = tl.load(lse_base + rows) * 1.44269504
            pt = tl.math.exp2(tl.dot(k, qt) * qk_scale - lse2[None, :])
            if MASK:
                pt = tl.where(rows[None, :] >= cols[:, None], pt, 0.0)
            do = tl.load(do_base + rows[:, None] * D + offs_d[None, :])
            dv = tl.dot(pt.to(tl.float16), do, dv)
            delta = tl.load(delta_base + rows)
            dst = pt * (tl.dot(v, tl.trans(do)) - delta[None, :])
            dk = tl.dot(dst.to(tl.float16), tl.trans(qt), dk)
        return dk, dv

    @triton.autotune(configs=dkdv_configs, key=["SEQ", "D", "CAUSAL"])
    @triton.jit
    def bwd_dkdv(q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, dk_ptr, dv_ptr, sm_scale,
                 SEQ: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr,
                 BM: tl.constexpr, BN: tl.constexpr):
        start_n = tl.program_id(0) * BN
        head = tl.program_id(1).to(tl.int64)
        base = head * SEQ * D
        cols = start_n + tl.arange(0, BN)
        at = base + cols[:, None] * D + tl.arange(0, D)[None, :]
        k = tl.load(k_ptr + at)
        v = tl.load(v_ptr + at)
        dk = tl.zeros([BN, D], dtype=tl.float32)
        dv = tl.zeros([BN, D], dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504
        lo = 0
        if CAUSAL:
            dk, dv = key_steps(dk, dv, k, v, q_ptr + base, do_ptr + base, lse_ptr + head * SEQ,
                               delta_ptr + head * SEQ, cols, start_n, start_n + BN, qk_scale,
                               D, BM, True)
            lo = start_n + BN
        dk, dv = key_steps(dk, dv, k, v, q_ptr + base, do_ptr + base, lse_ptr + head * SEQ,
                           delta_ptr + head * SEQ, cols, lo, SEQ, qk_scale, D, BM, False)
        tl.store(dv_ptr + at, dv.to(tl.float16))
        tl.store(dk_ptr + at, (dk * sm_scale).to(tl.float16))

    @triton.jit
    def query_steps(dq, q, do, lse2, delta, k_base, v_base, rows, lo, hi, qk_scale,
                    D: tl.constexpr, BN: tl.constexpr, MASK: tl.constexpr):
        offs_d = tl.arange(0, D)
        for start_n in tl.range(lo, hi, BN):
            cols = start_n + tl.arange(0, BN)
            kt = tl.load(k_base + cols[None, :] * D + offs_d[:, None])
            p = tl.math.exp2(tl.dot(q, kt) * qk_scale - lse2[:, None])
            if MASK:
                p = tl.where(rows[:, None] >= cols[None, :], p, 0.0)
            vt = tl.load(v_base + cols[None, :] * D + offs_d[:, None])
            ds = p * (tl.dot(do, vt) - delta[:, None])
            dq = tl.dot(ds.to(tl.float16), tl.trans(kt), dq)
        return dq

    @triton.autotune(configs=dq_configs, key=["SEQ", "D", "CAUSAL"])
    @triton.jit
    def bwd_dq(q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, dq_ptr, sm_scale,
               SEQ: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr,
               BM: tl.constexpr, BN: tl.constexpr):
        start_m = tl.program_id(0) * BM
        head = tl.program_id(1).to(tl.int64)
        base = head * SEQ * D
        rows = start_m + tl.arange(0, BM)
        at = base + rows[:, None] * D + tl.arange(0, D)[None, :]
        q = tl.load(q_ptr + at)
        do = tl.load(do_ptr + at)
        lse2 = tl.load(lse_ptr + head * SEQ + rows) * 1.44269504
        delta = tl.load(delta_ptr + head * SEQ + rows)
        dq = tl.zeros([BM, D], dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504
        hi = start_m if CAUSAL else SEQ
        dq = query_steps(dq, q, do, lse2, delta, k_ptr + base, v_ptr + base, rows, 0, hi,
                         qk_scale, D, BN, False)
        if CAUSAL:
            dq = query_steps(dq, q, do, lse2, delta, k_ptr + base, v_ptr + base, rows, start_m,
                             start_m + BM, qk_scale, D, BN, True)
        tl.store(dq_ptr + at, (dq * sm_scale).to(tl.float16))

    gen = torch.Generator(device="cuda").manual_seed(10)
    batch, heads = 4, 32
    for d in (64, 128):
        for seq in (1024, 4096, 8192):
            shape = (batch, heads, seq, d)
            q, k, v, d_o = (torch.rand(shape, device="cuda", generator=gen).mul_(2).sub_(1)
                            .to(torch.float16) for _ in range(4))
            scale = 1.0 / d ** 0.5
            picks = [(int(torch.randint(0, batch, (1,), generator=gen, device="cuda")),
                      int(torch.randint(0, heads, (1,), generator=gen, device="cuda")),
                      int(torch.randint(0, seq, (1,), generator=gen, device="cuda")))
                     for _ in range(16)]
            for causal in (False, True):
                qg, kg, vg = (x.detach().requires_grad_() for x in (q, k, v))
                out = F.scaled_dot_product_attention(qg, kg, vg, is_causal=causal, scale=scale)
                o = out.detach()
                # The reference: each picked head's P, dS in float64.
                want = {}
                for b, h, i in picks:
                    qh, kh, vh, oh, doh = (x[b, h].double() for x in (q, k, v, o, d_o))
                    s = (qh @ kh.T) * scale
                    if causal:
                        s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1),
                                          float("-inf"))
                    p = torch.softmax(s, 1)
                    ds = p * (doh @ vh.T - (doh * oh).sum(1, keepdim=True)) * scale
                    want[(b, h, i)] = (ds[i] @ kh, ds[:, i] @ qh, p[:, i] @ doh)
                    del s, p, ds
                lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
                for bh in range(batch * heads):
                    s = (q.view(-1, seq, d)[bh].float() @ k.view(-1, seq, d)[bh].float().T) * scale
                    if causal:
                        s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1),
                                          float("-inf"))
                    lse[bh] = torch.logsumexp(s, 1)
                del s
                delta = torch.empty_like(lse)
                dq, dk, dv = (torch.empty_like(q) for _ in range(3))

                def run_triton():
                    bwd_delta[(seq // 128, batch * heads)](o, d_o, delta, seq, d, 128)
                    bwd_dkdv[lambda m: (seq // m["BN"], batch * heads)](
                        q, k, v, d_o, lse, delta, dk, dv, scale, seq, d, causal)
                    bwd_dq[lambda m: (seq // m["BM"], batch * heads)](
                        q, k, v, d_o, lse, delta, dq, scale, seq, d, causal)
                    return dq, dk, dv

                def run_sdpa():
                    return torch.autograd.grad(out, (qg, kg, vg), d_o, retain_graph=True)

                name = "attention_bwd_f16_causal" if causal else "attention_bwd_f16"
                flops = 2.5 * 4.0 * batch * heads * seq * seq * d * (0.5 if causal else 1.0)
                attention_peer_lines(
                    name, shape, flops,
                    (("triton", "tutorial06", run_triton,
                      lambda: "dkdv " + autotuned_config(bwd_dkdv, stages=True)
                      + "; dq " + autotuned_config(bwd_dq, stages=True)),
                     ("torch", "sdpa", run_sdpa,
                      lambda: "scaled_dot_product_attention backward (default backend)")),
                    lambda: [x.fill_(float("nan")) for x in (dq, dk, dv)],
                    lambda got: all(bool(((g[b, h, i].double() - w).abs()
                                          <= 2e-2 + 1e-2 * w.abs()).all())
                                    for (b, h, i), ws in want.items()
                                    for g, w in zip(got, ws)))
                del qg, kg, vg, out, o, lse, delta, dq, dk, dv
            del q, k, v, d_o


def rate(r):
    """A result's throughput: TFLOP/s for compute-bound workloads, else GB/s."""
    return r.get("tflops", r.get("gbps"))


def json_lines(path):
    """The JSON objects of the lines of path, in order; other lines skipped."""
    with open(path) as f:
        for text in f:
            try:
                r = json.loads(text)
            except ValueError:
                continue
            if isinstance(r, dict):
                yield r, text


def best_rows(path):
    """The JSON lines in path joined into one entry per workload and shape:
    {impl: its line} with tilecc's best configuration and each peer's fastest
    variant. Returns (entries keyed by (workload, shape), status): status 1 if
    any result was wrong, else 0."""
    rows = {}
    status = 0
    for r, text in json_lines(path):
        # Where and when (bench.sh's first line of a run): no result.
        if r.get("meta"):
            continue
        if not r.get("ok", False):
            status = 1
            print(f"WRONG RESULT: {text.strip()}")
        # A kernel of a pass with several (attention_bwd's dK/dV, dQ):
        # the pass's own line has the peers. Autotuning's lines
        # (autotune_bench, --only autotune) have their own report.
        if r.get("part_of") or r.get("autotune"):
            continue
        # One row per workload and shape.
        entry = rows.setdefault((r["workload"], tuple(r["shape"])),
                                {"shape": r["shape"]})
        impl = r["impl"]
        if impl == "tilecc" and not r.get("best"):
            continue
        # Of several variants of a peer (Triton's matmul tutorials), the
        # fastest.
        if impl in entry and rate(entry[impl]) is not None and (
                rate(r) is None or rate(r) <= rate(entry[impl])):
            continue
        entry[impl] = r
    return rows, status


def table(path):
    """Prints one row per workload: tilecc's best configuration beside Triton and
    torch (GB/s, or TFLOP/s for matmul). Returns 1 if any result was wrong or
    missing, else 0."""
    rows, status = best_rows(path)

    def gbps(e, impl):
        return rate(e[impl]) if impl in e else None

    def fmt(v, spec):
        return format(v, spec) if v is not None else "-"

    def ratio(a, b):
        return a / b if a is not None and b else None

    header = ("workload", "size", "tilecc GB/s|TFLOP/s", "triton", "torch",
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
    ap.add_argument("--only", choices=["memory", "matmul", "attention", "attention_backward",
                                       "autotune"],
                    help="run only these peers (memory: every memory-bound workload)")
    ap.add_argument("--workloads", metavar="A,B",
                    help="of the memory-bound or matmul peers (or with --only "
                         "autotune, of the tuned kernels), run only these: workload "
                         "names, or samples' (rope: every rope_* workload; matmul: "
                         "every matmul_* one, not grouped_gemm)")
    args = ap.parse_args()
    if args.table:
        return table(args.table)
    if args.only in (None, "memory"):
        peers(args.workloads.split(",") if args.workloads else None)
    if args.only in (None, "matmul"):
        names = args.workloads.split(",") if args.workloads else None
        if any(selects(names, w) for w in MATMUL_WORKLOADS):
            matmul_peers()
        if selects(names, "grouped_gemm"):
            grouped_gemm_peers()
    if args.only in (None, "attention"):
        attention_peers()
        attention_fp8_peers()
    if args.only in (None, "attention_backward"):
        attention_backward_peers()
    if args.only in (None, "autotune"):
        autotune_peers(args.workloads.split(",") if args.workloads else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
