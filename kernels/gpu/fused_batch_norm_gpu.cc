// FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3 on the GPU (x, scale, offset, mean and
// variance float; every data_format the CPU kernel takes), computing what the CPU kernel computes
// (kernels/nn/fused_batch_norm_op.cc, the formulas there) with its checks and texts
// (kernels/nn/fused_batch_norm_layout.h): in training the batch's moments (one block per
// channel, in double), then the per-channel factor and the moment outputs, then the normalized
// x, all on the compute stream. V3's reserve_space_3 is a scalar 0; an empty x gives NaN moment
// outputs, as on the CPU.
#include <limits>
#include <string>

#include "core/status_macros.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/gpu/nn_launchers.h"
#include "kernels/nn/fused_batch_norm_layout.h"

namespace rill {
namespace {

class FusedBatchNormGpuOp final : public GpuOpKernel {
 public:
  explicit FusedBatchNormGpuOp(OpKernelConstruction& ctx)
      : GpuOpKernel(ctx), attrs_(ReadFusedBatchNormAttrs(ctx)) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& offset = ctx.input(2);
    const Tensor& mean = ctx.input(3);
    const Tensor& variance = ctx.input(4);
    RILL_ASSIGN_OR_RETURN(
        const NormLayout l,
        FusedBatchNormLayout(x, scale, offset, mean, variance, attrs_.channels_first,
                             attrs_.is_training, attrs_.avg_factor));
    RILL_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate_output(0, x.shape()));
    Tensor* outs[4];
    for (int i = 0; i < 4; ++i) {
      RILL_ASSIGN_OR_RETURN(outs[i], ctx.allocate_output(i + 1, scale.shape()));
    }
    if (attrs_.v3) {
      RILL_ASSIGN_OR_RETURN(Tensor * reserve3, ctx.allocate_output(5, TensorShape()));
      gpu_kernels::LaunchFill<float>(reserve3->flat<float>().data(), 0.0f, 1, stream());
    }
    const int64_t channels = l.channels;
    auto out_vec = [&](int i) { return outs[i]->flat<float>().data(); };
    if (x.NumElements() == 0) {
      for (int i = 0; i < 4; ++i) {
        gpu_kernels::LaunchFill<float>(out_vec(i), std::numeric_limits<float>::quiet_NaN(),
                                       channels, stream());
      }
      return Launched();
    }
    gpu_kernels::NormDims d;
    d.outer = l.outer;
    d.channels = l.channels;
    d.inner = l.inner;
    const float* m = mean.flat<float>().data();
    const float* v = variance.flat<float>().data();
    Tensor moments;
    if (attrs_.is_training) {
      RILL_ASSIGN_OR_RETURN(moments, ctx.allocate_temp(DT_FLOAT, TensorShape({2, channels})));
      float* batch_m = moments.flat<float>().data();
      gpu_kernels::LaunchBatchMoments(x.flat<float>().data(), batch_m, batch_m + channels, d,
                                      stream());
      m = batch_m;
      v = batch_m + channels;
    }
    RILL_ASSIGN_OR_RETURN(Tensor factor, ctx.allocate_temp(DT_FLOAT, TensorShape({channels})));
    gpu_kernels::LaunchBatchNormFinish(
        m, v, scale.flat<float>().data(), mean.flat<float>().data(), variance.flat<float>().data(),
        attrs_.epsilon, attrs_.avg_factor, attrs_.is_training, l.per_channel(), channels,
        factor.flat<float>().data(), out_vec(0), out_vec(1), out_vec(2), out_vec(3), stream());
    gpu_kernels::LaunchBatchNormApply(x.flat<float>().data(), m, factor.flat<float>().data(),
                                      offset.flat<float>().data(), y->flat<float>().data(), d,
                                      stream());
    return Launched();
  }

 private:
  FusedBatchNormAttrs attrs_;
};

REGISTER_GPU_KERNEL(KernelDefBuilder("FusedBatchNorm").TypeConstraint("T", {DT_FLOAT}),
                    FusedBatchNormGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("FusedBatchNormV2")
                        .TypeConstraint("T", {DT_FLOAT})
                        .TypeConstraint("U", {DT_FLOAT}),
                    FusedBatchNormGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("FusedBatchNormV3")
                        .TypeConstraint("T", {DT_FLOAT})
                        .TypeConstraint("U", {DT_FLOAT}),
                    FusedBatchNormGpuOp);

}  // namespace
}  // namespace rill
