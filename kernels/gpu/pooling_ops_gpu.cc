// MaxPool, MaxPoolV2 (ksize and strides in host memory) and AvgPool on the GPU (float, NHWC), with
// the CPU kernels' attrs, geometry and texts (kernels/nn/pool_geometry.h; NCHW is refused as
// "Default MaxPoolingOp only supports NHWC on device type GPU"): one thread per output element
// (kernels/gpu/nn_ops.cu). Spatial windows for all three, depth windows for the max pools.
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/gpu/nn_launchers.h"
#include "kernels/nn/pool_geometry.h"

namespace rill {
namespace {

template <bool kMax>
absl::Status RunPool(OpKernelContext& ctx, const PoolSpec& spec, void* stream) {
  const Tensor& input = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(PoolGeometry g, NhwcPoolGeometry(spec, input.shape()));
  if (!kMax && g.k_d != 1) {
    return absl::UnimplementedError("Non-spatial pooling is not yet supported. Volunteers? :)");
  }
  RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                        TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.out_d}));
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
  if (out->NumElements() == 0) return absl::OkStatus();
  const float* x = input.flat<float>().data();
  float* y = out->flat<float>().data();
  if (g.k_d != 1) {
    gpu_kernels::LaunchDepthMaxPool(x, y, g.batch * g.in_h * g.in_w, g.depth, g.k_d, stream);
    return absl::OkStatus();
  }
  gpu_kernels::PoolDims d;
  d.batch = g.batch;
  d.in_h = g.in_h;
  d.in_w = g.in_w;
  d.depth = g.depth;
  d.k_h = g.k_h;
  d.k_w = g.k_w;
  d.stride_h = g.stride_h;
  d.stride_w = g.stride_w;
  d.pad_h = g.pad_h;
  d.pad_w = g.pad_w;
  d.out_h = g.out_h;
  d.out_w = g.out_w;
  if (kMax) {
    gpu_kernels::LaunchMaxPool(x, y, d, stream);
  } else {
    gpu_kernels::LaunchAvgPool(x, y, d, stream);
  }
  return absl::OkStatus();
}

template <bool kMax>
class PoolGpuOp final : public GpuOpKernel {
 public:
  explicit PoolGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    absl::StatusOr<PoolSpec> spec =
        ParsePoolAttrs(ctx, kMax ? "MaxPoolingOp" : "AvgPoolingOp", "GPU", /*attr_windows=*/true);
    if (spec.ok()) {
      spec_ = *std::move(spec);
    } else {
      ctx.SetStatus(spec.status());
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(RunPool<kMax>(ctx, spec_, stream()));
    return Launched();
  }

 private:
  PoolSpec spec_;
};

class MaxPoolV2GpuOp final : public GpuOpKernel {
 public:
  explicit MaxPoolV2GpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    absl::StatusOr<PoolSpec> spec =
        ParsePoolAttrs(ctx, "MaxPoolingOp", "GPU", /*attr_windows=*/false);
    if (spec.ok()) {
      padding_ = spec->padding;
    } else {
      ctx.SetStatus(spec.status());
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    PoolSpec spec;
    spec.padding = padding_;
    spec.ksize = IndexValues(ctx.input(1));
    spec.strides = IndexValues(ctx.input(2));
    RILL_RETURN_IF_ERROR(CheckKsizeAndStrides(spec));
    RILL_RETURN_IF_ERROR(RunPool<true>(ctx, spec, stream()));
    return Launched();
  }

 private:
  Padding padding_ = Padding::kValid;
};

REGISTER_GPU_KERNEL(KernelDefBuilder("MaxPool").TypeConstraint("T", {DT_FLOAT}), PoolGpuOp<true>);
REGISTER_GPU_KERNEL(KernelDefBuilder("AvgPool").TypeConstraint("T", {DT_FLOAT}), PoolGpuOp<false>);
REGISTER_GPU_KERNEL(KernelDefBuilder("MaxPoolV2")
                        .TypeConstraint("T", {DT_FLOAT})
                        .HostMemory("ksize")
                        .HostMemory("strides"),
                    MaxPoolV2GpuOp);

}  // namespace
}  // namespace rill
