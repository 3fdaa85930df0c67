//===- ProgramOnHost.h - a program's threads on the host -------*- C++ -*-===//
//
// tile::rt code that shuffles between lanes, waits at a barrier or adds
// atomically runs on the host under this header: each thread of the program
// is a std::thread, a warp's shuffles meet at the warp's barrier,
// __syncthreads at the program's, and atomicAdd is std::atomic_ref's.
// Include it before any runtime header; the CUDA headers that
// tile/rt/types.cuh includes are the toolkit's, which compile for the host.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TESTS_UNIT_PROGRAMONHOST_H
#define TILECC_TESTS_UNIT_PROGRAMONHOST_H

#include "RuntimeOnHost.h"

#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace program_on_host {

struct Warp {
  explicit Warp(int Lanes) : Meet(Lanes), Slots(Lanes) {}
  std::barrier<> Meet;
  std::vector<unsigned long long> Slots;
};

struct Thread {
  Warp *InWarp = nullptr;
  int Lane = 0;
  std::barrier<> *Program = nullptr;
};
inline thread_local Thread Self;

inline int lanes() { return int(Self.InWarp->Slots.size()); }

/// What lane Src of this thread's warp passes, each lane passing its V.
template <class T> T exchange(T V, int Src) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "one register");
  unsigned long long Bits = 0;
  std::memcpy(&Bits, &V, sizeof(T));
  Self.InWarp->Slots[Self.Lane] = Bits;
  Self.InWarp->Meet.arrive_and_wait();
  Bits = Self.InWarp->Slots[Src];
  Self.InWarp->Meet.arrive_and_wait();
  std::memcpy(&V, &Bits, sizeof(T));
  return V;
}

/// Runs Body in each of Threads threads (warps of Lanes lanes) at once,
/// threadIdx.x numbering them.
inline void run(int Threads, int Lanes, const std::function<void()> &Body) {
  std::barrier<> Program(Threads);
  std::vector<std::unique_ptr<Warp>> Warps;
  for (int W = 0; W < Threads / Lanes; ++W)
    Warps.push_back(std::make_unique<Warp>(Lanes));
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      threadIdx.x = T;
      Self = {Warps[T / Lanes].get(), T % Lanes, &Program};
      Body();
    });
  for (std::thread &P : Pool)
    P.join();
}

} // namespace program_on_host

// The CUDA intrinsics the runtime headers call, over the threads above
// (the math functions they call come from <cmath>).
template <class T> T __shfl_sync(unsigned, T V, int Src) {
  return program_on_host::exchange(V, Src % program_on_host::lanes());
}
template <class T> T __shfl_xor_sync(unsigned, T V, int Mask) {
  return program_on_host::exchange(V, program_on_host::Self.Lane ^ Mask);
}
template <class T> T __shfl_up_sync(unsigned, T V, int Delta) {
  const int Lane = program_on_host::Self.Lane;
  return program_on_host::exchange(V, Lane >= Delta ? Lane - Delta : Lane);
}
template <class T> T __shfl_down_sync(unsigned, T V, int Delta) {
  const int Lane = program_on_host::Self.Lane;
  return program_on_host::exchange(
      V, Lane + Delta < program_on_host::lanes() ? Lane + Delta : Lane);
}
inline int __clzll(long long X) { return X ? __builtin_clzll(X) : 64; }
inline void __syncthreads() {
  program_on_host::Self.Program->arrive_and_wait();
}
inline int atomicAdd(int *P, int V) {
  return std::atomic_ref<int>(*P).fetch_add(V);
}

#endif
