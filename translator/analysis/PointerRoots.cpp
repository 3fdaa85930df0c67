//===- PointerRoots.cpp ---------------------------------------------------===//
#include "analysis/PointerRoots.h"
#include "llvm/ADT/STLExtras.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

bool keepsValues(const Op &O) {
  switch (O.kind()) {
  case OpKind::Splat:
  case OpKind::Broadcast:
  case OpKind::ExpandDims:
  case OpKind::ConvertLayout:
  case OpKind::MultipleOf:
  case OpKind::MaxContiguous:
    return true;
  case OpKind::Cast: {
    const ScalarKind From = O.operand(0)->type().Elem.Kind,
                     To = O.result()->type().Elem.Kind;
    return isInteger(From) && isInteger(To) && From != ScalarKind::I1 &&
           bitWidth(To) >= bitWidth(From);
  }
  default:
    return false;
  }
}

RootSet PointerRoots::of(const Value *Address) { return find(Address, 0); }

bool PointerRoots::mayOverlap(const Value *A, const Value *B) {
  const RootSet RA = of(A), RB = of(B);
  return !RA || !RB || llvm::any_of(*RA, [&](const Value *R) {
    return llvm::is_contained(*RB, R);
  });
}

bool PointerRoots::writtenIn(const Block &B, const Value *Address) {
  bool Written = false;
  walk(B, [&](const Op &O) {
    Written = Written ||
              (categoryOf(O.kind()) == OpCategory::Memory &&
               O.kind() != OpKind::Load && mayOverlap(O.operand(0), Address));
  });
  return Written;
}

RootSet PointerRoots::find(const Value *P, unsigned Depth) {
  if (Depth > 64)
    return std::nullopt;
  if (const Op *D = P->definingOp()) {
    if (D->kind() == OpKind::AddPtr || keepsValues(*D))
      return find(D->operand(0), Depth + 1);
    if (D->kind() == OpKind::Const)
      return RootSet(std::in_place);
    if (D->kind() != OpKind::Select)
      return std::nullopt;
    RootSet A = find(D->operand(1), Depth + 1),
            B = find(D->operand(2), Depth + 1);
    if (!A || !B)
      return std::nullopt;
    for (const Value *R : *B)
      if (!llvm::is_contained(*A, R))
        A->push_back(R);
    return A;
  }
  const Block *B = P->ownerBlock();
  if (B == &F.body())
    return RootSet(std::in_place, 1, P);
  // A pointer a loop carries: the one it starts from, if what the loop
  // yields for it comes from there too.
  const Op *L = B->parentOp();
  if (!L || L->kind() != OpKind::For || P == B->argument(0))
    return std::nullopt;
  if (llvm::is_contained(Carried, P))
    return RootSet(std::in_place, 1, P);
  const unsigned K = B->argumentNumber(P);
  Carried.push_back(P);
  RootSet Start = find(L->operand(2 + K), Depth + 1);
  RootSet Next = find(B->terminator()->operand(K - 1), Depth + 1);
  Carried.pop_back();
  const RootSet Self(std::in_place, 1, P);
  return Next == Self || Next == Start ? Start : std::nullopt;
}

} // namespace tilecc::analysis
