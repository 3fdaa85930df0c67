//===- Frontend.h - From a .tile.cpp to TileIR ------------------*- C++ -*-===//
//
// Runs Clang over the user's file, finds kernels, their configurations and
// grid rules, and has Clang's Sema instantiate every kernel and rule for
// every configuration, as a use at the configuration would. Instantiated
// kernel bodies are lowered to TileIR.
// Every problem is reported through Clang's diagnostics engine with the
// user's file:line:col.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_FRONTEND_H
#define TILECC_FRONTEND_FRONTEND_H

#include "ir/IR.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
} // namespace clang

namespace tilecc::frontend {

struct Config {
  std::vector<long long> Meta; // one per template parameter
  int NumWarps = 4;
  int NumStages = 1;
  int MinProgramsPerSM = 1;
  bool WarpSpecialize = false;
  bool PingPong = false;
  bool LaunchPdl = false;
  /// tile::config::assume: the least specialized variant to build.
  ir::Assumption Assume = ir::Assumption::None;
  /// tile::config::autotune: whether measuring may choose it.
  bool Autotune = true;
  /// tile::config::register_prefetch: streaming loops' loads an iteration
  /// ahead, in registers.
  bool RegisterPrefetch = false;
};

struct KernelInstance {
  Config Cfg;
  std::unique_ptr<ir::Function> Fn;
  /// The grid rule instantiated for this configuration, as C++ text: the
  /// parameter list and the body, printed by Clang.
  std::string GridParams;
  std::string GridBody;
  /// The TILE_SELECT rule (does this configuration apply to the
  /// arguments?), the same way; empty when the kernel has none.
  std::string SelectParams;
  std::string SelectBody;
};

struct Kernel {
  std::string Name;          // unqualified, used for file names
  std::string QualifiedName; // for comments and the wrapper
  std::vector<std::string> MetaNames;
  std::vector<KernelInstance> Instances; // one per configuration
  /// The TILE_TUNE rule as C++ text, as the grid rules are; empty when the
  /// kernel has none.
  std::string TuneParams;
  std::string TuneBody;
  /// The kernel's integer parameters: the autotuning key without a rule.
  /// Key holds each as the key's element: its name, or the bits of an
  /// unsigned 64-bit one as a long long (distinct values stay distinct; a
  /// plain conversion would narrow).
  struct IntegerParam {
    std::string Name, Key;
  };
  std::vector<IntegerParam> IntegerParams;
  ir::SourceLoc Loc; // of its declaration
};

struct FrontendOptions {
  std::string SourcePath;        // as given on the command line
  std::string RuntimeHeadersDir; // holds tile/tile.hpp
  std::string ResourceDir;       // Clang's builtin headers
  std::vector<std::string> ExtraArgs;
  /// Kernels to translate; empty means all TILE_KERNELs in the file.
  std::vector<std::string> OnlyKernels;
  /// When set, is set to every file the translation read (for --depfile).
  std::vector<std::string> *Dependencies = nullptr;
  /// Precompiled tile/tile.hpps (TilePch.h), the first to load where it
  /// gives the same translation first; none: parse it.
  std::vector<std::string> TilePchs;
  /// Say on stderr which of TilePchs is loaded, or why none is.
  bool ExplainPch = false;
};

/// The arguments Clang parses a translation with.
std::vector<std::string> clangArgs(const FrontendOptions &Opts);

/// Adds the files SM read (the user's file and every header) to
/// Dependencies, which it keeps sorted, each once.
void collectDependencies(const clang::SourceManager &SM,
                         std::vector<std::string> &Dependencies);

enum class FrontendResult {
  Ok,
  Failed, // after diagnostics were printed
  /// Clang had something to say about a translation that loaded the
  /// precompiled header: nothing was printed, and the file must be
  /// translated again without the header (what Translated received is void).
  RetryWithoutPch,
};

/// Translates the file's kernels, handing each to Translated, in the file's
/// order, as soon as it is lowered (so that the caller can generate its code
/// while the next one is instantiated).
FrontendResult runFrontend(const FrontendOptions &Opts,
                           llvm::function_ref<void(Kernel)> Translated);

} // namespace tilecc::frontend

#endif
