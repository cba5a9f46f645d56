// Conv3DBackpropFilterV2 on the CPU, NDHWC: Conv3D's gradient for its filter of shape
// filter_sizes [KD, KH, KW, Cin, Cout]:
//   out[kd,kh,kw,ci,co] = sum over n,od,oh,ow of in[n, od*sd - pd + kd, oh*sh - ph + kh,
//     ow*sw - pw + kw, ci] * out_backprop[n,od,oh,ow,co]  (zero outside the input),
// accumulated in double (float and double; half in float), filter taps in parallel over the
// kernel's intra-op threads. Dilations other than 1 are refused, as TensorFlow's CPU kernel does.
// Errors (TensorFlow's texts): InvalidArgument "Conv3DBackpropFilterV2 on the CPU supports only
// data_format NDHWC, got NCDHW", "Sliding window strides field must specify 5 dimensions",
// "Current implementation does not yet support strides in the batch and depth dimensions.",
// "CPU implementation of Conv3D currently only supports dilated rates of 1.", "input tensor must
// have 5 dimensions", "filter_sizes tensor must have 5 dimensions", "out_backprop tensor must have
// 5 dimensions", "input and filter_sizes must have the same number of channels. Got 3 for input
// and 2 for filter_sizes", "out_backprop and filter_sizes must have the same number of channels.
// Got 2 for out_backprop and 3 for filter_sizes", "Expected out_backprop shape to be [...], but
// got [...]", and the window errors of ops/window_geometry.h.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

class Conv3DBackpropFilterOp final : public OpKernel {
 public:
  explicit Conv3DBackpropFilterOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Init(ctx));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& sizes = ctx.input(1);
    const Tensor& backprop = ctx.input(2);
    if (input.shape().rank() != 5) {
      return absl::InvalidArgumentError("input tensor must have 5 dimensions");
    }
    if (sizes.shape().rank() != 1 || sizes.NumElements() != 5) {
      return absl::InvalidArgumentError("filter_sizes tensor must have 5 dimensions");
    }
    if (backprop.shape().rank() != 5) {
      return absl::InvalidArgumentError("out_backprop tensor must have 5 dimensions");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape filter_shape,
                          TensorShape::FromDims(IndexValues(sizes)));
    const TensorShape& is = input.shape();
    const int64_t batch = is.dim(0), in_c = is.dim(4), out_c = filter_shape.dim(4);
    if (in_c != filter_shape.dim(3)) {
      return absl::InvalidArgumentError(
          absl::StrCat("input and filter_sizes must have the same number of channels. Got ", in_c,
                       " for input and ", filter_shape.dim(3), " for filter_sizes"));
    }
    if (backprop.shape().dim(4) != out_c) {
      return absl::InvalidArgumentError(absl::StrCat(
          "out_backprop and filter_sizes must have the same number of channels. Got ",
          backprop.shape().dim(4), " for out_backprop and ", out_c, " for filter_sizes"));
    }
    int64_t in[3], k[3], out[3], pad[3], stride[3];
    for (int d = 0; d < 3; ++d) {
      in[d] = is.dim(d + 1);
      k[d] = filter_shape.dim(d);
      stride[d] = strides_[d + 1];
      RILL_ASSIGN_OR_RETURN(Window w, ComputeWindow(in[d], k[d], stride[d], 1, padding_));
      out[d] = w.out;
      pad[d] = w.pad_before;
    }
    const TensorShape want({batch, out[0], out[1], out[2], out_c});
    if (backprop.shape() != want) {
      return absl::InvalidArgumentError(absl::StrCat("Expected out_backprop shape to be ",
                                                     want.DebugString(), ", but got ",
                                                     backprop.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * result, ctx.allocate_output(0, filter_shape));
    if (result->NumElements() == 0) return absl::OkStatus();
    const int64_t taps = k[0] * k[1] * k[2];
    return VisitKernelTypes<half, float, double>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using Acc = std::conditional_t<std::is_same_v<T, half>, float, double>;
      const T* x = input.flat<T>().data();
      const T* g = backprop.flat<T>().data();
      T* z = result->flat<T>().data();
      ctx.ParallelFor(
          taps, batch * out[0] * out[1] * out[2] * in_c * out_c, [&](int64_t begin, int64_t end) {
            std::vector<Acc> acc(static_cast<size_t>(in_c * out_c));
            for (int64_t t = begin; t < end; ++t) {
              const int64_t kw = t % k[2], kh = (t / k[2]) % k[1], kd = t / (k[2] * k[1]);
              std::fill(acc.begin(), acc.end(), Acc(0));
              for (int64_t n = 0; n < batch; ++n) {
                for (int64_t od = 0; od < out[0]; ++od) {
                  const int64_t id = od * stride[0] - pad[0] + kd;
                  if (id < 0 || id >= in[0]) continue;
                  for (int64_t oh = 0; oh < out[1]; ++oh) {
                    const int64_t ih = oh * stride[1] - pad[1] + kh;
                    if (ih < 0 || ih >= in[1]) continue;
                    for (int64_t ow = 0; ow < out[2]; ++ow) {
                      const int64_t iw = ow * stride[2] - pad[2] + kw;
                      if (iw < 0 || iw >= in[2]) continue;
                      const T* xp = x + (((n * in[0] + id) * in[1] + ih) * in[2] + iw) * in_c;
                      const T* gp = g + (((n * out[0] + od) * out[1] + oh) * out[2] + ow) * out_c;
                      for (int64_t ci = 0; ci < in_c; ++ci) {
                        const Acc xv = static_cast<Acc>(Load(xp[ci]));
                        Acc* row = acc.data() + ci * out_c;
                        for (int64_t co = 0; co < out_c; ++co) {
                          row[co] += xv * static_cast<Acc>(Load(gp[co]));
                        }
                      }
                    }
                  }
                }
              }
              T* dst = z + t * in_c * out_c;
              for (size_t i = 0; i < acc.size(); ++i) {
                dst[i] = cwise_internal::Store<T>(static_cast<decltype(Load(T()))>(acc[i]));
              }
            }
          });
      return absl::OkStatus();
    });
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    std::string format = "NDHWC", padding;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("data_format", &format));
    if (format != "NDHWC") {
      return absl::InvalidArgumentError(absl::StrCat(
          "Conv3DBackpropFilterV2 on the CPU supports only data_format NDHWC, got ", format));
    }
    RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &strides_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    if (strides_.size() != 5) {
      return absl::InvalidArgumentError("Sliding window strides field must specify 5 dimensions");
    }
    if (strides_[0] != 1 || strides_[4] != 1) {
      return absl::InvalidArgumentError(
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.");
    }
    std::vector<int64_t> dilations = {1, 1, 1, 1, 1};
    RILL_RETURN_IF_ERROR(ctx.GetAttr("dilations", &dilations));
    for (int64_t d : dilations) {
      if (d != 1) {
        return absl::InvalidArgumentError(
            "CPU implementation of Conv3D currently only supports dilated rates of 1.");
      }
    }
    return absl::OkStatus();
  }

  std::vector<int64_t> strides_;
  Padding padding_ = Padding::kValid;
};

REGISTER_KERNEL(KernelDefBuilder("Conv3DBackpropFilterV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>())
                    .HostMemory("filter_sizes"),
                Conv3DBackpropFilterOp);

}  // namespace
}  // namespace rill
