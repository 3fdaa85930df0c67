// Runs every configuration of grouped_gemm (and the wrapper's default) on
// the GPU through its launch wrapper: a group of problems with ragged sizes,
// padded leading dimensions and one off the 16-byte alignment (the
// element-wise path), tutorial 08's group of four squares, and an empty
// group; compares with the reference, and checks that C's elements outside
// the outputs and its guard zones keep their poison. Exits 77 without a
// GPU.
#include "grouped_gemm.tile.cpp"
#include "grouped_gemm.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

/// Runs every configuration on `group` and checks it.
bool check(const std::string &name, const reference::Group &group,
           sample::Random &rng, cudaStream_t stream) {
  auto a = sample::convert_all<tile::half>(
      sample::random_vector(group.a_size, rng, -1, 1));
  auto b = sample::convert_all<tile::half>(
      sample::random_vector(group.b_size, rng, -1, 1));
  auto want = reference::grouped_gemm(group, sample::convert_all<float>(a),
                                      sample::convert_all<float>(b));
  sample::DeviceArray<tile::half> da(a, 0), db(b, 0), dc(group.c_size, 0);
  std::vector<int64_t> a_addrs, b_addrs, c_addrs;
  for (std::size_t q = 0; q < group.problems.size(); ++q) {
    a_addrs.push_back(reinterpret_cast<int64_t>(da.get() + group.a_at[q]));
    b_addrs.push_back(reinterpret_cast<int64_t>(db.get() + group.b_at[q]));
    c_addrs.push_back(reinterpret_cast<int64_t>(dc.get() + group.c_at[q]));
  }
  // One element at least: an empty group still passes valid pointers.
  a_addrs.resize(std::max<std::size_t>(a_addrs.size(), 1));
  b_addrs.resize(a_addrs.size());
  c_addrs.resize(a_addrs.size());
  auto sizes = group.sizes(), leading = group.leading();
  sizes.resize(std::max<std::size_t>(sizes.size(), 3));
  leading.resize(sizes.size());
  sample::DeviceArray<int64_t> d_a_addrs(a_addrs, 0), d_b_addrs(b_addrs, 0),
      d_c_addrs(c_addrs, 0);
  sample::DeviceArray<int> d_sizes(sizes, 0), d_leading(leading, 0);
  const auto tol = reference::tolerance(group.max_k());
  bool ok = true;
  for (int config = -1; config < tilecc::grouped_gemm_num_configs; ++config) {
    const std::string what =
        "grouped_gemm " +
        sample::describe_config(grouped_gemm_tile_configs, config,
                                {"BM", "BN", "BK"}) +
        " " + name;
    dc.poison();
    CUDA_CHECK(tilecc::grouped_gemm(
        d_a_addrs.get(), d_b_addrs.get(), d_c_addrs.get(), d_sizes.get(),
        d_leading.get(), int(group.problems.size()), stream, config));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto c = dc.download();
    ok &= dc.guards_intact(what) &&
          reference::untouched_intact<tile::half>(what, group, c);
    ok &= sample::compare(what, reference::outputs<tile::half>(group, c), want,
                          {tol.abs, tol.rel});
  }
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(grouped_gemm_tile_configs) ==
                tilecc::grouped_gemm_num_configs);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(52);
  bool ok = check("ragged",
                  reference::Group({{70, 45, 40, 40, 48, 45},
                                    {1000, 520, 264, 264, 520, 528},
                                    {33, 130, 8, 8, 136, 130},
                                    {384, 256, 1032, 1040, 256, 264},
                                    {200, 96, 64, 64, 96, 96, 1}}),
                  rng, stream);
  ok &= check("squares",
              reference::Group({{1024, 1024, 1024, 1024, 1024, 1024},
                                {512, 512, 512, 512, 512, 512},
                                {256, 256, 256, 256, 256, 256},
                                {128, 128, 128, 128, 128, 128}}),
              rng, stream);
  ok &= check("empty", reference::Group({}), rng, stream);
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: grouped_gemm on the GPU\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
