// CUDA kernels of MatMul and BatchMatMul/BatchMatMulV2 (half, float, double) on cuBLAS (half in
// float16 with float32 accumulation), bound to the
// device's compute stream. Row-major C = op(A) op(B) is cuBLAS's column-major
// C^T = op(B)^T op(A)^T, so the operands swap and no data moves. Errors are the CPU kernels'
// texts ("In[0] is not a matrix. Instead it has shape [2,3,4]", "Matrix size-incompatible: In[0]:
// [2,3], In[1]: [2,2]"); a cuBLAS failure is Internal naming the node. BatchMatMul broadcasts
// batch dimensions as NumPy when each operand has the whole broadcast batch or one matrix (a zero
// stride); other broadcasts ([4,1] x [1,5]) are Unimplemented on the GPU (the CPU has them).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_blas.h"
#include "core/gpu/cuda_stream.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/math_lib/broadcast.h"

namespace rill {
namespace {

struct Product {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  int64_t stride_a = 0, stride_b = 0;  // elements between matrices; 0 broadcasts
};

template <typename T>
bool Gemm(GpuDevice* gpu, void* handle, const Product& p, bool ta, bool tb, const T* a, const T* b,
          T* c, std::string* error) {
  // Column-major view: C^T (n x m) = op(B)^T (n x k) * op(A)^T (k x m). B as stored, read
  // column-major, is B^T with leading dimension = its row length.
  const int64_t lda = ta ? p.m : p.k;  // row length of A as stored
  const int64_t ldb = tb ? p.k : p.n;
  if (p.batch == 1) {
    return gpu_internal::CublasGemm<T>(gpu->platform_id(), handle, tb, ta, p.n, p.m, p.k, b, ldb, a,
                                       lda, c, p.n, error);
  }
  return gpu_internal::CublasGemmStridedBatched<T>(gpu->platform_id(), handle, tb, ta, p.n, p.m,
                                                   p.k, b, ldb, p.stride_b, a, lda, p.stride_a, c,
                                                   p.n, p.m * p.n, p.batch, error);
}

// Float16 products accumulate in float32 (cuBLAS's Ex calls).
bool GemmHalf(GpuDevice* gpu, void* handle, const Product& p, bool ta, bool tb, const void* a,
              const void* b, void* c, std::string* error) {
  const int64_t lda = ta ? p.m : p.k;
  const int64_t ldb = tb ? p.k : p.n;
  if (p.batch == 1) {
    return gpu_internal::CublasGemmHalf(gpu->platform_id(), handle, tb, ta, p.n, p.m, p.k, b, ldb,
                                        a, lda, c, p.n, error);
  }
  return gpu_internal::CublasGemmStridedBatchedHalf(gpu->platform_id(), handle, tb, ta, p.n, p.m,
                                                    p.k, b, ldb, p.stride_b, a, lda, p.stride_a, c,
                                                    p.n, p.m * p.n, p.batch, error);
}

class MatMulGpuOp : public GpuOpKernel {
 public:
  explicit MatMulGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    const bool batch = ctx.def().op() != "MatMul";
    ctx.SetStatus(ctx.GetAttr(batch ? "adj_x" : "transpose_a", &transpose_a_));
    ctx.SetStatus(ctx.GetAttr(batch ? "adj_y" : "transpose_b", &transpose_b_));
    batch_ = batch;
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Product p;
    TensorShape out_shape;
    RILL_RETURN_IF_ERROR(batch_ ? BatchShapes(a, b, &p, &out_shape)
                                : MatrixShapes(a, b, &p, &out_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (p.k == 0) return Zero(out);  // an empty sum
    RILL_ASSIGN_OR_RETURN(void* handle, gpu()->BlasHandle());
    std::string error;
    bool ok;
    if (a.dtype() == DT_HALF) {
      ok = GemmHalf(gpu(), handle, p, transpose_a_, transpose_b_, a.raw_data(), b.raw_data(),
                    out->raw_data(), &error);
    } else if (a.dtype() == DT_DOUBLE) {
      ok = Gemm<double>(gpu(), handle, p, transpose_a_, transpose_b_, a.flat<double>().data(),
                        b.flat<double>().data(), out->flat<double>().data(), &error);
    } else {
      ok = Gemm<float>(gpu(), handle, p, transpose_a_, transpose_b_, a.flat<float>().data(),
                       b.flat<float>().data(), out->flat<float>().data(), &error);
    }
    if (!ok) return gpu()->CudaError(absl::StrCat("in ", type_string(), " node ", name()), error);
    return absl::OkStatus();
  }

 private:
  absl::Status Zero(Tensor* out) const {
    std::string error;
    if (!gpu_internal::CudaMemsetAsync(gpu()->platform_id(), out->raw_data(), 0, out->TotalBytes(),
                                       stream(), &error)) {
      return gpu()->CudaError(absl::StrCat("zeroing the output of ", name()), error);
    }
    return absl::OkStatus();
  }

  absl::Status MatrixShapes(const Tensor& a, const Tensor& b, Product* p, TensorShape* out) const {
    RILL_ASSIGN_OR_RETURN(MatMulShape s,
                          MatMulShapeOf(a.shape(), b.shape(), transpose_a_, transpose_b_));
    p->m = s.m;
    p->n = s.n;
    p->k = s.k;
    *out = TensorShape({p->m, p->n});
    return absl::OkStatus();
  }

  absl::Status BatchShapes(const Tensor& a, const Tensor& b, Product* p, TensorShape* out) const {
    const TensorShape& as = a.shape();
    const TensorShape& bs = b.shape();
    if (as.rank() < 2 || bs.rank() < 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "In[0] and In[1] must have rank >= 2: ", as.DebugString(), " vs. ", bs.DebugString()));
    }
    const int ar = as.rank(), br = bs.rank();
    p->m = as.dim(transpose_a_ ? ar - 1 : ar - 2);
    p->k = as.dim(transpose_a_ ? ar - 2 : ar - 1);
    p->n = bs.dim(transpose_b_ ? br - 2 : br - 1);
    if (bs.dim(transpose_b_ ? br - 1 : br - 2) != p->k) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Matrix size-incompatible: In[0]: ", as.DebugString(), ", In[1]: ", bs.DebugString()));
    }
    // The batch dimensions broadcast as NumPy's; cuBLAS's strided batches cover an operand that
    // has them all (stride m*k) or a single matrix (stride 0).
    std::vector<int64_t> a_batch_dims, b_batch_dims;
    for (int d = 0; d < ar - 2; ++d) a_batch_dims.push_back(as.dim(d));
    for (int d = 0; d < br - 2; ++d) b_batch_dims.push_back(bs.dim(d));
    RILL_ASSIGN_OR_RETURN(TensorShape a_batch, TensorShape::FromDims(a_batch_dims));
    RILL_ASSIGN_OR_RETURN(TensorShape b_batch, TensorShape::FromDims(b_batch_dims));
    RILL_ASSIGN_OR_RETURN(TensorShape batch, BroadcastShapes(a_batch, b_batch));
    const int64_t n_batch = batch.num_elements();
    const int64_t na = a_batch.num_elements(), nb = b_batch.num_elements();
    if ((na != n_batch && na != 1) || (nb != n_batch && nb != 1)) {
      return absl::UnimplementedError(absl::StrCat(type_string(), " node ", name(),
                                                   " on the GPU broadcasts a batch only when each "
                                                   "operand has all of it or one matrix: ",
                                                   as.DebugString(), " vs. ", bs.DebugString(),
                                                   "; pin it to a CPU for other broadcasts"));
    }
    p->batch = n_batch;
    p->stride_a = na == 1 ? 0 : p->m * p->k;
    p->stride_b = nb == 1 ? 0 : p->k * p->n;
    std::vector<int64_t> dims;
    for (int d = 0; d < batch.rank(); ++d) dims.push_back(batch.dim(d));
    dims.push_back(p->m);
    dims.push_back(p->n);
    RILL_ASSIGN_OR_RETURN(*out, TensorShape::FromDims(dims));
    return absl::OkStatus();
  }

  bool transpose_a_ = false, transpose_b_ = false, batch_ = false;
};

const std::vector<DataType> kFloatTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE};
REGISTER_GPU_KERNEL(KernelDefBuilder("MatMul").TypeConstraint("T", kFloatTypes), MatMulGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("BatchMatMul").TypeConstraint("T", kFloatTypes), MatMulGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("BatchMatMulV2").TypeConstraint("T", kFloatTypes),
                    MatMulGpuOp);

}  // namespace
}  // namespace rill
