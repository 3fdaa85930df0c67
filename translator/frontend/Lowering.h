//===- Lowering.h - Instantiated kernel bodies to TileIR --------*- C++ -*-===//
#ifndef TILECC_FRONTEND_LOWERING_H
#define TILECC_FRONTEND_LOWERING_H

#include "ir/IR.h"
#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace tilecc::frontend {

/// Lowers one instantiated kernel. Unsupported constructs are reported as
/// errors through Ctx's diagnostics engine; the result is then null.
std::unique_ptr<ir::Function> lowerKernel(clang::ASTContext &Ctx,
                                          const clang::FunctionDecl &Kernel);

} // namespace tilecc::frontend

#endif
