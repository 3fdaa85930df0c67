//===- Specializations.cpp ------------------------------------------------===//
#include "analysis/Specializations.h"
#include "llvm/ADT/DenseSet.h"

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

/// Integer parameters that are factors of a product: row strides and the
/// like, which are often 1 and then make offsets contiguous.
llvm::DenseSet<const Value *> strideLike(const Function &F) {
  llvm::DenseSet<const Value *> Out;
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::Mul)
      return;
    for (const Value *V : O.operands())
      Out.insert(origin(V));
  });
  return Out;
}

} // namespace

std::vector<Specialization> specializations(const Function &F) {
  llvm::DenseSet<const Value *> Strides = strideLike(F);
  std::vector<ParamSpec> Unit, Aligned;
  bool AnyAligned = false, AnyUnit = false;
  for (const Param &P : F.Params) {
    bool Pointer = P.Arg->type().Elem.isPointer();
    bool Integer = isIntegerParam(P);
    ParamSpec A = Pointer || Integer ? ParamSpec::Aligned16 : ParamSpec::None;
    Aligned.push_back(A);
    AnyAligned |= A != ParamSpec::None;
    bool Stride = Integer && Strides.count(P.Arg);
    Unit.push_back(Stride ? ParamSpec::EqualsOne : A);
    AnyUnit |= Stride;
  }
  std::vector<Specialization> Out;
  if (AnyUnit)
    Out.push_back({"unit",
                   "pointers 16-byte aligned, strides == 1, other integers "
                   "divisible by 16",
                   Unit});
  if (AnyAligned)
    Out.push_back({"aligned16",
                   "pointers 16-byte aligned, integers divisible by 16",
                   Aligned});
  Out.push_back({"generic", "none",
                 std::vector<ParamSpec>(F.Params.size(), ParamSpec::None)});
  return Out;
}

} // namespace tilecc::analysis
