#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "core/gpu/cuda_blas.h"

namespace rill {
namespace gpu_internal {

namespace {

bool Check(cublasStatus_t s, std::string* error) {
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  if (error != nullptr) *error = std::string("cuBLAS: ") + cublasGetStatusName(s) + ": " +
                                 cublasGetStatusString(s);
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

template <>
bool CublasGemm<float>(int platform_id, void* handle, bool transpose_a, bool transpose_b,
                       int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                       const float* b, int64_t ldb, float* c, int64_t ldc, std::string* error) {
  const float one = 1.0f, zero = 0.0f;
  return SetDevice(platform_id, error) &&
         Check(cublasSgemm(H(handle), Op(transpose_a), Op(transpose_b), static_cast<int>(m),
                           static_cast<int>(n), static_cast<int>(k), &one, a,
                           static_cast<int>(lda), b, static_cast<int>(ldb), &zero, c,
                           static_cast<int>(ldc)),
               error);
}

template <>
bool CublasGemm<double>(int platform_id, void* handle, bool transpose_a, bool transpose_b,
                        int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
                        const double* b, int64_t ldb, double* c, int64_t ldc,
                        std::string* error) {
  const double one = 1.0, zero = 0.0;
  return SetDevice(platform_id, error) &&
         Check(cublasDgemm(H(handle), Op(transpose_a), Op(transpose_b), static_cast<int>(m),
                           static_cast<int>(n), static_cast<int>(k), &one, a,
                           static_cast<int>(lda), b, static_cast<int>(ldb), &zero, c,
                           static_cast<int>(ldc)),
               error);
}

template <>
bool CublasGemmStridedBatched<float>(int platform_id, void* handle, bool transpose_a,
                                     bool transpose_b, int64_t m, int64_t n, int64_t k,
                                     const float* a, int64_t lda, int64_t stride_a,
                                     const float* b, int64_t ldb, int64_t stride_b, float* c,
                                     int64_t ldc, int64_t stride_c, int64_t batch,
                                     std::string* error) {
  const float one = 1.0f, zero = 0.0f;
  return SetDevice(platform_id, error) &&
         Check(cublasSgemmStridedBatched(
                   H(handle), Op(transpose_a), Op(transpose_b), static_cast<int>(m),
                   static_cast<int>(n), static_cast<int>(k), &one, a, static_cast<int>(lda),
                   stride_a, b, static_cast<int>(ldb), stride_b, &zero, c,
                   static_cast<int>(ldc), stride_c, static_cast<int>(batch)),
               error);
}

template <>
bool CublasGemmStridedBatched<double>(int platform_id, void* handle, bool transpose_a,
                                      bool transpose_b, int64_t m, int64_t n, int64_t k,
                                      const double* a, int64_t lda, int64_t stride_a,
                                      const double* b, int64_t ldb, int64_t stride_b, double* c,
                                      int64_t ldc, int64_t stride_c, int64_t batch,
                                      std::string* error) {
  const double one = 1.0, zero = 0.0;
  return SetDevice(platform_id, error) &&
         Check(cublasDgemmStridedBatched(
                   H(handle), Op(transpose_a), Op(transpose_b), static_cast<int>(m),
                   static_cast<int>(n), static_cast<int>(k), &one, a, static_cast<int>(lda),
                   stride_a, b, static_cast<int>(ldb), stride_b, &zero, c,
                   static_cast<int>(ldc), stride_c, static_cast<int>(batch)),
               error);
}

}  // namespace gpu_internal
}  // namespace rill
