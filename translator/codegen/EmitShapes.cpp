//===- EmitShapes.cpp - shape ops, sort and gather ------------------------===//
//
// One tile::rt call per shape op: a relabeling of registers where layout
// assignment gave the operands the layout it relabels from
// (analysis/ShapeLayouts), else a pass through the scratch buffer, which
// gather always takes, and sort unless each line lies in one warp.
//
//===----------------------------------------------------------------------===//
#include "analysis/ShapeLayouts.h"
#include "codegen/KernelEmitter.h"

using namespace tilecc::ir;

namespace tilecc::codegen {

void KernelEmitter::emitRearrangement(const Op &O) {
  const Value *X = O.operand(0), *R = O.result();
  const std::string In = nameOf(X), Out = nameOf(R);
  // A tile of 2 split into scalars: every thread holds both elements
  // (layout assignment's pairs layout), in order.
  if (O.kind() == OpKind::Split && R->type().isScalar()) {
    for (unsigned I = 0; I < 2; ++I)
      line(constDecl(O.result(I)) + " = " + In + "[" + std::to_string(I) +
           "];");
    return;
  }
  for (const auto &Result : O.results())
    declareTile(Result.get());
  const Type &T = R->type();
  const unsigned Bytes = T.numel() * storageBytes(T.Elem.Kind);
  const bool Relabel = analysis::relabels(O, LM);
  switch (O.kind()) {
  case OpKind::Reshape:
  case OpKind::Permute:
    if (Relabel)
      return line("rt::relabel(" + In + ", " + Out + ");");
    assert(O.kind() == OpKind::Reshape && "a permute always relabels");
    return line("rt::reshape_through_smem<" + layoutOf(X) + ", " + layoutOf(R) +
                syncArg() + ">(" + In + ", " + Out + ", " + scratch(O, Bytes) +
                ");");
  case OpKind::Join:
    assert(Relabel && "a join's operands are converted to pairs' layout");
    return line("rt::join(" + In + ", " + nameOf(O.operand(1)) + ", " + Out +
                ");");
  case OpKind::Split:
    assert(Relabel && "a split's operand is converted to pairs' layout");
    return line("rt::split(" + In + ", " + Out + ", " + nameOf(O.result(1)) +
                ");");
  case OpKind::Cat: {
    const std::string Args =
        "(" + In + ", " + nameOf(O.operand(1)) + ", " + Out;
    if (Relabel)
      return line("rt::cat_in_registers" + Args + ");");
    return line("rt::cat_through_smem<" + layoutOf(X) + ", " + layoutOf(R) +
                syncArg() + ">" + Args + ", " + scratch(O, Bytes) + ");");
  }
  case OpKind::Sort: {
    const std::string Args = "<" + layoutOf(X) + ", " + layoutOf(R) + ", " +
                             std::to_string(O.sortAxis()) + ", " +
                             (O.sortDescending() ? "true" : "false");
    if (analysis::sortsInWarp(O, LM))
      return line("rt::sort_in_warp" + Args + ">(" + In + ", " + Out + ");");
    return line("rt::sort_through_smem" + Args + syncArg() + ">(" + In + ", " +
                Out + ", " +
                scratch(O, X->type().numel() * storageBytes(T.Elem.Kind)) +
                ");");
  }
  case OpKind::Gather:
    return line("rt::gather_through_smem<" + layoutOf(X) + ", " + layoutOf(R) +
                ", " + std::to_string(O.axis()) + syncArg() + ">(" + In + ", " +
                nameOf(O.operand(1)) + ", " + Out + ", " +
                scratch(O, X->type().numel() * storageBytes(T.Elem.Kind)) +
                ");");
  default: // Flip
    return line("rt::flip_through_smem<" + layoutOf(X) + ", " + layoutOf(R) +
                ", " + std::to_string(O.axis()) + syncArg() + ">(" + In + ", " +
                Out + ", " + scratch(O, Bytes) + ");");
  }
}

} // namespace tilecc::codegen
