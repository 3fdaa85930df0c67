//===- Layout.cpp ---------------------------------------------------------===//
#include "analysis/Layout.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cassert>

namespace tilecc::analysis {

llvm::SmallVector<int64_t, 4> parentShape(const Layout &L,
                                          llvm::ArrayRef<int64_t> Shape) {
  llvm::SmallVector<int64_t, 4> P(Shape.begin(), Shape.end());
  if (L.SliceDim)
    P.insert(P.begin() + *L.SliceDim, 1);
  return P;
}

unsigned Layout::elemsPerThread(llvm::ArrayRef<int64_t> Shape) const {
  llvm::SmallVector<int64_t, 4> P = parentShape(*this, Shape);
  unsigned N = 1;
  for (unsigned D = 0; D < Parent.rank(); ++D) {
    if (SliceDim && D == *SliceDim)
      continue;
    int64_t Tile = Parent.warpTile(D) * Parent.WarpsPerCTA[D];
    int64_t Reps = P[D] > Tile ? P[D] / Tile : 1;
    N *= Parent.SizePerThread[D] * Parent.warpReps(D) * Reps;
  }
  return N;
}

int64_t BlockedLayout::distinctWarps(unsigned D, int64_t Size) const {
  const int64_t Warps = Size / (int64_t(SizePerThread[D]) * ThreadsPerWarp[D]);
  return std::clamp<int64_t>(Warps, 1, WarpsPerCTA[D]);
}

bool Layout::replicates(llvm::ArrayRef<int64_t> Shape) const {
  llvm::SmallVector<int64_t, 4> P = parentShape(*this, Shape);
  for (unsigned D = 0; D < Parent.rank(); ++D)
    if (P[D] % (Parent.warpTile(D) * Parent.WarpsPerCTA[D]) != 0)
      return true;
  return false;
}

unsigned Layout::fastestDim() const {
  for (unsigned D : Parent.Order)
    if (!SliceDim || D != *SliceDim)
      return SliceDim && D > *SliceDim ? D - 1 : D;
  return 0;
}

unsigned Layout::contiguousRun(llvm::ArrayRef<int64_t> Shape) const {
  unsigned PD = Parent.Order.front();
  if (SliceDim && PD == *SliceDim)
    return 1; // the thread's first digit runs along the removed dimension
  unsigned Run = Parent.SizePerThread[PD];
  return std::min<int64_t>(Run, Shape[fastestDim()]);
}

std::string Layout::str() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  auto List = [&](const char *Name, llvm::ArrayRef<unsigned> L) {
    OS << Name << "=[";
    for (unsigned I = 0; I < L.size(); ++I)
      OS << (I ? ", " : "") << L[I];
    OS << "]";
  };
  if (SliceDim)
    OS << "#slice<dim=" << *SliceDim << ", ";
  OS << "#blocked<";
  List("spt", Parent.SizePerThread);
  OS << ", ";
  List("tpw", Parent.ThreadsPerWarp);
  OS << ", ";
  List("wpc", Parent.WarpsPerCTA);
  OS << ", ";
  List("order", Parent.Order);
  if (!Parent.WarpReps.empty()) {
    OS << ", ";
    List("warp_reps", Parent.WarpReps);
  }
  if (!Parent.WarpOrder.empty()) {
    OS << ", ";
    List("warp_order", Parent.WarpOrder);
  }
  if (Parent.Mfma)
    OS << ", mfma";
  OS << ">";
  if (SliceDim)
    OS << ">";
  return S;
}

std::optional<BlockedLayout> mmaAccumulator(llvm::ArrayRef<int64_t> Shape,
                                            unsigned NumWarps,
                                            unsigned MinWarpsM) {
  constexpr int64_t FragM = 16, FragN = 8;
  if (Shape.size() != 2 || NumWarps < MinWarpsM)
    return std::nullopt;
  unsigned WM = MinWarpsM, WN = 1;
  if (MinWarpsM > 1) {
    // Warpgroups stack along M while rows last: each instruction then
    // spans the widest N.
    while (WM * 2 <= NumWarps && Shape[0] >= FragM * WM * 2)
      WM *= 2;
    WN = NumWarps / WM;
  } else {
    // Warps along M while each keeps at least as many fragment rows as
    // columns (Triton's split), then along N.
    while (WM * WN < NumWarps) {
      if (Shape[0] / FragM / WM >= Shape[1] / FragN / WN)
        WM *= 2;
      else
        WN *= 2;
    }
  }
  if (WM * WN != NumWarps || Shape[0] % (FragM * WM) != 0 ||
      Shape[1] % (FragN * WN) != 0)
    return std::nullopt;
  BlockedLayout L;
  L.SizePerThread = {1, 2};
  L.ThreadsPerWarp = {8, 4};
  L.WarpsPerCTA = {WM, WN};
  L.Order = {1, 0};
  L.WarpReps = {2, static_cast<unsigned>(Shape[1] / (FragN * WN))};
  if (MinWarpsM > 1 && WN > 1)
    L.WarpOrder = {0, 1};
  return L;
}

BlockedLayout transposed(const BlockedLayout &L) {
  assert(L.rank() == 2 && "a 2-D layout");
  auto Swap = [](llvm::SmallVector<unsigned, 2> &V) {
    if (!V.empty())
      std::swap(V[0], V[1]);
  };
  auto Rename = [](llvm::SmallVector<unsigned, 2> &Order) {
    for (unsigned &D : Order)
      D = 1 - D;
  };
  BlockedLayout T = L;
  Swap(T.SizePerThread);
  Swap(T.ThreadsPerWarp);
  Swap(T.WarpsPerCTA);
  Swap(T.WarpReps);
  Rename(T.Order);
  Rename(T.WarpOrder);
  return T;
}

std::optional<BlockedLayout> mfmaAccumulator(llvm::ArrayRef<int64_t> Shape,
                                             unsigned NumWarps, int64_t Tile) {
  if ((Tile != 32 && Tile != 16) || Shape.size() != 2 || Shape[0] % Tile != 0 ||
      Shape[1] % Tile != 0)
    return std::nullopt;
  unsigned WM = 1, WN = 1;
  while (WM * WN < NumWarps) {
    if (Shape[0] / Tile / WM >= Shape[1] / Tile / WN &&
        Shape[0] / Tile >= WM * 2)
      WM *= 2;
    else
      WN *= 2;
  }
  if (WM * WN != NumWarps || Shape[0] % (Tile * WM) != 0 ||
      Shape[1] % (Tile * WN) != 0)
    return std::nullopt;
  BlockedLayout L;
  // 64 lanes in groups of Tile, each group 4 rows further down.
  const unsigned Groups = static_cast<unsigned>(64 / Tile);
  const unsigned RunsPerTile = static_cast<unsigned>(Tile / (4 * Groups));
  L.SizePerThread = {4, 1};
  L.ThreadsPerWarp = {Groups, static_cast<unsigned>(Tile)};
  L.WarpsPerCTA = {WM, WN};
  L.Order = {1, 0};
  L.WarpReps = {static_cast<unsigned>(RunsPerTile * (Shape[0] / (Tile * WM))),
                static_cast<unsigned>(Shape[1] / (Tile * WN))};
  L.Mfma = true;
  return L;
}

std::optional<BlockedLayout> mmaOperandA(const BlockedLayout &Acc, int64_t K) {
  if (Acc.WarpReps.empty() || Acc.WarpsPerCTA[1] != 1 || K % 16 != 0)
    return std::nullopt;
  BlockedLayout A = Acc;
  A.WarpReps[1] = static_cast<unsigned>(K / 8);
  return A;
}

bool holdsOperandA(const Layout &A, const Layout &Acc, int64_t K,
                   unsigned ElemBytes) {
  if (ElemBytes != 1 && ElemBytes != 2)
    return false;
  auto Want = Acc.SliceDim ? std::nullopt : mmaOperandA(Acc.Parent, K);
  return Want && !A.SliceDim && A.Parent == *Want;
}

BlockedLayout defaultBlocked(llvm::ArrayRef<int64_t> Shape, unsigned Vec,
                             unsigned NumWarps, unsigned WarpSize,
                             llvm::ArrayRef<unsigned> Order) {
  unsigned Rank = Shape.size();
  BlockedLayout L;
  L.Order.assign(Order.begin(), Order.end());
  L.SizePerThread.assign(Rank, 1);
  L.ThreadsPerWarp.assign(Rank, 1);
  L.WarpsPerCTA.assign(Rank, 1);
  L.SizePerThread[Order[0]] =
      std::max<int64_t>(1, std::min<int64_t>(Vec, Shape[Order[0]]));

  unsigned Threads = WarpSize;
  for (unsigned D : Order) {
    int64_t Room = std::max<int64_t>(1, Shape[D] / L.SizePerThread[D]);
    L.ThreadsPerWarp[D] = std::min<int64_t>(Threads, Room);
    Threads /= L.ThreadsPerWarp[D];
  }
  // A tile smaller than a warp: the rest of the threads hold copies.
  L.ThreadsPerWarp[Order.back()] *= Threads;

  unsigned Warps = NumWarps;
  for (unsigned D : Order) {
    int64_t Room = std::max<int64_t>(
        1, Shape[D] / (int64_t(L.SizePerThread[D]) * L.ThreadsPerWarp[D]));
    L.WarpsPerCTA[D] = std::min<int64_t>(Warps, Room);
    Warps /= L.WarpsPerCTA[D];
  }
  L.WarpsPerCTA[Order.back()] *= Warps;
  return L;
}

} // namespace tilecc::analysis
