//===- VariantPlanning.cpp - Which variants a configuration has -----------===//
#include "codegen/VariantPlanning.h"
#include "analysis/DotRotation.h"
#include "analysis/EntryRegisters.h"
#include "analysis/WarpSpecialization.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

namespace {

bool isFloat8(ScalarKind K) {
  return K == ScalarKind::F8E4M3 || K == ScalarKind::F8E5M2;
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
    G += (G.empty() ? "" : " && ") + F.Params[I].Host + " > 0";
  return G;
}

} // namespace

std::vector<Specialization> kernelSpecializations(const frontend::Kernel &K) {
  std::vector<const Function *> Fns;
  std::vector<unsigned> Threads;
  for (const frontend::KernelInstance &Inst : K.Instances) {
    Fns.push_back(Inst.Fn.get());
    // 32 lanes a warp: the fewest, so that a tile counts as small only
    // where it is on every target.
    Threads.push_back(unsigned(Inst.Cfg.NumWarps) * 32);
  }
  return specializations(Fns, Threads);
}

std::optional<GenerateError> unsupportedOnTarget(const Function &F,
                                                 const TargetDesc &Target) {
  std::optional<GenerateError> Error;
  if (Target.Back != Backend::HIP)
    return Error;
  walk(F.body(), [&](const Op &O) {
    if (!Error && O.kind() == OpKind::InlineAsm)
      Error = GenerateError{"inline_asm_elementwise's text is PTX, which " +
                                Target.Name + " does not run",
                            O.loc(), true};
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

std::string flagName(const Specialization &S) {
  return S.isGeneric() ? "" : "tilecc_" + S.Suffix;
}

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

std::string programsOf(unsigned Programs, unsigned Threads) {
  return (Programs == 1 ? "one program"
                        : std::to_string(Programs) + " programs") +
         " of " + std::to_string(Threads) + " threads";
}

ProducerPlan planProducer(const Function &F, const LayoutMap &LM,
                          const Pipelines &Plans, VariantPlan &VP,
                          const frontend::Config &Cfg, unsigned Threads,
                          const TargetDesc &Target, std::string &Described,
                          size_t &OperandsDescribed) {
  ProducerPlan Producer;
  if (!Cfg.WarpSpecialize || VP.Tma.empty())
    return Producer;
  WarpSpecialization WS =
      planWarpSpecialization(F, LM, Plans, VP.Tma, VP.Spec->Specs);
  const unsigned WithProducer = Threads + ProducerPlan::Threads;
  if (!WS.Loops.empty() && WithProducer > Target.MaxThreadsPerProgram)
    WS = {{},
          {},
          {},
          {},
          "a program of " + std::to_string(WithProducer) +
              " threads is more than CUDA launches"};
  if (!WS.Loops.empty())
    Producer = producerPlan(WS, Cfg.NumWarps, Cfg.MinProgramsPerSM);
  if (Producer.Programs * WithProducer > Target.MaxThreadsPerSM) {
    Producer = ProducerPlan();
    WS.WhyNot = std::to_string(Cfg.MinProgramsPerSM) + " programs of " +
                std::to_string(WithProducer) + " threads do not fit an SM";
  } else if (Producer.active()) {
    // The A operands the producer copies are read from shared memory.
    const WidestWgmma Fed = widestWgmma(F, LM, Plans, Producer.OperandLoads);
    const unsigned FedAtEntry =
        registersAtEntry(WithProducer, Producer.Programs);
    if (Fed.Registers > FedAtEntry) {
      WS.WhyNot = programsOf(Producer.Programs, WithProducer) +
                  " an SM start each thread with " +
                  std::to_string(FedAtEntry) + " registers, and " +
                  Fed.describe() + " needs " + std::to_string(Fed.Registers) +
                  " (ptxas)";
      Producer = ProducerPlan();
    }
  }
  if (Producer.active()) {
    unsigned First = Cfg.NumWarps;
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
    Described += "; warp-specialized: warps " + std::to_string(First) + "-" +
                 std::to_string(First + 3) + " issue the copies of the loop" +
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
    if (Cfg.PingPong) {
      Producer.MmaTurns = Cfg.NumWarps / 4;
      Described += "; warpgroups 0-" + std::to_string(Producer.MmaTurns - 1) +
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
  return Producer;
}

} // namespace tilecc::codegen
