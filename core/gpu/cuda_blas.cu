#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "core/gpu/cuda_blas.h"

namespace rill {
namespace gpu_internal {

namespace {

bool Check(cublasStatus_t s, std::string* error) {
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  if (error != nullptr)
    *error = std::string("cuBLAS: ") + cublasGetStatusName(s) + ": " + cublasGetStatusString(s);
  cudaGetLastError();  // so the next kernel's launch check does not report this failure
  return false;
}

bool SetDevice(int platform_id, std::string* error) {
  const cudaError_t err = cudaSetDevice(platform_id);
  if (err == cudaSuccess) return true;
  if (error != nullptr) *error = cudaGetErrorString(err);
  return false;
}

cublasOperation_t Op(bool transpose) { return transpose ? CUBLAS_OP_T : CUBLAS_OP_N; }
cublasHandle_t H(void* handle) { return static_cast<cublasHandle_t>(handle); }

}  // namespace

bool CublasCreate(int platform_id, void* stream, void** handle, std::string* error) {
  if (!SetDevice(platform_id, error)) return false;
  cublasHandle_t h = nullptr;
  if (!Check(cublasCreate(&h), error)) return false;
  if (!Check(cublasSetStream(h, static_cast<cudaStream_t>(stream)), error)) {
    cublasDestroy(h);
    return false;
  }
  *handle = h;
  return true;
}

void CublasDestroy(int platform_id, void* handle) {
  if (handle != nullptr && cudaSetDevice(platform_id) == cudaSuccess) cublasDestroy(H(handle));
}

namespace {

// cuBLAS's calls by element type; alpha 1 and beta 0.
cublasStatus_t RawGemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                       int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) {
  const float one = 1.0f, zero = 0.0f;
  return cublasSgemm(h, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}
cublasStatus_t RawGemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                       int k, const double* a, int lda, const double* b, int ldb, double* c,
                       int ldc) {
  const double one = 1.0, zero = 0.0;
  return cublasDgemm(h, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}
cublasStatus_t RawGemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                     int m, int n, int k, const float* a, int lda, int64_t sa,
                                     const float* b, int ldb, int64_t sb, float* c, int ldc,
                                     int64_t sc, int batch) {
  const float one = 1.0f, zero = 0.0f;
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, &one, a, lda, sa, b, ldb, sb, &zero, c, ldc,
                                   sc, batch);
}
cublasStatus_t RawGemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                     int m, int n, int k, const double* a, int lda, int64_t sa,
                                     const double* b, int ldb, int64_t sb, double* c, int ldc,
                                     int64_t sc, int batch) {
  const double one = 1.0, zero = 0.0;
  return cublasDgemmStridedBatched(h, ta, tb, m, n, k, &one, a, lda, sa, b, ldb, sb, &zero, c, ldc,
                                   sc, batch);
}

}  // namespace

template <typename T>
bool CublasGemm(int platform_id, void* handle, bool transpose_a, bool transpose_b, int64_t m,
                int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
                int64_t ldc, std::string* error) {
  return SetDevice(platform_id, error) &&
         Check(RawGemm(H(handle), Op(transpose_a), Op(transpose_b), static_cast<int>(m),
                       static_cast<int>(n), static_cast<int>(k), a, static_cast<int>(lda), b,
                       static_cast<int>(ldb), c, static_cast<int>(ldc)),
               error);
}

template <typename T>
bool CublasGemmStridedBatched(int platform_id, void* handle, bool transpose_a, bool transpose_b,
                              int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
                              int64_t stride_a, const T* b, int64_t ldb, int64_t stride_b, T* c,
                              int64_t ldc, int64_t stride_c, int64_t batch, std::string* error) {
  return SetDevice(platform_id, error) &&
         Check(RawGemmStridedBatched(H(handle), Op(transpose_a), Op(transpose_b),
                                     static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                                     a, static_cast<int>(lda), stride_a, b, static_cast<int>(ldb),
                                     stride_b, c, static_cast<int>(ldc), stride_c,
                                     static_cast<int>(batch)),
               error);
}

#define RILL_INSTANTIATE(T)                                                                    \
  template bool CublasGemm<T>(int, void*, bool, bool, int64_t, int64_t, int64_t, const T*,     \
                              int64_t, const T*, int64_t, T*, int64_t, std::string*);          \
  template bool CublasGemmStridedBatched<T>(int, void*, bool, bool, int64_t, int64_t, int64_t, \
                                            const T*, int64_t, int64_t, const T*, int64_t,     \
                                            int64_t, T*, int64_t, int64_t, int64_t, std::string*);
RILL_INSTANTIATE(float)
RILL_INSTANTIATE(double)
#undef RILL_INSTANTIATE

}  // namespace gpu_internal
}  // namespace rill
