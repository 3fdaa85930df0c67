//===- LayoutAssignment.cpp -----------------------------------------------===//
#include "analysis/LayoutAssignment.h"
#include <algorithm>
#include <map>

using namespace tilecc::ir;

namespace tilecc::analysis {

const Layout &LayoutMap::get(const Value *V) const {
  auto It = Layouts.find(V);
  assert(It != Layouts.end() && "tile without a layout");
  return It->second;
}

namespace {

class Assigner {
public:
  Assigner(Function &F, const AxisInfoAnalysis &AI, unsigned NumWarps,
           const TargetInfo &T)
      : F(F), AI(AI), NumWarps(NumWarps), Target(T) {}

  LayoutMap run() {
    chooseAnchors();
    assignBlock(F.body());
    insertConversions(F.body());
    return std::move(Map);
  }

private:
  /// Per rank, the blocked layout of the largest tile that memory is
  /// accessed through.
  void chooseAnchors() {
    struct Candidate {
      int64_t Numel = 0;
      unsigned MinBytes = 16;
      llvm::SmallVector<int64_t, 2> Shape;
      llvm::SmallVector<int64_t, 2> Contiguity;
    };
    std::map<unsigned, Candidate> ByRank;
    walk(F.body(), [&](Op &O) {
      if (categoryOf(O.kind()) != OpCategory::Memory)
        return;
      const Value *P = O.operand(0);
      if (P->type().isScalar())
        return;
      Candidate &C = ByRank[P->type().rank()];
      C.MinBytes = std::min(C.MinBytes, P->type().Elem.pointeeBytes());
      if (P->type().numel() > C.Numel) {
        C.Numel = P->type().numel();
        C.Shape = P->type().Shape;
        C.Contiguity = AI.get(P).Contiguity;
      }
    });
    // Ranks with no memory access still need an anchor (e.g. index math).
    walk(F.body(), [&](Op &O) {
      for (const auto &R : O.results())
        if (!R->type().isScalar()) {
          Candidate &C = ByRank[R->type().rank()];
          if (C.Shape.empty()) {
            C.Shape = R->type().Shape;
            C.Numel = R->type().numel();
            C.Contiguity.assign(C.Shape.size(), 1);
          }
        }
    });
    for (auto &[Rank, C] : ByRank) {
      // Fastest dimension: the most contiguous, ties to the last.
      llvm::SmallVector<unsigned, 2> Order;
      for (unsigned D = Rank; D-- > 0;)
        Order.push_back(D);
      std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
        return C.Contiguity[A] > C.Contiguity[B];
      });
      unsigned Vec = 16 / std::max(1u, C.MinBytes);
      if (C.Contiguity[Order[0]] < Vec) // strided: one element per access
        Vec = C.Contiguity[Order[0]] > 1 ? C.Contiguity[Order[0]] : 1;
      // Every thread gets data before any gets more than one vector.
      int64_t Threads = int64_t(NumWarps) * Target.WarpSize;
      Vec = std::max<int64_t>(1, std::min<int64_t>(Vec, C.Numel / Threads));
      Anchors[Rank] =
          Layout{defaultBlocked(C.Shape, Vec, NumWarps, Target.WarpSize, Order),
                 std::nullopt};
    }
  }

  /// The layout user O wants for its operand I, given O's result layouts.
  std::optional<Layout> wanted(const Op &O, unsigned I) {
    const Value *V = O.operand(I);
    if (V->type().isScalar())
      return std::nullopt;
    switch (O.kind()) {
    case OpKind::ExpandDims: {
      const Layout &R = Map.get(O.result());
      if (R.SliceDim)
        return anchor(V->type().rank());
      return Layout{R.Parent, static_cast<unsigned>(O.intAttr())};
    }
    case OpKind::Store:
      return anchor(O.operand(0)->type().rank());
    case OpKind::Yield: {
      const Op *Parent = O.parentBlock()->parentOp();
      return Map.get(Parent->result(I));
    }
    case OpKind::For:
      if (I < 3)
        return std::nullopt;
      return Map.get(O.result(I - 3));
    case OpKind::If:
      return std::nullopt;
    default:
      return Map.get(O.result());
    }
  }

  Layout anchor(unsigned Rank) { return Anchors.at(Rank); }

  /// Walks ops last to first so each value's users are decided before it.
  void assignBlock(Block &B) {
    for (auto It = B.ops().rbegin(); It != B.ops().rend(); ++It) {
      Op &O = **It;
      for (const auto &R : O.results())
        decide(R.get());
      if (O.kind() == OpKind::For) {
        Block &Body = *O.region(0);
        for (unsigned I = 1; I < Body.arguments().size(); ++I)
          if (!Body.argument(I)->type().isScalar())
            Map.set(Body.argument(I), Map.get(O.result(I - 1)));
      }
      for (auto &R : O.regions())
        assignBlock(*R);
      for (unsigned I = 0; I < O.numOperands(); ++I)
        if (auto W = wanted(O, I))
          Users[O.operand(I)].push_back(*W);
    }
    for (const auto &A : B.arguments())
      decide(A.get());
  }

  void decide(const Value *V) {
    if (V->type().isScalar() || Map.has(V))
      return;
    Layout Anchor = anchor(V->type().rank());
    auto It = Users.find(V);
    if (It == Users.end() || It->second.empty()) {
      Map.set(V, Anchor);
      return;
    }
    const auto &Ws = It->second;
    bool AllSame =
        llvm::all_of(Ws, [&](const Layout &L) { return L == Ws[0]; });
    // Loop-carried values and results keep the anchor; so do values whose
    // users disagree, unless none of them wants the anchor.
    const Op *Def = V->definingOp();
    bool Carried =
        !Def || Def->kind() == OpKind::For || Def->kind() == OpKind::If;
    if (Carried)
      Map.set(V, Anchor);
    else if (AllSame || !llvm::is_contained(Ws, Anchor))
      Map.set(V, Ws[0]);
    else
      Map.set(V, Anchor);
  }

  void insertConversions(Block &B) {
    for (size_t Pos = 0; Pos < B.ops().size(); ++Pos) {
      Op &O = *B.ops()[Pos];
      for (auto &R : O.regions())
        insertConversions(*R);
      for (unsigned I = 0; I < O.numOperands(); ++I) {
        auto W = wanted(O, I);
        Value *V = O.operand(I);
        if (!W || Map.get(V) == *W)
          continue;
        auto Conv = std::make_unique<Op>(OpKind::ConvertLayout, O.loc());
        Conv->addOperand(V);
        Value *C = Conv->addResult(F.newValue(V->type()));
        Map.set(C, *W);
        B.insert(Pos, std::move(Conv));
        ++Pos;
        O.setOperand(I, C);
      }
    }
  }

  Function &F;
  const AxisInfoAnalysis &AI;
  unsigned NumWarps;
  TargetInfo Target;
  std::map<unsigned, Layout> Anchors;
  llvm::DenseMap<const Value *, llvm::SmallVector<Layout, 2>> Users;
  LayoutMap Map;
};

} // namespace

LayoutMap assignLayouts(Function &F, const AxisInfoAnalysis &AI,
                        unsigned NumWarps, const TargetInfo &Target) {
  return Assigner(F, AI, NumWarps, Target).run();
}

} // namespace tilecc::analysis
