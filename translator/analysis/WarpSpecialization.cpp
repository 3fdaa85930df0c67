//===- WarpSpecialization.cpp - Which loop a producer warpgroup feeds -----===//
//
// Finds the loop and checks the conditions WarpSpecialization.h states.
//
//===----------------------------------------------------------------------===//
#include "analysis/WarpSpecialization.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

/// Ops each thread computes in its own registers: no memory, no barrier.
bool inRegisters(const Op &O) {
  switch (categoryOf(O.kind())) {
  case OpCategory::Source:
  case OpCategory::Unary:
  case OpCategory::Binary:
  case OpCategory::Ternary:
    return true;
  case OpCategory::Shape:
    return O.kind() != OpKind::ConvertLayout && O.kind() != OpKind::Trans;
  default:
    return false;
  }
}

std::string where(const Op &O) {
  return std::string(spell(O.kind())) + " at line " +
         std::to_string(O.loc().Line);
}

} // namespace

WarpSpecialization
planWarpSpecialization(const Function &F,
                       const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
                       const TensorMapOps &Tma) {
  WarpSpecialization WS;
  for (const auto &Owned : F.body().ops()) {
    const Op &O = *Owned;
    auto It = Plans.find(&O);
    if (It == Plans.end()) {
      if (!inRegisters(O)) {
        WS.WhyNot = "the producer warpgroup would run the " + where(O) +
                    " before the pipelined loop";
        return WS;
      }
      continue;
    }
    const PipelinedLoop &P = It->second;
    if (P.Loads.empty() || !Tma.count(P.Loads.front())) {
      WS.WhyNot = "the loop at line " + std::to_string(O.loc().Line) +
                  " copies its stages without TMA";
      return WS;
    }
    if (!P.AsyncMma) {
      WS.WhyNot = "the dots of the loop at line " +
                  std::to_string(O.loc().Line) +
                  " are not left in flight (they need 3 stages or more and "
                  "must only accumulate)";
      return WS;
    }
    for (const auto &B : O.region(0)->ops()) {
      if (B->kind() == OpKind::Yield || P.ProducerOnly.count(B.get()) ||
          P.Dots.count(B.get()) || inRegisters(*B))
        continue;
      WS.WhyNot = "the body of the loop at line " +
                  std::to_string(O.loc().Line) + " has a " + where(*B) +
                  ", which would need the producer at a block barrier";
      return WS;
    }
    WS.Loop = &O;
    return WS;
  }
  WS.WhyNot = "no top-level loop is software-pipelined";
  return WS;
}

} // namespace tilecc::analysis
