// Runs every kernel of ops.tile.cpp on the GPU through its generated launch
// wrapper, for every configuration and both the aligned and the generic
// variant, and compares with the same kernel run in emulation. Exits 77 when
// no GPU is present.
#include "ops.tile.cpp"
#include "ops.tile.h"

#include "cuda_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

int Failures = 0;

double asDouble(float V) { return V; }
double asDouble(double V) { return V; }
double asDouble(tile::half V) { return float(V); }
double asDouble(tile::bfloat16 V) { return float(V); }
double asDouble(tile::float8_e4m3 V) { return float(V); }
double asDouble(tile::float8_e5m2 V) { return float(V); }
template <class T> double asDouble(T V) { return double(V); }

/// Compares element by element; RelTol 0 demands exact equality.
template <class T>
void compare(const std::string &What, const std::vector<T> &Got,
             const std::vector<T> &Want, double RelTol) {
  size_t Bad = 0, First = 0;
  for (size_t I = 0; I < Got.size(); ++I) {
    double G = asDouble(Got[I]), W = asDouble(Want[I]);
    bool Ok = RelTol == 0 ? std::memcmp(&Got[I], &Want[I], sizeof(T)) == 0
                          : std::fabs(G - W) <= RelTol * (1 + std::fabs(W));
    if (!Ok && Bad++ == 0)
      First = I;
  }
  if (Bad) {
    ++Failures;
    std::printf("FAIL: %s: %zu of %zu differ; first at %zu: got %.9g, want "
                "%.9g\n",
                What.c_str(), Bad, Got.size(), First, asDouble(Got[First]),
                asDouble(Want[First]));
  } else {
    std::printf("ok: %s (%zu elements)\n", What.c_str(), Got.size());
  }
}

/// Fills outputs with NaN bits, so that every element the kernel should
/// write is checked.
template <class... A> void poison(A &...Outputs) { (Outputs.poison(), ...); }

std::mt19937 Rng(2026);

std::vector<float> randomFloats(size_t N, float Lo, float Hi) {
  std::uniform_real_distribution<float> D(Lo, Hi);
  std::vector<float> V(N);
  for (float &X : V)
    X = D(Rng);
  return V;
}

std::vector<tile::half> randomHalves(size_t N, float Lo, float Hi) {
  const std::vector<float> V = randomFloats(N, Lo, Hi);
  return {V.begin(), V.end()};
}

std::vector<int> randomInts(size_t N, int Lo, int Hi) {
  std::uniform_int_distribution<int> D(Lo, Hi);
  std::vector<int> V(N);
  for (int &X : V)
    X = D(Rng);
  return V;
}

std::string label(const std::string &Kernel, int Config, size_t Shift) {
  return Kernel + " config " + std::to_string(Config) +
         (Shift ? " (generic variant)" : " (aligned variant)");
}

void checkFloatOps(int Config, size_t Shift) {
  const int N = 5000 + int(Shift); // odd sizes hit the generic variant too
  auto X = randomFloats(N, -4, 4), Y = randomFloats(N, -4, 4);
  std::vector<float> Want(12 * size_t(N));
  if (Config == 0)
    tile::emulate::launch(tile::grid{tile::cdiv(N, 512)}, float_ops<512>,
                          X.data(), Y.data(), Want.data(), N);
  else
    tile::emulate::launch(tile::grid{tile::cdiv(N, 128)}, float_ops<128>,
                          X.data(), Y.data(), Want.data(), N);
  sample::DeviceArray<float> DX(X, Shift), DY(Y, Shift),
      DOut(Want.size(), Shift);
  poison(DOut);
  CUDA_CHECK(
      tilecc::float_ops(DX.get(), DY.get(), DOut.get(), N, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  // exp, log, sin and cos are the fast approximations on the GPU.
  compare(label("float_ops", Config, Shift), DOut.download(), Want, 2e-5);
}

void checkIntOps(size_t Shift) {
  const int N = 3001 + int(Shift);
  auto X = randomInts(N, -100000, 100000), Y = randomInts(N, -300, 300);
  std::vector<int> Want(5 * size_t(N));
  std::vector<int8_t> Want8(N);
  std::vector<int64_t> Want64(N);
  tile::emulate::launch(tile::grid{tile::cdiv(N, 256)}, int_ops<256>, X.data(),
                        Y.data(), Want.data(), Want8.data(), Want64.data(), N);
  sample::DeviceArray<int> DX(X, Shift), DY(Y, Shift), DOut(Want.size(), Shift);
  sample::DeviceArray<int8_t> D8(N, Shift);
  sample::DeviceArray<int64_t> D64(N, Shift);
  poison(DOut, D8, D64);
  CUDA_CHECK(
      tilecc::int_ops(DX.get(), DY.get(), DOut.get(), D8.get(), D64.get(), N));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("int_ops", 0, Shift), DOut.download(), Want, 0);
  compare(label("int_ops int8", 0, Shift), D8.download(), Want8, 0);
  compare(label("int_ops int64", 0, Shift), D64.download(), Want64, 0);
}

void checkInvariantDivisions(size_t Shift) {
  const int N = 4000 + int(Shift);
  const int Lowest = std::numeric_limits<int>::min(),
            Highest = std::numeric_limits<int>::max();
  auto X = randomInts(N, Lowest, Highest);
  auto Small = randomInts(N, -1000, 1000);
  std::copy(Small.begin(), Small.begin() + N / 2, X.begin());
  X[0] = Lowest;
  X[1] = Highest;
  std::vector<unsigned> U(X.begin(), X.end());
  sample::DeviceArray<int> DX(X, Shift), DOut(2 * size_t(N), Shift);
  sample::DeviceArray<unsigned> DU(U, Shift), DOutU(2 * size_t(N), Shift);
  const int Divisors[] = {1, -1, 2, 7, -7, 256, 3000, -65537, Highest, Lowest};
  const unsigned UDivisors[] = {1,          3,          256,        1000,
                                0x80000000, 0x80000001, 0xFFFFFFFF, 12345,
                                65536,      0x7FFFFFFF};
  for (int I = 0; I < int(std::size(Divisors)); ++I) {
    const int D = Divisors[I];
    const unsigned M = UDivisors[I];
    // INT_MIN / -1 overflows in C: that element is left out.
    if (D == -1)
      X[0] = 0;
    std::vector<int> Want(2 * size_t(N));
    std::vector<unsigned> WantU(2 * size_t(N));
    tile::emulate::launch(tile::grid{3}, invariant_divisions<256>, X.data(),
                          U.data(), Want.data(), WantU.data(), N, D, M);
    DX.upload(X);
    poison(DOut, DOutU);
    CUDA_CHECK(tilecc::invariant_divisions(DX.get(), DU.get(), DOut.get(),
                                           DOutU.get(), N, D, M));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::string By =
        " by " + std::to_string(D) + ", " + std::to_string(M) + "u";
    compare(label("invariant_divisions" + By, 0, Shift), DOut.download(), Want,
            0);
    compare(label("invariant_divisions unsigned" + By, 0, Shift),
            DOutU.download(), WantU, 0);
    X[0] = Lowest;
  }
}

void checkLibdevice(size_t Shift) {
  const int N = 3000 + int(Shift);
  auto X = randomFloats(N, -0.99f, 0.99f);
  std::vector<double> XD(X.begin(), X.end());
  std::vector<float> Want(9 * size_t(N));
  std::vector<double> WantD(2 * size_t(N));
  tile::emulate::launch(tile::grid{tile::cdiv(N, 256)}, libdevice<256>,
                        X.data(), XD.data(), Want.data(), WantD.data(), N);
  sample::DeviceArray<float> DX(X, Shift), DOut(Want.size(), Shift);
  sample::DeviceArray<double> DXD(XD, Shift), DOutD(WantD.size(), Shift);
  poison(DOut, DOutD);
  CUDA_CHECK(
      tilecc::libdevice(DX.get(), DXD.get(), DOut.get(), DOutD.get(), N));
  CUDA_CHECK(cudaDeviceSynchronize());
  // libdevice's float functions are within 4 ulp of the exact values.
  compare(label("libdevice", 0, Shift), DOut.download(), Want, 3e-6);
  compare(label("libdevice double", 0, Shift), DOutD.download(), WantD, 1e-14);
}

void checkBits(size_t Shift) {
  const int N = 2000 + int(Shift);
  auto X = randomFloats(N, -1e6f, 1e6f);
  auto A = randomInts(N, std::numeric_limits<int>::min(),
                      std::numeric_limits<int>::max());
  std::vector<unsigned> U(A.begin(), A.end());
  std::vector<std::int64_t> W(N);
  for (int I = 0; I < N; ++I)
    W[I] = std::int64_t(A[I]) * 0x12345678LL + A[(I + 1) % N];
  std::vector<int> Want(N);
  std::vector<unsigned> WantU(N);
  std::vector<std::int64_t> WantW(N);
  std::vector<float> WantF(N);
  tile::emulate::launch(tile::grid{tile::cdiv(N, 256)}, bits<256>, X.data(),
                        A.data(), U.data(), W.data(), Want.data(), WantU.data(),
                        WantW.data(), WantF.data(), N);
  sample::DeviceArray<float> DX(X, Shift), DF(N, Shift);
  sample::DeviceArray<int> DA(A, Shift), DOut(N, Shift);
  sample::DeviceArray<unsigned> DU(U, Shift), DOutU(N, Shift);
  sample::DeviceArray<std::int64_t> DW(W, Shift), DOutW(N, Shift);
  poison(DOut, DOutU, DOutW, DF);
  CUDA_CHECK(tilecc::bits(DX.get(), DA.get(), DU.get(), DW.get(), DOut.get(),
                          DOutU.get(), DOutW.get(), DF.get(), N));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("bits int", 0, Shift), DOut.download(), Want, 0);
  compare(label("bits unsigned", 0, Shift), DOutU.download(), WantU, 0);
  compare(label("bits int64", 0, Shift), DOutW.download(), WantW, 0);
  compare(label("bits float", 0, Shift), DF.download(), WantF, 0);
}

void checkHinted() {
  const int N = 4000; // a multiple of 16 and at least 16, as the kernel states
  auto X = randomFloats(N, -4, 4);
  std::vector<float> Want(N);
  tile::emulate::launch(tile::grid{tile::cdiv(N, 256)}, hinted<256>, X.data(),
                        Want.data(), N);
  sample::DeviceArray<float> DX(X, 0), DOut(N, 0);
  poison(DOut);
  CUDA_CHECK(tilecc::hinted(DX.get(), DOut.get(), N));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("hinted", DOut.download(), Want, 0);
}

void checkRandom(int Config, size_t Shift) {
  const int N = 5000 + int(Shift);
  const std::int64_t Seed = Config ? 0x0000000fcafeb0baLL : 42;
  std::vector<unsigned> Want(5 * size_t(N));
  std::vector<std::uint64_t> Want64(N);
  std::vector<float> WantUni(2 * size_t(N)), WantNormal(2 * size_t(N));
  if (Config == 0)
    tile::emulate::launch(tile::grid{tile::cdiv(N, 512)}, random<512>,
                          Want.data(), Want64.data(), WantUni.data(),
                          WantNormal.data(), Seed, N);
  else
    tile::emulate::launch(tile::grid{tile::cdiv(N, 64)}, random<64>,
                          Want.data(), Want64.data(), WantUni.data(),
                          WantNormal.data(), Seed, N);
  sample::DeviceArray<unsigned> DW(Want.size(), Shift);
  sample::DeviceArray<std::uint64_t> DW64(N, Shift);
  sample::DeviceArray<float> DUni(WantUni.size(), Shift),
      DNormal(WantNormal.size(), Shift);
  poison(DW, DW64, DUni, DNormal);
  CUDA_CHECK(tilecc::random(DW.get(), DW64.get(), DUni.get(), DNormal.get(),
                            Seed, N, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("random words", Config, Shift), DW.download(), Want, 0);
  compare(label("random words64", Config, Shift), DW64.download(), Want64, 0);
  compare(label("random uniform", Config, Shift), DUni.download(), WantUni, 0);
  // log, sin and cos are the fast approximations on the GPU.
  compare(label("random normal", Config, Shift), DNormal.download(), WantNormal,
          1e-4);
}

void checkMatrix(int Config, size_t Shift) {
  const int M = 100, N = 100, Lda = 100 + int(Shift);
  auto A = randomFloats(size_t(Lda) * Lda, -1, 1);
  auto ColV = randomFloats(N, -1, 1);
  std::vector<float> Want(2 * size_t(M) * N), WantCol(N);
  tile::grid G = Config == 0 ? tile::grid{tile::cdiv(M, 32), tile::cdiv(N, 32)}
                             : tile::grid{tile::cdiv(M, 16), tile::cdiv(N, 64)};
  if (Config == 0)
    tile::emulate::launch(G, matrix<32, 32>, A.data(), ColV.data(), Want.data(),
                          WantCol.data(), M, N, Lda);
  else
    tile::emulate::launch(G, matrix<16, 64>, A.data(), ColV.data(), Want.data(),
                          WantCol.data(), M, N, Lda);
  sample::DeviceArray<float> DA(A, Shift), DC(ColV, Shift),
      DOut(Want.size(), Shift), DCol(N, Shift);
  poison(DOut, DCol);
  CUDA_CHECK(tilecc::matrix(DA.get(), DC.get(), DOut.get(), DCol.get(), M, N,
                            Lda, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("matrix", Config, Shift), DOut.download(), Want, 1e-6);
  compare(label("matrix 1-D", Config, Shift), DCol.download(), WantCol, 1e-6);
}

void checkLoops(size_t Shift) {
  const int N = 4000 + int(Shift), Steps = 7;
  auto X = randomFloats(N, -2, 2);
  std::vector<float> Want(N);
  tile::emulate::launch(tile::grid{tile::cdiv(N, 256)}, loops<256>, X.data(),
                        Want.data(), N, Steps);
  sample::DeviceArray<float> DX(X, Shift), DOut(N, Shift);
  poison(DOut);
  CUDA_CHECK(tilecc::loops(DX.get(), DOut.get(), N, Steps));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("loops", 0, Shift), DOut.download(), Want, 1e-6);
}

void checkHalves(size_t Shift) {
  const int N = 2500 + int(Shift);
  auto XF = randomFloats(N, -3, 3), YF = randomFloats(N, -3, 3);
  std::vector<tile::half> X(XF.begin(), XF.end());
  std::vector<tile::bfloat16> Y(YF.begin(), YF.end());
  std::vector<tile::half> Want(N);
  std::vector<tile::bfloat16> WantBf(N);
  std::vector<float> WantF(N);
  tile::emulate::launch(tile::grid{tile::cdiv(N, 1024)}, halves<1024>, X.data(),
                        Y.data(), Want.data(), WantBf.data(), WantF.data(), N);
  sample::DeviceArray<tile::half> DX(X, Shift), DOut(N, Shift);
  sample::DeviceArray<tile::bfloat16> DY(Y, Shift), DBf(N, Shift);
  sample::DeviceArray<float> DF(N, Shift);
  poison(DOut, DBf, DF);
  CUDA_CHECK(
      tilecc::halves(DX.get(), DY.get(), DOut.get(), DBf.get(), DF.get(), N));
  CUDA_CHECK(cudaDeviceSynchronize());
  // a * a + a may be one fused rounding on the GPU and two in emulation.
  compare(label("halves f16", 0, Shift), DOut.download(), Want, 2e-3);
  compare(label("halves bf16", 0, Shift), DBf.download(), WantBf, 0);
  compare(label("halves f32", 0, Shift), DF.download(), WantF, 0);
}

void checkEights(size_t Shift) {
  constexpr int Block = 512, M = 64, N = 64, K = 64;
  // Random values around the formats' ranges, and edge cases: ties,
  // subnormals, values past the largest finite ones, infinities.
  auto X = randomFloats(2000 + Shift, -600, 600);
  for (float V :
       {0.0f, -0.0f, 1.0625f, 1.1875f, 248.0f, 0x1p-10f, 0x1p-17f, 449.0f,
        464.0f, 60000.0f, 1e9f, -INFINITY, INFINITY, 0.001f, -3e-5f})
    X.push_back(V);
  const int Count = int(X.size());
  const int Programs = tile::cdiv(Count, Block);
  auto AF = randomFloats(M * K, -1, 1), BF = randomFloats(K * N, -1, 1);
  std::vector<tile::float8_e5m2> A(AF.begin(), AF.end()),
      B(BF.begin(), BF.end());
  std::vector<tile::float8_e4m3> Want4(Count);
  std::vector<tile::float8_e5m2> Want5(Count);
  std::vector<float> WantBack(Count), WantC(size_t(Programs) * M * N);
  tile::emulate::launch(tile::grid{Programs}, eights<Block, M, N, K>, X.data(),
                        Want4.data(), Want5.data(), WantBack.data(), A.data(),
                        B.data(), WantC.data(), Count);
  sample::DeviceArray<float> DX(X, Shift), DBack(Count, Shift),
      DC(WantC.size(), 0);
  sample::DeviceArray<tile::float8_e4m3> D4(Count, Shift);
  sample::DeviceArray<tile::float8_e5m2> D5(Count, Shift), DA(A, 0), DB(B, 0);
  poison(D4, D5, DBack, DC);
  CUDA_CHECK(tilecc::eights(DX.get(), D4.get(), D5.get(), DBack.get(), DA.get(),
                            DB.get(), DC.get(), Count));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("eights e4m3", 0, Shift), D4.download(), Want4, 0);
  compare(label("eights e5m2", 0, Shift), D5.download(), Want5, 0);
  compare(label("eights back", 0, Shift), DBack.download(), WantBack, 0);
  // Products of 8-bit floats are exact, but Hopper's fp8 tensor cores sum
  // them with fewer bits than fp32 (about 14, as DeepSeek-V3's report
  // describes; 1.5e-3 measured here where the terms reach 16), where the
  // emulation sums in fp32: the bound is 2^-13 of the sum of |a b|, which
  // stays below 8 for these 64 products of magnitudes up to 1 and 0.5.
  compare(label("eights dot", 0, Shift), DC.download(), WantC, 1e-3);
}

void checkStrided(int Stride, size_t Shift) {
  const int N = 4096 + 16 * int(Shift);
  auto X = randomFloats(size_t(N) * Stride, -1, 1);
  std::vector<float> Want(N);
  tile::emulate::launch(tile::grid{tile::cdiv(N, 512)}, strided<512>, X.data(),
                        Want.data(), N, Stride);
  sample::DeviceArray<float> DX(X, Shift), DOut(N, Shift);
  poison(DOut);
  CUDA_CHECK(tilecc::strided(DX.get(), DOut.get(), N, Stride));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(label("strided, stride " + std::to_string(Stride), 0, Shift),
          DOut.download(), Want, 0);
}

template <int Rows, int Cols> void checkReductionsWith(int Config) {
  const int NRows = 37, NCols = Cols - 3 > 0 ? Cols - 3 : 1;
  const int Programs = tile::cdiv(NRows, Rows);
  auto X = randomFloats(size_t(Programs) * Rows * NCols, -1, 1);
  auto K = randomInts(X.size(), 0, 1 << 30);
  std::vector<float> Out(X.size()), Sums(size_t(Programs) * Rows),
      ColMin(size_t(Programs) * Cols), Total(Programs);
  std::vector<int> Arg(Sums.size()), Bits(Programs);
  tile::emulate::launch(tile::grid{Programs}, reductions<Rows, Cols>, X.data(),
                        K.data(), Out.data(), Sums.data(), ColMin.data(),
                        Arg.data(), Bits.data(), Total.data(), NRows, NCols);
  sample::DeviceArray<float> DX(X, 0), DOut(Out.size(), 0),
      DSums(Sums.size(), 0), DColMin(ColMin.size(), 0), DTotal(Total.size(), 0);
  sample::DeviceArray<int> DK(K, 0), DArg(Arg.size(), 0), DBits(Bits.size(), 0);
  poison(DOut, DSums, DColMin, DTotal, DArg, DBits);
  CUDA_CHECK(tilecc::reductions(DX.get(), DK.get(), DOut.get(), DSums.get(),
                                DColMin.get(), DArg.get(), DBits.get(),
                                DTotal.get(), NRows, NCols, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  // Only what the kernel writes is compared: rows < NRows, columns < NCols.
  auto Rows_ = [&](std::vector<float> V) {
    V.resize(size_t(NRows) * NCols);
    return V;
  };
  std::string L =
      "reductions " + std::to_string(Rows) + "x" + std::to_string(Cols);
  compare(L + " x - max", Rows_(DOut.download()), Rows_(Out), 0);
  auto First = [](std::vector<float> V, size_t N) {
    V.resize(N);
    return V;
  };
  compare(L + " row sums", First(DSums.download(), NRows), First(Sums, NRows),
          1e-5);
  auto ColGot = DColMin.download();
  std::vector<float> ColG, ColW;
  for (int P = 0; P < Programs; ++P)
    for (int C = 0; C < NCols; ++C) {
      ColG.push_back(ColGot[size_t(P) * Cols + C]);
      ColW.push_back(ColMin[size_t(P) * Cols + C]);
    }
  compare(L + " column minima", ColG, ColW, 0);
  auto ArgGot = DArg.download();
  ArgGot.resize(NRows);
  Arg.resize(NRows);
  compare(L + " argmax", ArgGot, Arg, 0);
  compare(L + " xor_sum", DBits.download(), Bits, 0);
  compare(L + " total", DTotal.download(), Total, 1e-5);
}

template <int Rows, int Cols> void checkCombinesWith(int Config) {
  const int NRows = 37, NCols = Cols - 3 > 0 ? Cols - 3 : 1;
  const int Programs = tile::cdiv(NRows, Rows);
  auto X = randomFloats(size_t(NRows) * NCols, -1, 1);
  std::vector<float> Stats(size_t(Programs) * Rows * 3),
      Scans(size_t(Programs) * Rows * Cols * 4), Best(size_t(Programs) * 2);
  std::vector<int> Arg(size_t(Programs) * Rows),
      Counts(size_t(Programs) * Rows * Cols);
  tile::emulate::launch(tile::grid{Programs}, combines<Rows, Cols>, X.data(),
                        Stats.data(), Arg.data(), Scans.data(), Counts.data(),
                        Best.data(), NRows, NCols);
  sample::DeviceArray<float> DX(X, 0), DStats(Stats.size(), 0),
      DScans(Scans.size(), 0), DBest(Best.size(), 0);
  sample::DeviceArray<int> DArg(Arg.size(), 0), DCounts(Counts.size(), 0);
  poison(DStats, DScans, DBest, DArg, DCounts);
  CUDA_CHECK(tilecc::combines(DX.get(), DStats.get(), DArg.get(), DScans.get(),
                              DCounts.get(), DBest.get(), NRows, NCols, nullptr,
                              Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  auto First = [](auto V, size_t N) {
    V.resize(N);
    return V;
  };
  std::string L =
      "combines " + std::to_string(Rows) + "x" + std::to_string(Cols);
  // Combines run in another order on the GPU: float results round
  // differently.
  compare(L + " max, Welford mean and variance",
          First(DStats.download(), NRows * 3), First(Stats, NRows * 3), 1e-5);
  compare(L + " (value, index) minimum", First(DArg.download(), NRows),
          First(Arg, NRows), 0);
  compare(L + " scans", DScans.download(), Scans, 1e-5);
  compare(L + " integer cumsum", DCounts.download(), Counts, 0);
  compare(L + " whole-tile pair reduction", DBest.download(), Best, 0);
}

void checkCombines() {
  checkCombinesWith<4, 64>(0);
  checkCombinesWith<16, 256>(1);
  checkCombinesWith<2, 16>(2);
  checkCombinesWith<64, 8>(3);
}

template <int BM, int BN, int BK> void checkMatmulWith(int Config) {
  const int M = 70, N = 50, K = 45; // ragged in every dimension
  auto A = randomHalves(size_t(M) * K, -1, 1);
  auto Bt = randomHalves(size_t(N) * K, -1, 1);
  auto X = randomFloats(size_t(M) * K, -1, 1);
  auto Y = randomFloats(size_t(K) * N, -1, 1);
  std::vector<float> C(size_t(M) * N), Z(C.size());
  tile::emulate::launch(tile::grid{tile::cdiv(M, BM), tile::cdiv(N, BN)},
                        matmul_fma<BM, BN, BK>, A.data(), Bt.data(), X.data(),
                        Y.data(), C.data(), Z.data(), M, N, K);
  sample::DeviceArray<tile::half> DA(A, 0), DBt(Bt, 0);
  sample::DeviceArray<float> DX(X, 0), DY(Y, 0), DC(C.size(), 0),
      DZ(Z.size(), 0);
  poison(DC, DZ);
  CUDA_CHECK(tilecc::matmul_fma(DA.get(), DBt.get(), DX.get(), DY.get(),
                                DC.get(), DZ.get(), M, N, K, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  // At ieee precision both sum exact products with fma in k order: bit
  // for bit equal. The half product runs on tensor cores (mma.sync at
  // these blocks), which sum in another order.
  std::string L = "matmul_fma " + std::to_string(BM) + "x" +
                  std::to_string(BN) + "x" + std::to_string(BK);
  compare(L + " half (B transposed)", DC.download(), C, 1e-4);
  compare(L + " float, ieee", DZ.download(), Z, 0);
}

/// matmul_ptrs (float accumulator) and matmul_ptrs_f16acc (half) on M x K
/// A and K x N B (or B stored transposed, reached through its strides):
/// row-major with sizes divisible by 16 runs the unit-stride variant,
/// transposed B the aligned one, ragged sizes the generic one.
template <int BM, int BN, int BK>
void checkMatmulPtrsWith(int Config, int M, int N, int K, bool BTransposed) {
  auto A = randomHalves(size_t(M) * K, -1, 1);
  auto B = randomHalves(size_t(K) * N, -1, 1);
  const int StrideBk = BTransposed ? 1 : N, StrideBn = BTransposed ? K : 1;
  std::vector<tile::half> C(size_t(M) * N), C16(C.size());
  const tile::grid Grid{tile::cdiv(M, BM), tile::cdiv(N, BN)};
  tile::emulate::launch(Grid, matmul_ptrs<BM, BN, BK>, A.data(), B.data(),
                        C.data(), M, N, K, K, 1, StrideBk, StrideBn, N, 1);
  tile::emulate::launch(Grid, matmul_ptrs_f16acc<BM, BN, BK>, A.data(),
                        B.data(), C16.data(), M, N, K, K, 1, StrideBk, StrideBn,
                        N, 1);
  sample::DeviceArray<tile::half> DA(A, 0), DB(B, 0), DC(C.size(), 0),
      DC16(C.size(), 0);
  poison(DC, DC16);
  CUDA_CHECK(tilecc::matmul_ptrs(DA.get(), DB.get(), DC.get(), M, N, K, K, 1,
                                 StrideBk, StrideBn, N, 1, nullptr, Config));
  CUDA_CHECK(tilecc::matmul_ptrs_f16acc(DA.get(), DB.get(), DC16.get(), M, N, K,
                                        K, 1, StrideBk, StrideBn, N, 1, nullptr,
                                        Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  // Tensor cores sum in another order than the emulation.
  std::string L = "config " + std::to_string(Config) + " " + std::to_string(M) +
                  "x" + std::to_string(N) + "x" + std::to_string(K) +
                  (BTransposed ? " (B transposed)" : "");
  compare("matmul_ptrs " + L, DC.download(), C, 1e-2);
  compare("matmul_ptrs_f16acc " + L, DC16.download(), C16, 1e-2);
}

void checkMatmulPtrs() {
  for (bool BTransposed : {false, true}) {
    checkMatmulPtrsWith<128, 128, 64>(0, 256, 384, 320, BTransposed);
    checkMatmulPtrsWith<128, 128, 64>(0, 200, 136, 100, BTransposed);
    checkMatmulPtrsWith<64, 64, 32>(1, 192, 128, 96, BTransposed);
    checkMatmulPtrsWith<64, 64, 32>(1, 70, 50, 20, BTransposed);
    // 32 rows, fewer than a warpgroup's 64: mma.sync on every target.
    checkMatmulPtrsWith<32, 64, 32>(2, 192, 128, 96, BTransposed);
    checkMatmulPtrsWith<32, 64, 32>(2, 70, 50, 20, BTransposed);
    // K = 0: the TMA variant needs positive bounds; its twin is empty from
    // sm_90 on and declines, so the next variant writes the zeros.
    checkMatmulPtrsWith<128, 128, 64>(0, 256, 384, 0, BTransposed);
  }
}

/// two_dots_branch over 256 rows and key counts below, at and past a
/// block's multiple (the generic, aligned and TMA variants), both ways of
/// its condition: with an `if`, pipelined (configuration 0) or not (1),
/// with a `where` on it (2) and with a `where` on a per-row mask (3).
template <int Choice> void checkTwoDotsBranch(int Config) {
  const int M = 256, D = 64;
  for (int N : {70, 200, 256, 1000})
    for (int Keep : {0, 1}) {
      auto Q = randomHalves(size_t(M) * D, -1, 1);
      auto K = randomHalves(size_t(N) * D, -1, 1);
      auto V = randomHalves(size_t(N) * D, -1, 1);
      std::vector<float> Out(size_t(M) * D);
      tile::emulate::launch(tile::grid{M / 128},
                            two_dots_branch<128, 64, 64, Choice>, Q.data(),
                            K.data(), V.data(), Out.data(), M, N, Keep);
      sample::DeviceArray<tile::half> DQ(Q, 0), DK(K, 0), DV(V, 0);
      sample::DeviceArray<float> DOut(Out.size(), 0);
      poison(DOut);
      CUDA_CHECK(tilecc::two_dots_branch(DQ.get(), DK.get(), DV.get(),
                                         DOut.get(), M, N, Keep, nullptr,
                                         Config));
      CUDA_CHECK(cudaDeviceSynchronize());
      // P is rounded to half after exp2, which differs in its last bits.
      compare("two_dots_branch config " + std::to_string(Config) +
                  " n=" + std::to_string(N) + " keep=" + std::to_string(Keep),
              DOut.download(), Out, 1e-2);
    }
}

/// matmul_split_k on ragged sizes (the generic variant) and multiples of
/// 16 (the TMA one), against the emulation (fp32 sums in another order: a
/// relative tolerance); its rounded sums must be the device's own final
/// sums rounded, bit for bit (a split's add not yet landed when the last
/// one read them would show). c and col_sums start non-zero: the kernel
/// adds to them. Config tile::autotuned measures every configuration many
/// times, yet after the tuning call, and after a second call that finds
/// the choice made, they must hold one launch's sums.
template <int BM, int BN, int BK, int Splits>
void checkSplitKWith(int Config, int M, int N, int K) {
  auto A = randomHalves(size_t(M) * K, -1, 1);
  auto B = randomHalves(size_t(K) * N, -1, 1);
  const std::vector<float> C0 = randomFloats(size_t(M) * N, -1, 1),
                           Sums0 = randomFloats(N, -1, 1);
  std::vector<float> C = C0, Sums = Sums0;
  std::vector<tile::half> Rounded(C.size());
  const tile::grid Grid{tile::cdiv(M, BM), tile::cdiv(N, BN), Splits};
  std::vector<int> Arrivals(size_t(Grid.x) * Grid.y, 0);
  tile::emulate::launch(Grid, matmul_split_k<BM, BN, BK, Splits>, A.data(),
                        B.data(), C.data(), Sums.data(), Rounded.data(),
                        Arrivals.data(), M, N, K);
  sample::DeviceArray<tile::half> DA(A, 0), DB(B, 0), DRounded(C.size(), 0);
  sample::DeviceArray<float> DC(C0, 0), DSums(Sums0, 0);
  // As many counters as the configuration with the smallest blocks needs.
  const std::vector<int> Zeros(size_t(tile::cdiv(M, 32)) * tile::cdiv(N, 32),
                               0);
  sample::DeviceArray<int> DArrivals(Zeros, 0);
  const bool Tuned = Config == tile::autotuned;
  for (int Call = 0; Call < (Tuned ? 2 : 1); ++Call) {
    DC.upload(C0);
    DSums.upload(Sums0);
    DArrivals.upload(Zeros);
    CUDA_CHECK(tilecc::matmul_split_k(DA.get(), DB.get(), DC.get(), DSums.get(),
                                      DRounded.get(), DArrivals.get(), M, N, K,
                                      nullptr, Config));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::string L = "matmul_split_k " +
                          (Tuned ? std::string(Call ? "tuned" : "tuning")
                                 : "config " + std::to_string(Config)) +
                          " " + std::to_string(M) + "x" + std::to_string(N) +
                          "x" + std::to_string(K);
    const std::vector<float> Final = DC.download();
    compare(L + " c", Final, C, 1e-4);
    compare(L + " column sums", DSums.download(), Sums, 1e-4);
    std::vector<float> FinalRounded;
    for (float V : Final)
      FinalRounded.push_back(float(tile::half(V)));
    compare(L + " rounded by the last split", DRounded.download_floats(),
            FinalRounded, 0);
  }
}

/// matmul_step_adds, ragged (generic variant) and aligned (TMA variant).
void checkStepAdds(int M, int N, int K) {
  auto A = randomHalves(size_t(M) * K, -1, 1);
  auto B = randomHalves(size_t(K) * N, -1, 1);
  std::vector<float> C(size_t(M) * N, 0.0f);
  tile::emulate::launch(tile::grid{tile::cdiv(M, 64), tile::cdiv(N, 64)},
                        matmul_step_adds<64, 64, 32>, A.data(), B.data(),
                        C.data(), M, N, K);
  sample::DeviceArray<tile::half> DA(A, 0), DB(B, 0);
  sample::DeviceArray<float> DC(std::vector<float>(C.size(), 0.0f), 0);
  CUDA_CHECK(tilecc::matmul_step_adds(DA.get(), DB.get(), DC.get(), M, N, K));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("matmul_step_adds " + std::to_string(M) + "x" + std::to_string(N) +
              "x" + std::to_string(K),
          DC.download(), C, 1e-4);
}

/// transposed_dot with 8 warps and with 4, against the emulation (P is
/// rounded to half in both; sums in another order), for row counts a
/// multiple of the block, a multiple of 16 only (TMA's last box partly
/// past the end) and neither (no TMA). With ADD the product is added to
/// random values.
template <int BM, int BN, int D, int ADD> void checkTransposedDot(int Config) {
  for (int M : {256, 208, 200}) {
    auto K = randomHalves(size_t(BN) * D, -1, 1);
    auto Q = randomHalves(size_t(M) * D, -1, 1);
    std::vector<float> Out = ADD ? randomFloats(size_t(M) * D, -1, 1)
                                 : std::vector<float>(size_t(M) * D);
    sample::DeviceArray<float> DOut(Out, 0);
    if (!ADD)
      poison(DOut);
    tile::emulate::launch(tile::grid{1}, transposed_dot<BM, BN, D, ADD>,
                          K.data(), Q.data(), Out.data(), M);
    sample::DeviceArray<tile::half> DK(K, 0), DQ(Q, 0);
    CUDA_CHECK(tilecc::transposed_dot(DK.get(), DQ.get(), DOut.get(), M,
                                      nullptr, Config));
    CUDA_CHECK(cudaDeviceSynchronize());
    compare("transposed_dot config " + std::to_string(Config) +
                " m=" + std::to_string(M),
            DOut.download(), Out, 2e-2);
  }
}

/// tf32_reduced against the emulation (both read fp32 as TF32; sums in
/// another order): the product, its row sums and its column maxima.
template <int BM, int BN, int BK> void checkTf32Reduced(int Config) {
  const int K = 96;
  auto A = randomFloats(size_t(BM) * K, -1, 1);
  auto B = randomFloats(size_t(K) * BN, -1, 1);
  std::vector<float> C(BM * BN), Sums(BM), Max(BN);
  tile::emulate::launch(tile::grid{1}, tf32_reduced<BM, BN, BK>, A.data(),
                        B.data(), C.data(), Sums.data(), Max.data(), K);
  sample::DeviceArray<float> DA(A, 0), DB(B, 0), DC(C.size(), 0),
      DSums(Sums.size(), 0), DMax(Max.size(), 0);
  poison(DC, DSums, DMax);
  CUDA_CHECK(tilecc::tf32_reduced(DA.get(), DB.get(), DC.get(), DSums.get(),
                                  DMax.get(), K, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::string What = "tf32_reduced config " + std::to_string(Config);
  compare(What, DC.download(), C, 1e-3);
  compare(What + " row sums", DSums.download(), Sums, 1e-3);
  compare(What + " column maxima", DMax.download(), Max, 1e-3);
}

/// chained_dots_fp8, chained_dots_tf32 and chained_dots_i8 against the
/// emulation, on small integers, so that S and P are exact on both sides
/// and only the last sums' order (and the fp8 tensor cores' narrower sums)
/// differ.
template <class T, class Launch, class Emulated>
void checkChainedDots(const char *Name, Launch Run, Emulated Kernel) {
  const int Seq = 256, D = 64, BM = 64;
  auto Integers = [](size_t N, float Lo, float Hi) {
    std::vector<T> V;
    for (float F : randomFloats(N, Lo, Hi))
      V.push_back(T(std::round(F)));
    return V;
  };
  auto Q = Integers(size_t(BM) * D, -2, 2),
       K = Integers(size_t(Seq) * D, -2, 2),
       Vt = Integers(size_t(D) * Seq, -1, 1);
  std::vector<float> Out(size_t(BM) * D);
  tile::emulate::launch(tile::grid{1}, Kernel, Q.data(), K.data(), Vt.data(),
                        Out.data(), Seq);
  sample::DeviceArray<T> DQ(Q, 0), DK(K, 0), DVt(Vt, 0);
  sample::DeviceArray<float> DOut(Out.size(), 0);
  poison(DOut);
  CUDA_CHECK(Run(DQ.get(), DK.get(), DVt.get(), DOut.get(), Seq));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare(Name, DOut.download(), Out, 2e-3);
}

/// invariant_b_dot against the emulation, over row blocks past the one
/// the prefetch starts with.
template <int BM, int BN, int D> void checkInvariantBDot(int Config) {
  const int M = 320;
  auto K = randomHalves(size_t(BN) * D, -1, 1);
  auto Q = randomHalves(size_t(M) * D, -1, 1);
  std::vector<float> Out(size_t(M) * BN);
  tile::emulate::launch(tile::grid{1}, invariant_b_dot<BM, BN, D>, K.data(),
                        Q.data(), Out.data(), M);
  sample::DeviceArray<tile::half> DK(K, 0), DQ(Q, 0);
  sample::DeviceArray<float> DOut(Out.size(), 0);
  poison(DOut);
  CUDA_CHECK(tilecc::invariant_b_dot(DK.get(), DQ.get(), DOut.get(), M, nullptr,
                                     Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("invariant_b_dot config " + std::to_string(Config), DOut.download(),
          Out, 1e-3);
}

/// invariant_b_acc against the emulation (P is rounded to half in both).
template <int BN, int BM, int D> void checkInvariantBAcc(int Config) {
  const int M = 320;
  auto K = randomHalves(size_t(BN) * D, -1, 1);
  auto Q = randomHalves(size_t(M) * D, -1, 1);
  auto W = randomHalves(size_t(BM) * D, -1, 1);
  std::vector<float> Out(static_cast<size_t>(BN) * D);
  tile::emulate::launch(tile::grid{1}, invariant_b_acc<BN, BM, D>, K.data(),
                        Q.data(), W.data(), Out.data(), M);
  sample::DeviceArray<tile::half> DK(K, 0), DQ(Q, 0), DW(W, 0);
  sample::DeviceArray<float> DOut(Out.size(), 0);
  poison(DOut);
  CUDA_CHECK(tilecc::invariant_b_acc(DK.get(), DQ.get(), DW.get(), DOut.get(),
                                     M, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("invariant_b_acc config " + std::to_string(Config), DOut.download(),
          Out, 2e-2);
}

template <int Block> void checkHistogramWith(int Config) {
  const int N = 5003, Bins = 37;
  auto X = randomInts(N, 0, 1000);
  std::vector<int> Hist(Bins, 0), Programs(1, 0);
  std::vector<float> Peak(Bins, -INFINITY);
  tile::emulate::launch(tile::grid{tile::cdiv(N, Block)}, histogram<Block>,
                        X.data(), Hist.data(), Peak.data(), Programs.data(), N,
                        Bins);
  sample::DeviceArray<int> DX(X, 0), DHist(std::vector<int>(Bins, 0), 0),
      DPrograms(std::vector<int>(1, 0), 0);
  sample::DeviceArray<float> DPeak(std::vector<float>(Bins, -INFINITY), 0);
  CUDA_CHECK(tilecc::histogram(DX.get(), DHist.get(), DPeak.get(),
                               DPrograms.get(), N, Bins, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::string L = "histogram BLOCK=" + std::to_string(Block);
  compare(L + " counts", DHist.download(), Hist, 0);
  compare(L + " peaks", DPeak.download(), Peak, 0);
  compare(L + " programs", DPrograms.download(), Programs, 0);
}

void checkHalfSums() {
  // At most about 100 adds to a bin: exact in half (ones) and bfloat16
  // (halves).
  const int N = 4099, Bins = 64;
  auto X = randomInts(N, 0, Bins - 1);
  std::vector<tile::half> H(Bins, tile::half(0.0f));
  std::vector<tile::bfloat16> B(Bins, tile::bfloat16(0.0f));
  tile::emulate::launch(tile::grid{tile::cdiv(N, 256)}, half_sums<256>,
                        X.data(), H.data(), B.data(), N);
  sample::DeviceArray<int> DX(X, 0);
  sample::DeviceArray<tile::half> DH(
      std::vector<tile::half>(Bins, tile::half(0.0f)), 0);
  sample::DeviceArray<tile::bfloat16> DB(
      std::vector<tile::bfloat16>(Bins, tile::bfloat16(0.0f)), 0);
  CUDA_CHECK(tilecc::half_sums(DX.get(), DH.get(), DB.get(), N));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("half_sums half", DH.download(), H, 0);
  compare("half_sums bfloat16", DB.download(), B, 0);
}

template <int Rows, int Cols> void checkRunningSumsWith(int Config, int Steps) {
  const int NRows = 150;
  auto X = randomFloats(size_t(NRows) * Steps * Cols, -1, 1);
  auto Decay = randomFloats(size_t(NRows) * Steps, 0, 1);
  auto Start = randomFloats(NRows, -4, 4);
  std::vector<float> Want(2 * size_t(NRows));
  tile::emulate::launch(tile::grid{tile::cdiv(NRows, Rows)},
                        running_sums<Rows, Cols>, X.data(), Decay.data(),
                        Start.data(), Want.data(), NRows, Steps);
  sample::DeviceArray<float> DX(X, 0), DDecay(Decay, 0), DStart(Start, 0),
      DOut(Want.size(), 0);
  poison(DOut);
  CUDA_CHECK(tilecc::running_sums(DX.get(), DDecay.get(), DStart.get(),
                                  DOut.get(), NRows, Steps, nullptr, Config));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("running_sums " + std::to_string(Rows) + "x" + std::to_string(Cols) +
              ", " + std::to_string(Steps) + " steps",
          DOut.download(), Want, 1e-5);
}

/// chain_first then a kernel launched early that reads its output, in one
/// stream, again and again on fresh inputs: each output must be the one
/// chain_first has just written, never a stale or poisoned one.
template <class Next> void checkChainWith(const std::string &What, Next next) {
  const int N = (1 << 22) + 5, Steps = 64;
  sample::DeviceArray<float> DX(size_t(N), 0), DBias(size_t(N), 0),
      DY(size_t(N), 0), DZ(size_t(N), 0);
  for (int Round = 0; Round < 4; ++Round) {
    auto X = randomFloats(N, -4, 4), Bias = randomFloats(N, -1, 1);
    std::vector<float> Y(N), Want(N);
    tile::emulate::launch(tile::grid{tile::cdiv(N, 1024)}, chain_first<1024>,
                          X.data(), Y.data(), N, Steps);
    for (int I = 0; I < N; ++I)
      Want[I] = Y[I] + Bias[I];
    DX.upload(X);
    DBias.upload(Bias);
    poison(DY, DZ);
    CUDA_CHECK(tilecc::chain_first(DX.get(), DY.get(), N, Steps));
    CUDA_CHECK(next(DBias.get(), DY.get(), DZ.get(), N));
    CUDA_CHECK(cudaDeviceSynchronize());
    compare(What + ", round " + std::to_string(Round), DZ.download(), Want, 0);
  }
}

/// aligned_scale assumes aligned arguments: it runs with them (n % 4 == 0
/// is what its float vectors need), and refuses an unaligned pointer or a
/// size its aligned variant cannot take without touching memory.
void checkAssumed() {
  for (auto [N, Shift] :
       {std::pair{4096, 0}, {4096, 1}, {4100, 0}, {4102, 0}}) {
    auto X = randomFloats(N, -4, 4);
    std::vector<float> Want(N);
    tile::emulate::launch(tile::grid{tile::cdiv(N, 1024)}, aligned_scale<1024>,
                          X.data(), Want.data(), N);
    sample::DeviceArray<float> DX(X, Shift), DOut(N, Shift);
    poison(DOut);
    const cudaError_t Status = tilecc::aligned_scale(DX.get(), DOut.get(), N);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::string What = "aligned_scale n=" + std::to_string(N) +
                             " shift=" + std::to_string(Shift);
    if (N % 4 == 0 && Shift == 0) {
      CUDA_CHECK(Status);
      compare(What, DOut.download(), Want, 0);
    } else if (Status != cudaErrorInvalidValue) {
      std::printf("FAIL: %s: launched (%s), not refused\n", What.c_str(),
                  cudaGetErrorString(Status));
      ++Failures;
    } else if (const auto Got = DOut.download();
               !std::all_of(Got.begin(), Got.end(),
                            [](float V) { return std::isnan(V); })) {
      std::printf("FAIL: %s: refused, but the output was written\n",
                  What.c_str());
      ++Failures;
    } else {
      std::printf("ok: %s refused (cudaErrorInvalidValue)\n", What.c_str());
    }
  }
}

/// std_math on the GPU against emulation: the same C++ on the CPU. A NaN
/// matches a NaN (payloads differ); other values within the device math
/// library's error: a few ulps, and for sin and cos about 5e-7 absolute
/// (measured on an H200: sin(-3.25) + cos(1.5) off by 5.1e-7).
void checkStdMath() {
  const float Inf = std::numeric_limits<float>::infinity();
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  const struct {
    float S, T;
    int K, J;
  } Cases[] = {{2.5f, -0.75f, 7, -3}, {-3.25f, 1.5f, -9, 2},
               {-0.0f, 0.0f, 0, 0},   {NaN, 1.0f, 5, 5},
               {1.0f, NaN, -1, 1},    {Inf, -Inf, 100, -100},
               {1e-40f, 3.0f, 4, 3}};
  for (const auto &C : Cases) {
    constexpr int N = 32;
    std::vector<float> Want(N);
    std::vector<int> WantI(N);
    tile::emulate::launch(tile::grid{1}, std_math<N>, Want.data(), WantI.data(),
                          C.S, C.T, C.K, C.J);
    sample::DeviceArray<float> DOut(N, 0);
    sample::DeviceArray<int> DI(N, 0);
    CUDA_CHECK(tilecc::std_math(DOut.get(), DI.get(), C.S, C.T, C.K, C.J));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> Got = DOut.download();
    const std::string What = "std_math s=" + std::to_string(C.S) +
                             " t=" + std::to_string(C.T) +
                             " k=" + std::to_string(C.K);
    for (int I = 0; I < N; ++I) {
      const float G = Got[I], W = Want[I];
      if ((std::isnan(G) && std::isnan(W)) || G == W ||
          std::fabs(G - W) <= 1e-6f + 2e-6f * std::fabs(W))
        continue;
      std::printf("FAIL: %s: slot %d: got %.9g, want %.9g\n", What.c_str(), I,
                  G, W);
      ++Failures;
    }
    compare(What + " (integers)", DI.download(), WantI, 0);
  }
}

/// add_one_64 over windows of a 3 GiB buffer past 2^31 bytes, aligned (the
/// vectorized variant) and not: each element of the window is x + 1, every
/// byte around it untouched, as in emulation (tests/unit: the same kernel).
void checkIndex64() {
  constexpr int64_t Size = int64_t(3) << 30, Window = 1 << 20, Margin = 4096;
  sample::DeviceArray<int8_t> DX(Size, 0), DY(Size, 0);
  for (const int64_t Base : {(int64_t(1) << 31) + 12345,
                             (int64_t(1) << 31) + 4096, Size - Window - 16}) {
    const int64_t N = Base + Window;
    // The window and its margins, clipped to the buffer.
    const int64_t Span = std::min(Window + 2 * Margin, Size - (Base - Margin));
    std::vector<int8_t> X(Span), Y(Span);
    for (int64_t I = 0; I < Span; ++I)
      X[I] = int8_t(I * 7 + 3);
    CUDA_CHECK(cudaMemcpy(DX.get() + Base - Margin, X.data(), Span,
                          cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(DY.get() + Base - Margin, 0x5a, Span));
    CUDA_CHECK(tilecc::add_one_64(DX.get(), DY.get(), Base, N));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(Y.data(), DY.get() + Base - Margin, Span,
                          cudaMemcpyDeviceToHost));
    int64_t Wrong = 0;
    for (int64_t I = 0; I < Span; ++I) {
      const bool In = I >= Margin && I < Margin + Window;
      Wrong += Y[I] != (In ? int8_t(X[I] + 1) : int8_t(0x5a));
    }
    const std::string What = "add_one_64 base=" + std::to_string(Base);
    if (Wrong) {
      std::printf("FAIL: %s: %lld bytes wrong\n", What.c_str(),
                  static_cast<long long>(Wrong));
      ++Failures;
    } else {
      std::printf("ok: %s\n", What.c_str());
    }
  }
}

/// early_exit against emulation: the programs past the end return at once
/// (out keeps its poison past n), the others skip every third step.
void checkEarlyExit() {
  for (const int Mode : {0, 1}) {
    constexpr int N = 1000, Steps = 7;
    auto X = randomFloats(N, -2, 2);
    std::vector<float> Want(N + 256, 0.0f);
    sample::DeviceArray<float> DX(X, 0), DOut(Want.size(), 0);
    poison(DOut);
    std::memset(Want.data(), 0xff, Want.size() * sizeof(float));
    tile::emulate::launch(tile::grid{tile::cdiv(N, 128) + 2}, early_exit<128>,
                          X.data(), Want.data(), N, Steps, Mode);
    CUDA_CHECK(tilecc::early_exit(DX.get(), DOut.get(), N, Steps, Mode));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> Got = DOut.download();
    compare("early_exit mode=" + std::to_string(Mode),
            std::vector<float>(Got.begin(), Got.begin() + N),
            std::vector<float>(Want.begin(), Want.begin() + N), 1e-5);
    if (!std::all_of(Got.begin() + N, Got.end(),
                     [](float V) { return std::isnan(V); })) {
      std::printf("FAIL: early_exit mode=%d wrote past n\n", Mode);
      ++Failures;
    }
  }
}

/// breaks against emulation: rows of positive values stop after a few
/// blocks, each row at its own step; the counts (steps, the while loop's j,
/// the nested loops' pairs, the polling loop's iterations and polls, the
/// last step of the returning loop) must match exactly: a condition
/// evaluated once more after its break would leave 4 polls instead of 3;
/// row 5 returns from its loop and leaves its zeros.
void checkBreaks() {
  constexpr int Rows = 6, N = 1000, Block = 64;
  auto X = randomFloats(size_t(Rows) * N, 0, 1);
  const float Limit = 100.0f;
  std::vector<float> Want(Rows * Block, 0.0f);
  std::vector<int> WantCounts(Rows * 6, 0);
  sample::DeviceArray<float> DX(X, 0), DOut(Want, 0);
  sample::DeviceArray<int> DCounts(WantCounts, 0);
  tile::emulate::launch(tile::grid{Rows}, breaks<Block>, X.data(), Want.data(),
                        WantCounts.data(), N, Limit);
  CUDA_CHECK(tilecc::breaks(DX.get(), DOut.get(), DCounts.get(), N, Limit));
  CUDA_CHECK(cudaDeviceSynchronize());
  compare("breaks", DOut.download(), Want, 1e-5);
  compare("breaks (counts)", DCounts.download(), WantCounts, 0);
}

void checkChains() {
  checkChainWith("chain_next (launch_pdl, gdc_wait)",
                 [](const float *B, const float *Y, float *Z, int N) {
                   return tilecc::chain_next(B, Y, Z, N);
                 });
  checkChainWith("chain_next_at_entry (launch_pdl)",
                 [](const float *B, const float *Y, float *Z, int N) {
                   return tilecc::chain_next_at_entry(B, Y, Z, N);
                 });
}

void checkReductions() {
  checkReductionsWith<4, 64>(0);
  checkReductionsWith<16, 256>(1);
  checkReductionsWith<2, 16>(2);
  for (int Steps : {0, 1, 9}) {
    checkRunningSumsWith<64, 32>(0, Steps);
    checkRunningSumsWith<16, 128>(1, Steps);
    checkRunningSumsWith<4, 256>(2, Steps); // warps share rows: not deferred
    checkRunningSumsWith<8, 8>(3, Steps);   // fewer elements than threads
  }
}

} // namespace

int main() {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  for (size_t Shift : {0, 1}) {
    for (int C = 0; C < tilecc::float_ops_num_configs; ++C)
      checkFloatOps(C, Shift);
    checkIntOps(Shift);
    checkInvariantDivisions(Shift);
    checkLibdevice(Shift);
    checkBits(Shift);
    for (int C = 0; C < tilecc::random_num_configs; ++C)
      checkRandom(C, Shift);
    for (int C = 0; C < tilecc::matrix_num_configs; ++C)
      checkMatrix(C, Shift);
    checkLoops(Shift);
    checkHalves(Shift);
    checkEights(Shift);
    for (int Stride : {1, 3})
      checkStrided(Stride, Shift);
  }
  checkHinted();
  checkReductions();
  checkCombines();
  checkMatmulWith<32, 32, 16>(0);
  checkMatmulWith<16, 64, 32>(1);
  checkMatmulWith<32, 32, 256>(2); // 64 KB of fp32 operands: dynamic scratch
  checkMatmulPtrs();
  checkTwoDotsBranch<0>(0);
  checkTwoDotsBranch<0>(1);
  checkTwoDotsBranch<1>(2);
  checkTwoDotsBranch<2>(3);
  checkSplitKWith<64, 64, 32, 4>(0, 150, 70, 333);
  checkSplitKWith<32, 32, 16, 3>(1, 150, 70, 333);
  checkSplitKWith<64, 64, 32, 4>(0, 192, 128, 320);
  checkSplitKWith<32, 32, 16, 3>(1, 192, 128, 320);
  checkSplitKWith<64, 64, 32, 4>(tile::autotuned, 150, 70, 333);
  checkSplitKWith<64, 64, 32, 4>(tile::autotuned, 192, 128, 320);
  checkTf32Reduced<64, 64, 32>(0);
  checkTf32Reduced<64, 64, 32>(1);
  checkTf32Reduced<128, 64, 32>(2);
  checkTf32Reduced<64, 64, 32>(3);
  checkChainedDots<tile::float8_e4m3>(
      "chained_dots_fp8",
      [](auto... Args) { return tilecc::chained_dots_fp8(Args...); },
      chained_dots_fp8<64, 64, 64>);
  checkChainedDots<float>(
      "chained_dots_tf32",
      [](auto... Args) { return tilecc::chained_dots_tf32(Args...); },
      chained_dots_tf32<64, 64, 64>);
  checkChainedDots<int8_t>(
      "chained_dots_i8",
      [](auto... Args) { return tilecc::chained_dots_i8(Args...); },
      chained_dots_i8<64, 64, 64>);
  checkTransposedDot<64, 64, 64, 0>(0);
  checkTransposedDot<64, 64, 64, 0>(1);
  checkTransposedDot<64, 128, 128, 0>(2); // 48 KB of scratch, static on sm_80
  checkTransposedDot<64, 64, 64, 0>(3);   // pipelined: K's block resident
  checkTransposedDot<64, 128, 128, 0>(4);
  checkTransposedDot<64, 64, 64, 0>(5); // a producer warpgroup
  checkTransposedDot<64, 128, 128, 0>(6);
  checkTransposedDot<64, 64, 64, 1>(7); // added by TMA
  checkTransposedDot<64, 128, 128, 1>(8);
  checkTransposedDot<32, 64, 64, 1>(9); // 32 rows: mma.sync
  checkInvariantBDot<64, 64, 64>(0);
  checkInvariantBDot<64, 128, 64>(1);
  checkInvariantBAcc<64, 64, 64>(0);
  checkInvariantBAcc<128, 64, 64>(1);
  checkStepAdds(150, 70, 333);
  checkStepAdds(192, 128, 320);
  checkHistogramWith<256>(0);
  checkHistogramWith<16>(1);
  checkHalfSums();
  checkChains();
  checkAssumed();
  checkStdMath();
  checkIndex64();
  checkEarlyExit();
  checkBreaks();
  // An empty grid launches nothing and succeeds; a bad config is refused.
  CUDA_CHECK(tilecc::float_ops(nullptr, nullptr, nullptr, 0));
  if (tilecc::float_ops(nullptr, nullptr, nullptr, 16, nullptr, 7) !=
      cudaErrorInvalidValue) {
    std::printf("FAIL: config 7 was not refused\n");
    ++Failures;
  }
  std::printf("%d failed\n", Failures);
  return Failures ? 1 : 0;
}
