// The general matrix product of Rill's CPU kernels: C[m,n] = op(A)[m,k] * op(B)[k,n], row-major,
// op() transposing when asked. MatMul and _FusedMatMul, BatchMatMul, Einsum, and the im2col paths
// of Conv2D (dtypes other than float) and its two backprops use it. Two float paths do not: a
// MatMul / _FusedMatMul with constant weights (OneDnnMatMulPays) and more than one row runs on
// oneDNN's matmul primitive (kernels/math_lib/onednn_matmul.h), and float Conv2D,
// DepthwiseConv2dNative and their fused forms run on oneDNN's convolution
// (kernels/math_lib/onednn_conv.h).
//
//   GemmDims d{m, n, k, /*lda=*/k, /*ldb=*/n, /*transpose_a=*/false, /*transpose_b=*/false};
//   RILL_RETURN_IF_ERROR(Gemm<float>(d, a, b, c));
//
// float blocks of at least 2^20 multiply-adds and 16 columns go through oneDNN's sgemm, which is
// faster than OpenBLAS's there; smaller or narrow ones stay on OpenBLAS, whose small-matrix
// kernels cost less per call (docs/performance.md compares Rill's MatMul with cblas_sgemm).
// double, complex64 and complex128 go through OpenBLAS (cblas_?gemm), matrix-vector products (m or
// n of 1, float and double) through OpenBLAS's gemv (a float row vector times finite weights may
// skip the weight rows under its zeros, see b_known_finite); half and bfloat16 are widened to
// float, multiplied by the float paths and rounded once per element; int32/int64 wrap on overflow
// (as TensorFlow's Eigen kernels do), through a plain loop.
// k == 0 writes zeros.
// Errors: InvalidArgument "MatMul dimension N exceeds the BLAS limit of 2147483647" for BLAS types;
// Internal if oneDNN rejects a call. Thread-safe; large products are split into blocks on an OpenMP
// team of `threads` (each block single-threaded in the library, so only one set of threads competes
// for the cores).
#ifndef RILL_KERNELS_MATH_LIB_GEMM_H_
#define RILL_KERNELS_MATH_LIB_GEMM_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "core/types.h"

namespace rill {

// Called by Gemm on the thread that computed a block of C, right after it, with the block's rows
// [row_begin, row_end) and columns [col_begin, col_end): fused kernels apply their bias and
// activation there while the block is in cache, on the same threads as the product.
using GemmEpilogue =
    absl::FunctionRef<void(int64_t row_begin, int64_t row_end, int64_t col_begin, int64_t col_end)>;

struct GemmDims {
  int64_t m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0;  // row strides of a and b as stored
  bool transpose_a = false, transpose_b = false;
  // How many blocks a large product is split into (the kernel's intra_op_threads, the calling
  // thread included); the blocks run on an OpenMP team of that many threads (the team oneDNN's
  // convolutions use), each a single-threaded BLAS call. 1: one block, on the calling thread.
  int threads = 1;
  // Optional; every element of C is passed to it exactly once. Not owned.
  const GemmEpilogue* epilogue = nullptr;
  // B holds no Inf or NaN (a kernel's constant weights, checked once): a float row vector times
  // B may then skip B's rows under zeros of A (kernels/math_lib/sparse_row_gemv.h).
  bool b_known_finite = false;
};

// REQUIRES: a, b, c hold the elements d describes; c does not alias a or b.
template <typename T>
absl::Status Gemm(const GemmDims& d, const T* a, const T* b, T* c);

// True for the dtypes Gemm is instantiated for: float, double, half, bfloat16, int32, int64,
// complex64, complex128.
bool GemmSupports(DataType dtype);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_GEMM_H_
