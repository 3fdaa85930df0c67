//===- RotatedLoop.cpp - Loops whose last dot is issued an iteration late -===//
//
// Carries out analysis::planRotations' plans (FlashAttention-3's overlap
// within a warpgroup): the first iteration runs without its late part; each
// later one issues its first dot, then the previous iteration's late part
// (the rescaling in place and the accumulating dot), and waits for the first
// dot alone, so that the accumulating product runs on the tensor cores while
// the warpgroup computes the rest of the iteration; the last iteration's
// late part follows the loop. What the late part reads of its iteration
// crosses the back edge in registers of its own (`_prior`).
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"
#include "llvm/ADT/SetVector.h"
#include <functional>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

llvm::SmallVector<const Value *, 4>
KernelEmitter::crossingValues(const Op &Loop, const RotatedLoop &R) {
  const Block &Body = *Loop.region(0);
  const Value *Carried = Body.argument(R.Accumulator + 1);
  const PipelinedLoop &P = Plans.find(&Loop)->second;
  llvm::SetVector<const Value *> Crossing;
  std::function<void(const Value *)> Visit = [&](const Value *V) {
    const Op *D = V->definingOp();
    const bool InBody =
        D ? D->parentBlock() == &Body : V->ownerBlock() == &Body;
    if (V == Carried || !InBody || R.rotates(*D) || stagedSource(P, V).first)
      return;
    if (materialized(V)) {
      Crossing.insert(V);
      return;
    }
    llvm::for_each(D->operands(), Visit);
  };
  for (const Op *C : R.Chain)
    llvm::for_each(C->operands(), Visit);
  llvm::for_each(R.Late->operands(), Visit);
  return {Crossing.begin(), Crossing.end()};
}

void KernelEmitter::emitLatePart(
    const RotatedLoop &R, const std::string &Acc,
    const llvm::DenseMap<const Value *, std::string> &Prior,
    const std::string &Stage, bool Issue) {
  llvm::DenseMap<const Value *, std::string> Current;
  for (const auto &[V, Name] : Prior) {
    Current[V] = nameOf(V);
    Names[V] = Name;
  }
  // Element-wise, so element e of the accumulator is rewritten from
  // element e alone.
  for (const Op *C : R.Chain) {
    lineDirective(*C);
    line("#pragma unroll");
    line(loopHeader(elems(C->result())));
    line(Acc + "[e] = " + compute(*C, "e") + ";", 1);
    Names[C->result()] = Acc;
  }
  const std::string Read = StageExpr;
  StageExpr = Stage;
  lineDirective(*R.Late);
  emitStagedDot(*R.Late, Issue, /*InPlace=*/true);
  StageExpr = Read;
  for (const auto &[V, Name] : Current)
    Names[V] = Name;
}

void KernelEmitter::emitRotatedFor(const Op &O, const PipelinedLoop &P,
                                   const RotatedLoop &R) {
  const Block &Body = *O.region(0);
  declareCarried(O);
  openPipeline(O, P);
  Nested InPipeline(*this);
  const PipelineState St = States[&O];
  stageResidents(O, P);
  const std::string Acc = nameOf(O.result(R.Accumulator));
  // The yield leaves the accumulator, which the late part updates in place.
  Names[R.Late->result()] = Acc;
  llvm::DenseMap<const Value *, std::string> Prior;
  const auto Crossing = crossingValues(O, R);
  for (const Value *V : Crossing) {
    std::string Name = fresh(nameOf(V) + "_prior");
    if (V->type().isScalar())
      line(deviceType(V->type().Elem) + " " + Name + ";");
    else
      declareTileAs(V, Name);
    Prior[V] = Name;
  }
  // The stage the late part reads, one behind the read position.
  const std::string Late = fresh("late_stage"), LatePhase = fresh("late_phase");
  line("int " + Late + " = " + St.Read + ";");
  line("unsigned " + LatePhase + " = " + St.Phase + ";");
  auto EndOfIteration = [&] {
    for (const Value *V : Crossing)
      assignValue(V, Prior[V], V);
    emitYield(O, Body);
    line(Late + " = " + St.Read + ";");
    line(LatePhase + " = " + St.Phase + ";");
    advanceStage(St.Read, St.Phase, P.NumStages);
  };
  const PipelinedLoop *Outer = Active;
  Active = &P;
  StageExpr = St.Read;
  const Value *IV = Body.argument(0);
  line("if (" + scalar(O.operand(0)) + " < " + scalar(O.operand(1)) + ") {");
  {
    Nested InIf(*this);
    // The first iteration, without its late part.
    line("{");
    {
      Nested FirstIteration(*this);
      if (Uses.lookup(IV))
        line(constDecl(IV) + " = " + scalar(O.operand(0)) + ";");
      waitStage(St, St.Read, St.Phase, /*Late=*/false);
      for (const auto &Owned : Body.ops())
        if (!R.rotates(*Owned) && !P.ProducerOnly.count(Owned.get()) &&
            !EP.Dropped.count(Owned.get()))
          emitOp(*Owned);
      releaseStage(St, St.Read, /*Late=*/false);
      EndOfIteration();
    }
    line("}");
    // The second iteration on, its start folded where lo and step are
    // known.
    const auto Lo = AI.get(O.operand(0)).ConstantValue,
               Step = AI.get(O.operand(2)).ConstantValue;
    openFor(O, Lo && Step
                   ? std::to_string(*Lo + *Step)
                   : scalar(O.operand(0)) + " + " + scalar(O.operand(2)));
    {
      Nested Iteration(*this);
      waitStage(St, St.Read, St.Phase, /*Late=*/false);
      for (const auto &Owned : Body.ops()) {
        const Op &Cur = *Owned;
        if (R.rotates(Cur) || P.ProducerOnly.count(&Cur) ||
            EP.Dropped.count(&Cur))
          continue;
        if (&Cur != R.Early) {
          emitOp(Cur);
          continue;
        }
        lineDirective(Cur);
        emitStagedDot(Cur, /*Issue=*/true);
        waitStage(St, Late, LatePhase, /*Late=*/true);
        emitLatePart(R, Acc, Prior, Late, /*Issue=*/true);
        // The first dot is done, the late one may still run.
        line("rt::mma_wait<1>(" + nameOf(Cur.result()) + ");");
        releaseStage(St, St.Read, /*Late=*/false);
      }
      line("rt::mma_wait<0>(" + Acc + ");");
      releaseStage(St, Late, /*Late=*/true);
      EndOfIteration();
    }
    line("}");
    // The last iteration's late part.
    waitStage(St, Late, LatePhase, /*Late=*/true);
    emitLatePart(R, Acc, Prior, Late, /*Issue=*/false);
    releaseStage(St, Late, /*Late=*/true);
  }
  line("}");
  Active = Outer;
  // The ring is the producer's barriers' to guard; resident operands are
  // not.
  if (!P.Resident.empty() || !P.ResidentB.empty())
    line(barrier());
  line("}", -1);
}

} // namespace tilecc::codegen
