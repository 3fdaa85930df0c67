// TileIR construction, printing and verification.
#include "ir/Builder.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <doctest/doctest.h>

using namespace tilecc::ir;

namespace {

/// offs = pid * 128 + arange<128>() in a fresh function.
Value *buildOffsets(Function &F, Builder &B) {
  Value *Pid = B.create(OpKind::ProgramId, Type::scalar(ScalarKind::I32), {});
  Value *Base = B.create(OpKind::Mul, Pid->type(), {Pid, B.intConst(128)});
  Type T = Type::tensor(ElemType{ScalarKind::I32}, {128});
  Value *Range = B.create(OpKind::Arange, T, {});
  Value *Offs = B.create(OpKind::Add, T, {B.broadcastTo(Base, T.Shape), Range});
  Offs->setName("offs");
  return Offs;
}

std::string printed(const Function &F) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  print(F, OS);
  return S;
}

} // namespace

TEST_CASE("ops are looked up by their spelling") {
  CHECK(opKindFromSpelling("load") == OpKind::Load);
  CHECK(opKindFromSpelling("logical_and") == OpKind::LogicalAnd);
  CHECK_FALSE(opKindFromSpelling("no_such_op").has_value());
  CHECK(spell(OpKind::AddPtr) == "addptr");
  CHECK(categoryOf(OpKind::Exp) == OpCategory::Unary);
  CHECK(isComparison(OpKind::CmpLE));
}

TEST_CASE("the builder splats scalars and prints SSA with names") {
  Function F;
  F.Name = "k";
  Builder B(F, F.body());
  buildOffsets(F, B);
  std::string S = printed(F);
  CHECK(S.find("program_id {axis = 0} : i32") != std::string::npos);
  CHECK(S.find("splat") != std::string::npos);
  CHECK(S.find(".offs = add") != std::string::npos);
  CHECK(verify(F).empty());
}

TEST_CASE("broadcastTo expands rank then broadcasts") {
  Function F;
  Builder B(F, F.body());
  Type Row = Type::tensor(ElemType{ScalarKind::F32}, {64});
  Value *V =
      B.create(OpKind::Arange, Row.withElem(ElemType{ScalarKind::I32}), {});
  Value *R = B.broadcastTo(V, {32, 64});
  CHECK(R->type().Shape == llvm::SmallVector<int64_t, 2>{32, 64});
  CHECK(R->definingOp()->kind() == OpKind::Broadcast);
  CHECK(R->definingOp()->operand(0)->definingOp()->kind() ==
        OpKind::ExpandDims);
}

TEST_CASE("constants are converted when cast") {
  Function F;
  Builder B(F, F.body());
  Value *C = B.cast(B.intConst(3), ElemType{ScalarKind::F32});
  REQUIRE(C->definingOp()->kind() == OpKind::Const);
  CHECK(C->definingOp()->floatValue() == 3.0);
  Value *Bool =
      B.cast(B.floatConst(0.5, ScalarKind::F32), ElemType{ScalarKind::I1});
  CHECK(Bool->definingOp()->intValue() == 1);
}

TEST_CASE("the verifier rejects mismatched elementwise shapes") {
  Function F;
  Builder B(F, F.body());
  Value *A = B.create(OpKind::Arange,
                      Type::tensor(ElemType{ScalarKind::I32}, {64}), {});
  Value *C = B.create(OpKind::Arange,
                      Type::tensor(ElemType{ScalarKind::I32}, {32}), {});
  B.create(OpKind::Add, A->type(), {A, C});
  auto Errors = verify(F);
  REQUIRE(Errors.size() == 1);
  CHECK(Errors[0].Message.find("shape") != std::string::npos);
}

TEST_CASE("the verifier rejects stores through pointers to const") {
  Function F;
  Builder B(F, F.body());
  ElemType ConstPtr{ScalarKind::Ptr, ScalarKind::F32, true};
  Value *P = F.body().addArgument(F.newValue(Type::scalar(ConstPtr)));
  B.createVoid(OpKind::Store, {P, B.floatConst(1, ScalarKind::F32)});
  auto Errors = verify(F);
  REQUIRE(Errors.size() == 1);
  CHECK(Errors[0].Message.find("const") != std::string::npos);
}

TEST_CASE("the verifier checks operand and region counts against Ops.def") {
  Function F;
  Builder B(F, F.body());
  Value *X = B.intConst(1);
  B.create(OpKind::Add, X->type(), {X});    // binary, one operand
  B.create(OpKind::Neg, X->type(), {X, X}); // unary, two operands
  auto If = std::make_unique<Op>(OpKind::If, SourceLoc{});
  If->addOperand(B.boolConst(true));
  If->addRegion(); // an if has a then and an else region
  F.body().append(std::move(If));
  auto Errors = verify(F);
  REQUIRE(Errors.size() == 3);
  CHECK(Errors[0].Message == "add: takes 2 operands, not 1");
  CHECK(Errors[1].Message == "neg: takes 1 operand, not 2");
  CHECK(Errors[2].Message == "if: has 1 region, not 2");
  CHECK(opInfo(OpKind::For).MaxOperands == UINT_MAX);
  CHECK(opInfo(OpKind::Load).Effect == OpEffect::Reads);
  CHECK(isStructuredControl(OpKind::While));
  CHECK_FALSE(isStructuredControl(OpKind::Reduce));
}

TEST_CASE("printed IR parses back to the same text") {
  Function F;
  F.Name = "offsets";
  Builder B(F, F.body());
  Value *Offs = buildOffsets(F, B);
  Value *Half = B.floatConst(0.5, ScalarKind::F16);
  Value *Mask = B.create(OpKind::CmpLT, Offs->type().withElem({ScalarKind::I1}),
                         {Offs, B.broadcastTo(B.intConst(100), {128})});
  B.create(OpKind::Select, Offs->type().withElem({ScalarKind::F16}),
           {Mask, B.broadcastTo(Half, {128}), B.broadcastTo(Half, {128})});
  const std::string Text = printed(F);
  ParseError Error;
  std::unique_ptr<Function> Parsed = parseFunction(Text, Error);
  REQUIRE_MESSAGE(Parsed, Error.Message);
  CHECK(printed(*Parsed) == Text);
  CHECK(verify(*Parsed).empty());
  CHECK(parseType("tensor<ptr<const bf16>, [16, 8]>")->str() ==
        "tensor<ptr<const bf16>, [16, 8]>");
  CHECK_FALSE(parseType("tensor<f32, [0]>"));
  CHECK_FALSE(
      parseFunction("func @f() {\n  %1 = add %0, %0 : i32\n}\n", Error));
  CHECK(Error.Line == 2);
}

TEST_CASE("inline assembly keeps its registers and pack through the text") {
  Function F;
  F.Name = "packed";
  Builder B(F, F.body());
  Type Bytes = Type::tensor(ElemType{ScalarKind::U8}, {128});
  Value *X = B.create(OpKind::Arange, Bytes.withElem({ScalarKind::I32}), {});
  Value *V = B.create(OpKind::Cast, Bytes, {X});
  Op &Asm = *B.create(OpKind::InlineAsm, Bytes, {V})->definingOp();
  Asm.setMessage("shl.b32 %0, %1, 3;");
  CHECK(Asm.asmPack() == 1);
  Asm.setAsmPack(4);
  Asm.setAsmRegister(0, 'r');
  Asm.setAsmRegister(1, 'r');
  // The last register slot lies just below the pack.
  Asm.setAsmRegister(Op::AsmMaxOperands - 1, 'd');
  CHECK(Asm.asmPack() == 4);
  Asm.setAsmRegister(Op::AsmMaxOperands - 1, 'r');
  CHECK(Asm.asmRegister(Op::AsmMaxOperands - 1) == 'r');
  CHECK(Asm.asmPack() == 4);
  const std::string Text = printed(F);
  CHECK(Text.find("registers = [r, r], pack = 4") != std::string::npos);
  ParseError Error;
  std::unique_ptr<Function> Parsed = parseFunction(Text, Error);
  REQUIRE_MESSAGE(Parsed, Error.Message);
  CHECK(printed(*Parsed) == Text);
  std::string Three = Text;
  Three.replace(Three.find("pack = 4"), 8, "pack = 3");
  CHECK_FALSE(parseFunction(Three, Error));
  CHECK(Error.Message == "pack is a power of two from 1 to 16");
}

TEST_CASE("a for loop's num_stages and unroll hints are kept apart") {
  Op Loop(OpKind::For, SourceLoc{});
  CHECK(Loop.numStagesHint() == 0);
  CHECK(Loop.unrollHint() == 0);
  Loop.setUnrollHint(1024);
  Loop.setNumStagesHint(8);
  CHECK(Loop.unrollHint() == 1024);
  CHECK(Loop.numStagesHint() == 8);
  Loop.setNumStagesHint(1);
  Loop.setUnrollHint(2);
  CHECK(Loop.numStagesHint() == 1);
  CHECK(Loop.unrollHint() == 2);
  Op Copy(OpKind::For, SourceLoc{});
  Copy.copyAttributes(Loop);
  CHECK(Copy.numStagesHint() == 1);
  CHECK(Copy.unrollHint() == 2);
}
