// numpy/TensorFlow broadcasting for elementwise kernels: the broadcast shape of two operands and a
// row-wise walk over the output that gives each input's offset and inner stride.
//
//   RILL_ASSIGN_OR_RETURN(TensorShape out, BroadcastShapes(x.shape(), y.shape()));
//   ForEachBroadcastRow(x.shape(), y.shape(), out,
//                       [&](int64_t o, int64_t ox, int64_t oy, int64_t inner, int64_t sx,
//                           int64_t sy) { for (j < inner) z[o+j] = f(a[ox+j*sx], b[oy+j*sy]); });
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_BROADCAST_H_
#define RILL_KERNELS_MATH_LIB_BROADCAST_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor_shape.h"

namespace rill {

// The numpy broadcast of `a` and `b` (dims aligned from the right; each pair equal, or one of them
// 1). InvalidArgument "Incompatible shapes: [2] vs. [3]" otherwise (TensorFlow's text).
absl::StatusOr<TensorShape> BroadcastShapes(const TensorShape& a, const TensorShape& b);

// Per output dim, the stride of input `in` in elements (0 where `in` is broadcast along it).
// REQUIRES: `in` broadcasts to `out`.
std::vector<int64_t> BroadcastStrides(const TensorShape& in, const TensorShape& out);

// Calls fn(out_offset, offsets, inner, inner_strides) once per row of `out` (its last dim), in
// order, where offsets[k] is input k's element offset of the row's first element and
// inner_strides[k] its stride along the row (0 where input k is broadcast). N inputs (SelectV2's
// three, BroadcastTo's one). REQUIRES: rank(out) >= 1 and every input broadcasts to out.
template <size_t N, typename Fn>
void ForEachBroadcastRowN(const std::array<const TensorShape*, N>& in, const TensorShape& out,
                          Fn&& fn) {
  const int rank = out.rank();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  std::array<std::vector<int64_t>, N> strides;
  std::array<int64_t, N> offsets{};
  std::array<int64_t, N> inner_strides{};
  for (size_t k = 0; k < N; ++k) {
    strides[k] = BroadcastStrides(*in[k], out);
    inner_strides[k] = strides[k][rank - 1];
  }
  const int64_t inner = out.dim(rank - 1);
  std::vector<int64_t> idx(rank - 1, 0);
  for (int64_t o = 0; o < n; o += inner) {
    fn(o, offsets, inner, inner_strides);
    for (int d = rank - 2; d >= 0; --d) {  // advance the odometer over the outer dims
      ++idx[d];
      for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
      if (idx[d] < out.dim(d)) break;
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * idx[d];
      idx[d] = 0;
    }
  }
}

// The two-input form: fn(out_offset, a_offset, b_offset, inner, a_inner_stride, b_inner_stride).
template <typename Fn>
void ForEachBroadcastRow(const TensorShape& a, const TensorShape& b, const TensorShape& out,
                         Fn&& fn) {
  ForEachBroadcastRowN<2>({&a, &b}, out,
                          [&](int64_t o, const std::array<int64_t, 2>& off, int64_t inner,
                              const std::array<int64_t, 2>& stride) {
                            fn(o, off[0], off[1], inner, stride[0], stride[1]);
                          });
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_BROADCAST_H_
