//===- Verifier.cpp -------------------------------------------------------===//
#include "ir/Verifier.h"
#include "ir/Printer.h"
#include <climits>

namespace tilecc::ir {

namespace {

/// "1 region", "2 regions".
std::string counted(unsigned N, const std::string &Noun) {
  return std::to_string(N) + " " + Noun + (N == 1 ? "" : "s");
}

/// "2 operands", "1 to 3 operands", "3 or more operands".
std::string operandCounts(const OpInfo &Info) {
  if (Info.MaxOperands == Info.MinOperands)
    return counted(Info.MinOperands, "operand");
  return std::to_string(Info.MinOperands) +
         (Info.MaxOperands == UINT_MAX
              ? " or more"
              : " to " + std::to_string(Info.MaxOperands)) +
         " operands";
}

class Verifier {
public:
  std::vector<VerifierError> Errors;

  void check(const Op &O) {
    const OpInfo &Info = opInfo(O.kind());
    if (O.numOperands() < Info.MinOperands ||
        O.numOperands() > Info.MaxOperands)
      return fail(O, "takes " + operandCounts(Info) + ", not " +
                         std::to_string(O.numOperands()));
    if (O.regions().size() != Info.Regions)
      return fail(O, "has " + counted(O.regions().size(), "region") + ", not " +
                         std::to_string(Info.Regions));
    switch (Info.Category) {
    case OpCategory::Unary:
    case OpCategory::Binary:
    case OpCategory::Ternary:
    case OpCategory::Elementwise:
      checkElementwise(O);
      break;
    case OpCategory::Memory:
      checkMemory(O);
      break;
    case OpCategory::Reduce:
      checkReduce(O);
      break;
    case OpCategory::Scan:
      checkScan(O);
      break;
    case OpCategory::Matmul:
      checkDot(O);
      break;
    case OpCategory::Histogram:
      checkHistogram(O);
      break;
    case OpCategory::Shape:
      checkShape(O);
      break;
    case OpCategory::Control:
      checkControl(O);
      break;
    default:
      break;
    }
  }

private:
  void fail(const Op &O, const std::string &Msg) {
    Errors.push_back({O.loc(), spell(O.kind()).str() + ": " + Msg});
  }

  void checkElementwise(const Op &O) {
    if (O.numResults() != 1)
      return fail(O, "needs one result");
    for (Value *V : O.operands())
      if (V->type().Shape != O.result()->type().Shape)
        return fail(O, "operand " + valueRef(*V) + " has shape of " +
                           V->type().str() + ", result is " +
                           O.result()->type().str());
    if (O.kind() == OpKind::Cast && O.roundsTowardZero()) {
      const ScalarKind From = O.operand(0)->type().Elem.Kind,
                       To = O.result()->type().Elem.Kind;
      if (!isFloat(From) || !isFloat(To) || bitWidth(To) >= bitWidth(From) ||
          bitWidth(To) < 16)
        fail(O, "rounding toward zero applies to floating-point downcasts "
                "to float32, float16 or bfloat16");
    }
    if (O.kind() == OpKind::Exp2Cubic &&
        (O.result()->type().Elem.Kind != ScalarKind::F32 ||
         O.operand(0)->type().Elem.Kind != ScalarKind::F32 ||
         O.cubicEighths() > 8))
      fail(O, "takes and gives float32, with 0 to 8 eighths");
  }

  void checkReduce(const Op &O) {
    if (O.numOperands() != O.numResults() || !O.numOperands())
      return fail(O, "needs one result per operand");
    unsigned Axis = O.axis();
    for (unsigned I = 0; I < O.numOperands(); ++I) {
      const Type &In = O.operand(I)->type(), &Out = O.result(I)->type();
      if (In.isScalar() || Axis >= In.rank())
        return fail(O, "axis out of range for " + In.str());
      llvm::SmallVector<int64_t, 2> Want(In.Shape);
      Want.erase(Want.begin() + Axis);
      if (llvm::ArrayRef<int64_t>(Out.Shape) != llvm::ArrayRef<int64_t>(Want))
        return fail(O, "result shape does not drop the reduced axis");
    }
    checkCombine(O);
  }

  void checkScan(const Op &O) {
    if (O.numOperands() != O.numResults() || !O.numOperands())
      return fail(O, "needs one result per operand");
    for (unsigned I = 0; I < O.numOperands(); ++I) {
      const Type &In = O.operand(I)->type();
      if (In.isScalar() || O.scanAxis() >= In.rank())
        return fail(O, "axis out of range for " + In.str());
      if (In.Shape != O.result(I)->type().Shape)
        return fail(O, "result shape differs from the operand's");
    }
    checkCombine(O);
  }

  void checkDot(const Op &O) {
    const Type &A = O.operand(0)->type(), &B = O.operand(1)->type(),
               &C = O.operand(2)->type(), &R = O.result()->type();
    // 2-D, or 3-D: a batch of products along the first dimension.
    const unsigned Rank = A.rank();
    if ((Rank != 2 && Rank != 3) || B.rank() != Rank || R.rank() != Rank ||
        C.Shape != R.Shape || A.Shape[Rank - 1] != B.Shape[Rank - 2] ||
        R.Shape[Rank - 2] != A.Shape[Rank - 2] ||
        R.Shape[Rank - 1] != B.Shape[Rank - 1] ||
        (Rank == 3 && (B.Shape[0] != A.Shape[0] || R.Shape[0] != A.Shape[0])))
      fail(O, "shapes do not multiply: " + A.str() + " x " + B.str() + " -> " +
                  R.str());
  }

  void checkHistogram(const Op &O) {
    const Type &In = O.operand(0)->type(), &R = O.result()->type();
    if (In.rank() != 1 || !isInteger(In.Elem.Kind))
      return fail(O, "counts a 1-D integer tile, not " + In.str());
    if (R.rank() != 1 || R.Elem.Kind != ScalarKind::I32)
      return fail(O, "gives a 1-D int32 tile of counts, not " + R.str());
    if (O.numOperands() == 2 &&
        (O.operand(1)->type().Shape != In.Shape ||
         O.operand(1)->type().Elem.Kind != ScalarKind::I1))
      fail(O, "mask " + valueRef(*O.operand(1)) + " is not a bool tile of " +
                  In.str() + "'s shape");
  }

  /// The rearranging shape ops: their results' shapes and element types
  /// follow from their operands' (Ops.def).
  void checkShape(const Op &O) {
    const OpKind K = O.kind();
    if (K == OpKind::Sort || K == OpKind::Gather)
      return checkSortOrGather(O);
    if (K != OpKind::Reshape && K != OpKind::Permute && K != OpKind::Join &&
        K != OpKind::Split && K != OpKind::Cat && K != OpKind::Flip)
      return;
    const Type &In = O.operand(0)->type();
    if (In.isScalar())
      return fail(O, "takes a tile, not " + In.str());
    if (O.numResults() != (K == OpKind::Split ? 2u : 1u))
      return fail(O, K == OpKind::Split ? "needs two results"
                                        : "needs one result");
    for (Value *V : O.operands())
      if (V->type() != In)
        return fail(O, "operands " + In.str() + " and " + V->type().str() +
                           " differ");
    llvm::SmallVector<int64_t, 2> Want(In.Shape);
    switch (K) {
    case OpKind::Reshape:
      if (O.result()->type().numel() != In.numel())
        return fail(O, "cannot change the number of elements: " + In.str() +
                           " -> " + O.result()->type().str());
      Want = O.result()->type().Shape;
      break;
    case OpKind::Permute: {
      unsigned Seen = 0;
      for (unsigned D = 0; D < In.rank(); ++D) {
        const unsigned From = O.permutedDim(D);
        if (From >= In.rank() || Seen & 1u << From)
          return fail(O, "dims are not a permutation of the operand's");
        Seen |= 1u << From;
        Want[D] = In.Shape[From];
      }
      break;
    }
    case OpKind::Join:
      Want.push_back(2);
      break;
    case OpKind::Split:
      if (In.Shape.back() != 2)
        return fail(O, "splits a tile whose last dimension is 2 (a tile of "
                       "2 into scalars), not " +
                           In.str());
      Want.pop_back();
      break;
    case OpKind::Cat:
      Want[0] *= 2;
      break;
    default: // Flip
      if (O.axis() >= In.rank())
        return fail(O, "axis out of range for " + In.str());
      break;
    }
    for (const auto &R : O.results())
      if (R->type().Elem != In.Elem ||
          llvm::ArrayRef<int64_t>(R->type().Shape) !=
              llvm::ArrayRef<int64_t>(Want))
        return fail(O, "result " + R->type().str() + " does not follow from " +
                           In.str());
  }

  /// sort keeps its operand's shape but along its axis, where it keeps the
  /// first of each line; gather's result has its index's shape, and the
  /// index its source's but along the axis.
  void checkSortOrGather(const Op &O) {
    const Type &In = O.operand(0)->type(), &R = O.result()->type();
    const bool IsSort = O.kind() == OpKind::Sort;
    const unsigned Axis = IsSort ? O.sortAxis() : O.axis();
    if (In.isScalar() || Axis >= In.rank())
      return fail(O, "axis out of range for " + In.str());
    const Type &Shaped = IsSort ? R : O.operand(1)->type();
    if (!IsSort && (!isInteger(Shaped.Elem.Kind) || Shaped.Shape != R.Shape))
      return fail(O, "index " + Shaped.str() + " is not an integer tile of " +
                         R.str() + "'s shape");
    bool Fits = R.Elem == In.Elem && Shaped.rank() == In.rank() &&
                (!IsSort || R.Shape[Axis] <= In.Shape[Axis]);
    for (unsigned D = 0; Fits && D < In.rank(); ++D)
      Fits = D == Axis || Shaped.Shape[D] == In.Shape[D];
    if (!Fits)
      fail(O, "result " + R.str() + " does not follow from " + In.str());
  }

  /// A combine region takes the accumulated values, then the next ones, as
  /// scalars of the results' element types, and yields new accumulated ones.
  void checkCombine(const Op &O) {
    if (O.regions().empty())
      return; // built-in reductions
    const Block &R = *O.region(0);
    unsigned N = O.numResults();
    if (R.arguments().size() != 2 * N)
      return fail(O, "combine must take 2 arguments per result");
    for (unsigned I = 0; I < 2 * N; ++I)
      if (R.argument(I)->type() != Type::scalar(O.result(I % N)->type().Elem))
        return fail(O, "combine argument types differ from the results'");
    const Op *T = R.terminator();
    if (!T || T->kind() != OpKind::Yield || T->numOperands() != N)
      return fail(O, "combine must end in a yield of one value per result");
    for (unsigned I = 0; I < N; ++I)
      if (T->operand(I)->type() != Type::scalar(O.result(I)->type().Elem))
        return fail(O, "combine yields a type differing from the result's");
  }

  void checkMemory(const Op &O) {
    if (!O.operand(0)->type().Elem.isPointer())
      return fail(O, "first operand must be a pointer");
    const Type &P = O.operand(0)->type();
    for (Value *V : O.operands())
      if (V->type().Shape != P.Shape)
        return fail(O, "operands must have the pointer's shape");
    if (O.kind() != OpKind::Load && P.Elem.PointeeConst)
      fail(O, "write through a pointer to const");
  }

  void checkControl(const Op &O) {
    if (!isStructuredControl(O.kind()))
      return;
    if (O.kind() == OpKind::While) {
      const Op *T = O.region(0)->terminator();
      if (!T || T->kind() != OpKind::Yield || T->numOperands() != 1 ||
          T->operand(0)->type() != Type::scalar(ScalarKind::I1))
        return fail(O, "condition block must yield one i1");
    }
    for (const auto &R : O.regions().drop_front(O.kind() == OpKind::While)) {
      const Op *T = R->terminator();
      if (!T || T->kind() != OpKind::Yield ||
          T->numOperands() != O.numResults())
        return fail(O, "nested block must end in a yield of its results");
      for (unsigned I = 0; I < O.numResults(); ++I)
        if (T->operand(I)->type() != O.result(I)->type())
          return fail(O, "yielded type differs from result type");
    }
  }
};

} // namespace

std::vector<VerifierError> verify(const Function &F) {
  Verifier V;
  walk(F.body(), [&](const Op &O) { V.check(O); });
  return std::move(V.Errors);
}

} // namespace tilecc::ir
