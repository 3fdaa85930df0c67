//===- EmitExpressions.cpp - Element expressions
//---------------------------===//
//
// What one element of a tile is, as a C++ expression: literals, the
// elementwise ops computed where they are used (unless materialized).
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

namespace {

/// Integers C++ promotes to int before arithmetic.
bool isNarrowInt(ScalarKind K) {
  return isInteger(K) && K != ScalarKind::I1 && bitWidth(K) < 32;
}

} // namespace

std::string KernelEmitter::literal(const Op &O) {
  const ElemType &E = O.result()->type().Elem;
  std::string S;
  llvm::raw_string_ostream OS(S);
  switch (E.Kind) {
  case ScalarKind::I1:
    return O.intValue() ? "true" : "false";
  case ScalarKind::I32:
    return std::to_string(O.intValue());
  case ScalarKind::Ptr: // typed, as the C++ was: a ?: takes its type
    return "static_cast<" + deviceType(E) + ">(nullptr)";
  case ScalarKind::F32:
  case ScalarKind::F64:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
  case ScalarKind::F16:
  case ScalarKind::BF16: {
    double D = O.floatValue();
    std::string Num;
    if (std::isinf(D) || std::isnan(D)) {
      // CUDA's INFINITY and NAN are floats.
      Num = std::isnan(D) ? "NAN" : D < 0 ? "-INFINITY" : "INFINITY";
      return E.Kind == ScalarKind::F32 ? Num : deviceType(E) + "(" + Num + ")";
    }
    // The shortest digit counts that round-trip each type.
    OS << llvm::format(E.Kind == ScalarKind::F64 ? "%.17g" : "%.9g", D);
    Num = S;
    if (Num.find_first_of(".e") == std::string::npos)
      Num += ".0";
    if (E.Kind == ScalarKind::F64)
      return Num;
    if (E.Kind == ScalarKind::F32)
      return Num + "f";
    return deviceType(E) + "(" + Num + "f)";
  }
  default:
    return deviceType(E) + "(" + std::to_string(O.intValue()) + ")";
  }
}

std::string KernelEmitter::scalar(const Value *V) {
  const Op *D = V->definingOp();
  if (D && D->kind() == OpKind::Const)
    return literal(*D);
  return nameOf(V);
}

std::string KernelEmitter::elem(const Value *V, const std::string &Idx) {
  if (V->type().isScalar())
    return scalar(V);
  if (materialized(V))
    return nameOf(V) + "[" + Idx + "]";
  return compute(*V->definingOp(), Idx);
}

std::string KernelEmitter::operandExpr(const Op &O, unsigned I,
                                       const std::string &Idx) {
  return elem(O.operand(I), Idx);
}

std::string KernelEmitter::compute(const Op &O, const std::string &Idx) {
  auto A = [&](unsigned I) { return operandExpr(O, I, Idx); };
  const Type &RT = O.result()->type();
  switch (O.kind()) {
  case OpKind::Const:
    return literal(O);
  case OpKind::ProgramId:
    return std::string("static_cast<int>(blockIdx.") + "xyz"[O.axis()] + ")";
  case OpKind::NumPrograms:
    return std::string("static_cast<int>(gridDim.") + "xyz"[O.axis()] + ")";
  case OpKind::Arange: {
    std::string C = layoutOf(O.result()) + "::coord(" + Idx + ", 0)";
    return O.arangeStart()
               ? "(" + C + " + " + std::to_string(O.arangeStart()) + ")"
               : C;
  }
  case OpKind::Splat:
    return scalar(O.operand(0));
  case OpKind::Broadcast:
  case OpKind::ExpandDims: {
    // A chain of expand_dims and broadcast is one index mapping from the
    // tile at its start.
    const Value *Src = O.operand(0);
    while (!Src->type().isScalar() && !materialized(Src) &&
           (Src->definingOp()->kind() == OpKind::Broadcast ||
            Src->definingOp()->kind() == OpKind::ExpandDims))
      Src = Src->definingOp()->operand(0);
    if (Src->type().isScalar())
      return scalar(Src);
    return elem(Src, "rt::broadcast_index<" + layoutOf(Src) + ", " +
                         layoutOf(O.result()) + ">(" + Idx + ")");
  }
  case OpKind::InlineAsm: {
    llvm::SmallVector<std::string, 4> Args;
    for (unsigned I = 0; I < O.numOperands(); ++I)
      Args.push_back(A(I));
    return inlineAsm(O, Args);
  }
  case OpKind::Cast:
    return std::string(O.roundsTowardZero() ? "rt::convert_toward_zero<"
                                            : "rt::convert<") +
           deviceType(RT.Elem) + ">(" + A(0) + ")";
  case OpKind::MultipleOf:
  case OpKind::MaxContiguous:
    return A(0);
  case OpKind::Bitcast:
    return "rt::bitcast<" + deviceType(RT.Elem) + ">(" + A(0) + ")";
  case OpKind::Exp2Cubic:
    // Which elements take the polynomial is fixed once the loop over a
    // thread's elements is unrolled.
    return "rt::exp2_cubic<" + std::to_string(O.cubicEighths()) + ">(" + Idx +
           ", " + A(0) + ")";
  case OpKind::Philox:
    return "rt::philox<" + std::to_string(O.philoxWord()) + ", " +
           std::to_string(O.philoxRounds()) + ">(" + A(0) + ", " + A(1) + ")";
  default:
    break;
  }
  std::string E = arithmetic(O, A);
  // Infix forms come parenthesized; calls need their own.
  if (isNarrowInt(RT.Elem.Kind) && !isComparison(O.kind()))
    return "static_cast<" + deviceType(RT.Elem) + ">" +
           (E.front() == '(' ? E : "(" + E + ")");
  return E;
}

template <class ArgFn>
std::string KernelEmitter::arithmetic(const Op &O, ArgFn A) {
  auto Infix = [&](const char *Op) {
    return "(" + A(0) + " " + Op + " " + A(1) + ")";
  };
  auto Call = [&](const std::string &Fn) {
    std::string S = Fn + "(";
    for (unsigned I = 0; I < O.numOperands(); ++I)
      S += (I ? ", " : "") + A(I);
    return S + ")";
  };
  if (auto By = EP.Divisors.By.find(&O); By != EP.Divisors.By.end())
    if (auto N = DivisorNames.find(By->second); N != DivisorNames.end())
      return N->second +
             (O.kind() == OpKind::Rem ? ".remainder(" : ".quotient(") + A(0) +
             ")";
  switch (O.kind()) {
  case OpKind::Add:
  case OpKind::AddPtr:
    return Infix("+");
  case OpKind::Sub:
    return Infix("-");
  case OpKind::Mul:
    // uint16 operands promote to int, where 65535 * 65535 would overflow.
    if (O.result()->type().Elem.Kind == ScalarKind::U16)
      return "(unsigned(" + A(0) + ") * " + A(1) + ")";
    return Infix("*");
  case OpKind::Div:
    // fp32 `/` is Triton's div.full, not IEEE division (docs/language.md).
    if (O.result()->type().Elem.Kind == ScalarKind::F32)
      return Call("rt::div");
    return Infix("/");
  case OpKind::FloorDiv: // integers only: C truncation, like Triton's //
    return Infix("/");
  case OpKind::And:
    return Infix("&");
  case OpKind::Or:
    return Infix("|");
  case OpKind::Xor:
    return Infix("^");
  case OpKind::Shl:
    return Infix("<<");
  case OpKind::Shr:
    return Infix(">>");
  case OpKind::CmpEQ:
    return Infix("==");
  case OpKind::CmpNE:
    return Infix("!=");
  case OpKind::CmpLT:
    return Infix("<");
  case OpKind::CmpLE:
    return Infix("<=");
  case OpKind::CmpGT:
    return Infix(">");
  case OpKind::CmpGE:
    return Infix(">=");
  case OpKind::LogicalAnd:
    return Infix("&&");
  case OpKind::LogicalOr:
    return Infix("||");
  case OpKind::Neg:
    return "(-" + A(0) + ")";
  case OpKind::Not:
    return "(~" + A(0) + ")";
  case OpKind::LogicalNot:
    return "(!" + A(0) + ")";
  case OpKind::Select:
    return "(" + A(0) + " ? " + A(1) + " : " + A(2) + ")";
  default:
    // rem, cdiv, maximum, minimum, math functions, fma, clamp: one
    // tile::rt function each, named like the op.
    return Call("rt::" + spell(O.kind()).str());
  }
}

} // namespace tilecc::codegen
