//===- EntryRegisters.cpp - Registers ptxas needs a thread at entry -------===//
//
// Measures each wgmma a dot issues against ptxas's rule (EntryRegisters.h).
//
//===----------------------------------------------------------------------===//
#include "analysis/EntryRegisters.h"
#include <algorithm>

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

/// What ptxas needs beyond the instruction's own register operands.
constexpr unsigned PtxasOwnRegisters = 26;
/// The registers of A's fragment for one wgmma taking A from registers.
constexpr unsigned FragmentRegisters = 4;
constexpr unsigned RegistersPerSM = 65536, MaxRegistersPerThread = 255;

/// Whether dot D takes its A operand from shared memory although A's
/// layout holds its fragments.
bool operandAInSharedMemory(
    const Op &D, const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
    llvm::ArrayRef<const Op *> CopiedOperands) {
  const Value *A = D.operand(0);
  // A copied load reaches its dots through layout conversions.
  const Value *Source = A;
  while (Source->definingOp() &&
         Source->definingOp()->kind() == OpKind::ConvertLayout)
    Source = Source->definingOp()->operand(0);
  if (llvm::is_contained(CopiedOperands, Source->definingOp()))
    return true;
  for (const auto &[Loop, P] : Plans)
    if (P.Dots.count(&D))
      return stagedSource(P, A).first || llvm::is_contained(P.Resident, A);
  return false;
}

} // namespace

std::string WidestWgmma::describe() const {
  return "the 64 x " + std::to_string(Columns) + " wgmma of the dot at line " +
         std::to_string(Dot->loc().Line);
}

WidestWgmma widestWgmma(const Function &F, const LayoutMap &LM,
                        const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
                        llvm::ArrayRef<const Op *> CopiedOperands) {
  WidestWgmma Widest;
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::Dot || !LM.has(O.result()))
      return;
    const Layout &Acc = LM.get(O.result());
    if (!Acc.isMmaAccumulator() || Acc.rank() != 2)
      return;
    // A transposed accumulator's wgmmas multiply C^T = B^T A^T, with B^T's
    // fragments gathered into registers.
    const bool Transposed = Acc.isTransposedMmaAccumulator();
    const BlockedLayout Issued =
        Transposed ? transposed(Acc.Parent) : Acc.Parent;
    if (Issued.WarpsPerCTA[0] % 4 != 0)
      return;
    const int64_t WarpColumns = Issued.warpTile(1);
    unsigned Columns = 256;
    while (Columns > 8 && WarpColumns % Columns != 0)
      Columns /= 2;
    const Value &A = *O.operand(0);
    const bool AInRegisters =
        Transposed || (LM.has(&A) &&
                       holdsOperandA(LM.get(&A), Acc, A.type().Shape[1],
                                     storageBytes(A.type().Elem.Kind)) &&
                       !operandAInSharedMemory(O, Plans, CopiedOperands));
    const unsigned Registers = Columns / 2 + PtxasOwnRegisters +
                               (AInRegisters ? FragmentRegisters : 0);
    if (Registers > Widest.Registers)
      Widest = {&O, Columns, Registers};
  });
  return Widest;
}

unsigned registersAtEntry(unsigned Threads, unsigned Programs) {
  return std::min(MaxRegistersPerThread,
                  RegistersPerSM / std::max(Programs, 1u) / Threads) /
         8 * 8;
}

} // namespace tilecc::analysis
