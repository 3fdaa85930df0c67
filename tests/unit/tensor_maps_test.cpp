// Which staged loads are boxes of a 2-D tensor the TMA unit can copy.
#include "analysis/TensorMaps.h"
#include "ir/Builder.h"

#include <doctest/doctest.h>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace {

/// A [64, 32] load of a at rows r0 + arange, columns c0 + arange:
///   a + (r0 + arange)[:, None] * lda + (c0 + arange)[None, :]
/// masked by (rows < m)[:, None] && (ColumnBoundOnRows ? rows : cols < k).
struct BoxLoad {
  Function F;
  Value *A, *M, *K, *Lda, *R0, *C0;
  const Op *Load = nullptr;

  explicit BoxLoad(bool ColumnBoundOnRows = false) {
    ElemType F16Ptr{ScalarKind::Ptr, ScalarKind::F16, true};
    auto Int = [&] {
      return F.body().addArgument(F.newValue(Type::scalar(ScalarKind::I32)));
    };
    A = F.body().addArgument(F.newValue(Type::scalar(F16Ptr)));
    M = Int(), K = Int(), Lda = Int();
    F.Params = {{"a", "const tile::half *", A},
                {"m", "int", M},
                {"k", "int", K},
                {"lda", "int", Lda}};
    Builder B(F, F.body());
    Value *Pid = B.create(OpKind::ProgramId, Type::scalar(ScalarKind::I32), {});
    R0 = B.create(OpKind::Mul, Pid->type(), {Pid, B.intConst(64)});
    C0 = B.create(OpKind::Mul, Pid->type(), {Pid, B.intConst(32)});
    auto Index = [&](Value *Start, int64_t N) {
      Type T = Type::tensor(ElemType{ScalarKind::I32}, {N});
      return B.create(
          OpKind::Add, T,
          {B.broadcastTo(Start, {N}), B.create(OpKind::Arange, T, {})});
    };
    Value *Rows = Index(R0, 64), *Cols = Index(C0, 32);
    auto Expand = [&](Value *V, int64_t Axis) {
      Type T = V->type();
      llvm::SmallVector<int64_t, 2> S(T.Shape.begin(), T.Shape.end());
      S.insert(S.begin() + Axis, 1);
      Value *E = B.create(OpKind::ExpandDims, Type::tensor(T.Elem, S), {V});
      E->definingOp()->setIntAttr(Axis);
      return E;
    };
    Value *RowOff =
        B.create(OpKind::Mul, Type::tensor(ElemType{ScalarKind::I32}, {64, 1}),
                 {Expand(Rows, 1), B.broadcastTo(Lda, {64, 1})});
    Value *RowPtrs = B.create(OpKind::AddPtr, Type::tensor(F16Ptr, {64, 1}),
                              {B.broadcastTo(A, {64, 1}), RowOff});
    Value *Ptrs = B.create(OpKind::AddPtr, Type::tensor(F16Ptr, {64, 32}),
                           {B.broadcastTo(RowPtrs, {64, 32}),
                            B.broadcastTo(Expand(Cols, 0), {64, 32})});
    auto Below = [&](Value *Index, Value *Bound) {
      Type T = Index->type();
      return B.create(OpKind::CmpLT, T.withElem(ElemType{ScalarKind::I1}),
                      {Index, B.broadcastTo(Bound, T.Shape)});
    };
    Value *ColTest = ColumnBoundOnRows ? Expand(Below(Rows, K), 1)
                                       : Expand(Below(Cols, K), 0);
    Value *Mask = B.create(OpKind::LogicalAnd,
                           Type::tensor(ElemType{ScalarKind::I1}, {64, 32}),
                           {B.broadcastTo(Expand(Below(Rows, M), 1), {64, 32}),
                            B.broadcastTo(ColTest, {64, 32})});
    Load = B.create(OpKind::Load,
                    Type::tensor(ElemType{ScalarKind::F16}, {64, 32}),
                    {Ptrs, Mask})
               ->definingOp();
  }
};

} // namespace

TEST_CASE("a masked row-major box is a tensor map access") {
  BoxLoad L;
  auto A = matchTensorMap(*L.Load);
  REQUIRE(A);
  CHECK(A->Base == L.A);
  CHECK(A->InnerDim == 1);
  CHECK(A->Axes[0].Offset == L.R0);
  CHECK(A->Axes[0].Stride == L.Lda);
  CHECK(A->Axes[0].Bound == L.M);
  CHECK(A->Axes[1].Offset == L.C0);
  CHECK(A->Axes[1].Stride == nullptr);
  CHECK(A->Axes[1].Bound == L.K);
}

TEST_CASE("a mask that does not bound each dimension by its own index is "
          "not a box") {
  BoxLoad L(/*ColumnBoundOnRows=*/true);
  CHECK_FALSE(matchTensorMap(*L.Load));
}

TEST_CASE("tensor maps need an aligned base and row stride") {
  BoxLoad L;
  auto A = matchTensorMap(*L.Load);
  REQUIRE(A);
  using S = ParamSpec;
  CHECK(tensorMapUsable(
      *A, L.F, {S::Aligned16, S::Aligned16, S::Aligned16, S::Aligned16}));
  CHECK_FALSE(tensorMapUsable(*A, L.F, {S::None, S::None, S::None, S::None}));
  CHECK_FALSE(tensorMapUsable(
      *A, L.F, {S::Aligned16, S::Aligned16, S::Aligned16, S::None}));
}
