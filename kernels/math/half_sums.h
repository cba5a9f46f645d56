// Sums of half (float16) tensors added the way TensorFlow's CPU kernels add them, so half models
// match TensorFlow bit for bit rather than within an ulp. TensorFlow 2.21's pip build reduces half
// with Eigen in half arithmetic (every addition rounded to half) over packets of 8 lanes (AVX's
// Packet8h), in this order:
//
//   HalfRowSum      a contiguous run of n elements (a row of [rows, k] -> [rows], or the whole
//                   tensor): with n >= 32, four packet accumulators take packets 0, 1, 2, 3 of
//                   each 32 elements and are merged ((a0 + a1) + a2) + a3; the packets left go
//                   into a0; the 8 lanes are then added in float and rounded once; the elements
//                   past the last packet are summed from 0 on their own and added last. Runs over
//                   8192 elements are first split in halves at a packet boundary of the tensor
//                   (Eigen's tree reduction), each summed so, then added.
//   HalfColumnSums  [outer, k, inner] -> [outer, inner]: outputs are taken 8 at a time in order;
//                   a group of 8 within one row of `inner` sums each lane over k with four
//                   accumulators (elements j = 0, 1, 2, 3 mod 4 up to the last multiple of 4,
//                   merged as above, then the rest into the first) when k >= 16, left to right
//                   otherwise; outputs of a group that crosses a row, and the last outputs past
//                   the last whole group, are summed left to right.
//
// Both start from 0. Pure functions; thread-safe.
#ifndef RILL_KERNELS_MATH_HALF_SUMS_H_
#define RILL_KERNELS_MATH_HALF_SUMS_H_

#include <algorithm>
#include <cstdint>

#include "core/half.h"

namespace rill {
namespace half_sums {

constexpr int64_t kLanes = 8;        // Eigen's Packet8h
constexpr int64_t kLeafSize = 1024;  // Eigen's tree-reduction leaf, in packets

inline half Add(half a, half b) { return half(static_cast<float>(a) + static_cast<float>(b)); }

// The n elements at p, `first` being the index of p[0] in its tensor (the tree splits at packet
// boundaries counted from the tensor's start).
inline half HalfRowSum(const half* p, int64_t first, int64_t n) {
  if (n > kLanes * kLeafSize) {
    const int64_t half_n = (n + 1) / 2;
    const int64_t split = kLanes * ((first + half_n + kLanes - 1) / kLanes);
    const int64_t left = std::min(split - first, n);
    half sum = Add(half(0.0f), HalfRowSum(p, first, left));
    if (left < n) sum = Add(sum, HalfRowSum(p + left, split, n - left));
    return sum;
  }
  half acc[4][kLanes];
  for (auto& a : acc) std::fill(a, a + kLanes, half(0.0f));
  int64_t start = 0;
  if (n >= 4 * kLanes) {
    const int64_t end4 = n / (4 * kLanes) * (4 * kLanes);
    for (int64_t j = 0; j < end4; j += 4 * kLanes) {
      for (int q = 0; q < 4; ++q) {
        for (int64_t l = 0; l < kLanes; ++l) acc[q][l] = Add(acc[q][l], p[j + q * kLanes + l]);
      }
    }
    for (int q = 1; q < 4; ++q) {
      for (int64_t l = 0; l < kLanes; ++l) acc[0][l] = Add(acc[0][l], acc[q][l]);
    }
    start = end4;
  }
  if (start + kLanes <= n) {
    const int64_t end = n / kLanes * kLanes;
    for (int64_t j = start; j < end; j += kLanes) {
      for (int64_t l = 0; l < kLanes; ++l) acc[0][l] = Add(acc[0][l], p[j + l]);
    }
    start = end;
  }
  half tail(0.0f);
  for (int64_t j = start; j < n; ++j) tail = Add(tail, p[j]);
  float lanes = 0.0f;
  for (int64_t l = 0; l < kLanes; ++l) lanes += static_cast<float>(acc[0][l]);
  return Add(tail, half(lanes));
}

// out[b * inner + c] = the sum over j < k of x[(b * k + j) * inner + c].
inline void HalfColumnSums(const half* x, int64_t outer, int64_t k, int64_t inner, half* out) {
  auto column = [&](int64_t o) { return x + (o / inner) * k * inner + o % inner; };
  auto left_to_right = [&](int64_t o) {
    const half* c = column(o);
    half acc(0.0f);
    for (int64_t j = 0; j < k; ++j) acc = Add(acc, c[j * inner]);
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
      const half* c = column(o);
      if (k < 16) {
        left_to_right(o);
        continue;
      }
      half acc[4] = {half(0.0f), half(0.0f), half(0.0f), half(0.0f)};
      const int64_t end4 = k / 4 * 4;
      for (int64_t j = 0; j < end4; j += 4) {
        for (int q = 0; q < 4; ++q) acc[q] = Add(acc[q], c[(j + q) * inner]);
      }
      for (int q = 1; q < 4; ++q) acc[0] = Add(acc[0], acc[q]);
      for (int64_t j = end4; j < k; ++j) acc[0] = Add(acc[0], c[j * inner]);
      out[o] = acc[0];
    }
  }
  for (int64_t o = grouped; o < n; ++o) left_to_right(o);
}

}  // namespace half_sums
}  // namespace rill

#endif  // RILL_KERNELS_MATH_HALF_SUMS_H_
