//===- FormatCode.cpp -----------------------------------------------------===//
#include "codegen/FormatCode.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"

namespace tilecc::codegen {

std::string formatCode(const std::string &Code, const std::string &FileName) {
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  // Keep #pragma unroll with the loop it belongs to.
  Style.IndentPPDirectives = clang::format::FormatStyle::PPDIS_None;
  // Layout descriptions in comments read better whole than wrapped.
  Style.ReflowComments = false;
  clang::tooling::Replacements R = clang::format::reformat(
      Style, Code, {clang::tooling::Range(0, Code.size())}, FileName);
  auto Formatted = clang::tooling::applyAllReplacements(Code, R);
  return Formatted ? *Formatted : Code;
}

} // namespace tilecc::codegen
