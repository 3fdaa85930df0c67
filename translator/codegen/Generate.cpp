//===- Generate.cpp - All files for one kernel ----------------------------===//
//
// The pipeline of one kernel, configuration by configuration: a transform
// (the dependent launch's wait), layouts, pipelines and the variants'
// plans (VariantPlanning.h), then each variant's device code, fitted to
// the target's shared memory, and the files rendered from the launch model
// (LaunchModel.h). docs/architecture.md draws it.
//
//===----------------------------------------------------------------------===//
#include "codegen/Generate.h"
#include "analysis/EntryRegisters.h"
#include "analysis/InPlaceUpdates.h"
#include "codegen/EmissionPlan.h"
#include "codegen/FormatCode.h"
#include "codegen/LaunchModel.h"
#include "codegen/Passes.h"
#include "codegen/Renderer.h"
#include "codegen/Templates.h"
#include "codegen/TuningTable.h"
#include "codegen/VariantPlanning.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "transforms/CarriedScalars.h"
#include "transforms/DeadCode.h"
#include "transforms/GlobalMemoryOrder.h"
#include "transforms/PriorGridWait.h"
#include "transforms/RegisterPrefetch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;
using nlohmann::json;

namespace tilecc::codegen {

namespace {

/// A configuration's function made ready for its variants: layouts and
/// software pipelines, which every variant shares, and the variants' plans.
struct ConfigPlan {
  unsigned Threads;
  bool DependentLaunch;
  LayoutMap LM;
  Pipelines Plans;
  std::vector<VariantPlan> Variants;
  /// Loops whose named stages are not used.
  std::vector<analysis::UnstagedLoop> Unstaged;
};

/// One set of layouts serves all variants (they share the function), made
/// for the most specialized one, which is the fast path; each variant's
/// access widths follow its own axis info. The generic variant's axis info
/// says which contiguity holds whatever the arguments.
LayoutMap sharedLayouts(Function &F, llvm::ArrayRef<Specialization> Specs,
                        unsigned NumWarps, const TargetDesc &Target) {
  const AxisInfoAnalysis Generic(F, Specs.back().Specs);
  return assignLayouts(F, AxisInfoAnalysis(F, Specs.front().Specs), NumWarps,
                       Target, &Generic);
}

/// What register_prefetch did: the lines of the loads it moved.
std::string prefetchedLines(llvm::SmallVector<unsigned, 4> Lines) {
  if (Lines.empty())
    return "no loop only streams memory";
  llvm::sort(Lines);
  Lines.erase(std::unique(Lines.begin(), Lines.end()), Lines.end());
  std::string S =
      Lines.size() > 1 ? "the loads at lines " : "the load at line ";
  for (unsigned I = 0; I < Lines.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Lines[I]);
  return S + " issued an iteration ahead";
}

/// Runs the passes configuration C needs before its variants, or reports
/// what makes it impossible on the target.
std::optional<ConfigPlan>
planConfiguration(frontend::Kernel &K, unsigned C,
                  llvm::ArrayRef<Specialization> Specs,
                  const GenerateOptions &Opts, GenerateError &Error) {
  frontend::KernelInstance &Inst = K.Instances[C];
  Function &F = *Inst.Fn;
  const TargetDesc &Target = Opts.Target;
  const unsigned Threads = Inst.Cfg.NumWarps * Target.WarpSize;
  // Launches overlap from sm_90 on; elsewhere launch_pdl changes nothing.
  const bool DependentLaunch =
      Inst.Cfg.LaunchPdl && Target.Back == Backend::CUDA && Target.hasWgmma();
  if (DependentLaunch)
    transforms::waitForPriorGridAtEntry(F);
  if (Inst.Cfg.MinProgramsPerSM * Threads > Target.MaxThreadsPerSM) {
    Error = {
        "min_programs_per_sm = " + std::to_string(Inst.Cfg.MinProgramsPerSM) +
            " programs of " + std::to_string(Threads) +
            " threads (configuration " + std::to_string(C) +
            ") are more than the " + std::to_string(Target.MaxThreadsPerSM) +
            " threads an SM of " + Target.Name + " holds",
        K.Loc};
    return std::nullopt;
  }
  // Without cp.async, num_stages >= 2 loads dot operands an iteration ahead
  // into registers instead (Triton's AMD stream pipeliner).
  unsigned Prefetched = 0;
  if (!Target.hasAsyncCopies())
    Prefetched += transforms::prefetchIntoRegisters(F, Inst.Cfg.NumStages);
  std::string Streamed;
  if (Inst.Cfg.RegisterPrefetch) {
    llvm::SmallVector<unsigned, 4> Lines =
        transforms::prefetchStreamingLoads(F, Threads);
    Prefetched += Lines.size();
    Streamed = "; register_prefetch: " + prefetchedLines(Lines);
  }
  if (Prefetched)
    transforms::eraseDeadCode(F);
  LayoutMap LM = sharedLayouts(F, Specs, Inst.Cfg.NumWarps, Target);
  transforms::orderGlobalAccesses(F, LM);
  const unsigned AtEntry = registersAtEntry(Threads, Inst.Cfg.MinProgramsPerSM);
  std::vector<analysis::UnstagedLoop> Unstaged;
  Pipelines Plans = planPipelines(F, LM, Inst.Cfg.NumStages, Threads,
                                  {.AsyncCopies = Target.hasAsyncCopies(),
                                   .Wgmma = Target.hasWgmma(),
                                   .Registers = AtEntry},
                                  &Unstaged);
  const WidestWgmma Wgmma =
      Target.hasWgmma() ? widestWgmma(F, LM, Plans) : WidestWgmma();
  if (Wgmma.Registers > AtEntry) {
    Error = {Wgmma.describe() + " needs " + std::to_string(Wgmma.Registers) +
                 " registers a thread at the kernel's entry (ptxas), but " +
                 programsOf(Inst.Cfg.MinProgramsPerSM, Threads) +
                 " an SM (configuration " + std::to_string(C) + ") leave " +
                 std::to_string(AtEntry) + ": use " +
                 (Inst.Cfg.MinProgramsPerSM > 1
                      ? "a smaller min_programs_per_sm, "
                      : "") +
                 "fewer warps or narrower blocks",
             Wgmma.Dot->loc(), true};
    return std::nullopt;
  }
  std::vector<VariantPlan> Variants = planVariants(
      F, LM, Plans, Specs, std::max(Inst.Cfg.Assume, Opts.Assume), Target);
  for (VariantPlan &VP : Variants)
    VP.Description += Streamed;
  return ConfigPlan{Threads,          DependentLaunch,     std::move(LM),
                    std::move(Plans), std::move(Variants), std::move(Unstaged)};
}

/// The error of a kernel E that does not fit the target's shared memory,
/// if it does not.
std::optional<GenerateError> sharedMemoryError(const EmittedKernel &E,
                                               unsigned C,
                                               const frontend::Kernel &K,
                                               const TargetDesc &Target) {
  const unsigned Bytes = E.DynamicSharedBytes + E.StaticSharedBytes;
  if (Bytes > Target.MaxSharedBytes) {
    std::string Scratch =
        E.ScratchBytes ? ", " + std::to_string(E.ScratchBytes) +
                             " of them for layout conversions, transposes "
                             "and dots"
                       : "";
    // Without a pipeline, the kernel's own buffers are too many.
    const bool Pipelined = E.PipelineStages > 0;
    return GenerateError{
        (Pipelined ? "a loop software-pipelined with num_stages = " +
                         std::to_string(E.PipelineStages) + " needs "
                   : std::string("the kernel needs ")) +
            std::to_string(Bytes) + " bytes of shared memory (configuration " +
            std::to_string(C) + Scratch + "), more than the " +
            std::to_string(Target.MaxSharedBytes) + " " + Target.Name +
            " allows: use " + (Pipelined ? "fewer stages or " : "") +
            "smaller tiles",
        Pipelined        ? E.PipelineLoc
        : E.ScratchBytes ? E.ScratchLoc
                         : K.Loc,
        true};
  }
  if (E.StaticSharedBytes > Target.MaxStaticSharedBytes)
    return GenerateError{
        "the kernel's reductions and scans across warps need " +
            std::to_string(E.StaticSharedBytes) +
            " bytes of static shared memory (configuration " +
            std::to_string(C) + "), more than the " +
            std::to_string(Target.MaxStaticSharedBytes) + " " + Target.Name +
            " allows: use smaller tiles or fewer warps",
        E.PartialsLoc, true};
  return std::nullopt;
}

/// Variant VP of configuration C: its producer warpgroup, then its kernel,
/// emitted again with less shared memory (matrix-core operands staged in
/// one buffer, no resident B operands, scratch in dynamic memory, one
/// operand buffer, no TMA stores) until it fits.
std::optional<BuiltVariant> buildVariant(const frontend::Kernel &K, unsigned C,
                                         const ConfigPlan &CP, VariantPlan &VP,
                                         const GenerateOptions &Opts,
                                         LayoutTable &Layouts,
                                         GenerateError &Error) {
  const frontend::KernelInstance &Inst = K.Instances[C];
  const Function &F = *Inst.Fn;
  const TargetDesc &Target = Opts.Target;
  AxisInfoAnalysis AI(F, VP.Spec->Specs);
  std::string Described = VP.Description;
  if (CP.DependentLaunch)
    Described += "; launched early (programmatic dependent launch)";
  size_t OperandsDescribed = 0;
  ProducerPlan Producer =
      planProducer(F, CP.LM, CP.Plans, VP, Inst.Cfg, CP.Threads, Target,
                   Described, OperandsDescribed);
  const unsigned VariantThreads =
      CP.Threads + (Producer.active() ? ProducerPlan::Threads : 0);
  bool DynamicScratch = false, StageAhead = true;
  const Pipelines *Emitted = &CP.Plans;
  Pipelines WithoutResidentB;
  auto Emit = [&] {
    const EmissionPlan EP =
        planEmission(F, CP.LM, *Emitted, VP.Tma, Producer, StageAhead);
    return emitKernel(
        F, CP.LM, AI, *Emitted, VP.Tma,
        [&](const Layout &L, llvm::ArrayRef<int64_t> Shape) {
          return Layouts.name(L, Shape);
        },
        Opts.SourcePath, Producer, EP, DynamicScratch);
  };
  auto SharedBytes = [](const EmittedKernel &E) {
    return E.DynamicSharedBytes + E.StaticSharedBytes;
  };
  EmittedKernel E = Emit();
  // Without room for a second buffer, matrix-core operands are staged in
  // the iteration that multiplies them.
  if (SharedBytes(E) > Target.MaxSharedBytes && E.StagedAheadBytes) {
    StageAhead = false;
    E = Emit();
  }
  // Without room for loop-invariant B operands kept in shared memory,
  // each iteration's dot stages them again.
  auto KeepsB = [](const auto &L) { return !L.second.ResidentB.empty(); };
  if (SharedBytes(E) > Target.MaxSharedBytes &&
      llvm::any_of(CP.Plans, KeepsB)) {
    WithoutResidentB = CP.Plans;
    for (auto &L : WithoutResidentB)
      L.second.ResidentB.clear();
    Emitted = &WithoutResidentB;
    E = Emit();
  }
  // Past what may be declared static, the scratch buffer moves to
  // dynamic shared memory, which the launch asks for (where a target
  // allows more of it).
  if (E.StaticSharedBytes > Target.MaxStaticSharedBytes &&
      Target.MaxStaticSharedBytes < Target.MaxSharedBytes && E.ScratchBytes) {
    DynamicScratch = true;
    E = Emit();
  }
  // Without room for a second buffer of each copied A operand, the
  // producer waits for the consumers to release the one.
  if (SharedBytes(E) > Target.MaxSharedBytes && Producer.OperandSlots > 1) {
    Producer.OperandSlots = 1;
    E = Emit();
  }
  if (Producer.OperandSlots > 1)
    Described.insert(OperandsDescribed, " (two buffers, taken in turn)");
  if (E.StagedAheadBytes)
    Described += "; matrix-core operands staged in shared memory an "
                 "iteration ahead (two buffers, taken in turn)";
  // Without room for the buffers of its TMA stores, a variant stores
  // as the others do.
  auto WritesBox = [](const auto &M) { return writesBox(*M.first); };
  if (SharedBytes(E) > Target.MaxSharedBytes &&
      llvm::any_of(VP.Tma, WritesBox)) {
    VP.Tma.remove_if(WritesBox);
    E = Emit();
  }
  if (auto Err = sharedMemoryError(E, C, K, Target)) {
    Error = *Err;
    return std::nullopt;
  }
  const unsigned Programs =
      Producer.active() ? Producer.Programs : Inst.Cfg.MinProgramsPerSM;
  return BuiltVariant{
      &VP,
      K.Name + "_c" + std::to_string(C) + "_" + VP.Suffix,
      std::move(E),
      std::move(Described),
      VariantThreads,
      launchBounds(VariantThreads, Programs, Producer.active(), Target),
      Producer.active(),
      Producer.MmaTurns > 0};
}

/// A variant whose kernel is the same as a less specialized one's is
/// not emitted: its launches run that one (correct for its arguments
/// too, being the same code). The least specialized are linked first, so
/// that of three equal kernels both others name the one emitted.
void linkSameKernels(std::vector<BuiltVariant> &Built) {
  for (unsigned I = Built.size(); I-- > 0;)
    for (unsigned J = I + 1; J < Built.size() && Built[I].SameAs.empty(); ++J)
      if (Built[J].SameAs.empty() && Built[I].sameKernel(Built[J]))
        Built[I].SameAs = Built[J].Name;
}

/// What the files hold of every configuration so far.
struct KernelModel {
  std::vector<Specialization> Specs;
  LayoutTable Layouts;
  json Variants = json::array(), Configs = json::array(),
       Metadata = json::array();
  std::vector<ShardGroup> Groups;
  /// Why each configuration the target cannot run was left out.
  std::vector<GenerateError> LeftOut;
  /// What loops that name their stages leave unstaged, once each.
  std::vector<GenerateError> UnusedStages;
};

/// Plans, emits and models configuration C into Model.
bool generateConfiguration(frontend::Kernel &K, unsigned C,
                           llvm::ArrayRef<Specialization> Specs,
                           const GenerateOptions &Opts, KernelModel &Model,
                           GenerateError &Error) {
  std::optional<ConfigPlan> CP = planConfiguration(K, C, Specs, Opts, Error);
  if (!CP)
    return false;
  for (const analysis::UnstagedLoop &U : CP->Unstaged) {
    const std::string Stages =
        "the loop's " + std::to_string(U.Loop->numStagesHint()) + " stages";
    GenerateError W = U.Load ? GenerateError{"this load is not staged in " +
                                                 Stages + ": it " + U.Why,
                                             U.Load->loc()}
                             : GenerateError{Stages + " are not used: " + U.Why,
                                             U.Loop->loc()};
    if (llvm::none_of(Model.UnusedStages, [&](const GenerateError &E) {
          return E.Message == W.Message && E.Loc->Line == W.Loc->Line &&
                 E.Loc->Col == W.Loc->Col;
        }))
      Model.UnusedStages.push_back(std::move(W));
  }
  std::vector<BuiltVariant> Built;
  for (VariantPlan &VP : CP->Variants) {
    auto B = buildVariant(K, C, *CP, VP, Opts, Model.Layouts, Error);
    if (!B)
      return false;
    Built.push_back(std::move(*B));
  }
  linkSameKernels(Built);
  // Where the fast variant is a TMA one, the grid rule's occupancy is its
  // own on sm_90 on, and elsewhere that of the variant its twin runs.
  std::vector<std::string> Occupancy = {Built[0].launched()};
  const auto Twin =
      llvm::find_if(Built, [](const BuiltVariant &B) { return B.Plan->Twin; });
  if (Twin != Built.end())
    Occupancy.push_back(Twin->launched());
  // What each shard compiles: a TMA variant with its twin (one of the two
  // for each arch), every other variant alone.
  for (const BuiltVariant &B : Built) {
    if (!B.SameAs.empty() || B.Plan->Twin)
      continue;
    ShardGroup G{{B.Name}, B.cost(), B.Plan->Tma.empty() ? B.cost() : 0};
    if (!B.Plan->Tma.empty() && Twin != Built.end() && Twin->SameAs.empty()) {
      G.Names.push_back(Twin->Name);
      G.WithoutTma = Twin->cost();
    }
    Model.Groups.push_back(std::move(G));
  }
  const frontend::KernelInstance &Inst = K.Instances[C];
  for (const BuiltVariant &B : Built) {
    if (!B.SameAs.empty())
      continue;
    Model.Variants.push_back(
        variantModel(B, Built, K, Inst, CP->DependentLaunch,
                     llvm::is_contained(Occupancy, B.Name)));
    Model.Metadata.push_back(variantMetadata(B, C, Inst));
  }
  Model.Configs.push_back(configModel(K, C, Built, Occupancy));
  return true;
}

/// The launch model of every configuration of K, which the files are
/// rendered from: the whole pipeline but rendering.
std::optional<KernelModel> buildModel(frontend::Kernel &K,
                                      const GenerateOptions &Opts,
                                      GenerateError &Error) {
  if (!prepareKernel(K, Error))
    return std::nullopt;
  const Function &F0 = *K.Instances.front().Fn;
  if (auto Unsupported = unsupportedOnTarget(F0, Opts.Target)) {
    Error = *Unsupported;
    return std::nullopt;
  }
  KernelModel Model;
  Model.Specs = kernelSpecializations(K);
  for (unsigned C = 0; C < K.Instances.size(); ++C) {
    // A configuration left out leaves no layouts behind.
    std::optional<LayoutTable> Layouts;
    if (Opts.SkipUnsupported)
      Layouts = Model.Layouts;
    if (generateConfiguration(K, C, Model.Specs, Opts, Model, Error))
      continue;
    if (!Error.Unsupported || !Layouts)
      return std::nullopt;
    Model.Layouts = std::move(*Layouts);
    Model.LeftOut.push_back(Error);
    Model.Configs.push_back(leftOutConfigModel(K, C, Error.Message));
  }
  // With none left, the kernel is what the target cannot run.
  if (Model.LeftOut.size() == K.Instances.size()) {
    Error = Model.LeftOut.front();
    return std::nullopt;
  }
  Error = {};
  return Model;
}

/// FNV-1a, 64 bits, as 16 hex digits.
std::string contentHash(llvm::StringRef Text) {
  uint64_t H = 14695981039346656037ull;
  for (const unsigned char C : Text.bytes())
    H = (H ^ C) * 1099511628211ull;
  return llvm::utohexstr(H, /*LowerCase=*/true, 16);
}

/// What the wrapper's tuner needs: the TILE_TUNE rule (or the integer
/// arguments as the key), the hash of the code the measurements are for,
/// and the rows of the tuning table; false, with Error set, for a table
/// that names the kernel's configurations wrongly.
bool addTuning(const frontend::Kernel &K, const GenerateOptions &Opts,
               json &Data, GenerateError &Error) {
  Data["content_hash"] = contentHash(
      Opts.Target.Name + Data["variants"].dump() + Data["configs"].dump());
  Data["has_tune_rule"] = !K.TuneBody.empty();
  // Measuring a kernel that changes its arguments as it runs would change
  // them many times over, unless a rule says what to reset or restore.
  const std::vector<std::string> InPlace =
      inPlaceUpdates(*K.Instances.front().Fn);
  Data["in_place"] = llvm::join(InPlace, ", ");
  Data["tune_refused"] = !InPlace.empty() && K.TuneBody.empty();
  Data["tune_params"] = K.TuneParams;
  Data["tune_body"] = markForFormatting(K.TuneBody);
  Data["tuning_args"] = argNames(*K.Instances.front().Fn, false);
  if (K.TuneBody.empty()) {
    // The integer arguments, as many as tile::tuning's key holds.
    const size_t KeySize = std::min<size_t>(K.IntegerParams.size(), 16);
    std::vector<std::string> Params, Names, Key;
    for (const auto &I : llvm::ArrayRef(K.IntegerParams).take_front(KeySize)) {
      for (const HostParam &P : K.Instances.front().Fn->HostParams)
        if (P.Name == I.Name)
          Params.push_back(P.CxxType + " " + I.Name);
      Names.push_back(I.Name);
      Key.push_back(I.Key);
    }
    Data["tune_params"] = llvm::join(Params, ", ");
    Data["tuning_args"] = llvm::join(Names, ", ");
    Data["default_key"] = "{" + llvm::join(Key, ", ") + "}";
    Data["default_key_partial"] = KeySize < K.IntegerParams.size();
  }
  Data["has_table"] = false;
  Data["keys_tuning"] = !Data["tune_refused"];
  if (!Opts.TuningTable)
    return true;
  std::string Why;
  size_t Entry = 0;
  std::optional<json> Rows = tuningTableRows(*Opts.TuningTable, K, Why, Entry);
  if (!Rows) {
    Error = {Why, entryLocation(Opts.TuningTableText, Entry), false,
             Opts.TuningTablePath};
    return false;
  }
  Data["has_table"] = !Rows->empty();
  Data["keys_tuning"] = !Data["tune_refused"] || !Rows->empty();
  Data["table_rows"] = *Rows;
  Data["table_source"] = Opts.TuningTablePath;
  return true;
}

} // namespace

bool prepareKernel(frontend::Kernel &K, GenerateError &Error) {
  for (const frontend::KernelInstance &I : K.Instances) {
    for (const VerifierError &E : verify(*I.Fn)) {
      Error = {"internal error in tilecc: " + E.Message, E.Loc};
      return false;
    }
    transforms::simplifyCarriedScalars(*I.Fn);
    transforms::eraseDeadCode(*I.Fn);
  }
  return true;
}

std::optional<std::vector<GeneratedFile>>
generate(frontend::Kernel &K, const GenerateOptions &Opts, GenerateError &Error,
         std::vector<GenerateError> *LeftOut,
         std::vector<GenerateError> *UnusedStages) {
  std::optional<KernelModel> Model = buildModel(K, Opts, Error);
  if (!Model)
    return std::nullopt;
  if (LeftOut)
    llvm::append_range(*LeftOut, Model->LeftOut);
  if (UnusedStages)
    llvm::append_range(*UnusedStages, Model->UnusedStages);
  const Function &F0 = *K.Instances.front().Fn;
  const std::string KernelFile =
      K.Name + "." + Opts.Target.kernelExtension().str();
  if (Opts.Shards)
    assignShards(Model->Variants, std::move(Model->Groups), *Opts.Shards,
                 KernelFile);
  json Data = commonModel(K, Opts);
  Data["layouts"] = Model->Layouts.entries();
  Data["variants"] = Model->Variants;
  Data["configs"] = Model->Configs;
  // The rules' bodies are printed by Clang, not laid out by the templates.
  for (json &C : Data["configs"])
    for (const char *Body : {"grid_body", "select_body"})
      C[Body] = markForFormatting(C[Body].get<std::string>());
  for (unsigned C = 0; C < K.Instances.size(); ++C) {
    Data["configs"][C]["name"] = configName(K, K.Instances[C].Cfg);
    Data["configs"][C]["autotune"] =
        K.Instances[C].Cfg.Autotune ? "true" : "false";
  }
  if (!addTuning(K, Opts, Data, Error))
    return std::nullopt;
  Data["num_configs"] = K.Instances.size();
  // The default configuration: the first built (buildModel keeps one).
  Data["first_built"] = llvm::find_if(Data["configs"], [](const json &C) {
                          return !C["left_out"].get<bool>();
                        })->at("index");
  Data["specializations"] =
      specializationFlags(Model->Specs, Model->Configs, F0);
  Data["params"] = hostParams(F0, false);
  Data["has_select"] = !K.Instances.front().SelectBody.empty();
  Data["args0"] = argNames(F0, false);
  json Checks = json::array();
  for (const std::string &C : F0.HostChecks)
    Checks.push_back({{"condition", C}});
  Data["host_checks"] = Checks;

  std::vector<GeneratedFile> Files;
  auto Render = [&](const char *Template, const std::string &Name) {
    std::string Err;
    std::string Text = render(Template, Data, Err);
    if (!Err.empty())
      Error = {Name + ": template error: " + Err, std::nullopt};
    Files.push_back({Name, Text});
  };
  Render(templates::KernelCu, KernelFile);
  Render(templates::LaunchH, K.Name + ".launch.h");
  Render(templates::LaunchCpp, K.Name + ".launch.cpp");
  json Meta = kernelMetadata(K, Opts, Model->Configs, Model->Metadata,
                             Model->Layouts.entries(), KernelFile);
  Files.push_back({K.Name + ".json", Meta.dump(2) + "\n"});
  if (!Error.Message.empty())
    return std::nullopt;
  return Files;
}

/// Replaces each `#line __TILECC_RESET__` with a directive naming the
/// generated file's own next line.
std::string resetLineDirectives(const std::string &Text,
                                const std::string &FileName) {
  std::string Out;
  unsigned Line = 1;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    llvm::StringRef L(Text.data() + Pos, End - Pos);
    if (L == "#line __TILECC_RESET__")
      Out += "#line " + std::to_string(Line + 1) + " \"" + FileName + "\"";
    else
      Out += L.str();
    Out += "\n";
    ++Line;
    Pos = End + 1;
  }
  return Out;
}

std::string dumpIR(const frontend::Kernel &K) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (unsigned C = 0; C < K.Instances.size(); ++C) {
    OS << "// " << K.QualifiedName << " configuration " << C << ": "
       << metaText(K, K.Instances[C].Cfg)
       << " num_warps=" << K.Instances[C].Cfg.NumWarps << "\n";
    print(*K.Instances[C].Fn, OS);
  }
  return S;
}

std::string dumpLayouts(frontend::Kernel &K, const TargetDesc &Target) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  const std::vector<Specialization> Specs = kernelSpecializations(K);
  for (unsigned C = 0; C < K.Instances.size(); ++C) {
    Function &F = *K.Instances[C].Fn;
    LayoutMap LM = sharedLayouts(F, Specs, K.Instances[C].Cfg.NumWarps, Target);
    OS << "// " << K.QualifiedName << " configuration " << C << ": "
       << metaText(K, K.Instances[C].Cfg)
       << " num_warps=" << K.Instances[C].Cfg.NumWarps << " on " << Target.Name
       << " (aligned16 axis info)\n";
    printWithLayouts(F, LM, Specs.front().Specs, OS);
  }
  return S;
}

std::optional<std::string> dumpPlan(frontend::Kernel &K,
                                    const GenerateOptions &Opts,
                                    GenerateError &Error) {
  std::optional<KernelModel> Model = buildModel(K, Opts, Error);
  if (!Model)
    return std::nullopt;
  llvm::StringMap<const json *> Kernels;
  for (const json &V : Model->Variants)
    Kernels[V["name"].get<std::string>()] = &V;
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const json &C : Model->Configs) {
    OS << "// " << K.QualifiedName << " configuration "
       << C["index"].get<unsigned>() << ": " << C["meta"].get<std::string>()
       << " num_warps=" << C["num_warps"].get<unsigned>()
       << " num_stages=" << C["num_stages"].get<unsigned>() << " on "
       << Opts.Target.Name << "\n";
    if (C["left_out"].get<bool>())
      OS << "left out: " << C["left_out_reason"].get<std::string>() << "\n";
    std::vector<std::string> Launched;
    for (const json &V : C["variants"]) {
      const std::string Name = V["name"].get<std::string>();
      const std::string Guard = V["guard"].get<std::string>();
      OS << "launch " << Name << " when " << (Guard.empty() ? "always" : Guard)
         << (V["declines"].get<bool>() ? ", unless it declines" : "") << "\n";
      if (!llvm::is_contained(Launched, Name))
        Launched.push_back(Name);
    }
    for (const std::string &Name : Launched) {
      const json &V = *Kernels.lookup(Name);
      OS << "kernel " << Name << ": " << V["threads"].get<unsigned>()
         << " threads, " << V["launch_bounds"].get<std::string>() << ", "
         << V["smem_bytes"].get<unsigned>() << " bytes of dynamic and "
         << V["static_smem_bytes"].get<unsigned>()
         << " of static shared memory\n  "
         << V["specialization"].get<std::string>() << "\n";
      for (const json &M : V["tensor_maps"])
        OS << "  tensor map " << M["name"].get<std::string>() << ": "
           << M["stage"].get<std::string>() << " boxes of "
           << M["base"].get<std::string>() << "\n";
    }
  }
  return S;
}

} // namespace tilecc::codegen
