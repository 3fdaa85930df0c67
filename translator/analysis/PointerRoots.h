//===- PointerRoots.h - Which parameter's memory an address is in -*- C++
//-*-===//
//
// An address is computed from a pointer parameter by offsets (addptr),
// broadcasts and layout changes; loops carry it from where it starts. Two
// accesses of different parameters' memory are taken not to overlap (as
// `__restrict__` says), so the passes that order or reorder accesses ask
// here whether two may; a pointer read from memory may point anywhere.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_POINTERROOTS_H
#define TILECC_ANALYSIS_POINTERROOTS_H

#include "ir/IR.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tilecc::analysis {

/// Whether O gives each element its operand's value (or broadcasts it):
/// splat, broadcast, expand_dims, convert_layout, the hints, and integer
/// casts that widen.
bool keepsValues(const ir::Op &O);

/// The pointer parameters an address is computed from: none for the null
/// pointer, two for a choice between two; nothing where it is not known.
using RootSet = std::optional<llvm::SmallVector<const ir::Value *, 2>>;

class PointerRoots {
public:
  explicit PointerRoots(const ir::Function &F) : F(F) {}

  RootSet of(const ir::Value *Address);

  /// Whether two addresses may point into the same memory.
  bool mayOverlap(const ir::Value *A, const ir::Value *B);

  /// Whether an op in B, at any depth, writes memory Address may point
  /// into (a store or an atomic).
  bool writtenIn(const ir::Block &B, const ir::Value *Address);

private:
  RootSet find(const ir::Value *P, unsigned Depth);

  const ir::Function &F;
  llvm::SmallVector<const ir::Value *, 2> Carried;
};

} // namespace tilecc::analysis

#endif
