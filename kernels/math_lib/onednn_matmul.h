// Float MatMul whose right-hand side is a constant (a frozen model's weights) on oneDNN's matmul
// primitive: the weights are reordered once into the layout the primitive wants and kept, and a
// bias and Relu / Relu6 run inside it (_FusedMatMul). It is faster than Gemm's dnnl_sgemm on the
// same operands, which packs the weights again on every call.
//
//   OneDnnPackedWeights packed;  // one per kernel, for its constant input
//   RILL_RETURN_IF_ERROR(OneDnnMatMul(shape, threads, a, b_data, bias_or_null, c,
//                                     HoldConstantWeights(&packed, b_tensor)));
//
// The graph optimizer marks MatMul / _FusedMatMul nodes whose weights come straight from a Const
// (attr `_rill_constant_weights`); only those use this path, so a variable's weights are never
// cached. The packed copies belong to the weights tensor `packed` holds
// (kernels/math_lib/onednn_common.h); another tensor gets new ones. Errors: Internal with oneDNN's
// message when it rejects a shape. Thread-safe (concurrent calls share the packed weights
// read-only; each thread keeps its own memory objects and scratchpad).
#ifndef RILL_KERNELS_MATH_LIB_ONEDNN_MATMUL_H_
#define RILL_KERNELS_MATH_LIB_ONEDNN_MATMUL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/math_lib/fused_epilogue.h"
#include "kernels/math_lib/onednn_common.h"

namespace rill {

struct OneDnnMatMulShape {
  int64_t m = 0, n = 0, k = 0;  // C[m, n] = op(A)[m, k] * op(B)[k, n]
  bool transpose_a = false;     // A stored k x m
  bool transpose_b = false;     // B stored n x k
  bool has_bias = false;
  FusedActivation activation = FusedActivation::kNone;
};

// Whether a product is worth the primitive (weights of at least 8K elements with packed weights;
// smaller ones stay on Gemm, whose OpenBLAS small-matrix path has less call overhead).
inline bool OneDnnMatMulPays(int64_t n, int64_t k) { return n * k >= (int64_t{1} << 13); }
// Products of fewer multiply-adds run on one thread (OneDnnMatMul): an LSTM step's [16,128] x
// [128,512] took 25 us split over two threads and 7 us alone.
inline constexpr int64_t kOneDnnMatMulSplitMacs = int64_t{1} << 22;

// C = act(op(A) op(B) + bias); `bias` is read only when shape.has_bias. Row-major, dense.
absl::Status OneDnnMatMul(const OneDnnMatMulShape& shape, int threads, const float* a,
                          const float* b, const float* bias, float* c, OneDnnPackedWeights* packed);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_ONEDNN_MATMUL_H_
