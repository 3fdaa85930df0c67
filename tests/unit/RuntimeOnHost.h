//===- RuntimeOnHost.h - tile::rt's arithmetic on the host -----*- C++ -*-===//
//
// The runtime headers are device code. A test that includes this first
// compiles their index arithmetic for the host: the qualifiers are nothing
// and the thread index is a variable the test sets (threadIdx.x = t).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TESTS_UNIT_RUNTIMEONHOST_H
#define TILECC_TESTS_UNIT_RUNTIMEONHOST_H

#define __host__
#define __device__

struct ThreadIndex {
  int x;
};
inline ThreadIndex threadIdx;

#endif
