//===- DeviceEmitter.cpp --------------------------------------------------===//
#include "codegen/DeviceEmitter.h"
#include "analysis/LoopInvariantA.h"
#include "codegen/KernelEmitter.h"
#include "ir/Printer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

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

namespace {

/// Integers C++ promotes to int before arithmetic.
bool isNarrowInt(ScalarKind K) {
  return isInteger(K) && K != ScalarKind::I1 && bitWidth(K) < 32;
}

/// Whether any of the kernel's TMA accesses writes memory (a store or an add).
bool writesByTma(const TensorMapOps &Tma) {
  return llvm::any_of(Tma, [](const auto &E) { return writesBox(*E.first); });
}

} // namespace

EmittedKernel KernelEmitter::run() {
  planTmaPipelines();
  dropTmaAddressing();
  foldTransposes();
  LaneSums = deferredLaneSums(F, LM);
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
    const TensorMapAxis &Outer = Map.Axes[Map.outerDim()];
    const Type &T = (writesBox(*L) ? L->operand(1) : L->result())->type();
    // An axis without a mask ends with the box.
    auto Extent = [&](unsigned Dim) {
      const TensorMapAxis &Axis = Map.Axes[Dim];
      return Axis.Bound ? hostScalar(Axis.Bound)
                        : std::to_string(Axis.Start + T.Shape[Dim]);
    };
    K.TensorMaps.push_back(
        {Name, stageType(*L), hostScalar(Map.Base), Extent(Map.InnerDim),
         Extent(Map.outerDim()), hostScalar(Outer.Stride),
         Map.Batch ? "std::uint64_t(" + hostScalar(Outer.Bound) + ") * " +
                         hostScalar(Outer.Stride)
                   : "",
         L->kind() == OpKind::AtomicAdd});
  }
  const size_t ScratchAt = Body.size();
  Scratch = fresh("scratch");
  if (Producer.active())
    emitSplit(1);
  emitBlock(F.body(), 1);
  if (StoreBufferBytes) {
    const unsigned Offset = (PipelineBytes + 1023) / 1024 * 1024;
    for (size_t At; (At = Body.find(StoreBufferMark)) != std::string::npos;)
      Body.replace(At, StoreBufferMark.size(), std::to_string(Offset));
    if (Offset + StoreBufferBytes + 1024 > DynamicSharedBytes) {
      DynamicSharedBytes = Offset + StoreBufferBytes + 1024;
      PipelineLoc = StoreBufferLoc;
    }
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
    line(1, "if (threadIdx.x == 0)");
    line(2, "rt::tma_store_wait<false>();");
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
  K.PartialsLoc = PartialsLoc;
  K.PipelineLoc = PipelineLoc;
  K.PipelineStages = PipelineStages;
  return K;
}

//===--- Use analysis ---------------------------------------------------===//

void KernelEmitter::countUses(const Block &B) {
  for (const auto &O : B.ops()) {
    if (Dropped.count(O.get()))
      continue;
    for (const Value *V : O->operands()) {
      if (tmaStoreAddressing(*O, V))
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
    }
    for (const auto &R : O->regions())
      countUses(*R);
  }
}

void KernelEmitter::planTmaPipelines() {
  walk(F.body(), [&](const Op &O) {
    auto It = Plans.find(&O);
    // A producer warpgroup runs ahead through the enclosing loops itself.
    if (It == Plans.end() || !byTma(It->second) || Producer.feeds(O))
      return;
    auto Flat = flattenPipeline(O, It->second, Tma);
    // A flattened pipeline's stages stay filled through the whole outer
    // body, so no other pipeline there may take the same shared memory.
    unsigned Pipelines = 0;
    if (Flat)
      walk(*Flat->Outer->region(0),
           [&](const Op &Inner) { Pipelines += Plans.count(&Inner); });
    if (Flat && Pipelines == 1) {
      FlatHosts[Flat->Outer] = &O;
      Flats[&O] = std::move(*Flat);
    }
  });
}

bool KernelEmitter::tmaStoreAddressing(const Op &O, const Value *V) {
  return writesBox(O) && Tma.count(&O) && (V == O.operand(0) || V == O.mask());
}

void KernelEmitter::dropTmaAddressing() {
  if (Tma.empty())
    return;
  const UserMap Users = users(F.body());
  llvm::DenseSet<const Op *> Rerun, Inputs;
  // The producer copies its operand loads: the consumers neither load nor
  // convert them.
  std::function<void(const Value *, const Op *)> Buffered = [&](const Value *V,
                                                                const Op *L) {
    BufferedFrom[V] = L;
    for (const Op *U : Users.lookup(V))
      if (U->kind() == OpKind::ConvertLayout) {
        Dropped.insert(U);
        Buffered(U->result(), L);
      }
  };
  for (const Op *L : Producer.OperandLoads) {
    Dropped.insert(L);
    Buffered(L->result(), L);
  }
  for (const auto &[Loop, P] : Plans) {
    if (!byTma(P))
      continue;
    llvm::DenseSet<const Op *> Slice = boxStartSlice(P, Tma);
    for (const Op *O : P.ProducerOnly)
      Dropped.insert(O);
    if (auto It = Flats.find(Loop); It != Flats.end())
      Slice.insert(It->second.OuterSlice.begin(), It->second.OuterSlice.end());
    Rerun.insert(Slice.begin(), Slice.end());
    // A producer warpgroup computes what its copies read itself.
    if (Producer.feeds(*Loop))
      continue;
    for (const Op *L : P.Loads)
      for (const Value *C : Tma.find(L)->second.coordinates())
        if (C->definingOp())
          Inputs.insert(C->definingOp());
    for (const Op *O : Slice)
      for (const Value *V : O->operands())
        if (V->definingOp())
          Inputs.insert(V->definingOp());
  }
  // What a prefetch reads but does not re-run stays in the body, as does
  // what TMA stores read.
  for (const Op *O : Rerun)
    Inputs.erase(O);
  for (const auto &[O, Map] : Tma)
    if (writesBox(*O))
      for (const Value *C : Map.coordinates())
        if (C->definingOp())
          Inputs.insert(C->definingOp());
  llvm::SmallVector<const Op *, 64> Pure;
  walk(F.body(), [&](const Op &O) {
    if (isPure(O) && !Inputs.count(&O))
      Pure.push_back(&O);
  });
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Op *O : Pure) {
      auto Uses = Users.lookup(O->result());
      if (!Dropped.count(O) && !Uses.empty() &&
          llvm::all_of(Uses, [&](const Op *U) {
            return Dropped.count(U) || tmaStoreAddressing(*U, O->result());
          })) {
        Dropped.insert(O);
        Changed = true;
      }
    }
  }
}

bool KernelEmitter::takesWholeTiles(OpKind K) {
  return categoryOf(K) == OpCategory::Reduce ||
         categoryOf(K) == OpCategory::Scan || K == OpKind::Dot ||
         K == OpKind::Trans;
}

bool KernelEmitter::materialized(const Value *V) {
  if (V->type().isScalar())
    return true;
  const Op *D = V->definingOp();
  if (!D || categoryOf(D->kind()) == OpCategory::Memory ||
      D->kind() == OpKind::For || D->kind() == OpKind::If ||
      D->kind() == OpKind::While || D->kind() == OpKind::ConvertLayout ||
      takesWholeTiles(D->kind()))
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

//===--- Expressions ----------------------------------------------------===//

std::string KernelEmitter::literal(const Op &O) {
  const ElemType &E = O.result()->type().Elem;
  std::string S;
  llvm::raw_string_ostream OS(S);
  switch (E.Kind) {
  case ScalarKind::I1:
    return O.intValue() ? "true" : "false";
  case ScalarKind::I32:
    return std::to_string(O.intValue());
  case ScalarKind::Ptr: // typed, as the C++ was: a ?: takes its type
    return "static_cast<" + deviceType(E) + ">(nullptr)";
  case ScalarKind::F32:
  case ScalarKind::F64:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
  case ScalarKind::F16:
  case ScalarKind::BF16: {
    double D = O.floatValue();
    std::string Num;
    if (std::isinf(D) || std::isnan(D)) {
      // CUDA's INFINITY and NAN are floats.
      Num = std::isnan(D) ? "NAN" : D < 0 ? "-INFINITY" : "INFINITY";
      return E.Kind == ScalarKind::F32 ? Num : deviceType(E) + "(" + Num + ")";
    }
    // The shortest digit counts that round-trip each type.
    OS << llvm::format(E.Kind == ScalarKind::F64 ? "%.17g" : "%.9g", D);
    Num = S;
    if (Num.find_first_of(".e") == std::string::npos)
      Num += ".0";
    if (E.Kind == ScalarKind::F64)
      return Num;
    if (E.Kind == ScalarKind::F32)
      return Num + "f";
    return deviceType(E) + "(" + Num + "f)";
  }
  default:
    return deviceType(E) + "(" + std::to_string(O.intValue()) + ")";
  }
}

std::string KernelEmitter::scalar(const Value *V) {
  const Op *D = V->definingOp();
  if (D && D->kind() == OpKind::Const)
    return literal(*D);
  return nameOf(V);
}

std::string KernelEmitter::elem(const Value *V, const std::string &Idx) {
  if (V->type().isScalar())
    return scalar(V);
  if (materialized(V))
    return nameOf(V) + "[" + Idx + "]";
  return compute(*V->definingOp(), Idx);
}

std::string KernelEmitter::operandExpr(const Op &O, unsigned I,
                                       const std::string &Idx) {
  return elem(O.operand(I), Idx);
}

std::string KernelEmitter::compute(const Op &O, const std::string &Idx) {
  auto A = [&](unsigned I) { return operandExpr(O, I, Idx); };
  const Type &RT = O.result()->type();
  switch (O.kind()) {
  case OpKind::Const:
    return literal(O);
  case OpKind::ProgramId:
    return std::string("static_cast<int>(blockIdx.") + "xyz"[O.axis()] + ")";
  case OpKind::NumPrograms:
    return std::string("static_cast<int>(gridDim.") + "xyz"[O.axis()] + ")";
  case OpKind::Arange: {
    std::string C = layoutOf(O.result()) + "::coord(" + Idx + ", 0)";
    return O.arangeStart() ? "(" + C + " + " + std::to_string(O.arangeStart()) + ")"
                       : C;
  }
  case OpKind::Splat:
    return scalar(O.operand(0));
  case OpKind::Broadcast:
  case OpKind::ExpandDims: {
    // A chain of expand_dims and broadcast is one index mapping from the
    // tile at its start.
    const Value *Src = O.operand(0);
    while (!Src->type().isScalar() && !materialized(Src) &&
           (Src->definingOp()->kind() == OpKind::Broadcast ||
            Src->definingOp()->kind() == OpKind::ExpandDims))
      Src = Src->definingOp()->operand(0);
    if (Src->type().isScalar())
      return scalar(Src);
    return elem(Src, "rt::broadcast_index<" + layoutOf(Src) + ", " +
                         layoutOf(O.result()) + ">(" + Idx + ")");
  }
  case OpKind::Cast:
    return "rt::convert<" + deviceType(RT.Elem) + ">(" + A(0) + ")";
  default:
    break;
  }
  std::string E = arithmetic(O, A);
  // Infix forms come parenthesized; calls need their own.
  if (isNarrowInt(RT.Elem.Kind) && !isComparison(O.kind()))
    return "static_cast<" + deviceType(RT.Elem) + ">" +
           (E.front() == '(' ? E : "(" + E + ")");
  return E;
}

template <class ArgFn>
std::string KernelEmitter::arithmetic(const Op &O, ArgFn A) {
  auto Infix = [&](const char *Op) {
    return "(" + A(0) + " " + Op + " " + A(1) + ")";
  };
  auto Call = [&](const std::string &Fn) {
    std::string S = Fn + "(";
    for (unsigned I = 0; I < O.numOperands(); ++I)
      S += (I ? ", " : "") + A(I);
    return S + ")";
  };
  switch (O.kind()) {
  case OpKind::Add:
  case OpKind::AddPtr:
    return Infix("+");
  case OpKind::Sub:
    return Infix("-");
  case OpKind::Mul:
    // uint16 operands promote to int, where 65535 * 65535 would overflow.
    if (O.result()->type().Elem.Kind == ScalarKind::U16)
      return "(unsigned(" + A(0) + ") * " + A(1) + ")";
    return Infix("*");
  case OpKind::Div:
    // fp32 `/` is Triton's div.full, not IEEE division (docs/language.md).
    if (O.result()->type().Elem.Kind == ScalarKind::F32)
      return Call("rt::div");
    return Infix("/");
  case OpKind::FloorDiv: // integers only: C truncation, like Triton's //
    return Infix("/");
  case OpKind::And:
    return Infix("&");
  case OpKind::Or:
    return Infix("|");
  case OpKind::Xor:
    return Infix("^");
  case OpKind::Shl:
    return Infix("<<");
  case OpKind::Shr:
    return Infix(">>");
  case OpKind::CmpEQ:
    return Infix("==");
  case OpKind::CmpNE:
    return Infix("!=");
  case OpKind::CmpLT:
    return Infix("<");
  case OpKind::CmpLE:
    return Infix("<=");
  case OpKind::CmpGT:
    return Infix(">");
  case OpKind::CmpGE:
    return Infix(">=");
  case OpKind::LogicalAnd:
    return Infix("&&");
  case OpKind::LogicalOr:
    return Infix("||");
  case OpKind::Neg:
    return "(-" + A(0) + ")";
  case OpKind::Not:
    return "(~" + A(0) + ")";
  case OpKind::LogicalNot:
    return "(!" + A(0) + ")";
  case OpKind::Select:
    return "(" + A(0) + " ? " + A(1) + " : " + A(2) + ")";
  default:
    // rem, cdiv, maximum, minimum, math functions, fma, clamp: one
    // tile::rt function each, named like the op.
    return Call("rt::" + spell(O.kind()).str());
  }
}

//===--- Statements -----------------------------------------------------===//

void KernelEmitter::line(unsigned Indent, const std::string &S) {
  Body.append(Indent * 2, ' ');
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

void KernelEmitter::declareTileAs(const Value *V, const std::string &Name,
                                  unsigned Indent) {
  line(Indent, declaration(V->type().Elem, Name) + "[" +
                   std::to_string(elems(V)) + "];");
}

void KernelEmitter::declareTile(const Value *V, unsigned Indent) {
  declareTileAs(V, nameOf(V), Indent);
  // A pipeline's prefetch declares its slice's tiles again.
  if (Commented.insert(V).second)
    TileComments.push_back(nameOf(V) + " : " + V->type().str() + " " +
                           layoutOf(V) + " (" + std::to_string(elems(V)) +
                           " per thread)");
}

void KernelEmitter::assignValue(const Value *To, const std::string &ToName,
                                const Value *From, unsigned Indent) {
  if (To->type().isScalar()) {
    line(Indent, ToName + " = " + scalar(From) + ";");
    return;
  }
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(To)));
  line(Indent + 1, ToName + "[e] = " + elem(From, "e") + ";");
}

void KernelEmitter::emitBlock(const Block &B, unsigned Indent) {
  // What an earlier emission of B left in shared memory is no longer there.
  llvm::erase_if(StagedResidents,
                 [&](const StagedResident &S) { return S.Block == &B; });
  for (const auto &O : B.ops()) {
    if (OperandBuffers.count(O.get()))
      awaitOperand(*O, Indent);
    else if ((!Active || !Active->ProducerOnly.count(O.get())) &&
             !Dropped.count(O.get()))
      emitOpAfterProducts(*O, Indent);
    for (const Op *L : Producer.OperandLoads)
      if (auto It = OperandBuffers.find(L);
          It != OperandBuffers.end() && It->second.LastUse == O.get())
        releaseOperand(*L, Indent);
  }
}

void KernelEmitter::emitOp(const Op &O, unsigned Indent) {
  switch (O.kind()) {
  case OpKind::Const:
  case OpKind::Yield:
    return;
  case OpKind::Load:
    lineDirective(O);
    return emitLoad(O, Indent);
  case OpKind::Store:
    lineDirective(O);
    return emitStore(O, Indent);
  case OpKind::AtomicAdd:
  case OpKind::AtomicMax:
  case OpKind::AtomicMin:
  case OpKind::AtomicAnd:
  case OpKind::AtomicOr:
  case OpKind::AtomicXor:
  case OpKind::AtomicXchg:
  case OpKind::AtomicCas:
    lineDirective(O);
    return emitAtomic(O, Indent);
  case OpKind::For:
    lineDirective(O);
    emitFor(O, Indent);
    return onLaneSums(O, &DeferredLaneSums::PartialSum::Combine,
                      "rt::combine_lanes", "rt::op_sum{}", Indent);
  case OpKind::If:
    lineDirective(O);
    return emitIf(O, Indent);
  case OpKind::While:
    lineDirective(O);
    return emitWhile(O, Indent);
  case OpKind::Scan:
    lineDirective(O);
    return emitScan(O, Indent);
  case OpKind::Dot:
    lineDirective(O);
    if (Active && Active->Dots.count(&O))
      return emitStagedDot(O, Indent);
    return emitDot(O, Indent);
  case OpKind::Trans: {
    if (FoldedTransposes.count(&O))
      return;
    lineDirective(O);
    declareTile(O.result(), Indent);
    const Type &T = O.result()->type();
    line(Indent, "rt::transpose<" + layoutOf(O.operand(0)) + ", " +
                     layoutOf(O.result()) + syncArg() + ">(" +
                     nameOf(O.operand(0)) + ", " + nameOf(O.result()) + ", " +
                     scratch(O, T.numel() * storageBytes(T.Elem.Kind)) + ");");
    return;
  }
  case OpKind::ConvertLayout:
    lineDirective(O);
    return emitConvert(O, Indent);
  case OpKind::DebugBarrier:
    lineDirective(O);
    return line(Indent, barrier());
  case OpKind::GdcWait:
    lineDirective(O);
    return line(Indent, "rt::griddepcontrol_wait();");
  case OpKind::GdcLaunchDependents:
    lineDirective(O);
    return line(Indent, "rt::griddepcontrol_launch_dependents();");
  default:
    if (categoryOf(O.kind()) == OpCategory::Reduce) {
      lineDirective(O);
      return emitReduce(O, Indent);
    }
    break;
  }
  const Value *R = O.result();
  if (!materialized(R))
    return;
  lineDirective(O);
  if (R->type().isScalar()) {
    line(Indent, constDecl(R) + " = " + compute(O, "0") + ";");
    return;
  }
  declareTile(R, Indent);
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(R)));
  line(Indent + 1, nameOf(R) + "[e] = " + compute(O, "e") + ";");
}

unsigned KernelEmitter::accessWidth(const Op &O) {
  const Value *P = O.operand(0);
  const Layout &L = LM.get(P);
  unsigned D = L.fastestDim();
  unsigned Bytes = P->type().Elem.pointeeBytes();
  const AxisInfo &PI = AI.get(P);
  int64_t V = std::min<int64_t>({int64_t(L.contiguousRun(P->type().Shape)),
                                 PI.Contiguity[D], 16 / Bytes});
  while (V > 1 && PI.Divisibility[D] % (V * Bytes) != 0)
    V /= 2;
  for (const Value *M : {O.mask(), O.other()})
    if (M)
      V = std::gcd(V, AI.get(M).Constancy[D]);
  // Widths are powers of two that divide the run.
  int64_t W = 1;
  while (W * 2 <= V)
    W *= 2;
  return W;
}

std::string KernelEmitter::maskExpr(const Op &O, const std::string &Idx) {
  return O.mask() ? elem(O.mask(), Idx) : "true";
}

void KernelEmitter::emitLoad(const Op &O, unsigned Indent) {
  if (Active && llvm::is_contained(Active->OwnLoads, &O))
    return emitOwnStagedRead(O, Indent);
  const Value *R = O.result();
  const ElemType &E = R->type().Elem;
  if (R->type().isScalar()) {
    std::string Ptr = scalar(O.operand(0));
    std::string Load = "*" + Ptr;
    if (O.mask())
      Load = scalar(O.mask()) + " ? " + Load + " : " +
             (O.other() ? scalar(O.other()) : deviceType(E) + "(0)");
    line(Indent, constDecl(R) + " = " + Load + ";");
    return;
  }
  unsigned W = accessWidth(O);
  Accesses.push_back("load " + nameOf(R) + ": v" + std::to_string(W));
  declareTile(R, Indent);
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(R), W));
  std::string Other = O.other() ? elem(O.other(), "e") : deviceType(E) + "(0)";
  line(Indent + 1, "rt::ld_global_v" + std::to_string(W) + "(&" + nameOf(R) +
                       "[e], " + elem(O.operand(0), "e") + ", " +
                       maskExpr(O, "e") + ", " + Other + ");");
}

void KernelEmitter::emitTmaStore(const Op &O, unsigned Indent) {
  const Value *Val = O.operand(1);
  const TensorMapAccess &Map = Tma.find(&O)->second;
  const Type &T = Val->type();
  const unsigned Bytes = T.numel() * storageBytes(T.Elem.Kind);
  if (Bytes > StoreBufferBytes) {
    StoreBufferBytes = Bytes;
    StoreBufferLoc = O.loc();
  }
  const bool Add = O.kind() == OpKind::AtomicAdd;
  Accesses.push_back((Add ? "atomic_add " : "store ") + nameOf(Val) + ": tma");
  std::string Buf = fresh(nameOf(Val) + "_out");
  std::string Elem = deviceType(T.Elem);
  line(Indent, "{ // " + std::string(Add ? "add " : "store ") + nameOf(Val) +
                   " through shared memory: one TMA " +
                   (Add ? "reduce-add" : "store"));
  line(Indent + 1, "const " + stageType(O) + " " + Buf + "{rt::dynamic_smem<" +
                       Elem + ">(" + StoreBufferMark.str() + ")};");
  // Consumed, so that a block emitted again elsewhere decides afresh.
  if (const Op *Dot = StoreBufferWaited.lookup(&O)) {
    StoreBufferWaited.erase(&O);
    line(Indent + 1, "// Free: waited for in the dot at line " +
                         std::to_string(Dot->loc().Line) +
                         ", before its barrier.");
  } else {
    line(Indent + 1, "if (threadIdx.x == 0)");
    line(Indent + 2, "rt::tma_store_wait<true>();");
    line(Indent + 1, barrier());
  }
  line(Indent + 1,
       Buf + ".template store<" + layoutOf(Val) + ">(" + nameOf(Val) + ");");
  line(Indent + 1, "rt::fence_proxy_async();");
  line(Indent + 1, barrier());
  line(Indent + 1, "if (threadIdx.x == 0) {");
  line(Indent + 2, "rt::tma_store_tile" +
                       std::string(Add ? "<rt::tma_write::add>" : "") + "(&" +
                       MapNames.lookup(&O) + ", " + Buf + ", " +
                       boxCorner(Map) + ");");
  line(Indent + 2, "rt::tma_store_commit();");
  line(Indent + 1, "}");
  line(Indent, "}");
}

void KernelEmitter::emitStore(const Op &O, unsigned Indent) {
  if (Tma.count(&O))
    return emitTmaStore(O, Indent);
  const Value *Val = O.operand(1);
  if (Val->type().isScalar()) {
    std::string S = "*" + scalar(O.operand(0)) + " = " + scalar(Val) + ";";
    line(Indent, O.mask() ? "if (" + scalar(O.mask()) + ") " + S : S);
    return;
  }
  unsigned W = accessWidth(O);
  Accesses.push_back("store " + nameOf(Val) + ": v" + std::to_string(W));
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(Val), W));
  line(Indent + 1, "rt::st_global_v" + std::to_string(W) + "(" +
                       elem(O.operand(0), "e") + ", &" + nameOf(Val) + "[e], " +
                       maskExpr(O, "e") + ");");
}

void KernelEmitter::emitAtomic(const Op &O, unsigned Indent) {
  if (Tma.count(&O))
    return emitTmaStore(O, Indent);
  const Value *R = O.result();
  std::string Fn = "rt::" + spell(O.kind()).str();
  std::string Order = std::to_string(unsigned(O.memOrder())),
              Scope = std::to_string(unsigned(O.memScope()));
  auto Call = [&](const std::string &Idx, const std::string &Pred) {
    std::string S = Fn + "(";
    for (unsigned I = 0; I < O.numOperands(); ++I) {
      if (O.hasMask() && O.operand(I) == O.mask())
        continue;
      S += (I ? ", " : "") + elem(O.operand(I), Idx);
    }
    std::string M = O.mask() ? elem(O.mask(), Idx) : "";
    return S + ", " +
           (M.empty()      ? Pred
            : Pred.empty() ? M
                           : M + " && " + Pred) +
           ")";
  };
  // Old values nobody reads are not kept (nvcc warns about them).
  bool Used = Uses.lookup(R) > 0;
  // A release publishes the program's earlier writes, but its fence does not
  // order TMA stores and adds (another proxy's, still in flight): thread 0,
  // which issued them, first waits until they have completed.
  const bool AfterTmaWrites = O.releases() && writesByTma(Tma);
  if (R->type().isScalar()) {
    // One thread runs the atomic and its fences.
    line(Indent,
         (Used ? constDecl(R) + " = " : "") + "rt::in_one_thread([&] { " +
             (AfterTmaWrites ? "rt::tma_store_wait<false>(); " : "") +
             "return rt::fenced<" + Order + ", " + Scope + ">([&] { return " +
             Call("0", O.mask() ? "" : "true") + "; }); });");
    return;
  }
  if (AfterTmaWrites) {
    line(Indent, "if (threadIdx.x == 0)");
    line(Indent + 1, "rt::tma_store_wait<false>();");
    line(Indent, barrier());
  }
  line(Indent, "rt::atomic_fence_before<" + Order + ", " + Scope + ">();");
  if (Used)
    declareTile(R, Indent);
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(R)));
  line(Indent + 1, (Used ? nameOf(R) + "[e] = " : "") +
                       Call("e", layoutOf(O.operand(0)) + "::owns(e)") + ";");
  line(Indent, "rt::atomic_fence_after<" + Order + ", " + Scope + ">();");
}

void KernelEmitter::declareResult(const Value *R, unsigned Indent,
                                  const Value *Init) {
  if (R->type().isScalar()) {
    line(Indent, declaration(R->type().Elem, nameOf(R)) +
                     (Init ? " = " + scalar(Init) : "") + ";");
    return;
  }
  declareTile(R, Indent);
  if (Init)
    assignValue(R, nameOf(R), Init, Indent);
}

void KernelEmitter::emitYield(const Op &Parent, const Block &B,
                              unsigned Indent) {
  const Op *Y = B.terminator();
  unsigned N = Y->numOperands();
  if (N == 1 || Parent.kind() == OpKind::If) {
    for (unsigned I = 0; I < N; ++I)
      if (Y->operand(I) != Parent.result(I) &&
          nameOf(Y->operand(I)) != nameOf(Parent.result(I)))
        assignValue(Parent.result(I), nameOf(Parent.result(I)), Y->operand(I),
                    Indent);
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
      line(Indent, constDecl(R, Tmp) + " = " + scalar(Y->operand(I)) + ";");
      continue;
    }
    line(Indent, declaration(R->type().Elem, Tmp) + "[" +
                     std::to_string(elems(R)) + "];");
    assignValue(R, Tmp, Y->operand(I), Indent);
  }
  for (unsigned I = 0; I < N; ++I) {
    const Value *R = Parent.result(I);
    std::string Tmp = nameOf(R) + "_next";
    if (InPlace(I))
      continue;
    if (R->type().isScalar()) {
      line(Indent, nameOf(R) + " = " + Tmp + ";");
      continue;
    }
    line(Indent, "#pragma unroll");
    line(Indent, loopHeader(elems(R)));
    line(Indent + 1, nameOf(R) + "[e] = " + Tmp + "[e];");
  }
}

void KernelEmitter::declareCarried(const Op &O, unsigned Indent) {
  for (unsigned I = 0; I < O.numResults(); ++I) {
    declareResult(O.result(I), Indent, O.operand(3 + I));
    Names[O.region(0)->argument(I + 1)] = nameOf(O.result(I));
  }
  onLaneSums(O, &DeferredLaneSums::PartialSum::Split, "rt::keep_first_lane",
             "0.0f", Indent);
}

void KernelEmitter::onLaneSums(const Op &O,
                               bool DeferredLaneSums::PartialSum::*Where,
                               const std::string &Fn, const std::string &Arg,
                               unsigned Indent) {
  if (auto It = LaneSums.Carried.find(&O); It != LaneSums.Carried.end())
    for (const DeferredLaneSums::PartialSum &S : It->second)
      if (S.*Where)
        line(Indent, Fn + "<" + std::to_string(S.Sum->axis()) + ", " +
                         layoutOf(S.Sum->operand(0)) + ">(" +
                         nameOf(O.result(S.Index)) + ", " + Arg + ");");
}

void KernelEmitter::emitFor(const Op &O, unsigned Indent) {
  if (auto It = Plans.find(&O); It != Plans.end())
    return emitPipelinedFor(O, It->second, Indent);
  const Block &Body = *O.region(0);
  // Loop-carried values live in the storage of the loop's results.
  declareCarried(O, Indent);
  // A pipeline flattened into this loop is set up around it.
  const Op *Hosted = FlatHosts.lookup(&O);
  if (Hosted) {
    openPipeline(*Hosted, Plans.find(Hosted)->second, Indent);
    ++Indent;
  }
  line(Indent, forHeader(O));
  // The consumers' ring position, carried from one iteration of a loop the
  // producer walks to the next, stated warp-uniform again (rt::warp_uniform).
  if (Split && llvm::is_contained(Producer.Enclosing, &O)) {
    const PipelineState &St = States[Producer.Loops.front()];
    for (const std::string &V : {St.Read, St.Phase})
      line(Indent + 1, V + " = rt::warp_uniform(" + V + ");");
  }
  emitBlock(Body, Indent + 1);
  emitYield(O, Body, Indent + 1);
  line(Indent, "}");
  if (Hosted)
    line(Indent - 1, "}");
}

std::string KernelEmitter::forHeader(const Op &O, const std::string &From) {
  const Value *IV = O.region(0)->argument(0);
  const std::string N = nameOf(IV);
  return "for (" + declaration(IV->type().Elem, N) + " = " +
         (From.empty() ? scalar(O.operand(0)) : From) + "; " + N + " < " +
         scalar(O.operand(1)) + "; " + N + " += " + scalar(O.operand(2)) +
         ") {";
}

void KernelEmitter::emitIf(const Op &O, unsigned Indent) {
  for (unsigned I = 0; I < O.numResults(); ++I)
    declareResult(O.result(I), Indent, nullptr);
  line(Indent, "if (" + scalar(O.operand(0)) + ") {");
  emitBlock(*O.region(0), Indent + 1);
  emitYield(O, *O.region(0), Indent + 1);
  const Block &Else = *O.region(1);
  if (Else.ops().size() > 1 || O.numResults()) {
    line(Indent, "} else {");
    emitBlock(Else, Indent + 1);
    emitYield(O, Else, Indent + 1);
  }
  line(Indent, "}");
}

void KernelEmitter::emitWhile(const Op &O, unsigned Indent) {
  // Carried values live in the storage of the loop's results.
  for (unsigned I = 0; I < O.numResults(); ++I) {
    declareResult(O.result(I), Indent, O.operand(I));
    for (const auto &R : O.regions())
      Names[R->argument(I)] = nameOf(O.result(I));
  }
  const Block &Cond = *O.region(0), &Body = *O.region(1);
  line(Indent, "while (true) {");
  emitBlock(Cond, Indent + 1);
  line(Indent + 1, "if (!" + scalar(Cond.terminator()->operand(0)) + ")");
  line(Indent + 2, "break;");
  emitBlock(Body, Indent + 1);
  emitYield(O, Body, Indent + 1);
  line(Indent, "}");
}

std::string KernelEmitter::emitCombine(const Op &O, unsigned Indent) {
  const Block &R = *O.region(0);
  std::string Name = fresh("combine");
  std::string Params;
  for (const auto &A : R.arguments())
    Params += (Params.empty() ? "" : ", ") +
              declaration(A->type().Elem, nameOf(A.get()));
  line(Indent, "auto " + Name + " = [&](" + Params + ") {");
  emitBlock(R, Indent + 1);
  const Op *Y = R.terminator();
  std::string Values;
  for (const Value *V : Y->operands())
    Values += (Values.empty() ? "" : ", ") + scalar(V);
  line(Indent + 1,
       "return " +
           (Y->numOperands() == 1 ? Values : "rt::make_pack(" + Values + ")") +
           ";");
  line(Indent, "};");
  return O.numResults() == 1 ? Name : "rt::unpacked(" + Name + ")";
}

std::string KernelEmitter::packType(const Op &O) {
  std::string S;
  for (const auto &R : O.results())
    S += (S.empty() ? "" : ", ") + deviceType(R->type().Elem);
  return "rt::pack<" + S + ">";
}

std::string KernelEmitter::combinedInput(const Op &O, unsigned Indent) {
  const Value *X = O.operand(0);
  if (O.numOperands() == 1)
    return nameOf(X);
  std::string Name = fresh(nameOf(O.result(0)) + "_in");
  line(Indent,
       packType(O) + " " + Name + "[" + std::to_string(elems(X)) + "];");
  std::string Values;
  for (const Value *V : O.operands())
    Values += (Values.empty() ? "" : ", ") + elem(V, "e");
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(X)));
  line(Indent + 1, Name + "[e] = rt::make_pack(" + Values + ");");
  return Name;
}

std::string KernelEmitter::combinedOutput(const Op &O, unsigned Indent) {
  if (O.numResults() == 1) {
    declareTile(O.result(), Indent);
    return nameOf(O.result());
  }
  // Of several results, those nobody reads are left in the packs.
  for (const auto &R : O.results())
    if (Uses.lookup(R.get()))
      declareTile(R.get(), Indent);
  std::string Name = fresh(nameOf(O.result(0)) + "_out");
  line(Indent, packType(O) + " " + Name + "[" +
                   std::to_string(elems(O.result())) + "];");
  return Name;
}

void KernelEmitter::unpackResults(const Op &O, const std::string &Out,
                                  unsigned Indent) {
  if (O.numResults() == 1)
    return;
  line(Indent, "#pragma unroll");
  line(Indent, loopHeader(elems(O.result())) + " {");
  for (unsigned I = 0; I < O.numResults(); ++I)
    if (Uses.lookup(O.result(I)))
      line(Indent + 1, nameOf(O.result(I)) + "[e] = rt::get<" +
                           std::to_string(I) + ">(" + Out + "[e]);");
  line(Indent, "}");
}

void KernelEmitter::emitReduce(const Op &O, unsigned Indent) {
  const Value *X = O.operand(0), *R = O.result();
  bool IsArg = O.kind() == OpKind::ArgMax || O.kind() == OpKind::ArgMin;
  // tile::rt names its combine operations after the ops: rt::op_sum ...
  std::string Combine = O.kind() == OpKind::Reduce
                            ? emitCombine(O, Indent)
                            : "rt::op_" + spell(O.kind()).str() + "{}";
  std::string Fn = IsArg ? "rt::arg_reduce" : "rt::reduce";
  std::string In = combinedInput(O, Indent);
  if (R->type().isScalar()) {
    const std::string Instance = Fn + "_all<" + layoutOf(X) + syncArg() + ">";
    countPartials(O, Instance);
    std::string Call = Instance + "(" + In + ", " + Combine + ")";
    if (O.numResults() == 1) {
      line(Indent, constDecl(R) + " = " + Call + ";");
      return;
    }
    std::string All = fresh(nameOf(R) + "_all");
    line(Indent, "const " + packType(O) + " " + All + " = " + Call + ";");
    for (unsigned I = 0; I < O.numResults(); ++I)
      if (Uses.lookup(O.result(I)))
        line(Indent, constDecl(O.result(I)) + " = rt::get<" +
                         std::to_string(I) + ">(" + All + ");");
    return;
  }
  std::string Out = combinedOutput(O, Indent);
  // A loop-carried sum's lanes combine after the loop (LaneSums).
  if (LaneSums.Reduces.count(&O)) {
    line(Indent, "rt::reduce_in_thread<" + std::to_string(O.axis()) + ", " +
                     layoutOf(X) + ", " + layoutOf(R) + ">(" + In + ", " + Out +
                     ", " + Combine + ");");
    return unpackResults(O, Out, Indent);
  }
  const std::string Instance = Fn + "<" + std::to_string(O.axis()) + ", " +
                               layoutOf(X) + ", " + layoutOf(R) + syncArg() +
                               ">";
  countPartials(O, Instance);
  line(Indent, Instance + "(" + In + ", " + Out + ", " + Combine + ");");
  unpackResults(O, Out, Indent);
}

void KernelEmitter::emitScan(const Op &O, unsigned Indent) {
  std::string Combine = emitCombine(O, Indent);
  std::string In = combinedInput(O, Indent);
  std::string Out = combinedOutput(O, Indent);
  const std::string Instance = "rt::scan<" + std::to_string(O.scanAxis()) +
                               ", " + (O.scanReverse() ? "true" : "false") +
                               ", " + layoutOf(O.operand(0)) + ">";
  countPartials(O, Instance);
  line(Indent, Instance + "(" + In + ", " + Out + ", " + Combine + ");");
  unpackResults(O, Out, Indent);
}

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

void KernelEmitter::foldTransposes() {
  const UserMap Users = users(F.body());
  auto Staged = [&](const Op *D) {
    return llvm::any_of(Plans,
                        [&](const auto &P) { return P.second.Dots.count(D); });
  };
  walk(F.body(), [&](const Op &O) {
    const Value *T = O.kind() == OpKind::Trans ? O.result() : nullptr;
    // Kept to A tiles of whole 64-row blocks, the ones wgmma reads M-major
    // (the GPU tests' case); smaller ones keep the transpose.
    if (!T || storageBytes(T->type().Elem.Kind) != 2 ||
        T->type().Shape[0] % 64 != 0)
      return;
    auto It = Users.find(T);
    if (It == Users.end() || !llvm::all_of(It->second, [&](const Op *D) {
          return D->kind() == OpKind::Dot && D->operand(0) == T &&
                 D->operand(1) != T && !Staged(D) &&
                 LM.get(D->result()).isMmaAccumulator();
        }))
      return;
    FoldedTransposes.insert(&O);
  });
}

void KernelEmitter::countDot(const Op &O) {
  const Type &TA = O.operand(0)->type();
  // A tensor-core instruction is 32 bytes deep.
  const uint64_t Steps =
      uint64_t(elems(O.result())) *
      std::max<uint64_t>(1, TA.Shape[1] * storageBytes(TA.Elem.Kind) / 32);
  DotSteps += Steps;
  if (TA.Elem.Kind == ScalarKind::F8E4M3 || TA.Elem.Kind == ScalarKind::F8E5M2)
    Float8DotSteps += Steps;
}

void KernelEmitter::emitDot(const Op &O, unsigned Indent) {
  countDot(O);
  const Value *A = O.operand(0), *B = O.operand(1), *R = O.result();
  declareTile(R, Indent);
  const Type &TA = A->type(), &TB = B->type();
  const unsigned Bytes = storageBytes(TA.Elem.Kind);
  // A folded transpose's dot takes the untransposed tile (foldTransposes).
  const Op *T = A->definingOp();
  const bool Folded = T && FoldedTransposes.count(T);
  const Value *AIn = Folded ? T->operand(0) : A;
  bool Fma = !LM.get(R).isMmaAccumulator();
  std::string Callee =
      Folded ? "rt::dot_mma_trans_a<"
      : Fma  ? "rt::dot_fma<" +
                  std::string(
                      precisionName(O.precision())) +
                  ", "
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
      !Fma && !Folded && Bytes == 2 && !AtRisk &&
              analysis::holdsOperandA(LM.get(A), LM.get(R), TA.Shape[1])
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
  line(Indent, Callee + layoutOf(AIn) + ", " + layoutOf(B) + ", " +
                   layoutOf(R) + Use + Sync +
                   (Store ? ", rt::then::tma_store" : "") + ">(" + nameOf(AIn) +
                   ", " + (ResidentB ? Residents.lookup(B) : nameOf(B)) + ", " +
                   nameOf(O.operand(2)) + ", " + nameOf(R) + ", " + Buf + ");");
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
    if (Dropped.count(&Next))
      continue;
    if (writesBox(Next) && Tma.count(&Next))
      return &Next;
    const bool WritesScratch =
        Next.kind() == OpKind::For || Next.kind() == OpKind::If ||
        Next.kind() == OpKind::While ||
        (Next.kind() == OpKind::Trans && !FoldedTransposes.count(&Next)) ||
        Next.kind() == OpKind::ConvertLayout ||
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

namespace {

/// sizeof(rt::pack<...>) of these elements: a struct of them in order.
unsigned packBytes(llvm::ArrayRef<ScalarKind> Kinds) {
  unsigned Size = 0, Align = 1;
  for (ScalarKind K : Kinds) {
    const unsigned B = storageBytes(K);
    Size = (Size + B - 1) / B * B + B;
    Align = std::max(Align, B);
  }
  return (Size + Align - 1) / Align * Align;
}

/// detail::distinct_warps: the warps of P along D that hold different
/// elements of a tile Size long there.
int64_t distinctWarps(const analysis::BlockedLayout &P, unsigned D,
                      int64_t Size) {
  const int64_t Warps =
      Size / (int64_t(P.SizePerThread[D]) * P.ThreadsPerWarp[D]);
  return std::clamp<int64_t>(Warps, 1, P.WarpsPerCTA[D]);
}

} // namespace

void KernelEmitter::countPartials(const Op &O, const std::string &Instance) {
  const Value *X = O.operand(0);
  const Type &T = X->type();
  const analysis::Layout &L = LM.get(X);
  llvm::SmallVector<ScalarKind, 2> Kinds;
  for (const auto &R : O.results())
    Kinds.push_back(R->type().Elem.Kind);
  // arg_reduce carries (value, index) pairs.
  if (O.kind() == OpKind::ArgMax || O.kind() == OpKind::ArgMin)
    Kinds = {T.Elem.Kind, ScalarKind::I32};
  const bool Scan = O.kind() == OpKind::Scan;
  const bool All = !Scan && O.result()->type().isScalar();
  const unsigned Dim = Scan ? O.scanAxis() : All ? 0 : O.axis();
  // The dimension of the parent layout: reduce_all's tile is a slice of
  // its parent or the whole 1-D parent.
  unsigned D = Dim;
  if (L.SliceDim)
    D = All ? (*L.SliceDim == 0 ? 1 : 0) : Dim + (Dim >= *L.SliceDim);
  const int64_t W = distinctWarps(L.Parent, D, T.Shape[Dim]);
  if (W == 1 || !PartialBuffers.insert(Instance + packType(O)).second)
    return;
  const unsigned Bytes = W * (T.numel() / T.Shape[Dim]) * packBytes(Kinds);
  StaticSharedBytes += Bytes;
  if (Bytes > LargestPartials) {
    LargestPartials = Bytes;
    PartialsLoc = O.loc();
  }
}

void KernelEmitter::emitConvert(const Op &O, unsigned Indent) {
  const Value *Src = O.operand(0), *R = O.result();
  declareTile(R, Indent);
  const Type &T = R->type();
  const std::string Buf = nameOf(R) + "_smem", Elem = deviceType(T.Elem);
  line(Indent, "{ // " + LM.get(Src).str() + " -> " + LM.get(R).str());
  line(Indent + 1,
       Elem + " *const " + Buf + " = reinterpret_cast<" + Elem + " *>(" +
           scratch(O, T.numel() * storageBytes(T.Elem.Kind)) + ");");
  // A 2-D tile goes through a swizzled tile: each thread writes and reads
  // its runs of neighbours as vectors, and the rows a warp touches at once
  // spread over the banks.
  if (T.Shape.size() == 2 && materialized(Src) &&
      T.Shape[1] * storageBytes(T.Elem.Kind) % 16 == 0) {
    const std::string Tile = smemTileType(T) + "{" + Buf + "}";
    line(Indent + 1,
         Tile + ".template store<" + layoutOf(Src) + ">(" + nameOf(Src) + ");");
    line(Indent + 1, barrier());
    line(Indent + 1,
         Tile + ".template load<" + layoutOf(R) + ">(" + nameOf(R) + ");");
    line(Indent + 1, barrier());
    line(Indent, "}");
    return;
  }
  line(Indent + 1, "#pragma unroll");
  line(Indent + 1, loopHeader(elems(Src)));
  // Copies of an element (replicated layouts) are not written twice.
  line(Indent + 2, "if (" + layoutOf(Src) + "::owns(e))");
  line(Indent + 3, Buf + "[rt::linear_index<" + layoutOf(Src) +
                       ">(e)] = " + elem(Src, "e") + ";");
  line(Indent + 1, barrier());
  line(Indent + 1, "#pragma unroll");
  line(Indent + 1, loopHeader(elems(R)));
  line(Indent + 2, nameOf(R) + "[e] = " + Buf + "[rt::linear_index<" +
                       layoutOf(R) + ">(e)];");
  line(Indent + 1, barrier());
  line(Indent, "}");
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
                         const ProducerPlan &Producer, bool DynamicScratch) {
  return KernelEmitter(F, LM, AI, Plans, Tma, NameLayout, SourcePath, Producer,
                       DynamicScratch)
      .run();
}

} // namespace tilecc::codegen
