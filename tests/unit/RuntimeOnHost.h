//===- RuntimeOnHost.h - tile::rt's arithmetic on the host -----*- C++ -*-===//
//
// The runtime headers are device code. A test that includes this first
// compiles their index arithmetic for the host: the qualifiers are nothing
// and the thread index is a variable the test sets (threadIdx.x = t), one
// per host thread (ProgramOnHost.h runs a program's threads at once).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TESTS_UNIT_RUNTIMEONHOST_H
#define TILECC_TESTS_UNIT_RUNTIMEONHOST_H

#define __host__
#define __device__
#define __forceinline__ inline

struct ThreadIndex {
  int x;
};
inline thread_local ThreadIndex threadIdx;

#endif
