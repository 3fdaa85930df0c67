//===- RegisterPrefetch.h - Tile loads issued an iteration ahead *- C++ -*-===//
//
// Software pipelining through registers. Where there are no asynchronous
// copies to shared memory (gfx90a), as Triton's AMD stream pipeliner does
// it: in a `for` loop, a load whose tile feeds only dots (directly or
// through one trans) is issued one iteration ahead, at the top of the
// iteration before, into registers the loop carries; the first iteration's
// is issued before the loop. The global-memory latency then hides behind
// the iteration's dots, which stage their operands in shared memory
// themselves. With tile::config::register_prefetch, on every target, the
// same for every tile load of a loop that only streams memory (a row
// reduced chunk by chunk): the next chunk's loads are in flight while this
// one's arithmetic runs, which the unrolled remainder of a loop whose trip
// count is known only at run time otherwise serializes.
//
// The load's pointers, mask and fill value are computed again for the next
// iteration, so they may depend only on the induction variable, values from
// outside the loop, and pointer tiles the loop carries and advances by a
// loop-invariant step (`a_ptrs += BK`). The next iteration's load is masked
// off where that iteration does not run (and the first where the loop does
// not), so no address is read that the kernel would not read. A load of
// memory the loop writes stays where it is.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_REGISTERPREFETCH_H
#define TILECC_TRANSFORMS_REGISTERPREFETCH_H

#include "ir/IR.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc::transforms {

/// Prefetches dot operands, as above, in F's `for` loops with a positive
/// constant step that run in NumStages stages or more (the loop's own
/// tile::range stages where it names them, else NumStages): 2 or more.
/// Returns how many loads it moved.
unsigned prefetchIntoRegisters(ir::Function &F, unsigned NumStages);

/// The most registers a thread the loads one streaming loop prefetches may
/// hold: each is held twice while the next iteration's is in flight.
constexpr unsigned MaxStreamingPrefetchRegisters = 16;

/// Prefetches every tile load, as above, in F's `for` loops with a positive
/// constant step that name no stages and have no dot, atomic, barrier or
/// volatile access at any depth (those are the pipeliner's, or order memory
/// a load moved ahead would cross), taking loads in program order while
/// they fit in MaxStreamingPrefetchRegisters a thread of a program of
/// Threads. Returns the source lines of the loads it moved, in the order
/// it moved them.
llvm::SmallVector<unsigned, 4> prefetchStreamingLoads(ir::Function &F,
                                                      unsigned Threads);

} // namespace tilecc::transforms

#endif
