//===- DeviceEmitter.cpp --------------------------------------------------===//
#include "codegen/DeviceEmitter.h"
#include "ir/Printer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <numeric>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

std::string deviceType(const ElemType &E) {
  auto Scalar = [](ScalarKind K) -> std::string {
    switch (K) {
    case ScalarKind::I1:
      return "bool";
    case ScalarKind::I8:
      return "int8_t";
    case ScalarKind::I16:
      return "int16_t";
    case ScalarKind::I32:
      return "int";
    case ScalarKind::I64:
      return "int64_t";
    case ScalarKind::U8:
      return "uint8_t";
    case ScalarKind::U16:
      return "uint16_t";
    case ScalarKind::U32:
      return "unsigned";
    case ScalarKind::U64:
      return "uint64_t";
    case ScalarKind::F16:
      return "rt::f16";
    case ScalarKind::BF16:
      return "rt::bf16";
    case ScalarKind::F32:
      return "float";
    case ScalarKind::F64:
      return "double";
    case ScalarKind::Ptr:
      break;
    }
    return "void";
  };
  if (!E.isPointer())
    return Scalar(E.Kind);
  return (E.PointeeConst ? "const " : "") + Scalar(E.Pointee) + " *";
}

namespace {

bool isNarrowInt(ScalarKind K) {
  return K == ScalarKind::I8 || K == ScalarKind::I16 || K == ScalarKind::U8 ||
         K == ScalarKind::U16;
}

class Emitter {
public:
  Emitter(const Function &F, const LayoutMap &LM, const AxisInfoAnalysis &AI,
          const Pipelines &Plans, const TensorMapOps &Tma,
          const LayoutNamer &NameLayout, const std::string &SourcePath)
      : F(F), LM(LM), AI(AI), Plans(Plans), Tma(Tma), NameLayout(NameLayout),
        SourcePath(SourcePath) {}

  EmittedKernel run() {
    planTmaPipelines();
    dropTmaAddressing();
    countUses(F.body());
    EmittedKernel K;
    llvm::raw_string_ostream PS(K.Params);
    for (unsigned I = 0; I < F.Params.size(); ++I) {
      const Value *A = F.Params[I].Arg;
      // A parameter only the grid rule uses would warn in device code.
      PS << (I ? ", " : "") << (Uses.lookup(A) ? "" : "[[maybe_unused]] ")
         << deviceType(A->type().Elem) << " " << nameOf(A);
    }
    for (const auto &[L, Map] : Tma) {
      std::string Name = fresh(
          nameOf(L->kind() == OpKind::Store ? L->operand(1) : L->result()) +
          "_map");
      MapNames[L] = Name;
      PS << ", const __grid_constant__ CUtensorMap " << Name;
      const TensorMapAxis &Inner = Map.Axes[Map.InnerDim];
      const TensorMapAxis &Outer = Map.Axes[Map.outerDim()];
      K.TensorMaps.push_back({Name, stageType(*L), hostScalar(Map.Base),
                              hostScalar(Inner.Bound), hostScalar(Outer.Bound),
                              hostScalar(Outer.Stride)});
    }
    declareDotScratch();
    emitBlock(F.body(), 1);
    if (llvm::any_of(Tma, [](const auto &E) {
          return E.first->kind() == OpKind::Store;
        })) {
      // Shared memory must outlive the TMA stores reading it.
      line(1, "if (threadIdx.x == 0)");
      line(2, "rt::tma_store_wait<false>();");
    }
    K.Body = std::move(Body);
    K.TileComments = std::move(TileComments);
    K.Accesses = std::move(Accesses);
    K.DynamicSharedBytes = DynamicSharedBytes;
    K.PipelineLoc = PipelineLoc;
    K.PipelineStages = PipelineStages;
    return K;
  }

private:
  //===--- Use analysis ---------------------------------------------------===//

  void countUses(const Block &B) {
    for (const auto &O : B.ops()) {
      if (Dropped.count(O.get()))
        continue;
      for (const Value *V : O->operands()) {
        if (tmaStoreAddressing(*O, V))
          continue;
        ++Uses[V];
        if (V->definingOp() && V->definingOp()->parentBlock() != &B)
          UsedInOtherBlock.insert(V);
        // Stores read their value through a pointer to its registers, and
        // reductions, scans, dot and trans take whole register arrays.
        if ((O->kind() == OpKind::Store && V == O->operand(1)) ||
            takesWholeTiles(O->kind()))
          NeedsArray.insert(V);
      }
      for (const auto &R : O->regions())
        countUses(*R);
    }
  }

  /// Plans the TMA pipelines: which run on into an enclosing loop.
  void planTmaPipelines() {
    walk(F.body(), [&](const Op &O) {
      auto It = Plans.find(&O);
      if (It == Plans.end() || !byTma(It->second))
        return;
      if (auto Flat = flattenPipeline(O, It->second, Tma)) {
        FlatHosts[Flat->Outer] = &O;
        Flats[&O] = std::move(*Flat);
      }
    });
  }

  /// Whether V is the pointers or the mask of TMA store O, which the TMA
  /// unit computes instead.
  bool tmaStoreAddressing(const Op &O, const Value *V) {
    return O.kind() == OpKind::Store && Tma.count(&O) &&
           (V == O.operand(0) || V == O.mask());
  }

  /// With TMA copies, the per-element pointers and masks of staged loads
  /// are never computed: drops the ops that only they needed, in the loop
  /// and before it. The prefetches re-run the ops computing where boxes
  /// start, so the body drops those too, except what the prefetch reads.
  void dropTmaAddressing() {
    if (Tma.empty())
      return;
    const UserMap Users = users(F.body());
    llvm::DenseSet<const Op *> Rerun, Inputs;
    for (const auto &[Loop, P] : Plans) {
      if (!byTma(P))
        continue;
      llvm::DenseSet<const Op *> Slice = boxStartSlice(P, Tma);
      for (const Op *O : P.ProducerOnly)
        Dropped.insert(O);
      if (auto It = Flats.find(Loop); It != Flats.end())
        Slice.insert(It->second.OuterSlice.begin(),
                     It->second.OuterSlice.end());
      Rerun.insert(Slice.begin(), Slice.end());
      for (const Op *L : P.Loads)
        for (const TensorMapAxis &Axis : Tma.find(L)->second.Axes)
          if (Axis.Offset && Axis.Offset->definingOp())
            Inputs.insert(Axis.Offset->definingOp());
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
      if (O->kind() == OpKind::Store)
        for (const TensorMapAxis &Axis : Map.Axes)
          if (Axis.Offset && Axis.Offset->definingOp())
            Inputs.insert(Axis.Offset->definingOp());
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

  /// Ops that are one tile::rt call on whole register arrays (their
  /// operands and results are arrays, never folded expressions).
  static bool takesWholeTiles(OpKind K) {
    return categoryOf(K) == OpCategory::Reduce ||
           categoryOf(K) == OpCategory::Scan || K == OpKind::Dot ||
           K == OpKind::Trans;
  }

  /// Tiles that get a register array; the rest are folded into their users.
  bool materialized(const Value *V) {
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

  /// Names the generated code uses itself: the element index, the runtime
  /// namespace, CUDA/HIP built-ins, and the shapes of temporaries (t12) and
  /// layout aliases (L3).
  static bool isReserved(llvm::StringRef N) {
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

  std::string nameOf(const Value *V) {
    auto It = Names.find(V);
    if (It != Names.end())
      return It->second;
    std::string Base = "t" + std::to_string(V->id());
    if (!V->name().empty())
      Base = isReserved(V->name()) ? V->name().str() + "_" : V->name().str();
    return Names[V] = fresh(Base);
  }

  /// Base, or Base_1, Base_2 ... if taken.
  std::string fresh(const std::string &Base) {
    std::string N = Base;
    for (unsigned I = 1; Taken.count(N); ++I)
      N = Base + "_" + std::to_string(I);
    Taken.insert(N);
    return N;
  }

  std::string layoutOf(const Value *V) {
    return NameLayout(LM.get(V), V->type().Shape);
  }

  unsigned elems(const Value *V) {
    return LM.get(V).elemsPerThread(V->type().Shape);
  }

  //===--- Expressions ----------------------------------------------------===//

  std::string literal(const Op &O) {
    const ElemType &E = O.result()->type().Elem;
    std::string S;
    llvm::raw_string_ostream OS(S);
    switch (E.Kind) {
    case ScalarKind::I1:
      return O.intAttr() ? "true" : "false";
    case ScalarKind::I32:
      return std::to_string(O.intAttr());
    case ScalarKind::F32:
    case ScalarKind::F64:
    case ScalarKind::F16:
    case ScalarKind::BF16: {
      double D = O.floatAttr();
      std::string Num;
      if (std::isinf(D) || std::isnan(D)) {
        // CUDA's INFINITY and NAN are floats.
        Num = std::isnan(D) ? "NAN" : D < 0 ? "-INFINITY" : "INFINITY";
        return E.Kind == ScalarKind::F32 ? Num
                                         : deviceType(E) + "(" + Num + ")";
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
      return deviceType(E) + "(" + std::to_string(O.intAttr()) + ")";
    }
  }

  /// The value of scalar V as an expression.
  std::string scalar(const Value *V) {
    const Op *D = V->definingOp();
    if (D && D->kind() == OpKind::Const)
      return literal(*D);
    return nameOf(V);
  }

  /// Element Idx of tile V as an expression.
  std::string elem(const Value *V, const std::string &Idx) {
    if (V->type().isScalar())
      return scalar(V);
    if (materialized(V))
      return nameOf(V) + "[" + Idx + "]";
    return compute(*V->definingOp(), Idx);
  }

  std::string operandExpr(const Op &O, unsigned I, const std::string &Idx) {
    return elem(O.operand(I), Idx);
  }

  /// What op O computes for element Idx (or the scalar it computes).
  std::string compute(const Op &O, const std::string &Idx) {
    auto A = [&](unsigned I) { return operandExpr(O, I, Idx); };
    const Type &RT = O.result()->type();
    switch (O.kind()) {
    case OpKind::Const:
      return literal(O);
    case OpKind::ProgramId:
      return std::string("static_cast<int>(blockIdx.") + "xyz"[O.intAttr()] +
             ")";
    case OpKind::NumPrograms:
      return std::string("static_cast<int>(gridDim.") + "xyz"[O.intAttr()] +
             ")";
    case OpKind::Arange: {
      std::string C = layoutOf(O.result()) + "::coord(" + Idx + ", 0)";
      return O.intAttr() ? "(" + C + " + " + std::to_string(O.intAttr()) + ")"
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
    if (isNarrowInt(RT.Elem.Kind) && !isComparison(O.kind()))
      return "static_cast<" + deviceType(RT.Elem) + ">" + E;
    return E;
  }

  template <class ArgFn> std::string arithmetic(const Op &O, ArgFn A) {
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

  void line(unsigned Indent, const std::string &S) {
    Body.append(Indent * 2, ' ');
    Body += S;
    Body += "\n";
  }

  void lineDirective(const Op &O) {
    if (!O.loc().Line || O.loc().Line == LastLine)
      return;
    LastLine = O.loc().Line;
    Body += "#line " + std::to_string(LastLine) + " \"" + SourcePath + "\"\n";
  }

  std::string loopHeader(unsigned N, unsigned Step = 1) {
    return "for (int e = 0; e < " + std::to_string(N) + "; " +
           (Step == 1 ? "++e" : "e += " + std::to_string(Step)) + ")";
  }

  /// `const int n` or, for pointers, `float *const p`.
  std::string constDecl(const Value *V, const std::string &Name = "") {
    std::string T = deviceType(V->type().Elem);
    std::string N = Name.empty() ? nameOf(V) : Name;
    return V->type().Elem.isPointer() ? T + "const " + N
                                      : "const " + T + " " + N;
  }

  void declareTile(const Value *V, unsigned Indent) {
    line(Indent, deviceType(V->type().Elem) + " " + nameOf(V) + "[" +
                     std::to_string(elems(V)) + "];");
    // A pipeline's prefetch declares its slice's tiles again.
    if (Commented.insert(V).second)
      TileComments.push_back(nameOf(V) + " : " + V->type().str() + " " +
                             layoutOf(V) + " (" + std::to_string(elems(V)) +
                             " per thread)");
  }

  /// Copies tile or scalar From into the storage named To.
  void assignValue(const Value *To, const std::string &ToName,
                   const Value *From, unsigned Indent) {
    if (To->type().isScalar()) {
      line(Indent, ToName + " = " + scalar(From) + ";");
      return;
    }
    line(Indent, "#pragma unroll");
    line(Indent, loopHeader(elems(To)));
    line(Indent + 1, ToName + "[e] = " + elem(From, "e") + ";");
  }

  void emitBlock(const Block &B, unsigned Indent) {
    for (const auto &O : B.ops())
      if ((!Active || !Active->ProducerOnly.count(O.get())) &&
          !Dropped.count(O.get()))
        emitOp(*O, Indent);
  }

  void emitOp(const Op &O, unsigned Indent) {
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
      return emitFor(O, Indent);
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
    case OpKind::Trans:
      lineDirective(O);
      declareTile(O.result(), Indent);
      line(Indent, "rt::transpose<" + layoutOf(O.operand(0)) + ", " +
                       layoutOf(O.result()) + ">(" + nameOf(O.operand(0)) +
                       ", " + nameOf(O.result()) + ");");
      return;
    case OpKind::ConvertLayout:
      lineDirective(O);
      return emitConvert(O, Indent);
    case OpKind::DebugBarrier:
      lineDirective(O);
      return line(Indent, "__syncthreads();");
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

  /// Elements per access: what the layout gives each thread contiguously,
  /// cut down to what axis info proves about the pointers and the mask, and
  /// to 16 bytes.
  unsigned accessWidth(const Op &O) {
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

  std::string maskExpr(const Op &O, const std::string &Idx) {
    return O.mask() ? elem(O.mask(), Idx) : "true";
  }

  void emitLoad(const Op &O, unsigned Indent) {
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
    std::string Other =
        O.other() ? elem(O.other(), "e") : deviceType(E) + "(0)";
    line(Indent + 1, "rt::ld_global_v" + std::to_string(W) + "(&" + nameOf(R) +
                         "[e], " + elem(O.operand(0), "e") + ", " +
                         maskExpr(O, "e") + ", " + Other + ");");
  }

  /// A TMA store: the tile goes to a swizzled shared-memory buffer after
  /// the kernel's pipeline stages, then one thread asks the TMA unit to
  /// write the box, which leaves out what lies outside the tensor (the
  /// mask). The buffer is reused once the previous store has read it.
  void emitTmaStore(const Op &O, unsigned Indent) {
    const Value *Val = O.operand(1);
    const TensorMapAccess &Map = Tma.find(&O)->second;
    const Type &T = Val->type();
    unsigned Bytes = T.numel() * storageBytes(T.Elem.Kind);
    unsigned Offset = DynamicSharedBytes ? DynamicSharedBytes - 1024 : 0;
    Offset = (Offset + 1023) / 1024 * 1024;
    if (Offset + Bytes + 1024 > DynamicSharedBytes) {
      DynamicSharedBytes = Offset + Bytes + 1024;
      PipelineLoc = O.loc();
    }
    Accesses.push_back("store " + nameOf(Val) + ": tma");
    std::string Buf = fresh(nameOf(Val) + "_out");
    std::string Elem = deviceType(T.Elem);
    line(Indent,
         "{ // store " + nameOf(Val) + " through shared memory: one TMA store");
    line(Indent + 1, "const " + stageType(O) + " " + Buf +
                         "{rt::dynamic_smem<" + Elem + ">(" +
                         std::to_string(Offset) + ")};");
    line(Indent + 1, "if (threadIdx.x == 0)");
    line(Indent + 2, "rt::tma_store_wait<true>();");
    line(Indent + 1, "__syncthreads();");
    line(Indent + 1, "#pragma unroll");
    line(Indent + 1, loopHeader(elems(Val)));
    line(Indent + 2, "if (" + layoutOf(Val) + "::owns(e))");
    line(Indent + 3, "*" + Buf + ".template at<" + layoutOf(Val) +
                         ">(e) = " + nameOf(Val) + "[e];");
    line(Indent + 1, "rt::fence_proxy_async();");
    line(Indent + 1, "__syncthreads();");
    line(Indent + 1, "if (threadIdx.x == 0) {");
    line(Indent + 2, "rt::tma_store_tile(&" + MapNames.lookup(&O) + ", " + Buf +
                         ", " + boxStart(Map.Axes[1]) + ", " +
                         boxStart(Map.Axes[0]) + ");");
    line(Indent + 2, "rt::tma_store_commit();");
    line(Indent + 1, "}");
    line(Indent, "}");
  }

  void emitStore(const Op &O, unsigned Indent) {
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
                         elem(O.operand(0), "e") + ", &" + nameOf(Val) +
                         "[e], " + maskExpr(O, "e") + ");");
  }

  /// One atomic per element this thread owns (replicas skip it), between
  /// the fences its memory order asks for. A scalar atomic runs once per
  /// program and every thread gets the old value.
  void emitAtomic(const Op &O, unsigned Indent) {
    const Value *R = O.result();
    std::string Fn = "rt::" + spell(O.kind()).str();
    std::string Order = std::to_string(O.intAttr() & 15),
                Scope = std::to_string(O.intAttr() >> 4);
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
    if (R->type().isScalar()) {
      // One thread runs the atomic and its fences.
      line(Indent, (Used ? constDecl(R) + " = " : "") +
                       "rt::in_one_thread([&] { return rt::fenced<" + Order +
                       ", " + Scope + ">([&] { return " +
                       Call("0", O.mask() ? "" : "true") + "; }); });");
      return;
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

  void declareResult(const Value *R, unsigned Indent, const Value *Init) {
    if (R->type().isScalar()) {
      line(Indent, deviceType(R->type().Elem) + " " + nameOf(R) +
                       (Init ? " = " + scalar(Init) : "") + ";");
      return;
    }
    declareTile(R, Indent);
    if (Init)
      assignValue(R, nameOf(R), Init, Indent);
  }

  /// Assigns a block's yielded values to its parent's results. A loop's
  /// carried values live in its results' storage, so with more than one all
  /// are read before any is written (the loop may swap them); an `if`'s
  /// branches never read its results, which are assigned directly.
  void emitYield(const Op &Parent, const Block &B, unsigned Indent) {
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
    for (unsigned I = 0; I < N; ++I) {
      const Value *R = Parent.result(I);
      std::string Tmp = nameOf(R) + "_next";
      if (R->type().isScalar()) {
        line(Indent, constDecl(R, Tmp) + " = " + scalar(Y->operand(I)) + ";");
        continue;
      }
      line(Indent, deviceType(R->type().Elem) + " " + Tmp + "[" +
                       std::to_string(elems(R)) + "];");
      assignValue(R, Tmp, Y->operand(I), Indent);
    }
    for (unsigned I = 0; I < N; ++I) {
      const Value *R = Parent.result(I);
      std::string Tmp = nameOf(R) + "_next";
      if (R->type().isScalar()) {
        line(Indent, nameOf(R) + " = " + Tmp + ";");
        continue;
      }
      line(Indent, "#pragma unroll");
      line(Indent, loopHeader(elems(R)));
      line(Indent + 1, nameOf(R) + "[e] = " + Tmp + "[e];");
    }
  }

  void emitFor(const Op &O, unsigned Indent) {
    if (auto It = Plans.find(&O); It != Plans.end())
      return emitPipelinedFor(O, It->second, Indent);
    const Block &Body = *O.region(0);
    // Loop-carried values live in the storage of the loop's results.
    for (unsigned I = 0; I < O.numResults(); ++I) {
      declareResult(O.result(I), Indent, O.operand(3 + I));
      Names[Body.argument(I + 1)] = nameOf(O.result(I));
    }
    // A pipeline flattened into this loop is set up around it.
    const Op *Hosted = FlatHosts.lookup(&O);
    if (Hosted) {
      openPipeline(*Hosted, Plans.find(Hosted)->second, Indent);
      ++Indent;
    }
    const Value *IV = Body.argument(0);
    std::string T = deviceType(IV->type().Elem);
    std::string N = nameOf(IV);
    line(Indent, "for (" + T + " " + N + " = " + scalar(O.operand(0)) + "; " +
                     N + " < " + scalar(O.operand(1)) + "; " + N +
                     " += " + scalar(O.operand(2)) + ") {");
    emitBlock(Body, Indent + 1);
    emitYield(O, Body, Indent + 1);
    line(Indent, "}");
    if (Hosted)
      line(Indent - 1, "}");
  }

  //===--- Software pipelining --------------------------------------------===//

  /// Whether pipeline P's staged loads are TMA copies.
  bool byTma(const PipelinedLoop &P) const {
    return !P.Loads.empty() && Tma.count(P.Loads.front());
  }

  /// Whether the staged load's tile sits in shared memory transposed
  /// (its contiguous dimension is 0).
  bool storedTransposed(const Op &L) {
    return LM.get(L.result()).fastestDim() == 0;
  }

  /// The shared-memory tile type of one stage of staged load L, or of the
  /// buffer of a TMA store.
  std::string stageType(const Op &L) {
    bool IsStore = L.kind() == OpKind::Store;
    const Type &T = IsStore ? L.operand(1)->type() : L.result()->type();
    bool Swap = !IsStore && storedTransposed(L);
    return "rt::smem_tile<" + deviceType(T.Elem) + ", " +
           std::to_string(T.Shape[Swap ? 1 : 0]) + ", " +
           std::to_string(T.Shape[Swap ? 0 : 1]) + ">";
  }

  /// A parameter or constant scalar as the launch wrapper spells it.
  std::string hostScalar(const Value *V) {
    if (auto I = paramIndex(F, V))
      return F.Params[*I].Name;
    return std::to_string(V->definingOp()->intAttr());
  }

  /// The stage tile of staged load L at stage S: `x_stage{x_ring + S *
  /// x_stage::elems}`.
  std::string stageTile(const Op &L, const std::string &S) {
    auto &[Type, Ring] = Rings[&L];
    return Type + "{" + Ring + " + " + S + " * " + Type + "::elems}";
  }

  /// Asynchronous copies of staged load L's tile into stage S, for the
  /// elements where Live holds; copies narrower than cp.async's 4 bytes
  /// (the unaligned variants) are done at once. A thread-staged load's
  /// thread copies every element it holds, replicas included, into its own
  /// slots; a dot operand's, the elements it owns, into the shared tile.
  void emitStagedCopy(const Op &L, const std::string &S,
                      const std::string &Live, unsigned Indent) {
    const Value *R = L.result();
    const bool Own = llvm::is_contained(Active->OwnLoads, &L);
    const std::string Width = std::to_string(accessWidth(L));
    std::string Tile = fresh(nameOf(R) + "_dst");
    line(Indent, "const auto " + Tile + " = " + stageTile(L, S) + ";");
    line(Indent, "#pragma unroll");
    line(Indent, loopHeader(elems(R), accessWidth(L)));
    if (!Own)
      line(Indent + 1, "if (" + layoutOf(R) + "::owns(e))");
    std::string Slot =
        Own ? Width
            : layoutOf(R) + ", " + (storedTransposed(L) ? "true" : "false");
    bool Async = accessWidth(L) * storageBytes(R->type().Elem.Kind) >= 4;
    line(Indent + (Own ? 1 : 2),
         std::string(Async ? "rt::cp_async_v<" : "rt::copy_v<") + Width + ">(" +
             Tile + ".template at<" + Slot + ">(e), " +
             elem(L.operand(0), "e") + ", " + Live +
             (L.mask() ? " && " + maskExpr(L, "e") : "") + ");");
  }

  /// Thread-staged load L in the body: this thread reads its elements back
  /// from this iteration's stage; masked-off ones take L's other value.
  void emitOwnStagedRead(const Op &L, unsigned Indent) {
    const Value *R = L.result();
    unsigned W = accessWidth(L);
    Accesses.push_back("load " + nameOf(R) + ": v" + std::to_string(W) +
                       ", staged by its own threads");
    declareTile(R, Indent);
    std::string Tile = fresh(nameOf(R) + "_src");
    std::string Width = std::to_string(W);
    line(Indent, "const auto " + Tile + " = " + stageTile(L, StageExpr) + ";");
    line(Indent, "#pragma unroll");
    line(Indent, loopHeader(elems(R), W));
    std::string Other =
        L.other() ? elem(L.other(), "e") : deviceType(R->type().Elem) + "(0)";
    line(Indent + 1, "rt::ld_shared_v" + Width + "(&" + nameOf(R) + "[e], " +
                         Tile + ".template at<" + Width + ">(e), " +
                         maskExpr(L, "e") + ", " + Other + ");");
  }

  /// The prefetch of the iteration whose induction variable is Iv (an
  /// expression) into stage S: the slice re-run with the induction
  /// variable's own name bound to Iv, then the copies. Past the loop's end
  /// the copies read nothing and fill zeros; leaving them unconditional
  /// lets the compiler hoist their per-thread address arithmetic.
  void emitPrefetch(const Op &Loop, const PipelinedLoop &P,
                    const std::string &Iv, const std::string &S,
                    unsigned Indent) {
    if (byTma(P))
      return emitTmaPrefetch(Loop, P, Iv, S, Indent);
    const Value *IV = Loop.region(0)->argument(0);
    line(Indent, "{");
    line(Indent + 1, constDecl(IV) + " = " + Iv + ";");
    std::string Live = fresh("live");
    line(Indent + 1,
         "const bool " + Live + " = " +
             (P.ConstantStep ? "" : scalar(Loop.operand(2)) + " > 0 && ") +
             nameOf(IV) + " < " + scalar(Loop.operand(1)) + ";");
    const PipelinedLoop *Outer = Active;
    Active = nullptr;
    for (const Op *O : P.Slice)
      emitOp(*O, Indent + 1);
    Active = &P;
    for (const Op *L : P.Loads)
      emitStagedCopy(*L, S, Live, Indent + 1);
    for (const Op *L : P.OwnLoads)
      emitStagedCopy(*L, S, Live, Indent + 1);
    Active = Outer;
    line(Indent, "}");
    line(Indent, "rt::cp_async_commit();");
  }

  /// Where a TMA box starts along Axis.
  std::string boxStart(const TensorMapAxis &Axis) {
    if (!Axis.Offset)
      return std::to_string(Axis.Start);
    return scalar(Axis.Offset) +
           (Axis.Start ? " + " + std::to_string(Axis.Start) : "");
  }

  /// The TMA form of a prefetch: one thread re-runs the scalar ops the
  /// boxes' starts need, tells stage S's barrier how many bytes to expect
  /// and asks for every staged load's box. A flattened pipeline's prefetch
  /// binds the outer induction variable too (to the cursor's) and re-runs
  /// the outer body's ops the starts need.
  void emitTmaPrefetch(const Op &Loop, const PipelinedLoop &P,
                       const std::string &Iv, const std::string &S,
                       unsigned Indent) {
    const Value *IV = Loop.region(0)->argument(0);
    const PipelineState St = States[&Loop];
    const FlattenedPipeline *Flat =
        Flats.count(&Loop) ? &Flats.find(&Loop)->second : nullptr;
    line(Indent, "{");
    std::string Live = nameOf(IV) + " < " + scalar(Loop.operand(1));
    // A flattened pipeline's cursor holds what the outer body computed for
    // the iteration it is at.
    llvm::DenseMap<const Value *, std::string> Shadowed;
    if (Flat) {
      Live = St.NextOuter + " < " + scalar(Flat->Outer->operand(1)) + " && " +
             Live;
      for (unsigned I = 0; I < Flat->Carried.size(); ++I) {
        Shadowed[Flat->Carried[I]] = nameOf(Flat->Carried[I]);
        Names[Flat->Carried[I]] = St.Carried[I];
      }
    }
    line(Indent + 1, constDecl(IV) + " = " + Iv + ";");
    line(Indent + 1, "if (" + Live + " && threadIdx.x == 0) {");
    llvm::DenseSet<const Op *> Needed = boxStartSlice(P, Tma);
    unsigned Bytes = 0;
    for (const Op *L : P.Loads) {
      const Type &T = L->result()->type();
      Bytes += T.numel() * storageBytes(T.Elem.Kind);
    }
    const PipelinedLoop *Outer = Active;
    Active = nullptr;
    for (const Op *O : P.Slice)
      if (Needed.count(O))
        emitOp(*O, Indent + 2);
    Active = Outer;
    std::string Bar = St.Full + " + " + S;
    line(Indent + 2, "rt::mbarrier_arrive_expect_tx(" + Bar + ", " +
                         std::to_string(Bytes) + ");");
    for (const Op *L : P.Loads) {
      const TensorMapAccess &Map = Tma.find(L)->second;
      line(Indent + 2, "rt::tma_load_tile(" + stageTile(*L, S) + ", &" +
                           MapNames.lookup(L) + ", " + Bar + ", " +
                           boxStart(Map.Axes[Map.InnerDim]) + ", " +
                           boxStart(Map.Axes[Map.outerDim()]) + ");");
    }
    line(Indent + 1, "}");
    line(Indent, "}");
    for (const auto &[V, Name] : Shadowed)
      Names[V] = Name;
  }

  /// Moves a flattened pipeline's cursor to the outer iteration its outer
  /// induction variable names: re-runs the outer body's ops the box starts
  /// need and keeps what they read.
  void emitCursorOuter(const Op &Loop, unsigned Indent) {
    const PipelineState St = States[&Loop];
    const FlattenedPipeline &Flat = Flats.find(&Loop)->second;
    line(Indent, "if (" + St.NextOuter + " < " +
                     scalar(Flat.Outer->operand(1)) + ") {");
    line(Indent + 1, constDecl(Flat.Outer->region(0)->argument(0)) + " = " +
                         St.NextOuter + ";");
    for (const Op *O : Flat.OuterSlice)
      emitOp(*O, Indent + 1);
    for (unsigned I = 0; I < Flat.Carried.size(); ++I)
      line(Indent + 1, St.Carried[I] + " = " + scalar(Flat.Carried[I]) + ";");
    line(Indent, "}");
  }

  /// A flattened pipeline's prefetch of the iteration its cursor is at,
  /// into stage S, then the cursor's step to the next iteration of the
  /// loop nest.
  void emitCursorPrefetch(const Op &Loop, const PipelinedLoop &P,
                          const std::string &S, unsigned Indent) {
    const PipelineState St = States[&Loop];
    const Op &Outer = *Flats.find(&Loop)->second.Outer;
    emitPrefetch(Loop, P, St.NextInner, S, Indent);
    line(Indent, St.NextInner + " += " + scalar(Loop.operand(2)) + ";");
    line(Indent,
         "if (" + St.NextInner + " >= " + scalar(Loop.operand(1)) + ") {");
    line(Indent + 1, St.NextInner + " = " + scalar(Loop.operand(0)) + ";");
    line(Indent + 1, St.NextOuter + " += " + scalar(Outer.operand(2)) + ";");
    emitCursorOuter(Loop, Indent + 1);
    line(Indent, "}");
  }

  /// Triton's pipelined loop: a prologue prefetches the first NumStages - 1
  /// iterations' staged loads; each iteration waits for its own stage,
  /// prefetches NumStages - 1 iterations ahead into the stage the previous
  /// iteration read, and runs the body with dots reading shared memory.
  /// With AsyncMma the dots return while their product is still being
  /// computed, once the previous one is done; the prefetch then follows
  /// the body and a barrier. A flattened pipeline was opened around the
  /// enclosing loop; its prefetches follow a cursor over the loop nest.
  void emitPipelinedFor(const Op &O, const PipelinedLoop &P, unsigned Indent) {
    const Block &Body = *O.region(0);
    for (unsigned I = 0; I < O.numResults(); ++I) {
      declareResult(O.result(I), Indent, O.operand(3 + I));
      Names[Body.argument(I + 1)] = nameOf(O.result(I));
    }
    const bool Flat = Flats.count(&O);
    if (!Flat)
      openPipeline(O, P, Indent++);
    const PipelineState St = States[&O];
    const bool ByTma = byTma(P);
    const unsigned S = P.NumStages, D = S - 1;
    const Value *IV = Body.argument(0);
    std::string N = nameOf(IV), Step = scalar(O.operand(2));
    line(Indent, "for (" + deviceType(IV->type().Elem) + " " + N + " = " +
                     scalar(O.operand(0)) + "; " + N + " < " +
                     scalar(O.operand(1)) + "; " + N + " += " + Step + ") {");
    if (ByTma) {
      line(Indent + 1, "rt::mbarrier_wait(" + St.Full + " + " + St.Read + ", " +
                           St.Phase + ");");
      if (!P.AsyncMma)
        line(Indent + 1, "__syncthreads();");
    } else {
      line(Indent + 1, "rt::cp_async_wait<" + std::to_string(D - 1) + ">();");
      // Stages that threads fill for themselves need no barrier.
      if (!P.Loads.empty()) {
        line(Indent + 1, "rt::fence_proxy_async();");
        line(Indent + 1, "__syncthreads();");
      }
    }
    auto Prefetch = [&] {
      std::string Into = "(" + St.Read + " + " + std::to_string(D) + ") % " +
                         std::to_string(S);
      if (Flat)
        return emitCursorPrefetch(O, P, Into, Indent + 1);
      std::string Ahead = fresh(N + "_ahead");
      line(Indent + 1, "const int " + Ahead + " = " + N + " + " +
                           std::to_string(D) + " * " + Step + ";");
      emitPrefetch(O, P, Ahead, Into, Indent + 1);
    };
    if (!P.AsyncMma)
      Prefetch();
    const PipelinedLoop *Outer = Active;
    Active = &P;
    StageExpr = St.Read;
    emitBlock(Body, Indent + 1);
    Active = Outer;
    if (P.AsyncMma) {
      // Every warp's previous dot is done: its stage takes the prefetch.
      line(Indent + 1, "__syncthreads();");
      Prefetch();
    }
    emitYield(O, Body, Indent + 1);
    line(Indent + 1, St.Read + " = " + St.Read + " + 1 == " +
                         std::to_string(S) + " ? 0 : " + St.Read + " + 1;");
    if (ByTma)
      line(Indent + 1, St.Phase + " ^= " + St.Read + " == 0;");
    line(Indent, "}");
    if (P.AsyncMma)
      line(Indent, "rt::mma_wait_all();");
    // The buffers may be reused after the loop. TMA copies past the end
    // are never issued.
    if (!ByTma)
      line(Indent, "rt::cp_async_wait<0>();");
    line(Indent, "__syncthreads();");
    if (!Flat)
      line(Indent - 1, "}");
  }

  /// Opens the block of loop O's pipeline: the stage rings, for TMA one
  /// mbarrier per stage, the read position and the prologue. A flattened
  /// pipeline also gets a cursor (the outer and inner induction variables
  /// of the next iteration to prefetch).
  void openPipeline(const Op &O, const PipelinedLoop &P, unsigned Indent) {
    const bool Flat = Flats.count(&O);
    const unsigned S = P.NumStages;
    const unsigned D = S - 1; // iterations the prefetch runs ahead
    std::string Loads;
    for (const Op *L : P.Loads)
      Loads += (Loads.empty() ? "" : ", ") + nameOf(L->result());
    for (const Op *L : P.OwnLoads)
      Loads += (Loads.empty() ? "" : ", ") + nameOf(L->result()) +
               " (by its own threads)";
    line(Indent, "{ // pipeline: " + Loads + " in " + std::to_string(S) +
                     " shared-memory stages, prefetched " + std::to_string(D) +
                     " iterations ahead" +
                     (Flat ? " across the enclosing loop" : "") +
                     (P.AsyncMma ? "; one dot left in flight" : ""));
    unsigned Offset = 0;
    auto AddRing = [&](const Op *L, const std::string &StageType,
                       unsigned StageElems) {
      const Type &T = L->result()->type();
      std::string Elem = deviceType(T.Elem);
      std::string Type = fresh(nameOf(L->result()) + "_stage");
      std::string Ring = fresh(nameOf(L->result()) + "_ring");
      line(Indent + 1, "using " + Type + " = " + StageType + ";");
      line(Indent + 1, Elem + " *const " + Ring + " = rt::dynamic_smem<" +
                           Elem + ">(" + std::to_string(Offset) + ");");
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
    PipelineState &St = States[&O];
    // TMA copies complete on one mbarrier per stage, armed by the thread
    // that issues them.
    const bool ByTma = byTma(P);
    if (ByTma) {
      St.Full = fresh("full");
      line(Indent + 1, "rt::mbarrier *const " + St.Full +
                           " = rt::dynamic_smem<rt::mbarrier>(" +
                           std::to_string(Offset) + ");");
      line(Indent + 1, "if (threadIdx.x == 0) {");
      line(Indent + 2, "#pragma unroll");
      line(Indent + 2, "for (int s = 0; s < " + std::to_string(S) + "; ++s)");
      line(Indent + 3, "rt::mbarrier_init(" + St.Full + " + s, 1);");
      line(Indent + 2, "rt::fence_mbarrier_init();");
      line(Indent + 1, "}");
      line(Indent + 1, "__syncthreads();");
      Offset += 8 * S;
    }
    if (Offset + 1024 > DynamicSharedBytes) {
      DynamicSharedBytes = Offset + 1024;
      PipelineLoc = O.loc();
      PipelineStages = S;
    }
    St.Read = fresh("read_stage");
    line(Indent + 1, "int " + St.Read + " = 0;");
    if (ByTma) {
      St.Phase = fresh("phase");
      line(Indent + 1, "unsigned " + St.Phase + " = 0;");
    }
    const Value *IV = O.region(0)->argument(0);
    if (Flat) {
      const Op &Outer = *Flats.find(&O)->second.Outer;
      St.NextOuter = fresh("next_" + nameOf(Outer.region(0)->argument(0)));
      St.NextInner = fresh("next_" + nameOf(IV));
      line(Indent + 1,
           "int " + St.NextOuter + " = " + scalar(Outer.operand(0)) + ";");
      line(Indent + 1,
           "int " + St.NextInner + " = " + scalar(O.operand(0)) + ";");
      for (const Value *V : Flats.find(&O)->second.Carried) {
        St.Carried.push_back(fresh("next_" + nameOf(V)));
        line(Indent + 1,
             deviceType(V->type().Elem) + " " + St.Carried.back() + " = 0;");
      }
      emitCursorOuter(O, Indent + 1);
    }
    std::string Stage = fresh("stage");
    line(Indent + 1, "#pragma unroll");
    line(Indent + 1, "for (int " + Stage + " = 0; " + Stage + " < " +
                         std::to_string(D) + "; ++" + Stage + ") {");
    if (Flat)
      emitCursorPrefetch(O, P, Stage, Indent + 2);
    else
      emitPrefetch(O, P,
                   scalar(O.operand(0)) + " + " + Stage + " * " +
                       scalar(O.operand(2)),
                   Stage, Indent + 2);
    line(Indent + 1, "}");
  }

  /// A dot of staged operands: tensor cores read this iteration's stage
  /// (and a from registers when it is not staged).
  void emitStagedDot(const Op &O, unsigned Indent) {
    const Value *R = O.result();
    declareTile(R, Indent);
    assignValue(R, nameOf(R), O.operand(2), Indent);
    std::string Ops[2];
    for (unsigned I = 0; I < 2; ++I) {
      auto [L, Trans] = stagedSource(*Active, O.operand(I));
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
    line(Indent, "rt::mma_tiles<" + layoutOf(R) + ", " +
                     deviceType(O.operand(0)->type().Elem) +
                     (Active->AsyncMma ? ", 1" : "") + ">(" + Ops[0] + ", " +
                     Ops[1] + ", " + nameOf(R) + ");");
  }

  void emitIf(const Op &O, unsigned Indent) {
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

  void emitWhile(const Op &O, unsigned Indent) {
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

  /// A reduction's or scan's combine: a lambda over the accumulated values
  /// and the next ones, as the user wrote it. Returns what rt::reduce and
  /// rt::scan take: the lambda itself for one value, adapted to packs for
  /// several.
  std::string emitCombine(const Op &O, unsigned Indent) {
    const Block &R = *O.region(0);
    std::string Name = fresh("combine");
    std::string Params;
    for (const auto &A : R.arguments())
      Params += (Params.empty() ? "" : ", ") + deviceType(A->type().Elem) +
                " " + nameOf(A.get());
    line(Indent, "auto " + Name + " = [&](" + Params + ") {");
    emitBlock(R, Indent + 1);
    const Op *Y = R.terminator();
    std::string Values;
    for (const Value *V : Y->operands())
      Values += (Values.empty() ? "" : ", ") + scalar(V);
    line(
        Indent + 1,
        "return " +
            (Y->numOperands() == 1 ? Values : "rt::make_pack(" + Values + ")") +
            ";");
    line(Indent, "};");
    return O.numResults() == 1 ? Name : "rt::unpacked(" + Name + ")";
  }

  std::string packType(const Op &O) {
    std::string S;
    for (const auto &R : O.results())
      S += (S.empty() ? "" : ", ") + deviceType(R->type().Elem);
    return "rt::pack<" + S + ">";
  }

  /// The register array a reduction or scan combines: the operand's own, or
  /// for several operands one of packs.
  std::string combinedInput(const Op &O, unsigned Indent) {
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

  /// Declares the results of a reduction or scan and returns the register
  /// array its tile::rt call writes: the result's own, or one of packs that
  /// unpackResults then spreads over the results.
  std::string combinedOutput(const Op &O, unsigned Indent) {
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

  void unpackResults(const Op &O, const std::string &Out, unsigned Indent) {
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

  /// Reductions are one tile::rt call each: per thread, then across the
  /// warp's lanes with shuffles, then across warps through shared memory.
  void emitReduce(const Op &O, unsigned Indent) {
    const Value *X = O.operand(0), *R = O.result();
    bool IsArg = O.kind() == OpKind::ArgMax || O.kind() == OpKind::ArgMin;
    // tile::rt names its combine operations after the ops: rt::op_sum ...
    std::string Combine = O.kind() == OpKind::Reduce
                              ? emitCombine(O, Indent)
                              : "rt::op_" + spell(O.kind()).str() + "{}";
    std::string Fn = IsArg ? "rt::arg_reduce" : "rt::reduce";
    std::string In = combinedInput(O, Indent);
    if (R->type().isScalar()) {
      std::string Call =
          Fn + "_all<" + layoutOf(X) + ">(" + In + ", " + Combine + ")";
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
    line(Indent, Fn + "<" + std::to_string(O.intAttr()) + ", " + layoutOf(X) +
                     ", " + layoutOf(R) + ">(" + In + ", " + Out + ", " +
                     Combine + ");");
    unpackResults(O, Out, Indent);
  }

  /// Scans are one tile::rt call: per thread, across lanes, across warps.
  void emitScan(const Op &O, unsigned Indent) {
    std::string Combine = emitCombine(O, Indent);
    std::string In = combinedInput(O, Indent);
    std::string Out = combinedOutput(O, Indent);
    line(Indent, "rt::scan<" + std::to_string(O.scanAxis()) + ", " +
                     (O.scanReverse() ? "true" : "false") + ", " +
                     layoutOf(O.operand(0)) + ">(" + In + ", " + Out + ", " +
                     Combine + ");");
    unpackResults(O, Out, Indent);
  }

  /// The shared memory the kernel's CUDA-core dots stage their operands
  /// in: one buffer for all of them, as large as the largest needs, so
  /// that a kernel's dots do not each hold their own.
  void declareDotScratch() {
    llvm::SmallVector<std::string, 2> Sizes;
    walk(F.body(), [&](const Op &O) {
      if (O.kind() != OpKind::Dot || LM.get(O.result()).isMmaAccumulator())
        return;
      const Type &A = O.operand(0)->type(), &B = O.operand(1)->type();
      std::string Size = "rt::dot_fma_scratch<" + deviceType(A.Elem) + ">(" +
                         std::to_string(A.Shape[0]) + ", " +
                         std::to_string(A.Shape[1]) + ", " +
                         std::to_string(B.Shape[1]) + ")";
      if (!llvm::is_contained(Sizes, Size))
        Sizes.push_back(Size);
    });
    if (Sizes.empty())
      return;
    DotScratch = fresh("dot_scratch");
    line(1, "alignas(16) __shared__ unsigned char " + DotScratch + "[" +
                (Sizes.size() == 1
                     ? Sizes.front()
                     : "rt::largest(" + llvm::join(Sizes, ", ") + ")") +
                "];");
  }

  /// dot on tensor cores when layout assignment gave the result an mma
  /// accumulator layout, else on CUDA cores; a and b are staged in shared
  /// memory from whatever layout they have, except that rt::dot_mma takes
  /// a from registers when its layout holds the mma A fragments.
  void emitDot(const Op &O, unsigned Indent) {
    static const char *const Precision[] = {
        "rt::precision::tf32", "rt::precision::tf32x3", "rt::precision::ieee"};
    const Value *A = O.operand(0), *B = O.operand(1), *R = O.result();
    declareTile(R, Indent);
    bool Fma = !LM.get(R).isMmaAccumulator();
    std::string Callee =
        Fma ? "rt::dot_fma<" + std::string(Precision[O.intAttr()]) + ", "
            : "rt::dot_mma<";
    line(Indent, Callee + layoutOf(A) + ", " + layoutOf(B) + ", " +
                     layoutOf(R) + ">(" + nameOf(A) + ", " + nameOf(B) + ", " +
                     nameOf(O.operand(2)) + ", " + nameOf(R) +
                     (Fma ? ", " + DotScratch : "") + ");");
  }

  /// Moves a tile between layouts through shared memory: every thread
  /// writes its elements at their row-major position, then reads the
  /// elements the new layout gives it.
  void emitConvert(const Op &O, unsigned Indent) {
    const Value *Src = O.operand(0), *R = O.result();
    declareTile(R, Indent);
    std::string Buf = nameOf(R) + "_smem";
    line(Indent, "{ // " + LM.get(Src).str() + " -> " + LM.get(R).str());
    line(Indent + 1, "__shared__ " + deviceType(R->type().Elem) + " " + Buf +
                         "[" + std::to_string(R->type().numel()) + "];");
    line(Indent + 1, "#pragma unroll");
    line(Indent + 1, loopHeader(elems(Src)));
    // Copies of an element (replicated layouts) are not written twice.
    line(Indent + 2, "if (" + layoutOf(Src) + "::owns(e))");
    line(Indent + 3, Buf + "[rt::linear_index<" + layoutOf(Src) +
                         ">(e)] = " + elem(Src, "e") + ";");
    line(Indent + 1, "__syncthreads();");
    line(Indent + 1, "#pragma unroll");
    line(Indent + 1, loopHeader(elems(R)));
    line(Indent + 2, nameOf(R) + "[e] = " + Buf + "[rt::linear_index<" +
                         layoutOf(R) + ">(e)];");
    line(Indent + 1, "__syncthreads();");
    line(Indent, "}");
  }

  const Function &F;
  const LayoutMap &LM;
  const AxisInfoAnalysis &AI;
  const Pipelines &Plans;
  const TensorMapOps &Tma;
  /// Ops no variant of this kernel emits (TMA variants' addressing).
  llvm::DenseSet<const Op *> Dropped;
  /// Per TMA load: its tensor map parameter.
  llvm::DenseMap<const Op *, std::string> MapNames;
  /// TMA pipelines flattened into the loop around them, and those loops.
  llvm::DenseMap<const Op *, FlattenedPipeline> Flats;
  llvm::DenseMap<const Op *, const Op *> FlatHosts;
  /// Names of a pipeline's state, by its loop: the stage barriers (TMA),
  /// the stage being read and its phase, and a flattened one's cursor.
  struct PipelineState {
    std::string Full, Read, Phase, NextOuter, NextInner;
    llvm::SmallVector<std::string, 4> Carried;
  };
  llvm::DenseMap<const Op *, PipelineState> States;
  /// The pipelined loop whose body is being emitted, if any.
  const PipelinedLoop *Active = nullptr;
  /// Per staged load: its stage buffers' type alias and ring pointer.
  llvm::DenseMap<const Op *, std::pair<std::string, std::string>> Rings;
  unsigned DynamicSharedBytes = 0;
  /// The shared buffer of the CUDA-core dots (declareDotScratch).
  std::string DotScratch;
  SourceLoc PipelineLoc;
  unsigned PipelineStages = 0;
  llvm::DenseSet<const Value *> Commented;
  std::string StageExpr;
  const LayoutNamer &NameLayout;
  std::string SourcePath;

  llvm::DenseMap<const Value *, unsigned> Uses;
  llvm::DenseSet<const Value *> UsedInOtherBlock, NeedsArray;
  llvm::DenseMap<const Value *, std::string> Names;
  llvm::StringSet<> Taken;
  std::string Body;
  std::vector<std::string> TileComments;
  std::vector<std::string> Accesses;
  unsigned LastLine = 0;
};

} // namespace

EmittedKernel emitKernel(const Function &F, const LayoutMap &LM,
                         const AxisInfoAnalysis &AI, const Pipelines &Plans,
                         const TensorMapOps &Tma, const LayoutNamer &NameLayout,
                         const std::string &SourcePath) {
  return Emitter(F, LM, AI, Plans, Tma, NameLayout, SourcePath).run();
}

} // namespace tilecc::codegen
