#!/usr/bin/env python3
"""Pictures of the layouts tilecc gave a kernel's tiles: which thread holds which element.

    python3 scripts/layout_pictures.py OUT/kernel.json DIR [--variant NAME] [--tiles a,b]

OUT/kernel.json is the metadata tilecc writes beside a kernel's generated code.
For each tile of the variant (the first by default; --tiles picks some by
name), this draws DIR/<variant>.<tile>.svg: the tile as a grid (a 1-D tile in
rows of 64; of a 3-D or larger tile, its first 2-D slice), each element
coloured by the warp that holds it (lighter for higher lanes) and, where the
tile has at most 2048 elements, labelled
with the thread and the index in that thread's register array (T37:5 is
element 5 of thread 37's array, the e of the generated code's loops). An
element that several threads hold (a layout that wraps, or a slice) shows the
thread whose copy stores it and how many copies there are.

With --smem, it draws instead the variant's shared-memory operand tiles (each
`using NAME = rt::smem_tile<T, R, C>` of its generated code: the pipeline
stages tensor cores and TMA read) as DIR/<variant>.<NAME>.smem.svg: the first
16 rows of the tile's first slab as they lie in shared memory, one cell per
16-byte chunk, labelled with the columns it holds and coloured by them, so
that the XOR swizzle (wgmma's and TMA's 128/64/32-byte modes) shows as the
chunks of a column moving across the 32 banks from row to row.

The mapping is not modelled here: the script compiles a host program that runs
the layouts' own tile::rt types (runtime-headers/tile/rt/layout.cuh and
smem.cuh, spelled as the generated code spells them) for every thread of the
program, so a picture shows exactly what the kernel does. It needs a C++20
compiler (CXX, default c++).
"""

import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.join(HERE, "..", "runtime-headers")

# Layout arithmetic is host-and-device code; the host program stands in for
# the thread index.
PROGRAM_HEAD = r"""
#define __host__
#define __device__
struct thread_index { int x; };
static thread_index threadIdx;
#include <tile/rt/layout.cuh>
#include <cstdio>
namespace rt = tile::rt;

template <class L> void dump(const char *name, int threads) {
  std::printf("layout %s %d\n", name, L::rank);
  for (int t = 0; t < threads; ++t) {
    threadIdx.x = t;
    int n = 0;
    if constexpr (L::slice_dim >= 0)
      n = L::elems();
    else
      n = L::elems(-1);
    for (int e = 0; e < n; ++e) {
      std::printf("%d %d %d", t, e, L::owns(e) ? 1 : 0);
      for (int d = 0; d < L::rank; ++d)
        std::printf(" %d", L::coord(e, d));
      std::printf("\n");
    }
  }
}

int main() {
"""

ROW = 64

# The shared-memory tiles' arithmetic, on the host: only the size of an element
# matters to it, so each element type is an unsigned integer of its size.
SMEM_HEAD = r"""
#define __host__
#define __device__
#define __forceinline__ inline
struct thread_index { int x; };
static thread_index threadIdx;
struct uint2 { unsigned x, y; };
struct uint4 { unsigned x, y, z, w; };
#define __shared__
#define __align__(n)
inline unsigned long long __cvta_generic_to_shared(const void *) { return 0; }
#include <tile/rt/smem.cuh>
#include <cstdint>
#include <cstdio>
#include <type_traits>
namespace rt = tile::rt;

// Row r's chunk q (columns [q * V, q * V + V)) of slab 0: where it lies.
template <class T> void dump(const char *name, int shown) {
  using E = std::remove_pointer_t<decltype(T::base)>;
  constexpr int V = 16 / int(sizeof(E));
  std::printf("smem %s %d %d %d %d\n", name, T::rows, T::cols, T::slab_cols,
              int(sizeof(E)));
  for (int r = 0; r < shown && r < T::rows; ++r)
    for (int q = 0; q < T::slab_cols / V; ++q) {
      const int o = T::offset(r, q * V);
      std::printf("%d %d %d %d\n", r, q, o / T::slab_cols, o % T::slab_cols / V);
    }
}

int main() {
"""
SMEM_ROWS = 16
ELEMENT_BYTES = {"rt::f8e4m3": 1, "rt::f8e5m2": 1, "int8_t": 1, "uint8_t": 1,
                 "rt::f16": 2, "rt::bf16": 2, "float": 4, "int32_t": 4, "int": 4,
                 "double": 8}
UNSIGNED = {1: "std::uint8_t", 2: "std::uint16_t", 4: "std::uint32_t", 8: "std::uint64_t"}



def parse_tile(line):
    """'name : tensor<f32, [16, 128]> L4 (16 per thread)' -> (name, shape, layout)."""
    m = re.match(r"(\S+) : tensor<[^,]+, \[([0-9, ]+)\]> (L[0-9]+)", line)
    if not m:
        return None
    return m.group(1), [int(s) for s in m.group(2).split(",")], m.group(3)


def run_on_host(program):
    """Compiles a C++ program with the runtime headers and returns what it
    prints."""
    cxx = os.environ.get("CXX", "c++")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "program.cpp")
        exe = os.path.join(tmp, "program")
        with open(src, "w") as f:
            f.write(program)
        subprocess.run([cxx, "-std=c++20", "-O1", "-I", RUNTIME, src, "-o", exe], check=True)
        return subprocess.run([exe], check=True, capture_output=True, text=True).stdout


def owners(layouts, threads):
    """For each layout name: {coordinates: [(thread, element, owns)]}, from the
    runtime's own arithmetic run on the host."""
    body = "".join(f'  dump<{spelling}>("{name}", {threads});\n'
                   for name, spelling in layouts.items())
    out = run_on_host(PROGRAM_HEAD + body + "}\n")
    result, current = {}, None
    for text in out.splitlines():
        if text.startswith("layout "):
            current = result.setdefault(text.split()[1], {})
            continue
        t, e, own, *coords = (int(v) for v in text.split())
        current.setdefault(tuple(coords), []).append((t, e, own))
    return result


def smem_tiles(cu_text, variant):
    """{name: (element spelling, rows, cols)} of the variant's shared-memory
    operand tiles, from its generated code."""
    start = cu_text.find(f" {variant}(")
    if start < 0:
        sys.exit(f"no kernel {variant} in the generated code")
    end = cu_text.find("__global__", start)
    body = cu_text[start:end if end >= 0 else len(cu_text)]
    found = {}
    for m in re.finditer(r"using (\w+) = rt::smem_tile<([^,]+), ([0-9]+), ([0-9]+)>;", body):
        found.setdefault(m.group(1), (m.group(2), int(m.group(3)), int(m.group(4))))
    return found


def smem_placements(tiles):
    """For each tile name: (rows, cols, slab_cols, element bytes,
    {(row, chunk): (memory row, memory chunk)})."""
    body = ""
    for name, (elem, rows, cols) in tiles.items():
        if elem not in ELEMENT_BYTES:
            sys.exit(f"{name}: unknown element type {elem}")
        body += (f'  dump<rt::smem_tile<{UNSIGNED[ELEMENT_BYTES[elem]]}, {rows}, {cols}>>'
                 f'("{name}", {SMEM_ROWS});\n')
    out = run_on_host(SMEM_HEAD + body + "}\n")
    result, current = {}, None
    for text in out.splitlines():
        if text.startswith("smem "):
            _, name, *numbers = text.split()
            current = {}
            result[name] = (*(int(v) for v in numbers), current)
            continue
        r, q, row, chunk = (int(v) for v in text.split())
        current[row, chunk] = (r, q)
    return result


def picture_head(title, right, bottom):
    """The opening of an SVG picture whose grid ends at (right, bottom), on
    white, with its title lines."""
    width = max(right + 10, 20 + 8 * max(len(t) for t in title))
    height = bottom + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="monospace">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for i, line in enumerate(title):
        parts.append(f'<text x="10" y="{18 + 16 * i}" font-size="13">{html.escape(line)}</text>')
    return parts


def smem_svg(title, rows, chunks, per_chunk, placement):
    """Shared memory, one row of the tile's slab a line, one cell per 16-byte
    chunk: the columns it holds, coloured by them."""
    w, h = 58, 16
    top, left = 38 + 16 * len(title), 34
    parts = picture_head(title, left + chunks * w, top + rows * h)
    for p in range(chunks):
        parts.append(f'<text x="{left + p * w}" y="{top - 20}" font-size="9">bytes {16 * p}-</text>')
        parts.append(f'<text x="{left + p * w}" y="{top - 8}" font-size="9">'
                     f'{16 * p + 15} </text>')
    parts.append('<g font-size="10">')
    for row in range(rows):
        parts.append(f'<text x="4" y="{top + row * h + 12}" font-size="9">{row}</text>')
        for p in range(chunks):
            r, q = placement[row, p]
            fill = f"hsl({(q * 360 // chunks + 20) % 360}, 55%, 72%)"
            parts.append(f'<rect x="{left + p * w}" y="{top + row * h}" width="{w}" height="{h}" '
                         f'fill="{fill}" stroke="white" stroke-width="0.5"/>')
            parts.append(f'<text x="{left + p * w + 3}" y="{top + row * h + 11}">'
                         f'c{q * per_chunk}-{q * per_chunk + per_chunk - 1}</text>')
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def draw_smem(meta, variant, json_path, out):
    """The --smem pictures of one variant."""
    cu = os.path.join(os.path.dirname(json_path), meta["files"][0])
    with open(cu) as f:
        tiles = smem_tiles(f.read(), variant["name"])
    if not tiles:
        sys.exit(f"{variant['name']} keeps no operand tiles in shared memory")
    os.makedirs(out, exist_ok=True)
    for name, (rows, cols, slab_cols, size, placement) in smem_placements(tiles).items():
        elem = tiles[name][0]
        per_chunk = 16 // size
        chunks = slab_cols // per_chunk
        shown = min(rows, SMEM_ROWS)
        title = [f"{variant['name']}: {name} = rt::smem_tile<{elem}, {rows}, {cols}>, "
                 f"rows 0-{shown - 1} of slab 0 of {cols // slab_cols} "
                 f"(columns 0-{slab_cols - 1}), as they lie in shared memory",
                 f"{slab_cols * size}-byte rows of {chunks} 16-byte chunks; label and colour:"
                 " the tile columns a chunk holds (XOR-swizzled by the row)"]
        for r in range(shown):
            # Each row's chunks stay in the row; the swizzle only moves them along it.
            assert all(placement[r, p][0] == r for p in range(chunks)), name
        path = os.path.join(out, f"{variant['name']}.{name}.smem.svg")
        with open(path, "w") as f:
            f.write(smem_svg(title, shown, chunks, per_chunk, placement))
        print(path)


def colour(thread, warp_size):
    """A warp's hue, lighter for higher lanes, so that threads stand apart."""
    warp, lane = divmod(thread, warp_size)
    return f"hsl({(warp * 67) % 360}, 60%, {38 + 44 * (lane % 8) // 7}%)"


def svg(title, shape, cells, warp_size, window=None, label_limit=2048):
    """The grid of a tile (2-D: rows x columns, or its top-left window) as SVG
    text; title: lines."""
    # A long 1-D tile is drawn ROW elements a row.
    if len(shape) == 1:
        rows, cols = -(-shape[0] // ROW), min(shape[0], ROW)
    else:
        rows, cols = shape[0], shape[1]
    if window:
        rows, cols = min(rows, window[0]), min(cols, window[1])
    labels = {}
    for r in range(rows):
        for c in range(cols):
            if len(shape) == 1 and r * cols + c >= shape[0]:
                continue
            key = (r * cols + c,) if len(shape) == 1 else (r, c) + (0,) * (len(shape) - 2)
            holders = cells.get(key, [])
            owner = next((x for x in holders if x[2]), holders[0] if holders else None)
            text = "?" if owner is None else f"T{owner[0]}:{owner[1]}" + (
                f" x{len(holders)}" if len(holders) > 1 else "")
            labels[r, c] = (owner, text)
    labelled = rows * cols <= label_limit
    longest = max(len(t) for _, t in labels.values())
    w, h = (6 * longest + 6, 16) if labelled else (8, 8)
    top, left = 22 + 16 * len(title), 34
    parts = picture_head(title, left + cols * w, top + rows * h)
    step = max(1, 8 * 4 // w) if not labelled else 1
    for c in range(0, cols, step):
        parts.append(f'<text x="{left + c * w}" y="{top - 6}" font-size="9">{c}</text>')
    for r in range(0, rows, -(-12 // h)):
        parts.append(f'<text x="4" y="{top + r * h + min(h, 12)}" font-size="9">{r}</text>')
    # One CSS class per colour keeps large pictures small.
    classes = {}
    cells_svg = []
    for (r, c), (owner, text) in labels.items():
        fill = "#ffffff" if owner is None else colour(owner[0], warp_size)
        name = classes.setdefault(fill, f"c{len(classes)}")
        cells_svg.append(f'<rect x="{left + c * w}" y="{top + r * h}" class="{name}"/>')
        if labelled:
            cells_svg.append(f'<text x="{left + c * w + 3}" y="{top + r * h + 11}">{text}</text>')
    style = " ".join(f".{name}{{fill:{fill}}}" for fill, name in classes.items())
    parts.append(f"<style>rect.{' ,rect.'.join(classes.values())}"
                 f"{{width:{w}px;height:{h}px;stroke:white;stroke-width:0.5px}} {style}</style>")
    parts.append('<g font-size="10">')
    parts += cells_svg
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="the kernel's metadata, as tilecc wrote it")
    ap.add_argument("out", help="directory for the SVG files")
    ap.add_argument("--variant", help="the variant's name (default: the first)")
    ap.add_argument("--tiles", help="comma-separated tile names (default: all)")
    ap.add_argument("--window", metavar="RxC",
                    help="draw only the top-left R rows and C columns (labelled)")
    ap.add_argument("--smem", action="store_true",
                    help="draw the shared-memory operand tiles and their swizzle instead")
    args = ap.parse_args()
    with open(args.json) as f:
        meta = json.load(f)
    variants = meta["variants"]
    variant = next((v for v in variants if v["name"] == args.variant), None) \
        if args.variant else variants[0]
    if variant is None:
        sys.exit(f"no variant {args.variant}; there are: "
                 + ", ".join(v["name"] for v in variants))
    if args.smem:
        draw_smem(meta, variant, args.json, args.out)
        return 0
    wanted = set(args.tiles.split(",")) if args.tiles else None
    tiles = [t for t in (parse_tile(x) for x in variant["tiles"]) if t]
    if wanted:
        missing = wanted - {t[0] for t in tiles}
        if missing:
            sys.exit(f"no tile {', '.join(sorted(missing))} in {variant['name']}")
        tiles = [t for t in tiles if t[0] in wanted]
    spellings = {l["name"]: l["spelling"] for l in meta["layouts"]}
    used = {layout: spellings[layout] for _, _, layout in tiles}
    target = meta.get("target", "")
    warp_size = 64 if target.startswith("gfx") else 32
    # The num_warps warps that compute; a producer warpgroup holds no tiles.
    table = owners(used, variant["num_warps"] * warp_size)
    os.makedirs(args.out, exist_ok=True)
    descriptions = {l["name"]: l["description"] for l in meta["layouts"]}
    window = None
    if args.window:
        m = re.fullmatch(r"([0-9]+)x([0-9]+)", args.window)
        if not m:
            sys.exit(f"--window takes RxC, not {args.window}")
        window = (int(m.group(1)), int(m.group(2)))
    for name, shape, layout in tiles:
        title = [f"{variant['name']}: {name} {shape}, layout {layout}",
                 descriptions[layout],
                 "colour: warp (lighter: higher lanes); label: thread:element"
                 " (x n: n threads hold copies; the label names the storing one)"]
        if window:
            title[0] += f", rows 0-{window[0] - 1} and columns 0-{window[1] - 1}"
        suffix = f".{args.window}" if window else ""
        path = os.path.join(args.out, f"{variant['name']}.{name}{suffix}.svg")
        with open(path, "w") as f:
            f.write(svg(title, shape, table[layout], warp_size, window))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
