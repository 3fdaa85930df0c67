//===- EmitInlineAsm.cpp - tile::inline_asm_elementwise -----------------===//
//
// The user's PTX in an asm statement: with a pack of 1, an expression per
// element (a lambda called in place); with a larger pack, a loop over the
// thread's elements that runs the text once per group of `pack`, narrow
// elements sharing registers (tile/rt/asm_registers.cuh).
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"

using namespace tilecc::ir;

namespace tilecc::codegen {

namespace {

/// The C++ type of an inline-assembly register, by constraint letter.
std::string registerType(char Letter) {
  switch (Letter) {
  case 'h':
    return "unsigned short";
  case 'r':
    return "unsigned";
  case 'l':
    return "unsigned long long";
  case 'f':
    return "float";
  default:
    return "double";
  }
}

/// The text as a C++ string literal's contents.
std::string escaped(const std::string &Text) {
  std::string S;
  for (char C : Text)
    S += C == '"'    ? "\\\""
         : C == '\\' ? "\\\\"
         : C == '\n' ? "\\n"
                     : std::string(1, C);
  return S;
}

} // namespace

std::string KernelEmitter::inlineAsm(const Op &O,
                                     llvm::ArrayRef<std::string> Args) {
  // Named apart from the kernel's values, which the arguments may read.
  const std::string Reg = fresh("r");
  std::string S = "[&] { " + registerType(O.asmRegister(0)) + " " + Reg +
                  "; asm(\"" + escaped(O.message()) +
                  "\" : \"=" + std::string(1, O.asmRegister(0)) + "\"(" + Reg +
                  ")";
  for (auto [I, Arg] : llvm::enumerate(Args))
    S += std::string(I ? ", " : " : ") + "\"" + O.asmRegister(I + 1) +
         "\"(rt::bitcast<" + registerType(O.asmRegister(I + 1)) + ">(" + Arg +
         "))";
  return S + "); return rt::bitcast<" + deviceType(O.result()->type().Elem) +
         ">(" + Reg + "); }()";
}

void KernelEmitter::emitPackedAsm(const Op &O) {
  const Value *R = O.result();
  const unsigned Pack = O.asmPack(), N = elems(R);
  const unsigned Full = N / Pack * Pack;
  const unsigned OutPerReg = Op::asmElementsPerRegister(R->type().Elem, Pack);
  const std::string OutReg = registerType(O.asmRegister(0));
  const std::string ResultType = deviceType(R->type().Elem);
  declareTile(R);
  // Named apart from the kernel's values, which the arguments may read.
  llvm::SmallVector<std::string, 4> OutRegs;
  for (unsigned Reg = 0; Reg < Pack / OutPerReg; ++Reg)
    OutRegs.push_back(fresh("r"));
  const std::string Spare = Full == N ? "" : fresh("spare");
  // One run of the text on the group of elements whose K-th is Index(K);
  // Real(K) is false for the padding past the thread's last element, whose
  // inputs repeat that element and whose results go to Spare.
  auto Group = [&](auto Index, auto Real) {
    std::string Outputs, Inputs;
    for (unsigned Reg = 0; Reg < Pack / OutPerReg; ++Reg)
      Outputs += std::string(Reg ? ", " : "") + "\"=" + O.asmRegister(0) +
                 "\"(" + OutRegs[Reg] + ")";
    for (unsigned I = 0; I < O.numOperands(); ++I) {
      const ElemType &E = O.operand(I)->type().Elem;
      const unsigned PerReg = Op::asmElementsPerRegister(E, Pack);
      for (unsigned Reg = 0; Reg < Pack / PerReg; ++Reg) {
        std::string Values;
        for (unsigned K = Reg * PerReg; K < (Reg + 1) * PerReg; ++K)
          Values += std::string(K > Reg * PerReg ? ", " : "") +
                    operandExpr(O, I, Index(Real(K) ? K : N - 1 - Full));
        Inputs += std::string(Inputs.empty() ? "" : ", ") + "\"" +
                  O.asmRegister(I + 1) + "\"(rt::pack_bits<" +
                  registerType(O.asmRegister(I + 1)) + ", " + deviceType(E) +
                  ">(" + Values + "))";
      }
    }
    std::string Registers;
    for (unsigned Reg = 0; Reg < Pack / OutPerReg; ++Reg)
      Registers += std::string(Reg ? ", " : " ") + OutRegs[Reg];
    line(OutReg + Registers + ";");
    line("asm(\"" + escaped(O.message()) + "\" : " + Outputs + " : " + Inputs +
         ");");
    for (unsigned Reg = 0; Reg < Pack / OutPerReg; ++Reg) {
      std::string Targets;
      for (unsigned K = Reg * OutPerReg; K < (Reg + 1) * OutPerReg; ++K)
        Targets += ", " + (Real(K) ? nameOf(R) + "[" + Index(K) + "]" : Spare);
      line("rt::unpack_bits(" + OutRegs[Reg] + Targets + ");");
    }
  };
  if (Full) {
    line("#pragma unroll");
    line(loopHeader(Full, Pack) + " {");
    {
      Nested Body(*this);
      Group(
          [](unsigned K) {
            return K ? "e + " + std::to_string(K) : std::string("e");
          },
          [](unsigned) { return true; });
    }
    line("}");
  }
  if (Full == N)
    return;
  // The last elements, fewer than the pack.
  line("{");
  {
    Nested Body(*this);
    line(ResultType + " " + Spare + ";");
    Group([&](unsigned K) { return std::to_string(Full + K); },
          [&](unsigned K) { return Full + K < N; });
  }
  line("}");
}

} // namespace tilecc::codegen
