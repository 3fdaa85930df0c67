//===- FormatCode.h - clang-format for generated sources --------*- C++ -*-===//
#ifndef TILECC_CODEGEN_FORMATCODE_H
#define TILECC_CODEGEN_FORMATCODE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <mutex>
#include <optional>
#include <string>

namespace tilecc::codegen {

/// Statement groups formatted so far, by shape (see FormatCode.cpp), for
/// the files of one run: the kernels of a file repeat many of each other's
/// statements. Safe to share between threads.
class FormatCache {
public:
  std::optional<std::string> find(llvm::StringRef Shape) const;
  void add(llvm::StringRef Shape, std::string Formatted);

private:
  mutable std::mutex Mutex;
  llvm::StringMap<std::string> Groups;
};

/// Formats generated C++/CUDA/HIP in LLVM style, as the project's own code
/// is: the result of formatCodeWithClangFormat, reached by formatting only
/// the statements the printers do not leave formatted (and of those, the
/// ones Cache does not have).
std::string formatCode(const std::string &Code, const std::string &FileName,
                       FormatCache *Cache = nullptr);

/// The mark of a line formatCode must format: a form feed, which C++ and
/// clang-format read as whitespace.
inline constexpr char FormattingMark = '\f';

/// Marks code whose layout the printers do not control (a rule's body as
/// Clang prints it), so that formatCode formats it: the mark first on each
/// line. Inline, so that printers use it without linking clang-format.
inline std::string markForFormatting(llvm::StringRef Code) {
  std::string Marked;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  if (!Code.empty())
    Code.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I)
    Marked += (I ? "\n" : "") + std::string(1, FormattingMark) + Lines[I].str();
  return Marked;
}

/// Formats all of Code with clang-format; returns Code unchanged if
/// clang-format cannot parse it.
std::string formatCodeWithClangFormat(const std::string &Code,
                                      const std::string &FileName);

} // namespace tilecc::codegen

#endif
