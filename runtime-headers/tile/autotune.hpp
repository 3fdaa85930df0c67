//===- tile/autotune.hpp - Asking launch wrappers to tune ------*- C++ -*-===//
//
// A launch wrapper dispatches, by default, to the first configuration whose
// TILE_SELECT rule accepts the arguments (or to the one asked for by index).
// Asked to tune, it instead times every configuration that applies on the
// first call with a new key (the kernel's TILE_TUNE rule says what the key
// is) and from then on launches the fastest: for one call with
// config = tile::autotuned, for the whole process with set_autotune(true),
// or with TILECC_AUTOTUNE=1 in the environment. tile/detail/tuner.hpp does
// the measuring; docs/language.md, "Autotuning", says how to declare it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_AUTOTUNE_HPP
#define TILE_AUTOTUNE_HPP

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tile {

/// A launch wrapper's config argument that asks for the configuration
/// measured fastest for the arguments' key (tuning on the first call with a
/// new key), whatever set_autotune() and TILECC_AUTOTUNE say.
inline constexpr int autotuned = -2;

namespace detail {
/// -1 until set_autotune() or the first launch reads TILECC_AUTOTUNE.
inline std::atomic<int> autotune_setting{-1};

/// TILECC_AUTOTUNE: 1, on, true or yes (any case) turns tuning on; unset,
/// empty, 0, off, false or no leave it off. Anything else is said on stderr
/// once and leaves it off.
inline bool autotune_from_environment() {
  const char *v = std::getenv("TILECC_AUTOTUNE");
  if (!v || !*v)
    return false;
  auto is = [v](const char *word) {
    for (const char *a = v, *b = word;; ++a, ++b) {
      const char c = *a >= 'A' && *a <= 'Z' ? char(*a - 'A' + 'a') : *a;
      if (c != *b)
        return false;
      if (!c)
        return true;
    }
  };
  for (const char *on : {"1", "on", "true", "yes"})
    if (is(on))
      return true;
  for (const char *off : {"0", "off", "false", "no"})
    if (is(off))
      return false;
  std::fprintf(stderr,
               "tilecc: TILECC_AUTOTUNE=%s is not 1/0, on/off, true/false or "
               "yes/no; autotuning stays off\n",
               v);
  return false;
}
} // namespace detail

/// Turns tuning on or off for every launch wrapper in the process whose
/// config argument is left at its default; overrides TILECC_AUTOTUNE.
inline void set_autotune(bool on) { detail::autotune_setting.store(on); }

/// Whether launches with the default config argument tune.
inline bool autotune_enabled() {
  int setting = detail::autotune_setting.load(std::memory_order_relaxed);
  if (setting < 0) {
    int unset = -1;
    detail::autotune_setting.compare_exchange_strong(
        unset, detail::autotune_from_environment() ? 1 : 0);
    setting = detail::autotune_setting.load();
  }
  return setting == 1;
}

} // namespace tile

#endif
