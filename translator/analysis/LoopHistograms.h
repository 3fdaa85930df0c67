//===- LoopHistograms.h - Histograms summed in shared memory ---*- C++ -*-===//
//
// A loop that carries counts += histogram(x) would clear its bins, wait
// for every thread, count, wait, read them back and wait again, every
// iteration, for a sum no iteration reads. Counting is adding, so the
// bins may as well live through the loop: cleared once before it, counted
// into by each iteration with no barrier, and added to the carried counts
// once after it.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LOOPHISTOGRAMS_H
#define TILECC_ANALYSIS_LOOPHISTOGRAMS_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc::analysis {

struct LoopHistograms {
  struct Summed {
    unsigned Index; // among the loop's carried values
    llvm::SmallVector<const ir::Op *, 1> Histograms;
  };
  /// Per for loop, its carried values that sum a histogram of each
  /// iteration.
  llvm::DenseMap<const ir::Op *, llvm::SmallVector<Summed, 1>> Carried;
};

/// The histograms of F that count into bins their for loop keeps: those
/// the loop's body adds, and only adds, to carried value c, the sum being
/// what it yields for c: c + histogram(x), or a chain of such adds (either
/// operand order), c and each partial sum having no other use and all
/// having one layout. One set of bins serves the whole chain. Loops for which
/// Skip holds (the pipelined ones, whose emission is another's) are left alone.
LoopHistograms loopHistograms(const ir::Function &F, const LayoutMap &LM,
                              llvm::function_ref<bool(const ir::Op &)> Skip);

} // namespace tilecc::analysis

#endif
