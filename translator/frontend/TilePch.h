//===- TilePch.h - tile/tile.hpp, precompiled -------------------*- C++ -*-===//
//
// Parsing tile/tile.hpp and the standard headers it includes is about a
// third of a translation. `tilecc --write-pch` (run when tilecc is built)
// keeps their AST in a precompiled header beside the executable, with a
// manifest of what it was built from; a translation loads it instead where
// that gives the same translation unit: its arguments are those the header
// was built with, every file the manifest names is unchanged, and the file
// includes <tile/tile.hpp> with nothing before it but standard headers and
// comments. Anywhere else, and with no usable header, tilecc parses as
// before: the header saves time and never changes a result.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_TILEPCH_H
#define TILECC_FRONTEND_TILEPCH_H

#include "frontend/Frontend.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace tilecc::frontend {

/// Writes tile/tile.hpp, precompiled with Opts' arguments, to Path, and
/// its manifest to Path + ".inputs"; false after printing why not.
bool writeTilePch(const FrontendOptions &Opts, const std::string &Path);

/// The files Opts.TilePch was built from (for the depfile) if a
/// translation of Source with Opts may load it; else why not.
llvm::Expected<std::vector<std::string>>
usableTilePch(const FrontendOptions &Opts, llvm::StringRef Source);

} // namespace tilecc::frontend

#endif
