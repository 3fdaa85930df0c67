//===- PriorGridWait.h - Where a dependent launch waits ---------*- C++ -*-===//
//
// A kernel launched as a programmatic dependent launch (launch_pdl) may
// start while the kernel before it in the stream is still writing what it
// reads. tile::gdc_wait() says where it stops for those writes; a kernel
// that says nothing waits before its first statement, so that the launch
// is never wrong, only early.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_PRIORGRIDWAIT_H
#define TILECC_TRANSFORMS_PRIORGRIDWAIT_H

#include "ir/IR.h"

namespace tilecc::transforms {

/// Whether F waits for the prior grid anywhere (a gdc_wait op).
bool waitsForPriorGrid(const ir::Function &F);

/// Makes F's first op a gdc_wait where F has none (at the location of its
/// first statement). Returns whether it added one.
bool waitForPriorGridAtEntry(ir::Function &F);

} // namespace tilecc::transforms

#endif
