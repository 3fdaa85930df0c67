//===- LayoutAssignment.cpp -----------------------------------------------===//
#include "analysis/LayoutAssignment.h"
#include "analysis/ShapeLayouts.h"
#include "analysis/TensorMaps.h"
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

/// Whether tensor cores multiply A and B operands of kinds A and B into
/// accumulators of kind C: fp16 or bf16 into fp32, fp32 rounded to tf32
/// into fp32, 8-bit integers of one signedness into int32, 8-bit floats of
/// one format into fp32 (targets without fp8 tensor cores are refused
/// before layouts are assigned).
bool tensorCoreTypes(ScalarKind A, ScalarKind B, ScalarKind C, DotPrecision P) {
  if (A != B)
    return false;
  switch (A) {
  case ScalarKind::F16:
    return C == ScalarKind::F32 || C == ScalarKind::F16;
  case ScalarKind::BF16:
    return C == ScalarKind::F32;
  case ScalarKind::F32:
    return C == ScalarKind::F32 && P == DotPrecision::TF32;
  case ScalarKind::I8:
  case ScalarKind::U8:
    return C == ScalarKind::I32;
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return C == ScalarKind::F32;
  default:
    return false;
  }
}

} // namespace

std::optional<BlockedLayout> tensorCoreLayout(const Op &O, unsigned NumWarps,
                                              const TargetDesc &Target) {
  if (O.kind() != OpKind::Dot)
    return std::nullopt;
  const Type &A = O.operand(0)->type(), &B = O.operand(1)->type();
  const Type &C = O.result()->type();
  // AMD matrix cores: fp16 or bf16 into fp32, int8 into int32, 8 deep on
  // 32 x 32 tiles, 16 deep on 16 x 16; fp32 2 or 4 deep (full fp32
  // products, whatever the precision asked for). 32 x 32 where the block
  // splits into them (half the shared-memory reads a product), else 16 x 16.
  if (Target.HasMfma) {
    const ScalarKind K = A.Elem.Kind;
    const bool Types =
        K == B.Elem.Kind &&
        (((K == ScalarKind::F16 || K == ScalarKind::BF16 ||
           K == ScalarKind::F32) &&
          C.Elem.Kind == ScalarKind::F32) ||
         (K == ScalarKind::I8 && C.Elem.Kind == ScalarKind::I32));
    if (C.rank() != 2 || !Types)
      return std::nullopt;
    for (const int64_t Tile : {32, 16}) {
      const int64_t Depth = (K == ScalarKind::F32 ? 2 : 8) * 32 / Tile;
      if (A.Shape[1] % Depth == 0)
        if (auto L = mfmaAccumulator(C.Shape, NumWarps, Tile))
          return L;
    }
    return std::nullopt;
  }
  if (Target.MmaVersion == 0)
    return std::nullopt;
  // A batch of products (3-D) runs on CUDA cores.
  if (C.rank() != 2 ||
      !tensorCoreTypes(A.Elem.Kind, B.Elem.Kind, C.Elem.Kind, O.precision()) ||
      A.Shape[1] % (32 / storageBytes(A.Elem.Kind)) != 0)
    return std::nullopt;
  if (storageBytes(A.Elem.Kind) <= 2 && computedOperandA(O))
    if (auto L = mmaAccumulator(C.Shape, NumWarps, NumWarps))
      return L;
  if (Target.MmaVersion >= 3)
    if (auto L = mmaAccumulator(C.Shape, NumWarps, 4))
      return L;
  // Fewer rows than warpgroups of 64 (a 32-row block on sm_90a): mma.sync,
  // which tiles by warps, rather than CUDA cores.
  return mmaAccumulator(C.Shape, NumWarps, 1);
}

namespace {

class Assigner {
public:
  Assigner(Function &F, const AxisInfoAnalysis &AI,
           const AxisInfoAnalysis *Assumptionless, unsigned NumWarps,
           const TargetDesc &T)
      : F(F), AI(AI), Assumptionless(Assumptionless ? *Assumptionless : AI),
        NumWarps(NumWarps), Target(T) {}

  LayoutMap run() {
    AllUsers = users(F.body());
    chooseAnchors();
    followReductions();
    assignBlock(F.body());
    insertConversions();
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
      llvm::SmallVector<int64_t, 2> Contiguity, Dependable;
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
        C.Dependable = Assumptionless.get(P).Contiguity;
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
            C.Dependable.assign(C.Shape.size(), 1);
          }
        }
    });
    for (auto &[Rank, C] : ByRank)
      Anchors[Rank] =
          Layout{memoryLayout(C.Shape, C.Contiguity, C.Dependable, C.MinBytes),
                 std::nullopt};
  }

  /// The blocked layout for accessing a tile of Shape whose pointers have
  /// Contiguity, elements of Bytes: the most contiguous dimension fastest
  /// (ties to the last), 16 bytes per thread along it where contiguity
  /// allows. A dimension contiguous whatever the arguments (Dependable,
  /// the contiguity without the unit variant's strides == 1) comes before
  /// one contiguous only where a stride is 1: the layouts serve every
  /// variant, and rope's positions, a row apart, are contiguous only in a
  /// unit variant that no caller runs.
  BlockedLayout memoryLayout(llvm::ArrayRef<int64_t> Shape,
                             llvm::ArrayRef<int64_t> Contiguity,
                             llvm::ArrayRef<int64_t> Dependable,
                             unsigned Bytes) {
    unsigned Rank = Shape.size();
    llvm::SmallVector<unsigned, 2> Order;
    for (unsigned D = Rank; D-- > 0;)
      Order.push_back(D);
    std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
      return std::make_pair(Dependable[A] > 1, Contiguity[A]) >
             std::make_pair(Dependable[B] > 1, Contiguity[B]);
    });
    unsigned Vec = 16 / std::max(1u, Bytes);
    if (Contiguity[Order[0]] < Vec) // strided: one element per access
      Vec = Contiguity[Order[0]] > 1 ? Contiguity[Order[0]] : 1;
    // Every thread gets data before any gets more than one vector.
    int64_t Numel = 1;
    for (int64_t S : Shape)
      Numel *= S;
    int64_t Threads = int64_t(NumWarps) * Target.WarpSize;
    Vec = std::max<int64_t>(1, std::min<int64_t>(Vec, Numel / Threads));
    return defaultBlocked(Shape, Vec, NumWarps, Target.WarpSize, Order);
  }

  /// The blocked layout for accessing memory through pointer tile P.
  BlockedLayout accessLayout(const Value *P) {
    return memoryLayout(P->type().Shape, AI.get(P).Contiguity,
                        Assumptionless.get(P).Contiguity,
                        P->type().Elem.pointeeBytes());
  }

  /// A reduction's result has its slice layout fixed; elementwise ops on
  /// reduction results (all in one layout) keep it, and so do stores of
  /// them, so that the other operands' index arithmetic is recomputed in
  /// that layout instead of the results going through shared memory.
  void followReductions() {
    // Loop-carried values take what their yields have; rounds repeat
    // until nested loops settle. A reduction waits for its operand's
    // layout (a loop's accumulator is followed only once a round has seen
    // the dot in its body); those whose operand has none then reduce from
    // the anchor.
    for (bool Last : {false, true}) {
      ReduceFromAnchor = Last;
      for (bool Changed = true; Changed;) {
        Changed = false;
        walk(F.body(), [&](Op &O) { Changed |= follow(O); });
      }
    }
  }

  /// Records the fixed layout O's results follow; whether any was new.
  bool follow(Op &O) {
    auto Set = [&](const Value *V, const Layout &L) {
      auto [It, New] = Followed.try_emplace(V, L);
      return New;
    };
    if (O.kind() == OpKind::Dot) {
      if (auto L = accumulatorLayout(O))
        return Set(O.result(), Layout{*L, std::nullopt});
      return false;
    }
    if (O.kind() == OpKind::Load && feedsTensorCores(*O.result())) {
      const Value *P = O.operand(0);
      Layout L{accessLayout(P), std::nullopt};
      // Pointers a loop carries (Triton's `a_ptrs += BK`) are kept in the
      // load's layout rather than converted every iteration.
      bool Changed = false;
      if (const Value *Out = carriedResult(P))
        Changed = Set(Out, L);
      return Set(O.result(), L) || Changed;
    }
    if (O.kind() == OpKind::For) {
      const Op &Yield = *O.region(0)->ops().back();
      bool Changed = false;
      for (unsigned I = 0; I < O.numResults(); ++I)
        if (auto It = Followed.find(Yield.operand(I)); It != Followed.end()) {
          // A copy: inserting may grow Followed and move what It refers to.
          Layout L = It->second;
          Changed |= Set(O.result(I), L);
        }
      return Changed;
    }
    if (isAtomicRMW(O.kind()) || O.kind() == OpKind::AtomicCas)
      return followAtomic(O, Set);
    if (O.kind() == OpKind::Histogram)
      if (auto L = countsLayout(*O.result()))
        return Set(O.result(), *L);
    if (categoryOf(O.kind()) == OpCategory::Reduce) {
      bool Changed = false;
      for (unsigned I = 0; I < O.numResults(); ++I)
        if (!O.result(I)->type().isScalar())
          if (auto L = reductionLayout(O, I))
            Changed |= Set(O.result(I), *L);
      return Changed;
    }
    if (!isElementwise(O.kind()) || O.numResults() != 1)
      return false;
    std::optional<Layout> L;
    for (const Value *V : O.operands())
      if (auto It = Followed.find(V); It != Followed.end()) {
        if (L && *L != It->second)
          return false;
        L = It->second;
      }
    return L && Set(O.result(), *L);
  }

  /// The layout of a tensor-core dot's accumulator. wgmma reads 32-bit
  /// operands (tf32) only K-major from shared memory; a B that is staged
  /// N-major there, as it is loaded (row-major K x N), beside a K-major A
  /// is multiplied as C^T = B^T A^T instead, B^T's fragments gathered into
  /// registers (where wgmma takes its A), so that C has the transpose of
  /// C^T's accumulator layout.
  std::optional<BlockedLayout> accumulatorLayout(const Op &O) {
    auto L = tensorCoreLayout(O, NumWarps, Target);
    if (!L || Target.MmaVersion < 3 ||
        storageBytes(O.operand(0)->type().Elem.Kind) != 4 ||
        stagedContiguousDim(*O.operand(0)) != 1u ||
        stagedContiguousDim(*O.operand(1)) != 1u)
      return L;
    const auto &C = O.result()->type().Shape;
    if (auto T = mmaAccumulator({C[1], C[0]}, NumWarps, 4))
      return transposed(*T);
    return L;
  }

  /// The dimension of dot operand V that is contiguous where V is staged in
  /// shared memory as loaded: the fastest of its load's layout (through a
  /// trans, the other). Nothing for a V that is not a load feeding only
  /// tensor cores.
  std::optional<unsigned> stagedContiguousDim(const Value &V) {
    const Op *D = V.definingOp();
    const bool Trans = D && D->kind() == OpKind::Trans;
    if (Trans)
      D = D->operand(0)->definingOp();
    if (!D || D->kind() != OpKind::Load || !feedsTensorCores(*D->result()))
      return std::nullopt;
    const Value *P = D->operand(0);
    const unsigned Fastest = accessLayout(P).Order[0];
    return Trans ? 1 - Fastest : Fastest;
  }

  /// An atomic whose old values nobody reads updates memory from the
  /// layout its values are in, as a store does: a dot's accumulator added
  /// to memory (split-K, dQ) or a row's sum then needs no round trip
  /// through shared memory; its pointers and mask are recomputed in that
  /// layout. (Old values that are read stay in the anchor, where every
  /// thread holding an element gets it.)
  template <class SetFn> bool followAtomic(const Op &O, SetFn Set) {
    auto Uses = AllUsers.find(O.result());
    if (Uses != AllUsers.end() && !Uses->second.empty())
      return false;
    unsigned FirstValue = 1, LastValue = O.kind() == OpKind::AtomicCas ? 2 : 1;
    std::optional<Layout> L;
    for (unsigned I = FirstValue; I <= LastValue; ++I) {
      auto It = Followed.find(O.operand(I));
      if (It == Followed.end() || (L && *L != It->second))
        return false;
      L = It->second;
    }
    return Set(O.result(), *L);
  }

  /// The layout of a histogram's counts where the anchor would spread them
  /// over more threads than there are bins, several to a thread: one bin a
  /// thread instead, which the counts keep through the loop that sums them
  /// and the atomic that adds them to memory. Atomics have no vector form,
  /// and where every program adds its counts to the same words, a warp's
  /// adds to consecutive words (a quarter of the sectors that adds 16 bytes
  /// apart touch) were 7 % of a 256-bin histogram's time (session 71).
  std::optional<Layout> countsLayout(const Value &Counts) {
    const Layout Anchor = anchor(1);
    const BlockedLayout &A = Anchor.Parent;
    if (!Anchor.replicates(Counts.type().Shape) || A.SizePerThread[0] == 1)
      return std::nullopt;
    return Layout{defaultBlocked(Counts.type().Shape, 1, NumWarps,
                                 Target.WarpSize, A.Order),
                  std::nullopt};
  }

  /// The access layout of store O, if the tensor-core accumulator layout
  /// Acc its values follow would write less than a 32-byte sector of a row
  /// per instruction (a quad's pairs of 16-bit elements: 16 bytes) where the
  /// access layout writes wider vectors: the values then go through shared
  /// memory, as Triton's and CUTLASS's epilogues do. On an H100 a 64 x 128
  /// fp16 tile took 2356 cycles to store from the accumulator against 1067
  /// for Triton's (session 73, grouped GEMM at 4 x 512^3). A store a TMA
  /// variant may take (a box of a parameter's tensor) stages its values in
  /// shared memory from any layout and keeps Acc.
  std::optional<BlockedLayout> widerStoreLayout(const Op &O,
                                                const Layout &Acc) {
    if (!Acc.isMmaAccumulator() || Acc.SliceDim || !Target.hasWgmma() ||
        matchTensorMap(O))
      return std::nullopt;
    const Value *P = O.operand(0);
    const auto Shape = P->type().Shape;
    const unsigned Bytes = P->type().Elem.pointeeBytes();
    const BlockedLayout &A = Acc.Parent;
    const unsigned Fast = A.Order[0];
    const int64_t AccRunBytes = A.SizePerThread[Fast] * Bytes;
    if (AccRunBytes * A.ThreadsPerWarp[Fast] >= 32)
      return std::nullopt;
    BlockedLayout Access = accessLayout(P);
    const Layout L{Access, std::nullopt};
    const int64_t Width =
        accessVectorWidth(AI, O, L.fastestDim(), L.contiguousRun(Shape));
    if (L.fastestDim() != Fast || Width * Bytes <= AccRunBytes)
      return std::nullopt;
    return Access;
  }

  /// Whether V's only users are tensor-core dots taking it as a or b (maybe
  /// through a trans): such operands go to shared memory, so the load
  /// that makes V gets a layout fitted to its own shape.
  bool feedsTensorCores(const Value &V) {
    if (V.type().rank() != 2)
      return false;
    auto It = AllUsers.find(&V);
    if (It == AllUsers.end())
      return false;
    return llvm::all_of(It->second, [&](const Op *U) {
      if (U->kind() == OpKind::Trans)
        return feedsTensorCores(*U->result());
      return tensorCoreLayout(*U, NumWarps, Target) && U->operand(2) != &V;
    });
  }

  /// The slice, along the reduced axis, of the operand's fixed layout if it
  /// has one (an mma accumulator), else, once no more layouts are fixed
  /// (ReduceFromAnchor), of the anchor.
  std::optional<Layout> reductionLayout(const Op &O, unsigned I) {
    const Value &R = *O.result(I);
    auto Axis = O.axis();
    if (auto It = Followed.find(O.operand(I));
        It != Followed.end() && !It->second.SliceDim)
      return Layout{It->second.Parent, Axis};
    if (!ReduceFromAnchor)
      return std::nullopt;
    return Layout{anchor(R.type().rank() + 1).Parent, Axis};
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
      return Layout{R.Parent, O.axis()};
    }
    case OpKind::Store:
      if (auto It = Followed.find(O.operand(1)); It != Followed.end()) {
        if (auto Wider = widerStoreLayout(O, It->second))
          return Layout{*Wider, std::nullopt};
        return It->second;
      }
      return anchor(O.operand(0)->type().rank());
    case OpKind::Yield: {
      const Op *Parent = O.parentBlock()->parentOp();
      return Map.get(Parent->result(I));
    }
    case OpKind::For:
      if (I < 3)
        return std::nullopt;
      return Map.get(O.result(I - 3));
    case OpKind::While:
      return Map.get(O.result(I));
    case OpKind::If:
      return std::nullopt;
    case OpKind::Trans:
      return std::nullopt; // goes through shared memory from any layout
    case OpKind::Split:
      // Into scalars: every thread holds the pair.
      if (O.result()->type().isScalar())
        return Layout{
            defaultBlocked(V->type().Shape, 2, NumWarps, Target.WarpSize, {0}),
            std::nullopt};
      return relabeledOperand(O, Map.get(O.result()));
    case OpKind::Reshape:
    case OpKind::Permute:
    case OpKind::Join:
    case OpKind::Cat:
    case OpKind::Flip:
      // The layout that lets it relabel registers, if any; from any other,
      // its elements go through shared memory.
      return relabeledOperand(O, Map.get(O.result()));
    case OpKind::Sort:
      return std::nullopt; // in a warp or through shared memory: any layout
    case OpKind::Gather:
      // Each thread reads the source elements its index elements name.
      return I == 0 ? std::nullopt : std::optional(Map.get(O.result()));
    case OpKind::Print:
    case OpKind::Assert:
      return std::nullopt; // each thread checks or prints what it holds
    case OpKind::Histogram:
      // Each thread counts what it holds, masked by the mask's elements
      // it holds: values and mask in one layout, as a store's.
      if (O.numOperands() == 1)
        return std::nullopt;
      if (auto It = Followed.find(O.operand(0)); It != Followed.end())
        return It->second;
      return anchor(1);
    case OpKind::Dot: {
      // A computed a goes to tensor cores from registers where the
      // accumulator's layout allows; otherwise a and b go through shared
      // memory from any layout. acc has the result's layout.
      const Layout &R = Map.get(O.result());
      if (I == 0 && R.isMmaAccumulator() &&
          storageBytes(V->type().Elem.Kind) <= 2 && computedOperandA(O))
        if (auto A = mmaOperandA(R.Parent, V->type().Shape[1]))
          return Layout{*A, std::nullopt};
      if (I < 2)
        return std::nullopt;
      return R;
    }
    default:
      if (categoryOf(O.kind()) == OpCategory::Reduce) {
        // A tile reduced along an axis lands in the slice of its layout
        // along that axis; a whole 1-D tile reduces from any layout, but
        // tiles reduced together need one layout (the anchor).
        if (O.result(I)->type().isScalar())
          return O.numOperands() == 1 ? std::nullopt : std::optional(anchor(1));
        return Layout{Map.get(O.result(I)).Parent, std::nullopt};
      }
      // Scans keep their operand's layout (a blocked one).
      return Map.get(O.result(O.kind() == OpKind::Scan ? I : 0));
    }
  }

  Layout anchor(unsigned Rank) { return Anchors.at(Rank); }

  /// Walks ops last to first so each value's users are decided before it.
  void assignBlock(Block &B) {
    for (auto It = B.ops().rbegin(); It != B.ops().rend(); ++It) {
      Op &O = **It;
      for (const auto &R : O.results())
        decide(R.get());
      // Loop-carried values have their results' layouts in every block.
      if (isLoop(O.kind()))
        for (auto &R : O.regions()) {
          unsigned Skip = O.kind() == OpKind::For; // the induction variable
          for (unsigned I = Skip; I < R->arguments().size(); ++I)
            if (!R->argument(I)->type().isScalar())
              Map.set(R->argument(I), Map.get(O.result(I - Skip)));
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
    const Op *Def = V->definingOp();
    // A reduction's own layout, and that of what is computed from it
    // alone; users that want another get a copy.
    if (auto It = Followed.find(V); It != Followed.end()) {
      Map.set(V, It->second);
      return;
    }
    // Split's halves share one layout.
    if (Def && Def->kind() == OpKind::Split && V == Def->result(1)) {
      Map.set(V, Map.get(Def->result(0)));
      return;
    }
    Layout Best = voted(V, Anchor);
    // A tile expand_dims makes for another expand_dims (a rank-3 index from
    // a 1-D one) would need its operand in a slice of a slice: it takes a
    // layout of its own and is converted for its user.
    if (Def && Def->kind() == OpKind::ExpandDims && Best.SliceDim)
      Best = Anchor;
    // A shape op takes a layout it can relabel registers from where one is
    // near; its users that want another get a copy.
    if (Def && isRearrangement(Def->kind()))
      Best = fittedResult(*Def, Best, [&](unsigned R) { return anchor(R); });
    Map.set(V, Best);
  }

  /// The layout most of V's users want (the anchor on ties), so that the
  /// fewest conversions are needed. Loop-carried values and results, and
  /// scans, keep the anchor. An if's results take what their users want,
  /// like any value: the branches' yields then want it too.
  Layout voted(const Value *V, const Layout &Anchor) {
    const Op *Def = V->definingOp();
    auto It = Users.find(V);
    if (It == Users.end() || It->second.empty() || !Def ||
        isLoop(Def->kind()) || Def->kind() == OpKind::Scan)
      return Anchor;
    const auto &Ws = It->second;
    Layout Best = Anchor;
    size_t BestVotes = llvm::count(Ws, Anchor);
    for (const Layout &W : Ws)
      if (size_t Votes = llvm::count(Ws, W); Votes > BestVotes) {
        Best = W;
        BestVotes = Votes;
      }
    return Best;
  }

  void insertConversions() {
    struct Use {
      Op *User;
      unsigned Index;
      Layout Want;
    };
    llvm::SmallVector<Use, 8> Mismatched;
    walk(F.body(), [&](Op &O) {
      for (unsigned I = 0; I < O.numOperands(); ++I)
        if (auto W = wanted(O, I); W && Map.get(O.operand(I)) != *W)
          Mismatched.push_back({&O, I, *W});
    });
    for (const Use &U : Mismatched)
      U.User->setOperand(U.Index, inLayout(U.User->operand(U.Index), U.Want));
  }

  /// V in layout W: V itself, a copy made earlier, a recomputation of V's
  /// index arithmetic in W, or a convert_layout through shared memory. New
  /// ops go right after V's definition, so they serve every use of V.
  Value *inLayout(Value *V, const Layout &W) {
    // A copy in some layout stands for its original.
    if (auto It = OriginOf.find(V); It != OriginOf.end())
      V = It->second;
    if (Map.get(V) == W)
      return V;
    auto Key = std::make_pair(V, W.str());
    if (auto It = Copies.find(Key); It != Copies.end())
      return It->second;
    Value *C = rematerializable(V, W, 0) ? rematerialize(V, W) : convert(V, W);
    Copies[Key] = C;
    OriginOf[C] = V;
    return C;
  }

  /// Index arithmetic from arange and scalars costs a few instructions to
  /// recompute in another layout, and a round trip through shared memory and
  /// two barriers to convert.
  bool rematerializable(const Value *V, const Layout &W, unsigned Depth) {
    const Op *D = V->definingOp();
    if (!D || Depth > 8)
      return false;
    OpKind K = D->kind();
    if (K == OpKind::ExpandDims && W.SliceDim)
      return false;
    if (K != OpKind::Arange && K != OpKind::Splat && K != OpKind::Broadcast &&
        K != OpKind::ExpandDims && !isElementwise(K))
      return false;
    for (unsigned I = 0; I < D->numOperands(); ++I) {
      const Value *O = D->operand(I);
      if (!O->type().isScalar() &&
          !rematerializable(O, operandLayout(*D, W), Depth + 1))
        return false;
    }
    return true;
  }

  /// The layout an operand of D needs for D's result to have layout W.
  static Layout operandLayout(const Op &D, const Layout &W) {
    if (D.kind() == OpKind::ExpandDims)
      return Layout{W.Parent, D.axis()};
    return W;
  }

  Value *rematerialize(Value *V, const Layout &W) {
    Op *D = V->definingOp();
    auto Clone = std::make_unique<Op>(D->kind(), D->loc());
    for (Value *O : D->operands())
      Clone->addOperand(
          O->type().isScalar() ? O : inLayout(O, operandLayout(*D, W)));
    Clone->copyAttributes(*D);
    Value *R = Clone->addResult(F.newValue(V->type()));
    R->setName(V->name());
    Map.set(R, W);
    insertAfterDefinition(V, std::move(Clone));
    return R;
  }

  Value *convert(Value *V, const Layout &W) {
    Op *D = V->definingOp();
    auto Conv =
        std::make_unique<Op>(OpKind::ConvertLayout, D ? D->loc() : SourceLoc{});
    Conv->addOperand(V);
    Value *R = Conv->addResult(F.newValue(V->type()));
    Map.set(R, W);
    insertAfterDefinition(V, std::move(Conv));
    return R;
  }

  static void insertAfterDefinition(Value *V, std::unique_ptr<Op> O) {
    Op *D = V->definingOp();
    if (!D) {
      V->ownerBlock()->insert(0, std::move(O));
      return;
    }
    Block *B = D->parentBlock();
    auto It =
        llvm::find_if(B->ops(), [&](const auto &P) { return P.get() == D; });
    B->insert(It - B->ops().begin() + 1, std::move(O));
  }

  Function &F;
  const AxisInfoAnalysis &AI;
  const AxisInfoAnalysis &Assumptionless;
  unsigned NumWarps;
  TargetDesc Target;
  std::map<unsigned, Layout> Anchors;
  llvm::DenseMap<const Value *, Layout> Followed;
  /// Whether reductions of operands without a fixed layout take the
  /// anchor's slice (followReductions' last rounds).
  bool ReduceFromAnchor = false;
  UserMap AllUsers;
  llvm::DenseMap<const Value *, llvm::SmallVector<Layout, 2>> Users;
  std::map<std::pair<const Value *, std::string>, Value *> Copies;
  llvm::DenseMap<Value *, Value *> OriginOf;
  LayoutMap Map;
};

} // namespace

LayoutMap assignLayouts(Function &F, const AxisInfoAnalysis &AI,
                        unsigned NumWarps, const TargetDesc &Target,
                        const AxisInfoAnalysis *Assumptionless) {
  return Assigner(F, AI, Assumptionless, NumWarps, Target).run();
}

} // namespace tilecc::analysis
