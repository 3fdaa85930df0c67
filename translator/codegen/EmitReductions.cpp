//===- EmitReductions.cpp - Reductions and scans
//---------------------------===//
//
// Reductions and scans within a thread, across lanes and across warps,
// with the user's combine as a device lambda, and the shared memory
// their partials take; histograms, which count into shared memory.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"
#include <algorithm>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

std::string KernelEmitter::emitCombine(const Op &O) {
  const Block &R = *O.region(0);
  std::string Name = fresh("combine");
  std::string Params;
  for (const auto &A : R.arguments())
    Params += (Params.empty() ? "" : ", ") +
              declaration(A->type().Elem, nameOf(A.get()));
  line("auto " + Name + " = [&](" + Params + ") {");
  {
    Nested Deeper(*this);
    emitBlock(R);
  }
  const Op *Y = R.terminator();
  std::string Values;
  for (const Value *V : Y->operands())
    Values += (Values.empty() ? "" : ", ") + scalar(V);
  line("return " +
           (Y->numOperands() == 1 ? Values : "rt::make_pack(" + Values + ")") +
           ";",
       1);
  line("};");
  return O.numResults() == 1 ? Name : "rt::unpacked(" + Name + ")";
}

std::string KernelEmitter::packType(const Op &O) {
  std::string S;
  for (const auto &R : O.results())
    S += (S.empty() ? "" : ", ") + deviceType(R->type().Elem);
  return "rt::pack<" + S + ">";
}

std::string KernelEmitter::combinedInput(const Op &O) {
  const Value *X = O.operand(0);
  if (O.numOperands() == 1)
    return nameOf(X);
  std::string Name = fresh(nameOf(O.result(0)) + "_in");
  line(packType(O) + " " + Name + "[" + std::to_string(elems(X)) + "];");
  std::string Values;
  for (const Value *V : O.operands())
    Values += (Values.empty() ? "" : ", ") + elem(V, "e");
  line("#pragma unroll");
  line(loopHeader(elems(X)));
  line(Name + "[e] = rt::make_pack(" + Values + ");", 1);
  return Name;
}

std::string KernelEmitter::combinedOutput(const Op &O) {
  if (O.numResults() == 1) {
    declareTile(O.result());
    return nameOf(O.result());
  }
  // Of several results, those nobody reads are left in the packs.
  for (const auto &R : O.results())
    if (Uses.lookup(R.get()))
      declareTile(R.get());
  std::string Name = fresh(nameOf(O.result(0)) + "_out");
  line(packType(O) + " " + Name + "[" + std::to_string(elems(O.result())) +
       "];");
  return Name;
}

void KernelEmitter::unpackResults(const Op &O, const std::string &Out) {
  if (O.numResults() == 1)
    return;
  line("#pragma unroll");
  line(loopHeader(elems(O.result())) + " {");
  for (unsigned I = 0; I < O.numResults(); ++I)
    if (Uses.lookup(O.result(I)))
      line(nameOf(O.result(I)) + "[e] = rt::get<" + std::to_string(I) + ">(" +
               Out + "[e]);",
           1);
  line("}");
}

void KernelEmitter::emitReduce(const Op &O) {
  const Value *X = O.operand(0), *R = O.result();
  bool IsArg = O.kind() == OpKind::ArgMax || O.kind() == OpKind::ArgMin;
  // tile::rt names its combine operations after the ops: rt::op_sum ...
  std::string Combine = O.kind() == OpKind::Reduce
                            ? emitCombine(O)
                            : "rt::op_" + spell(O.kind()).str() + "{}";
  std::string Fn = IsArg ? "rt::arg_reduce" : "rt::reduce";
  std::string In = combinedInput(O);
  if (R->type().isScalar()) {
    const std::string Instance = Fn + "_all<" + layoutOf(X) + syncArg() + ">";
    countPartials(O, Instance);
    std::string Call = Instance + "(" + In + ", " + Combine + ")";
    if (O.numResults() == 1) {
      line(constDecl(R) + " = " + Call + ";");
      return;
    }
    std::string All = fresh(nameOf(R) + "_all");
    line("const " + packType(O) + " " + All + " = " + Call + ";");
    for (unsigned I = 0; I < O.numResults(); ++I)
      if (Uses.lookup(O.result(I)))
        line(constDecl(O.result(I)) + " = rt::get<" + std::to_string(I) + ">(" +
             All + ");");
    return;
  }
  std::string Out = combinedOutput(O);
  // A loop-carried sum's lanes combine after the loop (LaneSums).
  if (EP.LaneSums.Reduces.count(&O)) {
    line("rt::reduce_in_thread<" + std::to_string(O.axis()) + ", " +
         layoutOf(X) + ", " + layoutOf(R) + ">(" + In + ", " + Out + ", " +
         Combine + ");");
    return unpackResults(O, Out);
  }
  const std::string Instance = Fn + "<" + std::to_string(O.axis()) + ", " +
                               layoutOf(X) + ", " + layoutOf(R) + syncArg() +
                               ">";
  countPartials(O, Instance);
  line(Instance + "(" + In + ", " + Out + ", " + Combine + ");");
  unpackResults(O, Out);
}

void KernelEmitter::emitScan(const Op &O) {
  std::string Combine = emitCombine(O);
  std::string In = combinedInput(O);
  std::string Out = combinedOutput(O);
  const std::string Instance = "rt::scan<" + std::to_string(O.scanAxis()) +
                               ", " + (O.scanReverse() ? "true" : "false") +
                               ", " + layoutOf(O.operand(0)) + ">";
  countPartials(O, Instance);
  line(Instance + "(" + In + ", " + Out + ", " + Combine + ");");
  unpackResults(O, Out);
}

namespace {

/// The shared memory rt::histogram takes for Bins bins:
/// rt::bins_with_discards ints.
unsigned binsBytes(int64_t Bins) {
  return (Bins + 32) * storageBytes(ScalarKind::I32);
}

} // namespace

void KernelEmitter::emitHistogram(const Op &O) {
  const Value *X = O.operand(0), *R = O.result();
  const std::string Mask =
      O.numOperands() == 2 ? nameOf(O.operand(1)) : "nullptr";
  declareTile(R);
  if (auto It = LoopBins.find(&O); It != LoopBins.end()) {
    line("rt::count_into<" + layoutOf(X) + ", " +
         std::to_string(R->type().numel()) + ">(" + nameOf(X) + ", " + Mask +
         ", " + It->second + ");");
    line("#pragma unroll");
    line(loopHeader(elems(R)));
    line(nameOf(R) + "[e] = 0; // counted in " + It->second, 1);
    return;
  }
  const std::string Bins = scratch(O, binsBytes(R->type().numel()));
  line("rt::histogram<" + layoutOf(X) + ", " + layoutOf(R) + syncArg() + ">(" +
       nameOf(X) + ", " + Mask + ", " + nameOf(R) +
       ", reinterpret_cast<int *>(" + Bins + "));");
}

void KernelEmitter::openLoopHistograms(const Op &O) {
  auto It = EP.Histograms.Carried.find(&O);
  if (It == EP.Histograms.Carried.end())
    return;
  for (const LoopHistograms::Summed &S : It->second) {
    const Value *Counts = O.result(S.Index);
    const int64_t Bins = Counts->type().numel();
    const std::string Name = fresh(nameOf(Counts) + "_bins");
    for (const Op *H : S.Histograms)
      LoopBins[H] = Name;
    line("__shared__ int " + Name + "[rt::bins_with_discards<" +
         std::to_string(Bins) + ">];");
    line("rt::clear_bins<" + layoutOf(Counts) + ">(" + Name + ");");
    StaticSharedBytes += binsBytes(Bins);
  }
  line(barrier());
}

void KernelEmitter::closeLoopHistograms(const Op &O) {
  auto It = EP.Histograms.Carried.find(&O);
  if (It == EP.Histograms.Carried.end())
    return;
  for (const LoopHistograms::Summed &S : It->second) {
    const Value *Counts = O.result(S.Index);
    line("rt::add_bins<" + layoutOf(Counts) + syncArg() + ">(" +
         nameOf(Counts) + ", " + LoopBins.lookup(S.Histograms.front()) + ");");
  }
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
  const int64_t W = L.Parent.distinctWarps(D, T.Shape[Dim]);
  if (W == 1 || !PartialBuffers.insert(Instance + packType(O)).second)
    return;
  const unsigned Bytes = W * (T.numel() / T.Shape[Dim]) * packBytes(Kinds);
  StaticSharedBytes += Bytes;
  if (Bytes > LargestPartials) {
    LargestPartials = Bytes;
    PartialsLoc = O.loc();
  }
}

} // namespace tilecc::codegen
