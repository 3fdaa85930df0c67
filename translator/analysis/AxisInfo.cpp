//===- AxisInfo.cpp -------------------------------------------------------===//
#include "analysis/AxisInfo.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <numeric>

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {
constexpr int64_t MaxDivisibility = int64_t(1) << 30;

unsigned rankOf(const Value *V) { return std::max(1u, V->type().rank()); }
int64_t dimSize(const Value *V, unsigned D) {
  return V->type().isScalar() ? 1 : V->type().Shape[D];
}

/// x + y, x - y and pointer + offset.
AxisInfo sumInfo(const Op &O, const AxisInfo &L, const AxisInfo &Rt) {
  const Value *R = O.result();
  unsigned Rank = rankOf(R);
  AxisInfo A = AxisInfo::unknown(Rank);
  int64_t Scale =
      O.kind() == OpKind::AddPtr ? R->type().Elem.pointeeBytes() : 1;
  for (unsigned D = 0; D < Rank; ++D) {
    int64_t C = std::gcd(L.Contiguity[D], Rt.Constancy[D]);
    if (O.kind() != OpKind::Sub)
      C = std::max(C, std::gcd(L.Constancy[D], Rt.Contiguity[D]));
    A.Contiguity[D] = C;
    // A contiguous operand's divisibility is its runs' first elements'.
    // Where the sum's runs are shorter, they also start inside the
    // operand's, C elements apart: arange<4>() + arange<4>() is [0, 2, 4,
    // 6], runs of one, which do not all divide by the aranges' 2^30.
    auto AtRunStarts = [&](const AxisInfo &X, int64_t Div) {
      return X.Contiguity[D] > C ? std::gcd(Div, C * Scale) : Div;
    };
    A.Divisibility[D] = std::gcd(AtRunStarts(L, L.Divisibility[D]),
                                 AtRunStarts(Rt, Rt.Divisibility[D] * Scale));
    A.Constancy[D] = std::gcd(L.Constancy[D], Rt.Constancy[D]);
  }
  if (O.kind() != OpKind::AddPtr && L.ConstantValue && Rt.ConstantValue)
    A.ConstantValue = O.kind() == OpKind::Add
                          ? *L.ConstantValue + *Rt.ConstantValue
                          : *L.ConstantValue - *Rt.ConstantValue;
  return A;
}

/// x < y and the other comparisons: runs of equal results.
AxisInfo comparisonInfo(const AxisInfo &L, const AxisInfo &Rt) {
  unsigned Rank = L.Constancy.size();
  AxisInfo A = AxisInfo::unknown(Rank);
  for (unsigned D = 0; D < Rank; ++D) {
    int64_t C = std::gcd(L.Constancy[D], Rt.Constancy[D]);
    // x < c with x contiguous from a multiple of g and c a multiple of g
    // flips only at multiples of g.
    if (Rt.Constancy[D] >= L.Contiguity[D] && L.Contiguity[D] > 1)
      C = std::max(C, std::min(L.Contiguity[D], std::gcd(L.Divisibility[D],
                                                         Rt.Divisibility[D])));
    if (L.Constancy[D] >= Rt.Contiguity[D] && Rt.Contiguity[D] > 1)
      C = std::max(C, std::min(Rt.Contiguity[D], std::gcd(L.Divisibility[D],
                                                          Rt.Divisibility[D])));
    A.Constancy[D] = C;
  }
  return A;
}

/// x % m.
/// multiple_of and max_contiguous: X's facts and what the user states
/// (under TILE_DEBUG the program checks multiple_of's).
AxisInfo hintInfo(const Op &O, const AxisInfo &X) {
  AxisInfo A = X;
  for (unsigned D = 0; D < A.Divisibility.size(); ++D)
    if (O.kind() == OpKind::MultipleOf)
      A.Divisibility[D] =
          std::min(MaxDivisibility, std::max(A.Divisibility[D], O.hint(D)));
    else
      A.Contiguity[D] = std::min<int64_t>(dimSize(O.result(), D),
                                          std::max(A.Contiguity[D], O.hint(D)));
  return A;
}

AxisInfo remainderInfo(const Op &O, const AxisInfo &L, const AxisInfo &Rt) {
  const Value *R = O.result();
  unsigned Rank = rankOf(R);
  AxisInfo A = AxisInfo::unknown(Rank);
  for (unsigned D = 0; D < Rank; ++D) {
    A.Constancy[D] = std::gcd(L.Constancy[D], Rt.Constancy[D]);
    // x % m with m the same along D wraps only at multiples of m, so a
    // run starting at a multiple g of gcd(x's and m's divisors) stays
    // contiguous for g elements (indices taken to be non-negative, as
    // Triton's analysis does): `(pid * BN + arange) % n` keeps vectors.
    if (isInteger(R->type().Elem.Kind) &&
        Rt.Constancy[D] == dimSize(O.operand(1), D)) {
      int64_t G = std::gcd(L.Divisibility[D], Rt.Divisibility[D]);
      A.Contiguity[D] = std::gcd(L.Contiguity[D], G);
      A.Divisibility[D] = G;
    }
  }
  return A;
}

/// The step between consecutive elements of a contiguous run of E: one for
/// integers, the pointee's size for pointers (their divisibility is in
/// bytes, their contiguity in elements).
int64_t runStep(const ElemType &E) {
  return E.isPointer() ? std::max(1u, E.pointeeBytes()) : 1;
}

/// Whether converting integers of kind From to To keeps every value.
bool keepsValues(ScalarKind From, ScalarKind To) {
  if (isSigned(From) == isSigned(To))
    return bitWidth(To) >= bitWidth(From);
  return !isSigned(From) && bitWidth(To) > bitWidth(From);
}

/// A cast of X's elements from From to To. Runs stay runs where the step
/// between their elements is the same on both sides and no value wraps:
/// byte addresses cast to float pointers are one byte apart, not a float;
/// a float pointer tile cast to half pointers steps two halves; an int8 of
/// a run through 127 goes on at -128. A run whose elements are all
/// multiples of a power of two P at their starts keeps runs of P, which
/// wraps (at multiples of 2^(bits - 1), or of 2^bits unsigned) only start.
/// Bools, floats and wrapped constants are not tracked.
AxisInfo castInfo(const ElemType &From, const ElemType &To, const AxisInfo &X) {
  AxisInfo A = AxisInfo::unknown(X.Constancy.size());
  A.Constancy = X.Constancy;
  if (To.Kind == ScalarKind::I1 || (!isInteger(To.Kind) && !To.isPointer()) ||
      (!isInteger(From.Kind) && !From.isPointer()))
    return A;
  A = X;
  const bool Integers = !From.isPointer() && !To.isPointer();
  int64_t Wrap = MaxDivisibility;
  if (Integers && !keepsValues(From.Kind, To.Kind)) {
    const unsigned Bits = bitWidth(To.Kind) - (isSigned(To.Kind) ? 1 : 0);
    Wrap = int64_t(1) << std::min(30u, Bits);
    A.ConstantValue.reset();
  }
  const bool Wraps = Wrap != MaxDivisibility;
  for (unsigned D = 0; D < A.Contiguity.size(); ++D) {
    int64_t C = A.Contiguity[D];
    if (runStep(From) != runStep(To))
      C = 1;
    else if (Wraps)
      C = std::gcd(C, std::gcd(A.Divisibility[D], Wrap));
    if (C < A.Contiguity[D]) {
      // The new runs start C elements apart inside the old ones.
      A.Divisibility[D] = std::gcd(A.Divisibility[D], C * runStep(From));
      A.Contiguity[D] = C;
    }
  }
  return A;
}

} // namespace

int64_t highestPowerOf2Divisor(int64_t V) {
  if (V == 0)
    return MaxDivisibility;
  return std::min<int64_t>(MaxDivisibility, V & -V);
}

int64_t accessVectorWidth(const AxisInfoAnalysis &AI, const Op &O, unsigned Dim,
                          int64_t Run) {
  const Value *P = O.operand(0);
  const int64_t Bytes = std::max(1u, P->type().Elem.pointeeBytes());
  const AxisInfo &PI = AI.get(P);
  int64_t V = std::min<int64_t>({Run, PI.Contiguity[Dim], 16 / Bytes});
  while (V > 1 && PI.Divisibility[Dim] % (V * Bytes) != 0)
    V /= 2;
  for (const Value *M : {O.mask(), O.other()})
    if (M)
      V = std::gcd(V, AI.get(M).Constancy[Dim]);
  // Widths are powers of two that divide the run.
  int64_t W = 1;
  while (W * 2 <= V)
    W *= 2;
  return W;
}

AxisInfo AxisInfo::unknown(unsigned Rank) {
  AxisInfo A;
  A.Contiguity.assign(Rank, 1);
  A.Divisibility.assign(Rank, 1);
  A.Constancy.assign(Rank, 1);
  return A;
}

AxisInfo AxisInfo::constant(int64_t V, llvm::ArrayRef<int64_t> Shape) {
  unsigned Rank = std::max<size_t>(1, Shape.size());
  AxisInfo A = unknown(Rank);
  for (unsigned D = 0; D < Rank; ++D) {
    A.Divisibility[D] = highestPowerOf2Divisor(V);
    A.Constancy[D] = Shape.empty() ? 1 : Shape[D];
  }
  A.ConstantValue = V;
  return A;
}

AxisInfo AxisInfo::join(const AxisInfo &A, const AxisInfo &B) {
  AxisInfo J = A;
  for (unsigned D = 0; D < J.Contiguity.size(); ++D) {
    J.Contiguity[D] = std::gcd(A.Contiguity[D], B.Contiguity[D]);
    J.Divisibility[D] = std::gcd(A.Divisibility[D], B.Divisibility[D]);
    J.Constancy[D] = std::gcd(A.Constancy[D], B.Constancy[D]);
  }
  if (A.ConstantValue != B.ConstantValue)
    J.ConstantValue.reset();
  return J;
}

bool AxisInfo::operator==(const AxisInfo &O) const {
  return Contiguity == O.Contiguity && Divisibility == O.Divisibility &&
         Constancy == O.Constancy && ConstantValue == O.ConstantValue;
}

std::string AxisInfo::str() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  auto List = [&](const char *Name, llvm::ArrayRef<int64_t> L) {
    OS << Name << "=[";
    for (unsigned I = 0; I < L.size(); ++I)
      OS << (I ? ", " : "") << L[I];
    OS << "]";
  };
  List("contiguity", Contiguity);
  OS << " ";
  List("divisibility", Divisibility);
  OS << " ";
  List("constancy", Constancy);
  return S;
}

AxisInfoAnalysis::AxisInfoAnalysis(const Function &F,
                                   llvm::ArrayRef<ParamSpec> Specs) {
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Value *Arg = F.Params[I].Arg;
    AxisInfo A = AxisInfo::unknown(1);
    ParamSpec S = I < Specs.size() ? Specs[I] : ParamSpec::None;
    if (S == ParamSpec::EqualsOne)
      A = AxisInfo::constant(1, {});
    else
      A.Divisibility[0] = divisorOf(S);
    Info[Arg] = A;
  }
  walk(F.body(), [&](const Op &O) { visit(O); });
}

const AxisInfo &AxisInfoAnalysis::get(const Value *V) const {
  auto It = Info.find(V);
  assert(It != Info.end() && "value visited before its definition");
  return It->second;
}

void AxisInfoAnalysis::visit(const Op &O) {
  if (O.kind() == OpKind::For) {
    // Induction variable: divisible by gcd(lo, step).
    const Block &Body = *O.region(0);
    int64_t Div = std::gcd(get(O.operand(0)).Divisibility[0],
                           get(O.operand(2)).Divisibility[0]);
    AxisInfo IV = AxisInfo::unknown(1);
    IV.Divisibility[0] = Div;
    Info[Body.argument(0)] = IV;
    visitCarried(O);
  }
  // Combine arguments and while-loop values: nothing known.
  if (O.kind() != OpKind::For)
    for (const auto &R : O.regions())
      for (const auto &A : R->arguments())
        Info[A.get()] = AxisInfo::unknown(rankOf(A.get()));
  for (unsigned I = 0; I < O.numResults(); ++I)
    Info[O.result(I)] = O.kind() == OpKind::For
                            ? Info[O.region(0)->argument(I + 1)]
                        : O.numResults() == 1 && O.regions().empty()
                            ? compute(O)
                            : AxisInfo::unknown(rankOf(O.result(I)));
}

void AxisInfoAnalysis::visitCarried(const Op &Loop) {
  const Block &Body = *Loop.region(0);
  const Op &Yield = *Body.terminator();
  const unsigned N = Loop.numResults();
  for (unsigned I = 0; I < N; ++I) {
    // A copy: inserting the argument may move what get() refers to.
    const AxisInfo Initial = get(Loop.operand(3 + I));
    Info[Body.argument(I + 1)] = Initial;
  }
  // Facts only weaken from round to round; the bound is a safety net (a
  // divisibility can halve at most 30 times).
  for (unsigned Round = 0; Round < 64; ++Round) {
    walk(Body, [&](const Op &O) { visit(O); });
    bool Changed = false;
    for (unsigned I = 0; I < N; ++I) {
      AxisInfo &Arg = Info[Body.argument(I + 1)];
      AxisInfo Joined = AxisInfo::join(Arg, get(Yield.operand(I)));
      if (Joined != Arg) {
        Arg = std::move(Joined);
        Changed = true;
      }
    }
    if (!Changed)
      return;
  }
  for (unsigned I = 0; I < N; ++I)
    Info[Body.argument(I + 1)] =
        AxisInfo::unknown(rankOf(Body.argument(I + 1)));
}

AxisInfo AxisInfoAnalysis::compute(const Op &O) {
  const Value *R = O.result();
  unsigned Rank = rankOf(R);
  AxisInfo A = AxisInfo::unknown(Rank);
  auto In = [&](unsigned I) -> const AxisInfo & { return get(O.operand(I)); };
  auto BothConst = [&](auto Fn) -> std::optional<int64_t> {
    if (In(0).ConstantValue && In(1).ConstantValue)
      return Fn(*In(0).ConstantValue, *In(1).ConstantValue);
    return std::nullopt;
  };

  switch (O.kind()) {
  case OpKind::Const:
    if (!isFloat(R->type().Elem.Kind))
      return AxisInfo::constant(O.intValue(), R->type().Shape);
    return A;
  case OpKind::Arange:
    A.Contiguity[0] = R->type().Shape[0];
    A.Divisibility[0] = highestPowerOf2Divisor(O.arangeStart());
    return A;
  case OpKind::Splat:
    A.Divisibility.assign(Rank, In(0).Divisibility[0]);
    for (unsigned D = 0; D < Rank; ++D)
      A.Constancy[D] = dimSize(R, D);
    A.ConstantValue = In(0).ConstantValue;
    return A;
  case OpKind::ExpandDims: {
    A = In(0);
    unsigned Axis = O.axis();
    // Along the new dimension every element starts a run: what divides
    // them all. A contiguous run's elements after the first are only
    // known to be consecutive ([2^n, 2^n + 1, ...] divides by 1).
    int64_t Every = A.ConstantValue ? highestPowerOf2Divisor(*A.ConstantValue)
                                    : MaxDivisibility;
    if (!A.ConstantValue)
      for (unsigned D = 0; D < A.Divisibility.size(); ++D)
        Every = std::gcd(Every, A.Contiguity[D] > 1 ? 1 : A.Divisibility[D]);
    A.Contiguity.insert(A.Contiguity.begin() + Axis, 1);
    A.Divisibility.insert(A.Divisibility.begin() + Axis, Every);
    A.Constancy.insert(A.Constancy.begin() + Axis, 1);
    return A;
  }
  case OpKind::Permute: // each dimension's facts move with it
    for (unsigned D = 0; D < Rank; ++D) {
      const AxisInfo &X = In(0);
      const unsigned From = O.permutedDim(D);
      A.Contiguity[D] = X.Contiguity[From];
      A.Divisibility[D] = X.Divisibility[From];
      A.Constancy[D] = X.Constancy[From];
    }
    A.ConstantValue = In(0).ConstantValue;
    return A;
  case OpKind::Broadcast:
    A = In(0);
    for (unsigned D = 0; D < Rank; ++D)
      if (dimSize(O.operand(0), D) == 1 && dimSize(R, D) != 1) {
        A.Constancy[D] = dimSize(R, D);
        A.Contiguity[D] = 1;
      }
    return A;
  case OpKind::MultipleOf:
  case OpKind::MaxContiguous:
    return hintInfo(O, In(0));
  case OpKind::ConvertLayout:
    return In(0);
  case OpKind::Cast:
    return castInfo(O.operand(0)->type().Elem, R->type().Elem, In(0));
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::AddPtr:
    return sumInfo(O, In(0), In(1));
  case OpKind::Mul:
    for (unsigned D = 0; D < Rank; ++D) {
      const AxisInfo &L = In(0), &Rt = In(1);
      if (Rt.ConstantValue == 1)
        A.Contiguity[D] = L.Contiguity[D];
      else if (L.ConstantValue == 1)
        A.Contiguity[D] = Rt.Contiguity[D];
      // A contiguous factor's divisibility is its runs' first elements';
      // the product is contiguous no longer (unless the other factor is
      // 1), so every element would claim it: (64 p + 1) stride is no
      // multiple of 64. Only the other elements' common divisor, 1, holds.
      auto Factor = [&](const AxisInfo &X, const AxisInfo &Other) {
        return X.Contiguity[D] > 1 && Other.ConstantValue != 1
                   ? 1
                   : X.Divisibility[D];
      };
      A.Divisibility[D] =
          std::min(MaxDivisibility, Factor(L, Rt) * Factor(Rt, L));
      A.Constancy[D] = std::gcd(L.Constancy[D], Rt.Constancy[D]);
    }
    A.ConstantValue = BothConst([](int64_t X, int64_t Y) { return X * Y; });
    if (A.ConstantValue)
      return AxisInfo::constant(*A.ConstantValue, R->type().Shape);
    return A;
  case OpKind::CmpLT:
  case OpKind::CmpLE:
  case OpKind::CmpGT:
  case OpKind::CmpGE:
  case OpKind::CmpEQ:
  case OpKind::CmpNE:
    return comparisonInfo(In(0), In(1));
  case OpKind::Rem:
    return remainderInfo(O, In(0), In(1));
  case OpKind::And:
  case OpKind::Or:
  case OpKind::Xor:
  case OpKind::LogicalAnd:
  case OpKind::LogicalOr:
  case OpKind::Maximum:
  case OpKind::Minimum:
  case OpKind::Div:
  case OpKind::Shl:
  case OpKind::Shr:
    for (unsigned D = 0; D < Rank; ++D)
      A.Constancy[D] = std::gcd(In(0).Constancy[D], In(1).Constancy[D]);
    return A;
  case OpKind::Select:
    for (unsigned D = 0; D < Rank; ++D)
      A.Constancy[D] = std::gcd(
          In(0).Constancy[D], std::gcd(In(1).Constancy[D], In(2).Constancy[D]));
    return A;
  default:
    if (isElementwise(O.kind()))
      for (unsigned D = 0; D < Rank; ++D) {
        int64_t C = dimSize(R, D);
        for (unsigned I = 0; I < O.numOperands(); ++I)
          C = std::gcd(C, In(I).Constancy[D]);
        A.Constancy[D] = C;
      }
    return A;
  }
}

} // namespace tilecc::analysis
