#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "core/gpu/cuda_blas.h"
#include "core/gpu/dynamic_library.h"

namespace rill {
namespace gpu_internal {

namespace {

// cuBLAS is loaded when the first handle is made (dlopen), never at program start: a binary built
// with CUDA starts without it, runs on hosts that lack it, and pays its ~60 MB only where a GPU
// runs a product. The loader tries the CUDA 13 soname, then the development name, through the
// usual library search path (LD_LIBRARY_PATH, the toolkit, PyTorch's nvidia-cublas wheel), and
// says on stderr which file it loaded.
struct CublasApi {
  decltype(&::cublasCreate_v2) create = nullptr;
  decltype(&::cublasDestroy_v2) destroy = nullptr;
  decltype(&::cublasSetStream_v2) set_stream = nullptr;
  decltype(&::cublasSgemm_v2) sgemm = nullptr;
  decltype(&::cublasDgemm_v2) dgemm = nullptr;
  decltype(&::cublasSgemmStridedBatched) sgemm_strided_batched = nullptr;
  decltype(&::cublasDgemmStridedBatched) dgemm_strided_batched = nullptr;
  // The Ex calls, typed here: cuBLAS's header also declares C++ overloads of these names.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void*, const void*, cudaDataType, int, const void*, cudaDataType,
                            int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                            cublasGemmAlgo_t) = nullptr;
  cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                            int, int, int, const void*, const void*, cudaDataType,
                                            int, long long, const void*, cudaDataType, int,
                                            long long, const void*, void*, cudaDataType, int,
                                            long long, int, cublasComputeType_t,
                                            cublasGemmAlgo_t) = nullptr;
  decltype(&::cublasGetStatusName) status_name = nullptr;
  decltype(&::cublasGetStatusString) status_string = nullptr;
  std::string error;  // why loading failed; empty once loaded
};

const CublasApi& Cublas() {
  static const CublasApi* const api = [] {
    auto* a = new CublasApi();
    std::string tried;
    void* lib = OpenFirstLibrary({"libcublas.so.13", "libcublas.so"}, &tried);
    if (lib == nullptr) {
      a->error = "cuBLAS could not be loaded (" + tried +
                 "): install CUDA 13's cuBLAS or put the directory holding libcublas.so.13 on "
                 "LD_LIBRARY_PATH";
      return a;
    }
    std::string e;
    const bool all =
        ResolveSymbol(lib, "libcublas", "cublasCreate_v2", &a->create, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasDestroy_v2", &a->destroy, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasSetStream_v2", &a->set_stream, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasSgemm_v2", &a->sgemm, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasDgemm_v2", &a->dgemm, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasSgemmStridedBatched", &a->sgemm_strided_batched,
                      &e) &&
        ResolveSymbol(lib, "libcublas", "cublasDgemmStridedBatched", &a->dgemm_strided_batched,
                      &e) &&
        ResolveSymbol(lib, "libcublas", "cublasGemmEx", &a->gemm_ex, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasGemmStridedBatchedEx", &a->gemm_strided_batched_ex,
                      &e) &&
        ResolveSymbol(lib, "libcublas", "cublasGetStatusName", &a->status_name, &e) &&
        ResolveSymbol(lib, "libcublas", "cublasGetStatusString", &a->status_string, &e);
    if (!all) {
      a->error = "cuBLAS could not be loaded: " + e;
      return a;
    }
    const std::string path = LibraryPath(lib);
    std::fprintf(stderr, "Rill: loaded cuBLAS from %s\n", path.c_str());
    return a;
  }();
  return *api;
}

bool Check(cublasStatus_t s, std::string* error) {
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  if (error != nullptr) {
    *error = std::string("cuBLAS: ") + Cublas().status_name(s) + ": " + Cublas().status_string(s);
  }
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
  const CublasApi& api = Cublas();
  if (!api.error.empty()) {
    if (error != nullptr) *error = api.error;
    return false;
  }
  if (!SetDevice(platform_id, error)) return false;
  cublasHandle_t h = nullptr;
  if (!Check(api.create(&h), error)) return false;
  if (!Check(api.set_stream(h, static_cast<cudaStream_t>(stream)), error)) {
    api.destroy(h);
    return false;
  }
  *handle = h;
  return true;
}

void CublasDestroy(int platform_id, void* handle) {
  if (handle != nullptr && cudaSetDevice(platform_id) == cudaSuccess) {
    Cublas().destroy(H(handle));
  }
}

namespace {

// cuBLAS's calls by element type; alpha 1 and beta 0.
cublasStatus_t RawGemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                       int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) {
  const float one = 1.0f, zero = 0.0f;
  return Cublas().sgemm(h, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}
cublasStatus_t RawGemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                       int k, const double* a, int lda, const double* b, int ldb, double* c,
                       int ldc) {
  const double one = 1.0, zero = 0.0;
  return Cublas().dgemm(h, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}
cublasStatus_t RawGemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                     int m, int n, int k, const float* a, int lda, int64_t sa,
                                     const float* b, int ldb, int64_t sb, float* c, int ldc,
                                     int64_t sc, int batch) {
  const float one = 1.0f, zero = 0.0f;
  return Cublas().sgemm_strided_batched(h, ta, tb, m, n, k, &one, a, lda, sa, b, ldb, sb, &zero, c,
                                        ldc, sc, batch);
}
cublasStatus_t RawGemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                     int m, int n, int k, const double* a, int lda, int64_t sa,
                                     const double* b, int ldb, int64_t sb, double* c, int ldc,
                                     int64_t sc, int batch) {
  const double one = 1.0, zero = 0.0;
  return Cublas().dgemm_strided_batched(h, ta, tb, m, n, k, &one, a, lda, sa, b, ldb, sb, &zero, c,
                                        ldc, sc, batch);
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

bool CublasGemmHalf(int platform_id, void* handle, bool transpose_a, bool transpose_b, int64_t m,
                    int64_t n, int64_t k, const void* a, int64_t lda, const void* b, int64_t ldb,
                    void* c, int64_t ldc, std::string* error) {
  const float one = 1.0f, zero = 0.0f;
  auto i = [](int64_t v) { return static_cast<int>(v); };
  return SetDevice(platform_id, error) &&
         Check(Cublas().gemm_ex(H(handle), Op(transpose_a), Op(transpose_b), i(m), i(n), i(k), &one,
                                a, CUDA_R_16F, i(lda), b, CUDA_R_16F, i(ldb), &zero, c, CUDA_R_16F,
                                i(ldc), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               error);
}

bool CublasGemmStridedBatchedHalf(int platform_id, void* handle, bool transpose_a, bool transpose_b,
                                  int64_t m, int64_t n, int64_t k, const void* a, int64_t lda,
                                  int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
                                  void* c, int64_t ldc, int64_t stride_c, int64_t batch,
                                  std::string* error) {
  const float one = 1.0f, zero = 0.0f;
  auto i = [](int64_t v) { return static_cast<int>(v); };
  return SetDevice(platform_id, error) &&
         Check(Cublas().gemm_strided_batched_ex(
                   H(handle), Op(transpose_a), Op(transpose_b), i(m), i(n), i(k), &one, a,
                   CUDA_R_16F, i(lda), stride_a, b, CUDA_R_16F, i(ldb), stride_b, &zero, c,
                   CUDA_R_16F, i(ldc), stride_c, i(batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
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
