//===- DeviceEmitter.h - One variant's __global__ body ----------*- C++ -*-===//
//
// Prints a TileIR function as the body of a CUDA/HIP kernel: each thread
// holds its elements of a tile in a register array indexed by compile-time
// constants (unrolled loops over e); elementwise chains are folded into one
// expression per element; memory goes through tile::rt access helpers of the
// width axis info proves; `#line` directives point at the user's source.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_DEVICEEMITTER_H
#define TILECC_CODEGEN_DEVICEEMITTER_H

#include "analysis/AxisInfo.h"
#include "analysis/DotRotation.h"
#include "analysis/LayoutAssignment.h"
#include "analysis/Pipelining.h"
#include "analysis/TensorMaps.h"
#include "ir/IR.h"
#include <functional>
#include <string>
#include <vector>

namespace tilecc::codegen {

/// Names the tile::rt layout type of a (layout, shape) pair; the caller
/// collects them to declare the aliases once per file.
using LayoutNamer = std::function<std::string(const analysis::Layout &,
                                              llvm::ArrayRef<int64_t>)>;

struct EmittedKernel {
  std::string Params; // device parameter list
  std::string Body;   // statements, indented two spaces
  /// Iterations of its element loops (each unrolled): a measure of what
  /// nvcc's optimizer works through.
  uint64_t UnrolledSteps = 0;
  /// Steps of its products of tiles (tile::dot), which their helpers
  /// unroll: per product, the accumulator's elements per thread times the
  /// tensor-core instructions along K (KernelEmitter::countDot); and of
  /// those, the steps of 8-bit float products, which are widened to fp16
  /// below sm_89.
  uint64_t DotSteps = 0, Float8DotSteps = 0;
  /// One line per tile value: "offs : tensor<i32, [1024]> L0", for the
  /// layout comment block.
  std::vector<std::string> TileComments;
  /// Widest global access of each load/store, in program order, for the
  /// metadata ("load x: v4").
  std::vector<std::string> Accesses;
  /// Dynamic shared memory the kernel needs (pipeline stages), in bytes,
  /// and where the loop needing the most is, with its stage count.
  unsigned DynamicSharedBytes = 0;
  /// Static shared memory: the kernel's scratch buffer (layout conversions,
  /// transposes and dots outside pipelines) unless it is dynamic, and the
  /// runtime's partials of reductions and scans across warps. The launch
  /// adds it to the dynamic; NVIDIA GPUs cap it at 48 KB.
  unsigned StaticSharedBytes = 0;
  /// The scratch buffer's size, static or dynamic, and the op taking the
  /// most of it.
  unsigned ScratchBytes = 0;
  ir::SourceLoc ScratchLoc;
  /// Static shared memory of the buffers in which loops stage matrix-core
  /// operands an iteration ahead (analysis/MfmaStagedAhead.h).
  unsigned StagedAheadBytes = 0;
  /// The reduction or scan whose partials across warps need the most.
  ir::SourceLoc PartialsLoc;
  ir::SourceLoc PipelineLoc;
  unsigned PipelineStages = 0;
  /// The tensor maps of TMA loads and stores, which the launch wrapper encodes
  /// and passes after the kernel's own arguments: host expressions for
  /// rt::encode_tensor_map<Stage>(&Name, Base, Inner, Outer, RowStride[,
  /// BatchStride]).
  /// A tensor map the launch encodes (LaunchModel spells it for the host):
  /// its kernel parameter, the type of a box in shared memory, the access
  /// it describes and the box's shape.
  struct TensorMapParam {
    std::string Name, Stage;
    const analysis::TensorMapAccess *Access;
    llvm::SmallVector<int64_t, 2> BoxShape;
    /// Whether TMA adds to the tensor's boxes (typed elements) rather than
    /// copying them (bits).
    bool Adds = false;
  };
  std::vector<TensorMapParam> TensorMaps;
};

/// A warp-specialized kernel's split (analysis/WarpSpecialization.h): the
/// loops whose copies a producer warpgroup issues, the loops around them it
/// walks too, the scalar ops it re-runs, the threads before it, the registers
/// per thread setmaxnreg gives each side, for the programs an SM holds at once,
/// whether the consumer warpgroups take turns on the tensor cores, and the
/// loops whose last dot is issued an iteration late (analysis/DotRotation.h).
struct ProducerPlan {
  static constexpr unsigned Threads = 128;    // one warpgroup
  llvm::SmallVector<const ir::Op *, 2> Loops; // empty: not warp-specialized
  llvm::SmallVector<const ir::Op *, 1> Enclosing;
  llvm::SmallVector<const ir::Op *, 16> Slice;
  /// Loads of the loops' dots' A operands that the producer copies by TMA
  /// (WarpSpecialization::OperandLoads).
  llvm::SmallVector<const ir::Op *, 1> OperandLoads;
  /// Buffers each of them has: two where a loop around the load (a
  /// persistent program's) lets the producer copy the next one while the
  /// consumers read this one, and shared memory has room.
  unsigned OperandSlots = 1;
  unsigned ConsumerThreads = 0;
  unsigned ProducerRegs = 0, ConsumerRegs = 0;
  unsigned Programs = 1;
  /// Consumer warpgroups that take turns issuing the loops' tensor-core
  /// products (pingpong), or 0.
  unsigned MmaTurns = 0;
  llvm::DenseMap<const ir::Op *, analysis::RotatedLoop> Rotated;
  bool active() const { return !Loops.empty(); }
  /// Positions of the staged loads on the second ring of barriers (the
  /// late dots' operands); empty when no loop rotates.
  llvm::ArrayRef<unsigned> lateLoads() const {
    return Rotated.empty() ? llvm::ArrayRef<unsigned>()
                           : llvm::ArrayRef(Rotated.begin()->second.LateLoads);
  }
  bool feeds(const ir::Op &Loop) const {
    return llvm::is_contained(Loops, &Loop);
  }
};

struct EmissionPlan;

using Pipelines = llvm::DenseMap<const ir::Op *, analysis::PipelinedLoop>;
/// Loads and stores a variant does with TMA; empty for cp.async copies.
using analysis::TensorMapOps;

EmittedKernel emitKernel(const ir::Function &F, const analysis::LayoutMap &LM,
                         const analysis::AxisInfoAnalysis &AI,
                         const Pipelines &Plans, const TensorMapOps &Tma,
                         const LayoutNamer &NameLayout,
                         const std::string &SourcePath,
                         const ProducerPlan &Producer, const EmissionPlan &EP,
                         bool DynamicScratch);

/// The device spelling of an element type (float, rt::f16, const int *).
std::string deviceType(const ir::ElemType &E);
/// A declaration of Name with element type E, spaced as clang-format spaces
/// it (`float x`, `const float *p`).
std::string declaration(const ir::ElemType &E, const std::string &Name);

} // namespace tilecc::codegen

#endif
