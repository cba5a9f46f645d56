// Conv2D and DepthwiseConv2dNative on the GPU (float, and half in float16 with float32
// accumulation; NHWC) and their float fused forms _FusedConv2D / _FusedDepthwiseConv2dNative (the
// graph optimizer's conv + BiasAdd [+ activation], made on a GPU because these kernels exist: the
// bias and activation run in one pass over the output), through cuDNN (core/gpu/cuda_dnn.h). The
// HWIO filter is transposed to cuDNN's OHWI on the compute stream and grouped filters (input depth
// a multiple of the filter's, beyond TensorFlow's CPU kernel as Rill's CPU kernel is) run as cuDNN
// groups; depthwise filters [H, W, C, M] run Rill's own NHWC kernel (nn_launchers.h). cuDNN pads
// symmetrically, so an input whose padding differs before and after (SAME with an even window
// total, EXPLICIT) is first copied into a zero-padded buffer, as TensorFlow's GPU kernel does.
// Shapes and attrs are checked with the CPU kernels' functions and texts
// (kernels/math_lib/conv_window.h); NCHW is Unimplemented (the CPU kernels' NHWC only); a
// convolution with a tensor of 2^31 elements or more is InvalidArgument (cuDNN's int sizes);
// cuDNN's failures (including cuDNN missing) are Internal naming the node.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_dnn.h"
#include "core/gpu/cuda_stream.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/gpu/nn_launchers.h"
#include "kernels/math_lib/conv_window.h"
#include "kernels/math_lib/fused_epilogue.h"

namespace rill {
namespace {

using gpu_internal::DnnConvShape;

// The padding after the last input element along one dim (negative when the last input elements
// are in no window).
int64_t PadAfter(int64_t in, int64_t out, int64_t k, int64_t stride, int64_t dilation,
                 int64_t before) {
  return (out - 1) * stride + (k - 1) * dilation + 1 - in - before;
}

template <bool kDepthwise, bool kFused>
class ConvGpuOp final : public GpuOpKernel {
 public:
  explicit ConvGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    (void)ctx.GetAttr("_rill_constant_weights", &constant_filter_);
    absl::StatusOr<Conv2DAttrs> attrs = ParseNhwcConvAttrs(ctx);
    if (attrs.ok()) {
      attrs_ = *std::move(attrs);
    } else {
      ctx.SetStatus(attrs.status());
      return;
    }
    if constexpr (kFused) {
      absl::StatusOr<FusedActivation> act = ParseFusedOps(ctx);
      if (act.ok()) activation_ = *act;
      ctx.SetStatus(act.status());
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    ConvGeometry g;
    if constexpr (kDepthwise) {
      RILL_ASSIGN_OR_RETURN(g, NhwcDepthwiseGeometry(attrs_, input.shape(), filter.shape()));
    } else {
      RILL_RETURN_IF_ERROR(CheckConvolutionFourDims(input, "input"));
      RILL_RETURN_IF_ERROR(CheckConvolutionFourDims(filter, "filter"));
      RILL_ASSIGN_OR_RETURN(g, NhwcConvGeometry(attrs_, input.shape(), filter.shape(), true));
      RILL_RETURN_IF_ERROR(CheckFilterHasElements(filter));
    }
    if constexpr (kFused) RILL_RETURN_IF_ERROR(CheckBias(ctx.input(2), g.out_c));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.out_c}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (g.groups == 0 || g.k_h * g.k_w == 0) {  // no input channels or taps: zeros
      std::string error;
      if (!gpu_internal::CudaMemsetAsync(gpu()->platform_id(), out->raw_data(), 0,
                                         out->TotalBytes(), stream(), &error)) {
        return gpu()->CudaError(absl::StrCat("zeroing the output of ", name()), error);
      }
      return Epilogue(ctx, out);
    }
    const bool half = input.dtype() == DT_HALF;
    if constexpr (kDepthwise) return RunDepthwise(ctx, g, input, filter, out, half);
    const int element_bytes = half ? 2 : 4;
    DnnConvShape s;
    s.half = half;
    s.batch = g.batch;
    s.in_depth = g.in_c;
    s.out_rows = g.out_h;
    s.out_cols = g.out_w;
    s.out_depth = g.out_c;
    s.filter_rows = g.k_h;
    s.filter_cols = g.k_w;
    s.groups = g.groups;
    s.stride_rows = g.stride_h;
    s.stride_cols = g.stride_w;
    s.dilation_rows = g.dil_h;
    s.dilation_cols = g.dil_w;
    const int64_t after_h = PadAfter(g.in_h, g.out_h, g.k_h, g.stride_h, g.dil_h, g.pad_h);
    const int64_t after_w = PadAfter(g.in_w, g.out_w, g.k_w, g.stride_w, g.dil_w, g.pad_w);
    const bool symmetric = after_h == g.pad_h && after_w == g.pad_w;
    s.in_rows = symmetric ? g.in_h : g.in_h + g.pad_h + std::max<int64_t>(after_h, 0);
    s.in_cols = symmetric ? g.in_w : g.in_w + g.pad_w + std::max<int64_t>(after_w, 0);
    s.pad_rows = symmetric ? g.pad_h : 0;
    s.pad_cols = symmetric ? g.pad_w : 0;
    if (!gpu_internal::FitsCudnn(s)) {
      return absl::InvalidArgumentError(absl::StrCat(
          type_string(), " node ", name(), " on ", gpu()->name(),
          ": a tensor of 2^31 elements or more (input ", input.shape().DebugString(), ", filter ",
          filter.shape().DebugString(), ") is beyond cuDNN; split the batch or run it on a CPU"));
    }
    // The filter in cuDNN's OHWI layout.
    const int64_t taps = kDepthwise ? g.k_h * g.k_w : g.k_h * g.k_w * (g.in_c / g.groups);
    RILL_ASSIGN_OR_RETURN(Tensor ohwi, FilterOhwi(ctx, filter, taps, g.out_c, element_bytes));
    const void* x = input.raw_data();
    Tensor padded;
    if (!symmetric) {
      RILL_ASSIGN_OR_RETURN(
          padded,
          ctx.allocate_temp(input.dtype(), TensorShape({g.batch, s.in_rows, s.in_cols, g.in_c})));
      gpu_kernels::LaunchPadNhwc(x, padded.raw_data(), g.batch, g.in_h, g.in_w, g.in_c, g.pad_h,
                                 g.pad_w, s.in_rows, s.in_cols, element_bytes, stream());
      RILL_RETURN_IF_ERROR(Launched());
      x = padded.raw_data();
    }
    s.alignment = gpu_internal::PointerAlignment({x, ohwi.raw_data(), out->raw_data()});
    RILL_ASSIGN_OR_RETURN(void* handle, gpu()->DnnHandle());
    stream();  // makes this GPU current for the calls below
    int algorithm = 0;
    size_t workspace_bytes = 0;
    std::string error;
    if (!gpu_internal::CudnnConvPlan(gpu()->platform_id(), handle, s, &algorithm, &workspace_bytes,
                                     &error)) {
      return gpu()->CudaError(absl::StrCat("planning ", type_string(), " node ", name()), error);
    }
    Tensor workspace;
    if (workspace_bytes > 0) {
      RILL_ASSIGN_OR_RETURN(
          workspace,
          ctx.allocate_temp(DT_UINT8, TensorShape({static_cast<int64_t>(workspace_bytes)})));
    }
    if (!gpu_internal::CudnnConvForward(
            gpu()->platform_id(), handle, s, algorithm, x, ohwi.raw_data(), out->raw_data(),
            workspace_bytes > 0 ? workspace.raw_data() : nullptr, workspace_bytes, &error)) {
      return gpu()->CudaError(absl::StrCat("running ", type_string(), " node ", name()), error);
    }
    return Epilogue(ctx, out);
  }

 private:
  // The filter in cuDNN's OHWI layout. A constant filter (the optimizer's _rill_constant_weights:
  // a Const's tensor, the same buffer every run) is transposed once and kept, holding the filter
  // so its buffer cannot be reused for another; other filters are transposed each run.
  absl::StatusOr<Tensor> FilterOhwi(OpKernelContext& ctx, const Tensor& filter, int64_t taps,
                                    int64_t out_c, int element_bytes) const {
    if (constant_filter_) {
      MutexLock lock(&mu_);
      if (held_filter_.raw_data() == filter.raw_data() && held_filter_.dtype() == filter.dtype() &&
          held_filter_.shape() == filter.shape()) {
        return ohwi_;
      }
    }
    Tensor ohwi;
    if (constant_filter_) {
      RILL_ASSIGN_OR_RETURN(
          ohwi, Tensor::AllocateUninitialized(gpu()->allocator(), filter.dtype(), filter.shape()));
    } else {
      RILL_ASSIGN_OR_RETURN(ohwi, ctx.allocate_temp(filter.dtype(), filter.shape()));
    }
    gpu_kernels::LaunchTransposeMatrix(filter.raw_data(), ohwi.raw_data(), taps, out_c,
                                       element_bytes, stream());
    RILL_RETURN_IF_ERROR(Launched());
    if (constant_filter_) {
      MutexLock lock(&mu_);
      held_filter_ = filter;
      ohwi_ = ohwi;
    }
    return ohwi;
  }

  // Depthwise convolutions run Rill's kernel (bias and activation in the same pass): cuDNN's
  // grouped convolution of C groups took ten times PyTorch's time on MobileNetV2's shapes.
  absl::Status RunDepthwise(OpKernelContext& ctx, const ConvGeometry& g, const Tensor& input,
                            const Tensor& filter, Tensor* out, bool half) const {
    gpu_kernels::DepthwiseDims d;
    d.batch = g.batch;
    d.in_h = g.in_h;
    d.in_w = g.in_w;
    d.in_c = g.in_c;
    d.mult = g.out_c / g.in_c;
    d.k_h = g.k_h;
    d.k_w = g.k_w;
    d.stride_h = g.stride_h;
    d.stride_w = g.stride_w;
    d.dil_h = g.dil_h;
    d.dil_w = g.dil_w;
    d.pad_h = g.pad_h;
    d.pad_w = g.pad_w;
    d.out_h = g.out_h;
    d.out_w = g.out_w;
    gpu_kernels::LaunchDepthwiseConv(
        input.raw_data(), filter.raw_data(), kFused ? ctx.input(2).flat<float>().data() : nullptr,
        static_cast<int>(activation_), out->raw_data(), d, half, stream());
    return Launched();
  }

  // The fused kernels' bias and activation, in place on the output.
  absl::Status Epilogue(OpKernelContext& ctx, Tensor* out) const {
    if constexpr (!kFused) return absl::OkStatus();
    gpu_kernels::LaunchBiasActivation(out->flat<float>().data(), ctx.input(2).flat<float>().data(),
                                      out->NumElements(), out->shape().dim(3),
                                      static_cast<int>(activation_), stream());
    return Launched();
  }

  Conv2DAttrs attrs_;
  FusedActivation activation_ = FusedActivation::kNone;
  bool constant_filter_ = false;
  mutable Mutex mu_;
  mutable Tensor held_filter_ ABSL_GUARDED_BY(mu_);  // the constant filter ohwi_ was made from
  mutable Tensor ohwi_ ABSL_GUARDED_BY(mu_);
};

REGISTER_GPU_KERNEL(KernelDefBuilder("Conv2D").TypeConstraint("T", {DT_HALF, DT_FLOAT}),
                    ConvGpuOp<false, false>);
REGISTER_GPU_KERNEL(
    KernelDefBuilder("DepthwiseConv2dNative").TypeConstraint("T", {DT_HALF, DT_FLOAT}),
    ConvGpuOp<true, false>);
REGISTER_GPU_KERNEL(KernelDefBuilder("_FusedConv2D").TypeConstraint("T", {DT_FLOAT}),
                    ConvGpuOp<false, true>);
REGISTER_GPU_KERNEL(KernelDefBuilder("_FusedDepthwiseConv2dNative").TypeConstraint("T", {DT_FLOAT}),
                    ConvGpuOp<true, true>);

}  // namespace
}  // namespace rill
