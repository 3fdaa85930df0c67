//===- Pipelining.h - Loops whose dot operands can be prefetched -*- C++
//-*-===//
//
// Triton's software pipelining, decided here and carried out by the device
// emitter: in a `for` loop, a load whose tile feeds only tensor-core dots
// (directly or through trans) is "staged": it becomes an asynchronous copy
// into one of num_stages shared-memory buffers, issued num_stages - 1
// iterations ahead, and the dots read the buffer. The ops that compute a
// staged load's pointers and mask (its slice) are re-run for the iteration
// being prefetched, so they may depend only on the induction variable,
// values from outside the loop and pointer tiles the loop carries, advancing
// them by a loop-invariant step each iteration. num_stages is the
// configuration's, or the loop's own from tile::range; in a loop that names it,
// the other tile loads are staged too, each thread copying and reading back its
// own elements (CUDA targets, which have cp.async). A load of memory the loop
// writes is not staged: its prefetch would read before the write.
// Loop-invariant A operands that registers cannot hold beside the loop's
// accumulators, or that ptxas may overwrite in wgmma's registers, are written
// to shared memory once, before the loop, and so are the loop-invariant B
// operands of the other tensor-core dots.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_PIPELINING_H
#define TILECC_ANALYSIS_PIPELINING_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace tilecc::analysis {

struct PipelinedLoop {
  unsigned NumStages = 0;
  /// Staged loads feeding dots, in program order.
  llvm::SmallVector<const ir::Op *, 4> Loads;
  /// Staged loads feeding other ops (loops with a num_stages hint), in
  /// program order: each thread stages the elements it holds.
  llvm::SmallVector<const ir::Op *, 4> OwnLoads;
  /// Threads of the program (the size of an OwnLoads stage).
  unsigned Threads = 0;
  /// Whether the step is a constant, hence known to be positive; with a
  /// step known only at run time, prefetches also check that it is.
  bool ConstantStep = true;
  /// The loads' slices: what the prefetch re-runs. The ops computing
  /// Advances' steps come first (they depend on nothing the loop changes),
  /// then the others, each part in program order.
  llvm::SmallVector<const ir::Op *, 16> Slice;
  /// How many of Slice's ops compute Advances' steps.
  unsigned StepOps = 0;
  /// Loop-carried pointer tiles the slices read, each with the
  /// loop-invariant amount its iteration adds to it (Triton's
  /// `a_ptrs += BK * stride`): a prefetch k iterations ahead reads the
  /// carried tile plus k steps.
  llvm::SmallVector<std::pair<const ir::Value *, const ir::Value *>, 2>
      Advances;
  /// Ops of the loop body that the pipelined body leaves out: the staged
  /// loads feeding dots, trans of them, and slice ops nothing else uses
  /// (an OwnLoads read-back still uses its mask).
  llvm::DenseSet<const ir::Op *> ProducerOnly;
  /// Dots whose operands both come from staged loads.
  llvm::DenseSet<const ir::Op *> Dots;
  /// Loop-invariant A operands of Dots held as mma fragments that the loop
  /// reads from shared memory instead, written there once before it
  /// (ResidentReason says why); in program order.
  llvm::SmallVector<const ir::Value *, 2> Resident;
  enum class Residence {
    /// They and the loop's carried tiles would leave a thread fewer than
    /// IterationRegisters of its registers.
    Registers,
    /// With wgmma, ptxas may overwrite them (LoopInvariantA.h).
    PtxasOverwrite,
    /// 8-bit ones, whose fragments every iteration would exchange among
    /// threads again (rt::fragment_operand).
    Exchange,
  };
  Residence ResidentReason = Residence::Registers;
  /// Loop-invariant B operands of the body's other tensor-core dots (those
  /// not in Dots, which stage their register operands in the kernel's
  /// scratch at every call), written to shared memory once before the loop
  /// instead; in program order.
  llvm::SmallVector<const ir::Value *, 2> ResidentB;
  /// Whether the dots may stay in flight while the iteration goes on
  /// (wgmma): each only accumulates into a loop-carried value nothing else
  /// in the loop reads. The previous iteration's stage is then free only
  /// once every warp has waited for its previous dot, so the prefetch
  /// comes after the body and a barrier.
  bool AsyncMma = false;
  /// Whether, with AsyncMma, the refill waits at a barrier for every
  /// warp's previous dot. Not where one warpgroup multiplies with wgmma: a
  /// wgmma-group belongs to the warpgroup, so each thread's own wait for
  /// its previous group already covers the whole product reading the stage.
  bool RefillBarrier = true;
  /// Whether the body's dots, where not AsyncMma, may leave their products
  /// in flight until an op reads them (wgmma, whose groups retire in
  /// order): the iteration then waits, for the products that op needs,
  /// only there, and for all of them before it releases its stage. The
  /// tensor cores multiply while the warps compute what needs no product
  /// yet (attention's dK/dV step: dS during P^T dO).
  bool WaitAtFirstUse = false;
};

/// Registers a thread keeps for a pipelined loop's own tiles (scores,
/// probabilities): its carried tiles and loop-invariant A fragments get
/// the rest of what the launch bounds leave it; beyond, those fragments go
/// to shared memory.
inline constexpr unsigned IterationRegisters = 88;
/// What the target offers a pipelined loop.
struct PipelineTarget {
  /// cp.async, for OwnLoads.
  bool AsyncCopies = false;
  /// wgmma, whose loop-invariant register A operands ptxas may overwrite
  /// (LoopInvariantA.h).
  bool Wgmma = false;
  /// Registers a thread has (registersAtEntry: the configuration's
  /// programs an SM share the SM's registers).
  unsigned Registers = 248;
};

/// What a loop that names 2 or more stages (tile::range) does not get that
/// its author asked for: the loop is left plain (Load null), or one of its
/// tile loads is not staged. Why is a predicate of that load ("reads
/// memory the loop writes, ...") or, for a plain loop, a sentence.
struct UnstagedLoop {
  const ir::Op *Loop;
  const ir::Op *Load;
  std::string Why;
};

/// Pipelined loops of F by their For op: NumStages is the configuration's
/// (loops are pipelined with 2 or more), Threads its thread count. Where
/// the target has asynchronous copies, what loops that name their stages
/// leave unstaged is added to Unstaged (elsewhere transforms/RegisterPrefetch
/// takes those hints).
llvm::DenseMap<const ir::Op *, PipelinedLoop>
planPipelines(const ir::Function &F, const LayoutMap &LM, unsigned NumStages,
              unsigned Threads, PipelineTarget Target,
              std::vector<UnstagedLoop> *Unstaged = nullptr);

/// Whether V is a zero constant, maybe splat or broadcast (what cp.async
/// and TMA write for masked-off elements).
bool isZeroConstant(const ir::Value *V);

/// Whether O is a dot on tensor cores (its accumulator an mma layout).
bool isTensorCoreDot(const ir::Op &O, const LayoutMap &LM);

/// 32-bit registers a thread's share of tile V takes, spread over Threads.
unsigned tileRegisters(const ir::Value &V, unsigned Threads);

/// The staged load a dot operand reads (through one trans or none), and
/// whether a trans sits in between; null if the operand is not staged.
std::pair<const ir::Op *, bool> stagedSource(const PipelinedLoop &P,
                                             const ir::Value *Operand);

} // namespace tilecc::analysis

#endif
