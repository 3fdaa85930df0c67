//===- GlobalMemoryOrder.h - Barriers that keep program order ---*- C++ -*-===//
//
// A program's statements happen in order (as in emulation), but its threads
// run at their own pace: where one thread reads an element of global memory
// that another writes, or writes one another wrote, the later access can
// overtake the earlier (a scalar read by every thread, then the same
// element stored by its owner; a tile loaded in one layout and stored in
// another). This pass puts a barrier among the program's threads before
// such an access, unless a barrier already separates the two.
//
// Two accesses through the same pointer expression in the same layout,
// with no thread holding copies, touch each element from one thread, which
// keeps its own order; across iterations of a loop that holds only when the
// addresses stay the same or move past the whole tile each iteration. Two
// atomics need no order, and two loads none. Distinct pointer parameters
// are taken not to overlap (as `__restrict__` says); a pointer read from
// memory may point anywhere.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_GLOBALMEMORYORDER_H
#define TILECC_TRANSFORMS_GLOBALMEMORYORDER_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"

namespace tilecc::transforms {

/// Inserts debug_barrier ops (their message says which accesses they order)
/// where F's threads could otherwise reorder two accesses to the same global
/// memory. Returns how many it inserted.
unsigned orderGlobalAccesses(ir::Function &F, const analysis::LayoutMap &LM);

} // namespace tilecc::transforms

#endif
