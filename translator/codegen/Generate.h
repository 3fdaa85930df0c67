//===- Generate.h - All files for one kernel --------------------*- C++ -*-===//
//
// Runs the per-variant pipeline (axis info -> layouts -> device code) for
// every configuration x specialization of a kernel and renders the kernel
// source, the launch wrapper (header and source) and the metadata JSON from
// the text skeletons in templates/.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_GENERATE_H
#define TILECC_CODEGEN_GENERATE_H

#include "codegen/DeviceEmitter.h"
#include "codegen/Shards.h"
#include "frontend/Frontend.h"
#include "ir/Target.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tilecc::codegen {

struct GeneratedFile {
  std::string Name; // file name inside the output directory
  std::string Contents;
};

struct GenerateOptions {
  std::string SourcePath; // as given on the command line
  std::string Version;
  TargetDesc Target;
  /// --assume: what every configuration's launches satisfy, at least.
  ir::Assumption Assume = ir::Assumption::None;
  /// --shards: which translation unit compiles each variant; none when the
  /// kernel files are compiled whole.
  ShardPlanner *Shards = nullptr;
  /// --tuning-table: the parsed table (TuningTable.h), its path and its
  /// text; none when the wrappers have no table.
  const nlohmann::json *TuningTable = nullptr;
  std::string TuningTablePath;
  std::string TuningTableText;
  /// --skip-unsupported: a configuration the target cannot run is left out
  /// of the files (its launches decline) while another one can run.
  bool SkipUnsupported = false;
};

/// Why generation failed: an input that is wrong (at Loc in File), a kernel
/// the target cannot run (at Loc in the user's source; Unsupported when it uses
/// what the target lacks, such as a type, or a configuration needs more shared
/// memory than it has, rather than exceeding a limit of every target), or a bug
/// of tilecc's (no Loc).
struct GenerateError {
  std::string Message;
  std::optional<ir::SourceLoc> Loc;
  bool Unsupported = false;
  /// Where Loc is when not in the user's source: an input such as the
  /// tuning table.
  std::string File;
};

/// Verifies each configuration's IR and erases its dead code: what every
/// output of K starts from. False, with Error set, for malformed IR (a bug
/// in tilecc).
bool prepareKernel(frontend::Kernel &K, GenerateError &Error);

/// Generates K's files; on failure returns nothing and sets Error. With
/// Opts.SkipUnsupported, why each configuration left out was is added to
/// LeftOut (an Unsupported error, its message naming the configuration).
/// UnusedStages receives, at the user's line, each loop that names its
/// stages (tile::range) but is not pipelined, and each tile load such a loop
/// leaves unstaged, saying why: the source asks for what the files do not do.
std::optional<std::vector<GeneratedFile>>
generate(frontend::Kernel &K, const GenerateOptions &Opts, GenerateError &Error,
         std::vector<GenerateError> *LeftOut = nullptr,
         std::vector<GenerateError> *UnusedStages = nullptr);

/// Kernel files mark with `#line __TILECC_RESET__` where the user's `#line`
/// mapping ends; this replaces each mark with the generated file's own next
/// line. Run it on the final text (after formatting).
std::string resetLineDirectives(const std::string &Text,
                                const std::string &FileName);

/// --emit=plan: what generate() decides for K, without the code: per
/// configuration, the variants its launches try in order, and per kernel
/// emitted, its threads, launch bounds, shared memory, specialization and
/// tensor maps.
std::optional<std::string> dumpPlan(frontend::Kernel &K,
                                    const GenerateOptions &Opts,
                                    GenerateError &Error);

/// --emit=ir: the TileIR of every configuration, before layout assignment.
std::string dumpIR(const frontend::Kernel &K);
/// --emit=layouts: the TileIR of every configuration with each tile's layout.
std::string dumpLayouts(frontend::Kernel &K, const TargetDesc &Target);

} // namespace tilecc::codegen

#endif
