//===- TilePch.h - tile/tile.hpp, precompiled -------------------*- C++ -*-===//
//
// Parsing tile/tile.hpp and the standard headers it includes is about a
// third of a translation. `tilecc --write-pch` (run when tilecc is built)
// keeps their AST in a precompiled header beside the executable, with a
// manifest of what it was built from; a translation loads it instead where
// that gives the same translation unit: its arguments are those the header
// was built with, every file the manifest names is unchanged, and the file
// includes <tile/tile.hpp> with nothing before it but standard headers and
// comments, and includes those the header was built with (tilecc's build
// also writes one with <algorithm>, which most kernels include: it is not
// loaded where the file does not, so that nothing is declared the file did
// not ask for). Anywhere else, and with no usable header, tilecc parses as
// before: the header saves time and never changes a result.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_TILEPCH_H
#define TILECC_FRONTEND_TILEPCH_H

#include "frontend/Frontend.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace tilecc::frontend {

/// Writes tile/tile.hpp, precompiled with Opts' arguments after the
/// standard headers With, to Path, and its manifest to Path + ".inputs";
/// false after printing why not.
bool writeTilePch(const FrontendOptions &Opts, const std::string &Path,
                  llvm::ArrayRef<std::string> With);

struct UsablePch {
  std::string Path;
  std::vector<std::string> Inputs; // the files it was built from
};

/// The first of Opts.TilePchs that a translation of Source with Opts may
/// load; else why none.
llvm::Expected<UsablePch> usableTilePch(const FrontendOptions &Opts,
                                        llvm::StringRef Source);

} // namespace tilecc::frontend

#endif
