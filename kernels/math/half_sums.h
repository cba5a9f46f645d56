// Sums of half (float16) tensors and products of bfloat16 tensors combined the way TensorFlow's
// CPU kernels combine them, so such models match TensorFlow bit for bit rather than within an
// ulp. TensorFlow 2.21's pip build reduces half (Sum) and bfloat16 (Prod) with Eigen in the type's
// own arithmetic (every step rounded to the type) over packets of 8 lanes (AVX's Packet8h and
// Packet8bf), in this order:
//
//   RowReduce       a contiguous run of n elements (a row of [rows, k] -> [rows], or the whole
//                   tensor): with n >= 32, four packet accumulators take packets 0, 1, 2, 3 of
//                   each 32 elements and are merged ((a0 + a1) + a2) + a3; the packets left go
//                   into a0; the 8 lanes are then combined in float and rounded once; the elements
//                   past the last packet are combined from the identity on their own and combined
//                   last. Runs over 8192 elements are first split in halves at a packet boundary
//                   of the tensor (Eigen's tree reduction), each reduced so, then combined.
//   ColumnReduce    [outer, k, inner] -> [outer, inner]: outputs are taken 8 at a time in order;
//                   a group of 8 within one row of `inner` reduces each lane over k with four
//                   accumulators (elements j = 0, 1, 2, 3 mod 4 up to the last multiple of 4,
//                   merged as above, then the rest into the first) when k >= 16, left to right
//                   otherwise; outputs of a group that crosses a row, and the last outputs past
//                   the last whole group, are reduced left to right.
//
// "+" above is the op's combination (Add or Mul below); both start from its identity.
// (TensorFlow sums bfloat16 in float, so bfloat16 Sum does not come here.) Pure functions;
// thread-safe.
#ifndef RILL_KERNELS_MATH_HALF_SUMS_H_
#define RILL_KERNELS_MATH_HALF_SUMS_H_

#include <algorithm>
#include <cstdint>

#include "core/bfloat16.h"
#include "core/half.h"

namespace rill {
namespace half_sums {

constexpr int64_t kLanes = 8;        // Eigen's Packet8h / Packet8bf
constexpr int64_t kLeafSize = 1024;  // Eigen's tree-reduction leaf, in packets

// The combinations: each step in float, rounded to T.
struct Add {
  static constexpr float kIdentity = 0.0f;
  static float Apply(float a, float b) { return a + b; }
};
struct Mul {
  static constexpr float kIdentity = 1.0f;
  static float Apply(float a, float b) { return a * b; }
};

template <typename Op, typename T>
T Combine(T a, T b) {
  return T(Op::Apply(static_cast<float>(a), static_cast<float>(b)));
}

// The n elements at p, `first` being the index of p[0] in its tensor (the tree splits at packet
// boundaries counted from the tensor's start).
template <typename Op, typename T>
T RowReduce(const T* p, int64_t first, int64_t n) {
  const T identity(Op::kIdentity);
  if (n > kLanes * kLeafSize) {
    const int64_t half_n = (n + 1) / 2;
    const int64_t split = kLanes * ((first + half_n + kLanes - 1) / kLanes);
    const int64_t left = std::min(split - first, n);
    T result = Combine<Op>(identity, RowReduce<Op>(p, first, left));
    if (left < n) result = Combine<Op>(result, RowReduce<Op>(p + left, split, n - left));
    return result;
  }
  T acc[4][kLanes];
  for (auto& a : acc) std::fill(a, a + kLanes, identity);
  int64_t start = 0;
  if (n >= 4 * kLanes) {
    const int64_t end4 = n / (4 * kLanes) * (4 * kLanes);
    for (int64_t j = 0; j < end4; j += 4 * kLanes) {
      for (int q = 0; q < 4; ++q) {
        for (int64_t l = 0; l < kLanes; ++l) {
          acc[q][l] = Combine<Op>(acc[q][l], p[j + q * kLanes + l]);
        }
      }
    }
    for (int q = 1; q < 4; ++q) {
      for (int64_t l = 0; l < kLanes; ++l) acc[0][l] = Combine<Op>(acc[0][l], acc[q][l]);
    }
    start = end4;
  }
  if (start + kLanes <= n) {
    const int64_t end = n / kLanes * kLanes;
    for (int64_t j = start; j < end; j += kLanes) {
      for (int64_t l = 0; l < kLanes; ++l) acc[0][l] = Combine<Op>(acc[0][l], p[j + l]);
    }
    start = end;
  }
  T tail = identity;
  for (int64_t j = start; j < n; ++j) tail = Combine<Op>(tail, p[j]);
  float lanes = Op::kIdentity;
  for (int64_t l = 0; l < kLanes; ++l) lanes = Op::Apply(lanes, static_cast<float>(acc[0][l]));
  return Combine<Op>(tail, T(lanes));
}

// out[b * inner + c] = the reduction over j < k of x[(b * k + j) * inner + c].
template <typename Op, typename T>
void ColumnReduce(const T* x, int64_t outer, int64_t k, int64_t inner, T* out) {
  const T identity(Op::kIdentity);
  auto column = [&](int64_t o) { return x + (o / inner) * k * inner + o % inner; };
  auto left_to_right = [&](int64_t o) {
    const T* c = column(o);
    T acc = identity;
    for (int64_t j = 0; j < k; ++j) acc = Combine<Op>(acc, c[j * inner]);
    out[o] = acc;
  };
  const int64_t n = outer * inner;
  const int64_t grouped = n / kLanes * kLanes;
  for (int64_t g = 0; g < grouped; g += kLanes) {
    if (g % inner + kLanes - 1 >= inner) {
      for (int64_t o = g; o < g + kLanes; ++o) left_to_right(o);
      continue;
    }
    for (int64_t o = g; o < g + kLanes; ++o) {
      const T* c = column(o);
      if (k < 16) {
        left_to_right(o);
        continue;
      }
      T acc[4] = {identity, identity, identity, identity};
      const int64_t end4 = k / 4 * 4;
      for (int64_t j = 0; j < end4; j += 4) {
        for (int q = 0; q < 4; ++q) acc[q] = Combine<Op>(acc[q], c[(j + q) * inner]);
      }
      for (int q = 1; q < 4; ++q) acc[0] = Combine<Op>(acc[0], acc[q]);
      for (int64_t j = end4; j < k; ++j) acc[0] = Combine<Op>(acc[0], c[j * inner]);
      out[o] = acc[0];
    }
  }
  for (int64_t o = grouped; o < n; ++o) left_to_right(o);
}

inline half HalfRowSum(const half* p, int64_t first, int64_t n) {
  return RowReduce<Add>(p, first, n);
}
inline void HalfColumnSums(const half* x, int64_t outer, int64_t k, int64_t inner, half* out) {
  ColumnReduce<Add>(x, outer, k, inner, out);
}

}  // namespace half_sums
}  // namespace rill

#endif  // RILL_KERNELS_MATH_HALF_SUMS_H_
