//===- ProducerEmitter.cpp - TMA copies and the producer warpgroup
//---------===//
//
// The copies of a loop's stages by TMA, and, in a warp-specialized
// variant, the producer warpgroup that issues them (and the dots' A
// operands it copies) while the consumers compute: the warpgroup split,
// setmaxnreg, the operand buffers taken in turn.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"
#include "transforms/PriorGridWait.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

std::string KernelEmitter::boxCorner(const TensorMapAccess &Map) {
  auto Start = [&](const TensorMapAxis &Axis) {
    if (!Axis.Offset)
      return std::to_string(Axis.Start);
    return scalar(Axis.Offset) +
           (Axis.Start ? " + " + std::to_string(Axis.Start) : "");
  };
  return Start(Map.Axes[Map.InnerDim]) + ", " +
         Start(Map.Axes[Map.outerDim()]) +
         (Map.Batch ? ", " + scalar(Map.Batch) : "");
}

void KernelEmitter::emitTmaPrefetch(const Op &Loop, const PipelinedLoop &P,
                                    const std::string &Iv,
                                    const std::string &S) {
  const Value *IV = Loop.region(0)->argument(0);
  const PipelineState St = States[&Loop];
  const FlattenedPipeline *Flat =
      EP.Flats.count(&Loop) ? &EP.Flats.find(&Loop)->second : nullptr;
  line("{");
  std::string Live = nameOf(IV) + " < " + scalar(Loop.operand(1));
  // A flattened pipeline's cursor holds what the outer body computed for
  // the iteration it is at.
  llvm::DenseMap<const Value *, std::string> Shadowed;
  if (Flat) {
    Live =
        St.NextOuter + " < " + scalar(Flat->Outer->operand(1)) + " && " + Live;
    for (unsigned I = 0; I < Flat->Carried.size(); ++I) {
      Shadowed[Flat->Carried[I]] = nameOf(Flat->Carried[I]);
      Names[Flat->Carried[I]] = St.Carried[I];
    }
  }
  {
    Nested InBlock(*this);
    line(constDecl(IV) + " = " + Iv + ";");
    line("if (" + Live + " && threadIdx.x == 0) {");
    {
      Nested InIssuer(*this);
      emitTmaCopies(P, St, S, "");
    }
    line("}");
  }
  line("}");
  for (const auto &[V, Name] : Shadowed)
    Names[V] = Name;
}

void KernelEmitter::emitTmaCopies(const PipelinedLoop &P,
                                  const PipelineState &St, const std::string &S,
                                  const std::string &Phase) {
  llvm::DenseSet<const Op *> Needed = boxStartSlice(P, Tma);
  const PipelinedLoop *Outer = Active;
  Active = nullptr;
  for (const Op *O : P.Slice)
    if (Needed.count(O))
      emitOp(*O);
  Active = Outer;
  if (St.FullLate.empty())
    return emitTmaLoads(P.Loads, St.Full, S);
  llvm::SmallVector<const Op *, 2> Early, Late;
  for (unsigned I = 0; I < P.Loads.size(); ++I)
    (llvm::is_contained(Producer.lateLoads(), I) ? Late : Early)
        .push_back(P.Loads[I]);
  emitTmaLoads(Early, St.Full, S);
  line("rt::mbarrier_wait(" + St.EmptyLate + " + " + S + ", " + Phase +
       " ^ 1);");
  emitTmaLoads(Late, St.FullLate, S);
}

void KernelEmitter::emitTmaLoads(llvm::ArrayRef<const Op *> Loads,
                                 const std::string &Full,
                                 const std::string &S) {
  unsigned Bytes = 0;
  for (const Op *L : Loads) {
    const Type &T = L->result()->type();
    Bytes += T.numel() * storageBytes(T.Elem.Kind);
  }
  std::string Bar = Full + " + " + S;
  line("rt::mbarrier_arrive_expect_tx(" + Bar + ", " + std::to_string(Bytes) +
       ");");
  for (const Op *L : Loads) {
    const TensorMapAccess &Map = Tma.find(L)->second;
    line("rt::tma_load_tile(" + stageTile(*L, S) + ", &" + MapNames.lookup(L) +
         ", " + Bar + ", " + boxCorner(Map) + ");");
  }
}

void KernelEmitter::emitSplit() {
  // One ring serves every loop the producer feeds: the stages, barriers
  // and read position go on from one loop to the next.
  const Op &First = *Producer.Loops.front();
  const PipelinedLoop &FirstP = Plans.find(&First)->second;
  allocateStages(First, FirstP);
  for (const Op *Loop : Producer.Loops) {
    const PipelinedLoop &P = Plans.find(Loop)->second;
    for (unsigned I = 0; I < P.Loads.size(); ++I)
      Rings[P.Loads[I]] = Rings[FirstP.Loads[I]];
    States[Loop] = States[&First];
  }
  const std::string Consumers = std::to_string(Producer.ConsumerThreads);
  line("// The producer warpgroup: one thread issues the copies.");
  line("if (threadIdx.x >= " + Consumers + ") {");
  {
    Nested InProducer(*this);
    line("rt::setmaxnreg_dec<" + std::to_string(Producer.ProducerRegs) +
         ">();");
    line("if (threadIdx.x == " + Consumers + ") {");
    {
      Nested InIssuer(*this);
      // Its copies may read what the prior grid writes: it waits before the
      // first, wherever the consumers wait.
      if (transforms::waitsForPriorGrid(F))
        line("rt::griddepcontrol_wait();");
      const std::string Stage = fresh("fill_stage"),
                        Phase = fresh("fill_phase");
      line("int " + Stage + " = 0;");
      line("unsigned " + Phase + " = 0;");
      for (const Op *L : Producer.OperandLoads) {
        const OperandBuffer &B = OperandBuffers.find(L)->second;
        if (B.Slots > 1)
          line("int " + B.FillSlot + " = 0;");
        line("unsigned " + B.FillPhase + " = 0;");
      }
      emitProducerBlock(F.body(), Stage, Phase);
    }
    line("}");
    line("return;");
  }
  line("}");
  line("rt::setmaxnreg_inc<" + std::to_string(Producer.ConsumerRegs) + ">();");
  if (Producer.MmaTurns)
    line("rt::mma_turns<" + std::to_string(Producer.MmaTurns) + ">::start();");
  for (const Op *L : Producer.OperandLoads) {
    const OperandBuffer &B = OperandBuffers.find(L)->second;
    if (B.Slots > 1)
      line("int " + B.Slot + " = 0;");
    line("unsigned " + B.Phase + " = 0;");
  }
  Split = true;
}

void KernelEmitter::emitProducerBlock(const Block &B, const std::string &Stage,
                                      const std::string &Phase) {
  for (const auto &Owned : B.ops()) {
    const Op &O = *Owned;
    const bool Fed = Producer.feeds(O);
    if (llvm::is_contained(Producer.Slice, &O)) {
      emitOp(O);
      continue;
    }
    if (OperandBuffers.count(&O)) {
      issueOperandCopy(O);
      continue;
    }
    if (!Fed && !llvm::is_contained(Producer.Enclosing, &O))
      continue;
    lineDirective(O);
    openFor(O);
    if (!Fed) {
      {
        Nested Deeper(*this);
        emitProducerBlock(*O.region(0), Stage, Phase);
      }
      line("}");
      continue;
    }
    const PipelinedLoop &P = Plans.find(&O)->second;
    const PipelineState &St = States[&O];
    // A fresh barrier's phase before the first (parity 1) counts as
    // complete: the first round of stages is free.
    line("rt::mbarrier_wait(" + St.Empty + " + " + Stage + ", " + Phase +
             " ^ 1);",
         1);
    {
      Nested Deeper(*this);
      emitTmaCopies(P, St, Stage, Phase);
      advanceStage(Stage, Phase, P.NumStages);
    }
    line("}");
  }
}

void KernelEmitter::emitCursorOuter(const Op &Loop) {
  const PipelineState St = States[&Loop];
  const FlattenedPipeline &Flat = EP.Flats.find(&Loop)->second;
  line("if (" + St.NextOuter + " < " + scalar(Flat.Outer->operand(1)) + ") {");
  line(constDecl(Flat.Outer->region(0)->argument(0)) + " = " + St.NextOuter +
           ";",
       1);
  for (const Op *O : Flat.OuterSlice) {
    Nested Deeper(*this);
    emitOp(*O);
  }
  for (unsigned I = 0; I < Flat.Carried.size(); ++I)
    line(St.Carried[I] + " = " + scalar(Flat.Carried[I]) + ";", 1);
  line("}");
}

void KernelEmitter::emitCursorPrefetch(const Op &Loop, const PipelinedLoop &P,
                                       const std::string &S) {
  const PipelineState St = States[&Loop];
  const Op &Outer = *EP.Flats.find(&Loop)->second.Outer;
  emitPrefetch(Loop, P, St.NextInner, "", S);
  line(St.NextInner + " += " + scalar(Loop.operand(2)) + ";");
  line("if (" + St.NextInner + " >= " + scalar(Loop.operand(1)) + ") {");
  line(St.NextInner + " = " + scalar(Loop.operand(0)) + ";", 1);
  line(St.NextOuter + " += " + scalar(Outer.operand(2)) + ";", 1);
  {
    Nested Deeper(*this);
    emitCursorOuter(Loop);
  }
  line("}");
}

llvm::SmallVector<std::pair<std::string, unsigned>, 2>
KernelEmitter::declareOperandBuffers(unsigned &Offset) {
  llvm::SmallVector<std::pair<std::string, unsigned>, 2> Barriers;
  if (Producer.OperandLoads.empty())
    return Barriers;
  Offset = (Offset + 1023) / 1024 * 1024;
  for (const Op *L : Producer.OperandLoads) {
    const Type &T = L->result()->type();
    const std::string Name = nameOf(L->result()), Elem = deviceType(T.Elem);
    OperandBuffer &B = OperandBuffers[L];
    B.Type = fresh(Name + "_stage");
    B.Buf = fresh(Name + "_buf");
    // A load once per program needs one buffer whatever the plan.
    B.Slots = ir::enclosingFor(*L) ? Producer.OperandSlots : 1;
    line("using " + B.Type + " = " + smemTileType(T) + ";");
    line(Elem + " *const " + B.Buf + " = rt::dynamic_smem<" + Elem + ">(" +
         std::to_string(Offset) + ");");
    Offset += B.Slots *
              ((T.numel() * storageBytes(T.Elem.Kind) + 1023) / 1024 * 1024);
    // The consumers release the buffer after the last statement of the
    // load's block that reads it (its dots' loops).
    auto Reads = [&](const Op &O) {
      return llvm::any_of(O.operands(), [&](const Value *V) {
        return EP.BufferedFrom.lookup(V) == L;
      });
    };
    for (const auto &O : L->parentBlock()->ops()) {
      bool Uses = Reads(*O);
      for (const auto &R : O->regions())
        walk(*R, [&](const Op &Inner) { Uses |= Reads(Inner); });
      if (Uses)
        B.LastUse = O.get();
    }
  }
  for (const Op *L : Producer.OperandLoads) {
    OperandBuffer &B = OperandBuffers[L];
    const std::string Name = nameOf(L->result());
    B.Full = fresh(Name + "_full");
    B.Empty = fresh(Name + "_empty");
    if (B.Slots > 1) {
      B.Slot = fresh(Name + "_slot");
      B.FillSlot = fresh(Name + "_fill_slot");
    }
    B.Phase = fresh(Name + "_phase");
    B.FillPhase = fresh(Name + "_fill_phase");
    line("rt::mbarrier *const " + B.Full +
         " = rt::dynamic_smem<rt::mbarrier>(" + std::to_string(Offset) + ");");
    line("rt::mbarrier *const " + B.Empty + " = " + B.Full + " + " +
         std::to_string(B.Slots) + ";");
    Offset += 16 * B.Slots;
    for (unsigned Slot = 0; Slot < B.Slots; ++Slot) {
      const std::string At = Slot ? " + " + std::to_string(Slot) : "";
      Barriers.push_back({B.Full + At, 1});
      Barriers.push_back({B.Empty + At, Producer.ConsumerThreads / 32});
    }
  }
  return Barriers;
}

void KernelEmitter::issueOperandCopy(const Op &L) {
  const OperandBuffer &B = OperandBuffers.find(&L)->second;
  const Type &T = L.result()->type();
  lineDirective(L);
  const std::string Full = B.at(B.Full, B.FillSlot);
  line("rt::mbarrier_wait(" + B.at(B.Empty, B.FillSlot) + ", " + B.FillPhase +
       " ^ 1);");
  line("rt::mbarrier_arrive_expect_tx(" + Full + ", " +
       std::to_string(T.numel() * storageBytes(T.Elem.Kind)) + ");");
  line("rt::tma_load_tile(" + B.tile(B.FillSlot) + ", &" + MapNames.lookup(&L) +
       ", " + Full + ", " + boxCorner(Tma.find(&L)->second) + ");");
  nextOperandSlot(B.Slots, B.FillSlot, B.FillPhase);
}

void KernelEmitter::nextOperandSlot(unsigned Slots, const std::string &Slot,
                                    const std::string &Phase) {
  if (Slots == 1) {
    line(Phase + " ^= 1;");
    return;
  }
  line(Slot + " ^= 1;");
  line(Phase + " ^= " + Slot + " == 0;");
}

void KernelEmitter::awaitOperand(const Op &L) {
  const OperandBuffer &B = OperandBuffers.find(&L)->second;
  lineDirective(L);
  line("rt::mbarrier_wait(" + B.at(B.Full, B.Slot) + ", " + B.Phase + ");");
}

void KernelEmitter::releaseOperand(const Op &L) {
  const OperandBuffer &B = OperandBuffers.find(&L)->second;
  line("if (threadIdx.x % 32 == 0)");
  line("rt::mbarrier_arrive(" + B.at(B.Empty, B.Slot) + ");", 1);
  // The dots read the buffer until here.
  nextOperandSlot(B.Slots, B.Slot, B.Phase);
}

} // namespace tilecc::codegen
