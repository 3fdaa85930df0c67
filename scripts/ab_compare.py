#!/usr/bin/env python3
"""Side-by-side table of scripts/ab-run.sh's runs.

    python3 scripts/ab_compare.py RUNS_DIR [--tags A,B]

RUNS_DIR holds TAG__SAMPLE__rN.jsonl files of JSON lines in the *_bench
binaries' format (and bench_peers.py's, under the tag "peers"). For each
(workload, shape, dtype): each tag's best time (over configurations, each
configuration's fastest round) with its configuration, the speed of every
tag's best relative to the first tag's (--tags orders them; peers last), and, with two tilecc tags, the two
configurations whose times moved most either way. Exit 1 if any result was
wrong.
"""
import argparse
import collections
import json
import os
import sys


def load(runs):
    """{(workload, shape, dtype): {(tag, config): [ms, ...]}}, and whether
    every line was right."""
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    right = True
    for name in sorted(os.listdir(runs)):
        if not name.endswith(".jsonl"):
            continue
        tag = name.split("__")[0]
        with open(os.path.join(runs, name)) as f:
            for line in f:
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                if "workload" not in r or "ms" not in r:
                    continue
                if not r.get("ok", True):
                    right = False
                    print(f"WRONG: {tag} {r['workload']} {r['shape']} {r.get('config')}")
                    continue
                # A peer's name has a space ("triton tutorial 08",
                # "torch "); a tag has none.
                peer = r.get("impl", "tilecc") != "tilecc"
                who = f"{r['impl']} {r.get('variant', '')}" if peer else tag
                key = (r["workload"], "x".join(map(str, r["shape"])), r.get("dtype", ""))
                rows[key][(who, r.get("config", ""))].append(r["ms"])
    return rows, right


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs")
    ap.add_argument("--tags", default="", help="the tilecc tags, in order")
    args = ap.parse_args()
    order = [t for t in args.tags.split(",") if t]
    rows, right = load(args.runs)
    for key in sorted(rows):
        per = rows[key]
        fastest = {c: min(ms) for c, ms in per.items()}
        tags = sorted({t for t, _ in per},
                      key=lambda t: (" " in t, order.index(t) if t in order else len(order), t))
        best = {t: min((ms, c) for (tt, c), ms in fastest.items() if tt == t) for t in tags}
        base = best[tags[0]][0]
        print(" ".join(key))
        for t in tags:
            ms, config = best[t]
            print(f"  {t.strip():>30} {ms * 1000:10.2f} us  x{base / ms:5.3f}  {config}")
        tilecc = [t for t in tags if " " not in t]
        if len(tilecc) == 2:
            a, b = tilecc
            moved = sorted((fastest[(b, c)] / fastest[(a, c)], c) for (t, c) in fastest
                           if t == a and (b, c) in fastest)
            for ratio, config in moved[:1] + moved[-1:]:
                print(f"  {b}/{a} time x{ratio:5.3f}  {config}")
    return 0 if right else 1


if __name__ == "__main__":
    sys.exit(main())
