//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// Triton's axis analysis. For every value and every dimension:
//   contiguity   runs of this length (aligned to it) hold consecutive values
//   divisibility the first value of each run is a multiple of this (bytes
//                for pointers)
//   constancy    runs of this length hold one value
// Seeded by the launch wrapper's specialization: 16-byte-aligned pointers,
// integers divisible by 16 or equal to 1. Memory accesses are as wide as
// these facts allow.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_AXISINFO_H
#define TILECC_ANALYSIS_AXISINFO_H

#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace tilecc::analysis {

struct AxisInfo {
  /// One entry per dimension; scalars have one entry.
  llvm::SmallVector<int64_t, 2> Contiguity, Divisibility, Constancy;
  std::optional<int64_t> ConstantValue;

  static AxisInfo unknown(unsigned Rank);
  static AxisInfo constant(int64_t V, llvm::ArrayRef<int64_t> Shape);
  /// What holds of both A and B (a value that is one or the other).
  static AxisInfo join(const AxisInfo &A, const AxisInfo &B);
  bool operator==(const AxisInfo &O) const;
  bool operator!=(const AxisInfo &O) const { return !(*this == O); }
  std::string str() const;
};

/// Largest power of two dividing V (capped; 0 is divisible by everything).
int64_t highestPowerOf2Divisor(int64_t V);

class AxisInfoAnalysis;

/// The widest vector (a power of two, in elements) memory access O can
/// make along dimension Dim where a thread holds Run consecutive elements
/// there: as its pointers' contiguity and divisibility and its mask's and
/// other value's constancy allow, at most 16 bytes.
int64_t accessVectorWidth(const AxisInfoAnalysis &AI, const ir::Op &O,
                          unsigned Dim, int64_t Run);

class AxisInfoAnalysis {
public:
  AxisInfoAnalysis(const ir::Function &F, llvm::ArrayRef<ir::ParamSpec> Specs);
  const AxisInfo &get(const ir::Value *V) const;

private:
  void visit(const ir::Op &O);
  /// A for loop's carried values: what holds of the initial value and of
  /// every yielded one, found by re-running the body until nothing weakens
  /// (as Triton's analysis does), so that a pointer tile advanced by a
  /// loop-invariant step keeps its contiguity and alignment.
  void visitCarried(const ir::Op &Loop);
  AxisInfo compute(const ir::Op &O);
  llvm::DenseMap<const ir::Value *, AxisInfo> Info;
};

} // namespace tilecc::analysis

#endif
