//===- TypeRules.cpp ------------------------------------------------------===//
#include "ir/TypeRules.h"

namespace tilecc::ir {

namespace {

/// bool < unsigned < signed < floating, as Triton orders scalar kinds.
int kindRank(ScalarKind K) {
  if (K == ScalarKind::I1)
    return 0;
  if (isFloat(K))
    return 3;
  return isSigned(K) ? 2 : 1;
}

} // namespace

ScalarKind promote(ScalarKind A, ScalarKind B) {
  auto Either = [&](ScalarKind K) { return A == K || B == K; };
  if (Either(ScalarKind::F64))
    return ScalarKind::F64;
  if (Either(ScalarKind::F32))
    return ScalarKind::F32;
  if (Either(ScalarKind::F16))
    return ScalarKind::F16;
  if (Either(ScalarKind::BF16))
    return A == B ? ScalarKind::BF16 : ScalarKind::F32;
  if (A == ScalarKind::I1)
    return B;
  if (B == ScalarKind::I1)
    return A;
  unsigned WA = bitWidth(A), WB = bitWidth(B);
  if (isSigned(A) == isSigned(B))
    return WA >= WB ? A : B;
  ScalarKind U = isSigned(A) ? B : A, S = isSigned(A) ? A : B;
  if (bitWidth(U) >= bitWidth(S))
    return integerOfWidth(bitWidth(U), /*Signed=*/false);
  return integerOfWidth(bitWidth(S), /*Signed=*/true);
}

ScalarKind promoteWithScalar(ScalarKind TensorElem, ScalarKind Scalar) {
  // A 64-bit integer scalar is strong with an integer tensor: its program
  // asked for 64 bits.
  if ((Scalar == ScalarKind::I64 || Scalar == ScalarKind::U64) &&
      isInteger(TensorElem))
    return promote(TensorElem, Scalar);
  if (kindRank(Scalar) <= kindRank(TensorElem))
    return TensorElem;
  // A floating scalar with an integer tensor computes in fp32, as a Python
  // float does in Triton.
  if (isFloat(Scalar) && !isFloat(TensorElem))
    return ScalarKind::F32;
  return promote(TensorElem, Scalar);
}

} // namespace tilecc::ir
