//===- Specializations.h - Which kernel variants to build -------*- C++ -*-===//
//
// Triton specializes a kernel on facts about its arguments that the launch
// checks cheaply: 16-byte-aligned pointers, integers divisible by 16, and
// integers equal to 1. Building every combination would multiply variants;
// tilecc builds, most specialized first:
//   unit       pointers aligned, stride-like integers (those multiplied into
//              a pointer offset) == 1, other integers divisible by 16 --
//              only for kernels that have stride-like integers;
//   aligned16  pointers aligned, integers divisible by 16;
//   generic    nothing assumed (always present).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_SPECIALIZATIONS_H
#define TILECC_ANALYSIS_SPECIALIZATIONS_H

#include "ir/IR.h"
#include <string>
#include <vector>

namespace tilecc::analysis {

struct Specialization {
  std::string Suffix;               // of the variant's name
  std::string Description;          // for comments
  std::vector<ir::ParamSpec> Specs; // one per parameter
  bool isGeneric() const { return Suffix == "generic"; }
};

std::vector<Specialization> specializations(const ir::Function &F);

} // namespace tilecc::analysis

#endif
