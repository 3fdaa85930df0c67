// Facts a kernel states for the compiler (tile::assume).
#pragma once

namespace tile::rt {

/// nvcc and hipcc may take cond to hold from here on.
__device__ __forceinline__ void assume(bool cond) { __builtin_assume(cond); }

} // namespace tile::rt
