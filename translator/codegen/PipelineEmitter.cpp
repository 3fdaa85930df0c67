//===- PipelineEmitter.cpp - Software-pipelined loops in device code ------===//
//
// Carries out analysis::planPipelines' plans: the stage rings in dynamic
// shared memory, the prologue and per-iteration prefetches (cp.async copies,
// thread-staged or into swizzled operand tiles, or TMA boxes with an
// mbarrier per stage, maybe flattened across the enclosing loop), the waits,
// and the dots that read the current stage.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

//===--- Software pipelining --------------------------------------------===//

bool KernelEmitter::storedTransposed(const Op &L) {
  return LM.get(L.result()).fastestDim() == 0;
}

std::string KernelEmitter::smemTileType(const Type &T, bool Swap) {
  return "rt::smem_tile<" + deviceType(T.Elem) + ", " +
         std::to_string(T.Shape[Swap ? 1 : 0]) + ", " +
         std::to_string(T.Shape[Swap ? 0 : 1]) + ">";
}

std::string KernelEmitter::stageType(const Op &L) {
  bool IsStore = writesBox(L);
  const Type &T = IsStore ? L.operand(1)->type() : L.result()->type();
  return smemTileType(T, !IsStore && storedTransposed(L));
}

std::string KernelEmitter::stageTile(const Op &L, const std::string &S) {
  auto &[Type, Ring] = Rings[&L];
  return Type + "{" + Ring + " + " + S + " * " + Type + "::elems}";
}

void KernelEmitter::emitStagedCopy(const PipelinedLoop &P, const Op &L,
                                   const std::string &S,
                                   const std::string &Live) {
  const Value *R = L.result();
  const bool Own = llvm::is_contained(P.OwnLoads, &L);
  const std::string Width = std::to_string(accessWidth(L));
  std::string Tile = fresh(nameOf(R) + "_dst");
  line("const auto " + Tile + " = " + stageTile(L, S) + ";");
  line("#pragma unroll");
  line(loopHeader(elems(R), accessWidth(L)));
  if (!Own)
    line("if (" + layoutOf(R) + "::owns(e))", 1);
  std::string Slot =
      Own ? Width
          : layoutOf(R) + ", " + (storedTransposed(L) ? "true" : "false");
  bool Async = accessWidth(L) * storageBytes(R->type().Elem.Kind) >= 4;
  line(std::string(Async ? "rt::cp_async_v<" : "rt::copy_v<") + Width + ">(" +
           Tile + ".template at<" + Slot + ">(e), " + elem(L.operand(0), "e") +
           ", " + Live + (L.mask() ? " && " + maskExpr(L, "e") : "") + ");",
       Own ? 1 : 2);
}

void KernelEmitter::emitOwnStagedRead(const Op &L) {
  const Value *R = L.result();
  unsigned W = accessWidth(L);
  Accesses.push_back("load " + nameOf(R) + ": v" + std::to_string(W) +
                     ", staged by its own threads");
  declareTile(R);
  std::string Tile = fresh(nameOf(R) + "_src");
  std::string Width = std::to_string(W);
  line("const auto " + Tile + " = " + stageTile(L, StageExpr) + ";");
  line("#pragma unroll");
  line(loopHeader(elems(R), W));
  std::string Other =
      L.other() ? elem(L.other(), "e") : deviceType(R->type().Elem) + "(0)";
  line("rt::ld_shared_v" + Width + "(&" + nameOf(R) + "[e], " + Tile +
           ".template at<" + Width + ">(e), " + maskExpr(L, "e") + ", " +
           Other + ");",
       1);
}

void KernelEmitter::emitPrefetch(const Op &Loop, const PipelinedLoop &P,
                                 const std::string &Iv,
                                 const std::string &Ahead,
                                 const std::string &S) {
  if (byTma(P, Tma))
    return emitTmaPrefetch(Loop, P, Iv, S);
  const Value *IV = Loop.region(0)->argument(0);
  line("{");
  {
    Nested InBlock(*this);
    line(constDecl(IV) + " = " + Iv + ";");
    std::string Live = fresh("live");
    line("const bool " + Live + " = " +
         (P.ConstantStep ? "" : scalar(Loop.operand(2)) + " > 0 && ") +
         nameOf(IV) + " < " + scalar(Loop.operand(1)) + ";");
    const PipelinedLoop *Outer = Active;
    Active = nullptr;
    for (unsigned I = 0; I < P.StepOps; ++I)
      emitOp(*P.Slice[I]);
    // The carried pointers as they will be Ahead iterations on.
    llvm::SmallVector<std::pair<const Value *, std::string>, 2> Current;
    for (const auto &[Arg, Step] : P.Advances) {
      std::string Name = fresh(nameOf(Arg) + "_ahead");
      if (Arg->type().isScalar()) {
        line(constDecl(Arg, Name) + " = " + scalar(Arg) + " + " + Ahead +
             " * " + scalar(Step) + ";");
      } else {
        declareTileAs(Arg, Name);
        line("#pragma unroll");
        line(loopHeader(elems(Arg)));
        line(Name + "[e] = " + elem(Arg, "e") + " + " + Ahead + " * " +
                 elem(Step, "e") + ";",
             1);
      }
      Current.push_back({Arg, nameOf(Arg)});
      Names[Arg] = Name;
    }
    for (unsigned I = P.StepOps; I < P.Slice.size(); ++I)
      emitOp(*P.Slice[I]);
    Active = Outer;
    for (const Op *L : P.Loads)
      emitStagedCopy(P, *L, S, Live);
    for (const Op *L : P.OwnLoads)
      emitStagedCopy(P, *L, S, Live);
    for (const auto &[Arg, Name] : Current)
      Names[Arg] = Name;
  }
  line("}");
  line("rt::cp_async_commit();");
}

void KernelEmitter::waitStage(const PipelineState &St, const std::string &Stage,
                              const std::string &Phase, bool Late) {
  line("rt::mbarrier_wait(" + (Late ? St.FullLate : St.Full) + " + " + Stage +
       ", " + Phase + ");");
}

void KernelEmitter::releaseStage(const PipelineState &St,
                                 const std::string &Stage, bool Late,
                                 const std::string &If) {
  line("if (" + (If.empty() ? "" : If + " && ") + "threadIdx.x % 32 == 0)");
  line("rt::mbarrier_arrive(" + (Late ? St.EmptyLate : St.Empty) + " + " +
           Stage + ");",
       1);
}

void KernelEmitter::advanceStage(const std::string &Stage,
                                 const std::string &Phase, unsigned Stages) {
  line(Stage + " = " + Stage + " + 1 == " + std::to_string(Stages) +
       " ? 0 : " + Stage + " + 1;");
  if (!Phase.empty())
    line(Phase + " ^= " + Stage + " == 0;");
}

void KernelEmitter::emitPipelinedFor(const Op &O, const PipelinedLoop &P) {
  if (auto It = Producer.Rotated.find(&O); It != Producer.Rotated.end())
    return emitRotatedFor(O, P, It->second);
  const Block &Body = *O.region(0);
  declareCarried(O);
  const bool Flat = EP.Flats.count(&O);
  if (!Flat)
    openPipeline(O, P);
  Nested InPipeline(*this, Flat ? 0 : 1);
  const PipelineState St = States[&O];
  const bool ByTma = byTma(P, Tma);
  const bool Specialized = Producer.feeds(O);
  const unsigned S = P.NumStages, D = S - 1;
  const Value *IV = Body.argument(0);
  std::string N = nameOf(IV), Step = scalar(O.operand(2));
  stageResidents(O, P);
  // The stage before this one, once the dot reading it has retired.
  const std::string Previous = "(" + St.Read + " == 0 ? " + std::to_string(D) +
                               " : " + St.Read + " - 1)";
  openFor(O);
  {
    Nested LoopBody(*this);
    const Op *OuterFreeing = StageFreeingStore;
    StageFreeingStore = nullptr;
    if (ByTma) {
      waitStage(St, St.Read, St.Phase, /*Late=*/false);
      // Every warp is done with the stage the prefetch refills: the previous
      // iteration's store met after its last dot, or a barrier here.
      if (!P.AsyncMma && !Specialized) {
        StageFreeingStore = Flat ? nullptr : stageFreeingStore(Body, P);
        if (!StageFreeingStore)
          line("__syncthreads();");
      }
    } else {
      line("rt::cp_async_wait<" + std::to_string(D - 1) + ">();");
      // Stages that threads fill for themselves need no barrier.
      if (!P.Loads.empty()) {
        line("rt::fence_proxy_async();");
        line("__syncthreads();");
      }
    }
    auto Prefetch = [&] {
      std::string Into = "(" + St.Read + " + " + std::to_string(D) + ") % " +
                         std::to_string(S);
      if (Flat)
        return emitCursorPrefetch(O, P, Into);
      std::string Ahead = fresh(N + "_ahead");
      line("const int " + Ahead + " = " + N + " + " + std::to_string(D) +
           " * " + Step + ";");
      emitPrefetch(O, P, Ahead, std::to_string(D), Into);
    };
    if (!P.AsyncMma && !Specialized)
      Prefetch();
    const PipelinedLoop *Outer = Active;
    Active = &P;
    StageExpr = St.Read;
    // Products left in flight are waited for later: taking turns would
    // order only their issue.
    const bool OuterTurns = TakingTurns, OuterWait = WaitAtFirstUse;
    TakingTurns = Specialized && Producer.MmaTurns && !P.AsyncMma;
    WaitAtFirstUse = P.WaitAtFirstUse && !TakingTurns;
    emitBlock(Body);
    awaitAllProducts();
    TakingTurns = OuterTurns;
    WaitAtFirstUse = OuterWait;
    StageFreeingStore = OuterFreeing;
    Active = Outer;
    if (Specialized && P.AsyncMma) {
      // This warp's previous dot is done: the producer may refill its stage.
      releaseStage(St, Previous, /*Late=*/false,
                   N + " != " + scalar(O.operand(0)));
    } else if (Specialized) {
      // This warp's dots are done with the stage.
      releaseStage(St, St.Read, /*Late=*/false);
    } else if (P.AsyncMma) {
      // Every warp's previous dot is done: its stage takes the prefetch.
      if (P.RefillBarrier)
        line("__syncthreads();");
      Prefetch();
    }
    emitYield(O, Body);
    advanceStage(St.Read, St.Phase, S);
  }
  line("}");
  if (P.AsyncMma) {
    // The accumulators the dots left in flight: the loop's carried values.
    std::string Accs;
    const Op *Yield = Body.terminator();
    for (unsigned I = 0; I < O.numResults(); ++I)
      if (const Op *D = Yield->operand(I)->definingOp(); D && P.Dots.count(D))
        Accs += (Accs.empty() ? "" : ", ") + nameOf(O.result(I));
    line("rt::mma_wait_all(" + Accs + ");");
    if (Specialized)
      line("rt::end_basic_block();");
    // The last iteration's stage, which a later loop's copies refill (or
    // this loop's, in the enclosing loop's next iteration). Only then:
    // ptxas would serialize the loop's wgmmas.
    if (Specialized &&
        (Producer.Loops.back() != &O || O.parentBlock() != &F.body())) {
      releaseStage(St, Previous, /*Late=*/false,
                   scalar(O.operand(0)) + " < " + scalar(O.operand(1)));
    }
  }
  // The buffers may be reused after the loop (TMA copies past the end
  // are never issued). A producer's one ring is guarded by its barriers
  // instead; the resident operands are not, and a later loop writes its own
  // over them.
  if (!ByTma)
    line("rt::cp_async_wait<0>();");
  if (!Specialized || !P.Resident.empty() || !P.ResidentB.empty())
    line(barrier());
  if (!Flat)
    line("}", -1);
}

void KernelEmitter::allocateStages(const Op &O, const PipelinedLoop &P) {
  const unsigned S = P.NumStages;
  unsigned Offset = 0;
  auto AddRing = [&](const Op *L, const std::string &StageType,
                     unsigned StageElems) {
    const Type &T = L->result()->type();
    std::string Elem = deviceType(T.Elem);
    std::string Type = fresh(nameOf(L->result()) + "_stage");
    std::string Ring = fresh(nameOf(L->result()) + "_ring");
    line("using " + Type + " = " + StageType + ";");
    line(Elem + " *const " + Ring + " = rt::dynamic_smem<" + Elem + ">(" +
         std::to_string(Offset) + ");");
    Rings[L] = {Type, Ring};
    unsigned Bytes = StageElems * storageBytes(T.Elem.Kind) * S;
    Offset += (Bytes + 1023) / 1024 * 1024;
  };
  for (const Op *L : P.Loads)
    AddRing(L, stageType(*L), L->result()->type().numel());
  for (const Op *L : P.OwnLoads) {
    const Value *R = L->result();
    AddRing(L,
            "rt::thread_stage<" + deviceType(R->type().Elem) + ", " +
                std::to_string(elems(R)) + ", " + std::to_string(P.Threads) +
                ">",
            elems(R) * P.Threads);
  }
  RingsEnd = std::min(RingsEnd, Offset);
  if (StoreBufferBytes)
    StoresAfterPipelines = false;
  PipelineState &St = States[&O];
  // TMA copies complete on one mbarrier per stage, armed by the thread
  // that issues them. With a producer warpgroup, a second set of
  // barriers, one arrival per consumer warp, says when a stage may be
  // refilled; rotated loops' late loads have a full and an empty barrier
  // of their own per stage.
  const bool ByTma = byTma(P, Tma);
  const bool Specialized = Producer.feeds(O);
  if (ByTma) {
    St.Full = fresh("full");
    line("rt::mbarrier *const " + St.Full +
         " = rt::dynamic_smem<rt::mbarrier>(" + std::to_string(Offset) + ");");
    llvm::SmallVector<std::pair<std::string, unsigned>, 4> Barriers = {
        {St.Full, 1}};
    const unsigned Consumers = Producer.ConsumerThreads / 32;
    if (Specialized)
      Barriers.push_back({St.Empty = fresh("empty"), Consumers});
    if (Specialized && !Producer.Rotated.empty()) {
      Barriers.push_back({St.FullLate = fresh("full_late"), 1});
      Barriers.push_back({St.EmptyLate = fresh("empty_late"), Consumers});
    }
    for (unsigned I = 1; I < Barriers.size(); ++I)
      line("rt::mbarrier *const " + Barriers[I].first + " = " + St.Full +
           " + " + std::to_string(I * S) + ";");
    Offset += 8 * S * Barriers.size();
    llvm::SmallVector<std::pair<std::string, unsigned>, 2> OperandBarriers;
    if (Specialized)
      OperandBarriers = declareOperandBuffers(Offset);
    line("if (threadIdx.x == 0) {");
    line("#pragma unroll", 1);
    line("for (int s = 0; s < " + std::to_string(S) + "; ++s)" +
             (Specialized ? " {" : ""),
         1);
    for (const auto &[Name, Count] : Barriers)
      line("rt::mbarrier_init(" + Name + " + s, " + std::to_string(Count) +
               ");",
           2);
    if (Specialized)
      line("}", 1);
    for (const auto &[Name, Count] : OperandBarriers)
      line("rt::mbarrier_init(" + Name + ", " + std::to_string(Count) + ");",
           1);
    line("rt::fence_mbarrier_init();", 1);
    line("}");
    line("__syncthreads();");
  }
  PipelineBytes = std::max(PipelineBytes, Offset);
  if (Offset + 1024 > DynamicSharedBytes) {
    DynamicSharedBytes = Offset + 1024;
    PipelineLoc = O.loc();
    PipelineStages = S;
  }
  overwriteResidents(0, Offset);
  St.End = (Offset + 1023) / 1024 * 1024;
  St.Read = fresh("read_stage");
  line("int " + St.Read + " = 0;");
  if (ByTma) {
    St.Phase = fresh("phase");
    line("unsigned " + St.Phase + " = 0;");
  }
}

void KernelEmitter::openPipeline(const Op &O, const PipelinedLoop &P) {
  const bool Flat = EP.Flats.count(&O);
  const unsigned S = P.NumStages;
  const unsigned D = S - 1; // iterations the prefetch runs ahead
  std::string Loads;
  for (const Op *L : P.Loads)
    Loads += (Loads.empty() ? "" : ", ") + nameOf(L->result());
  for (const Op *L : P.OwnLoads)
    Loads += (Loads.empty() ? "" : ", ") + nameOf(L->result()) +
             " (by its own threads)";
  const bool Specialized = Producer.feeds(O);
  line("{ // pipeline: " + Loads + " in " + std::to_string(S) +
       " shared-memory stages, " +
       (Specialized ? "filled by a producer warpgroup as they are released"
                    : "prefetched " + std::to_string(D) + " iterations ahead") +
       (Flat ? " across the enclosing loop" : "") +
       (P.AsyncMma ? "; one dot left in flight" : "") +
       (Producer.Rotated.count(&O)
            ? "; rotated: each iteration issues the previous one's " +
                  std::string("last dot after its first")
            : ""));
  if (Specialized)
    return; // its ring was set up before the split
  {
    Nested Deeper(*this);
    allocateStages(O, P);
  }
  PipelineState &St = States[&O];
  const Value *IV = O.region(0)->argument(0);
  if (Flat) {
    const Op &Outer = *EP.Flats.find(&O)->second.Outer;
    St.NextOuter = fresh("next_" + nameOf(Outer.region(0)->argument(0)));
    St.NextInner = fresh("next_" + nameOf(IV));
    // The induction variables' own types: a 64-bit one is not narrowed.
    const Value *OuterIV = Outer.region(0)->argument(0);
    line(deviceType(OuterIV->type().Elem) + " " + St.NextOuter + " = " +
             scalar(Outer.operand(0)) + ";",
         1);
    line(deviceType(IV->type().Elem) + " " + St.NextInner + " = " +
             scalar(O.operand(0)) + ";",
         1);
    for (const Value *V : EP.Flats.find(&O)->second.Carried) {
      St.Carried.push_back(fresh("next_" + nameOf(V)));
      line(deviceType(V->type().Elem) + " " + St.Carried.back() + " = 0;", 1);
    }
    {
      Nested Deeper(*this);
      emitCursorOuter(O);
    }
  }
  std::string Stage = fresh("stage");
  line("#pragma unroll", 1);
  line("for (int " + Stage + " = 0; " + Stage + " < " + std::to_string(D) +
           "; ++" + Stage + ") {",
       1);
  if (Flat) {
    Nested Deeper(*this, 2);
    emitCursorPrefetch(O, P, Stage);
  } else {
    Nested Deeper(*this, 2);
    emitPrefetch(O, P,
                 scalar(O.operand(0)) + " + " + Stage + " * " +
                     scalar(O.operand(2)),
                 Stage, Stage);
  }
  line("}", 1);
}

void KernelEmitter::overwriteResidents(unsigned Begin, unsigned End) {
  llvm::erase_if(StagedResidents, [&](const StagedResident &S) {
    return S.Begin < End && Begin < S.End;
  });
}

void KernelEmitter::stageResidents(const Op &O, const PipelinedLoop &P) {
  // Those the producer copies are in shared memory already.
  llvm::SmallVector<const Value *, 2> Resident;
  for (const Value *A : P.Resident)
    if (!EP.BufferedFrom.count(A))
      Resident.push_back(A);
  if (Resident.empty() && P.ResidentB.empty())
    return;
  unsigned Offset = States[&O].End;
  bool Wrote = false;
  if (StoreBufferBytes)
    StoresAfterPipelines = false;
  // Write gives V's operand view after writing it to shared memory at At,
  // View the view alone, for a V an earlier loop left there.
  using ViewCall = std::string(const Value *V, const std::string &At);
  auto Stage = [&](const Value *V, bool IsB, llvm::function_ref<ViewCall> Write,
                   llvm::function_ref<ViewCall> View) {
    const Type &T = V->type();
    const unsigned End =
        Offset + (T.numel() * storageBytes(T.Elem.Kind) + 1023) / 1024 * 1024;
    const auto *Left = llvm::find_if(StagedResidents, [&](const auto &S) {
      return S.V == V && S.Block == O.parentBlock() && S.Begin == Offset &&
             S.IsB == IsB;
    });
    const std::string At = "rt::dynamic_smem<" + deviceType(T.Elem) + ">(" +
                           std::to_string(Offset) + ")";
    std::string Name = fresh(nameOf(V) + "_resident");
    if (Left != StagedResidents.end()) {
      line("// Still in shared memory: written before the earlier loop "
           "at line " +
           std::to_string(Left->Line) + ".");
      line("const auto " + Name + " = " + View(V, At) + ";");
    } else {
      overwriteResidents(Offset, End);
      StagedResidents.push_back(
          {V, O.parentBlock(), Offset, End, O.loc().Line, IsB});
      line("const auto " + Name + " = " + Write(V, At) + ";");
      Wrote = true;
    }
    Residents[V] = Name;
    Offset = End;
  };
  using Residence = PipelinedLoop::Residence;
  if (!Resident.empty())
    line(P.ResidentReason == Residence::PtxasOverwrite
             ? "// Loop-invariant A operands, read from shared memory: "
               "in registers, ptxas may give another wgmma's A "
               "fragments their registers where the loop chooses."
         : P.ResidentReason == Residence::Exchange
             ? "// Loop-invariant 8-bit A operands, read from shared "
               "memory: from registers, every iteration would exchange "
               "them among threads."
             : "// Loop-invariant A operands, read from shared "
               "memory: registers hold the accumulators.");
  for (const Value *A : Resident)
    Stage(
        A, /*IsB=*/false,
        [&](const Value *V, const std::string &At) {
          return "rt::stage_operand<" + layoutOf(V) + ", false, true>(" +
                 smemTileType(V->type()) + "{" + At + "}, " + nameOf(V) + ")";
        },
        [&](const Value *V, const std::string &At) {
          return "rt::operand<true>(" + smemTileType(V->type()) + "{" + At +
                 "})";
        });
  if (!P.ResidentB.empty())
    line("// Loop-invariant B operands, written to shared memory "
         "once rather than by each iteration's dot.");
  for (const Value *B : P.ResidentB)
    Stage(
        B, /*IsB=*/true,
        [&](const Value *V, const std::string &At) {
          return "rt::stage_b<" + layoutOf(V) + ">(" + At + ", " + nameOf(V) +
                 ")";
        },
        [&](const Value *V, const std::string &At) {
          return "rt::b_operand<" + layoutOf(V) + ">(" + At + ")";
        });
  PipelineBytes = std::max(PipelineBytes, Offset);
  if (Offset + 1024 > DynamicSharedBytes) {
    DynamicSharedBytes = Offset + 1024;
    PipelineLoc = O.loc();
    PipelineStages = P.NumStages;
  }
  if (!Wrote)
    return;
  line("rt::fence_proxy_async();");
  line(barrier());
}

void KernelEmitter::emitStagedDot(const Op &O, bool Issue, bool InPlace) {
  countDot(O);
  const Value *R = O.result();
  if (Active->AsyncMma || InPlace) {
    // The dot accumulates in place: its accumulator is a carried value
    // only it reads, and its result only the next one; copies would read
    // the registers of a product in flight.
    Names[R] = nameOf(O.operand(2));
  } else {
    declareTile(R);
    assignValue(R, nameOf(R), O.operand(2));
  }
  std::string Ops[2];
  for (unsigned I = 0; I < 2; ++I) {
    auto [L, Trans] = stagedSource(*Active, O.operand(I));
    if (const Op *Copied =
            I == 0 ? EP.BufferedFrom.lookup(O.operand(0)) : nullptr) {
      const OperandBuffer &B = OperandBuffers.find(Copied)->second;
      Ops[I] = "rt::operand<true>(" + B.tile(B.Slot) + ")";
      continue;
    }
    if (I == 0 && llvm::is_contained(Active->Resident, O.operand(0))) {
      Ops[I] = Residents.lookup(O.operand(0));
      continue;
    }
    if (!L) { // a in registers, as mma fragments
      Ops[I] = "rt::fragment<" + layoutOf(O.operand(I)) + ">(" +
               nameOf(O.operand(I)) + ")";
      continue;
    }
    // The logical dimension of the operand that is contiguous, and K's.
    unsigned Contig = storedTransposed(*L) ? 0 : 1;
    if (Trans)
      Contig = 1 - Contig;
    bool KMajor = Contig == (I == 0 ? 1u : 0u);
    Ops[I] = "rt::operand<" + std::string(KMajor ? "true" : "false") + ">(" +
             stageTile(*L, StageExpr) + ")";
  }
  // A dot that only accumulates stays in flight (its InFlight is 1).
  const std::string Elem = deviceType(O.operand(0)->type().Elem);
  const std::string Args =
      "(" + Ops[0] + ", " + Ops[1] + ", " + nameOf(R) + ");";
  // A product may stay in flight unless rounded into a half accumulator at
  // once, or read from a buffer released after the dot.
  const bool MayStay = WaitAtFirstUse && !InPlace &&
                       R->type().Elem.Kind != ScalarKind::F16 &&
                       !EP.BufferedFrom.count(O.operand(0));
  if (Issue) {
    line("rt::mma_issue<" + layoutOf(R) + ", " + Elem + ">" + Args);
  } else if (TakingTurns) {
    line("rt::mma_tiles_in_turn<" + layoutOf(R) + ", " + Elem + ", " +
         std::to_string(Producer.MmaTurns) + ">" + Args);
  } else if (const bool Stays = MayStay && leavesInFlight(O);
             Stays || (MayStay && !InFlight.empty())) {
    line("rt::mma_issue<" + layoutOf(R) + ", " + Elem + ">" + Args);
    InFlight.push_back(R);
    if (!Stays)
      awaitAllProducts();
  } else {
    line("rt::mma_tiles<" + layoutOf(R) + ", " + Elem +
         (Active->AsyncMma ? ", 1" : "") + ">" + Args);
    // It waited for every product; those in flight are fenced now.
    awaitAllProducts();
  }
}

static bool endsOrOpensBlock(const Op &O) {
  return isStructuredControl(O.kind()) || O.kind() == OpKind::Yield;
}

bool KernelEmitter::leavesInFlight(const Op &O) const {
  const auto &Ops = O.parentBlock()->ops();
  auto It = llvm::find_if(Ops, [&](const auto &P) { return P.get() == &O; });
  for (++It; It != Ops.end(); ++It) {
    const Op &Next = **It;
    if (endsOrOpensBlock(Next) ||
        llvm::is_contained(Next.operands(), O.result()))
      return false;
    // The next product, staged or not, queues behind this one; a dot that
    // stages its own operands waits for every group before its result.
    if (isTensorCoreDot(Next, LM))
      return true;
  }
  return false;
}

const Op *KernelEmitter::stageFreeingStore(const Block &Body,
                                           const PipelinedLoop &P) const {
  size_t DotsLeft = P.Dots.size();
  for (const auto &O : Body.ops()) {
    if (P.Dots.count(O.get()))
      --DotsLeft;
    else if (!DotsLeft && writesBox(*O) && Tma.count(O.get()))
      return O.get();
  }
  return nullptr;
}

void KernelEmitter::awaitProductsFor(const Op &O) {
  if (endsOrOpensBlock(O) || &O == StageFreeingStore)
    return awaitAllProducts();
  // The last product O reads: it and those issued before it retire.
  unsigned Retired = 0;
  for (unsigned I = 0; I < InFlight.size(); ++I)
    if (llvm::is_contained(O.operands(), InFlight[I]))
      Retired = I + 1;
  awaitProducts(Retired, &O);
}

void KernelEmitter::emitOpAfterProducts(const Op &O) {
  if (!WaitAtFirstUse)
    return emitOp(O);
  awaitProductsFor(O);
  if (!endsOrOpensBlock(O))
    return emitOp(O);
  // A nested block's dots wait at once: its end would leave them in flight.
  WaitAtFirstUse = false;
  emitOp(O);
  WaitAtFirstUse = true;
}

void KernelEmitter::awaitAllProducts() { awaitProducts(InFlight.size()); }

void KernelEmitter::awaitProducts(unsigned Retired, const Op *Reader) {
  if (!Retired)
    return;
  // The wait belongs to the line that needs the products.
  if (Reader)
    lineDirective(*Reader);
  std::string Accs;
  for (unsigned I = 0; I < Retired; ++I)
    Accs += (I ? ", " : "") + nameOf(InFlight[I]);
  line("rt::mma_wait<" + std::to_string(InFlight.size() - Retired) + ">(" +
       Accs + ");");
  InFlight.erase(InFlight.begin(), InFlight.begin() + Retired);
}

} // namespace tilecc::codegen
