//===- Builder.cpp --------------------------------------------------------===//
#include "ir/Builder.h"

namespace tilecc::ir {

Value *Builder::create(OpKind K, Type ResultTy,
                       llvm::ArrayRef<Value *> Operands) {
  Op *O = createVoid(K, Operands);
  return O->addResult(F.newValue(std::move(ResultTy)));
}

Op *Builder::createVoid(OpKind K, llvm::ArrayRef<Value *> Operands) {
  auto O = std::make_unique<Op>(K, Loc);
  for (Value *V : Operands)
    O->addOperand(V);
  return Insert->append(std::move(O));
}

Value *Builder::intConst(int64_t V, ScalarKind K) {
  Value *R = create(OpKind::Const, Type::scalar(K), {});
  R->definingOp()->setIntValue(V);
  return R;
}

Value *Builder::floatConst(double V, ScalarKind K) {
  Value *R = create(OpKind::Const, Type::scalar(K), {});
  // An fp32 constant holds exactly the float the conversion gives, as in
  // emulation; printing it then needs no second rounding.
  R->definingOp()->setFloatValue(K == ScalarKind::F32 ? double(float(V)) : V);
  return R;
}

Value *Builder::boolConst(bool V) { return intConst(V, ScalarKind::I1); }

Value *Builder::nullPointer(ElemType E) {
  Value *R = create(OpKind::Const, Type::scalar(E), {});
  R->definingOp()->setIntValue(0);
  return R;
}

Value *Builder::cast(Value *V, ElemType E) {
  if (V->type().Elem == E)
    return V;
  // Constants are converted here, so generated code shows `1.0f`, not a
  // conversion of `1`.
  if (Op *D = V->definingOp(); D && D->kind() == OpKind::Const &&
                               !E.isPointer() && V->type().isScalar()) {
    ScalarKind From = V->type().Elem.Kind;
    double AsFloat = isFloat(From) ? D->floatValue() : double(D->intValue());
    if (isFloat(E.Kind))
      return floatConst(AsFloat, E.Kind);
    if (E.Kind == ScalarKind::I1)
      return boolConst(isFloat(From) ? AsFloat != 0 : D->intValue() != 0);
    if (!isFloat(From))
      return intConst(D->intValue(), E.Kind);
  }
  return create(OpKind::Cast, V->type().withElem(E), {V});
}

Value *Builder::broadcastTo(Value *V, llvm::ArrayRef<int64_t> Shape) {
  const Type &T = V->type();
  if (llvm::ArrayRef<int64_t>(T.Shape) == Shape)
    return V;
  if (T.isScalar())
    return create(OpKind::Splat, T.withShape(Shape), {V});
  Value *Cur = V;
  while (Cur->type().rank() < Shape.size()) {
    llvm::SmallVector<int64_t, 4> S(Cur->type().Shape.begin(),
                                    Cur->type().Shape.end());
    S.insert(S.begin(), 1);
    Cur = create(OpKind::ExpandDims, Cur->type().withShape(S), {Cur});
    Cur->definingOp()->setAxis(0);
  }
  if (llvm::ArrayRef<int64_t>(Cur->type().Shape) != Shape)
    Cur = create(OpKind::Broadcast, Cur->type().withShape(Shape), {Cur});
  return Cur;
}

} // namespace tilecc::ir
