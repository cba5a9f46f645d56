// _FusedMatMul on the GPU (float): the graph optimizer's MatMul + BiasAdd [+ activation], made on a
// GPU because this kernel exists. The product runs on cuBLAS (row-major C = op(A) op(B) as
// column-major C^T = op(B)^T op(A)^T, as kernels/gpu/matmul_op_gpu.cc), then bias and activation
// in one pass over the output. Errors are the CPU kernels' texts (MatMulShapeOf, CheckBias,
// ParseFusedOps); a cuBLAS failure is Internal naming the node.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_blas.h"
#include "core/gpu/cuda_stream.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/gpu/nn_launchers.h"
#include "kernels/math_lib/fused_epilogue.h"

namespace rill {
namespace {

class FusedMatMulGpuOp final : public GpuOpKernel {
 public:
  explicit FusedMatMulGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("transpose_a", &transpose_a_));
    ctx.SetStatus(ctx.GetAttr("transpose_b", &transpose_b_));
    absl::StatusOr<FusedActivation> act = ParseFusedOps(ctx);
    if (act.ok()) activation_ = *act;
    ctx.SetStatus(act.status());
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(MatMulShape s,
                          MatMulShapeOf(a.shape(), b.shape(), transpose_a_, transpose_b_));
    RILL_RETURN_IF_ERROR(CheckBias(ctx.input(2), s.n));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({s.m, s.n})));
    if (out->NumElements() == 0) return absl::OkStatus();
    float* c = out->flat<float>().data();
    if (s.k == 0) {  // an empty sum: the bias alone
      gpu_kernels::LaunchFill<float>(c, 0.0f, out->NumElements(), stream());
      RILL_RETURN_IF_ERROR(Launched());
    } else {
      RILL_ASSIGN_OR_RETURN(void* handle, gpu()->BlasHandle());
      std::string error;
      const int64_t lda = transpose_a_ ? s.m : s.k, ldb = transpose_b_ ? s.k : s.n;
      stream();  // makes this GPU current
      if (!gpu_internal::CublasGemm<float>(gpu()->platform_id(), handle, transpose_b_, transpose_a_,
                                           s.n, s.m, s.k, b.flat<float>().data(), ldb,
                                           a.flat<float>().data(), lda, c, s.n, &error)) {
        return gpu()->CudaError(absl::StrCat("in ", type_string(), " node ", name()), error);
      }
    }
    gpu_kernels::LaunchBiasActivation(c, ctx.input(2).flat<float>().data(), out->NumElements(), s.n,
                                      static_cast<int>(activation_), stream());
    return Launched();
  }

 private:
  bool transpose_a_ = false, transpose_b_ = false;
  FusedActivation activation_ = FusedActivation::kNone;
};

REGISTER_GPU_KERNEL(KernelDefBuilder("_FusedMatMul").TypeConstraint("T", {DT_FLOAT}),
                    FusedMatMulGpuOp);

}  // namespace
}  // namespace rill
