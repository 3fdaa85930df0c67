//===- Lowering.h - Instantiated kernel bodies to TileIR --------*- C++ -*-===//
#ifndef TILECC_FRONTEND_LOWERING_H
#define TILECC_FRONTEND_LOWERING_H

#include "ir/IR.h"
#include <memory>
#include <set>
#include <string>
#include <utility>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace tilecc::frontend {

/// Errors reported so far, by location (raw encoding) and text: every
/// configuration of a kernel lowers the same body, and an error it makes
/// in each is reported once.
using ReportedErrors = std::set<std::pair<unsigned, std::string>>;

/// Lowers one instantiated kernel. Unsupported constructs are reported as
/// errors through Ctx's diagnostics engine (unless in Reported already);
/// the result is then null.
std::unique_ptr<ir::Function> lowerKernel(clang::ASTContext &Ctx,
                                          const clang::FunctionDecl &Kernel,
                                          ReportedErrors &Reported);

} // namespace tilecc::frontend

#endif
