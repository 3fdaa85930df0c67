// Times every configuration of grouped_gemm on tutorial 08's benchmark, a
// group of four N x N x N fp16 products (N = 512, 1024, 2048, 4096),
// checks 4096 sampled elements of each result against the reference, and
// prints JSON lines (TFLOP/s, counting 2 N^3 per product) for
// scripts/bench.sh. Exits 77 without a GPU.
#include "grouped_gemm.tile.cpp"
#include "grouped_gemm.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const auto names = {"BM", "BN", "BK"};
  sample::Random rng(53);
  bool ok = true;
  for (int size : {512, 1024, 2048, 4096}) {
    const reference::Problem square{size, size, size, size, size, size};
    const reference::Group group({square, square, square, square});
    auto af = sample::random_vector(group.a_size, rng, -1, 1);
    auto bf = sample::random_vector(group.b_size, rng, -1, 1);
    auto a = sample::convert_all<tile::half>(af),
         b = sample::convert_all<tile::half>(bf);
    auto ar = sample::convert_all<float>(a), br = sample::convert_all<float>(b);
    sample::DeviceArray<tile::half> da(a, 0), db(b, 0), dc(group.c_size, 0);
    std::vector<int64_t> addrs;
    for (auto [buffer, at] :
         {std::pair{&da, &group.a_at}, std::pair{&db, &group.b_at},
          std::pair{&dc, &group.c_at}})
      for (std::size_t offset : *at)
        addrs.push_back(reinterpret_cast<int64_t>(buffer->get() + offset));
    sample::DeviceArray<int64_t> d_addrs(addrs, 0);
    sample::DeviceArray<int> d_sizes(group.sizes(), 0),
        d_leading(group.leading(), 0);
    const auto tol = reference::tolerance(size);
    std::vector<sample::Timing> timings;
    for (int c = 0; c < tilecc::grouped_gemm_num_configs; ++c) {
      auto launch = [&] {
        return tilecc::grouped_gemm(d_addrs.get(), d_addrs.get() + 4,
                                    d_addrs.get() + 8, d_sizes.get(),
                                    d_leading.get(), 4, nullptr, c);
      };
      dc.poison();
      CUDA_CHECK(launch());
      CUDA_CHECK(cudaDeviceSynchronize());
      const auto got = dc.download_floats();
      std::vector<float> got_s, want_s;
      for (int s = 0; s < 4096; ++s) {
        const int q = int(rng.next() % 4), i = int(rng.next() % size),
                  j = int(rng.next() % size);
        double sum = 0;
        for (int l = 0; l < size; ++l)
          sum += double(ar[group.a_at[q] + std::size_t(i) * size + l]) *
                 double(br[group.b_at[q] + std::size_t(l) * size + j]);
        got_s.push_back(got[group.c_at[q] + std::size_t(i) * size + j]);
        want_s.push_back(static_cast<float>(sum));
      }
      const std::string config =
          sample::describe(grouped_gemm_tile_configs[c], names);
      const bool right = sample::compare("grouped_gemm " + config, got_s,
                                         want_s, {tol.abs, tol.rel});
      timings.push_back({config, sample::median_ms(launch, 10, 50), right});
    }
    ok &= sample::print_timings("grouped_gemm", {4, size, size, size}, "fp16",
                                "tflops", group.flops(), timings);
  }
  return ok ? 0 : 1;
}
