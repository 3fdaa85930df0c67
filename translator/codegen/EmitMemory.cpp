//===- EmitMemory.cpp - Loads, stores and atomics
//--------------------------===//
//
// Global memory accesses, vectorized to the widths the axis info proves,
// and stores of boxes by TMA.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

unsigned KernelEmitter::accessWidth(const Op &O) {
  const Value *P = O.operand(0);
  const Layout &L = LM.get(P);
  return unsigned(accessVectorWidth(AI, O, L.fastestDim(),
                                    L.contiguousRun(P->type().Shape)));
}

/// The template arguments of rt's access helpers for O's cache modifier and
/// eviction policy; none for a plain access.
static std::string accessHints(const Op &O) {
  if (O.cacheModifier() == CacheModifier::Normal &&
      O.evictionPolicy() == EvictionPolicy::Normal)
    return "";
  const std::string Cache = O.cacheModifier() == CacheModifier::Volatile
                                ? "volatile_"
                                : spell(O.cacheModifier()).str();
  const llvm::StringRef Evict = spell(O.evictionPolicy());
  return "<rt::cache::" + Cache +
         ", rt::evict::" + Evict.substr(Evict.find('_') + 1).str() + ">";
}

std::string KernelEmitter::maskExpr(const Op &O, const std::string &Idx) {
  return O.mask() ? elem(O.mask(), Idx) : "true";
}

void KernelEmitter::emitLoad(const Op &O) {
  if (Active && llvm::is_contained(Active->OwnLoads, &O))
    return emitOwnStagedRead(O);
  const Value *R = O.result();
  const ElemType &E = R->type().Elem;
  const std::string Other0 = deviceType(E) + "(0)";
  if (R->type().isScalar()) {
    std::string Ptr = scalar(O.operand(0));
    if (const std::string Hints = accessHints(O); !Hints.empty()) {
      line(declaration(E, nameOf(R)) + ";");
      line("rt::ld_global_v1" + Hints + "(&" + nameOf(R) + ", " + Ptr + ", " +
           (O.mask() ? scalar(O.mask()) : "true") + ", " +
           (O.other() ? scalar(O.other()) : Other0) + ");");
      return;
    }
    std::string Load = "*" + Ptr;
    if (O.mask())
      Load = scalar(O.mask()) + " ? " + Load + " : " +
             (O.other() ? scalar(O.other()) : Other0);
    line(constDecl(R) + " = " + Load + ";");
    return;
  }
  unsigned W = accessWidth(O);
  Accesses.push_back("load " + nameOf(R) + ": v" + std::to_string(W));
  declareTile(R);
  line("#pragma unroll");
  line(loopHeader(elems(R), W));
  std::string Other = O.other() ? elem(O.other(), "e") : Other0;
  line("rt::ld_global_v" + std::to_string(W) + accessHints(O) + "(&" +
           nameOf(R) + "[e], " + elem(O.operand(0), "e") + ", " +
           maskExpr(O, "e") + ", " + Other + ");",
       1);
}

void KernelEmitter::emitTmaStore(const Op &O) {
  const Value *Val = O.operand(1);
  const TensorMapAccess &Map = Tma.find(&O)->second;
  const Type &T = Val->type();
  const unsigned Bytes = T.numel() * storageBytes(T.Elem.Kind);
  if (ir::enclosingLoop(O))
    StoresAfterPipelines = false;
  if (Bytes > StoreBufferBytes) {
    StoreBufferBytes = Bytes;
    StoreBufferLoc = O.loc();
  }
  const bool Add = O.kind() == OpKind::AtomicAdd;
  Accesses.push_back((Add ? "atomic_add " : "store ") + nameOf(Val) + ": tma");
  std::string Buf = fresh(nameOf(Val) + "_out");
  std::string Elem = deviceType(T.Elem);
  line("{ // " + std::string(Add ? "add " : "store ") + nameOf(Val) +
       " through shared memory: one TMA " + (Add ? "reduce-add" : "store"));
  line("const " + stageType(O) + " " + Buf + "{rt::dynamic_smem<" + Elem +
           ">(" + StoreBufferMark.str() + ")};",
       1);
  // Consumed, so that a block emitted again elsewhere decides afresh.
  if (const Op *Dot = StoreBufferWaited.lookup(&O)) {
    StoreBufferWaited.erase(&O);
    line("// Free: waited for in the dot at line " +
             std::to_string(Dot->loc().Line) + ", before its barrier.",
         1);
  } else {
    line("if (threadIdx.x == 0)", 1);
    line("rt::tma_store_wait<true>();", 2);
    line(barrier(), 1);
  }
  line(Buf + ".template store<" + layoutOf(Val) + ">(" + nameOf(Val) + ");", 1);
  line("rt::fence_proxy_async();", 1);
  line(barrier(), 1);
  line("if (threadIdx.x == 0) {", 1);
  line("rt::tma_store_tile" + std::string(Add ? "<rt::tma_write::add>" : "") +
           "(&" + MapNames.lookup(&O) + ", " + Buf + ", " + boxCorner(Map) +
           ");",
       2);
  line("rt::tma_store_commit();", 2);
  line("}", 1);
  line("}");
}

void KernelEmitter::emitStore(const Op &O) {
  if (Tma.count(&O))
    return emitTmaStore(O);
  const Value *Val = O.operand(1);
  if (Val->type().isScalar()) {
    if (const std::string Hints = accessHints(O); !Hints.empty()) {
      const std::string Copy = fresh(nameOf(Val) + "_stored");
      line(declaration(Val->type().Elem, Copy) + " = " + scalar(Val) + ";");
      line("rt::st_global_v1" + Hints + "(" + scalar(O.operand(0)) + ", &" +
           Copy + ", " + (O.mask() ? scalar(O.mask()) : "true") + ");");
      return;
    }
    std::string S = "*" + scalar(O.operand(0)) + " = " + scalar(Val) + ";";
    line(O.mask() ? "if (" + scalar(O.mask()) + ") " + S : S);
    return;
  }
  unsigned W = accessWidth(O);
  Accesses.push_back("store " + nameOf(Val) + ": v" + std::to_string(W));
  line("#pragma unroll");
  line(loopHeader(elems(Val), W));
  // Where threads hold copies, only the owner's stores: a copy's value
  // may have been computed from memory the owner has overwritten since.
  std::string Mask = maskExpr(O, "e");
  const Value *Ptr = O.operand(0);
  if (LM.get(Ptr).replicates(Ptr->type().Shape))
    Mask = layoutOf(Ptr) + "::owns(e)" + (O.mask() ? " && " + Mask : "");
  line("rt::st_global_v" + std::to_string(W) + accessHints(O) + "(" +
           elem(Ptr, "e") + ", &" + nameOf(Val) + "[e], " + Mask + ");",
       1);
}

void KernelEmitter::emitAtomic(const Op &O) {
  if (Tma.count(&O))
    return emitTmaStore(O);
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
    line((Used ? constDecl(R) + " = " : "") + "rt::in_one_thread([&] { " +
         (AfterTmaWrites ? "rt::tma_store_wait<false>(); " : "") +
         "return rt::fenced<" + Order + ", " + Scope + ">([&] { return " +
         Call("0", O.mask() ? "" : "true") + "; }); });");
    return;
  }
  if (AfterTmaWrites) {
    line("if (threadIdx.x == 0)");
    line("rt::tma_store_wait<false>();", 1);
    line(barrier());
  }
  line("rt::atomic_fence_before<" + Order + ", " + Scope + ">();");
  if (Used)
    declareTile(R);
  line("#pragma unroll");
  line(loopHeader(elems(R)));
  line((Used ? nameOf(R) + "[e] = " : "") +
           Call("e", layoutOf(O.operand(0)) + "::owns(e)") + ";",
       1);
  line("rt::atomic_fence_after<" + Order + ", " + Scope + ">();");
}

} // namespace tilecc::codegen
