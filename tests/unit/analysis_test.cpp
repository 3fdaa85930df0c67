// Axis info and layout choice: the facts that decide vector widths.
#include "analysis/AxisInfo.h"
#include "analysis/EntryRegisters.h"
#include "analysis/LayoutAssignment.h"
#include "analysis/LoopInvariantA.h"
#include "ir/Builder.h"

#include <doctest/doctest.h>
#include <utility>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace {

/// vector_add's body: out[offs] = x[offs] where offs = pid*BLOCK + arange
/// and mask = offs < n. Returns the pointer tile and the mask.
struct VectorAdd {
  Function F;
  Value *Ptrs = nullptr, *Mask = nullptr, *Offs = nullptr;

  explicit VectorAdd(int64_t Block) {
    ElemType F32Ptr{ScalarKind::Ptr, ScalarKind::F32, false};
    Value *X = F.body().addArgument(F.newValue(Type::scalar(F32Ptr)));
    Value *N = F.body().addArgument(F.newValue(Type::scalar(ScalarKind::I32)));
    F.Params = {{"x", "float *", X}, {"n", "int", N}};
    Builder B(F, F.body());
    Type T = Type::tensor(ElemType{ScalarKind::I32}, {Block});
    Value *Pid = B.create(OpKind::ProgramId, Type::scalar(ScalarKind::I32), {});
    Value *Base = B.create(OpKind::Mul, Pid->type(), {Pid, B.intConst(Block)});
    Offs = B.create(
        OpKind::Add, T,
        {B.broadcastTo(Base, T.Shape), B.create(OpKind::Arange, T, {})});
    Mask = B.create(OpKind::CmpLT, T.withElem(ElemType{ScalarKind::I1}),
                    {Offs, B.broadcastTo(N, T.Shape)});
    Ptrs = B.create(OpKind::AddPtr, T.withElem(F32Ptr),
                    {B.broadcastTo(X, T.Shape), Offs});
    Value *V = B.create(OpKind::Load, T.withElem(ElemType{ScalarKind::F32}),
                        {Ptrs, Mask});
    B.createVoid(OpKind::Store, {Ptrs, V, Mask});
  }
};

/// A tile's runs along dimension 0: {contiguity, divisibility}.
using Runs = std::pair<int64_t, int64_t>;

Runs runsOf(const AxisInfoAnalysis &AI, const Value *V) {
  const AxisInfo &A = AI.get(V);
  return {A.Contiguity[0], A.Divisibility[0]};
}

} // namespace

TEST_CASE("pid * BLOCK + arange is contiguous and BLOCK-divisible") {
  VectorAdd K(1024);
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  const AxisInfo &O = AI.get(K.Offs);
  CHECK(O.Contiguity[0] == 1024);
  CHECK(O.Divisibility[0] == 1024);
  CHECK(O.Constancy[0] == 1);
  // x is 16-byte aligned and offsets are multiples of 1024 floats.
  CHECK(AI.get(K.Ptrs).Divisibility[0] == 16);
  CHECK(AI.get(K.Ptrs).Contiguity[0] == 1024);
}

TEST_CASE("the mask is constant in groups of what n divides by") {
  VectorAdd K(1024);
  AxisInfoAnalysis Aligned(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(Aligned.get(K.Mask).Constancy[0] == 16);
  AxisInfoAnalysis Generic(K.F, {ParamSpec::None, ParamSpec::None});
  CHECK(Generic.get(K.Mask).Constancy[0] == 1);
  CHECK(Generic.get(K.Ptrs).Divisibility[0] == 1);
  // n % 4 == 0: runs of 4, a float vector's worth.
  AxisInfoAnalysis ByFour(K.F, {ParamSpec::Aligned16, ParamSpec::Divisible4});
  CHECK(ByFour.get(K.Mask).Constancy[0] == 4);
}

TEST_CASE("offsets wrapped with % stay contiguous in runs of the common "
          "divisor") {
  VectorAdd K(1024);
  Builder B(K.F, K.F.body());
  Value *N = K.F.body().argument(1);
  Value *Wrapped = B.create(OpKind::Rem, K.Offs->type(),
                            {K.Offs, B.broadcastTo(N, K.Offs->type().Shape)});
  AxisInfoAnalysis Aligned(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(Aligned.get(Wrapped).Contiguity[0] == 16);
  CHECK(Aligned.get(Wrapped).Divisibility[0] == 16);
  AxisInfoAnalysis Generic(K.F, {ParamSpec::None, ParamSpec::None});
  CHECK(Generic.get(Wrapped).Contiguity[0] == 1);
}

TEST_CASE("a contiguous tile expanded with a new dimension divides by 1 "
          "along it") {
  // rm[:, None]: each element starts a run along dimension 1, and
  // pid * BLOCK + 1 is odd, whatever the rows' first element divides by.
  VectorAdd K(1024);
  Builder B(K.F, K.F.body());
  Value *Rows =
      B.create(OpKind::ExpandDims,
               Type::tensor(ElemType{ScalarKind::I32}, {1024, 1}), {K.Offs});
  Rows->definingOp()->setAxis(1);
  Value *Eight =
      B.create(OpKind::ExpandDims, Type::tensor(ElemType{ScalarKind::I32}, {1}),
               {B.intConst(8)});
  Eight->definingOp()->setAxis(0);
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(AI.get(Rows).Divisibility[0] == 1024);
  CHECK(AI.get(Rows).Divisibility[1] == 1);
  CHECK(AI.get(Eight).Divisibility[0] == 8);
}

TEST_CASE("a contiguous tile times an integer divides by the integer only") {
  // (pid * 1024 + i) * n: the rows' first element divides by 1024, but the
  // product is contiguous no longer and (pid * 1024 + 1) * n is no
  // multiple of 1024 n. Times the constant 1 it stays what it was.
  VectorAdd K(1024);
  Builder B(K.F, K.F.body());
  const Type &T = K.Offs->type();
  Value *N = K.F.body().argument(1);
  Value *Strided =
      B.create(OpKind::Mul, T, {K.Offs, B.broadcastTo(N, T.Shape)});
  Value *ByOne =
      B.create(OpKind::Mul, T, {B.broadcastTo(B.intConst(1), T.Shape), K.Offs});
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Divisible8});
  CHECK(runsOf(AI, Strided) == Runs{1, 8});
  CHECK(runsOf(AI, ByOne) == Runs{1024, 1024});
}

TEST_CASE("a sum whose runs are shorter than an operand's divides by the "
          "run length only") {
  // (pid * 1024 + i) + (pid * 1024 + i) = 2 (pid * 1024 + i): runs of one
  // element, whose second is 2 (pid * 1024) + 2, no multiple of 2048.
  // Offsets whose runs stay those of an operand keep its divisibility.
  VectorAdd K(1024);
  Builder B(K.F, K.F.body());
  const Type &T = K.Offs->type();
  Value *Doubled = B.create(OpKind::Add, T, {K.Offs, K.Offs});
  Value *Shifted = B.create(OpKind::Add, T,
                            {K.Offs, B.broadcastTo(B.intConst(64), T.Shape)});
  ElemType F32Ptr{ScalarKind::Ptr, ScalarKind::F32, false};
  Value *Ptrs =
      B.create(OpKind::AddPtr, T.withElem(F32Ptr),
               {B.broadcastTo(K.F.body().argument(0), T.Shape), Doubled});
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(runsOf(AI, Doubled) == Runs{1, 1});
  CHECK(AI.get(Ptrs).Divisibility[0] == 4);
  CHECK(runsOf(AI, Shifted) == Runs{1024, 64});
}

TEST_CASE("a cast keeps runs only where their step and values survive it") {
  // Byte addresses cast to float pointers are a byte apart; float pointers
  // cast to half pointers step two halves; an int8 of a run through 127
  // goes on at -128. Same steps and wider integers keep everything.
  VectorAdd K(256);
  Builder B(K.F, K.F.body());
  const Type &T = K.Offs->type();
  ElemType F32Ptr{ScalarKind::Ptr, ScalarKind::F32, false};
  ElemType F16Ptr{ScalarKind::Ptr, ScalarKind::F16, false};
  ElemType I32Ptr{ScalarKind::Ptr, ScalarKind::I32, false};
  Value *Addresses = B.create(OpKind::Cast, T.withElem(F32Ptr), {K.Offs});
  Value *Halves = B.create(OpKind::Cast, T.withElem(F16Ptr), {K.Ptrs});
  Value *Ints = B.create(OpKind::Cast, T.withElem(I32Ptr), {K.Ptrs});
  Value *Bytes =
      B.create(OpKind::Cast, T.withElem(ElemType{ScalarKind::I8}), {K.Offs});
  Value *Wide =
      B.create(OpKind::Cast, T.withElem(ElemType{ScalarKind::I64}), {K.Offs});
  Value *Wrapped =
      B.create(OpKind::Cast, Type::scalar(ScalarKind::I8), {B.intConst(300)});
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(runsOf(AI, Addresses) == Runs{1, 1});
  CHECK(runsOf(AI, Halves) == Runs{1, 4});
  CHECK(runsOf(AI, Ints) == Runs{256, 16});
  CHECK(runsOf(AI, Bytes) == Runs{128, 128});
  CHECK(runsOf(AI, Wide) == Runs{256, 256});
  CHECK(!AI.get(Wrapped).ConstantValue);
}

namespace {

/// A loop carrying vector_add's pointer tile, adding Step (a tile of the
/// same shape) each iteration. Returns the carried block argument.
const Value *carryPointers(VectorAdd &K, Value *Step) {
  Builder B(K.F, K.F.body());
  auto Loop = std::make_unique<Op>(OpKind::For, SourceLoc{});
  for (Value *V : {B.intConst(0), B.intConst(8), B.intConst(1), K.Ptrs})
    Loop->addOperand(V);
  Op *For = K.F.body().append(std::move(Loop));
  Block *Body = For->addRegion();
  Body->addArgument(K.F.newValue(Type::scalar(ScalarKind::I32)));
  Value *Arg = Body->addArgument(K.F.newValue(K.Ptrs->type()));
  B.setBlock(*Body);
  Value *Next = B.create(OpKind::AddPtr, K.Ptrs->type(), {Arg, Step});
  B.createVoid(OpKind::Yield, {Next});
  For->addResult(K.F.newValue(K.Ptrs->type()));
  return Arg;
}

} // namespace

TEST_CASE("a pointer tile a loop advances by a constant keeps its facts") {
  VectorAdd K(1024);
  Builder B(K.F, K.F.body());
  const Value *Arg =
      carryPointers(K, B.broadcastTo(B.intConst(64), K.Ptrs->type().Shape));
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(AI.get(Arg).Contiguity[0] == 1024);
  CHECK(AI.get(Arg).Divisibility[0] == 16); // x's alignment; 64 floats more
}

TEST_CASE("a pointer tile a loop advances by a varying amount loses its "
          "contiguity") {
  VectorAdd K(1024);
  const Value *Arg = carryPointers(K, K.Offs);
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  CHECK(AI.get(Arg).Contiguity[0] == 1);
}

TEST_CASE("divisibility is the highest power of two dividing a constant") {
  CHECK(highestPowerOf2Divisor(48) == 16);
  CHECK(highestPowerOf2Divisor(7) == 1);
  CHECK(highestPowerOf2Divisor(0) == (int64_t(1) << 30));
}

TEST_CASE("the default blocked layout gives 16 bytes per thread") {
  BlockedLayout L = defaultBlocked({1024}, 4, 4, 32, {0});
  CHECK(L.SizePerThread[0] == 4);
  CHECK(L.ThreadsPerWarp[0] == 32);
  CHECK(L.WarpsPerCTA[0] == 4);
  Layout Full{L, std::nullopt};
  CHECK(Full.elemsPerThread({1024}) == 8);
  CHECK(Full.contiguousRun({1024}) == 4);
}

TEST_CASE("2-D layouts put the contiguous dimension fastest") {
  BlockedLayout L = defaultBlocked({32, 32}, 4, 4, 32, {1, 0});
  CHECK(L.SizePerThread[1] == 4);
  CHECK(L.ThreadsPerWarp[1] == 8);
  CHECK(L.ThreadsPerWarp[0] == 4);
  CHECK(L.WarpsPerCTA[0] == 4);
  Layout Full{L, std::nullopt};
  CHECK(Full.elemsPerThread({32, 32}) == 8);
  // Slicing away dim 1 leaves each thread the rows it covers.
  Layout Rows{L, 1u};
  CHECK(Rows.elemsPerThread({32}) == 2);
  CHECK(Rows.fastestDim() == 0);
  CHECK(Rows.contiguousRun({32}) == 1);
  CHECK(Full.str() ==
        "#blocked<spt=[1, 4], tpw=[4, 8], wpc=[4, 1], order=[1, 0]>");
}

TEST_CASE("wave64 layouts spread 64 lanes") {
  BlockedLayout L = defaultBlocked({1024}, 4, 4, 64, {0});
  CHECK(L.ThreadsPerWarp[0] == 64);
  CHECK(L.WarpsPerCTA[0] == 4);
}

TEST_CASE("small tiles replicate across the spare threads") {
  BlockedLayout L = defaultBlocked({16}, 4, 4, 32, {0});
  CHECK(L.SizePerThread[0] == 4);
  CHECK(L.ThreadsPerWarp[0] == 32); // 4 lanes hold data, the rest copies
  Layout Full{L, std::nullopt};
  CHECK(Full.elemsPerThread({16}) == 4);
}

TEST_CASE("layout assignment anchors memory ops and slices expanded vectors") {
  VectorAdd K(1024);
  AxisInfoAnalysis AI(K.F, {ParamSpec::Aligned16, ParamSpec::Aligned16});
  LayoutMap LM = assignLayouts(K.F, AI, 4, tilecc::TargetDesc());
  CHECK(LM.get(K.Offs) == LM.get(K.Ptrs));
  CHECK(LM.get(K.Ptrs).Parent.SizePerThread[0] == 4);
}

TEST_CASE("row vectors of accumulators with different column counts share "
          "a layout") {
  // Attention's row statistics: the slice along columns of S (128 x 64)
  // and of the output (128 x 128) give every thread the same rows.
  auto S = mmaAccumulator({128, 64}, 8, 8);
  auto O = mmaAccumulator({128, 128}, 8, 8);
  REQUIRE(S);
  REQUIRE(O);
  CHECK(S->WarpReps[1] != O->WarpReps[1]);
  CHECK(Layout{*S, 1u} == Layout{*O, 1u});
  CHECK(Layout{*S, std::nullopt} != Layout{*O, std::nullopt});
  // With warps along N too, threads hold other rows: not equal.
  auto Split = mmaAccumulator({128, 64}, 8, 1);
  REQUIRE(Split);
  CHECK(Layout{*S, 1u} != Layout{*Split, 1u});
}

TEST_CASE("an mma accumulator's registers are A fragments when warps stack "
          "along M") {
  // sm_90a: eight warps along M for 128 x 64.
  auto Acc = mmaAccumulator({128, 64}, 8, 4);
  REQUIRE(Acc);
  CHECK(Acc->WarpsPerCTA[1] == 1);
  auto A = mmaOperandA(*Acc, 128);
  REQUIRE(A);
  CHECK(A->WarpReps[0] == Acc->WarpReps[0]);
  CHECK(A->WarpReps[1] == 16); // 128 columns of 8-column chunks
  Layout AccL{*Acc, std::nullopt};
  CHECK(holdsOperandA(AccL, AccL, 64, 2)); // 128 x 64 feeds a K = 64 dot
  CHECK(holdsOperandA(Layout{*A, std::nullopt}, AccL, 128, 2));
  CHECK_FALSE(holdsOperandA(AccL, AccL, 128, 2));
  CHECK_FALSE(holdsOperandA(Layout{*Acc, 1u}, AccL, 64, 2));
  // 8-bit fragments come from it by an exchange among threads; 32-bit
  // ones (k and k + 4) are staged instead.
  CHECK(holdsOperandA(AccL, AccL, 64, 1));
  CHECK_FALSE(holdsOperandA(AccL, AccL, 128, 1));
  CHECK_FALSE(holdsOperandA(AccL, AccL, 64, 4));
  // sm_80's split puts warps along N too: no warp holds whole rows.
  auto Split = mmaAccumulator({128, 64}, 8, 1);
  REQUIRE(Split);
  CHECK(Split->WarpsPerCTA[1] == 2);
  CHECK_FALSE(mmaOperandA(*Split, 64));
  // A dot's a that is computed asks for all warps along M, on sm_80 too.
  CHECK(mmaAccumulator({128, 64}, 8, 8)->WarpsPerCTA[0] == 8);
  CHECK_FALSE(mmaAccumulator({64, 64}, 8, 8)); // 16 rows a warp
}

TEST_CASE("a transposed accumulator layout swaps every dimension") {
  auto Acc = mmaAccumulator({128, 256}, 8, 4);
  REQUIRE(Acc);
  const BlockedLayout T = transposed(*Acc);
  CHECK(T.SizePerThread == llvm::SmallVector<unsigned, 2>{2, 1});
  CHECK(T.ThreadsPerWarp == llvm::SmallVector<unsigned, 2>{4, 8});
  CHECK(T.WarpsPerCTA == llvm::SmallVector<unsigned, 2>{1, 8});
  CHECK(T.Order == llvm::SmallVector<unsigned, 2>{0, 1});
  CHECK(T.WarpReps == llvm::SmallVector<unsigned, 2>{32, 2});
  CHECK(transposed(T) == *Acc);
  CHECK(Layout{T, std::nullopt}.isTransposedMmaAccumulator());
  CHECK_FALSE(Layout{*Acc, std::nullopt}.isTransposedMmaAccumulator());
  CHECK_FALSE(Layout{T, 1u}.isTransposedMmaAccumulator());
}

TEST_CASE("a thread's registers at entry are the SM's share, a multiple of "
          "8") {
  CHECK(registersAtEntry(384, 1) == 168); // 8 + 4 warps: FA3's programs
  CHECK(registersAtEntry(384, 2) == 80);  // 85 a thread, rounded down
  CHECK(registersAtEntry(256, 3) == 80);
  CHECK(registersAtEntry(256, 2) == 128);
  CHECK(registersAtEntry(1024, 1) == 64);
  CHECK(registersAtEntry(128, 1) == 248); // at most 255 a thread
}

namespace {

/// A function with a 16 x 16 half tile `Outer` defined first, its body
/// built through B.
struct LoopNest {
  Function F;
  Builder B{F, F.body()};
  Type Half = Type::tensor(ElemType{ScalarKind::F16}, {16, 16});
  Type Float = Type::tensor(ElemType{ScalarKind::F32}, {16, 16});
  Value *Outer = B.create(OpKind::Arange, Half, {});

  /// A for loop (no carried values) at B's block; B moves into its body.
  void loop() {
    auto L = std::make_unique<Op>(OpKind::For, SourceLoc{});
    for (int64_t V : {0, 8, 1})
      L->addOperand(B.intConst(V));
    Op *For = B.block()->append(std::move(L));
    Block *Body = For->addRegion();
    Body->addArgument(F.newValue(Type::scalar(ScalarKind::I32)));
    B.setBlock(*Body);
  }
  /// An if with empty branches at B's block.
  void branch() {
    auto I = std::make_unique<Op>(OpKind::If, SourceLoc{});
    I->addOperand(B.boolConst(true));
    Op *If = B.block()->append(std::move(I));
    for (int R = 0; R < 2; ++R)
      If->addRegion()->append(std::make_unique<Op>(OpKind::Yield, SourceLoc{}));
  }
  /// where(Cond, Outer, Outer) at B's block.
  void pick(Value *Cond) {
    B.create(OpKind::Select, Half, {Cond, Outer, Outer});
  }
  /// dot(A, A, zeros) at B's block.
  const Op &dot(Value *A) {
    Value *Zeros = B.create(OpKind::Arange, Float, {});
    return *B.create(OpKind::Dot, Float, {A, A, Zeros})->definingOp();
  }
};

} // namespace

TEST_CASE("a loop chooses uniformly with an if or a where on a splat") {
  Type Mask = Type::tensor(ElemType{ScalarKind::I1}, {16, 16});
  SUBCASE("nothing") {
    LoopNest N;
    N.loop();
    CHECK_FALSE(choosesUniformly(*N.B.block()));
  }
  SUBCASE("an if") {
    LoopNest N;
    N.loop();
    N.branch();
    CHECK(choosesUniformly(*N.B.block()));
  }
  SUBCASE("a where on a comparison of splats") {
    LoopNest N;
    N.loop();
    Value *One = N.B.create(OpKind::Splat, Mask, {N.B.boolConst(true)});
    N.pick(N.B.create(OpKind::CmpEQ, Mask, {One, One}));
    CHECK(choosesUniformly(*N.B.block()));
  }
  SUBCASE("a where on a mask") {
    LoopNest N;
    N.loop();
    N.pick(N.B.create(OpKind::Arange, Mask, {}));
    CHECK_FALSE(choosesUniformly(*N.B.block()));
  }
}

TEST_CASE("a dot's a is at risk when defined outside a loop around the dot "
          "that chooses uniformly") {
  SUBCASE("one loop") {
    LoopNest N;
    N.loop();
    CHECK_FALSE(invariantInChoosingLoop(N.dot(N.Outer)));
    N.branch();
    CHECK(invariantInChoosingLoop(N.dot(N.Outer)));
    CHECK_FALSE(
        invariantInChoosingLoop(N.dot(N.B.create(OpKind::Arange, N.Half, {}))));
  }
  SUBCASE("nested loops, the outer one choosing") {
    LoopNest N;
    N.loop();
    N.branch();
    Value *Middle = N.B.create(OpKind::Arange, N.Half, {});
    N.loop();
    CHECK(invariantInChoosingLoop(N.dot(N.Outer)));
    CHECK_FALSE(invariantInChoosingLoop(N.dot(Middle)));
  }
}
