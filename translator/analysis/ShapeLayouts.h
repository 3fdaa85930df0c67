//===- ShapeLayouts.h - Layouts under which shape ops move no data -*- C++ -*-//
//
// A shape op (reshape, permute, join, split, cat) can leave every element
// in the register of the thread that holds it and only relabel it: its
// operand's layout is then a function of its result's. These functions say
// which operand layout does that; layout assignment asks its users' operands
// for it, and the emitter relabels where the operand has it and goes
// through shared memory where it does not (flip always does).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_SHAPELAYOUTS_H
#define TILECC_ANALYSIS_SHAPELAYOUTS_H

#include "analysis/Layout.h"
#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilecc::analysis {

/// Whether O is a shape op that relabels or moves its operands' elements
/// (not expand_dims, broadcast or trans, which have their own rules).
bool isRearrangement(ir::OpKind K);

/// The layout O's operands need for O to relabel registers when its result
/// is in layout Result; nothing when no operand layout does.
std::optional<Layout> relabeledOperand(const ir::Op &O, const Layout &Result);

/// The result layout O takes when its users want Wanted: Wanted where O can
/// relabel from it, else one made from the anchor (of each rank) that it
/// can relabel from, else Wanted (O then moves its elements).
Layout fittedResult(const ir::Op &O, const Layout &Wanted,
                    llvm::function_ref<Layout(unsigned Rank)> Anchor);

/// Whether O, with the layouts LM assigned, relabels registers rather than
/// moving elements through shared memory.
bool relabels(const ir::Op &O, const LayoutMap &LM);

/// Whether sort O runs in registers and warp shuffles (rt::sort_in_warp):
/// its operand's layout keeps each line along the sort axis in one warp
/// with no copies along it, and its result's differs from it only in its
/// extent along the axis.
bool sortsInWarp(const ir::Op &O, const LayoutMap &LM);

/// Whether shape op O passes its elements through the scratch buffer (a
/// rearrangement that does not relabel, a sort that does not run in a
/// warp, a gather).
bool movesThroughSharedMemory(const ir::Op &O, const LayoutMap &LM);

} // namespace tilecc::analysis

#endif
