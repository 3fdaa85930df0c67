//===- FormatCode.h - clang-format for generated sources --------*- C++ -*-===//
#ifndef TILECC_CODEGEN_FORMATCODE_H
#define TILECC_CODEGEN_FORMATCODE_H

#include <string>

namespace tilecc::codegen {

/// Formats generated C++/CUDA/HIP in LLVM style, as the project's own code
/// is; returns Code unchanged if clang-format cannot parse it.
std::string formatCode(const std::string &Code, const std::string &FileName);

} // namespace tilecc::codegen

#endif
