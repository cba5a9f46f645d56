// Matrix products of half (float16) matrices in the order TensorFlow's CPU Einsum computes them,
// so half attention models match TensorFlow bit for bit. TensorFlow 2.21's Einsum hands half
// products to its BatchMatMul launcher, which takes one of Eigen's half-arithmetic paths (its pip
// build: AVX without FMA, 16 vector registers, Packet8h): with batches B, c = a * b, a [m, k],
// b [k, n] per batch, and the flags trans_x / trans_y TensorFlow sets when it reads an operand
// transposed in place (TensorFlowHalfMatMulPath):
//
//   kFloat       m or n of 1 with m + n + k >= 20: Eigen's matrix-vector products; not
//                reproduced (Rill adds in float and rounds once). Also k of 1 (one product).
//   kBlockPanel  m and n above 1, and B == 1 or m * k * n > 128 * 128 (Eigen's tensor
//                contraction) or else m + n + k >= 20 (Eigen's matrix product): Eigen's
//                general block-panel kernel, whose rows are c's columns j and columns c's
//                rows i. Each element is one of
//                three sums over k from 0: packet lanes (j < n / 16 * 16, and the next 8 columns
//                when 8 remain for rows i past the last multiple of 4): products rounded to half,
//                added in half, k in order; split lanes (those next 8 columns for rows
//                i < m / 4 * 4): even k below k / 8 * 8 in one accumulator, odd k in another,
//                the two added, then the k past k / 8 * 8; scalar columns (the last n % 8): each
//                step one float multiply-add rounded to half.
//   kLazy        m + n + k < 20 (and not one batch of a matrix product), neither operand
//                transposed: Eigen's coefficient-wise product. In each row, the columns whose
//                output element is 16-byte aligned in the [B, m, n] product and the 8k columns
//                after it take one float multiply-add per step; the others (before and after those
//                packets) a half product and a half add.
//   kHalfDot     m + n + k < 20 with an operand transposed: every element a half product and a
//                half add per step, k in order (TensorFlow may vectorize over k instead when b
//                is transposed and k >= 8: not reproduced).
//
// Checked bit for bit against TensorFlow on batched products from 2x2x2 to 64x256x64. Pure
// functions; thread-safe.
#ifndef RILL_KERNELS_MATH_HALF_GEMM_H_
#define RILL_KERNELS_MATH_HALF_GEMM_H_

#include <algorithm>
#include <cstdint>

#include "core/half.h"

namespace rill {

enum class HalfMatMulPath { kFloat, kBlockPanel, kLazy, kHalfDot };

inline HalfMatMulPath TensorFlowHalfMatMulPath(int64_t batches, int64_t m, int64_t n, int64_t k,
                                               bool trans_x, bool trans_y) {
  if (k <= 1) return HalfMatMulPath::kFloat;  // one product per element: every path agrees
  const bool vector = m <= 1 || n <= 1;
  if (!vector && (batches == 1 || m * k * n > 128 * 128)) return HalfMatMulPath::kBlockPanel;
  if (m + n + k >= 20) return vector ? HalfMatMulPath::kFloat : HalfMatMulPath::kBlockPanel;
  return trans_x || trans_y ? HalfMatMulPath::kHalfDot : HalfMatMulPath::kLazy;
}

// c[i * n + j] = sum over p < k of a[i * a_row + p * a_depth] * b[p * b_depth + j * b_col], by
// `path` (not kFloat). `c_offset`: the index of c[0] in TensorFlow's [B, m, n] product (kLazy's
// alignment).
inline void HalfMatMul(HalfMatMulPath path, int64_t m, int64_t n, int64_t k, const half* a,
                       int64_t a_row, int64_t a_depth, const half* b, int64_t b_depth,
                       int64_t b_col, half* c, int64_t c_offset) {
  auto product = [](half x, half y) { return static_cast<float>(x) * static_cast<float>(y); };
  auto half_step = [&](half acc, half x, half y) {  // multiply in half, add in half
    return half(static_cast<float>(acc) + static_cast<float>(half(product(x, y))));
  };
  auto fma_step = [&](half acc, half x, half y) {  // one float multiply-add, rounded once
    return half(static_cast<float>(acc) + product(x, y));
  };
  const int64_t n16 = n / 16 * 16;
  const int64_t n8 = n - n16 >= 8 ? n16 + 8 : n16;
  const int64_t m4 = m / 4 * 4;
  const int64_t k8 = k / 8 * 8;
  for (int64_t i = 0; i < m; ++i) {
    const half* ai = a + i * a_row;
    // kLazy's packet columns [packet_begin, packet_end) of this row.
    const int64_t row_offset = c_offset + i * n;
    const int64_t packet_begin = std::min(n, (8 - row_offset % 8) % 8);
    const int64_t packet_end = packet_begin + (n - packet_begin) / 8 * 8;
    for (int64_t j = 0; j < n; ++j) {
      const half* bj = b + j * b_col;
      half acc(0.0f);
      bool fused = false;  // fma_step throughout
      bool split = false;  // kBlockPanel's split lanes
      if (path == HalfMatMulPath::kBlockPanel) {
        fused = j >= n8;
        split = j >= n16 && j < n8 && i < m4;
      } else if (path == HalfMatMulPath::kLazy) {
        fused = j >= packet_begin && j < packet_end;
      }
      if (split) {
        half odd(0.0f);
        for (int64_t p = 0; p < k8; p += 2) {
          acc = half_step(acc, ai[p * a_depth], bj[p * b_depth]);
          odd = half_step(odd, ai[(p + 1) * a_depth], bj[(p + 1) * b_depth]);
        }
        acc = half(static_cast<float>(acc) + static_cast<float>(odd));
        for (int64_t p = k8; p < k; ++p) acc = half_step(acc, ai[p * a_depth], bj[p * b_depth]);
      } else if (fused) {
        for (int64_t p = 0; p < k; ++p) acc = fma_step(acc, ai[p * a_depth], bj[p * b_depth]);
      } else {
        for (int64_t p = 0; p < k; ++p) acc = half_step(acc, ai[p * a_depth], bj[p * b_depth]);
      }
      c[i * n + j] = acc;
    }
  }
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_HALF_GEMM_H_
