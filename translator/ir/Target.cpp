//===- Target.cpp - What tilecc knows of each target ----------------------===//
#include "ir/Target.h"

namespace tilecc {

const HostApi &TargetDesc::host() const {
  static const HostApi Cuda = {"cuda_runtime.h",
                               "cudaError_t",
                               "cudaStream_t",
                               "cudaGetLastError",
                               "cudaSuccess",
                               "cudaErrorInvalidValue",
                               "cudaErrorNotSupported",
                               "cudaFuncSetAttribute",
                               "cudaFuncAttributeMaxDynamicSharedMemorySize"};
  static const HostApi Hip = {"hip/hip_runtime.h",
                              "hipError_t",
                              "hipStream_t",
                              "hipGetLastError",
                              "hipSuccess",
                              "hipErrorInvalidValue",
                              "hipErrorNotSupported",
                              "hipFuncSetAttribute",
                              "hipFuncAttributeMaxDynamicSharedMemorySize"};
  return Back == Backend::HIP ? Hip : Cuda;
}

std::optional<TargetDesc> parseTarget(llvm::StringRef Name) {
  if (Name == "sm_90a")
    return TargetDesc{Name.str(), Backend::CUDA, 32, 3, 227 * 1024, 48 * 1024};
  if (Name == "sm_80")
    return TargetDesc{Name.str(), Backend::CUDA, 32, 2, 163 * 1024, 48 * 1024};
  if (Name == "gfx90a") {
    TargetDesc T{Name.str(), Backend::HIP, 64, 0, 64 * 1024, 64 * 1024};
    T.HasMfma = true;
    return T;
  }
  return std::nullopt;
}

} // namespace tilecc
