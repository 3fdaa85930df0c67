// histogram's reference: each bin's count, by plain counting.
#ifndef SAMPLES_HISTOGRAM_REFERENCE_HPP
#define SAMPLES_HISTOGRAM_REFERENCE_HPP

#include <cstdio>
#include <span>
#include <vector>

namespace reference {

/// Counts of value % n_bins over the (non-negative) values of x.
inline std::vector<int> histogram(std::span<const int> x, int n_bins) {
  std::vector<int> bins(n_bins);
  for (int v : x)
    ++bins[v % n_bins];
  return bins;
}

/// Counts as floats, for sample::compare (which compares floats). Every
/// integer below 2^24 is a float, so while each reference count is below
/// 2^24, a float comparison with Tolerance{} is as exact as an integer one:
/// right counts convert exactly, and a wrong count converts to another
/// float (one of 2^24 or more stays at least 2^24). A larger reference
/// count is reported, and gives an empty vector, which no output matches.
inline std::vector<float> histogram_floats(std::span<const int> counts) {
  for (int c : counts)
    if (c >= (1 << 24)) {
      std::printf("FAIL: a count of %d cannot be compared as a float\n", c);
      return {};
    }
  return std::vector<float>(counts.begin(), counts.end());
}

} // namespace reference

#endif // SAMPLES_HISTOGRAM_REFERENCE_HPP
