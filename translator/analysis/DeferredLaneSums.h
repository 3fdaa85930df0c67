//===- DeferredLaneSums.h - Row sums a loop combines once -------*- C++ -*-===//
//
// A loop that carries a running sum of a reduction, l = l * a + sum(p)
// with a the same along the reduced lanes (attention's row sums), adds up
// across lanes every iteration only to scale the total and add again.
// Scaling by a lane-uniform factor distributes over the lanes' partial
// sums, so each lane may keep its own partial sum through the loop and
// the lanes combine once after it, as FlashAttention keeps its row sums.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_DEFERREDLANESUMS_H
#define TILECC_ANALYSIS_DEFERREDLANESUMS_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc::analysis {

struct DeferredLaneSums {
  /// Sums that combine only the elements each thread holds.
  llvm::SmallPtrSet<const ir::Op *, 4> Reduces;
  /// A carried value held as per-lane partial sums: one lane of each group
  /// keeps the initial value and the others start from 0, and the lanes
  /// combine after the loop as Sum would have.
  struct PartialSum {
    unsigned Index; // among the loop's carried values
    const ir::Op *Sum;
    /// False where the initial value is an earlier loop's partial sums,
    /// handed over as they are (that loop does not combine them).
    bool Split = true;
    bool Combine = true;
  };
  /// Per for loop, its carried values held as partial sums.
  llvm::DenseMap<const ir::Op *, llvm::SmallVector<PartialSum, 1>> Carried;
};

/// The loop-carried sums of F whose lanes may combine after their loop: a
/// for loop's carried l whose only use in the body is l + sum(p) or
/// l * a + sum(p) (in either order), that being what the body yields for
/// it, where sum(p) reduces along a dimension whose elements only the lanes
/// of one warp share and l, a and the sum have one layout (a slice: the
/// same value in every lane the sum combines). A loop whose carried sum
/// only starts the next loop's, summed alike, hands its partial sums over.
DeferredLaneSums deferredLaneSums(const ir::Function &F, const LayoutMap &LM);

} // namespace tilecc::analysis

#endif
