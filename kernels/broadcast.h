// numpy/TensorFlow broadcasting for elementwise kernels: the broadcast shape of two operands and a
// row-wise walk over the output that gives each input's offset and inner stride.
//
//   RILL_ASSIGN_OR_RETURN(TensorShape out, BroadcastShapes(x.shape(), y.shape()));
//   ForEachBroadcastRow(x.shape(), y.shape(), out,
//                       [&](int64_t o, int64_t ox, int64_t oy, int64_t inner, int64_t sx,
//                           int64_t sy) { for (j < inner) z[o+j] = f(a[ox+j*sx], b[oy+j*sy]); });
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_BROADCAST_H_
#define RILL_KERNELS_BROADCAST_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor_shape.h"

namespace rill {

// The numpy broadcast of `a` and `b` (dims aligned from the right; each pair equal, or one of
// them 1). InvalidArgument "Incompatible shapes: [2] vs. [3]" otherwise (TensorFlow's text).
absl::StatusOr<TensorShape> BroadcastShapes(const TensorShape& a, const TensorShape& b);

// Per output dim, the stride of input `in` in elements (0 where `in` is broadcast along it).
// REQUIRES: `in` broadcasts to `out`.
std::vector<int64_t> BroadcastStrides(const TensorShape& in, const TensorShape& out);

// Calls fn(out_offset, a_offset, b_offset, inner, a_inner_stride, b_inner_stride) once per row
// of `out` (its last dim), in order. REQUIRES: rank(out) >= 1 and a, b broadcast to out.
template <typename Fn>
void ForEachBroadcastRow(const TensorShape& a, const TensorShape& b, const TensorShape& out,
                         Fn&& fn) {
  const int rank = out.rank();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const std::vector<int64_t> sa = BroadcastStrides(a, out);
  const std::vector<int64_t> sb = BroadcastStrides(b, out);
  const int64_t inner = out.dim(rank - 1);
  std::vector<int64_t> idx(rank - 1, 0);
  int64_t oa = 0, ob = 0;
  for (int64_t o = 0; o < n; o += inner) {
    fn(o, oa, ob, inner, sa[rank - 1], sb[rank - 1]);
    for (int d = rank - 2; d >= 0; --d) {  // advance the odometer over the outer dims
      ++idx[d];
      oa += sa[d];
      ob += sb[d];
      if (idx[d] < out.dim(d)) break;
      oa -= sa[d] * idx[d];
      ob -= sb[d] * idx[d];
      idx[d] = 0;
    }
  }
}

}  // namespace rill

#endif  // RILL_KERNELS_BROADCAST_H_
