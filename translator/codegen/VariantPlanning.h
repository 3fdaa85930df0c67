//===- VariantPlanning.h - Which variants a configuration has --*- C++ -*-===//
//
// The plan of a configuration's variants, before any code is printed:
// which specializations get a kernel, which loads TMA copies
// (planVariants), and whether a producer warpgroup feeds the loops
// (planProducer). Private to codegen.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_VARIANTPLANNING_H
#define TILECC_CODEGEN_VARIANTPLANNING_H

#include "analysis/Specializations.h"
#include "codegen/DeviceEmitter.h"
#include "codegen/Generate.h"
#include <optional>
#include <string>
#include <vector>

namespace tilecc::codegen {

/// One variant of a configuration: a specialization, maybe with its staged
/// loads copied by TMA.
struct VariantPlan {
  const analysis::Specialization *Spec;
  std::string Suffix, Description;
  std::string Guard; // the wrapper's test; empty: always
  analysis::TensorMapOps Tma;
  /// The variant without TMA of the TMA variant's specialization: compiled
  /// only below sm_90, where the TMA variant is not (one CUDA translation
  /// serves every arch a build names).
  bool Twin = false;
};

/// The variants of K, one set for all its configurations.
std::vector<analysis::Specialization>
kernelSpecializations(const frontend::Kernel &K);

/// An error at the first op of F that touches an 8-bit float (pointers to
/// them included) where Target has no such type: ROCm's gfx90a. (CUDA
/// targets all have them; sm_80 multiplies them on fp16 tensor cores.)
std::optional<GenerateError> unsupportedOnTarget(const ir::Function &F,
                                                 const TargetDesc &Target);

/// The name of the wrapper's bool for S; empty for the generic variant.
std::string flagName(const analysis::Specialization &S);

/// The variants of one configuration, most specialized first: a TMA
/// variant, where the staged loads of F can be copied by TMA, then one per
/// specialization that Assume leaves (the configuration's assumption, or
/// the most specialized there is when it assumes more). The TMA variant
/// takes the facts of the most specialized variant they suffice for (a
/// unit stride may be a row stride too); the variant of the same facts
/// without TMA is its twin.
std::vector<VariantPlan>
planVariants(const ir::Function &F, const analysis::LayoutMap &LM,
             const Pipelines &Plans,
             llvm::ArrayRef<analysis::Specialization> Specs,
             ir::Assumption Assume, const TargetDesc &Target);

/// "2 programs of 384 threads", "one program of 1024 threads".
std::string programsOf(unsigned Programs, unsigned Threads);

/// The producer warpgroup of variant VP of a configuration of Threads
/// threads, where it asks for warp specialization and has TMA copies (the
/// A operands the producer copies join VP.Tma); none where it cannot have
/// one. Described gains what was decided and why, and OperandsDescribed
/// where the operands' description ends.
ProducerPlan planProducer(const ir::Function &F, const analysis::LayoutMap &LM,
                          const Pipelines &Plans, VariantPlan &VP,
                          const frontend::Config &Cfg, unsigned Threads,
                          const TargetDesc &Target, std::string &Described,
                          size_t &OperandsDescribed);

} // namespace tilecc::codegen

#endif
