//===- Generate.cpp -------------------------------------------------------===//
#include "codegen/Generate.h"
#include "analysis/DotRotation.h"
#include "analysis/EntryRegisters.h"
#include "analysis/Specializations.h"
#include "analysis/WarpSpecialization.h"
#include "codegen/FormatCode.h"
#include "codegen/Renderer.h"
#include "codegen/Templates.h"
#include "ir/Printer.h"
#include "transforms/PriorGridWait.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;
using nlohmann::json;

namespace tilecc::codegen {

std::optional<TargetDesc> parseTarget(llvm::StringRef Name) {
  if (Name == "sm_90a")
    return TargetDesc{Name.str(), Backend::CUDA, 32, 3, 227 * 1024, 48 * 1024};
  if (Name == "sm_80")
    return TargetDesc{Name.str(), Backend::CUDA, 32, 2, 163 * 1024, 48 * 1024};
  if (Name == "gfx90a")
    return TargetDesc{Name.str(), Backend::HIP, 64, 0, 64 * 1024, 64 * 1024};
  return std::nullopt;
}

namespace {

bool isFloat8(ScalarKind K) {
  return K == ScalarKind::F8E4M3 || K == ScalarKind::F8E5M2;
}

/// Threads an SM (a CU on AMD GPUs) holds at once, on every target.
constexpr unsigned MaxThreadsPerSM = 2048;

/// The kernel's launch bounds: its threads, and the programs an SM must
/// hold at once when more than one (CUDA's minimum blocks per
/// multiprocessor; on AMD GPUs, waves per SIMD, four SIMDs to a CU). A
/// kernel that moves registers with setmaxnreg (a producer's, CUDA only)
/// states the count even when it is one: without it ptxas may not tell
/// the registers a thread starts with and ignores every setmaxnreg
/// (warning C7508).
std::string launchBounds(unsigned Threads, unsigned MinPrograms,
                         bool SetsRegisters, const TargetDesc &Target) {
  std::string Bounds = "__launch_bounds__(" + std::to_string(Threads);
  if (MinPrograms <= 1 && !SetsRegisters)
    return Bounds + ")";
  if (Target.Back == Backend::CUDA)
    return Bounds + ", " + std::to_string(MinPrograms) + ")";
  unsigned WavesPerSimd =
      (MinPrograms * Threads + 4 * Target.WarpSize - 1) / (4 * Target.WarpSize);
  return Bounds + ") __attribute__((amdgpu_waves_per_eu(" +
         std::to_string(WavesPerSimd) + ")))";
}

/// Threads a CUDA program may have.
constexpr unsigned MaxThreadsPerProgram = 1024;

/// "2 programs of 384 threads", "one program of 1024 threads".
std::string programsOf(unsigned Programs, unsigned Threads) {
  return (Programs == 1 ? "one program"
                        : std::to_string(Programs) + " programs") +
         " of " + std::to_string(Threads) + " threads";
}

/// A warp-specialized program's registers per thread: the producer
/// warpgroup keeps few (setmaxnreg.dec), the consumers take what that
/// released (setmaxnreg.inc: at most 240, a multiple of 8). The pool is
/// what the program holds at entry, the launch bound's count (the SM's
/// share of MinPrograms programs per thread, a multiple of 8) for each
/// thread: an inc the producer's dec cannot cover never returns. The
/// launch bound then asks ptxas for no more at entry than the consumers
/// will have, holding more programs if need be. The producer keeps 40
/// (its address arithmetic without spills) unless that leaves the
/// consumers fewer than 128 (programs sharing an SM, or 16 consumer
/// warps), where every register counts: then 24, FlashAttention-3's.
ProducerPlan producerPlan(const WarpSpecialization &WS, unsigned ConsumerWarps,
                          unsigned MinPrograms) {
  ProducerPlan PP;
  PP.Loops = WS.Loops;
  PP.Enclosing = WS.Enclosing;
  PP.Slice = WS.ProducerSlice;
  for (const auto &[L, Box] : WS.OperandLoads)
    PP.OperandLoads.push_back(L);
  PP.ConsumerThreads = ConsumerWarps * 32;
  const unsigned Threads = PP.ConsumerThreads + ProducerPlan::Threads;
  for (PP.Programs = std::max(MinPrograms, 1u);; ++PP.Programs) {
    const unsigned AtEntry = registersAtEntry(Threads, PP.Programs);
    for (unsigned Producer : {40u, 24u}) {
      PP.ProducerRegs = Producer;
      PP.ConsumerRegs = std::min(
          240u, (AtEntry * Threads - ProducerPlan::Threads * Producer) /
                    PP.ConsumerThreads / 8 * 8);
      if (PP.ConsumerRegs >= 128)
        break;
    }
    if (AtEntry <= PP.ConsumerRegs)
      return PP;
  }
}

/// An error at the first op of F that touches an 8-bit float (pointers to
/// them included) where Target has no such type: ROCm's gfx90a. (CUDA
/// targets all have them; sm_80 multiplies them on fp16 tensor cores.)
std::optional<GenerateError> unsupportedOnTarget(const Function &F,
                                                 const TargetDesc &Target) {
  std::optional<GenerateError> Error;
  if (Target.Back != Backend::HIP)
    return Error;
  walk(F.body(), [&](const Op &O) {
    for (const Value *V : O.operands()) {
      const ElemType &E = V->type().Elem;
      ScalarKind K = E.isPointer() ? E.Pointee : E.Kind;
      if (!Error && isFloat8(K))
        Error = GenerateError{
            std::string("8-bit floats (tile::") +
                (K == ScalarKind::F8E4M3 ? "float8_e4m3" : "float8_e5m2") +
                ") are not supported on " + Target.Name,
            O.loc(), true};
    }
  });
  return Error;
}

/// The wrapper's run-time test for specialization S.
std::string condition(const Function &F, const Specialization &S) {
  std::string C;
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Param &P = F.Params[I];
    std::string Test;
    if (S.Specs[I] == ParamSpec::EqualsOne)
      Test = P.Name + " == 1";
    else if (S.Specs[I] == ParamSpec::Aligned16 &&
             P.Arg->type().Elem.isPointer())
      Test = "reinterpret_cast<std::uintptr_t>(" + P.Name + ") % 16 == 0";
    else if (S.Specs[I] == ParamSpec::Aligned16)
      Test = P.Name + " % 16 == 0";
    else
      continue;
    C += (C.empty() ? "" : " &&\n      ") + Test;
  }
  return C.empty() ? "true" : C;
}

/// The name of the wrapper's bool for S; empty for the generic variant.
std::string flagName(const Specialization &S) {
  return S.isGeneric() ? "" : "tilecc_" + S.Suffix;
}

/// One variant of a configuration: a specialization, maybe with its staged
/// loads copied by TMA.
struct VariantPlan {
  const Specialization *Spec;
  std::string Suffix, Description;
  std::string Guard; // the wrapper's test; empty: always
  TensorMapOps Tma;
  /// The variant without TMA of the TMA variant's specialization: compiled
  /// only below sm_90, where the TMA variant is not (one CUDA translation
  /// serves every arch a build names).
  bool Twin = false;
};

/// The staged loads of F's pipelines, and its stores of boxes, as TMA
/// copies for launches with the facts of S on Target; empty unless every
/// staged load can be one.
TensorMapOps tmaAccesses(const Function &F, const LayoutMap &LM,
                         const Pipelines &Plans, const Specialization &S,
                         const TargetDesc &Target) {
  TensorMapOps Maps;
  if (Target.MmaVersion < 3)
    return Maps;
  bool All = true;
  walk(F.body(), [&](const Op &O) {
    auto It = Plans.find(&O);
    if (It == Plans.end())
      return;
    // Thread-staged loads are cp.async copies only.
    if (!It->second.OwnLoads.empty())
      All = false;
    for (const Op *L : It->second.Loads) {
      auto A = matchTensorMap(*L);
      // The box's inner dimension must be the one the stage stores
      // contiguously, and a box has at most 256 rows.
      if (A && tensorMapUsable(*A, F, S.Specs) &&
          (LM.get(L->result()).fastestDim() == 0) == (A->InnerDim == 0) &&
          L->result()->type().Shape[A->outerDim()] <= 256)
        Maps.insert({L, *A});
      else
        All = false;
    }
  });
  if (!All)
    Maps.clear();
  if (Maps.empty())
    return Maps;
  // The TMA variant also stores row-major boxes through shared memory
  // outside pipelined loops, and adds them anywhere (each step of a loop
  // that accumulates into memory, as a fused attention backward's dQ).
  const UserMap Users = users(F.body());
  walk(F.body(), [&](const Op &O) {
    const Op *Parent = O.parentBlock()->parentOp();
    if (!storableByTma(O, Users) || O.operand(1)->type().rank() != 2 ||
        (O.kind() == OpKind::Store && Parent && Plans.count(Parent)))
      return;
    auto A = matchTensorMap(O);
    if (A && A->InnerDim == 1 && tensorMapUsable(*A, F, S.Specs) &&
        O.operand(1)->type().Shape[0] <= 256)
      Maps.insert({&O, *A});
  });
  return Maps;
}

/// The wrapper's test for a TMA variant of S: S's, and the tensors'
/// parameter bounds and row strides positive (a map has neither empty nor
/// reversed dimensions). The variant's launch itself says whether it can
/// run here.
std::string tmaGuard(const Function &F, const Specialization &S,
                     const TensorMapOps &Maps) {
  std::string G = flagName(S);
  llvm::SmallVector<unsigned, 4> Positive;
  auto Add = [&](const Value *V) {
    if (auto I = paramIndex(F, V); I && !is_contained(Positive, *I))
      Positive.push_back(*I);
  };
  for (const auto &[L, A] : Maps) {
    for (const TensorMapAxis &Axis : A.Axes)
      Add(Axis.Bound);
    Add(A.Axes[A.outerDim()].Stride);
  }
  for (unsigned I : Positive)
    G += (G.empty() ? "" : " && ") + F.Params[I].Name + " > 0";
  return G;
}

/// The variants of one configuration, most specialized first: a TMA
/// variant, where the staged loads of F can be copied by TMA, then one per
/// specialization that Assume leaves (the configuration's assumption, or
/// the most specialized there is when it assumes more). The TMA variant
/// takes the facts of the most specialized variant they suffice for (a
/// unit stride may be a row stride too); the variant of the same facts
/// without TMA is its twin.
std::vector<VariantPlan> planVariants(const Function &F, const LayoutMap &LM,
                                      const Pipelines &Plans,
                                      llvm::ArrayRef<Specialization> Specs,
                                      Assumption Assume,
                                      const TargetDesc &Target) {
  const Assumption Floor = std::min(Assume, Specs.front().Assumes);
  std::vector<VariantPlan> Out;
  for (const Specialization &S : Specs)
    if (S.Assumes < Floor)
      continue;
    else if (TensorMapOps Maps = tmaAccesses(F, LM, Plans, S, Target);
             !Maps.empty()) {
      std::string Guard = tmaGuard(F, S, Maps);
      Out.push_back({&S, S.Suffix + "_tma",
                     S.Description +
                         "; staged loads copied by TMA (built for sm_90 on; "
                         "runs where bounds and row strides are positive)",
                     Guard, std::move(Maps)});
      break;
    }
  for (const Specialization &S : Specs) {
    if (S.Assumes < Floor)
      continue;
    VariantPlan VP{&S, S.Suffix, S.Description, flagName(S), {}};
    VP.Twin =
        !Out.empty() && !Out.front().Tma.empty() && Out.front().Spec == &S;
    if (VP.Twin)
      VP.Description += "; built below sm_90 only (from sm_90 on, the TMA "
                        "variant runs, or where it cannot, the next one)";
    Out.push_back(std::move(VP));
  }
  return Out;
}

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

std::string dimsList(llvm::ArrayRef<unsigned> V) {
  std::string S = "rt::dims{";
  for (unsigned I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S + "}";
}

std::string shapeList(llvm::ArrayRef<int64_t> V) {
  std::string S;
  for (unsigned I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S;
}

std::string blockedSpelling(const BlockedLayout &B,
                            llvm::ArrayRef<int64_t> Shape) {
  std::string Tail;
  if (!B.WarpOrder.empty())
    Tail = ", " + dimsList(B.WarpOrder);
  if (!B.WarpReps.empty() || !Tail.empty()) {
    llvm::SmallVector<unsigned, 2> Reps(B.rank(), 1);
    for (unsigned D = 0; D < B.rank(); ++D)
      Reps[D] = B.warpReps(D);
    Tail = ", " + dimsList(Reps) + Tail;
  }
  return "rt::blocked<rt::dims{" + shapeList(Shape) + "}, " +
         dimsList(B.SizePerThread) + ", " + dimsList(B.ThreadsPerWarp) + ", " +
         dimsList(B.WarpsPerCTA) + ", " + dimsList(B.Order) + Tail + ">";
}

/// Collects the layout aliases a kernel file declares.
class LayoutTable {
public:
  std::string name(const Layout &L, llvm::ArrayRef<int64_t> Shape) {
    std::string Key = L.str() + " over [" + shapeList(Shape) + "]";
    auto It = Index.find(Key);
    if (It != Index.end())
      return Entries[It->second]["name"];
    std::string Name = "L" + std::to_string(Entries.size());
    std::string Spelling =
        L.SliceDim ? "rt::sliced<" + std::to_string(*L.SliceDim) + ", " +
                         blockedSpelling(L.Parent, parentShape(L, Shape)) + ">"
                   : blockedSpelling(L.Parent, Shape);
    Index[Key] = Entries.size();
    Entries.push_back({{"name", Name},
                       {"description", L.str()},
                       {"shape", shapeList(Shape)},
                       {"spelling", Spelling}});
    return Name;
  }
  json entries() const { return Entries; }

private:
  llvm::StringMap<size_t> Index;
  std::vector<json> Entries;
};

/// The variants of K, one set for all its configurations.
std::vector<Specialization> kernelSpecializations(const frontend::Kernel &K) {
  std::vector<const Function *> Fns;
  for (const frontend::KernelInstance &Inst : K.Instances)
    Fns.push_back(Inst.Fn.get());
  return specializations(Fns);
}

std::string metaText(const frontend::Kernel &K, const frontend::Config &C) {
  std::string S;
  for (unsigned I = 0; I < K.MetaNames.size() && I < C.Meta.size(); ++I)
    S += (I ? ", " : "") + K.MetaNames[I] + "=" + std::to_string(C.Meta[I]);
  return S.empty() ? "no meta-parameters" : S;
}

std::string hostParams(const Function &F, bool Leading) {
  std::string S;
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Param &P = F.Params[I];
    std::string T = P.CxxType;
    S += (I || Leading ? ", " : "") + T + (T.back() == '*' ? "" : " ") + P.Name;
  }
  return S;
}

std::string argNames(const Function &F, bool Leading) {
  std::string S;
  for (unsigned I = 0; I < F.Params.size(); ++I)
    S += (I || Leading ? ", " : "") + F.Params[I].Name;
  return S;
}

/// Arguments of the <<<>>> launch: pointers to tile::half, tile::bfloat16
/// and the 8-bit floats become pointers to the device types of the same
/// layout, and pointers to 64-bit integers to int64_t/uint64_t (long long
/// and long are distinct types of one layout); scalars of those floats are
/// copied bit for bit into the device types.
std::string launchArgs(const Function &F) {
  const auto NarrowFloat = {ScalarKind::F8E4M3, ScalarKind::F8E5M2,
                            ScalarKind::F16, ScalarKind::BF16};
  std::string S;
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Param &P = F.Params[I];
    const ElemType &E = P.Arg->type().Elem;
    std::string A = P.Name;
    if (E.isPointer() &&
        (llvm::is_contained(NarrowFloat, E.Pointee) ||
         E.Pointee == ScalarKind::I64 || E.Pointee == ScalarKind::U64))
      A = "reinterpret_cast<" + deviceType(E) + ">(" + A + ")";
    else if (!E.isPointer() && llvm::is_contained(NarrowFloat, E.Kind))
      A = "rt::same_bits<" + deviceType(E) + ">(" + A + ")";
    S += (I ? ", " : "") + A;
  }
  return S;
}

} // namespace

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

std::optional<std::vector<GeneratedFile>> generate(frontend::Kernel &K,
                                                   const GenerateOptions &Opts,
                                                   GenerateError &Error) {
  bool Hip = Opts.Target.Back == Backend::HIP;
  std::string KernelExt = Hip ? "hip" : "cu";
  json Common = {
      {"version", Opts.Version},
      {"source", Opts.SourcePath},
      {"target", Opts.Target.Name},
      {"kernel", K.Name},
      {"qualified", K.QualifiedName},
      {"kernel_ext", KernelExt},
      {"runtime_header", Hip ? "hip/hip_runtime.h" : "cuda_runtime.h"},
      {"err_t", Hip ? "hipError_t" : "cudaError_t"},
      {"stream_t", Hip ? "hipStream_t" : "cudaStream_t"},
      {"get_last_error", Hip ? "hipGetLastError" : "cudaGetLastError"},
      {"success", Hip ? "hipSuccess" : "cudaSuccess"},
      {"invalid_value", Hip ? "hipErrorInvalidValue" : "cudaErrorInvalidValue"},
      {"not_supported", Hip ? "hipErrorNotSupported" : "cudaErrorNotSupported"},
  };
  const Function &F0 = *K.Instances.front().Fn;
  if (auto Unsupported = unsupportedOnTarget(F0, Opts.Target)) {
    Error = *Unsupported;
    return std::nullopt;
  }
  std::vector<Specialization> Specs = kernelSpecializations(K);

  LayoutTable Layouts;
  json Variants = json::array(), Configs = json::array(),
       Metadata = json::array();
  std::vector<ShardGroup> Groups;
  for (unsigned C = 0; C < K.Instances.size(); ++C) {
    frontend::KernelInstance &Inst = K.Instances[C];
    Function &F = *Inst.Fn;
    unsigned Threads = Inst.Cfg.NumWarps * Opts.Target.WarpSize;
    // Launches overlap from sm_90 on; elsewhere launch_pdl changes nothing.
    const bool DependentLaunch = Inst.Cfg.LaunchPdl &&
                                 Opts.Target.Back == Backend::CUDA &&
                                 Opts.Target.MmaVersion == 3;
    if (DependentLaunch)
      transforms::waitForPriorGridAtEntry(F);
    if (Inst.Cfg.MinProgramsPerSM * Threads > MaxThreadsPerSM) {
      Error = {
          "min_programs_per_sm = " + std::to_string(Inst.Cfg.MinProgramsPerSM) +
              " programs of " + std::to_string(Threads) +
              " threads (configuration " + std::to_string(C) +
              ") are more than the " + std::to_string(MaxThreadsPerSM) +
              " threads an SM of " + Opts.Target.Name + " holds",
          K.Loc};
      return std::nullopt;
    }
    // One set of layouts serves all variants (they share the function), made
    // for the most specialized one, which is the fast path; each variant's
    // access widths follow its own axis info.
    AxisInfoAnalysis Best(F, Specs.front().Specs);
    LayoutMap LM =
        assignLayouts(F, Best, Inst.Cfg.NumWarps,
                      {Opts.Target.WarpSize, Opts.Target.MmaVersion});
    const unsigned AtEntry =
        registersAtEntry(Threads, Inst.Cfg.MinProgramsPerSM);
    Pipelines Plans =
        planPipelines(F, LM, Inst.Cfg.NumStages, Threads,
                      {.AsyncCopies = Opts.Target.Back == Backend::CUDA,
                       .Wgmma = Opts.Target.MmaVersion == 3,
                       .Registers = AtEntry});
    const WidestWgmma Wgmma =
        Opts.Target.MmaVersion == 3 ? widestWgmma(F, LM, Plans) : WidestWgmma();
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
    std::vector<VariantPlan> VariantPlans =
        planVariants(F, LM, Plans, Specs,
                     std::max(Inst.Cfg.Assume, Opts.Assume), Opts.Target);
    std::vector<BuiltVariant> Built;
    for (VariantPlan &VP : VariantPlans) {
      const Specialization &S = *VP.Spec;
      AxisInfoAnalysis AI(F, S.Specs);
      // Only variants with TMA copies can have a producer warpgroup.
      ProducerPlan Producer;
      std::string Described = VP.Description;
      if (DependentLaunch)
        Described += "; launched early (programmatic dependent launch)";
      size_t OperandsDescribed = 0;
      if (Inst.Cfg.WarpSpecialize && !VP.Tma.empty()) {
        WarpSpecialization WS =
            planWarpSpecialization(F, LM, Plans, VP.Tma, S.Specs);
        const unsigned WithProducer = Threads + ProducerPlan::Threads;
        if (!WS.Loops.empty() && WithProducer > MaxThreadsPerProgram)
          WS = {{},
                {},
                {},
                {},
                "a program of " + std::to_string(WithProducer) +
                    " threads is more than CUDA launches"};
        if (!WS.Loops.empty())
          Producer =
              producerPlan(WS, Inst.Cfg.NumWarps, Inst.Cfg.MinProgramsPerSM);
        if (Producer.Programs * WithProducer > MaxThreadsPerSM) {
          Producer = ProducerPlan();
          WS.WhyNot = std::to_string(Inst.Cfg.MinProgramsPerSM) +
                      " programs of " + std::to_string(WithProducer) +
                      " threads do not fit an SM";
        } else if (Producer.active()) {
          // The A operands the producer copies are read from shared memory.
          const WidestWgmma Fed =
              widestWgmma(F, LM, Plans, Producer.OperandLoads);
          const unsigned FedAtEntry =
              registersAtEntry(WithProducer, Producer.Programs);
          if (Fed.Registers > FedAtEntry) {
            WS.WhyNot = programsOf(Producer.Programs, WithProducer) +
                        " an SM start each thread with " +
                        std::to_string(FedAtEntry) + " registers, and " +
                        Fed.describe() + " needs " +
                        std::to_string(Fed.Registers) + " (ptxas)";
            Producer = ProducerPlan();
          }
        }
        if (Producer.active()) {
          unsigned First = Inst.Cfg.NumWarps;
          // Ops of a function called twice share their line.
          auto AtLines = [](llvm::ArrayRef<const Op *> Ops) {
            std::vector<unsigned> Lines;
            for (const Op *O : Ops)
              if (!llvm::is_contained(Lines, O->loc().Line))
                Lines.push_back(O->loc().Line);
            std::string Where = Lines.size() > 1 ? "lines " : "line ";
            for (unsigned I = 0; I < Lines.size(); ++I)
              Where += (I ? ", " : "") + std::to_string(Lines[I]);
            return Where;
          };
          Described += "; warp-specialized: warps " + std::to_string(First) +
                       "-" + std::to_string(First + 3) +
                       " issue the copies of the loop" +
                       (Producer.Loops.size() > 1 ? "s" : "") + " at " +
                       AtLines(Producer.Loops) + " (setmaxnreg " +
                       std::to_string(Producer.ProducerRegs) + " / " +
                       std::to_string(Producer.ConsumerRegs) + ")";
          // The A operands it copies are TMA loads of the variant too.
          for (const auto &[L, Box] : WS.OperandLoads)
            VP.Tma.insert({L, Box});
          if (!Producer.OperandLoads.empty())
            Described += std::string(", and the dots' A operand") +
                         (Producer.OperandLoads.size() > 1 ? "s" : "") +
                         " loaded at " + AtLines(Producer.OperandLoads);
          OperandsDescribed = Described.size();
          if (llvm::any_of(Producer.OperandLoads,
                           [](const Op *L) { return ir::enclosingFor(*L); }))
            Producer.OperandSlots = 2;
          if (Inst.Cfg.PingPong) {
            Producer.MmaTurns = Inst.Cfg.NumWarps / 4;
            Described += "; warpgroups 0-" +
                         std::to_string(Producer.MmaTurns - 1) +
                         " take turns issuing the loops' tensor-core products";
          } else {
            // Taking turns orders the issue of products waited for at
            // once; a rotated loop leaves one in flight instead.
            std::string NotRotated;
            Producer.Rotated = planRotations(Producer.Loops, Plans, LM,
                                             Producer.ConsumerRegs, NotRotated);
            if (!Producer.Rotated.empty())
              Described += "; rotated: each iteration issues its first dot, "
                           "then the previous iteration's last";
            else if (!NotRotated.empty())
              Described += "; " + NotRotated;
          }
        } else {
          Described += "; not warp-specialized: " + WS.WhyNot;
        }
      }
      const unsigned VariantThreads =
          Threads + (Producer.active() ? ProducerPlan::Threads : 0);
      bool DynamicScratch = false;
      const Pipelines *Emitted = &Plans;
      Pipelines WithoutResidentB;
      auto Emit = [&] {
        return emitKernel(
            F, LM, AI, *Emitted, VP.Tma,
            [&](const Layout &L, llvm::ArrayRef<int64_t> Shape) {
              return Layouts.name(L, Shape);
            },
            Opts.SourcePath, Producer, DynamicScratch);
      };
      auto SharedBytes = [](const EmittedKernel &E) {
        return E.DynamicSharedBytes + E.StaticSharedBytes;
      };
      EmittedKernel E = Emit();
      // Without room for loop-invariant B operands kept in shared memory,
      // each iteration's dot stages them again.
      auto KeepsB = [](const auto &L) { return !L.second.ResidentB.empty(); };
      if (SharedBytes(E) > Opts.Target.MaxSharedBytes &&
          llvm::any_of(Plans, KeepsB)) {
        WithoutResidentB = Plans;
        for (auto &L : WithoutResidentB)
          L.second.ResidentB.clear();
        Emitted = &WithoutResidentB;
        E = Emit();
      }
      // Past what may be declared static, the scratch buffer moves to
      // dynamic shared memory, which the launch asks for (where a target
      // allows more of it).
      if (E.StaticSharedBytes > Opts.Target.MaxStaticSharedBytes &&
          Opts.Target.MaxStaticSharedBytes < Opts.Target.MaxSharedBytes &&
          E.ScratchBytes) {
        DynamicScratch = true;
        E = Emit();
      }
      // Without room for a second buffer of each copied A operand, the
      // producer waits for the consumers to release the one.
      if (SharedBytes(E) > Opts.Target.MaxSharedBytes &&
          Producer.OperandSlots > 1) {
        Producer.OperandSlots = 1;
        E = Emit();
      }
      if (Producer.OperandSlots > 1)
        Described.insert(OperandsDescribed, " (two buffers, taken in turn)");
      // Without room for the buffers of its TMA stores, a variant stores
      // as the others do.
      auto WritesBox = [](const auto &M) { return writesBox(*M.first); };
      if (SharedBytes(E) > Opts.Target.MaxSharedBytes &&
          llvm::any_of(VP.Tma, WritesBox)) {
        VP.Tma.remove_if(WritesBox);
        E = Emit();
      }
      if (SharedBytes(E) > Opts.Target.MaxSharedBytes) {
        std::string Scratch =
            E.ScratchBytes ? ", " + std::to_string(E.ScratchBytes) +
                                 " of them for layout conversions, transposes "
                                 "and dots"
                           : "";
        // Without a pipeline, the kernel's own buffers are too many.
        const bool Pipelined = E.PipelineStages > 0;
        Error = {(Pipelined ? "a loop software-pipelined with num_stages = " +
                                  std::to_string(E.PipelineStages) + " needs "
                            : std::string("the kernel needs ")) +
                     std::to_string(SharedBytes(E)) +
                     " bytes of shared memory (configuration " +
                     std::to_string(C) + Scratch + "), more than the " +
                     std::to_string(Opts.Target.MaxSharedBytes) + " " +
                     Opts.Target.Name + " allows: use " +
                     (Pipelined ? "fewer stages or " : "") + "smaller tiles",
                 Pipelined        ? E.PipelineLoc
                 : E.ScratchBytes ? E.ScratchLoc
                                  : K.Loc,
                 true};
        return std::nullopt;
      }
      if (E.StaticSharedBytes > Opts.Target.MaxStaticSharedBytes) {
        Error = {"the kernel's reductions and scans across warps need " +
                     std::to_string(E.StaticSharedBytes) +
                     " bytes of static shared memory (configuration " +
                     std::to_string(C) + "), more than the " +
                     std::to_string(Opts.Target.MaxStaticSharedBytes) + " " +
                     Opts.Target.Name +
                     " allows: use smaller tiles or fewer warps",
                 E.PartialsLoc, true};
        return std::nullopt;
      }
      const unsigned Programs =
          Producer.active() ? Producer.Programs : Inst.Cfg.MinProgramsPerSM;
      Built.push_back({&VP, K.Name + "_c" + std::to_string(C) + "_" + VP.Suffix,
                       std::move(E), std::move(Described), VariantThreads,
                       launchBounds(VariantThreads, Programs, Producer.active(),
                                    Opts.Target),
                       Producer.active(), Producer.MmaTurns > 0});
    }
    // A variant whose kernel is the same as a less specialized one's is
    // not emitted: its launches run that one (correct for its arguments
    // too, being the same code).
    for (unsigned I = 0; I < Built.size(); ++I)
      for (unsigned J = I + 1; J < Built.size() && Built[I].SameAs.empty(); ++J)
        if (Built[J].SameAs.empty() && Built[I].sameKernel(Built[J]))
          Built[I].SameAs = Built[J].Name;
    // Where the fast variant is a TMA one, the grid rule's occupancy is its
    // own on sm_90 on, and elsewhere that of the variant its twin runs.
    std::vector<std::string> Occupancy = {Built[0].launched()};
    const auto Twin = llvm::find_if(
        Built, [](const BuiltVariant &B) { return B.Plan->Twin; });
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
      Groups.push_back(std::move(G));
    }
    json OccupancyNames = json::array();
    for (const std::string &Name : Occupancy)
      OccupancyNames.push_back({{"name", Name}});
    json ConfigVariants = json::array();
    for (unsigned I = 0; I < Built.size(); ++I) {
      const BuiltVariant &B = Built[I];
      const VariantPlan &VP = *B.Plan;
      const Specialization &S = *VP.Spec;
      const bool Declines = !VP.Tma.empty() || (VP.Twin && B.SameAs.empty());
      // An entry is left out where the next one launches the same kernel
      // for any arguments.
      const bool Redundant = !B.SameAs.empty() && I + 1 < Built.size() &&
                             Built[I + 1].launched() == B.SameAs &&
                             Built[I + 1].Plan->Guard.empty();
      if (!Redundant)
        ConfigVariants.push_back({{"name", B.launched()},
                                  {"guard", VP.Guard},
                                  {"declines", Declines},
                                  {"call_args", argNames(F, true)}});
      if (!B.SameAs.empty())
        continue;
      const EmittedKernel &E = B.E;
      json Tiles = json::array(), Accesses = json::array();
      for (const std::string &T : E.TileComments)
        Tiles.push_back({{"line", T}});
      for (const std::string &A : E.Accesses)
        Accesses.push_back({{"line", A}});
      json Maps = json::array();
      std::string MapArgs;
      for (const auto &M : E.TensorMaps) {
        Maps.push_back({{"name", M.Name},
                        {"stage", M.Stage},
                        {"base", M.Base},
                        {"inner", M.Inner},
                        {"outer", M.Outer},
                        {"row_stride", M.RowStride},
                        {"batch_stride", M.BatchStride},
                        {"adds", M.Adds}});
        MapArgs += ", " + M.Name;
      }
      const std::string LaunchArgs = launchArgs(F) + MapArgs;
      std::string Described = B.Described;
      for (const BuiltVariant &Other : Built)
        if (Other.SameAs == B.Name)
          Described += "; also the kernel of " + Other.Plan->Suffix +
                       " launches (the same code)";
      Variants.push_back(
          {{"name", B.Name},
           {"meta", metaText(K, Inst.Cfg)},
           {"num_warps", Inst.Cfg.NumWarps},
           {"threads", B.Threads},
           {"launch_bounds", B.LaunchBounds},
           {"smem_bytes", E.DynamicSharedBytes},
           {"dynamic_smem", E.DynamicSharedBytes > 0},
           {"specialization", Described},
           {"tensor_maps", Maps},
           {"tma", !VP.Tma.empty()},
           {"twin", VP.Twin},
           {"arch_only", !VP.Tma.empty() || VP.Twin},
           {"occupancy", llvm::is_contained(Occupancy, B.Name)},
           {"tiles", Tiles},
           {"accesses", Accesses},
           {"device_params", E.Params},
           {"body", E.Body},
           {"host_params", hostParams(F, true)},
           {"dependent_launch", DependentLaunch},
           {"launch_args", LaunchArgs},
           {"kernel_and_args",
            B.Name + (LaunchArgs.empty() ? "" : ", " + LaunchArgs)}});
      json Spec = json::object();
      for (unsigned I = 0; I < F.Params.size(); ++I)
        Spec[F.Params[I].Name] =
            S.Specs[I] == ParamSpec::Aligned16   ? "aligned16"
            : S.Specs[I] == ParamSpec::EqualsOne ? "equals1"
                                                 : "none";
      json Access = json::array();
      for (const std::string &A : E.Accesses)
        Access.push_back(A);
      Metadata.push_back({{"name", B.Name},
                          {"config", C},
                          {"num_warps", Inst.Cfg.NumWarps},
                          {"threads", B.Threads},
                          {"warp_specialized", B.WarpSpecialized},
                          {"pingpong", B.PingPong},
                          {"specialization", Spec},
                          {"tma", !VP.Tma.empty()},
                          {"built_for", !VP.Tma.empty() ? "sm_90 on"
                                        : VP.Twin       ? "below sm_90"
                                                        : "every arch"},
                          {"accesses", Access},
                          {"tiles", E.TileComments},
                          {"resources", json::object()}});
    }
    json Meta = json::object();
    for (unsigned I = 0; I < K.MetaNames.size() && I < Inst.Cfg.Meta.size();
         ++I)
      Meta[K.MetaNames[I]] = Inst.Cfg.Meta[I];
    Configs.push_back({{"index", C},
                       {"meta", metaText(K, Inst.Cfg)},
                       {"meta_values", Meta},
                       {"num_warps", Inst.Cfg.NumWarps},
                       {"num_stages", Inst.Cfg.NumStages},
                       {"grid_params", Inst.GridParams},
                       {"grid_body", Inst.GridBody},
                       {"select_params", Inst.SelectParams},
                       {"select_body", Inst.SelectBody},
                       {"args", argNames(F, false)},
                       {"occupancy", OccupancyNames},
                       {"variants", ConfigVariants}});
  }

  std::string KernelFile = K.Name + "." + KernelExt;
  if (Opts.Shards) {
    // The largest first: they are the hardest to balance.
    llvm::stable_sort(Groups, [](const ShardGroup &A, const ShardGroup &B) {
      return std::max(A.WithTma, A.WithoutTma) >
             std::max(B.WithTma, B.WithoutTma);
    });
    llvm::StringMap<unsigned> ShardOf;
    for (const ShardGroup &G : Groups) {
      unsigned Shard = Opts.Shards->place(KernelFile, G.WithTma, G.WithoutTma);
      for (const std::string &Name : G.Names)
        ShardOf[Name] = Shard;
    }
    // Variants of one shard in a row share its #if.
    for (size_t I = 0; I < Variants.size(); ++I) {
      json &V = Variants[I];
      V["shard"] = ShardOf.lookup(V["name"].get<std::string>());
      V["shards"] = Opts.Shards->count();
      V["shard_opens"] = I == 0 || Variants[I - 1]["shard"] != V["shard"];
      if (I > 0)
        Variants[I - 1]["shard_closes"] = V["shard_opens"];
    }
    if (!Variants.empty())
      Variants.back()["shard_closes"] = true;
  }

  // The flags some configuration's variants test.
  auto Tested = [&](const Specialization &S) {
    for (const json &C : Configs)
      for (const json &V : C["variants"])
        if (V["guard"].get<std::string>().find(flagName(S)) !=
            std::string::npos)
          return true;
    return false;
  };
  json SpecFlags = json::array();
  for (const Specialization &S : Specs)
    if (!S.isGeneric() && Tested(S))
      SpecFlags.push_back({{"name", flagName(S)},
                           {"description", S.Description},
                           {"condition", condition(F0, S)}});

  json Data = Common;
  Data["layouts"] = Layouts.entries();
  Data["variants"] = Variants;
  Data["configs"] = Configs;
  // The rules' bodies are printed by Clang, not laid out by the templates.
  for (json &C : Data["configs"])
    for (const char *Body : {"grid_body", "select_body"})
      C[Body] = markForFormatting(C[Body].get<std::string>());
  Data["num_configs"] = K.Instances.size();
  Data["specializations"] = SpecFlags;
  Data["params"] = hostParams(F0, false);
  Data["has_select"] = !K.Instances.front().SelectBody.empty();
  Data["args0"] = argNames(F0, false);

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
  json Meta = {
      {"tilecc_version", Opts.Version},
      {"source", Opts.SourcePath},
      {"target", Opts.Target.Name},
      {"kernel", K.QualifiedName},
      {"files", {KernelFile, K.Name + ".launch.h", K.Name + ".launch.cpp"}},
      {"configs", Configs},
      {"variants", Metadata},
      {"layouts", Layouts.entries()}};
  for (auto &C : Meta["configs"]) {
    C.erase("variants");
    C.erase("args");
    C.erase("select_params");
    C.erase("grid_params");
    C.erase("occupancy");
  }
  Files.push_back({K.Name + ".json", Meta.dump(2) + "\n"});
  if (!Error.Message.empty())
    return std::nullopt;
  return Files;
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
    LayoutMap LM = assignLayouts(F, AxisInfoAnalysis(F, Specs.front().Specs),
                                 K.Instances[C].Cfg.NumWarps,
                                 {Target.WarpSize, Target.MmaVersion});
    // Layout assignment adds convert_layout ops: their axis info too.
    AxisInfoAnalysis AI(F, Specs.front().Specs);
    OS << "// " << K.QualifiedName << " configuration " << C << ": "
       << metaText(K, K.Instances[C].Cfg)
       << " num_warps=" << K.Instances[C].Cfg.NumWarps << " on " << Target.Name
       << " (aligned16 axis info)\n";
    print(F, OS, [&](const Value &V) -> std::string {
      if (V.type().isScalar())
        return "";
      return LM.get(&V).str() + " {" + AI.get(&V).str() + "}";
    });
  }
  return S;
}

} // namespace tilecc::codegen
