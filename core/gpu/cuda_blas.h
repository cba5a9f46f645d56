// cuBLAS calls Rill's GPU kernels make, implemented by cuda_blas.cu, so host-compiled code needs
// no CUDA headers. Only built with a CUDA toolkit. cuBLAS is column-major; callers pass the
// column-major problem (a row-major C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T:
// swap the operands and m with n). On failure a call returns false with cuBLAS's status name in
// *error. A handle is bound to one stream; several threads may use it (cuBLAS allows that while
// nobody changes its stream or settings).
#ifndef RILL_CORE_GPU_CUDA_BLAS_H_
#define RILL_CORE_GPU_CUDA_BLAS_H_

#include <cstdint>
#include <string>

namespace rill {
namespace gpu_internal {

bool CublasCreate(int platform_id, void* stream, void** handle, std::string* error);
void CublasDestroy(int platform_id, void* handle);

// C[m x n] = op(A) op(B), column-major, alpha 1 and beta 0; T is float or double.
template <typename T>
bool CublasGemm(int platform_id, void* handle, bool transpose_a, bool transpose_b, int64_t m,
                int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
                int64_t ldc, std::string* error);
// `batch` products with strides between matrices (a stride of 0 broadcasts one matrix).
template <typename T>
bool CublasGemmStridedBatched(int platform_id, void* handle, bool transpose_a, bool transpose_b,
                              int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
                              int64_t stride_a, const T* b, int64_t ldb, int64_t stride_b, T* c,
                              int64_t ldc, int64_t stride_c, int64_t batch, std::string* error);

// The same products of float16 matrices (IEEE half, 2 bytes per element) accumulated in float32
// (cublasGemmEx with CUBLAS_COMPUTE_32F; tensor cores where cuBLAS chooses them).
bool CublasGemmHalf(int platform_id, void* handle, bool transpose_a, bool transpose_b, int64_t m,
                    int64_t n, int64_t k, const void* a, int64_t lda, const void* b, int64_t ldb,
                    void* c, int64_t ldc, std::string* error);
bool CublasGemmStridedBatchedHalf(int platform_id, void* handle, bool transpose_a, bool transpose_b,
                                  int64_t m, int64_t n, int64_t k, const void* a, int64_t lda,
                                  int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
                                  void* c, int64_t ldc, int64_t stride_c, int64_t batch,
                                  std::string* error);

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_BLAS_H_
