//===- RegisterPrefetch.h - Dot operands loaded an iteration ahead -*- C++
//-*-===//
//
// Software pipelining where there are no asynchronous copies to shared
// memory (gfx90a), as Triton's AMD stream pipeliner does it: in a `for`
// loop, a load whose tile feeds only dots (directly or through one trans)
// is issued one iteration ahead, at the top of the iteration before, into
// registers the loop carries; the first iteration's is issued before the
// loop. The global-memory latency then hides behind the iteration's dots,
// which stage their operands in shared memory themselves.
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

namespace tilecc::transforms {

/// Prefetches, as above, in F's `for` loops with a positive constant step
/// that run in NumStages stages or more (the loop's own tile::range stages
/// where it names them, else NumStages): 2 or more. Returns how many loads
/// it moved.
unsigned prefetchIntoRegisters(ir::Function &F, unsigned NumStages);

} // namespace tilecc::transforms

#endif
