//===- EmitDebug.cpp - device_print and device_assert ---------------------===//
//
// device_print is one printf per element a thread owns (each element once,
// whatever copies the layout makes), in Triton's format:
//   pid (x, y, z) idx (i, j) prefix: value
// device_assert stops the kernel as a failed assert() does, at the user's
// file and line (the #line directive before it), for each owned element
// whose condition is false.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"

using namespace tilecc::ir;

namespace tilecc::codegen {

/// S inside a C string literal: quotes, backslashes and control characters
/// escaped; for a printf format (Format), % doubled too.
static std::string cLiteral(llvm::StringRef S, bool Format) {
  std::string Out;
  for (char C : S) {
    if (C == '%' && Format)
      Out += "%%";
    else if (C == '"' || C == '\\')
      Out += std::string("\\") + C;
    else if (C == '\n')
      Out += "\\n";
    else if (static_cast<unsigned char>(C) < 0x20)
      Out += std::string("\\") + char('0' + (C >> 6)) +
             char('0' + ((C >> 3) & 7)) + char('0' + (C & 7));
    else
      Out += C;
  }
  return Out;
}

/// The printf conversion of an element of kind K, and the expression that
/// passes X to it.
static std::pair<std::string, std::string>
printfArgument(ScalarKind K, const std::string &X) {
  switch (K) {
  case ScalarKind::F32:
  case ScalarKind::F64:
    return {"%f", "double(" + X + ")"};
  case ScalarKind::I64:
    return {"%lld", "static_cast<long long>(" + X + ")"};
  case ScalarKind::U64:
    return {"%llu", "static_cast<unsigned long long>(" + X + ")"};
  case ScalarKind::Ptr:
    return {"%p", "static_cast<const void *>(" + X + ")"};
  default:
    if (isFloat(K))
      return {"%f", "double(rt::convert<float>(" + X + "))"};
    if (isSigned(K) || K == ScalarKind::I1)
      return {"%d", "int(" + X + ")"};
    return {"%u", "unsigned(" + X + ")"};
  }
}

/// The printf conversion and argument that print an element of kind K as
/// its bits in hexadecimal, two digits per byte (Triton's hex=True).
static std::pair<std::string, std::string>
printfHexArgument(ScalarKind K, const std::string &X) {
  const unsigned Bytes = storageBytes(K);
  if (Bytes == 8)
    return {"0x%016llx", "rt::bitcast<unsigned long long>(" + X + ")"};
  const std::string Bits = Bytes == 4   ? "unsigned"
                           : Bytes == 2 ? "unsigned short"
                                        : "unsigned char";
  return {"0x%0" + std::to_string(2 * Bytes) + "x",
          "unsigned(rt::bitcast<" + Bits + ">(" + X + "))"};
}

void KernelEmitter::emitPrint(const Op &O) {
  llvm::StringRef Prefix = llvm::StringRef(O.message()).rtrim(": ");
  const std::string Pid = "int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)";
  if (O.numOperands() == 0) {
    line("if (threadIdx.x == 0)");
    line("printf(\"pid (%d, %d, %d) " + cLiteral(Prefix, /*Format=*/true) +
             "\\n\", " + Pid + ");",
         1);
    return;
  }
  for (unsigned I = 0; I < O.numOperands(); ++I) {
    const Value *V = O.operand(I);
    const Type &T = V->type();
    std::string Index, Coords;
    for (unsigned D = 0; D < T.rank(); ++D) {
      const unsigned Width =
          std::to_string(std::max<int64_t>(T.Shape[D] - 1, 0)).size();
      Index += (D ? ", %" : "%") + std::to_string(Width) + "d";
      Coords += ", " + layoutOf(V) + "::coord(e, " + std::to_string(D) + ")";
    }
    const std::string X = elem(V, T.isScalar() ? "0" : "e");
    auto [Conversion, Arg] = O.printsHex() ? printfHexArgument(T.Elem.Kind, X)
                                           : printfArgument(T.Elem.Kind, X);
    const std::string Format =
        "pid (%d, %d, %d) idx (" + Index + ")" +
        (Prefix.empty() ? "" : " " + cLiteral(Prefix, /*Format=*/true)) +
        (O.numOperands() > 1 ? " (operand " + std::to_string(I) + ")" : "") +
        ": " + Conversion + "\\n";
    const std::string Call =
        "printf(\"" + Format + "\", " + Pid + Coords + ", " + Arg + ");";
    if (T.isScalar()) {
      line("if (threadIdx.x == 0)");
      line(Call, 1);
      continue;
    }
    line("#pragma unroll");
    line(loopHeader(elems(V)));
    line("if (" + layoutOf(V) + "::owns(e))", 1);
    line(Call, 2);
  }
}

void KernelEmitter::emitAssert(const Op &O) {
  const Value *C = O.operand(0);
  const std::string Fail = "rt::assert_fail(\"" +
                           cLiteral(O.message(), /*Format=*/false) +
                           "\", __FILE__, __LINE__, __func__);";
  if (C->type().isScalar()) {
    line("if (!" + elem(C, "0") + ")");
    line(Fail, 1);
    return;
  }
  line("#pragma unroll");
  line(loopHeader(elems(C)));
  line("if (" + layoutOf(C) + "::owns(e) && !" + elem(C, "e") + ")", 1);
  line(Fail, 2);
}

} // namespace tilecc::codegen
