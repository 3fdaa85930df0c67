#!/usr/bin/env python3
"""Autotuning's table, from the JSON lines of autotune_bench and
bench_peers.py --only autotune (one run, same card):

    python3 scripts/autotune_report.py DIR/bench.jsonl

Per kernel and shape: the configurations tilecc timed, the tuned launch
against the fastest of them (issue 52's target: 0.98 or more), the time of
the tuning call, and, where Triton tuned the same kernel and shape, Triton's
tuned kernel and tuning time, and tilecc's tuned time against it (target:
1.0 or more), and, where cuBLAS ran the same product, its time and tilecc's
against it (no target: reported). Then the dispatch overhead of a tuned
launch. Exits 1 if a result was wrong or a target missed.
"""

import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jsonl")
    args = ap.parse_args()
    ours, triton, vendor, dispatch = {}, {}, {}, []
    status = 0
    with open(args.jsonl) as f:
        for text in f:
            try:
                r = json.loads(text)
            except ValueError:
                continue
            if not isinstance(r, dict) or not r.get("autotune"):
                continue
            if not r.get("ok", False):
                print(f"WRONG RESULT: {text.strip()}")
                status = 1
                continue
            where = (r["kernel"], tuple(r["shape"]))
            if r.get("dispatch"):
                dispatch.append(r)
            elif r.get("impl") == "triton":
                triton[where] = r
            elif r.get("impl") == "cublas":
                vendor[where] = r
            else:
                ours[where] = r

    def cell(v, spec):
        return format(v, spec) if v is not None else "-"

    header = ("kernel", "shape", "configs", "tuned / best", "tuning ms",
              "Triton ms", "Triton tuning ms", "tilecc tuned / Triton", "cuBLAS ms",
              "tilecc tuned / cuBLAS")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for (kernel, shape), r in sorted(ours.items()):
        t = triton.get((kernel, shape))
        v = vendor.get((kernel, shape))
        vs_triton = t["ms"] / r["tuned_ms"] if t else None
        vs_vendor = v["ms"] / r["tuned_ms"] if v else None
        if r["tuned_vs_best"] < 0.98 or (vs_triton is not None and vs_triton < 1.0):
            status = 1
        cells = (kernel, "x".join(map(str, shape)), str(r["configs_timed"]),
                 cell(r["tuned_vs_best"], ".3f"), cell(r["tuning_ms"], ".1f"),
                 cell(t["ms"] if t else None, ".4f"),
                 cell(t["tuning_ms"] if t else None, ".1f"), cell(vs_triton, ".3f"),
                 cell(v["ms"] if v else None, ".4f"), cell(vs_vendor, ".3f"))
        print("| " + " | ".join(cells) + " |")
    for r in dispatch:
        print(f"\nDispatch, {r['launches']} launches of {r['kernel']} {r['shape']} in "
              f"alternating rounds: {r['direct_us']:.3f} us per launch by index "
              f"(rounds' p10-p90 {r['direct_p10_us']:.3f}-{r['direct_p90_us']:.3f}), "
              f"{r['tuned_us']:.3f} tuned; median difference {r['difference_us']:+.3f} us")
    return status


if __name__ == "__main__":
    sys.exit(main())
