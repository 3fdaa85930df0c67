//===- Printer.h - Textual TileIR (tilecc --emit=ir) ------------*- C++ -*-===//
#ifndef TILECC_IR_PRINTER_H
#define TILECC_IR_PRINTER_H

#include "ir/IR.h"
#include "llvm/Support/raw_ostream.h"

namespace tilecc::ir {

/// Prints F; Annotate, when given, appends text after each op's type (the
/// layout dump uses it to name each result's layout).
void print(const Function &F, llvm::raw_ostream &OS,
           llvm::function_ref<std::string(const Value &)> Annotate = nullptr);

/// "%3" or "%3 /*offs*/"-free spelling used in diagnostics and dumps.
std::string valueRef(const Value &V);

} // namespace tilecc::ir

#endif
