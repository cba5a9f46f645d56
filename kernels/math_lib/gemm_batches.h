// A batch of independent matrix products (BatchMatMul's and Einsum's per-batch Gemms), run in the
// way that uses the intra-op threads: products big enough for Gemm to split run one after another
// with `d` as given; a batch of small ones is spread over the threads, each product on one.
//
// Thread safety: `product` is called concurrently from the intra-op threads for distinct i.
#ifndef RILL_KERNELS_MATH_LIB_GEMM_BATCHES_H_
#define RILL_KERNELS_MATH_LIB_GEMM_BATCHES_H_

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "core/mutex.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/math_lib/gemm.h"

namespace rill {

// A product of fewer flops than this runs whole on one thread (Gemm splits larger ones over the
// intra-op threads itself): batches of such products are spread over the threads instead, each
// on one (attention's per-head [64, 64] x [64, 64] products, 32 of them at batch 8).
inline constexpr double kMinSplitProductFlops = 8e6;

// Runs product(dims, i) for i in [0, batches): over the intra-op threads with dims being `d` on
// one thread when d.threads > 1, batches > 1 and each product is under kMinSplitProductFlops;
// otherwise in order with dims = d. Returns the first error any product returns.
template <typename Product>
absl::Status RunGemmBatches(const OpKernelContext& ctx, const GemmDims& d, int64_t batches,
                            const Product& product) {
  if (d.threads <= 1 || batches <= 1 || 2.0 * d.m * d.n * d.k >= kMinSplitProductFlops) {
    for (int64_t i = 0; i < batches; ++i) {
      absl::Status s = product(d, i);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }
  GemmDims one = d;
  one.threads = 1;
  Mutex mu;
  absl::Status first;
  // About 8 multiply-adds a cycle in a small single-threaded product.
  const int64_t cost = std::max<int64_t>(d.m * d.n * d.k / 8, 1);
  ctx.ParallelFor(batches, cost, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      absl::Status s = product(one, i);
      if (!s.ok()) {
        MutexLock lock(&mu);
        if (first.ok()) first = s;
        return;
      }
    }
  });
  return first;
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_GEMM_BATCHES_H_
