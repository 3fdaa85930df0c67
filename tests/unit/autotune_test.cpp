//===- autotune_test.cpp - The launch wrappers' tuner on a simulated GPU --===//
//
// tile/detail/tuner.hpp is a template over the runtime it calls; here the
// runtime is a simulated device whose kernels take a set time on a clock
// the simulated events read, and whose buffers are host memory.
//
//===----------------------------------------------------------------------===//

#include "tile/detail/tuner.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/wait.h>
#include <thread>

namespace {

namespace at = tile::detail::autotune;

/// A device: one stream, a clock that launches advance, events that read
/// it, and a log of what the tuner asked for.
struct SimulatedApi {
  using error_t = int;
  using stream_t = int;
  using event_t = int;
  static constexpr int success = 0;
  static constexpr int invalid_value = 1;

  static inline std::mutex Mutex; // the simulated device is shared
  static inline double Clock = 0;
  static inline std::vector<double> Events;
  static inline int Device = 0;
  static inline bool Capturing = false;
  static inline int Flushes = 0, FailedLaunchesTaken = 0, Allocations = 0;

  static void reset() {
    Clock = 0;
    Events.clear();
    Device = 0;
    Capturing = false;
    Flushes = FailedLaunchesTaken = Allocations = 0;
  }

  static int current_device() { return Device; }
  static std::string device_name(int D) {
    return D == 0 ? "Simulated G100" : "Simulated G200";
  }
  static long long driver_version() { return 13000; }
  static bool capturing(int) { return Capturing; }
  static bool launch_failed(int E) {
    FailedLaunchesTaken += E != success;
    return E != success;
  }
  static int allocate(void **P, std::size_t Bytes) {
    ++Allocations;
    *P = std::malloc(Bytes ? Bytes : 1);
    return *P ? success : invalid_value;
  }
  static void release(void *P) { std::free(P); }
  static int zero(void *P, std::size_t Bytes, int) {
    std::memset(P, 0, Bytes);
    return success;
  }
  static int copy(void *To, const void *From, std::size_t Bytes, int) {
    std::memcpy(To, From, Bytes);
    return success;
  }
  static int flush_l2(int, int) {
    ++Flushes;
    Clock += 1000; // no run's time may include it
    return success;
  }
  static int create_event(int &E) {
    E = int(Events.size());
    Events.push_back(-1);
    return success;
  }
  static void destroy_event(int) {}
  static int record(int E, int) {
    Events[E] = Clock;
    return success;
  }
  static int synchronize(int) { return success; }
  static int elapsed_ms(int From, int To, float &Ms) {
    Ms = float(Events[To] - Events[From]);
    return success;
  }
};

using Tuner = at::tuner<SimulatedApi>;

const char *const Names[] = {"BLOCK=64 num_warps=4", "BLOCK=128 num_warps=4",
                             "BLOCK=256 num_warps=8", "BLOCK=512 num_warps=8"};

const bool AllTuned[] = {true, true, true, true};

at::kernel_info info(const char *Hash = "0123456789abcdef",
                     const bool *Tuned = AllTuned) {
  return {"simulated_kernel", Hash, 4, Names, Tuned};
}

/// A kernel whose configurations take Ms milliseconds, apply where Applies
/// says, and count their launches.
struct SimulatedKernel {
  std::vector<double> Ms = {0.30, 0.20, 0.10, 0.40};
  std::vector<bool> Applies = {true, true, true, true};
  std::vector<int> Launches = std::vector<int>(4, 0);
  int Last = -1;
  std::function<void()> Body = [] {};

  auto launcher() {
    return [this](int C, bool &Declined) {
      if (!Applies[C]) {
        Declined = true;
        return SimulatedApi::success;
      }
      SimulatedApi::Clock += Ms[C];
      ++Launches[C];
      Last = C;
      Body();
      return SimulatedApi::success;
    };
  }
  int total() const {
    return Launches[0] + Launches[1] + Launches[2] + Launches[3];
  }
};

tile::tuning keyed(std::initializer_list<long long> Key) {
  tile::tuning T;
  T.key = Key;
  return T;
}

/// Points TILECC_CACHE_DIR at a fresh directory for one test.
struct CacheDir {
  std::filesystem::path Path;
  CacheDir() {
    char Template[] = "/tmp/tilecc-autotune-XXXXXX";
    Path = ::mkdtemp(Template);
    ::setenv("TILECC_CACHE_DIR", Path.c_str(), 1);
  }
  ~CacheDir() {
    ::unsetenv("TILECC_CACHE_DIR");
    std::filesystem::remove_all(Path);
  }
  std::string file() const {
    return (Path / "simulated_kernel.autotune.json").string();
  }
};

std::string slurp(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

} // namespace

TEST_CASE("autotune: the fastest configuration that applies, measured once "
          "per key") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  K.Applies = {true, true, false, true}; // the fastest does not apply
  bool Declined = true;
  CHECK(T.launch_tuned(keyed({4096}), 0, K.launcher(), Declined) ==
        SimulatedApi::success);
  CHECK_FALSE(Declined);
  CHECK(K.Last == 1);
  CHECK(K.Launches[2] == 0);
  // Every timed run was preceded by a flush that its time leaves out.
  CHECK(SimulatedApi::Flushes > 0);
  const int Measured = K.total();
  CHECK(Measured > 10);

  // The same key: one launch, no measuring.
  CHECK(T.launch_tuned(keyed({4096}), 0, K.launcher(), Declined) == 0);
  CHECK(K.total() == Measured + 1);
  CHECK(K.Last == 1);
}

TEST_CASE("autotune: a thread's remembered choices follow the tuner, the "
          "key and the device") {
  SimulatedApi::reset();
  SimulatedKernel K;
  bool Declined = false;
  {
    Tuner First(info(), nullptr, 0);
    First.launch_tuned(keyed({4096}), 0, K.launcher(), Declined);
    CHECK(K.Last == 2);
  }
  // A tuner made where the last one was (same stack slot, same key) has
  // measured nothing: it must not launch the other one's choice.
  SimulatedKernel Other;
  Other.Ms = {0.10, 0.20, 0.30, 0.40};
  Tuner Second(info(), nullptr, 0);
  Second.launch_tuned(keyed({4096}), 0, Other.launcher(), Declined);
  CHECK(Other.total() > 10);
  CHECK(Other.Last == 0);

  // Alternating keys and devices: each launch is its own key's choice.
  SimulatedKernel Alternating;
  Second.launch_tuned(keyed({64}), 0, Alternating.launcher(), Declined);
  SimulatedApi::Device = 1;
  Alternating.Ms = {0.40, 0.10, 0.30, 0.20};
  Second.launch_tuned(keyed({4096}), 0, Alternating.launcher(), Declined);
  CHECK(Alternating.Last == 1); // measured anew on device 1
  const int Measured = Alternating.total();
  for (int Round = 0; Round < 3; ++Round) {
    SimulatedApi::Device = 0;
    Second.launch_tuned(keyed({4096}), 0, Alternating.launcher(), Declined);
    CHECK(Alternating.Last == 0);
    Second.launch_tuned(keyed({64}), 0, Alternating.launcher(), Declined);
    CHECK(Alternating.Last == 2);
    SimulatedApi::Device = 1;
    Second.launch_tuned(keyed({4096}), 0, Alternating.launcher(), Declined);
    CHECK(Alternating.Last == 1);
  }
  CHECK(Alternating.total() == Measured + 9);
}

TEST_CASE("autotune: a device that slows as it runs slows every "
          "configuration alike") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  K.Ms = {0.30, 0.20, 0.19, 0.40};
  // Each launch makes the next 0.05 % slower (a clock falling as the GPU
  // heats): timed one after another, 2 would run behind 1.
  K.Body = [&K] {
    for (double &Ms : K.Ms)
      Ms *= 1.0005;
  };
  bool Declined = true;
  CHECK(T.launch_tuned(keyed({4096}), 0, K.launcher(), Declined) == 0);
  CHECK(K.Last == 2);
}

TEST_CASE("autotune: max_trials measures the first configurations that "
          "apply") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  K.Applies = {false, true, true, true}; // 0 does not count
  tile::tuning Two = keyed({4096});
  Two.max_trials = 2;
  bool Declined = true;
  CHECK(T.launch_tuned(Two, 0, K.launcher(), Declined) == 0);
  CHECK(K.Launches[3] == 0); // never measured
  CHECK(K.Last == 2);        // the faster of 1 and 2

  SimulatedKernel One;
  tile::tuning First = keyed({8192});
  First.max_trials = 1;
  T.launch_tuned(First, 0, One.launcher(), Declined);
  CHECK(One.Launches[2] == 0);
  CHECK(One.Last == 0); // the only one measured, though 2 is faster
}

TEST_CASE("autotune: key values rounded up to powers of two unless exact") {
  CHECK(at::round_key(3000, tile::tuning::rounding::next_power_of_2) == 4096);
  CHECK(at::round_key(4096, tile::tuning::rounding::next_power_of_2) == 4096);
  CHECK(at::round_key(1, tile::tuning::rounding::next_power_of_2) == 1);
  CHECK(at::round_key(0, tile::tuning::rounding::next_power_of_2) == 0);
  CHECK(at::round_key(-5, tile::tuning::rounding::next_power_of_2) == -5);
  CHECK(at::round_key(3000, tile::tuning::rounding::exact) == 3000);
  CHECK(
      at::round_key((1LL << 62) + 1, tile::tuning::rounding::next_power_of_2) ==
      (1LL << 62) + 1);

  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  bool Declined = false;
  T.launch_tuned(keyed({3000}), 0, K.launcher(), Declined);
  const int Measured = K.total();
  T.launch_tuned(keyed({2049}), 0, K.launcher(), Declined);
  CHECK(K.total() == Measured + 1); // 2049 and 3000 share 4096

  tile::tuning Exact = keyed({2049});
  Exact.key_rounding = tile::tuning::rounding::exact;
  T.launch_tuned(Exact, 0, K.launcher(), Declined);
  CHECK(K.total() > Measured + 2); // 2049 exactly is a new key
}

TEST_CASE("autotune: a measured configuration that no longer applies gives "
          "way to the next fastest") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  bool Declined = false;
  T.launch_tuned(keyed({64, 64}), 0, K.launcher(), Declined);
  CHECK(K.Last == 2);
  K.Applies[2] = false; // same key, arguments the fastest does not take
  T.launch_tuned(keyed({64, 64}), 0, K.launcher(), Declined);
  CHECK_FALSE(Declined);
  CHECK(K.Last == 1);
  K.Applies = {false, false, false, false};
  const int Before = K.total();
  T.launch_tuned(keyed({64, 64}), 0, K.launcher(), Declined);
  CHECK(Declined); // the wrapper's default rule decides then
  CHECK(K.total() == Before);
}

TEST_CASE("autotune: buffers reset and restored around every trial") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  // The kernel adds 1 to each sum, and needs its lock zero (it leaves it
  // 7): what a split-K matmul or a layer-norm backward does.
  std::vector<float> Sums = {5, 6, 7};
  int Lock = 0;
  int LockedOut = 0;
  K.Body = [&] {
    LockedOut += Lock != 0;
    Lock = 7;
    for (float &S : Sums)
      S += 1;
  };
  tile::tuning Rule = keyed({128});
  Rule.reset_to_zero = {tile::elements(&Lock, 1)};
  Rule.restore_value = {tile::elements(Sums.data(), 3)};
  bool Declined = false;
  T.launch_tuned(Rule, 0, K.launcher(), Declined);
  CHECK(K.total() > 10);
  CHECK(LockedOut == 0);
  // Only the launch after the tuning counts.
  CHECK(Sums == std::vector<float>{6, 7, 8});
  CHECK(SimulatedApi::Allocations == 1);
}

TEST_CASE("autotune: a configuration marked autotune = false is never "
          "measured") {
  SimulatedApi::reset();
  const bool Tuned[] = {true, true, false, true};
  Tuner T(info("0123456789abcdef", Tuned), nullptr, 0);
  SimulatedKernel K; // configuration 2, the fastest, computes another thing
  bool Declined = false;
  T.launch_tuned(keyed({32}), 0, K.launcher(), Declined);
  CHECK(K.Launches[2] == 0);
  CHECK(K.Last == 1);
}

TEST_CASE("autotune: a configuration that fails to launch is left out") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  auto Launch = [&](int C, bool &Declined) {
    if (C == 2)
      return SimulatedApi::invalid_value; // too many resources, say
    return K.launcher()(C, Declined);
  };
  bool Declined = false;
  CHECK(T.launch_tuned(keyed({1}), 0, Launch, Declined) == 0);
  CHECK(K.Last == 1);
  CHECK(SimulatedApi::FailedLaunchesTaken == 1);
}

TEST_CASE("autotune: nothing measured while the stream is captured") {
  SimulatedApi::reset();
  SimulatedApi::Capturing = true;
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  bool Declined = false;
  CHECK(T.launch_tuned(keyed({8}), 0, K.launcher(), Declined) == 0);
  CHECK(Declined);
  CHECK(K.total() == 0);
}

TEST_CASE("autotune: a rule with more key values than fit is refused") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  bool Declined = true;
  CHECK(T.launch_tuned(
            keyed({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}),
            0, K.launcher(), Declined) == SimulatedApi::invalid_value);
  CHECK_FALSE(Declined);
  CHECK(K.total() == 0);
}

TEST_CASE("autotune: one measurement when threads ask at once") {
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  SimulatedKernel K;
  std::atomic<int> Measurements = 0, WrongChoices = 0;
  auto Launch = [&](int C, bool &Declined) {
    std::lock_guard<std::mutex> Device(SimulatedApi::Mutex);
    return K.launcher()(C, Declined);
  };
  std::vector<std::thread> Threads;
  for (int I = 0; I < 8; ++I)
    Threads.emplace_back([&] {
      for (int Call = 0; Call < 50; ++Call) {
        bool Declined = false;
        T.launch_tuned(keyed({256}), 0, Launch, Declined);
        WrongChoices += Declined;
      }
    });
  for (std::thread &Th : Threads)
    Th.join();
  Measurements = K.total() - 8 * 50;
  CHECK(WrongChoices == 0);
  // One tuning's launches: each configuration's estimate, warm-up and runs.
  SimulatedApi::reset();
  Tuner Alone(info(), nullptr, 0);
  SimulatedKernel Once;
  bool Declined = false;
  Alone.launch_tuned(keyed({256}), 0, Once.launcher(), Declined);
  CHECK(Measurements == Once.total() - 1);
  CHECK(K.Launches[2] > 8 * 50);
}

TEST_CASE("autotune: measurements persist in TILECC_CACHE_DIR") {
  CacheDir Dir;
  SimulatedApi::reset();
  SimulatedKernel K;
  bool Declined = false;
  {
    Tuner T(info(), nullptr, 0);
    T.launch_tuned(keyed({1024, 3}), 0, K.launcher(), Declined);
  }
  const std::string Text = slurp(Dir.file());
  CHECK(Text.find("\"kernel\": \"simulated_kernel\"") != std::string::npos);
  CHECK(Text.find("\"device\": \"Simulated G100\"") != std::string::npos);
  CHECK(Text.find("\"key\": [1024, 4]") != std::string::npos);
  CHECK(Text.find("\"name\": \"BLOCK=256 num_warps=8\"") != std::string::npos);

  // Another process (a new tuner) reads it: no measuring.
  SimulatedKernel Later;
  {
    Tuner T(info(), nullptr, 0);
    T.launch_tuned(keyed({1024, 3}), 0, Later.launcher(), Declined);
  }
  CHECK(Later.total() == 1);
  CHECK(Later.Last == 2);

  // Other code (another hash) or another device measures again.
  SimulatedKernel Rebuilt;
  {
    Tuner T(info("fedcba9876543210"), nullptr, 0);
    T.launch_tuned(keyed({1024, 3}), 0, Rebuilt.launcher(), Declined);
  }
  CHECK(Rebuilt.total() > 1);
  SimulatedApi::Device = 1;
  SimulatedKernel OtherCard;
  {
    Tuner T(info(), nullptr, 0);
    T.launch_tuned(keyed({1024, 3}), 0, OtherCard.launcher(), Declined);
  }
  CHECK(OtherCard.total() > 1);
  // All three are kept.
  const std::string All = slurp(Dir.file());
  size_t Entries = 0;
  for (size_t P = All.find("\"kernel\""); P != std::string::npos;
       P = All.find("\"kernel\"", P + 1))
    ++Entries;
  CHECK(Entries == 3);
}

TEST_CASE("autotune: a cache naming other configurations, or not JSON, is "
          "measured again") {
  CacheDir Dir;
  SimulatedApi::reset();
  bool Declined = false;
  {
    std::ofstream Out(Dir.file());
    Out << R"({"tilecc_autotune": 1, "entries": [
{"kernel": "simulated_kernel", "hash": "0123456789abcdef", "device": "Simulated G100", "driver": 13000, "key": [64], "ranking": [{"config": 0, "name": "BLOCK=32 num_warps=4", "ms": 0.1}]}
]})";
  }
  SimulatedKernel K;
  {
    Tuner T(info(), nullptr, 0);
    T.launch_tuned(keyed({64}), 0, K.launcher(), Declined);
  }
  CHECK(K.total() > 1);
  CHECK(K.Last == 2);
  { std::ofstream(Dir.file()) << "{\"entries\": [ truncated"; }
  SimulatedKernel Again;
  {
    Tuner T(info(), nullptr, 0);
    T.launch_tuned(keyed({64}), 0, Again.launcher(), Declined);
  }
  CHECK(Again.total() > 1);
  std::size_t At = 0;
  CHECK(tile::detail::json::reader(slurp(Dir.file())).parse(At));
}

TEST_CASE("autotune: two processes writing the cache at once keep both") {
  CacheDir Dir;
  constexpr int PerProcess = 12;
  pid_t Children[2];
  for (int P = 0; P < 2; ++P) {
    Children[P] = ::fork();
    if (Children[P] == 0) {
      SimulatedApi::reset();
      Tuner T(info(), nullptr, 0);
      SimulatedKernel K;
      K.Ms = {0.001, 0.001, 0.001, 0.001};
      bool Declined = false;
      for (int I = 0; I < PerProcess; ++I)
        T.launch_tuned(keyed({P, I}), 0, K.launcher(), Declined);
      ::_exit(0);
    }
  }
  for (pid_t C : Children) {
    int Status = 0;
    ::waitpid(C, &Status, 0);
    CHECK(WIFEXITED(Status));
  }
  SimulatedApi::reset();
  Tuner T(info(), nullptr, 0);
  for (int P = 0; P < 2; ++P)
    for (int I = 0; I < PerProcess; ++I) {
      SimulatedKernel K;
      bool Declined = false;
      T.launch_tuned(keyed({P, I}), 0, K.launcher(), Declined);
      CHECK(K.total() == 1); // found in the file
    }
}

TEST_CASE("autotune: a compiled table answers without measuring") {
  SimulatedApi::reset();
  const at::table_entry Table[] = {
      {"Simulated G200", {4096}, {3, 0}},
      {"Simulated G100", {4096}, {1, 0}},
      {"", {4096}, {0}},
      {"", {8192}, {2, 1}},
  };
  Tuner T(info(), Table, std::size(Table));
  SimulatedKernel K;
  bool Declined = true;
  T.launch_from_table(keyed({3000}), K.launcher(), Declined);
  CHECK_FALSE(Declined);
  CHECK(K.Last == 1); // this device's row before the row for any device
  K.Applies[2] = false;
  T.launch_from_table(keyed({8192}), K.launcher(), Declined);
  CHECK(K.Last == 1);
  T.launch_from_table(keyed({16}), K.launcher(), Declined);
  CHECK(Declined); // no row: the default rule
  CHECK(K.total() == 2);

  SimulatedApi::Device = 1;
  T.launch_from_table(keyed({4096}), K.launcher(), Declined);
  CHECK(K.Last == 3);
}

TEST_CASE("autotune: the JSON reader") {
  using tile::detail::json::reader;
  std::size_t At = 0;
  auto V =
      reader(
          R"( {"a": [1, -2.5e3, 9223372036854775807], "s": "q\"\\\n\u00e9\ud83d\ude00", "t": true, "n": null} )")
          .parse(At);
  REQUIRE(V);
  CHECK(V->find("a")->items[2].integer() == 9223372036854775807LL);
  CHECK(V->find("a")->items[1].real() == -2500.0);
  CHECK_FALSE(V->find("a")->items[1].integer());
  CHECK(V->find("s")->text == "q\"\\\n\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(V->find("t")->truth);
  std::string Out;
  tile::detail::json::write(*V->find("s"), Out);
  CHECK(Out == "\"q\\\"\\\\\\u000a\xc3\xa9\xf0\x9f\x98\x80\"");

  for (const char *Bad : {"{\"a\": }", "[1, 2", "01", "\"\\x\"", "[1] 2",
                          "\"\\ud800\"", "{\"a\" 1}"}) {
    CAPTURE(Bad);
    CHECK_FALSE(reader(Bad).parse(At));
  }
  CHECK_FALSE(reader("[1, 2, }").parse(At));
  CHECK(At == 7);
}
