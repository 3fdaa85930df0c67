//===- BranchingLoops.h - A read across loops that branch -------*- C++ -*-===//
//
// ptxas 13.0 (-O1 and up) may give the A fragments that one wgmma of a
// loop computes the registers of another wgmma's A fragments that are
// loop-invariant, when the loop's body branches: the next iteration then
// reads the wrong values (attention's P V packed P into the registers Q
// K^T reads as Q; docs/decisions.md). A dot whose A is read unchanged by
// every iteration of such a loop therefore has wgmma read A from shared
// memory.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_BRANCHINGLOOPS_H
#define TILECC_ANALYSIS_BRANCHINGLOOPS_H

#include "ir/IR.h"

namespace tilecc::analysis {

/// Whether B holds an if, a while or a for, at any depth.
bool branches(const ir::Block &B);

/// Whether dot D's A operand is defined outside a for or while around D
/// whose body branches.
bool readAcrossBranchingLoop(const ir::Op &D);

} // namespace tilecc::analysis

#endif
