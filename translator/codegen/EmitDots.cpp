//===- EmitDots.cpp - Dots, transposes and layout conversions
//--------------===//
//
// Products of tiles on tensor cores (or FMA), the transposes folded into
// them, and conversions between layouts through shared scratch memory.
//
//===----------------------------------------------------------------------===//
#include "analysis/LoopInvariantA.h"
#include "analysis/ShapeLayouts.h"
#include "codegen/KernelEmitter.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

/// The rt::precision enumerator that runs a dot of fp32 operands as P.
static const char *precisionName(DotPrecision P) {
  switch (P) {
  case DotPrecision::TF32:
    return "rt::precision::tf32";
  case DotPrecision::TF32x3:
    return "rt::precision::tf32x3";
  case DotPrecision::IEEE:
    return "rt::precision::ieee";
  }
  llvm_unreachable("unknown dot precision");
}

void KernelEmitter::countDot(const Op &O) {
  const Type &TA = O.operand(0)->type();
  // A tensor-core instruction is 32 bytes deep.
  const uint64_t Steps =
      uint64_t(elems(O.result())) *
      std::max<uint64_t>(1, TA.Shape.back() * storageBytes(TA.Elem.Kind) / 32);
  DotSteps += Steps;
  if (TA.Elem.Kind == ScalarKind::F8E4M3 || TA.Elem.Kind == ScalarKind::F8E5M2)
    Float8DotSteps += Steps;
}

void KernelEmitter::emitDot(const Op &O) {
  countDot(O);
  const Value *A = O.operand(0), *B = O.operand(1), *R = O.result();
  declareTile(R);
  const Type &TA = A->type(), &TB = B->type();
  const unsigned Bytes = storageBytes(TA.Elem.Kind);
  if (LM.get(R).isMfmaAccumulator()) {
    const std::string Layouts =
        layoutOf(A) + ", " + layoutOf(B) + ", " + layoutOf(R);
    const std::string Acc = nameOf(O.operand(2)) + ", " + nameOf(R) + ", ";
    // Staged by the iteration before (openStagedAhead, stageAhead).
    if (auto It = StagedAhead.find(&O); It != StagedAhead.end()) {
      const StagedOperands &S = It->second;
      line("rt::mfma_multiply<" + Layouts + ", " + deviceType(TA.Elem) + ">(" +
           Acc + S.Buf + " + " + S.Slot + " * " + std::to_string(S.Bytes) +
           ");");
      return;
    }
    const std::string Buf = scratch(O, mfmaStagingBytes(O));
    line("rt::dot_mfma<" + Layouts + syncArg() + ">(" + nameOf(A) + ", " +
         nameOf(B) + ", " + Acc + Buf + ");");
    return;
  }
  // A folded transpose's dot takes the untransposed tile (foldTransposes).
  const Op *T = A->definingOp();
  const bool Folded = T && EP.FoldedTransposes.count(T);
  const Value *AIn = Folded ? T->operand(0) : A;
  bool Fma = !LM.get(R).isMmaAccumulator();
  std::string Callee =
      Folded ? "rt::dot_mma_trans_a<"
      : Fma  ? "rt::dot_fma<" + std::string(precisionName(O.precision())) + ", "
             : "rt::dot_mma<";
  // wgmma reads from shared memory an A that ptxas may overwrite in its
  // registers (analysis/LoopInvariantA.h).
  const bool AtRisk = !Fma && !Folded && analysis::invariantInChoosingLoop(O);
  // A loop-invariant b of a pipelined loop is in shared memory already
  // (PipelinedLoop::ResidentB).
  const bool ResidentB = Active && llvm::is_contained(Active->ResidentB, B);
  // The runtime's staging: rt::dot_fma_scratch for CUDA cores; b, then a
  // at rt::dot_mma_a_offset unless a's registers hold its fragments, for
  // tensor cores (where only mma.sync would take them, a is counted).
  const unsigned BBytes = ResidentB ? 0 : TB.numel() * Bytes;
  const unsigned ABytes =
      !Fma && !Folded && !AtRisk &&
              analysis::holdsOperandA(LM.get(A), LM.get(R), TA.Shape[1], Bytes)
          ? 0
          : TA.numel() * Bytes;
  const std::string Buf =
      Fma ? scratch(O, (ABytes + 15) / 16 * 16 + BBytes)
      : ABytes || BBytes
          ? scratch(O,
                    ABytes && BBytes ? (BBytes + 1023) / 1024 * 1024 + ABytes
                                     : ABytes + BBytes,
                    /*Swizzled=*/true)
          : "nullptr"; // b resident and a in registers: nothing is staged
  // A TMA store next takes over the dot's last barrier (rt::then).
  const Op *Store =
      !Fma && (ABytes || BBytes) ? storeAfterStagingDot(O) : nullptr;
  if (Store)
    StoreBufferWaited[Store] = &O;
  // dot_mma's a_use comes before the consumers' barrier count, and that
  // before what follows.
  const std::string Use = AtRisk ? ", rt::a_loop_invariant"
                          : (Split || Store) && !Fma && !Folded
                              ? ", rt::a_anywhere"
                              : "";
  const std::string Sync = Store && !Split ? ", 0" : syncArg();
  line(Callee + layoutOf(AIn) + ", " + layoutOf(B) + ", " + layoutOf(R) + Use +
       Sync + (Store ? ", rt::then::tma_store" : "") + ">(" + nameOf(AIn) +
       ", " + (ResidentB ? Residents.lookup(B) : nameOf(B)) + ", " +
       nameOf(O.operand(2)) + ", " + nameOf(R) + ", " + Buf + ");");
}

unsigned KernelEmitter::mfmaStagingBytes(const Op &O) const {
  // Both operands, rows padded by rt::mfma_row_pad (rt::dot_mfma_scratch).
  constexpr int64_t RowPad = 4;
  const Type &TA = O.operand(0)->type(), &TB = O.operand(1)->type();
  return (TA.Shape[0] + TB.Shape[1]) * (TA.Shape[1] + RowPad) *
         storageBytes(TA.Elem.Kind);
}

void KernelEmitter::stageOperands(const Op &D, const std::string &Buf) {
  const Value *A = D.operand(0), *B = D.operand(1);
  line("rt::mfma_stage<" + layoutOf(A) + ", " + layoutOf(B) + ">(" + nameOf(A) +
       ", " + nameOf(B) + ", " + Buf + ");");
}

void KernelEmitter::openStagedAhead(const Op &O) {
  auto It = EP.StagedAhead.find(&O);
  if (It == EP.StagedAhead.end())
    return;
  const std::string Slot = fresh("staged_slot");
  for (const Op *D : It->second) {
    const StagedOperands S{fresh(nameOf(D->result()) + "_staged"), Slot,
                           mfmaStagingBytes(*D)};
    StagedAhead[D] = S;
    StagedAheadBytes += 2 * S.Bytes;
    StaticSharedBytes += 2 * S.Bytes;
    line("alignas(16) __shared__ unsigned char " + S.Buf + "[" +
         std::to_string(2 * S.Bytes) + "];");
    stageOperands(*D, S.Buf);
  }
  line("int " + Slot + " = 0;");
  line(barrier());
}

void KernelEmitter::stageAhead(const Op &O) {
  auto It = EP.StagedAhead.find(&O);
  if (It == EP.StagedAhead.end())
    return;
  // The other buffers were last read an iteration ago, before the barrier
  // that ended it.
  const std::string Slot = StagedAhead.lookup(It->second.front()).Slot;
  for (const Op *D : It->second) {
    const StagedOperands &S = StagedAhead.find(D)->second;
    stageOperands(*D,
                  S.Buf + " + (" + Slot + " ^ 1) * " + std::to_string(S.Bytes));
  }
  line(Slot + " ^= 1;");
  line(barrier());
}

const Op *KernelEmitter::storeAfterStagingDot(const Op &O) {
  const Block *B = O.parentBlock();
  // A rotated loop emits its body's ops out of order.
  if (B->parentOp() && Producer.Rotated.count(B->parentOp()))
    return nullptr;
  const auto &Ops = B->ops();
  auto It = llvm::find_if(Ops, [&](const auto &P) { return P.get() == &O; });
  for (++It; It != Ops.end(); ++It) {
    const Op &Next = **It;
    if (EP.Dropped.count(&Next))
      continue;
    if (writesBox(Next) && Tma.count(&Next))
      return &Next;
    const bool WritesScratch =
        isStructuredControl(Next.kind()) ||
        (Next.kind() == OpKind::Trans && !EP.FoldedTransposes.count(&Next)) ||
        Next.kind() == OpKind::ConvertLayout ||
        Next.kind() == OpKind::Histogram ||
        analysis::movesThroughSharedMemory(Next, LM) ||
        (Next.kind() == OpKind::Dot && !(Active && Active->Dots.count(&Next)));
    if (WritesScratch)
      return nullptr;
  }
  return nullptr;
}

const std::string &KernelEmitter::scratch(const Op &O, unsigned Bytes,
                                          bool Swizzled) {
  if (Bytes > ScratchBytes) {
    ScratchBytes = Bytes;
    ScratchLoc = O.loc();
  }
  ScratchSwizzled |= Swizzled;
  return Scratch;
}

void KernelEmitter::emitConvert(const Op &O) {
  const Value *Src = O.operand(0), *R = O.result();
  declareTile(R);
  const Type &T = R->type();
  const std::string Buf = nameOf(R) + "_smem", Elem = deviceType(T.Elem);
  line("{ // " + LM.get(Src).str() + " -> " + LM.get(R).str());
  const unsigned Bytes = T.numel() * storageBytes(T.Elem.Kind);
  // A tile stored from the new layout (an accumulator's, see
  // LayoutAssignment's widerStoreLayout) between pipelines uses their rings'
  // memory; other conversions (attention's Q) keep the scratch until
  // measured there.
  const bool Stored = Uses.lookup(R) == 1 &&
                      llvm::any_of(O.parentBlock()->ops(), [&](const auto &U) {
                        return U->kind() == OpKind::Store && U->operand(1) == R;
                      });
  const bool AfterPipelines = Stored && OpenPipelines == 0 &&
                              PipelineBytes > 0 && !Producer.active() &&
                              EP.Flats.empty();
  if (AfterPipelines)
    ConvertBufferBytes = std::max(ConvertBufferBytes, Bytes);
  line(Elem + " *const " + Buf + " = " +
           (AfterPipelines ? "rt::dynamic_smem<" + Elem + ">(" +
                                 ConvertBufferMark.str() + ")"
                           : "reinterpret_cast<" + Elem + " *>(" +
                                 scratch(O, Bytes) + ")") +
           ";",
       1);
  // A 2-D tile goes through a swizzled tile: each thread writes and reads
  // its runs of neighbours as vectors, and the rows a warp touches at once
  // spread over the banks. A value computed where used (an accumulator's
  // cast) is computed into registers first.
  if (T.Shape.size() == 2 && T.Shape[1] * storageBytes(T.Elem.Kind) % 16 == 0) {
    std::string Values = nameOf(Src);
    if (!materialized(Src)) {
      Values = fresh(Values + "_values");
      line(Elem + " " + Values + "[" + std::to_string(elems(Src)) + "];", 1);
      line("#pragma unroll", 1);
      line(loopHeader(elems(Src)), 1);
      line(Values + "[e] = " + elem(Src, "e") + ";", 2);
    }
    const std::string Tile = smemTileType(T) + "{" + Buf + "}";
    line(Tile + ".template store<" + layoutOf(Src) + ">(" + Values + ");", 1);
    line(barrier(), 1);
    line(Tile + ".template load<" + layoutOf(R) + ">(" + nameOf(R) + ");", 1);
    line(barrier(), 1);
    line("}");
    return;
  }
  line("#pragma unroll", 1);
  line(loopHeader(elems(Src)), 1);
  // Copies of an element (replicated layouts) are not written twice.
  line("if (" + layoutOf(Src) + "::owns(e))", 2);
  line(Buf + "[rt::linear_index<" + layoutOf(Src) +
           ">(e)] = " + elem(Src, "e") + ";",
       3);
  line(barrier(), 1);
  line("#pragma unroll", 1);
  line(loopHeader(elems(R)), 1);
  line(nameOf(R) + "[e] = " + Buf + "[rt::linear_index<" + layoutOf(R) +
           ">(e)];",
       2);
  line(barrier(), 1);
  line("}");
}

} // namespace tilecc::codegen
