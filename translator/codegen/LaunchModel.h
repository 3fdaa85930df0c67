//===- LaunchModel.h - What the templates render, as data -------*- C++ -*-===//
//
// The data the kernel file, the launch wrapper and the metadata JSON are
// rendered from (templates/*.tmpl): per variant, its kernel, launch bounds,
// tensor maps and the wrapper's test; per configuration, its rules and
// variants; per kernel, the target's host API. A kernel parameter is spelled
// here only. Private to codegen.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_LAUNCHMODEL_H
#define TILECC_CODEGEN_LAUNCHMODEL_H

#include "codegen/VariantPlanning.h"
#include "llvm/ADT/StringMap.h"
#include <nlohmann/json.hpp>

namespace tilecc::codegen {

/// Variants compiled in one shard, and their code for archs with TMA and
/// without.
struct ShardGroup {
  llvm::SmallVector<std::string, 2> Names;
  uint64_t WithTma, WithoutTma;
};

/// A variant emitted: its plan, kernel and what the files say of it.
struct BuiltVariant {
  const VariantPlan *Plan;
  std::string Name;
  EmittedKernel E;
  std::string Described;
  unsigned Threads;
  std::string LaunchBounds;
  bool WarpSpecialized, PingPong;
  /// The variant whose kernel this one's launches run, where they are the
  /// same code; empty when this one is emitted.
  std::string SameAs;

  const std::string &launched() const { return SameAs.empty() ? Name : SameAs; }
  /// What compiling it costs for one arch (ShardPlanner's units). A TMA
  /// variant's 8-bit float products run on wgmma; the others' on mma.sync.
  uint64_t cost() const {
    return ShardPlanner::compileCost(E.UnrolledSteps, E.DotSteps,
                                     Plan->Tma.empty() ? E.Float8DotSteps : 0);
  }
  /// Whether the two are one kernel but for their names (a TMA variant
  /// never is: it also takes tensor maps).
  bool sameKernel(const BuiltVariant &O) const {
    return Plan->Tma.empty() && O.Plan->Tma.empty() && E.Body == O.E.Body &&
           E.Params == O.E.Params && LaunchBounds == O.LaunchBounds &&
           Threads == O.Threads &&
           E.DynamicSharedBytes == O.E.DynamicSharedBytes;
  }
};

/// Collects the layout aliases a kernel file declares.
class LayoutTable {
public:
  /// The alias of layout L over Shape, declared at its first use.
  std::string name(const analysis::Layout &L, llvm::ArrayRef<int64_t> Shape);
  nlohmann::json entries() const { return Entries; }

private:
  llvm::StringMap<size_t> Index;
  std::vector<nlohmann::json> Entries;
};

/// The kernel's launch bounds: its threads, and the programs an SM must
/// hold at once when more than one (CUDA's minimum blocks per
/// multiprocessor; on AMD GPUs, waves per SIMD, four SIMDs to a CU). A
/// kernel that moves registers with setmaxnreg (a producer's, CUDA only)
/// states the count even when it is one: without it ptxas may not tell
/// the registers a thread starts with and ignores every setmaxnreg
/// (warning C7508).
std::string launchBounds(unsigned Threads, unsigned MinPrograms,
                         bool SetsRegisters, const TargetDesc &Target);

/// The configuration's meta-parameters, "BLOCK=64, K=2".
std::string metaText(const frontend::Kernel &K, const frontend::Config &C);

/// The kernel's parameters as the wrapper declares them, and their names;
/// with Leading, each after a comma.
std::string hostParams(const ir::Function &F, bool Leading);
std::string argNames(const ir::Function &F, bool Leading);

/// What every file of K says of the target and the kernel.
nlohmann::json commonModel(const frontend::Kernel &K,
                           const GenerateOptions &Opts);

/// Variant B of configuration C (an emitted one, SameAs empty) as the kernel
/// file and the wrapper render it, and as the metadata lists it.
nlohmann::json variantModel(const BuiltVariant &B,
                            llvm::ArrayRef<BuiltVariant> Built,
                            const frontend::Kernel &K,
                            const frontend::KernelInstance &Inst,
                            bool DependentLaunch, bool Occupancy);
nlohmann::json variantMetadata(const BuiltVariant &B, unsigned C,
                               const frontend::KernelInstance &Inst);

/// Configuration C with its variants, in the order the wrapper tries them,
/// and the variants whose occupancy its grid rule asks for.
nlohmann::json configModel(const frontend::Kernel &K, unsigned C,
                           llvm::ArrayRef<BuiltVariant> Built,
                           llvm::ArrayRef<std::string> Occupancy);

/// Configuration C, left out for Reason (what the target cannot give it):
/// no variants, and launches of it decline.
nlohmann::json leftOutConfigModel(const frontend::Kernel &K, unsigned C,
                                  const std::string &Reason);

/// Places each group of variants in a shard and marks where the kernel
/// file's shards open and close.
void assignShards(nlohmann::json &Variants, std::vector<ShardGroup> Groups,
                  ShardPlanner &Shards, const std::string &KernelFile);

/// The specialization flags the wrapper computes: those some configuration's
/// variants test.
nlohmann::json
specializationFlags(llvm::ArrayRef<analysis::Specialization> Specs,
                    const nlohmann::json &Configs, const ir::Function &F);

/// K's metadata file.
nlohmann::json
kernelMetadata(const frontend::Kernel &K, const GenerateOptions &Opts,
               const nlohmann::json &Configs, const nlohmann::json &Metadata,
               const nlohmann::json &Layouts, const std::string &KernelFile);

} // namespace tilecc::codegen

#endif
