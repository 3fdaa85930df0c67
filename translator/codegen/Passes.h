//===- Passes.h - Passes by name, to test one at a time --------*- C++ -*-===//
//
// `tilecc f.tir --passes=dead-code,layouts` parses TileIR (ir/Parser.h),
// runs the named passes in order and prints the result, so that a lit test
// can give one pass an input and FileCheck its output (tests/passes/).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_PASSES_H
#define TILECC_CODEGEN_PASSES_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "ir/Target.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace tilecc::codegen {

struct PassOptions {
  TargetDesc Target;
  unsigned NumWarps = 4;
};

/// Runs the named passes over F in order and returns F printed: with each
/// tile's layout and axis info once `layouts` has run, with axis info once
/// `axis-info` has. Nothing, with Error set, for an unknown pass or IR the
/// verifier rejects.
std::optional<std::string> runPasses(ir::Function &F,
                                     llvm::ArrayRef<std::string> Names,
                                     const PassOptions &Opts,
                                     std::string &Error);

/// The passes runPasses knows, one per line with what each does.
std::string describePasses();

/// F printed with each tile's layout (LM) and axis info (for launches with
/// the facts Specs): --emit=layouts.
void printWithLayouts(const ir::Function &F, const analysis::LayoutMap &LM,
                      llvm::ArrayRef<ir::ParamSpec> Specs,
                      llvm::raw_ostream &OS);

} // namespace tilecc::codegen

#endif
