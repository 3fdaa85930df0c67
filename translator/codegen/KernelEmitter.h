//===- KernelEmitter.h - One kernel's device code, statement by statement -===//
//
// The device emitter's state and steps, shared by the files that implement
// them: DeviceEmitter.cpp (uses, names, expressions, statements, memory,
// control flow, reductions, dots), PipelineEmitter.cpp (software
// pipelines: stage rings, prefetches, cp.async and TMA copies, the
// pipelined loop) and RotatedLoop.cpp (pipelined loops whose last dot is
// issued an iteration late). Private to codegen; emitKernel
// (DeviceEmitter.h) is the interface.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_KERNELEMITTER_H
#define TILECC_CODEGEN_KERNELEMITTER_H

#include "codegen/DeviceEmitter.h"
#include "codegen/EmissionPlan.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace tilecc::codegen {

/// Whether any of the kernel's TMA accesses writes memory (a store or an add).
inline bool writesByTma(const analysis::TensorMapOps &Tma) {
  return llvm::any_of(
      Tma, [](const auto &E) { return analysis::writesBox(*E.first); });
}

class KernelEmitter {
public:
  KernelEmitter(const ir::Function &F, const analysis::LayoutMap &LM,
                const analysis::AxisInfoAnalysis &AI, const Pipelines &Plans,
                const TensorMapOps &Tma, const LayoutNamer &NameLayout,
                const std::string &SourcePath, const ProducerPlan &Producer,
                const EmissionPlan &EP, bool DynamicScratch)
      : F(F), LM(LM), AI(AI), Plans(Plans), Tma(Tma), Producer(Producer),
        EP(EP), DynamicScratch(DynamicScratch), NameLayout(NameLayout),
        SourcePath(SourcePath) {}

  EmittedKernel run();

private:
  /// Declares, at the kernel's start, the divisors of the arguments that
  /// divide tiles in loops (EmissionPlan::Divisors), where such a
  /// division is emitted.
  void declareDivisors();

  //===--- Use analysis ---------------------------------------------------===//

  void countUses(const ir::Block &B);

  /// Ops that take many instructions per element: divisions, library
  /// functions, random numbers.
  static bool isCostly(const ir::Op &O);

  /// Ops that are one tile::rt call on whole register arrays (their
  /// operands and results are arrays, never folded expressions).
  static bool takesWholeTiles(ir::OpKind K);

  /// Tiles that get a register array; the rest are folded into their users.
  bool materialized(const ir::Value *V);
  /// Whether O, a materialized cast of floats to 8-bit floats, converts
  /// its elements two at a time (rt::convert_pair).
  bool convertsInPairs(const ir::Op &O);

  //===--- Names ----------------------------------------------------------===//

  /// Names the generated code uses itself: the element index, the runtime
  /// namespace, CUDA/HIP built-ins, and the shapes of temporaries (t12) and
  /// layout aliases (L3).
  static bool isReserved(llvm::StringRef N);

  std::string nameOf(const ir::Value *V);

  /// Base, or Base_1, Base_2 ... if taken.
  std::string fresh(const std::string &Base);

  std::string layoutOf(const ir::Value *V);

  unsigned elems(const ir::Value *V);

  //===--- Expressions ----------------------------------------------------===//

  std::string literal(const ir::Op &O);

  /// The value of scalar V as an expression.
  std::string scalar(const ir::Value *V);

  /// Element Idx of tile V as an expression.
  std::string elem(const ir::Value *V, const std::string &Idx);

  std::string operandExpr(const ir::Op &O, unsigned I, const std::string &Idx);

  /// What op O computes for element Idx (or the scalar it computes).
  std::string compute(const ir::Op &O, const std::string &Idx);

  template <class ArgFn> std::string arithmetic(const ir::Op &O, ArgFn A);

  //===--- Inline assembly (EmitInlineAsm.cpp) ----------------------------===//

  /// Inline assembly O of pack 1 on one element, Args its operands'
  /// expressions: a lambda called in place, each value moving through a
  /// register of its constraint's type with its bits unchanged.
  std::string inlineAsm(const ir::Op &O, llvm::ArrayRef<std::string> Args);

  /// Inline assembly O of a pack above 1: its result's register array, the
  /// text run once per `pack` consecutive elements of the thread (the last
  /// group padded).
  void emitPackedAsm(const ir::Op &O);

  //===--- Statements -----------------------------------------------------===//

  /// Writes S on a line of its own, Shift levels deeper than the current
  /// depth (the statement under an `if` line; -1 closes the current scope).
  void line(const std::string &S, int Shift = 0);

  /// Writes the lines of its lifetime Levels deeper: the body of a block.
  class Nested {
  public:
    explicit Nested(KernelEmitter &E, unsigned Levels = 1)
        : E(E), Levels(Levels) {
      E.Depth += Levels;
    }
    ~Nested() { E.Depth -= Levels; }
    Nested(const Nested &) = delete;
    Nested &operator=(const Nested &) = delete;

  private:
    KernelEmitter &E;
    unsigned Levels;
  };

  void lineDirective(const ir::Op &O);

  std::string loopHeader(unsigned N, unsigned Step = 1);
  /// Adds dot O's steps to DotSteps (and Float8DotSteps).
  void countDot(const ir::Op &O);

  /// `const int n` or, for pointers, `float *const p`.
  std::string constDecl(const ir::Value *V, const std::string &Name = "");

  void declareTile(const ir::Value *V);

  /// Declares a register array named Name holding a tile like V (a copy
  /// of V, e.g. a prefetch's value several iterations ahead).
  void declareTileAs(const ir::Value *V, const std::string &Name);

  /// Copies tile or scalar From into the storage named To.
  void assignValue(const ir::Value *To, const std::string &ToName,
                   const ir::Value *From);

  void emitBlock(const ir::Block &B);

  void emitOp(const ir::Op &O);

  /// emitOp, first waiting for the products in flight that O needs
  /// (awaitProductsFor).
  void emitOpAfterProducts(const ir::Op &O);

  /// Elements per access: what the layout gives each thread contiguously,
  /// cut down to what axis info proves about the pointers and the mask, and
  /// to 16 bytes.
  unsigned accessWidth(const ir::Op &O);

  std::string maskExpr(const ir::Op &O, const std::string &Idx);

  void emitLoad(const ir::Op &O);

  /// A TMA store: the tile goes to a swizzled shared-memory buffer after
  /// the kernel's pipeline stages, then one thread asks the TMA unit to
  /// write the box, which leaves out what lies outside the tensor (the
  /// mask). The buffer is reused once the previous store has read it.
  void emitTmaStore(const ir::Op &O);

  void emitStore(const ir::Op &O);

  /// One atomic per element this thread owns (replicas skip it), between
  /// the fences its memory order asks for. A scalar atomic runs once per
  /// program and every thread gets the old value.
  void emitAtomic(const ir::Op &O);

  void declareResult(const ir::Value *R, const ir::Value *Init);

  /// Assigns a block's yielded values to its parent's results. A loop's
  /// carried values live in its results' storage, so with more than one all
  /// are read before any is written (the loop may swap them); an `if`'s
  /// branches never read its results, which are assigned directly.
  void emitYield(const ir::Op &Parent, const ir::Block &B);

  void emitFor(const ir::Op &O);

  /// Declares loop O's carried values (its results' storage, which the
  /// body's arguments name), initialized.
  void declareCarried(const ir::Op &O);

  /// The bins of each histogram loop O sums (EP.Histograms): declared and
  /// cleared before the loop, added to the carried counts after it.
  void openLoopHistograms(const ir::Op &O);
  void closeLoopHistograms(const ir::Op &O);

  /// Fn<dim, layout>(sum, Arg) for each carried value of loop O held as
  /// partial sums (LaneSums) whose flag Where is set: split among the
  /// lanes before the loop (rt::keep_first_lane), combined after it
  /// (rt::combine_lanes).
  void onLaneSums(const ir::Op &O,
                  bool analysis::DeferredLaneSums::PartialSum::*Where,
                  const std::string &Fn, const std::string &Arg);

  /// Opens `for` op O: `for (int i = lo; i < hi; i += step) {`, or from
  /// From instead of lo, after the `#pragma unroll` of its
  /// loop_unroll_factor.
  void openFor(const ir::Op &O, const std::string &From = "");

  //===--- Software pipelining --------------------------------------------===//

  /// Names of a pipeline's state, by its loop: the stage barriers (TMA),
  /// the stage being read and its phase, and a flattened one's cursor.
  struct PipelineState {
    std::string Full, Empty, Read, Phase, NextOuter, NextInner;
    /// The second ring's barriers (rotated loops' late loads), if any.
    std::string FullLate, EmptyLate;
    llvm::SmallVector<std::string, 4> Carried;
    /// Where the ring and its barriers end in dynamic shared memory.
    unsigned End = 0;
  };

  /// Whether the staged load's tile sits in shared memory transposed
  /// (its contiguous dimension is 0).
  bool storedTransposed(const ir::Op &L);

  /// The shared-memory tile type holding a tile of type T (Swap: stored
  /// transposed).
  static std::string smemTileType(const ir::Type &T, bool Swap = false);

  /// The shared-memory tile type of one stage of staged load L, or of the
  /// buffer of a TMA store.
  std::string stageType(const ir::Op &L);

  /// A parameter or constant scalar as the launch wrapper spells it.

  /// The stage tile of staged load L at stage S: `x_stage{x_ring + S *
  /// x_stage::elems}`.
  std::string stageTile(const ir::Op &L, const std::string &S);

  /// Asynchronous copies of pipeline P's staged load L's tile into stage S,
  /// for the elements where Live holds; copies narrower than cp.async's 4
  /// bytes (the unaligned variants) are done at once. A thread-staged load's
  /// thread copies every element it holds, replicas included, into its own
  /// slots; a dot operand's, the elements it owns, into the shared tile.
  void emitStagedCopy(const analysis::PipelinedLoop &P, const ir::Op &L,
                      const std::string &S, const std::string &Live);

  /// Thread-staged load L in the body: this thread reads its elements back
  /// from this iteration's stage; masked-off ones take L's other value.
  void emitOwnStagedRead(const ir::Op &L);

  /// The prefetch of the iteration whose induction variable is Iv (an
  /// expression), Ahead iterations after the current one, into stage S:
  /// the slice re-run with the induction variable's own name bound to Iv
  /// and the carried pointers' to theirs advanced Ahead steps, then the
  /// copies. Past the loop's end the copies read nothing and fill zeros;
  /// leaving them unconditional lets the compiler hoist their per-thread
  /// address arithmetic.
  void emitPrefetch(const ir::Op &Loop, const analysis::PipelinedLoop &P,
                    const std::string &Iv, const std::string &Ahead,
                    const std::string &S);

  /// The coordinates of Map's box, innermost first.
  std::string boxCorner(const analysis::TensorMapAccess &Map);

  /// The TMA form of a prefetch: one thread re-runs the scalar ops the
  /// boxes' starts need, tells stage S's barrier how many bytes to expect
  /// and asks for every staged load's box. A flattened pipeline's prefetch
  /// binds the outer induction variable too (to the cursor's) and re-runs
  /// the outer body's ops the starts need.
  void emitTmaPrefetch(const ir::Op &Loop, const analysis::PipelinedLoop &P,
                       const std::string &Iv, const std::string &S);

  /// The copies of one TMA prefetch into stage S, by the thread issuing
  /// them: the scalar ops the boxes' starts need, the stage's barrier of
  /// ring St.Full told how many bytes to expect, one tma_load_tile per
  /// staged load. With a second ring (rotated loops), the late loads wait
  /// for its stage S to be released (phase Phase) and complete on it.
  void emitTmaCopies(const analysis::PipelinedLoop &P, const PipelineState &St,
                     const std::string &S, const std::string &Phase);

  /// One ring's part of emitTmaCopies: stage S's barrier of ring Full told
  /// the bytes of Loads, and their copies.
  void emitTmaLoads(llvm::ArrayRef<const ir::Op *> Loads,
                    const std::string &Full, const std::string &S);

  /// Splits a warp-specialized program at its top: the ring of stages and
  /// its full and empty barriers, then the producer warpgroup, which gives
  /// up registers while its first thread re-runs the scalars the loops
  /// need and walks every fed loop's iterations in order, waiting for each
  /// stage to be released before it refills it; then the producer
  /// returns. The consumers take the registers it gave up.
  void emitSplit();

  /// The producer's walk of block B: the scalar ops it re-runs, the loops
  /// around fed loops, and for each fed loop's iteration, the wait for
  /// the stage named Stage (its phase: Phase) to be released, its copies,
  /// and the step to the next stage.
  void emitProducerBlock(const ir::Block &B, const std::string &Stage,
                         const std::string &Phase);

  /// A block barrier among the threads running this code: the program's,
  /// or after a warp-specialized program's split, the consumers' (named
  /// barrier 1), since the producer does not arrive at those.
  std::string barrier() const;

  /// The tile::rt helpers' template argument saying which threads their
  /// block barriers wait for: empty for all of them, ", N" for the first N.
  std::string syncArg() const;

  /// Declares pipelined loop O's stage rings in dynamic shared memory, for
  /// TMA one full mbarrier per stage (and with a producer, one empty; where
  /// loops rotate, a full and an empty one more for the late loads), and
  /// the read position.
  void allocateStages(const ir::Op &O, const analysis::PipelinedLoop &P);

  /// Moves a flattened pipeline's cursor to the outer iteration its outer
  /// induction variable names: re-runs the outer body's ops the box starts
  /// need and keeps what they read.
  void emitCursorOuter(const ir::Op &Loop);

  /// A flattened pipeline's prefetch of the iteration its cursor is at,
  /// into stage S, then the cursor's step to the next iteration of the
  /// loop nest.
  void emitCursorPrefetch(const ir::Op &Loop, const analysis::PipelinedLoop &P,
                          const std::string &S);

  /// Triton's pipelined loop: a prologue prefetches the first NumStages - 1
  /// iterations' staged loads; each iteration waits for its own stage,
  /// prefetches NumStages - 1 iterations ahead into the stage the previous
  /// iteration read, and runs the body with dots reading shared memory.
  /// With AsyncMma the dots return while their product is still being
  /// computed, once the previous one is done; the prefetch then follows
  /// the body and a barrier. A flattened pipeline was opened around the
  /// enclosing loop; its prefetches follow a cursor over the loop nest.
  void emitPipelinedFor(const ir::Op &O, const analysis::PipelinedLoop &P);

  /// Opens the block of loop O's pipeline: the stage rings, for TMA one
  /// mbarrier per stage, the read position and the prologue. A flattened
  /// pipeline also gets a cursor (the outer and inner induction variables
  /// of the next iteration to prefetch). A loop a producer feeds takes the
  /// ring set up before the split.
  void openPipeline(const ir::Op &O, const analysis::PipelinedLoop &P);

  /// Declares, from Offset on, the buffer of each A operand the producer
  /// copies (ProducerPlan::OperandLoads) and its full and empty barriers;
  /// returns the barriers with their arrival counts, for the thread that
  /// initializes the ring's.
  llvm::SmallVector<std::pair<std::string, unsigned>, 2>
  declareOperandBuffers(unsigned &Offset);

  /// The producer's copy of operand load L: it waits for the consumers to
  /// release the buffer, then asks for the box.
  void issueOperandCopy(const ir::Op &L);

  /// The consumers' side of operand load L: they wait for its box where
  /// the load was, and release the buffer after its block's last statement
  /// that reads it.
  void awaitOperand(const ir::Op &L);
  /// Steps Slot and Phase to the next of an operand's Slots buffers.
  void nextOperandSlot(unsigned Slots, const std::string &Slot,
                       const std::string &Phase);
  void releaseOperand(const ir::Op &L);

  /// Writes loop O's resident A operands (PipelinedLoop::Resident) to
  /// shared memory after its ring, for its dots to read.
  void stageResidents(const ir::Op &O, const analysis::PipelinedLoop &P);

  /// A dot of staged operands: tensor cores read this iteration's stage
  /// (and a from registers when it is not staged); a dot left in flight
  /// (AsyncMma, or InPlace) accumulates into its accumulator operand's
  /// storage. Issue: a rotated loop's dot, issued and waited for later.
  void emitStagedDot(const ir::Op &O, bool Issue = false, bool InPlace = false);

  /// Whether staged dot O leaves its product in flight
  /// (PipelinedLoop::WaitAtFirstUse): whether another tensor-core dot
  /// follows it in its block before anything reads it, ends the block or
  /// opens another. Elsewhere ptxas may serialize the wgmmas around the
  /// iteration's other instructions, for little to overlap with.
  bool leavesInFlight(const ir::Op &O) const;

  /// The TMA store or add of Body, a TMA-fed pipelined loop's, that comes
  /// after every dot reading P's stages, if any: its block barrier, reached
  /// once those products are waited for, tells the next iteration's
  /// prefetch that every warp is done with the stage it refills, so the
  /// loop needs no barrier of its own.
  const ir::Op *stageFreeingStore(const ir::Block &Body,
                                  const analysis::PipelinedLoop &P) const;

  /// Before O: waits for the products in flight that O reads, and for
  /// those issued before them (all of them before a for, if or while, or
  /// StageFreeingStore).
  void awaitProductsFor(const ir::Op &O);

  /// Waits for every product in flight.
  void awaitAllProducts();

  /// Waits for the first Retired products in flight (for Reader, if given),
  /// leaving the others in flight.
  void awaitProducts(unsigned Retired, const ir::Op *Reader = nullptr);

  /// The wait for stage Stage of a pipeline's ring (Phase), or its release
  /// by this warp where If holds; Late: the second ring (a rotated loop's
  /// late loads).
  void waitStage(const PipelineState &St, const std::string &Stage,
                 const std::string &Phase, bool Late);
  void releaseStage(const PipelineState &St, const std::string &Stage,
                    bool Late, const std::string &If = "");

  /// The step of a ring position Stage (and its Phase, if TMA's) to the
  /// next of Stages stages.
  void advanceStage(const std::string &Stage, const std::string &Phase,
                    unsigned Stages);

  /// A rotated loop (analysis/DotRotation.h): its first iteration without
  /// the late part, then iterations that issue their first dot, the
  /// previous iteration's late part (the chain in place, the late dot
  /// issued), wait for the first dot and run the rest, then the last
  /// iteration's late part.
  void emitRotatedFor(const ir::Op &O, const analysis::PipelinedLoop &P,
                      const analysis::RotatedLoop &R);

  /// What a rotated loop's late part reads of the iteration before: the
  /// body's register arrays and scalars its ops read, directly or through
  /// ops folded into them.
  llvm::SmallVector<const ir::Value *, 4>
  crossingValues(const ir::Op &Loop, const analysis::RotatedLoop &R);

  /// A rotated loop's late part on accumulator storage Acc, reading the
  /// iteration before's values from Prior and its late loads from stage
  /// Stage: the chain in place, then the late dot, issued (Issue) or
  /// waited for.
  void emitLatePart(const analysis::RotatedLoop &R, const std::string &Acc,
                    const llvm::DenseMap<const ir::Value *, std::string> &Prior,
                    const std::string &Stage, bool Issue);

  void emitIf(const ir::Op &O);

  void emitWhile(const ir::Op &O);

  /// A reduction's or scan's combine: a lambda over the accumulated values
  /// and the next ones, as the user wrote it. Returns what rt::reduce and
  /// rt::scan take: the lambda itself for one value, adapted to packs for
  /// several.
  std::string emitCombine(const ir::Op &O);

  std::string packType(const ir::Op &O);

  /// The register array a reduction or scan combines: the operand's own, or
  /// for several operands one of packs.
  std::string combinedInput(const ir::Op &O);

  /// Declares the results of a reduction or scan and returns the register
  /// array its tile::rt call writes: the result's own, or one of packs that
  /// unpackResults then spreads over the results.
  std::string combinedOutput(const ir::Op &O);

  void unpackResults(const ir::Op &O, const std::string &Out);

  /// Reductions are one tile::rt call each: per thread, then across the
  /// warp's lanes with shuffles, then across warps through shared memory.
  void emitReduce(const ir::Op &O);

  /// Scans are one tile::rt call: per thread, across lanes, across warps.
  void emitScan(const ir::Op &O);

  /// A histogram is one tile::rt call counting into bins in the scratch
  /// buffer with shared-memory atomics; one its loop sums counts into the
  /// loop's bins (LoopBins) and is zero until the loop ends.
  void emitHistogram(const ir::Op &O);

  /// reshape, permute, join, split, cat and flip: registers relabeled
  /// where the layouts allow (analysis/ShapeLayouts), else through the
  /// scratch buffer; sort and gather through the scratch buffer.
  void emitRearrangement(const ir::Op &O);

  /// The kernel's scratch buffer, for O to pass Bytes of tiles through
  /// (with 1024-byte alignment when Swizzled: tensor-core operands): its
  /// name.
  const std::string &scratch(const ir::Op &O, unsigned Bytes,
                             bool Swizzled = false);

  /// Counts the static buffer a reduction or scan across warps declares
  /// inside the runtime (one per instance, Instance its call's template).
  void countPartials(const ir::Op &O, const std::string &Instance);

  /// dot on tensor cores when layout assignment gave the result an mma
  /// accumulator layout, else on CUDA cores; a and b are staged in shared
  /// memory from whatever layout they have, except that rt::dot_mma takes
  /// a from registers when its layout holds the mma A fragments.
  void emitDot(const ir::Op &O);
  /// Shared memory rt::dot_mfma stages matrix-core dot O's operands in.
  unsigned mfmaStagingBytes(const ir::Op &O) const;
  /// Before loop O: the buffers its dots stage their operands in an
  /// iteration ahead, the first iteration's operands staged in them.
  void openStagedAhead(const ir::Op &O);
  /// At the end of loop O's body, after its yield: the next iteration's
  /// operands staged in the other buffers.
  void stageAhead(const ir::Op &O);
  /// rt::mfma_stage of matrix-core dot D's operands into Buf.
  void stageOperands(const ir::Op &D, const std::string &Buf);

  /// The TMA store or add that follows dot O in its block before any op
  /// that may write the scratch (a layout conversion, transpose or dot
  /// outside a pipeline, or a block holding one), if any and if the block's
  /// ops are emitted in order. A dot staging its operands then leaves its
  /// last barrier to the store's and waits for the store's buffer before
  /// its own (rt::then::tma_store).
  const ir::Op *storeAfterStagingDot(const ir::Op &O);

  /// device_print: a printf per owned element (EmitDebug.cpp).
  void emitPrint(const ir::Op &O);
  /// device_assert: rt::assert_fail where an owned element's condition is
  /// false.
  void emitAssert(const ir::Op &O);

  /// Moves a tile between layouts through shared memory: every thread
  /// writes its elements at their row-major position, then reads the
  /// elements the new layout gives it.
  void emitConvert(const ir::Op &O);

  const ir::Function &F;
  const analysis::LayoutMap &LM;
  const analysis::AxisInfoAnalysis &AI;
  const Pipelines &Plans;
  const TensorMapOps &Tma;
  const ProducerPlan Producer;
  /// What the variant leaves out or folds (EmissionPlan.h).
  const EmissionPlan &EP;
  /// Whether the scratch buffer lives in dynamic shared memory (after the
  /// pipelines' buffers) rather than static.
  const bool DynamicScratch;
  /// Whether the code being emitted follows a warp-specialized split.
  bool Split = false;
  /// Per TMA load: its tensor map parameter.
  llvm::DenseMap<const ir::Op *, std::string> MapNames;
  /// The divisor made of each argument (declareDivisors).
  llvm::DenseMap<const ir::Value *, std::string> DivisorNames;
  llvm::DenseMap<const ir::Op *, PipelineState> States;
  /// The pipelined loop whose body is being emitted, if any.
  const analysis::PipelinedLoop *Active = nullptr;
  /// Whether the staged dots being emitted take the consumer warpgroups'
  /// turns (ProducerPlan::MmaTurns).
  bool TakingTurns = false;
  /// Whether the staged dots being emitted may leave their products in
  /// flight (PipelinedLoop::WaitAtFirstUse), and the results of those that
  /// do, in issue order (the order they retire in).
  bool WaitAtFirstUse = false;
  llvm::SmallVector<const ir::Value *, 4> InFlight;
  /// The store whose barrier frees the stages of the loop being emitted
  /// (stageFreeingStore), if any.
  const ir::Op *StageFreeingStore = nullptr;
  /// The loop-invariant A operands the loop being emitted reads from shared
  /// memory: their operand views.
  llvm::DenseMap<const ir::Value *, std::string> Residents;
  /// Resident operands written to dynamic shared memory so far, and which
  /// loop (its line) of which block wrote them. A later loop of that block
  /// whose resident goes to the same bytes reads it there instead of
  /// writing it again, so that its registers are free after the first
  /// loop. Rings allocated over an entry's bytes remove it, and so does a
  /// new emission of its block.
  struct StagedResident {
    const ir::Value *V;
    const ir::Block *Block;
    unsigned Begin, End, Line;
    bool IsB;
  };
  llvm::SmallVector<StagedResident, 4> StagedResidents;
  /// Forgets the staged residents with bytes in [Begin, End).
  void overwriteResidents(unsigned Begin, unsigned End);
  /// The buffers the producer copies an A operand into, taken in turn: their
  /// tile type and pointer, their barriers, the consumers' buffer and phase
  /// and the producer's (one buffer: no buffer index), and the statement
  /// after which the consumers release one.
  struct OperandBuffer {
    std::string Type, Buf, Full, Empty, Slot, Phase, FillSlot, FillPhase;
    unsigned Slots = 1;
    const ir::Op *LastUse = nullptr;
    /// The buffer, or barrier, of index SlotVar.
    std::string at(const std::string &Base, const std::string &SlotVar,
                   const std::string &Stride = "") const {
      if (Slots == 1)
        return Base;
      return Base + " + " + SlotVar + (Stride.empty() ? "" : " * " + Stride);
    }
    std::string tile(const std::string &SlotVar) const {
      return Type + "{" + at(Buf, SlotVar, Type + "::elems") + "}";
    }
  };
  llvm::DenseMap<const ir::Op *, OperandBuffer> OperandBuffers;
  /// Per staged load: its stage buffers' type alias and ring pointer.
  llvm::DenseMap<const ir::Op *, std::pair<std::string, std::string>> Rings;
  unsigned DynamicSharedBytes = 0;
  /// The end of the pipelines' rings, barriers and resident operands,
  /// the furthest any reaches: the TMA stores' shared buffer starts after
  /// it, so that no loop writes over a store that may still read it.
  /// Every store waits for the reads of those before it, so they share
  /// the buffer, as large as the largest needs; run() writes its offset
  /// where the stores' lines hold StoreBufferMark.
  unsigned PipelineBytes = 0;
  /// Where the first pipeline's barriers (or resident operands) begin: below
  /// it every pipeline holds only its rings. A kernel whose TMA stores all
  /// come after its last pipeline and outside loops stores through the
  /// rings' memory instead (no copy is in flight once the loop has waited
  /// for its last stage), so that the stages and the store buffer need not
  /// both fit (matmul's 128 x 256 blocks in four stages).
  unsigned RingsEnd = ~0u;
  bool StoresAfterPipelines = true;
  unsigned StoreBufferBytes = 0;
  ir::SourceLoc StoreBufferLoc;
  static constexpr llvm::StringLiteral StoreBufferMark = "@store_buffer@";
  /// TMA stores whose wait for the buffer a dot before them did, before its
  /// barrier (storeAfterStagingDot), by store: the dot.
  llvm::DenseMap<const ir::Op *, const ir::Op *> StoreBufferWaited;
  /// Pipelined loops being emitted (prologue to the wait after the loop):
  /// their copies may be in flight.
  unsigned OpenPipelines = 0;
  /// The buffer of layout conversions for stores emitted after a pipeline
  /// and outside any, which run() places over the rings where it may (each
  /// conversion waits for every thread before and after it) and after every
  /// other buffer otherwise: the rings and a 128 x 128 tile's conversion no
  /// longer both take shared memory.
  unsigned ConvertBufferBytes = 0;
  static constexpr llvm::StringLiteral ConvertBufferMark = "@convert_buffer@";
  unsigned StaticSharedBytes = 0;
  /// The reduction and scan instances emitted whose partials cross warps,
  /// and the one needing the most.
  llvm::StringSet<> PartialBuffers;
  /// The two buffers of each dot whose operands its loop stages an
  /// iteration ahead, the loop's variable saying which one the iteration
  /// multiplies from, and the bytes of one.
  struct StagedOperands {
    std::string Buf, Slot;
    unsigned Bytes;
  };
  llvm::DenseMap<const ir::Op *, StagedOperands> StagedAhead;
  unsigned StagedAheadBytes = 0;
  /// The shared bins of the histograms their loops sum, by histogram.
  llvm::DenseMap<const ir::Op *, std::string> LoopBins;
  unsigned LargestPartials = 0;
  ir::SourceLoc PartialsLoc;
  /// The one shared buffer layout conversions, transposes and the dots
  /// outside pipelines pass their tiles through: each waits for every
  /// thread before it returns, so none overlaps another (a dot followed by
  /// a TMA store leaves that to the store's barrier). Its size is the most
  /// any of them takes (run() declares it once the body is emitted).
  std::string Scratch;
  unsigned ScratchBytes = 0;
  bool ScratchSwizzled = false;
  /// The op that takes the most of it.
  ir::SourceLoc ScratchLoc;
  ir::SourceLoc PipelineLoc;
  unsigned PipelineStages = 0;
  llvm::DenseSet<const ir::Value *> Commented;
  std::string StageExpr;
  const LayoutNamer &NameLayout;
  std::string SourcePath;

  llvm::DenseMap<const ir::Value *, unsigned> Uses;
  llvm::DenseSet<const ir::Value *> UsedInOtherBlock, NeedsArray;
  llvm::DenseMap<const ir::Value *, std::string> Names;
  llvm::StringSet<> Taken;
  std::string Body;
  /// The depth of the lines being written, two spaces each: a kernel's
  /// statements are one level in.
  unsigned Depth = 1;
  /// Iterations of the element loops written (EmittedKernel::UnrolledSteps).
  uint64_t UnrolledSteps = 0;
  /// Products' steps (EmittedKernel::DotSteps and Float8DotSteps).
  uint64_t DotSteps = 0, Float8DotSteps = 0;
  std::vector<std::string> TileComments;
  std::vector<std::string> Accesses;
  unsigned LastLine = 0;
};

} // namespace tilecc::codegen

#endif
