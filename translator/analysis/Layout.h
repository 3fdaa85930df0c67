//===- Layout.h - Distributed layouts of tiles ------------------*- C++ -*-===//
//
// A layout says which thread holds which element of a tile (Triton's
// encodings). Layouts are data: printable (tilecc --emit=layouts), named in
// comments of the generated code, and spelled there as tile::rt types
// (runtime-headers/tile/rt/layout.cuh) that compute the same mapping.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LAYOUT_H
#define TILECC_ANALYSIS_LAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace tilecc::analysis {

struct BlockedLayout {
  llvm::SmallVector<unsigned, 2> SizePerThread, ThreadsPerWarp, WarpsPerCTA;
  /// Dimensions, fastest-varying first.
  llvm::SmallVector<unsigned, 2> Order;
  /// How many times a warp's threads tile each dimension before the next
  /// warp's elements start; empty means 1 everywhere. Tensor-core
  /// accumulators are blocked layouts with a warp owning whole fragments.
  llvm::SmallVector<unsigned, 2> WarpReps;
  /// The order warps are numbered in, fastest first; empty means Order. A
  /// wgmma accumulator whose warps also split N numbers them M first, so
  /// that a warpgroup's four warps stack along M.
  llvm::SmallVector<unsigned, 2> WarpOrder;
  /// An AMD matrix-core accumulator (mfmaAccumulator): blocked like an mma
  /// one, but the instruction's own (rt::dot_mfma multiplies into it).
  bool Mfma = false;

  unsigned rank() const { return Order.size(); }
  unsigned warpReps(unsigned D) const {
    return WarpReps.empty() ? 1 : WarpReps[D];
  }
  /// Elements one warp covers along D.
  int64_t warpTile(unsigned D) const {
    return int64_t(SizePerThread[D]) * ThreadsPerWarp[D] * warpReps(D);
  }
  /// Along D, of a tile Size long: how many warps hold distinct elements,
  /// the others holding copies (tile::rt's detail::distinct_warps).
  int64_t distinctWarps(unsigned D, int64_t Size) const;
  bool operator==(const BlockedLayout &O) const {
    return SizePerThread == O.SizePerThread &&
           ThreadsPerWarp == O.ThreadsPerWarp && WarpsPerCTA == O.WarpsPerCTA &&
           Order == O.Order && WarpReps == O.WarpReps &&
           WarpOrder == O.WarpOrder && Mfma == O.Mfma;
  }
};

/// A blocked layout, or the slice of one along SliceDim.
struct Layout {
  BlockedLayout Parent;
  std::optional<unsigned> SliceDim;

  unsigned rank() const { return Parent.rank() - (SliceDim ? 1 : 0); }
  /// Slices whose parents differ only in how often a warp repeats along
  /// the removed dimension give every thread the same elements in the
  /// same order (a row vector of S and of the output in attention, whose
  /// column counts differ): they are equal.
  bool operator==(const Layout &O) const {
    if (SliceDim != O.SliceDim)
      return false;
    if (!SliceDim || Parent.WarpReps.empty() || O.Parent.WarpReps.empty())
      return Parent == O.Parent;
    BlockedLayout A = Parent, B = O.Parent;
    A.WarpReps[*SliceDim] = B.WarpReps[*SliceDim] = 1;
    return A == B;
  }
  bool operator!=(const Layout &O) const { return !(*this == O); }

  /// Whether this is an NVIDIA tensor-core accumulator's layout (warps own
  /// runs of mma tiles).
  bool isMmaAccumulator() const {
    return !Parent.WarpReps.empty() && !Parent.Mfma;
  }
  /// Whether this is the transpose of an NVIDIA tensor-core accumulator's
  /// layout (transposed): its dot multiplies C^T = B^T A^T.
  bool isTransposedMmaAccumulator() const {
    return isMmaAccumulator() && !SliceDim && Parent.rank() == 2 &&
           Parent.SizePerThread[0] == 2 && Parent.SizePerThread[1] == 1;
  }
  /// Whether this is an AMD matrix-core accumulator's layout.
  bool isMfmaAccumulator() const { return !SliceDim && Parent.Mfma; }
  /// Elements each thread holds of a tile of this shape.
  unsigned elemsPerThread(llvm::ArrayRef<int64_t> Shape) const;
  /// Whether threads hold copies of elements of a tile of this shape: the
  /// program's threads span more than the tile along some dimension and wrap
  /// (a slice's threads spread along its removed dimension all hold copies).
  bool replicates(llvm::ArrayRef<int64_t> Shape) const;
  /// The dimension whose elements a thread holds contiguously, and how many.
  unsigned fastestDim() const;
  unsigned contiguousRun(llvm::ArrayRef<int64_t> Shape) const;
  /// #blocked<spt=[4], tpw=[32], wpc=[4], order=[0]> or #slice<dim=1, ...>.
  std::string str() const;
};

/// Triton's default blocked layout for a tile: Vec contiguous elements per
/// thread along Order[0], threads then warps spread fastest dimension first.
BlockedLayout defaultBlocked(llvm::ArrayRef<int64_t> Shape, unsigned Vec,
                             unsigned NumWarps, unsigned WarpSize,
                             llvm::ArrayRef<unsigned> Order);

/// The accumulator layout of a tensor-core dot with result Shape (M x N):
/// mma fragments (16 x 8, rows g and g + 8, two columns per thread) with
/// each warp owning 16 consecutive rows and N / WarpsN consecutive columns.
/// MinWarpsM is 4 for wgmma (a warpgroup's four warps stack along M, and
/// warps that also split N are numbered M first).
/// Nothing when the shape cannot be split that way.
std::optional<BlockedLayout> mmaAccumulator(llvm::ArrayRef<int64_t> Shape,
                                            unsigned NumWarps,
                                            unsigned MinWarpsM);

/// The layout of the transpose of a 2-D tile in layout L that leaves every
/// element in the register it was in: L with its dimensions swapped
/// (tile::rt's transposed_t).
BlockedLayout transposed(const BlockedLayout &L);

/// The accumulator layout of an AMD matrix-core dot (wavefronts of 64)
/// with result Shape (M x N) on Tile x Tile instructions: at Tile = 32
/// (v_mfma_f32_32x32x8) each thread holds 4 consecutive rows in 4 runs 8
/// rows apart of one column (2 x 32 lanes), at Tile = 16
/// (v_mfma_f32_16x16x16) 4 consecutive rows of one column (4 x 16 lanes);
/// wavefronts split M first, then N, each repeating the tile over its
/// block. Nothing when the shape cannot be split that way.
std::optional<BlockedLayout> mfmaAccumulator(llvm::ArrayRef<int64_t> Shape,
                                             unsigned NumWarps,
                                             int64_t Tile = 32);

/// The layout in which the M x K A operand of a tensor-core dot with
/// accumulator layout Acc is held in registers as mma A fragments: Acc's,
/// K columns wide. Only when Acc's warps all stack along M, so that each
/// warp holds whole rows of A.
std::optional<BlockedLayout> mmaOperandA(const BlockedLayout &Acc, int64_t K);

/// Whether a tile in layout A, of ElemBytes-byte elements, holds the A
/// fragments of a dot accumulating in layout Acc (mmaOperandA's layout).
/// 16-bit ones are the fragments; 8-bit ones become them by an exchange
/// among each row's four threads (rt::fragment_operand). A 32-bit A
/// fragment holds k and k + 4 where a thread has columns k and k + 1: such
/// a tile is staged.
bool holdsOperandA(const Layout &A, const Layout &Acc, int64_t K,
                   unsigned ElemBytes);

/// The shape of the parent tile of a sliced layout (size 1 along SliceDim).
llvm::SmallVector<int64_t, 4> parentShape(const Layout &L,
                                          llvm::ArrayRef<int64_t> Shape);

} // namespace tilecc::analysis

#endif
