// Histogram of non-negative int32 values into n_bins bins (value % n_bins),
// as torch.bincount(x % n_bins, minlength=n_bins): each program loads BLOCK
// values and adds one to each value's bin with an atomic add. Few bins means
// many programs adding to the same words (contention); many bins spreads the
// adds out.
#include <tile/tile.hpp>

/// Adds the counts of x's n values to bins_out, which must be zero before
/// the launch (the kernel only adds). Values must be non-negative: a
/// negative value's remainder is a negative bin. The adds are relaxed: only
/// the final counts matter, and the kernel's end orders them before any
/// later reader.
template <int BLOCK>
TILE_KERNEL void histogram(const int *x, int *bins_out, int n, int n_bins) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto bin = tile::load(x + offs, mask, 0) % n_bins;
  tile::atomic_add(bins_out + bin, 1, mask, tile::mem_order::relaxed);
}

// 4 to 16 values per thread: one to four 16-byte loads each.
TILE_CONFIGS(histogram, tile::config{.meta = {256}, .num_warps = 2},
             tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {4096}, .num_warps = 8});

template <int BLOCK>
TILE_GRID(histogram)
tile::grid histogram_grid(const int *, int *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}
