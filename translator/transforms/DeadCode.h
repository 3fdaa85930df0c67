//===- DeadCode.h - Erase ops whose results nobody uses --------*- C++ -*-===//
//
// A kernel's source may compute tiles it never uses: a pointer tile that a
// constant `if` then replaces, a helper's result the caller ignores.
// Emitted, they would be dead arrays that nvcc warns about and registers
// the kernel does not need; erased, analyses see only what the kernel
// does.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_DEADCODE_H
#define TILECC_TRANSFORMS_DEADCODE_H

#include "ir/IR.h"

namespace tilecc::transforms {

/// Erases the pure ops (ir::isPure) of F whose results have no users,
/// including those whose only users were erased. Returns how many.
unsigned eraseDeadCode(ir::Function &F);

} // namespace tilecc::transforms

#endif
