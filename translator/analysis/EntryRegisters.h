//===- EntryRegisters.h - Registers a wgmma needs at entry ----*- C++ -*-===//
//
// ptxas compiles every instruction of a kernel within the registers a
// thread has at entry, the count its launch bound allows (an SM's 65536
// shared by the threads of the programs it must hold, a multiple of 8),
// even where setmaxnreg raised them: a consumer warpgroup's 104 do not
// help a wgmma that needs 90 when the kernel starts with 80. A wgmma names
// its accumulator's registers (fp32 or int32, half the instruction's
// columns) and, with A in registers, A's four, and needs 26 more (ptxas
// 13.0 on sm_90a: m64n128 with an fp32 accumulator needs 90, m64n256 154,
// 4 more each with A in registers); below that it stops with C7602,
// "Insufficient registers to compile instruction".
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_ENTRYREGISTERS_H
#define TILECC_ANALYSIS_ENTRYREGISTERS_H

#include "analysis/LayoutAssignment.h"
#include "analysis/Pipelining.h"
#include "ir/IR.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace tilecc::analysis {

/// The wgmma of a kernel that needs the most registers at entry.
struct WidestWgmma {
  /// The dot it belongs to (null when the kernel has no wgmma).
  const ir::Op *Dot = nullptr;
  /// Its columns (the instruction is m64nN) and the registers a thread
  /// must have at entry for ptxas to compile it.
  unsigned Columns = 0, Registers = 0;

  /// "the 64 x 128 wgmma of the dot at line 40".
  std::string describe() const;
};

/// The widest wgmma of F's dots on sm_90a (layouts LM): a dot whose
/// accumulator stacks warpgroups along M issues one m64nN wgmma per 64
/// rows, N the largest power of two up to 256 that divides a warp's
/// columns. A 16-bit A operand held as mma fragments is given to it from
/// registers unless the dot's pipelined loop (Plans) reads A from shared
/// memory (staged, or resident) or a producer warpgroup copies the load
/// that A is (CopiedOperands).
WidestWgmma
widestWgmma(const ir::Function &F, const LayoutMap &LM,
            const llvm::DenseMap<const ir::Op *, PipelinedLoop> &Plans,
            llvm::ArrayRef<const ir::Op *> CopiedOperands = {});

/// The registers each of Threads threads has at entry when an SM must hold
/// Programs programs of them.
unsigned registersAtEntry(unsigned Threads, unsigned Programs);

} // namespace tilecc::analysis

#endif
