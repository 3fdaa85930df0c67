//===- FormatCode.h - clang-format for generated sources --------*- C++ -*-===//
#ifndef TILECC_CODEGEN_FORMATCODE_H
#define TILECC_CODEGEN_FORMATCODE_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace tilecc::codegen {

/// Formats generated C++/CUDA/HIP in LLVM style, as the project's own code
/// is: the result of formatCodeWithClangFormat, reached by formatting only
/// the statements the printers do not leave formatted.
std::string formatCode(const std::string &Code, const std::string &FileName);

/// Marks code whose layout the printers do not control (a rule's body as
/// Clang prints it), so that formatCode formats it. The mark, a form feed
/// first on each line, is whitespace to C++ and to clang-format.
std::string markForFormatting(llvm::StringRef Code);

/// Formats all of Code with clang-format; returns Code unchanged if
/// clang-format cannot parse it.
std::string formatCodeWithClangFormat(const std::string &Code,
                                      const std::string &FileName);

} // namespace tilecc::codegen

#endif
