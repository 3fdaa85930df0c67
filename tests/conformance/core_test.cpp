// The conformance suite's cases (docs/conformance.md), each against a
// reference written here in plain C++: in emulation when built alone, on
// the GPU when built with CONFORMANCE_GPU and the kernels' launch wrappers.
#ifdef CONFORMANCE_GPU
#include "core.tile.h"
#else
#include "core.tile.cpp"
#endif
#include "harness.hpp"

#include <algorithm>
#include <limits>
#include <random>

using conformance::Buffer;

namespace {

std::mt19937 Rng(48);

/// Case 1: x + y over 98432 elements in blocks of 1024, bit for bit.
void vecAddTail() {
  constexpr int N = 98432;
  std::uniform_real_distribution<float> U(-10, 10);
  std::vector<float> X(N), Y(N), Want(N);
  for (int I = 0; I < N; ++I) {
    X[I] = U(Rng);
    Y[I] = U(Rng);
    Want[I] = X[I] + Y[I];
  }
  Buffer<float> BX(X), BY(Y), Out(N);
  CONFORMANCE_RUN(vec_add, 1024, BX, BY, Out, N);
  conformance::expectExact("vec_add_tail", "float32", Out.values(), Want);
}

/// Case 3: float16 times 2 is exact for these values; int8 plus 5 wraps
/// past 127 as int8 arithmetic does in Triton; int8 plus 2.5 is float32.
void weakScalarTyping() {
  constexpr int N = 128;
  std::vector<tile::half> H(N), WantH(N);
  std::vector<std::int8_t> B(N), WantB(N);
  std::vector<float> WantF(N);
  for (int I = 0; I < N; ++I) {
    H[I] = tile::half(float(I - 64) * 0.25f);
    WantH[I] = tile::half(float(I - 64) * 0.5f);
    B[I] = static_cast<std::int8_t>(I * 2 - 128); // -128 .. 126
    WantB[I] = static_cast<std::int8_t>(
        static_cast<std::uint8_t>(static_cast<std::uint8_t>(B[I]) + 5u));
    WantF[I] = float(B[I]) + 2.5f;
  }
  Buffer<tile::half> BH(H), OutH(N);
  Buffer<std::int8_t> BB(B), OutB(N);
  Buffer<float> OutF(N);
  CONFORMANCE_RUN(weak_scalars, 128, BH, BB, OutH, OutB, OutF);
  conformance::expectExact("weak_scalar_typing", "float16", OutH.values(),
                           WantH);
  conformance::expectExact("weak_scalar_typing", "int8", OutB.values(), WantB);
  conformance::expectExact("weak_scalar_typing", "int8+float", OutF.values(),
                           WantF);
}

/// Case 4: ==, !=, <, <=, >, >= on pairs with NaN on the left, the right
/// or both, infinities, signed zeros and subnormals: IEEE's ordered
/// comparisons (every one false with a NaN but !=).
void compareNan() {
  constexpr int Block = 64;
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  const float Inf = std::numeric_limits<float>::infinity();
  const float Sub = std::numeric_limits<float>::denorm_min();
  const float Values[] = {NaN, -Inf, -1.5f, -0.0f, 0.0f, Sub, 1.5f, Inf};
  std::vector<float> X(Block), Y(Block);
  for (int I = 0; I < Block; ++I) {
    X[I] = Values[I / 8];
    Y[I] = Values[I % 8];
  }
  std::vector<bool> Want(6 * Block);
  for (int I = 0; I < Block; ++I) {
    const float A = X[I], B = Y[I];
    Want[I] = A == B;
    Want[Block + I] = A != B;
    Want[2 * Block + I] = A < B;
    Want[3 * Block + I] = A <= B;
    Want[4 * Block + I] = A > B;
    Want[5 * Block + I] = A >= B;
  }
  Buffer<float> BX(X), BY(Y);
  Buffer<bool> Out(6 * Block);
  CONFORMANCE_RUN(compare_f32, 64, BX, BY, Out);
  conformance::expectExact("compare_nan", "float32", Out.values(), Want);
}

/// Case 5: 128 - d elements read, the other d lanes `other` (0 or 1), for
/// d = 0..4.
template <class T, class Launch>
void maskedLoadOther(const char *Type, Launch Run) {
  constexpr int Block = 128;
  std::vector<T> Got, Want;
  for (int D = 0; D <= 4; ++D)
    for (int Other = 0; Other <= 1; ++Other) {
      const int NIn = Block - D;
      std::vector<T> In(NIn);
      for (int I = 0; I < NIn; ++I)
        In[I] = static_cast<T>(static_cast<float>((I * 7 + D) % 5 + 2));
      Buffer<T> BIn(In), Out(Block);
      Run(BIn, Out, NIn, static_cast<T>(static_cast<float>(Other)));
      for (int I = 0; I < Block; ++I) {
        Got.push_back(Out.values()[I]);
        Want.push_back(I < NIn ? In[I] : static_cast<T>(float(Other)));
      }
    }
  conformance::expectExact("masked_load_other", Type, Got, Want);
}

void maskedLoadOtherAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  maskedLoadOther<T>(NAME, [](auto &In, auto &Out, int NIn, T Other) {         \
    CONFORMANCE_RUN(masked_load_##S, 128, In, Out, NIn, Other);                \
  });
#include "element_types.def"
#undef CONFORMANCE_TYPE
}

/// Case 7: the reductions of a 2 x 32 tile whose columns 3..9 of row 0
/// hold its maximum and columns 12..20 of row 1 its minimum, so that
/// argmax and argmin must pick the lowest index of a tie. Sums of int32
/// and of small integers in float are exact in any order.
template <class T, class Launch>
void reduceSuite(const char *Type, Launch Run) {
  constexpr int Block = 32;
  std::vector<T> X(2 * Block);
  for (int I = 0; I < 2 * Block; ++I)
    X[I] = static_cast<T>((I * 37) % 23 - 11);
  for (int C = 3; C < 10; ++C)
    X[C] = static_cast<T>(50);
  for (int C = 12; C < 21; ++C)
    X[Block + C] = static_cast<T>(-50);
  auto At = [&](int R, int C) { return X[R * Block + C]; };
  std::vector<T> Want(2 * Block + 5);
  std::vector<int> WantIndex(4 + Block);
  for (int C = 0; C < Block; ++C) {
    Want[C] = At(0, C) + At(1, C);
    Want[Block + 4 + C] = std::min(At(0, C), At(1, C));
    WantIndex[4 + C] = At(1, C) > At(0, C) ? 1 : 0;
  }
  T Total = 0;
  for (int R = 0; R < 2; ++R) {
    T Sum = 0, Max = At(R, 0), Min = At(R, 0);
    int ArgMax = 0, ArgMin = 0;
    for (int C = 0; C < Block; ++C) {
      Sum += At(R, C);
      if (At(R, C) > Max)
        Max = At(R, C), ArgMax = C;
      if (At(R, C) < Min)
        Min = At(R, C), ArgMin = C;
    }
    Want[Block + R] = Sum;
    Want[Block + 2 + R] = Max;
    WantIndex[R] = ArgMax;
    WantIndex[2 + R] = ArgMin;
    Total += Sum;
  }
  Want[2 * Block + 4] = Total;
  Buffer<T> BX(X), Out(Want.size());
  Buffer<int> Index(WantIndex.size());
  Run(BX, Out, Index);
  conformance::expectExact("reduce_suite", Type, Out.values(), Want);
  conformance::expectExact("reduce_suite (index)", Type, Index.values(),
                           WantIndex);
}

void reduceSuiteAll() {
  reduceSuite<float>("float32", [](auto &X, auto &Out, auto &Index) {
    CONFORMANCE_RUN(reduce_f32, 32, X, Out, Index);
  });
  reduceSuite<std::int32_t>("int32", [](auto &X, auto &Out, auto &Index) {
    CONFORMANCE_RUN(reduce_i32, 32, X, Out, Index);
  });
}

/// Case 8: the mean and population variance of 512 values, in double
/// here; float rounding in another order of combination stays within
/// 1e-5 relative.
void customTupleReduce() {
  constexpr int N = 512;
  std::normal_distribution<float> Normal(3.0f, 2.0f);
  std::vector<float> X(N);
  double Sum = 0, Squares = 0;
  for (float &V : X)
    Sum += V = Normal(Rng);
  const double Mean = Sum / N;
  for (float V : X)
    Squares += (V - Mean) * (V - Mean);
  Buffer<float> BX(X), Out(2);
  CONFORMANCE_RUN(welford, 512, BX, Out);
  conformance::expectClose("custom_tuple_reduce", "float32", Out.values(),
                           {float(Mean), float(Squares / N)}, 1e-5);
}

/// Case 9: values in {-1, 0.5, 1, 2} (and a in {0.5, 1}) keep every sum
/// and product exact, so any order of combination gives the same bits.
void scanSuite() {
  constexpr int Rows = 4, Cols = 32;
  const float Pick[] = {-1.0f, 0.5f, 1.0f, 2.0f};
  std::uniform_int_distribution<int> U(0, 3);
  std::vector<float> X(Rows * Cols), A(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I) {
    X[I] = Pick[U(Rng)];
    A[I] = U(Rng) % 2 ? 0.5f : 1.0f;
  }
  std::vector<float> Want(5 * Rows * Cols);
  auto Plane = [&](int P, int R, int C) -> float & {
    return Want[P * Rows * Cols + R * Cols + C];
  };
  for (int R = 0; R < Rows; ++R) {
    float Sum = 0, Product = 1, Max = X[R * Cols], H = 0;
    for (int C = 0; C < Cols; ++C) {
      const float V = X[R * Cols + C];
      Plane(0, R, C) = Sum += V;
      Plane(2, R, C) = Product *= V;
      Plane(3, R, C) = Max = std::max(Max, V);
      Plane(4, R, C) = H = C == 0 ? V : A[R * Cols + C] * H + V;
    }
  }
  for (int C = 0; C < Cols; ++C) {
    float Sum = 0;
    for (int R = Rows - 1; R >= 0; --R)
      Plane(1, R, C) = Sum += X[R * Cols + C];
  }
  Buffer<float> BX(X), BA(A), Out(Want.size());
  CONFORMANCE_RUN(scans, 32, BX, BA, Out);
  conformance::expectExact("scan_suite", "float32", Out.values(), Want);
}

/// Case 15: a M x M product against a double reference. float16 inputs
/// and float32 inputs already representable in TF32 (mantissas masked by
/// 0xffffe000) make every product exact, so only the order of the sums
/// differs: 1e-5 relative to the sum of |a b| along k; int8 is exact.
template <class T, class R, class Launch>
void squareDot(const char *Case, const char *Type, int M, Launch Run) {
  std::uniform_real_distribution<float> U(-2, 2);
  std::vector<T> A(M * M), B(M * M);
  for (std::vector<T> *V : {&A, &B})
    for (T &E : *V) {
      float F = U(Rng);
      if constexpr (std::is_integral_v<T>) {
        E = static_cast<T>(std::lround(F * 60));
      } else if constexpr (std::is_same_v<T, float>) {
        std::uint32_t Bits;
        std::memcpy(&Bits, &F, 4);
        Bits &= 0xffffe000u;
        std::memcpy(&E, &Bits, 4);
      } else {
        E = static_cast<T>(F);
      }
    }
  std::vector<R> Want(M * M);
  std::vector<double> Scale(M * M);
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < M; ++J) {
      double Sum = 0, Abs = 0;
      for (int K = 0; K < M; ++K) {
        const double P = double(float(A[I * M + K])) * float(B[K * M + J]);
        Sum += P;
        Abs += std::fabs(P);
      }
      Want[I * M + J] = static_cast<R>(Sum);
      Scale[I * M + J] = Abs;
    }
  Buffer<T> BA(A), BB(B);
  Buffer<R> Out(M * M);
  Run(BA, BB, Out);
  const std::string Name = std::string(Case) + " " + std::to_string(M);
  if constexpr (std::is_integral_v<R>) {
    conformance::expectExact(Name, Type, Out.values(), Want);
  } else {
    // Relative to the sum of magnitudes: cancellation leaves no headroom
    // relative to the result itself.
    std::vector<R> Got = Out.values(), Scaled(M * M), Zero(M * M, R(0));
    for (int I = 0; I < M * M; ++I)
      Scaled[I] = R((Got[I] - Want[I]) / std::max(1.0, Scale[I]));
    conformance::expectClose(Name, Type, Scaled, Zero, 1e-5);
  }
}

/// The products of one size, configuration Config of the float kernels
/// (int8's starts at 32).
template <int M, int Config> void dotBaseOfSize() {
  squareDot<tile::half, float>(
      "dot_base", "float16", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_f16, M, Config, A, B, Out);
      });
  squareDot<float, float>(
      "dot_base tf32", "float32", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_tf32, M, Config, A, B, Out);
      });
  squareDot<float, float>(
      "dot_base ieee", "float32", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_ieee, M, Config, A, B, Out);
      });
  if constexpr (M >= 32)
    squareDot<std::int8_t, std::int32_t>(
        "dot_base", "int8", M, [](auto &A, auto &B, auto &Out) {
          CONFORMANCE_RUN_CONFIG(dot_i8, M, Config - 1, A, B, Out);
        });
}

void dotBase() {
  dotBaseOfSize<16, 0>();
  dotBaseOfSize<32, 1>();
  dotBaseOfSize<64, 2>();
}

/// Case 12: where(c, x, y) over 1000 lanes, and a load through
/// where(c, x + i, y + i).
template <class T, class Launch>
void whereBroadcast(const char *Type, Launch Run) {
  constexpr int N = 1000;
  std::bernoulli_distribution Coin(0.5);
  std::vector<bool> C(N);
  std::vector<T> X(N), Y(N), Want(N);
  for (int I = 0; I < N; ++I) {
    C[I] = Coin(Rng);
    X[I] = static_cast<T>(static_cast<float>(I % 100));
    Y[I] = static_cast<T>(static_cast<float>(-(I % 50)));
    Want[I] = C[I] ? X[I] : Y[I];
  }
  Buffer<bool> BC(C);
  Buffer<T> BX(X), BY(Y), Out(N), Picked(N);
  Run(BC, BX, BY, Out, Picked, N);
  conformance::expectExact("where_broadcast_ptr", Type, Out.values(), Want);
  conformance::expectExact("where_broadcast_ptr (pointers)", Type,
                           Picked.values(), Want);
}

void whereBroadcastAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  whereBroadcast<T>(                                                           \
      NAME, [](auto &C, auto &X, auto &Y, auto &Out, auto &Picked, int N) {    \
        CONFORMANCE_RUN(where_##S, 1024, C, X, Y, Out, Picked, N);             \
      });
#include "element_types.def"
#undef CONFORMANCE_TYPE
}

/// Case 18: integer values (exact in float too, in any order of
/// addition), signed ones both sides of zero.
template <class T, class Launch> void atomics(const char *Type, Launch Run) {
  constexpr int Programs = 5, Block = 64;
  std::uniform_int_distribution<int> U(std::is_signed_v<T> ? -100 : 0, 100);
  std::vector<T> X(Programs * Block);
  for (T &V : X)
    V = static_cast<T>(U(Rng));
  std::vector<T> Want = {T(0),
                         std::numeric_limits<T>::lowest(),
                         std::numeric_limits<T>::max(),
                         T(0),
                         T(0),
                         T(0),
                         T(0)};
  for (int I = 0; I < Programs * Block; ++I) {
    Want[0] += X[I];
    Want[1] = std::max(Want[1], X[I]);
    Want[2] = std::min(Want[2], X[I]);
    Want[3 + I % 4] += X[I];
  }
  Buffer<T> BX(X), Out(std::vector<T>{T(0), std::numeric_limits<T>::lowest(),
                                      std::numeric_limits<T>::max(), T(0), T(0),
                                      T(0), T(0)});
  Run(BX, Out);
  conformance::expectExact("atomics", Type, Out.values(), Want);
}

void atomicsAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  atomics<T>(NAME, [](auto &X, auto &Out) {                                    \
    CONFORMANCE_RUN(atomics_##S, 64, X, Out);                                  \
  });
#include "atomic_types.def"
#undef CONFORMANCE_TYPE
  Buffer<int> Lock(1, 0), Count(1, 0);
  CONFORMANCE_RUN(spin_lock, 1, Lock, Count);
  conformance::expectExact("atomics (spin lock)", "int32", Count.values(),
                           std::vector<int>{2000});
}

/// Case 19: the values Triton's test computes by running the Python again,
/// written out: sum of i - lo over ten steps from 2^35 (45), 5 x 8 nested
/// iterations (40), the odd numbers up to 11 (36), the step a loop
/// returned at (4).
void controlFlow() {
  Buffer<std::int64_t> Out(4, 0);
  const std::int64_t Lo = std::int64_t(1) << 35;
  CONFORMANCE_RUN(control_flow, 1, Out, Lo, 20);
  conformance::expectExact("control_flow", "int64", Out.values(),
                           std::vector<std::int64_t>{45, 40, 36, 4});
}

} // namespace

int main() {
#ifdef CONFORMANCE_GPU
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
#endif
  vecAddTail();
  weakScalarTyping();
  compareNan();
  maskedLoadOtherAll();
  reduceSuiteAll();
  customTupleReduce();
  scanSuite();
  whereBroadcastAll();
  dotBase();
  atomicsAll();
  controlFlow();
  return conformance::finish();
}
