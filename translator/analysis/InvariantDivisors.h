//===- InvariantDivisors.h - Tiles divided by a kernel argument -*- C++ -*-===//
//
// `x % n_bins` on a 32-bit integer tile, in a loop, with n_bins a kernel
// argument: the GPU's `%` refines a reciprocal of n_bins and corrects each
// element's quotient, iteration after iteration, for a divisor that never
// changes. Made once at the kernel's start, a multiply-and-shift divisor
// (tile/detail/divisor.hpp) divides each element with a multiply-high, two
// adds and two shifts.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_INVARIANTDIVISORS_H
#define TILECC_ANALYSIS_INVARIANTDIVISORS_H

#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc::analysis {

struct InvariantDivisors {
  /// Per division (div, floordiv or rem), the argument it divides by.
  llvm::DenseMap<const ir::Op *, const ir::Value *> By;
  /// Those arguments, in parameter order, each once.
  llvm::SmallVector<const ir::Value *, 2> Arguments;
};

/// The divisions of F whose result is a tile of int32 or uint32, whose
/// divisor is a splat of a kernel argument of that type, and that lie in a
/// for or while loop. Divisions outside loops are left to `/` and `%`: a
/// divisor costs a 64-bit division to make, repaid only over many uses.
InvariantDivisors invariantDivisors(const ir::Function &F);

} // namespace tilecc::analysis

#endif
