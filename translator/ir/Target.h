//===- Target.h - What tilecc knows of each target --------------*- C++ -*-===//
//
// One description per --target, read by the analyses (warp size, tensor
// cores, shared memory), the planning of variants and the launch wrappers
// (the host runtime's names), so that CUDA and HIP differ in data rather
// than in code paths.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_IR_TARGET_H
#define TILECC_IR_TARGET_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tilecc {

enum class Backend { CUDA, HIP };

/// The host runtime's spellings that launch wrappers use.
struct HostApi {
  llvm::StringRef RuntimeHeader; // cuda_runtime.h
  llvm::StringRef Error;         // cudaError_t
  llvm::StringRef Stream;
  llvm::StringRef GetLastError;
  llvm::StringRef Success;
  llvm::StringRef InvalidValue;
  llvm::StringRef NotSupported;
  llvm::StringRef FuncSetAttribute;
  /// The function attribute a launch sets to use more dynamic shared memory
  /// than the default.
  llvm::StringRef MaxDynamicSharedMemory;
};

struct TargetDesc {
  std::string Name; // sm_90a, sm_80, gfx90a
  Backend Back = Backend::CUDA;
  unsigned WarpSize = 32;
  /// Tensor-core generation: 3 wgmma (sm_90a), 2 mma.sync (sm_80), 0 none.
  unsigned MmaVersion = 0;
  /// Shared memory one program may use (with the launch asking for it),
  /// and of it, what may be declared static.
  unsigned MaxSharedBytes = 65536;
  unsigned MaxStaticSharedBytes = 65536;
  /// Threads an SM (a CU on AMD GPUs) holds at once, and a program may have.
  unsigned MaxThreadsPerSM = 2048;
  unsigned MaxThreadsPerProgram = 1024;
  /// AMD matrix cores (MFMA, CDNA2's 32x32x8 fp16 and bf16 forms).
  bool HasMfma = false;

  bool hasWgmma() const { return MmaVersion == 3; }
  /// cp.async copies from global to shared memory (and TMA with wgmma).
  bool hasAsyncCopies() const { return Back == Backend::CUDA; }
  const HostApi &host() const;
  /// The kernel file's extension: cu or hip.
  llvm::StringRef kernelExtension() const {
    return Back == Backend::HIP ? "hip" : "cu";
  }
};

/// Parses a --target value; nothing for an unknown target.
std::optional<TargetDesc> parseTarget(llvm::StringRef Name);

} // namespace tilecc

#endif
