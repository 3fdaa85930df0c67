//===- MfmaStagedAhead.h - MFMA operands staged ahead ----------*- C++ -*-===//
//
// On gfx90a a dot stages its operands in shared memory, waits for every
// thread, multiplies from there and waits again before the buffer can be
// reused. In a loop that carries both operands (the registers
// transforms/RegisterPrefetch fills an iteration ahead), the next
// iteration's operands are known when the iteration yields them, so they
// can be staged then, into the second of two buffers: each iteration
// multiplies from one buffer while the other is written, with one barrier
// an iteration instead of two, and the shared-memory stores leave the
// dot's path (Triton's AMD stream pipeliner stages through shared memory
// the same way).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_MFMASTAGEDAHEAD_H
#define TILECC_ANALYSIS_MFMASTAGEDAHEAD_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc::analysis {

/// Per for loop, its dots on matrix cores (MFMA accumulators) whose a and
/// b are both values the loop carries, in program order.
using MfmaStagedAhead =
    llvm::DenseMap<const ir::Op *, llvm::SmallVector<const ir::Op *, 1>>;

/// The dots of F to stage an iteration ahead, as above: those directly in
/// a for loop's body. Loops for which Skip holds (the pipelined ones,
/// whose emission is another's) are left alone.
MfmaStagedAhead mfmaStagedAhead(const ir::Function &F, const LayoutMap &LM,
                                llvm::function_ref<bool(const ir::Op &)> Skip);

} // namespace tilecc::analysis

#endif
