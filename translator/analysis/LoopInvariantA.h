//===- LoopInvariantA.h - Dot operands ptxas may overwrite ------*- C++ -*-===//
//
// ptxas 13.0 (-O1 and up) gave the A fragments that one wgmma of a loop
// computes the registers of another wgmma's loop-invariant A fragments,
// so the next iteration read the wrong values (attention's P V packed P
// into the registers Q K^T reads as Q). An `if` in the loop was enough,
// and so was a `where` on a condition the same for every element; the
// loop without either was right (docs/decisions.md). On sm_90a such an A
// is read from shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LOOPINVARIANTA_H
#define TILECC_ANALYSIS_LOOPINVARIANTA_H

#include "ir/IR.h"

namespace tilecc::analysis {

/// Whether B holds, at any depth, an if, a while or a for, or a `where`
/// on tiles whose condition is the same for every element (ptxas may
/// branch on it).
bool choosesUniformly(const ir::Block &B);

/// Whether dot D's A operand is defined outside a for or while around D
/// whose body chooses uniformly.
bool invariantInChoosingLoop(const ir::Op &D);

} // namespace tilecc::analysis

#endif
