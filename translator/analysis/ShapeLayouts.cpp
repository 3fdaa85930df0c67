//===- ShapeLayouts.cpp ---------------------------------------------------===//
#include "analysis/ShapeLayouts.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

/// L's dimensions renamed: dimension D becomes To[D].
BlockedLayout renamed(const BlockedLayout &L, llvm::ArrayRef<unsigned> To) {
  BlockedLayout R = L;
  auto Move = [&](const llvm::SmallVector<unsigned, 2> &From,
                  llvm::SmallVector<unsigned, 2> &Into) {
    for (unsigned D = 0; D < From.size(); ++D)
      Into[To[D]] = From[D];
  };
  Move(L.SizePerThread, R.SizePerThread);
  Move(L.ThreadsPerWarp, R.ThreadsPerWarp);
  Move(L.WarpsPerCTA, R.WarpsPerCTA);
  if (!L.WarpReps.empty())
    Move(L.WarpReps, R.WarpReps);
  for (unsigned &D : R.Order)
    D = To[D];
  for (unsigned &D : R.WarpOrder)
    D = To[D];
  return R;
}

/// Result layout R of permute O in its operand's dimensions. A slice keeps
/// its removed dimension where it is and renames its parent's others.
Layout permutedBack(const Op &O, const Layout &R) {
  const unsigned Rank = O.result()->type().rank();
  const unsigned Slice = R.SliceDim.value_or(Rank);
  auto Parent = [&](unsigned D) { return D < Slice ? D : D + 1; };
  llvm::SmallVector<unsigned, 4> To(R.Parent.rank());
  for (unsigned D = 0; D < Rank; ++D)
    To[Parent(D)] = Parent(O.permutedDim(D));
  if (R.SliceDim)
    To[Slice] = Slice;
  return Layout{renamed(R.Parent, To), R.SliceDim};
}

/// L with a last dimension of 2 that each thread holds whole, numbered
/// first: a thread's element e of L is its elements 2e and 2e + 1 here.
/// A slice's parent gains the dimension after all of its own.
Layout withPairs(const Layout &L) {
  BlockedLayout P = L.Parent;
  const unsigned New = P.rank();
  P.SizePerThread.push_back(2);
  P.ThreadsPerWarp.push_back(1);
  P.WarpsPerCTA.push_back(1);
  if (!P.WarpReps.empty())
    P.WarpReps.push_back(1);
  P.Order.insert(P.Order.begin(), New);
  if (!P.WarpOrder.empty())
    P.WarpOrder.insert(P.WarpOrder.begin(), New);
  return Layout{P, L.SliceDim};
}

/// L without the pairs withPairs adds, if L has them as its last dimension.
std::optional<Layout> withoutPairs(const Layout &L) {
  const BlockedLayout &P = L.Parent;
  const unsigned Last = P.rank() - 1;
  if (L.SliceDim == Last || P.SizePerThread[Last] != 2 ||
      P.ThreadsPerWarp[Last] != 1 || P.WarpsPerCTA[Last] != 1 ||
      P.warpReps(Last) != 1)
    return std::nullopt;
  // The first dimension its elements are numbered in (a slice's skips the
  // removed one).
  unsigned First = P.Order[0] == L.SliceDim ? P.Order[1] : P.Order[0];
  if (First != Last)
    return std::nullopt;
  BlockedLayout R = P;
  R.SizePerThread.pop_back();
  R.ThreadsPerWarp.pop_back();
  R.WarpsPerCTA.pop_back();
  if (!R.WarpReps.empty())
    R.WarpReps.pop_back();
  llvm::erase(R.Order, Last);
  llvm::erase(R.WarpOrder, Last);
  return Layout{R, L.SliceDim};
}

bool rowMajor(const BlockedLayout &L) {
  for (unsigned I = 0; I < L.rank(); ++I)
    if (L.Order[I] != L.rank() - 1 - I)
      return false;
  return L.WarpReps.empty() && (L.WarpOrder.empty() || L.WarpOrder == L.Order);
}

/// The levels a coordinate's digits come from, least significant first:
/// the element within a thread, the lane, the warp, the repetition.
enum class Level { Element, Lane, Warp, Repetition };
struct Piece {
  Level At;
  int64_t Factor;
};

/// A row-major layout of a tile of Shape as pieces, the row-major flat
/// index's least significant first; nothing when it wraps (threads hold
/// copies), which a relabeling cannot keep track of.
std::optional<llvm::SmallVector<Piece, 16>>
piecesOf(const BlockedLayout &L, llvm::ArrayRef<int64_t> Shape) {
  llvm::SmallVector<Piece, 16> Out;
  for (unsigned D = Shape.size(); D-- > 0;) {
    const int64_t Tile =
        int64_t(L.SizePerThread[D]) * L.ThreadsPerWarp[D] * L.WarpsPerCTA[D];
    if (Shape[D] % Tile != 0)
      return std::nullopt;
    for (Piece P : {Piece{Level::Element, L.SizePerThread[D]},
                    Piece{Level::Lane, L.ThreadsPerWarp[D]},
                    Piece{Level::Warp, L.WarpsPerCTA[D]},
                    Piece{Level::Repetition, Shape[D] / Tile}})
      if (P.Factor > 1)
        Out.push_back(P);
  }
  return Out;
}

/// The row-major layout of a tile of Shape made of Pieces, the way piecesOf
/// takes it apart; nothing when some dimension would need a level twice.
std::optional<BlockedLayout> fromPieces(llvm::ArrayRef<Piece> Pieces,
                                        llvm::ArrayRef<int64_t> Shape) {
  const unsigned Rank = Shape.size();
  BlockedLayout L;
  L.SizePerThread.assign(Rank, 1);
  L.ThreadsPerWarp.assign(Rank, 1);
  L.WarpsPerCTA.assign(Rank, 1);
  for (unsigned D = Rank; D-- > 0;)
    L.Order.push_back(D);
  size_t Next = 0;
  int64_t Left = Pieces.empty() ? 1 : Pieces[0].Factor;
  for (unsigned D = Rank; D-- > 0;) {
    int64_t Need = Shape[D];
    Level Highest = Level::Element;
    while (Need > 1) {
      if (Next == Pieces.size())
        return std::nullopt;
      const Level At = Pieces[Next].At;
      if (At < Highest)
        return std::nullopt; // digits out of order within one dimension
      Highest = At;
      const int64_t Take = std::min(Need, Left);
      if (Need % Take != 0 || Left % Take != 0)
        return std::nullopt;
      Need /= Take;
      Left /= Take;
      if (At == Level::Element)
        L.SizePerThread[D] *= Take;
      else if (At == Level::Lane)
        L.ThreadsPerWarp[D] *= Take;
      else if (At == Level::Warp)
        L.WarpsPerCTA[D] *= Take;
      if (Left == 1 && ++Next < Pieces.size())
        Left = Pieces[Next].Factor;
    }
  }
  return L;
}

/// The operand layout of reshape O whose result has layout R: the same
/// digits of each flat index, regrouped into the operand's dimensions.
std::optional<Layout> reshapedBack(const Op &O, const Layout &R) {
  if (R.SliceDim || !rowMajor(R.Parent))
    return std::nullopt;
  auto Pieces = piecesOf(R.Parent, O.result()->type().Shape);
  if (!Pieces)
    return std::nullopt;
  auto L = fromPieces(*Pieces, O.operand(0)->type().Shape);
  if (!L)
    return std::nullopt;
  return Layout{*L, std::nullopt};
}

/// cat O relabels when its result's dimension 0 repeats last in each
/// thread's numbering and each operand holds whole repetitions of it: b's
/// elements follow a's, in the same layout.
std::optional<Layout> concatenatedBack(const Op &O, const Layout &R) {
  const BlockedLayout &P = R.Parent;
  const int64_t Tile = P.warpTile(0) * P.WarpsPerCTA[0];
  if (R.SliceDim || P.Order.back() != 0 ||
      O.operand(0)->type().Shape[0] % Tile != 0)
    return std::nullopt;
  return R;
}

} // namespace

bool isRearrangement(OpKind K) {
  return K == OpKind::Reshape || K == OpKind::Permute || K == OpKind::Join ||
         K == OpKind::Split || K == OpKind::Cat || K == OpKind::Flip;
}

std::optional<Layout> relabeledOperand(const Op &O, const Layout &Result) {
  switch (O.kind()) {
  case OpKind::Reshape:
    return reshapedBack(O, Result);
  case OpKind::Permute:
    return permutedBack(O, Result);
  case OpKind::Join:
    return withoutPairs(Result);
  case OpKind::Split:
    return withPairs(Result);
  case OpKind::Cat:
    return concatenatedBack(O, Result);
  default:
    return std::nullopt;
  }
}

Layout fittedResult(const Op &O, const Layout &Wanted,
                    llvm::function_ref<Layout(unsigned Rank)> Anchor) {
  if (relabeledOperand(O, Wanted))
    return Wanted;
  const unsigned Rank = O.result()->type().rank();
  // Join's result pairs up its operands' layout: the anchor of theirs.
  if (O.kind() == OpKind::Join)
    return withPairs(Anchor(Rank - 1));
  if (relabeledOperand(O, Anchor(Rank)))
    return Anchor(Rank);
  return Wanted;
}

bool relabels(const Op &O, const LayoutMap &LM) {
  // A split into scalars reads the pair every thread holds.
  if (O.result()->type().isScalar())
    return true;
  auto Want = relabeledOperand(O, LM.get(O.result()));
  return Want && llvm::all_of(O.operands(), [&](const Value *V) {
           return LM.get(V) == *Want;
         });
}

bool sortsInWarp(const Op &O, const LayoutMap &LM) {
  const Layout &In = LM.get(O.operand(0)), &Out = LM.get(O.result());
  const unsigned Axis = O.sortAxis();
  return !In.SliceDim && In == Out && In.Parent.WarpsPerCTA[Axis] == 1 &&
         O.operand(0)->type().Shape[Axis] % In.Parent.warpTile(Axis) == 0;
}

bool movesThroughSharedMemory(const Op &O, const LayoutMap &LM) {
  return (O.kind() == OpKind::Sort && !sortsInWarp(O, LM)) ||
         O.kind() == OpKind::Gather ||
         (isRearrangement(O.kind()) && !relabels(O, LM));
}

} // namespace tilecc::analysis
