//===- TensorMaps.h - Staged loads the TMA unit can copy --------*- C++ -*-===//
//
// On sm_90 a staged load can be one TMA box copy instead of a cp.async per
// thread and chunk, when its pointers and mask say "the box at (o0, o1) of
// a 2-D tensor, zeros outside it":
//   ptrs = base + (o0 + arange)[:, None] * s0 + (o1 + arange)[None, :] * s1
//   mask = (o0 + arange < b0)[:, None] && (o1 + arange < b1)[None, :]
// (each test may also ask `o + arange >= 0`, as descriptors' masks do: TMA
// reads zeros there too)
// with base a pointer parameter, one stride 1, the other stride and the
// bounds parameters or constants: the launch wrapper encodes the tensor map
// from those. A dimension the mask leaves out is read exactly: its box
// starts at a constant and the tensor ends with the box. A base of
//   param + batch * (b0 * s0)
// (b0 and s0 the outer dimension's bound and stride) is the 2-D tensor
// number `batch` of a stack of them, a third dimension of the tensor map:
// attention's heads. Whether a launch may use it (alignment) is the
// specialization's to say; tensorMapUsable checks it.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_TENSORMAPS_H
#define TILECC_ANALYSIS_TENSORMAPS_H

#include "analysis/Pipelining.h"
#include "ir/IR.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tilecc::analysis {

/// One dimension of a load's tile seen as a box of a tensor.
struct TensorMapAxis {
  /// Where the box starts: Offset (a scalar; null for 0) plus Start.
  const ir::Value *Offset = nullptr;
  int64_t Start = 0;
  /// Elements between neighbours along the axis (a scalar; null for 1).
  const ir::Value *Stride = nullptr;
  /// The tensor's extent along the axis, from the mask (a scalar); null
  /// for an axis the mask leaves out, whose box is [Start, Start + tile
  /// extent) and ends the tensor.
  const ir::Value *Bound = nullptr;
};

struct TensorMapAccess {
  const ir::Value *Base = nullptr; // a pointer parameter
  TensorMapAxis Axes[2];           // by tile dimension
  unsigned InnerDim = 1;           // the tile dimension with unit stride
  /// Which 2-D tensor of a stack (a 32-bit scalar), each the outer axis'
  /// extent (Bound, or the box's end) times its Stride elements after the
  /// last; null for one tensor.
  const ir::Value *Batch = nullptr;
  unsigned outerDim() const { return 1 - InnerDim; }
  /// The scalars the box's corner is computed from.
  llvm::SmallVector<const ir::Value *, 3> coordinates() const;
};

/// Load's (or a store's) tile as a box of a 2-D tensor or of a stack of
/// them, if its pointers and mask have the form above.
std::optional<TensorMapAccess> matchTensorMap(const ir::Op &Load);

/// Whether a TMA store can do what O does to a box it writes: O is a
/// store, or an atomic add whose old values nobody reads (Users), relaxed,
/// of 32-bit floats or integers (cp.reduce.async.bulk .add, which adds each
/// element atomically).
bool storableByTma(const ir::Op &O, const ir::UserMap &Users);

/// Whether O, one of a variant's TMA ops, writes its box (a store or an
/// atomic add) rather than loading it.
inline bool writesBox(const ir::Op &O) {
  return O.kind() == ir::OpKind::Store || O.kind() == ir::OpKind::AtomicAdd;
}

/// Whether launches with the facts Specs (one per parameter of F) can encode
/// A's tensor map: base and row stride 16-byte aligned, the inner stride 1,
/// constant bounds positive (parameter bounds the wrapper checks).
bool tensorMapUsable(const TensorMapAccess &A, const ir::Function &F,
                     llvm::ArrayRef<ir::ParamSpec> Specs);

/// The index of the parameter whose argument V is, if any.
std::optional<unsigned> paramIndex(const ir::Function &F, const ir::Value *V);

/// Staged loads and stores a variant does with TMA, in program order.
using TensorMapOps = llvm::MapVector<const ir::Op *, TensorMapAccess>;

/// The ops of pipelined loop P's body that compute where its TMA boxes
/// start: all its prefetch re-runs.
llvm::DenseSet<const ir::Op *> boxStartSlice(const PipelinedLoop &P,
                                             const TensorMapOps &Maps);

/// A TMA pipeline whose prefetches run on into the next iterations of the
/// loop around it (Triton's flattened loop nest): in a persistent kernel,
/// the next block's first stages load during this block's epilogue. The
/// inner loop's bounds must not change from one outer iteration to the
/// next, and the box starts may depend only on the two induction
/// variables, values from before the outer loop, and scalar ops of the
/// outer body (OuterSlice, in program order), which are re-run when the
/// prefetches move on to the next outer iteration; Carried are the values
/// of OuterSlice the box starts read.
struct FlattenedPipeline {
  const ir::Op *Outer = nullptr;
  llvm::SmallVector<const ir::Op *, 8> OuterSlice;
  llvm::SmallVector<const ir::Value *, 4> Carried;
};
std::optional<FlattenedPipeline> flattenPipeline(const ir::Op &Loop,
                                                 const PipelinedLoop &P,
                                                 const TensorMapOps &Maps);

} // namespace tilecc::analysis

#endif
