//===- DeviceEmitter.cpp - One variant's device code ----------------------===//
//
// KernelEmitter::run: the uses that decide which tiles are materialized, the
// kernel's parameters and tensor maps, and the body, statement by statement;
// then its shared memory. Expressions, memory accesses, reductions, dots and
// pipelines are printed by the Emit*.cpp, PipelineEmitter.cpp and
// ProducerEmitter.cpp files.
//
//===----------------------------------------------------------------------===//
#include "codegen/DeviceEmitter.h"
#include "analysis/ShapeLayouts.h"
#include "codegen/KernelEmitter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

std::string deviceType(const ElemType &E) {
  if (!E.isPointer())
    return deviceSpelling(E.Kind).str();
  return (E.PointeeConst ? "const " : "") + deviceSpelling(E.Pointee).str() +
         " *";
}

std::string declaration(const ElemType &E, const std::string &Name) {
  std::string T = deviceType(E);
  return T + (E.isPointer() ? "" : " ") + Name;
}

/// Writes a buffer's shared-memory offset where the lines hold its Mark.
static void replaceMark(std::string &Body, llvm::StringRef Mark,
                        unsigned Offset) {
  for (size_t At; (At = Body.find(Mark)) != std::string::npos;)
    Body.replace(At, Mark.size(), std::to_string(Offset));
}

EmittedKernel KernelEmitter::run() {
  countUses(F.body());
  // A rotated loop's chain rewrites the accumulator's registers in place:
  // its values are that array, never recomputed where used.
  for (const auto &[Loop, R] : Producer.Rotated)
    for (const Op *C : R.Chain)
      NeedsArray.insert(C->result());
  EmittedKernel K;
  llvm::raw_string_ostream PS(K.Params);
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Value *A = F.Params[I].Arg;
    // A parameter only the grid rule uses would warn in device code.
    PS << (I ? ", " : "") << (Uses.lookup(A) ? "" : "[[maybe_unused]] ")
       << declaration(A->type().Elem, nameOf(A));
  }
  for (const auto &[L, Map] : Tma) {
    std::string Name =
        fresh(nameOf(writesBox(*L) ? L->operand(1) : L->result()) + "_map");
    MapNames[L] = Name;
    PS << ", const __grid_constant__ CUtensorMap " << Name;
    const Type &T = (writesBox(*L) ? L->operand(1) : L->result())->type();
    K.TensorMaps.push_back({Name, stageType(*L), &Map,
                            llvm::SmallVector<int64_t, 2>(T.Shape),
                            L->kind() == OpKind::AtomicAdd});
  }
  const size_t ScratchAt = Body.size();
  Scratch = fresh("scratch");
  declareDivisors();
  if (Producer.active())
    emitSplit();
  emitBlock(F.body());
  if (StoreBufferBytes) {
    const bool OverRings = StoresAfterPipelines && StoreBufferBytes <= RingsEnd;
    const unsigned Offset =
        OverRings ? 0 : (PipelineBytes + 1023) / 1024 * 1024;
    replaceMark(Body, StoreBufferMark, Offset);
    if (Offset + StoreBufferBytes + 1024 > DynamicSharedBytes) {
      DynamicSharedBytes = Offset + StoreBufferBytes + 1024;
      PipelineLoc = StoreBufferLoc;
    }
  }
  // Conversions between pipelines go through the rings' memory where every
  // pipeline's rings hold them and nothing else may be using it then: no
  // TMA store still reading a buffer there, no operands staged ahead.
  if (ConvertBufferBytes) {
    const bool OverRings = ConvertBufferBytes <= RingsEnd &&
                           !writesByTma(Tma) && StagedAheadBytes == 0;
    const unsigned End = DynamicSharedBytes ? DynamicSharedBytes - 1024 : 0;
    const unsigned Offset = OverRings ? 0 : (End + 1023) / 1024 * 1024;
    replaceMark(Body, ConvertBufferMark, Offset);
    DynamicSharedBytes =
        std::max(DynamicSharedBytes, Offset + ConvertBufferBytes + 1024);
  }
  // Only the helpers a variant actually emits count. Static shared memory
  // is the sum of its buffers, and NVIDIA GPUs cap it at 48 KB; past that
  // the generator asks for the scratch in dynamic memory. alignas first:
  // HIP's __shared__ is an attribute that would take it.
  if (ScratchBytes && DynamicScratch) {
    const unsigned End = DynamicSharedBytes ? DynamicSharedBytes - 1024 : 0;
    const unsigned Offset = (End + 1023) / 1024 * 1024;
    DynamicSharedBytes = Offset + ScratchBytes + 1024;
    Body.insert(ScratchAt, "  unsigned char *const " + Scratch +
                               " = rt::dynamic_smem<unsigned char>(" +
                               std::to_string(Offset) + ");\n");
  } else if (ScratchBytes) {
    StaticSharedBytes += ScratchBytes;
    Body.insert(ScratchAt, "  alignas(" +
                               std::to_string(ScratchSwizzled ? 1024 : 16) +
                               ") __shared__ unsigned char " + Scratch + "[" +
                               std::to_string(ScratchBytes) + "];\n");
  }
  if (writesByTma(Tma)) {
    // Shared memory must outlive the TMA stores reading it.
    line("if (threadIdx.x == 0)");
    line("rt::tma_store_wait<false>();", 1);
  }
  K.Body = std::move(Body);
  K.UnrolledSteps = UnrolledSteps;
  K.DotSteps = DotSteps;
  K.Float8DotSteps = Float8DotSteps;
  K.TileComments = std::move(TileComments);
  K.Accesses = std::move(Accesses);
  K.DynamicSharedBytes = DynamicSharedBytes;
  K.StaticSharedBytes = StaticSharedBytes;
  K.ScratchBytes = ScratchBytes;
  K.ScratchLoc = ScratchLoc;
  K.StagedAheadBytes = StagedAheadBytes;
  K.PartialsLoc = PartialsLoc;
  K.PipelineLoc = PipelineLoc;
  K.PipelineStages = PipelineStages;
  return K;
}

void KernelEmitter::declareDivisors() {
  for (const Value *A : EP.Divisors.Arguments) {
    const bool Divides = llvm::any_of(EP.Divisors.By, [&](const auto &E) {
      return E.second == A && !EP.Dropped.count(E.first);
    });
    if (!Divides)
      continue;
    const std::string N = fresh(nameOf(A) + "_divisor");
    DivisorNames[A] = N;
    line("const rt::divisor<" + deviceType(A->type().Elem) + "> " + N + "(" +
         nameOf(A) + ");");
  }
}

//===--- Use analysis ---------------------------------------------------===//

void KernelEmitter::countUses(const Block &B) {
  for (const auto &O : B.ops()) {
    if (EP.Dropped.count(O.get()))
      continue;
    for (const Value *V : O->operands()) {
      if (tmaStoreAddressing(Tma, *O, V))
        continue;
      ++Uses[V];
      if (V->definingOp() && V->definingOp()->parentBlock() != &B)
        UsedInOtherBlock.insert(V);
      // Stores (and TMA adds) read their value through a pointer to its
      // registers; reductions, scans, dot and trans take whole arrays.
      if ((writesBox(*O) &&
           (O->kind() == OpKind::Store || Tma.count(O.get())) &&
           V == O->operand(1)) ||
          takesWholeTiles(O->kind()))
        NeedsArray.insert(V);
      // tile::where evaluates both values for every element: a costly one
      // gets a loop of its own rather than a branch around it in the
      // select, so that what elements share (the reciprocal of one
      // divisor) is computed once.
      if (O->kind() == OpKind::Select && V != O->operand(0) &&
          V->definingOp() && isCostly(*V->definingOp()))
        NeedsArray.insert(V);
    }
    for (const auto &R : O->regions())
      countUses(*R);
  }
}

bool KernelEmitter::isCostly(const Op &O) {
  switch (O.kind()) {
  case OpKind::Div:
  case OpKind::Rem:
    return isFloat(O.result()->type().Elem.Kind);
  case OpKind::Exp:
  case OpKind::Exp2:
  case OpKind::Exp2Cubic:
  case OpKind::Log:
  case OpKind::Log2:
  case OpKind::Sqrt:
  case OpKind::Rsqrt:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Erf:
  case OpKind::Tanh:
  case OpKind::Sigmoid:
  case OpKind::Pow:
  case OpKind::Tan:
  case OpKind::Asin:
  case OpKind::Acos:
  case OpKind::Atan:
  case OpKind::Sinh:
  case OpKind::Cosh:
  case OpKind::Asinh:
  case OpKind::Acosh:
  case OpKind::Atanh:
  case OpKind::Log10:
  case OpKind::Log1p:
  case OpKind::Expm1:
  case OpKind::Cbrt:
  case OpKind::Erfc:
  case OpKind::Erfinv:
  case OpKind::SqrtRn:
  case OpKind::Atan2:
  case OpKind::Hypot:
  case OpKind::DivRn:
  case OpKind::Philox:
    return true;
  default:
    return false;
  }
}

bool KernelEmitter::takesWholeTiles(OpKind K) {
  return categoryOf(K) == OpCategory::Reduce ||
         categoryOf(K) == OpCategory::Scan || K == OpKind::Dot ||
         K == OpKind::Trans || K == OpKind::Histogram ||
         analysis::isRearrangement(K) || K == OpKind::Sort ||
         K == OpKind::Gather;
}

bool KernelEmitter::materialized(const Value *V) {
  if (V->type().isScalar())
    return true;
  const Op *D = V->definingOp();
  if (!D || categoryOf(D->kind()) == OpCategory::Memory ||
      isStructuredControl(D->kind()) || D->kind() == OpKind::ConvertLayout ||
      takesWholeTiles(D->kind()) ||
      (D->kind() == OpKind::InlineAsm && D->asmPack() > 1))
    return true;
  if (D->kind() == OpKind::Const)
    return false;
  return !V->name().empty() || Uses.lookup(V) > 1 ||
         UsedInOtherBlock.count(V) || NeedsArray.count(V);
}

//===--- Names ----------------------------------------------------------===//

bool KernelEmitter::isReserved(llvm::StringRef N) {
  static const char *const Words[] = {
      "e",        "rt",       "threadIdx", "blockIdx", "blockDim",  "gridDim",
      "warpSize", "INFINITY", "NAN",       "int8_t",   "int16_t",   "int64_t",
      "uint8_t",  "uint16_t", "uint64_t",  "tile",     "tilecc_gen"};
  if (llvm::is_contained(Words, N))
    return true;
  auto Numbered = [&](char C) {
    return N.size() > 1 && N[0] == C &&
           N.drop_front().find_first_not_of("0123456789") ==
               llvm::StringRef::npos;
  };
  return Numbered('t') || Numbered('L');
}

std::string KernelEmitter::nameOf(const Value *V) {
  auto It = Names.find(V);
  if (It != Names.end())
    return It->second;
  std::string Base = "t" + std::to_string(V->id());
  if (!V->name().empty())
    Base = isReserved(V->name()) ? V->name().str() + "_" : V->name().str();
  return Names[V] = fresh(Base);
}

std::string KernelEmitter::fresh(const std::string &Base) {
  std::string N = Base;
  for (unsigned I = 1; Taken.count(N); ++I)
    N = Base + "_" + std::to_string(I);
  Taken.insert(N);
  return N;
}

std::string KernelEmitter::layoutOf(const Value *V) {
  return NameLayout(LM.get(V), V->type().Shape);
}

unsigned KernelEmitter::elems(const Value *V) {
  return LM.get(V).elemsPerThread(V->type().Shape);
}

//===--- Statements -----------------------------------------------------===//

void KernelEmitter::line(const std::string &S, int Shift) {
  Body.append((int(Depth) + Shift) * 2, ' ');
  Body += S;
  Body += "\n";
}

void KernelEmitter::lineDirective(const Op &O) {
  if (!O.loc().Line || O.loc().Line == LastLine)
    return;
  LastLine = O.loc().Line;
  Body += "#line " + std::to_string(LastLine) + " \"" + SourcePath + "\"\n";
}

std::string KernelEmitter::loopHeader(unsigned N, unsigned Step) {
  UnrolledSteps += N / Step;
  return "for (int e = 0; e < " + std::to_string(N) + "; " +
         (Step == 1 ? "++e" : "e += " + std::to_string(Step)) + ")";
}

std::string KernelEmitter::constDecl(const Value *V, const std::string &Name) {
  std::string T = deviceType(V->type().Elem);
  std::string N = Name.empty() ? nameOf(V) : Name;
  return V->type().Elem.isPointer() ? T + "const " + N : "const " + T + " " + N;
}

void KernelEmitter::declareTileAs(const Value *V, const std::string &Name) {
  line(declaration(V->type().Elem, Name) + "[" + std::to_string(elems(V)) +
       "];");
}

void KernelEmitter::declareTile(const Value *V) {
  declareTileAs(V, nameOf(V));
  // A pipeline's prefetch declares its slice's tiles again.
  if (Commented.insert(V).second)
    TileComments.push_back(nameOf(V) + " : " + V->type().str() + " " +
                           layoutOf(V) + " (" + std::to_string(elems(V)) +
                           " per thread)");
}

void KernelEmitter::assignValue(const Value *To, const std::string &ToName,
                                const Value *From) {
  if (To->type().isScalar()) {
    line(ToName + " = " + scalar(From) + ";");
    return;
  }
  line("#pragma unroll");
  line(loopHeader(elems(To)));
  line(ToName + "[e] = " + elem(From, "e") + ";", 1);
}

void KernelEmitter::emitBlock(const Block &B) {
  // What an earlier emission of B left in shared memory is no longer there.
  llvm::erase_if(StagedResidents,
                 [&](const StagedResident &S) { return S.Block == &B; });
  for (const auto &O : B.ops()) {
    if (OperandBuffers.count(O.get()))
      awaitOperand(*O);
    else if ((!Active || !Active->ProducerOnly.count(O.get())) &&
             !EP.Dropped.count(O.get()))
      emitOpAfterProducts(*O);
    for (const Op *L : Producer.OperandLoads)
      if (auto It = OperandBuffers.find(L);
          It != OperandBuffers.end() && It->second.LastUse == O.get())
        releaseOperand(*L);
  }
}

void KernelEmitter::emitOp(const Op &O) {
  switch (O.kind()) {
  case OpKind::Const:
  case OpKind::Yield:
    return;
  case OpKind::Load:
    lineDirective(O);
    return emitLoad(O);
  case OpKind::Store:
    lineDirective(O);
    return emitStore(O);
  case OpKind::AtomicAdd:
  case OpKind::AtomicMax:
  case OpKind::AtomicMin:
  case OpKind::AtomicAnd:
  case OpKind::AtomicOr:
  case OpKind::AtomicXor:
  case OpKind::AtomicXchg:
  case OpKind::AtomicCas:
    lineDirective(O);
    return emitAtomic(O);
  case OpKind::For:
    lineDirective(O);
    emitFor(O);
    closeLoopHistograms(O);
    return onLaneSums(O, &DeferredLaneSums::PartialSum::Combine,
                      "rt::combine_lanes", "rt::op_sum{}");
  case OpKind::If:
    lineDirective(O);
    return emitIf(O);
  case OpKind::While:
    lineDirective(O);
    return emitWhile(O);
  case OpKind::Scan:
    lineDirective(O);
    return emitScan(O);
  case OpKind::Histogram:
    lineDirective(O);
    return emitHistogram(O);
  case OpKind::Dot:
    lineDirective(O);
    if (Active && Active->Dots.count(&O))
      return emitStagedDot(O);
    return emitDot(O);
  case OpKind::Trans: {
    if (EP.FoldedTransposes.count(&O))
      return;
    lineDirective(O);
    declareTile(O.result());
    const Type &T = O.result()->type();
    line("rt::transpose<" + layoutOf(O.operand(0)) + ", " +
         layoutOf(O.result()) + syncArg() + ">(" + nameOf(O.operand(0)) + ", " +
         nameOf(O.result()) + ", " +
         scratch(O, T.numel() * storageBytes(T.Elem.Kind)) + ");");
    return;
  }
  case OpKind::ConvertLayout:
    lineDirective(O);
    return emitConvert(O);
  case OpKind::Reshape:
  case OpKind::Permute:
  case OpKind::Join:
  case OpKind::Split:
  case OpKind::Cat:
  case OpKind::Flip:
  case OpKind::Sort:
  case OpKind::Gather:
    lineDirective(O);
    return emitRearrangement(O);
  case OpKind::Print:
    lineDirective(O);
    return emitPrint(O);
  case OpKind::Assert:
    lineDirective(O);
    return emitAssert(O);
  case OpKind::DebugBarrier:
    lineDirective(O);
    if (!O.message().empty())
      line("// " + O.message() + ".");
    return line(barrier());
  case OpKind::GdcWait:
    lineDirective(O);
    return line("rt::griddepcontrol_wait();");
  case OpKind::Assume:
    lineDirective(O);
    return line("rt::assume(" + scalar(O.operand(0)) + ");");
  case OpKind::InlineAsm:
    if (O.asmPack() == 1)
      break;
    lineDirective(O);
    return emitPackedAsm(O);
  case OpKind::GdcLaunchDependents:
    lineDirective(O);
    return line("rt::griddepcontrol_launch_dependents();");
  default:
    if (categoryOf(O.kind()) == OpCategory::Reduce) {
      lineDirective(O);
      return emitReduce(O);
    }
    break;
  }
  const Value *R = O.result();
  if (!materialized(R))
    return;
  lineDirective(O);
  if (R->type().isScalar()) {
    line(constDecl(R) + " = " + compute(O, "0") + ";");
    return;
  }
  declareTile(R);
  line("#pragma unroll");
  if (convertsInPairs(O)) {
    // One instruction converts two elements (attention's P, every
    // iteration).
    line("for (int e = 0; e < " + std::to_string(elems(R)) + "; e += 2)");
    line("rt::convert_pair(" + nameOf(R) + "[e], " + nameOf(R) + "[e + 1], " +
             elem(O.operand(0), "e") + ", " + elem(O.operand(0), "e + 1") +
             ");",
         1);
    return;
  }
  line(loopHeader(elems(R)));
  line(nameOf(R) + "[e] = " + compute(O, "e") + ";", 1);
}

bool KernelEmitter::convertsInPairs(const Op &O) {
  const Type &T = O.result()->type();
  const ScalarKind To = T.Elem.Kind;
  return O.kind() == OpKind::Cast && !T.isScalar() &&
         elems(O.result()) % 2 == 0 &&
         O.operand(0)->type().Elem.Kind == ScalarKind::F32 &&
         (To == ScalarKind::F8E4M3 || To == ScalarKind::F8E5M2);
}

void KernelEmitter::declareResult(const Value *R, const Value *Init) {
  if (R->type().isScalar()) {
    line(declaration(R->type().Elem, nameOf(R)) +
         (Init ? " = " + scalar(Init) : "") + ";");
    return;
  }
  declareTile(R);
  if (Init)
    assignValue(R, nameOf(R), Init);
}

void KernelEmitter::emitYield(const Op &Parent, const Block &B) {
  const Op *Y = B.terminator();
  unsigned N = Y->numOperands();
  if (N == 1 || Parent.kind() == OpKind::If) {
    for (unsigned I = 0; I < N; ++I)
      if (Y->operand(I) != Parent.result(I) &&
          nameOf(Y->operand(I)) != nameOf(Parent.result(I)))
        assignValue(Parent.result(I), nameOf(Parent.result(I)), Y->operand(I));
    return;
  }
  // Values already in their storage (accumulated in place) stay.
  auto InPlace = [&](unsigned I) {
    return Y->operand(I) != Parent.result(I) &&
           nameOf(Y->operand(I)) == nameOf(Parent.result(I));
  };
  for (unsigned I = 0; I < N; ++I) {
    const Value *R = Parent.result(I);
    std::string Tmp = nameOf(R) + "_next";
    if (InPlace(I))
      continue;
    if (R->type().isScalar()) {
      line(constDecl(R, Tmp) + " = " + scalar(Y->operand(I)) + ";");
      continue;
    }
    line(declaration(R->type().Elem, Tmp) + "[" + std::to_string(elems(R)) +
         "];");
    assignValue(R, Tmp, Y->operand(I));
  }
  for (unsigned I = 0; I < N; ++I) {
    const Value *R = Parent.result(I);
    std::string Tmp = nameOf(R) + "_next";
    if (InPlace(I))
      continue;
    if (R->type().isScalar()) {
      line(nameOf(R) + " = " + Tmp + ";");
      continue;
    }
    line("#pragma unroll");
    line(loopHeader(elems(R)));
    line(nameOf(R) + "[e] = " + Tmp + "[e];", 1);
  }
}

void KernelEmitter::declareCarried(const Op &O) {
  for (unsigned I = 0; I < O.numResults(); ++I) {
    declareResult(O.result(I), O.operand(3 + I));
    Names[O.region(0)->argument(I + 1)] = nameOf(O.result(I));
  }
  onLaneSums(O, &DeferredLaneSums::PartialSum::Split, "rt::keep_first_lane",
             "0.0f");
  openLoopHistograms(O);
  openStagedAhead(O);
}

void KernelEmitter::onLaneSums(const Op &O,
                               bool DeferredLaneSums::PartialSum::*Where,
                               const std::string &Fn, const std::string &Arg) {
  if (auto It = EP.LaneSums.Carried.find(&O); It != EP.LaneSums.Carried.end())
    for (const DeferredLaneSums::PartialSum &S : It->second)
      if (S.*Where)
        line(Fn + "<" + std::to_string(S.Sum->axis()) + ", " +
             layoutOf(S.Sum->operand(0)) + ">(" + nameOf(O.result(S.Index)) +
             ", " + Arg + ");");
}

void KernelEmitter::emitFor(const Op &O) {
  if (auto It = Plans.find(&O); It != Plans.end()) {
    ++OpenPipelines;
    emitPipelinedFor(O, It->second);
    --OpenPipelines;
    return;
  }
  const Block &Body = *O.region(0);
  // Loop-carried values live in the storage of the loop's results.
  declareCarried(O);
  // A pipeline flattened into this loop is set up around it.
  const Op *Hosted = EP.FlatHosts.lookup(&O);
  if (Hosted)
    openPipeline(*Hosted, Plans.find(Hosted)->second);
  Nested InHostedPipeline(*this, Hosted ? 1 : 0);
  openFor(O);
  // The consumers' ring position, carried from one iteration of a loop the
  // producer walks to the next, stated warp-uniform again (rt::warp_uniform).
  if (Split && llvm::is_contained(Producer.Enclosing, &O)) {
    const PipelineState &St = States[Producer.Loops.front()];
    for (const std::string &V : {St.Read, St.Phase})
      line(V + " = rt::warp_uniform(" + V + ");", 1);
  }
  {
    Nested Deeper(*this);
    emitBlock(Body);
    emitYield(O, Body);
    stageAhead(O);
  }
  line("}");
  if (Hosted)
    line("}", -1);
}

void KernelEmitter::openFor(const Op &O, const std::string &From) {
  if (O.unrollHint())
    line("#pragma unroll " + std::to_string(O.unrollHint()));
  const Value *IV = O.region(0)->argument(0);
  const std::string N = nameOf(IV);
  line("for (" + declaration(IV->type().Elem, N) + " = " +
       (From.empty() ? scalar(O.operand(0)) : From) + "; " + N + " < " +
       scalar(O.operand(1)) + "; " + N + " += " + scalar(O.operand(2)) + ") {");
}

void KernelEmitter::emitIf(const Op &O) {
  for (unsigned I = 0; I < O.numResults(); ++I)
    declareResult(O.result(I), nullptr);
  line("if (" + scalar(O.operand(0)) + ") {");
  {
    Nested Deeper(*this);
    emitBlock(*O.region(0));
    emitYield(O, *O.region(0));
  }
  const Block &Else = *O.region(1);
  if (Else.ops().size() > 1 || O.numResults()) {
    line("} else {");
    {
      Nested Deeper(*this);
      emitBlock(Else);
      emitYield(O, Else);
    }
  }
  line("}");
}

void KernelEmitter::emitWhile(const Op &O) {
  // Carried values live in the storage of the loop's results.
  for (unsigned I = 0; I < O.numResults(); ++I) {
    declareResult(O.result(I), O.operand(I));
    for (const auto &R : O.regions())
      Names[R->argument(I)] = nameOf(O.result(I));
  }
  const Block &Cond = *O.region(0), &Body = *O.region(1);
  line("while (true) {");
  {
    Nested Deeper(*this);
    emitBlock(Cond);
  }
  line("if (!" + scalar(Cond.terminator()->operand(0)) + ")", 1);
  line("break;", 2);
  {
    Nested Deeper(*this);
    emitBlock(Body);
    emitYield(O, Body);
  }
  line("}");
}

std::string KernelEmitter::barrier() const {
  return Split ? "rt::sync_threads<" +
                     std::to_string(Producer.ConsumerThreads) + ">();"
               : "__syncthreads();";
}

std::string KernelEmitter::syncArg() const {
  return Split ? ", " + std::to_string(Producer.ConsumerThreads) : "";
}

EmittedKernel emitKernel(const Function &F, const LayoutMap &LM,
                         const AxisInfoAnalysis &AI, const Pipelines &Plans,
                         const TensorMapOps &Tma, const LayoutNamer &NameLayout,
                         const std::string &SourcePath,
                         const ProducerPlan &Producer, const EmissionPlan &EP,
                         bool DynamicScratch) {
  return KernelEmitter(F, LM, AI, Plans, Tma, NameLayout, SourcePath, Producer,
                       EP, DynamicScratch)
      .run();
}

} // namespace tilecc::codegen
