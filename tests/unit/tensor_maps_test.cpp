// Which staged loads are boxes of a 2-D tensor the TMA unit can copy.
#include "analysis/TensorMaps.h"
#include "ir/Builder.h"

#include <doctest/doctest.h>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace {

/// How BoxLoad's columns are bounded.
enum class Columns {
  Masked,         // (cols < k)
  MaskedByRows,   // (rows < k): not a box
  Unmasked,       // no test; cols = arange, a box the tensor ends with
  UnmaskedOffset, // no test; cols = c0 + arange: not a box
};

/// Where BoxLoad's tensor starts.
enum class Stack {
  None,         // at a
  RowsTimesLda, // at a + h * m * lda: tensor h of a stack
  KTimesLda,    // at a + h * k * lda: not a stack of m x lda tensors
};

/// A [64, 32] load of a at rows r0 + arange, columns c0 + arange:
///   a + (r0 + arange)[:, None] * lda + (c0 + arange)[None, :]
/// masked by (rows < m)[:, None] && (cols < k)[None, :], or variations.
struct BoxLoad {
  Function F;
  Value *A, *M, *K, *Lda, *R0, *C0, *H = nullptr;
  const Op *Load = nullptr;

  explicit BoxLoad(Columns C = Columns::Masked, Stack St = Stack::None) {
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
    Value *Rows = Index(R0, 64);
    Value *Cols =
        C == Columns::Unmasked
            ? B.create(OpKind::Arange,
                       Type::tensor(ElemType{ScalarKind::I32}, {32}), {})
            : Index(C0, 32);
    Value *Base = A;
    if (St != Stack::None) {
      Type I64 = Type::scalar(ScalarKind::I64);
      auto Wide = [&](Value *V) {
        return B.cast(V, ElemType{ScalarKind::I64});
      };
      H = B.create(OpKind::ProgramId, Type::scalar(ScalarKind::I32), {});
      Value *Rows = Wide(St == Stack::RowsTimesLda ? M : K);
      Value *Off =
          B.create(OpKind::Mul, I64,
                   {B.create(OpKind::Mul, I64, {Wide(H), Rows}), Wide(Lda)});
      Base = B.create(OpKind::AddPtr, A->type(), {A, Off});
    }
    auto Expand = [&](Value *V, int64_t Axis) {
      Type T = V->type();
      llvm::SmallVector<int64_t, 2> S(T.Shape.begin(), T.Shape.end());
      S.insert(S.begin() + Axis, 1);
      Value *E = B.create(OpKind::ExpandDims, Type::tensor(T.Elem, S), {V});
      E->definingOp()->setAxis(Axis);
      return E;
    };
    Value *RowOff =
        B.create(OpKind::Mul, Type::tensor(ElemType{ScalarKind::I32}, {64, 1}),
                 {Expand(Rows, 1), B.broadcastTo(Lda, {64, 1})});
    Value *RowPtrs = B.create(OpKind::AddPtr, Type::tensor(F16Ptr, {64, 1}),
                              {B.broadcastTo(Base, {64, 1}), RowOff});
    Value *Ptrs = B.create(OpKind::AddPtr, Type::tensor(F16Ptr, {64, 32}),
                           {B.broadcastTo(RowPtrs, {64, 32}),
                            B.broadcastTo(Expand(Cols, 0), {64, 32})});
    auto Below = [&](Value *Index, Value *Bound) {
      Type T = Index->type();
      return B.create(OpKind::CmpLT, T.withElem(ElemType{ScalarKind::I1}),
                      {Index, B.broadcastTo(Bound, T.Shape)});
    };
    Value *Mask = B.broadcastTo(Expand(Below(Rows, M), 1), {64, 32});
    if (C == Columns::Masked || C == Columns::MaskedByRows) {
      Value *ColTest = C == Columns::MaskedByRows ? Expand(Below(Rows, K), 1)
                                                  : Expand(Below(Cols, K), 0);
      Mask = B.create(OpKind::LogicalAnd,
                      Type::tensor(ElemType{ScalarKind::I1}, {64, 32}),
                      {Mask, B.broadcastTo(ColTest, {64, 32})});
    }
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
  BoxLoad L(Columns::MaskedByRows);
  CHECK_FALSE(matchTensorMap(*L.Load));
}

TEST_CASE("an axis the mask leaves out is read exactly as the box") {
  BoxLoad L(Columns::Unmasked);
  auto A = matchTensorMap(*L.Load);
  REQUIRE(A);
  CHECK(A->Axes[0].Bound == L.M);
  CHECK(A->Axes[1].Offset == nullptr);
  CHECK(A->Axes[1].Bound == nullptr);
  using S = ParamSpec;
  CHECK(tensorMapUsable(
      *A, L.F, {S::Aligned16, S::Aligned16, S::Aligned16, S::Aligned16}));
  // Without a bound, a box that moves could leave the tensor.
  CHECK_FALSE(matchTensorMap(*BoxLoad(Columns::UnmaskedOffset).Load));
}

TEST_CASE("a box of one of a stack of 2-D tensors is a 3-D tensor map "
          "access") {
  BoxLoad L(Columns::Masked, Stack::RowsTimesLda);
  auto A = matchTensorMap(*L.Load);
  REQUIRE(A);
  CHECK(A->Base == L.A);
  CHECK(A->Batch == L.H);
  CHECK(A->coordinates().size() == 3);
  // Tensors k * lda elements apart are not the m x lda tensors of the mask.
  CHECK_FALSE(matchTensorMap(*BoxLoad(Columns::Masked, Stack::KTimesLda).Load));
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
  // A row of halves is 16 bytes aligned when its stride divides by 8.
  CHECK(tensorMapUsable(
      *A, L.F, {S::Aligned16, S::Aligned16, S::Aligned16, S::Divisible8}));
  CHECK_FALSE(tensorMapUsable(
      *A, L.F, {S::Aligned16, S::Aligned16, S::Aligned16, S::Divisible4}));
}
