//===- CarriedScalars.h - Scalars a loop can compute ------------*- C++ -*-===//
//
// A loop may carry scalars that never change (a block pointer's base, shape
// and strides, carried whole when the loop advances the pointer) or that
// advance by a loop-invariant amount each iteration (its offsets, a
// kernel's own `k_off += BK`). Inside the loop the first are the value they
// enter with, the second a function of the induction variable,
//   init + (iv - lo) / step * amount
// (no division when the amount is the step), so the pipeliner can compute
// them for an iteration ahead as it does the induction variable's other
// uses. A carried slot then used neither inside the loop nor after it is
// removed.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_CARRIEDSCALARS_H
#define TILECC_TRANSFORMS_CARRIEDSCALARS_H

#include "ir/IR.h"

namespace tilecc::transforms {

/// Rewrites F's `for` loops as above. Returns how many carried values it
/// rewrote.
unsigned simplifyCarriedScalars(ir::Function &F);

} // namespace tilecc::transforms

#endif
