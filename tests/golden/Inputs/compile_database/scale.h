// A header a kernel finds only through the compile database's -I.
#pragma once
inline constexpr float kernel_scale = SCALE;
