// Histogram of non-negative int32 values into n_bins bins (value % n_bins),
// as torch.bincount(x % n_bins, minlength=n_bins).
//
// Up to BINS bins, a program counts block after block into shared memory
// with tile::histogram (tl.histogram), sums the counts in registers, and
// adds them to bins_out once at the end: global memory sees one atomic per
// bin and program rather than one per value, which for few bins would all
// contend for the same words. More bins than any configuration's BINS
// (BINS = 0) take one global atomic per value, where many bins spread them.
#include <tile/tile.hpp>

/// Adds the counts of x's n values to bins_out, which must be zero before
/// the launch (the kernel only adds). Values must be non-negative: a
/// negative value's remainder is a negative bin. The adds are relaxed: only
/// the final counts matter, and the kernel's end orders them before any
/// later reader.
template <int BLOCK, int BINS>
TILE_KERNEL void histogram(const int *x, int *bins_out, int n, int n_bins) {
  if constexpr (BINS == 0) {
    auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
    auto mask = offs < n;
    auto bin = tile::load(x + offs, mask, 0) % n_bins;
    tile::atomic_add(bins_out + bin, 1, mask, tile::mem_order::relaxed);
  } else {
    auto counts = tile::zeros<int, BINS>();
    // Blocks by index, so that no offset past n + BLOCK is formed.
    for (int b = tile::program_id(0); b < tile::cdiv(n, BLOCK);
         b += tile::num_programs(0)) {
      auto offs = b * BLOCK + tile::arange<BLOCK>();
      auto mask = offs < n;
      counts +=
          tile::histogram<BINS>(tile::load(x + offs, mask, 0) % n_bins, mask);
    }
    auto bins = tile::arange<BINS>();
    tile::atomic_add(bins_out + bins, counts, bins < n_bins,
                     tile::mem_order::relaxed);
  }
}

// The wrapper takes the first configuration that applies (histogram_fits):
// shared-memory counts for up to 256 and up to 1024 bins, in programs of
// 32 warps (on an H200 at 256 bins: 0.075-0.080 ms, where 16 warps take
// 0.088-0.092 and 8 warps 0.11; docs/benchmarks-history.md), one global atomic
// per value beyond, 4 to 16 values per thread.
TILE_CONFIGS(histogram, tile::config{.meta = {8192, 256}, .num_warps = 32},
             tile::config{.meta = {8192, 1024}, .num_warps = 32},
             tile::config{.meta = {1024, 0}, .num_warps = 4},
             tile::config{.meta = {256, 0}, .num_warps = 2},
             tile::config{.meta = {4096, 0}, .num_warps = 8});

template <int BLOCK, int BINS>
TILE_SELECT(histogram)
bool histogram_fits(const int *, int *, int, int n_bins) {
  return BINS == 0 || n_bins <= BINS;
}

// Tuning zeroes the bins before each trial: the kernel adds to them.
TILE_TUNE(histogram)
tile::tuning histogram_tuning(const int *, int *bins_out, int n, int n_bins) {
  return {.key = {n, n_bins},
          .reset_to_zero = {tile::elements(bins_out, n_bins)}};
}

// Shared-memory counting: as many programs as run at once (each loops over
// blocks); global atomics: a program per block.
template <int BLOCK, int BINS>
TILE_GRID(histogram)
tile::grid histogram_grid(const int *, int *, int n, int) {
  if (BINS == 0)
    return {tile::cdiv(n, BLOCK)};
  return {std::min(tile::cdiv(n, BLOCK),
                   tile::num_sms() * tile::programs_per_sm())};
}
