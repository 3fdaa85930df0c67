//===- LayoutAssignment.h - Choose a layout for every tile ------*- C++ -*-===//
//
// Anchors: per rank, a blocked layout chosen from the memory accesses of that
// rank (contiguous dimension fastest, 16 bytes per thread along it where
// axis info shows contiguity). Every other tile takes the layout its users
// want (elementwise ops: their result's; expand_dims: a slice of its
// result's), so 1-D index vectors that are expanded into 2-D offsets live
// directly in slice layouts. Where users disagree, a convert_layout op is
// inserted before the user that lost.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LAYOUTASSIGNMENT_H
#define TILECC_ANALYSIS_LAYOUTASSIGNMENT_H

#include "analysis/AxisInfo.h"
#include "analysis/Layout.h"
#include "ir/IR.h"
#include "ir/Target.h"
#include "llvm/ADT/DenseMap.h"

namespace tilecc::analysis {

/// The accumulator layout of dot op O if it runs on the target's tensor
/// cores: fp16 or bf16 operands accumulated in fp32, fp32 ones at tf32
/// precision, 8-bit integers accumulated in int32, or 8-bit floats in
/// fp32; K a multiple of one instruction's (32 bytes of operand), and a
/// result shape that mma fragments tile (mmaAccumulator's layout). A dot whose
/// 16- or 8-bit A operand is computed (ir::computedOperandA) stacks all warps
/// along M where the shape allows, so that A can stay in registers. On AMD
/// matrix cores: fp16 or bf16 into fp32, int8 into int32, K a multiple of 8
/// (mfmaAccumulator's layout).
std::optional<BlockedLayout>
tensorCoreLayout(const ir::Op &O, unsigned NumWarps, const TargetDesc &Target);

class LayoutMap {
public:
  const Layout &get(const ir::Value *V) const;
  bool has(const ir::Value *V) const { return Layouts.count(V); }
  void set(const ir::Value *V, Layout L) { Layouts[V] = std::move(L); }

private:
  llvm::DenseMap<const ir::Value *, Layout> Layouts;
};

/// Assigns layouts to every tile value of F, inserting convert_layout ops
/// where needed. AI is the axis info of the variant the layouts are made
/// for; Assumptionless, where given, that of the variant assuming nothing
/// of the arguments (whose contiguity holds in every variant).
LayoutMap assignLayouts(ir::Function &F, const AxisInfoAnalysis &AI,
                        unsigned NumWarps, const TargetDesc &Target,
                        const AxisInfoAnalysis *Assumptionless = nullptr);

} // namespace tilecc::analysis

#endif
