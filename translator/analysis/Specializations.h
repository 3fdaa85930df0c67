//===- Specializations.h - Which kernel variants to build -------*- C++ -*-===//
//
// Triton specializes a kernel on facts about its arguments that the launch
// checks cheaply: 16-byte-aligned pointers, integers divisible by 16, and
// integers equal to 1. Building every combination would multiply variants;
// tilecc builds, most specialized first:
//   unit       pointers aligned, stride-like integers (those multiplied into
//              a pointer offset) == 1, other integers as in aligned16 --
//              only for kernels that have stride-like integers;
//   aligned16  pointers aligned, integers divisible by the least of 2, 4, 8
//              and 16 that gives their accesses what 16 would (the vector
//              width, the layout, whether TMA may copy a box), no divisor
//              for an integer whose divisibility changes no access;
//   generic    nothing assumed (always present).
// One set for all of a kernel's configurations: its launch wrapper checks
// the arguments once, whichever configuration runs.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_SPECIALIZATIONS_H
#define TILECC_ANALYSIS_SPECIALIZATIONS_H

#include "ir/IR.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace tilecc::analysis {

struct Specialization {
  std::string Suffix;               // of the variant's name
  std::string Description;          // for comments
  std::vector<ir::ParamSpec> Specs; // one per parameter
  /// The tile::assumption its launches satisfy.
  ir::Assumption Assumes = ir::Assumption::None;
  bool isGeneric() const { return Assumes == ir::Assumption::None; }
};

/// The variants of a kernel whose configurations are Instances (one
/// parameter list), each run by Threads[i] threads per program.
std::vector<Specialization>
specializations(llvm::ArrayRef<const ir::Function *> Instances,
                llvm::ArrayRef<unsigned> Threads);

} // namespace tilecc::analysis

#endif
