// swiglu's inputs and their reference, shared by its emulation, GPU and
// benchmark programs.
#ifndef SAMPLES_SWIGLU_INPUTS_HPP
#define SAMPLES_SWIGLU_INPUTS_HPP

#include "check.hpp"
#include "reference.hpp"

#include <vector>

namespace sample {

/// a, b and dc of n elements uniform in [-4, 4) in T, and the reference's
/// c, da and db from the values T holds.
template <class T> struct GluInputs {
  std::vector<T> a, b, dc;
  reference::Glu want;
};
template <class T>
GluInputs<T> glu_inputs(std::size_t n, Random &rng, bool gelu) {
  GluInputs<T> in;
  for (std::vector<T> *v : {&in.a, &in.b, &in.dc})
    *v = convert_all<T>(random_vector(n, rng, -4, 4));
  in.want = reference::glu(convert_all<float>(in.a), convert_all<float>(in.b),
                           convert_all<float>(in.dc), gelu);
  return in;
}

} // namespace sample

#endif // SAMPLES_SWIGLU_INPUTS_HPP
