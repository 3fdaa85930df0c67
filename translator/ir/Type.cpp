//===- Type.cpp - TileIR types --------------------------------------------===//
#include "ir/Type.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace tilecc::ir {

bool isInteger(ScalarKind K) { return K <= ScalarKind::U64; }

bool isSigned(ScalarKind K) {
  return K >= ScalarKind::I8 && K <= ScalarKind::I64;
}

bool isFloat(ScalarKind K) {
  return K >= ScalarKind::F8E4M3 && K <= ScalarKind::F64;
}

unsigned bitWidth(ScalarKind K) {
  switch (K) {
  case ScalarKind::I1:
    return 1;
  case ScalarKind::I8:
  case ScalarKind::U8:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return 8;
  case ScalarKind::I16:
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 16;
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::F32:
    return 32;
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F64:
  case ScalarKind::Ptr:
    return 64;
  }
  llvm_unreachable("unknown scalar kind");
}

unsigned storageBytes(ScalarKind K) {
  return K == ScalarKind::I1 ? 1 : bitWidth(K) / 8;
}

llvm::StringRef spell(ScalarKind K) {
  static const char *const Names[] = {
      "i1",  "i8",     "i16",    "i32", "i64",  "u8",  "u16", "u32",
      "u64", "f8e4m3", "f8e5m2", "f16", "bf16", "f32", "f64", "ptr"};
  return Names[static_cast<unsigned>(K)];
}

std::string ElemType::str() const {
  if (!isPointer())
    return spell(Kind).str();
  return ("ptr<" + llvm::Twine(PointeeConst ? "const " : "") + spell(Pointee) +
          ">")
      .str();
}

int64_t Type::numel() const {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

std::string Type::str() const {
  if (isScalar())
    return Elem.str();
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "tensor<" << Elem.str() << ", [";
  for (unsigned I = 0; I < Shape.size(); ++I)
    OS << (I ? ", " : "") << Shape[I];
  OS << "]>";
  return S;
}

} // namespace tilecc::ir
