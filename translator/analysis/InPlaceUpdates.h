//===- InPlaceUpdates.h - Arguments a launch changes as it reads -*- C++
//-*-===//
//
// A kernel that reads memory it writes (an accumulating output, a gradient
// written over its logits) or updates it with atomics (locks, counters,
// split-K sums) leaves its arguments changed by each launch: the autotuner,
// which launches it many times, must reset or restore them (tile::tuning),
// or not tune it.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_INPLACEUPDATES_H
#define TILECC_ANALYSIS_INPLACEUPDATES_H

#include "ir/IR.h"
#include <string>
#include <vector>

namespace tilecc::analysis {

/// The wrapper's names of the parameters whose memory F updates with
/// atomics or both reads and writes, in parameter order; "memory a pointer
/// read from memory points to" last where F writes through one.
std::vector<std::string> inPlaceUpdates(const ir::Function &F);

} // namespace tilecc::analysis

#endif
