//===- Type.cpp - TileIR types --------------------------------------------===//
#include "ir/Type.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace tilecc::ir {

namespace {

enum class KindClass { Bool, Signed, Unsigned, Float, Pointer };

struct KindInfo {
  const char *Spelling;
  const char *Device;
  unsigned Bits;
  KindClass Class;
  const char *TileName;
};

constexpr KindInfo Kinds[] = {
#define TILE_SCALAR_KIND(Kind, Spelling, Device, Bits, Class, TileName)        \
  {Spelling, Device, Bits, KindClass::Class, TileName},
#include "ir/ScalarKinds.def"
};

const KindInfo &info(ScalarKind K) { return Kinds[static_cast<unsigned>(K)]; }

} // namespace

bool isInteger(ScalarKind K) {
  KindClass C = info(K).Class;
  return C == KindClass::Bool || C == KindClass::Signed ||
         C == KindClass::Unsigned;
}

bool isSigned(ScalarKind K) { return info(K).Class == KindClass::Signed; }

bool isFloat(ScalarKind K) { return info(K).Class == KindClass::Float; }

unsigned bitWidth(ScalarKind K) { return info(K).Bits; }

unsigned storageBytes(ScalarKind K) {
  return K == ScalarKind::I1 ? 1 : bitWidth(K) / 8;
}

llvm::StringRef spell(ScalarKind K) { return info(K).Spelling; }

llvm::StringRef deviceSpelling(ScalarKind K) { return info(K).Device; }

llvm::StringRef tileTypeName(ScalarKind K) { return info(K).TileName; }

llvm::ArrayRef<ScalarKind> scalarKinds() {
  static constexpr ScalarKind All[] = {
#define TILE_SCALAR_KIND(Kind, Spelling, Device, Bits, Class, TileName)        \
  ScalarKind::Kind,
#include "ir/ScalarKinds.def"
  };
  return All;
}

ScalarKind integerOfWidth(unsigned Bits, bool Signed) {
  KindClass Wanted = Signed ? KindClass::Signed : KindClass::Unsigned;
  for (ScalarKind K : scalarKinds())
    if (info(K).Class == Wanted && info(K).Bits == Bits)
      return K;
  llvm_unreachable("no integer kind of that width");
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
