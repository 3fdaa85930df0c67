// The conformance suite's harness: one test source runs its kernels in
// emulation (built without CONFORMANCE_GPU: a CPU test CI runs) or on the
// GPU through their launch wrappers (built with it), and compares both with
// references written here, independently of tile.hpp. Each check is one row
// of docs/conformance.md: a case and an element type.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <tile/tile.hpp>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef CONFORMANCE_GPU
#include <cuda_runtime.h>
#endif

namespace conformance {

inline int Failures = 0;

/// Where the kernels run, for the report.
inline const char *target() {
#ifdef CONFORMANCE_GPU
  return "gpu";
#else
  return "emulation";
#endif
}

/// A host array, mirrored on the device for a GPU run: uploaded before a
/// launch, downloaded after it.
template <class T> class Buffer {
public:
  explicit Buffer(const std::vector<T> &Values)
      : Host(Values.begin(), Values.end()) {}
  explicit Buffer(std::size_t N, T Fill = T{}) : Host(N, Fill) {}
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() {
#ifdef CONFORMANCE_GPU
    cudaFree(Device);
#endif
  }

  /// The values the host holds (after a run: the kernel's).
  std::vector<T> values() const { return {Host.begin(), Host.end()}; }

  /// The pointer a kernel gets.
  T *target() {
#ifdef CONFORMANCE_GPU
    return Device;
#else
    return reinterpret_cast<T *>(Host.data());
#endif
  }

  void upload() {
#ifdef CONFORMANCE_GPU
    if (!Device)
      check(cudaMalloc(&Device, bytes()));
    check(cudaMemcpy(Device, Host.data(), bytes(), cudaMemcpyHostToDevice));
#endif
  }
  void download() {
#ifdef CONFORMANCE_GPU
    check(cudaMemcpy(Host.data(), Device, bytes(), cudaMemcpyDeviceToHost));
#endif
  }

private:
  std::size_t bytes() const { return Host.size() * sizeof(Stored); }
#ifdef CONFORMANCE_GPU
  static void check(cudaError_t E) {
    if (E != cudaSuccess) {
      std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(E));
      std::exit(1);
    }
  }
  T *Device = nullptr;
#endif
  // std::vector<bool> has no data(): bools are kept as bytes.
  using Stored = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;
  std::vector<Stored> Host;
};

/// A tensor descriptor argument made on the host over a buffer's values
/// (T const for a read-only one); the buffer moves with the run.
template <class T, int Rank> struct Descriptor {
  Buffer<std::remove_const_t<T>> &Data;
  std::array<int, Rank> Shape, Strides;

  tile::host_tensor_descriptor<T, Rank> target() {
    tile::host_tensor_descriptor<T, Rank> D{Data.target(), {}, {}};
    std::copy(Shape.begin(), Shape.end(), D.shape);
    std::copy(Strides.begin(), Strides.end(), D.strides);
    return D;
  }
  void upload() { Data.upload(); }
  void download() { Data.download(); }
};

template <class X> struct is_buffer : std::false_type {};
template <class T> struct is_buffer<Buffer<T>> : std::true_type {};
template <class T, int Rank>
struct is_buffer<Descriptor<T, Rank>> : std::true_type {};

template <class X> decltype(auto) argument(X &Arg) {
  if constexpr (is_buffer<std::remove_cvref_t<X>>::value)
    return Arg.target();
  else
    return Arg;
}

/// Runs Launch (a kernel in emulation, or its wrapper) on the arguments:
/// buffers are uploaded first and downloaded after.
template <class Launch, class... A> void run(Launch L, A &&...Args) {
  auto Upload = [](auto &Arg) {
    if constexpr (is_buffer<std::remove_cvref_t<decltype(Arg)>>::value)
      Arg.upload();
  };
  auto Download = [](auto &Arg) {
    if constexpr (is_buffer<std::remove_cvref_t<decltype(Arg)>>::value)
      Arg.download();
  };
  (Upload(Args), ...);
  L(argument(Args)...);
  (Download(Args), ...);
}

/// Runs KERNEL with meta-parameter META, its configuration number CONFIG
/// (the wrapper's config argument; emulation instantiates META itself).
#ifdef CONFORMANCE_GPU
#define CONFORMANCE_RUN_CONFIG(KERNEL, META, CONFIG, ...)                      \
  ::conformance::run(                                                          \
      [](auto... A) {                                                          \
        cudaError_t E = tilecc::KERNEL(A..., nullptr, CONFIG);                 \
        if (E == cudaSuccess)                                                  \
          E = cudaDeviceSynchronize();                                         \
        if (E != cudaSuccess) {                                                \
          std::fprintf(stderr, "%s: %s\n", #KERNEL, cudaGetErrorString(E));    \
          std::exit(1);                                                        \
        }                                                                      \
      },                                                                       \
      __VA_ARGS__)
#else
#define CONFORMANCE_RUN_CONFIG(KERNEL, META, CONFIG, ...)                      \
  ::conformance::run(                                                          \
      [](auto... A) {                                                          \
        tile::emulate::launch(KERNEL##_grid<META>(A...), KERNEL<META>, A...);  \
      },                                                                       \
      __VA_ARGS__)
#endif
/// Runs KERNEL's only (or first) configuration, whose meta-parameter is META.
#define CONFORMANCE_RUN(KERNEL, META, ...)                                     \
  CONFORMANCE_RUN_CONFIG(KERNEL, META, 0, __VA_ARGS__)

/// The bits of a value, for exact comparison (NaN payloads aside).
template <class T> bool sameValue(T A, T B) {
  if constexpr (!std::is_integral_v<T>)
    if (std::isnan(float(A)) && std::isnan(float(B)))
      return true;
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

/// A value as a double (16- and 8-bit floats by way of float, which holds
/// them exactly), for messages and references.
template <class T> double asDouble(T V) {
  if constexpr (std::is_arithmetic_v<T>)
    return static_cast<double>(V);
  else
    return static_cast<double>(static_cast<float>(V));
}

/// One row of the report: a case and an element type, over one or more
/// compared arrays (an operation each, say); the first difference named.
class Row {
public:
  Row(std::string Case, std::string Type)
      : Case(std::move(Case)), Type(std::move(Type)) {}

  /// Got must equal Want exactly (NaN matches NaN).
  template <class T>
  Row &exact(const std::vector<T> &Got, const std::vector<T> &Want,
             const char *What = "") {
    for (std::size_t I = 0; I < Want.size(); ++I)
      note(sameValue(Got[I], Want[I]), What, I, asDouble(Got[I]),
           asDouble(Want[I]));
    return *this;
  }

  /// Got within RelTol of Want, relative to |Want| (at least 1); equal
  /// infinities and NaNs match.
  template <class T>
  Row &close(const std::vector<T> &Got, const std::vector<T> &Want,
             double RelTol, const char *What = "") {
    for (std::size_t I = 0; I < Want.size(); ++I) {
      const double G = asDouble(Got[I]), W = asDouble(Want[I]);
      note(sameValue(Got[I], Want[I]) ||
               std::fabs(G - W) <= RelTol * std::max(1.0, std::fabs(W)),
           What, I, G, W);
    }
    return *this;
  }

  /// Prints the row: its values' count, or the first that differs.
  void report() const {
    if (Bad) {
      ++Failures;
      std::printf("FAIL %-30s %-18s %s: %zu of %zu differ (in%s); first: "
                  "%s[%zu] got %.9g, want %.9g\n",
                  Case.c_str(), Type.c_str(), target(), Bad, Count,
                  Failed.c_str(), FirstWhat.c_str(), FirstIndex, FirstGot,
                  FirstWant);
    } else {
      std::printf("pass %-30s %-18s %s (%zu values)\n", Case.c_str(),
                  Type.c_str(), target(), Count);
    }
  }

private:
  void note(bool Same, const char *What, std::size_t I, double Got,
            double Want) {
    ++Count;
    if (Same)
      return;
    if (*What &&
        Failed.find(std::string(" ") + What + ",") == std::string::npos)
      Failed += std::string(" ") + What + ",";
    if (Bad++)
      return;
    FirstWhat = What;
    FirstIndex = I;
    FirstGot = Got;
    FirstWant = Want;
  }

  // Failed lists what differed: " x+y, x*y,".
  std::string Case, Type, FirstWhat, Failed;
  std::size_t Count = 0, Bad = 0, FirstIndex = 0;
  double FirstGot = 0, FirstWant = 0;
};

/// One row: Got must equal Want exactly (NaN matches NaN).
template <class T>
void expectExact(const std::string &Case, const std::string &Type,
                 const std::vector<T> &Got, const std::vector<T> &Want) {
  Row(Case, Type).exact(Got, Want).report();
}

/// One row: Got within RelTol of Want, relative to |Want| (at least 1).
template <class T>
void expectClose(const std::string &Case, const std::string &Type,
                 const std::vector<T> &Got, const std::vector<T> &Want,
                 double RelTol) {
  Row(Case, Type).close(Got, Want, RelTol).report();
}

inline int finish() {
  std::printf("%d failed\n", Failures);
  return Failures ? 1 : 0;
}

} // namespace conformance
