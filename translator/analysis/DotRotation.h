//===- DotRotation.h - Loops whose last dot is issued an iteration late -*-===//
//
// FlashAttention-3's overlap within a warpgroup, as a loop rotation: in a
// loop a producer warpgroup feeds, whose body multiplies twice (S = Q K^T,
// then O += P V with P computed from S), the second product of iteration j
// is issued in iteration j + 1, right after the first product of j + 1 and
// before the iteration waits for it. The tensor cores then compute
// P(j) V(j) while the warpgroup computes the softmax of S(j + 1).
//
// The rotated part is the accumulating dot (Late) and the element-wise ops
// between the loop's carried accumulator and Late's (the rescaling
// O * alpha): they must read the accumulator only along that chain and
// nothing else may read what they compute, so they can run in place on the
// accumulator one iteration behind the rest. The values of iteration j
// they read (P, alpha) are kept across the back edge. The loads only Late
// reads (V) get a second ring of full and empty barriers, so that the
// producer can refill K's stage as soon as S is computed while V's stays
// held until the late product retires.
//
// Both dots must run on the same kind of tensor-core instruction (16- or
// 8-bit float operands, fp32 accumulators, the same warps along M), since the
// iteration waits for the first while the second stays in flight.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_DOTROTATION_H
#define TILECC_ANALYSIS_DOTROTATION_H

#include "analysis/Pipelining.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace tilecc::analysis {

struct RotatedLoop {
  /// The dot whose product the iteration waits for, and the accumulating
  /// dot issued one iteration late.
  const ir::Op *Early = nullptr, *Late = nullptr;
  /// The element-wise ops from the carried accumulator to Late's
  /// accumulator operand, in program order.
  llvm::SmallVector<const ir::Op *, 2> Chain;
  /// Which of the loop's carried values Late accumulates.
  unsigned Accumulator = 0;
  /// Positions in PipelinedLoop::Loads of the loads only Late reads.
  llvm::SmallVector<unsigned, 2> LateLoads;

  bool rotates(const ir::Op &O) const {
    return &O == Late || llvm::is_contained(Chain, &O);
  }
};

/// The rotations of the loops a producer warpgroup feeds (Fed, with their
/// Plans). Their stages are one ring, so the loops rotate only if all of
/// them can and their late loads sit at the same positions; otherwise none
/// does.
///
/// A rotated loop holds more at once: both products in flight and Late's
/// register operand twice (the one in flight, the next being computed).
/// With RegistersPerThread for the consumers, a loop whose tiles would
/// leave fewer than 32 for everything else is not rotated (ptxas would
/// spill and serialize its wgmmas: slower than no rotation, two programs
/// of 8 + 4 warps per SM at head_dim 64); WhyNot then says so.
llvm::DenseMap<const ir::Op *, RotatedLoop>
planRotations(llvm::ArrayRef<const ir::Op *> Fed,
              const llvm::DenseMap<const ir::Op *, PipelinedLoop> &Plans,
              const LayoutMap &LM, unsigned RegistersPerThread,
              std::string &WhyNot);

} // namespace tilecc::analysis

#endif
