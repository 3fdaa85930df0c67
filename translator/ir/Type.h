//===- Type.h - TileIR element and tensor types -----------------*- C++ -*-===//
//
// A TileIR type is an element type plus a compile-time shape. An empty shape
// is a scalar. Pointer elements remember their pointee and constness so that
// stores through pointers to const are caught and address arithmetic scales
// by the pointee size.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_IR_TYPE_H
#define TILECC_IR_TYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace tilecc::ir {

enum class ScalarKind : uint8_t {
#define TILE_SCALAR_KIND(Kind, Spelling, Device, Bits, Class, TileName) Kind,
#include "ir/ScalarKinds.def"
};

bool isInteger(ScalarKind K); // includes I1
bool isSigned(ScalarKind K);
bool isFloat(ScalarKind K);
unsigned bitWidth(ScalarKind K); // Ptr is 64
/// Bytes one element occupies in memory (bool is stored as a byte).
unsigned storageBytes(ScalarKind K);
/// TileIR spelling: i32, f16, bf16, ptr, ...
llvm::StringRef spell(ScalarKind K);
/// The type generated code declares for an element of kind K (a pointer's
/// is its pointee's followed by `*`).
llvm::StringRef deviceSpelling(ScalarKind K);
/// The tile:: type a kernel names for K (half, bfloat16, float8_e4m3,
/// float8_e5m2), or "" for the kinds C++ has built in.
llvm::StringRef tileTypeName(ScalarKind K);
/// Every kind, in the table's order.
llvm::ArrayRef<ScalarKind> scalarKinds();
/// The integer kind of Bits bits and the given signedness.
ScalarKind integerOfWidth(unsigned Bits, bool Signed);

struct ElemType {
  ScalarKind Kind = ScalarKind::I32;
  /// Only for Ptr: what it points to and whether that is const.
  ScalarKind Pointee = ScalarKind::I8;
  bool PointeeConst = false;

  bool isPointer() const { return Kind == ScalarKind::Ptr; }
  unsigned pointeeBytes() const { return storageBytes(Pointee); }
  bool operator==(const ElemType &O) const {
    return Kind == O.Kind &&
           (Kind != ScalarKind::Ptr ||
            (Pointee == O.Pointee && PointeeConst == O.PointeeConst));
  }
  bool operator!=(const ElemType &O) const { return !(*this == O); }
  std::string str() const;
};

struct Type {
  ElemType Elem;
  llvm::SmallVector<int64_t, 2> Shape;

  static Type scalar(ElemType E) { return Type{E, {}}; }
  static Type scalar(ScalarKind K) { return Type{ElemType{K}, {}}; }
  static Type tensor(ElemType E, llvm::ArrayRef<int64_t> Shape) {
    return Type{E, llvm::SmallVector<int64_t, 2>(Shape.begin(), Shape.end())};
  }

  bool isScalar() const { return Shape.empty(); }
  unsigned rank() const { return Shape.size(); }
  int64_t numel() const;
  Type withElem(ElemType E) const { return Type{E, Shape}; }
  Type withShape(llvm::ArrayRef<int64_t> S) const {
    return Type::tensor(Elem, S);
  }
  bool operator==(const Type &O) const {
    return Elem == O.Elem && Shape == O.Shape;
  }
  bool operator!=(const Type &O) const { return !(*this == O); }
  /// tensor<f32, [32, 64]> or f32.
  std::string str() const;
};

} // namespace tilecc::ir

#endif
