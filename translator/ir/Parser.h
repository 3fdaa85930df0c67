//===- Parser.h - Textual TileIR back to a Function -------------*- C++ -*-===//
//
// Reads what ir::print writes (one function), so that a pass can be tested
// alone, MLIR style: `tilecc f.tir --passes=...` parses the input, runs the
// passes and prints the result for FileCheck. Value numbers are the input's
// labels only; the parsed function numbers its values afresh. Layout
// annotations (--emit=layouts) are not read.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_IR_PARSER_H
#define TILECC_IR_PARSER_H

#include "ir/IR.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace tilecc::ir {

/// A parse error: where (1-based line of Text; the column is the line's
/// first) and what.
struct ParseError {
  unsigned Line = 0, Col = 0;
  std::string Message;
};

/// Parses a type as Type::str() prints it: i32, ptr<const f16>,
/// tensor<f32, [64, 64]>.
std::optional<Type> parseType(llvm::StringRef S);

/// Parses one function; null with Error set when Text is not one.
std::unique_ptr<Function> parseFunction(llvm::StringRef Text,
                                        ParseError &Error);

} // namespace tilecc::ir

#endif
