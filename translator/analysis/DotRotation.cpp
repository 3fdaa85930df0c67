//===- DotRotation.cpp - Loops whose last dot is issued an iteration late -===//
//
// Finds Early, Late and the chain between the carried accumulator and Late,
// and checks the conditions DotRotation.h states.
//
//===----------------------------------------------------------------------===//
#include "analysis/DotRotation.h"
#include "llvm/ADT/DenseSet.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

bool elementwise(const Op &O) {
  return O.numResults() == 1 && O.regions().empty() && isElementwise(O.kind());
}

/// Whether dot D multiplies 16- or 8-bit floats into fp32, the products
/// wgmma leaves in flight.
bool narrowFloatProduct(const Op &D) {
  auto Narrow = [](const Value *V) {
    ScalarKind K = V->type().Elem.Kind;
    return K == ScalarKind::F16 || K == ScalarKind::BF16 ||
           K == ScalarKind::F8E4M3 || K == ScalarKind::F8E5M2;
  };
  return Narrow(D.operand(0)) && Narrow(D.operand(1)) &&
         D.result()->type().Elem.Kind == ScalarKind::F32;
}

/// The staged loads dot D reads.
llvm::SmallVector<const Op *, 2> stagedLoads(const PipelinedLoop &P,
                                             const Op &D) {
  llvm::SmallVector<const Op *, 2> Loads;
  for (unsigned I = 0; I < 2; ++I)
    if (const Op *L = stagedSource(P, D.operand(I)).first)
      Loads.push_back(L);
  return Loads;
}

std::optional<RotatedLoop> planRotation(const Op &Loop, const PipelinedLoop &P,
                                        const LayoutMap &LM) {
  const Block &Body = *Loop.region(0);
  if (!P.OwnLoads.empty() || P.AsyncMma || P.Dots.size() != 2)
    return std::nullopt;
  llvm::SmallVector<const Op *, 2> Dots;
  for (const auto &O : Body.ops())
    if (O->kind() == OpKind::Dot)
      Dots.push_back(O.get());
  if (Dots.size() != 2 || !P.Dots.count(Dots[0]) || !P.Dots.count(Dots[1]))
    return std::nullopt;
  RotatedLoop R;
  R.Early = Dots[0];
  R.Late = Dots[1];
  if (!narrowFloatProduct(*R.Early) || !narrowFloatProduct(*R.Late) ||
      LM.get(R.Early->result()).Parent.WarpsPerCTA[0] !=
          LM.get(R.Late->result()).Parent.WarpsPerCTA[0])
    return std::nullopt;
  // Late's result is a carried value nothing else in the loop reads.
  const UserMap Users = users(Body);
  const Value *Acc = R.Late->result();
  const auto &AccUsers = Users.lookup(Acc);
  const Op *Yield = Body.terminator();
  if (AccUsers.size() != 1 || AccUsers.front() != Yield)
    return std::nullopt;
  std::optional<unsigned> Index;
  for (unsigned I = 0; I < Yield->numOperands(); ++I)
    if (Yield->operand(I) == Acc) {
      if (Index)
        return std::nullopt;
      Index = I;
    }
  R.Accumulator = *Index;
  // Back from Late's accumulator operand to the carried argument, through
  // element-wise ops in place (one use each, the accumulator's layout).
  const Value *Carried = Body.argument(*Index + 1);
  const Layout &AccLayout = LM.get(Acc);
  llvm::DenseSet<const Value *> OnChain;
  const Value *V = R.Late->operand(2);
  while (V != Carried) {
    const Op *D = V->definingOp();
    if (!D || D->parentBlock() != &Body || !elementwise(*D) ||
        Users.lookup(V).size() != 1 || V->type() != Acc->type() ||
        LM.get(V) != AccLayout)
      return std::nullopt;
    R.Chain.insert(R.Chain.begin(), D);
    OnChain.insert(V);
    const Value *Next = nullptr;
    for (const Value *O : D->operands())
      if (O->type() == Acc->type() && LM.get(O) == AccLayout &&
          (O == Carried ||
           (O->definingOp() && O->definingOp()->parentBlock() == &Body &&
            elementwise(*O->definingOp())))) {
        if (Next)
          return std::nullopt; // two candidates: which one is ambiguous
        Next = O;
      }
    if (!Next)
      return std::nullopt;
    V = Next;
  }
  if (Users.lookup(Carried).size() != 1)
    return std::nullopt;
  // The chain's values have one use each, the next op's accumulator
  // operand; Late's factors must come from the earlier iteration.
  for (unsigned I = 0; I < 2; ++I)
    if (OnChain.count(R.Late->operand(I)) || R.Late->operand(I) == Carried)
      return std::nullopt;
  // Each ring's loads are read by its dot alone.
  auto EarlyLoads = stagedLoads(P, *R.Early);
  auto LateLoads = stagedLoads(P, *R.Late);
  if (LateLoads.empty() || EarlyLoads.empty())
    return std::nullopt;
  for (const Op *L : LateLoads) {
    if (llvm::is_contained(EarlyLoads, L))
      return std::nullopt;
    R.LateLoads.push_back(
        std::distance(P.Loads.begin(), llvm::find(P.Loads, L)));
  }
  llvm::sort(R.LateLoads);
  return R;
}

/// What a rotated loop holds in registers a thread: Early's product and
/// Late's accumulator, both in flight, and Late's register operand twice.
unsigned rotatedRegisters(const RotatedLoop &R, const PipelinedLoop &P) {
  unsigned Regs = tileRegisters(*R.Early->result(), P.Threads) +
                  tileRegisters(*R.Late->result(), P.Threads);
  if (!stagedSource(P, R.Late->operand(0)).first)
    Regs += 2 * tileRegisters(*R.Late->operand(0), P.Threads);
  return Regs;
}

} // namespace

llvm::DenseMap<const Op *, RotatedLoop>
planRotations(llvm::ArrayRef<const Op *> Fed,
              const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
              const LayoutMap &LM, unsigned RegistersPerThread,
              std::string &WhyNot) {
  // Addresses, row statistics, loop state.
  constexpr unsigned Others = 32;
  llvm::DenseMap<const Op *, RotatedLoop> Rotated;
  for (const Op *Loop : Fed) {
    const PipelinedLoop &P = Plans.find(Loop)->second;
    auto R = planRotation(*Loop, P, LM);
    if (!R ||
        (!Rotated.empty() && R->LateLoads != Rotated.begin()->second.LateLoads))
      return llvm::DenseMap<const Op *, RotatedLoop>();
    if (unsigned Regs = rotatedRegisters(*R, P);
        Regs + Others > RegistersPerThread) {
      WhyNot = "not rotated: the loop at line " +
               std::to_string(Loop->loc().Line) + " would hold " +
               std::to_string(Regs) + " of the consumers' " +
               std::to_string(RegistersPerThread) + " registers a thread";
      return llvm::DenseMap<const Op *, RotatedLoop>();
    }
    Rotated[Loop] = std::move(*R);
  }
  return Rotated;
}

} // namespace tilecc::analysis
