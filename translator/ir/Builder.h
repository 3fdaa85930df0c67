//===- Builder.h - Creates TileIR ops at an insertion point -----*- C++ -*-===//
#ifndef TILECC_IR_BUILDER_H
#define TILECC_IR_BUILDER_H

#include "ir/IR.h"

namespace tilecc::ir {

class Builder {
public:
  Builder(Function &F, Block &B) : F(F), Insert(&B) {}

  Function &function() { return F; }
  Block *block() const { return Insert; }
  void setBlock(Block &B) { Insert = &B; }
  void setLoc(SourceLoc L) { Loc = L; }
  SourceLoc loc() const { return Loc; }

  /// Appends an op with the given operands and one result of type ResultTy.
  Value *create(OpKind K, Type ResultTy, llvm::ArrayRef<Value *> Operands);
  /// Appends an op with no results (store, yield).
  Op *createVoid(OpKind K, llvm::ArrayRef<Value *> Operands);

  Value *intConst(int64_t V, ScalarKind K = ScalarKind::I32);
  Value *floatConst(double V, ScalarKind K);
  Value *boolConst(bool V);
  /// The null pointer of pointer type E (`nullptr`).
  Value *nullPointer(ElemType E);
  /// Casts V's elements to E (no-op if equal).
  Value *cast(Value *V, ElemType E);
  /// Makes V have Shape: splats a scalar, left-extends rank with expand_dims,
  /// and broadcasts size-1 dimensions (numpy rules; callers checked them).
  Value *broadcastTo(Value *V, llvm::ArrayRef<int64_t> Shape);

private:
  Function &F;
  Block *Insert;
  SourceLoc Loc;
};

} // namespace tilecc::ir

#endif
