//===- Specializations.cpp ------------------------------------------------===//
#include "analysis/Specializations.h"
#include "analysis/AxisInfo.h"
#include "analysis/TensorMaps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cassert>

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

bool isIntegerParam(const Param &P) {
  const ElemType &E = P.Arg->type().Elem;
  return !E.isPointer() && isInteger(E.Kind) && E.Kind != ScalarKind::I1;
}

/// The value V was made from by splat, broadcast, expand_dims or casts.
const Value *origin(const Value *V) {
  while (const Op *D = V->definingOp()) {
    OpKind K = D->kind();
    if (K != OpKind::Splat && K != OpKind::Broadcast &&
        K != OpKind::ExpandDims && K != OpKind::Cast)
      break;
    V = D->operand(0);
  }
  return V;
}

/// Whether index I, multiplied by a stride, ends up along a tile's last
/// (fastest) dimension: a scalar does not (a row or program offset); a tile
/// does unless it is 1 wide there or its product, or a sum or conversion of
/// it, is expanded with a new last dimension (rope's `b * batch_stride +
/// pos * seq_stride`, then `[:, None]`: positions are rows).
bool alongLastDim(const Value *I, const Op &Mul) {
  const Type &T = I->type();
  if (T.isScalar())
    return false;
  if (T.Shape.back() == 1)
    return false;
  llvm::SmallVector<const Value *, 4> Work = {Mul.result()};
  llvm::SmallPtrSet<const Value *, 8> Seen = {Mul.result()};
  bool Expanded = false;
  while (!Work.empty() && !Expanded) {
    const Value *V = Work.pop_back_val();
    walk(*Mul.parentBlock(), [&](const Op &U) {
      if (!llvm::is_contained(U.operands(), V))
        return;
      const OpKind K = U.kind();
      if (K == OpKind::ExpandDims && U.axis() == int64_t(T.rank()))
        Expanded = true;
      else if ((K == OpKind::Add || K == OpKind::Sub || K == OpKind::Cast ||
                K == OpKind::AddPtr) &&
               U.result()->type().rank() == T.rank() &&
               Seen.insert(U.result()).second)
        Work.push_back(U.result());
    });
  }
  return !Expanded;
}

/// Integer parameters that are only ever inner strides: factors of an
/// index along a tile's last dimension, which are often 1 and then make
/// offsets contiguous. Parameters also used as row strides (factors of a
/// scalar, or of an index along another dimension) are left out:
/// a row stride of 1 is a degenerate case not worth a variant.
llvm::DenseSet<const Value *> strideLike(const Function &F) {
  llvm::DenseSet<const Value *> Inner, Outer;
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::Mul)
      return;
    for (unsigned I = 0; I < 2; ++I) {
      const Value *P = origin(O.operand(I));
      const Op *Factor = origin(O.operand(1 - I))->definingOp();
      // A constant times a stride is a step along that dimension (`BK *
      // stride_ak`), no sign of another role.
      if (P->definingOp() || (Factor && Factor->kind() == OpKind::Const))
        continue;
      (alongLastDim(O.operand(1 - I), O) ? Inner : Outer).insert(P);
    }
  });
  for (const Value *P : Outer)
    Inner.erase(P);
  return Inner;
}

/// What the specialization tells a function's memory accesses: per access
/// and dimension, the pointers' contiguity (it orders the layout's
/// dimensions) and the widest vector the pointers' divisibility and the
/// mask's and other value's constancy allow; per box of a tensor, whether
/// TMA may copy it (its row stride's alignment). Integer divisibility
/// changes the generated code only through these. A tile of no more
/// elements than the program has threads gets one element per thread
/// whatever its facts (a row's statistics stored beside the row).
using AccessFacts = std::vector<int64_t>;

AccessFacts accessFacts(const Function &F, unsigned Threads,
                        llvm::ArrayRef<ParamSpec> Specs) {
  AxisInfoAnalysis AI(F, Specs);
  AccessFacts Facts;
  walk(F.body(), [&](const Op &O) {
    if (categoryOf(O.kind()) != OpCategory::Memory)
      return;
    const Value *P = O.operand(0);
    const AxisInfo &PI = AI.get(P);
    const int64_t PerThread =
        std::max<int64_t>(1, P->type().numel() / int64_t(Threads));
    for (unsigned D = 0; D < PI.Contiguity.size(); ++D) {
      Facts.push_back(PI.Contiguity[D]);
      Facts.push_back(accessVectorWidth(AI, O, D, PerThread));
    }
    if (auto Box = matchTensorMap(O))
      Facts.push_back(tensorMapUsable(*Box, F, Specs));
  });
  return Facts;
}

} // namespace

std::vector<Specialization>
specializations(llvm::ArrayRef<const Function *> Instances,
                llvm::ArrayRef<unsigned> Threads) {
  // One launch wrapper checks the arguments for every configuration. A
  // pointer is specialized when any configuration reads it: aligned
  // allocations are the rule, and a configuration that leaves it unread
  // (an output only some configurations write) must not cost the others
  // their vector accesses. An integer is specialized only when every
  // configuration reads it (divisibility depends on the problem, and a
  // configuration should not lose its fast variants over a size it never
  // reads) and only when its divisibility changes an access of some
  // configuration: a row count that only bounds rows (M of a matrix
  // product), a target's ignore_index, a count compared with, tell the
  // accesses nothing, and a value such as 3000 or -100 would send every
  // launch to the generic variant.
  const unsigned NumParams = Instances.front()->Params.size();
  llvm::SmallVector<unsigned> Readers(NumParams), StrideReaders(NumParams);
  for (const Function *F : Instances) {
    assert(F->Params.size() == NumParams && "configurations of one kernel");
    llvm::DenseSet<const Value *> Strides = strideLike(*F);
    UserMap Users = users(F->body());
    for (unsigned I = 0; I < NumParams; ++I) {
      const Value *Arg = F->Params[I].Arg;
      if (Users.lookup(Arg).empty())
        continue;
      ++Readers[I];
      StrideReaders[I] += Strides.count(Arg);
    }
  }
  std::vector<ParamSpec> Aligned, Unit;
  bool AnyUnit = false;
  for (unsigned I = 0; I < NumParams; ++I) {
    const Param &P = Instances.front()->Params[I];
    // A parameter no body reads (one a selection or grid rule reads)
    // tells the variants nothing.
    bool Pointer = Readers[I] > 0 && P.Arg->type().Elem.isPointer();
    bool Integer = Readers[I] == Instances.size() && isIntegerParam(P);
    Aligned.push_back(Pointer || Integer ? ParamSpec::Aligned16
                                         : ParamSpec::None);
    bool Stride = Integer && StrideReaders[I] == Instances.size();
    Unit.push_back(Stride ? ParamSpec::EqualsOne : Aligned.back());
    AnyUnit |= Stride;
  }
  // Each integer asks for the least divisibility (none, 2, 4, 8, then 16)
  // that leaves neither variant's accesses changed, one integer at a time,
  // each against the ones weakened before it (two that only matter
  // together, a + m * n, are not both dropped): a row of 1000 halves or
  // 3000 floats is 16 bytes aligned, and asking for 16 would send it to the
  // generic variant. With a unit inner stride, a row stride's divisibility
  // decides the vectors that a strided inner dimension leaves at one
  // element.
  auto Facts = [&](size_t C) {
    AccessFacts Both = accessFacts(*Instances[C], Threads[C], Aligned);
    if (AnyUnit)
      llvm::append_range(Both, accessFacts(*Instances[C], Threads[C], Unit));
    return Both;
  };
  std::vector<AccessFacts> Wanted;
  for (size_t C = 0; C < Instances.size(); ++C)
    Wanted.push_back(Facts(C));
  for (unsigned I = 0; I < NumParams; ++I) {
    if (Aligned[I] != ParamSpec::Aligned16 ||
        !isIntegerParam(Instances.front()->Params[I]))
      continue;
    // A stride stays == 1 in the unit variant; only its divisibility in
    // the aligned one is in question.
    const bool StrideInUnit = Unit[I] == ParamSpec::EqualsOne;
    for (ParamSpec Spec :
         {ParamSpec::None, ParamSpec::Divisible2, ParamSpec::Divisible4,
          ParamSpec::Divisible8, ParamSpec::Aligned16}) {
      Aligned[I] = Spec;
      if (!StrideInUnit)
        Unit[I] = Spec;
      if (Spec == ParamSpec::Aligned16 ||
          llvm::all_of(llvm::seq<size_t>(0, Instances.size()),
                       [&](size_t C) { return Facts(C) == Wanted[C]; }))
        break;
    }
  }
  bool AnyAligned =
      llvm::any_of(Aligned, [](ParamSpec S) { return S != ParamSpec::None; });
  std::vector<Specialization> Out;
  if (AnyUnit)
    Out.push_back({"unit",
                   "pointers 16-byte aligned, strides == 1, other integers "
                   "divisible as their accesses need",
                   Unit, Assumption::UnitStride});
  if (AnyAligned)
    Out.push_back({"aligned16",
                   "pointers 16-byte aligned, integers divisible as their "
                   "accesses need",
                   Aligned, Assumption::Aligned16});
  Out.push_back({"generic", "none (any arguments)",
                 std::vector<ParamSpec>(NumParams, ParamSpec::None),
                 Assumption::None});
  return Out;
}

} // namespace tilecc::analysis
