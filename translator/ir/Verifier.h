//===- Verifier.h - Structural checks on TileIR -----------------*- C++ -*-===//
#ifndef TILECC_IR_VERIFIER_H
#define TILECC_IR_VERIFIER_H

#include "ir/IR.h"
#include <string>
#include <vector>

namespace tilecc::ir {

struct VerifierError {
  SourceLoc Loc;
  std::string Message;
};

/// Checks the invariants passes rely on (operand shapes of elementwise ops,
/// load/store operand shapes, yields matching their parent's results).
/// An error here is a translator bug, reported as an internal error.
std::vector<VerifierError> verify(const Function &F);

} // namespace tilecc::ir

#endif
