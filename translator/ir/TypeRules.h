//===- TypeRules.h - Triton's dtype promotion -------------------*- C++ -*-===//
//
// The translator takes result types of tile operations from the calls Clang
// resolved against tile/tile.hpp (whose tile::promote_t is the rule). It needs
// the rule itself only where the header does not expose it: the type both
// operands of a comparison are converted to. A unit test checks this table
// against the header's trait for every pair of element types.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_IR_TYPERULES_H
#define TILECC_IR_TYPERULES_H

#include "ir/Type.h"

namespace tilecc::ir {

/// Triton's computation_type_impl for two tensors (inventory §2.2, steps 1-6).
ScalarKind promote(ScalarKind A, ScalarKind B);

/// A C++ scalar combined with a tensor: the scalar takes part only if its
/// kind (bool < unsigned < signed < float) is above the tensor's, or if it
/// is a 64-bit integer and the tensor's elements are integers.
ScalarKind promoteWithScalar(ScalarKind TensorElem, ScalarKind Scalar);

} // namespace tilecc::ir

#endif
