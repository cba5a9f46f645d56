// BiasAdd on the CPU: output = value + bias along the channel dimension, which is the last one
// for data_format NHWC and dimension 1 for NCHW (rank >= 3; a matrix's channels are its last
// dimension in both formats, as in TensorFlow). Integers wrap; half is computed in float.
// Errors are InvalidArgument with TensorFlow's texts: "Input tensor must be at least 2D: [3]",
// "Biases must be 1D: [2,2]", "Must provide as many biases as the last dimension of the input
// tensor: [4] vs. [2,3]" (NCHW: "... as the channel dimension of the input tensor: ...").
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_BIAS_ADD_TYPES \
  half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, complex64, complex128

class BiasAddOp final : public OpKernel {
 public:
  explicit BiasAddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string format = "NHWC";
    if (ctx.def().op() != "BiasAddV1") ctx.SetStatus(ctx.GetAttr("data_format", &format));
    nchw_ = format == "NCHW";
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& value = ctx.input(0);
    const Tensor& bias = ctx.input(1);
    const TensorShape& shape = value.shape();
    RILL_ASSIGN_OR_RETURN(BiasAddLayout layout, BiasAddLayoutOf(shape, bias.shape(), nchw_));
    // In place when the value's buffer is not read after this node (a product's fresh output).
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    // value viewed as [outer, channels, inner]: inner is 1 for NHWC, the spatial size for NCHW.
    const int64_t outer = layout.outer, channels = layout.channels, inner = layout.inner;
    return VisitKernelTypes<RILL_BIAS_ADD_TYPES>(*this, value.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      const T* x = value.flat<T>().data();
      const T* b = bias.flat<T>().data();
      T* z = out->flat<T>().data();
      // Rows are vector loops at the CPU's width (z may be x itself: the loops allow an exact
      // alias), costed as the elementwise ops' cheap loops are.
      auto row_cost = [](int64_t elements) {
        return std::max<int64_t>(elements * cwise_internal::CostPerUnit<CwiseFunctorBase, T>() /
                                     cwise_internal::kParallelUnit<T>,
                                 1);
      };
      if (inner == 1) {  // channels last: each row adds the whole bias vector
        ctx.ParallelFor(outer, row_cost(channels), [&](int64_t begin, int64_t end) {
          cwise_internal::RunSimdFor<T>([&] {
            for (int64_t row = begin; row < end; ++row) {
              const T* xr = x + row * channels;
              T* zr = z + row * channels;
              for (int64_t c = 0; c < channels; ++c) {
                zr[c] = Store<T>(cwise_math::WrapAdd(Load(xr[c]), Load(b[c])));
              }
            }
          });
        });
        return absl::OkStatus();
      }
      ctx.ParallelFor(outer * channels, row_cost(inner), [&](int64_t begin, int64_t end) {
        cwise_internal::RunSimdFor<T>([&] {
          for (int64_t row = begin; row < end; ++row) {  // one channel's spatial plane
            const auto bc = Load(b[row % channels]);
            const T* xr = x + row * inner;
            T* zr = z + row * inner;
            for (int64_t i = 0; i < inner; ++i) {
              zr[i] = Store<T>(cwise_math::WrapAdd(Load(xr[i]), bc));
            }
          }
        });
      });
      return absl::OkStatus();
    });
  }

 private:
  bool nchw_ = false;
};

// BiasAddGrad: the sum of out_backprop over every dim but the channel one (accumulated in float
// for half; integers wrap). Errors: "Input tensor must be at least 2D: [3]".
class BiasAddGradOp final : public OpKernel {
 public:
  explicit BiasAddGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string format;
    ctx.SetStatus(ctx.GetAttr("data_format", &format));
    nchw_ = format == "NCHW";
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& grad = ctx.input(0);
    const TensorShape& shape = grad.shape();
    if (shape.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input tensor must be at least 2D: ", shape.DebugString()));
    }
    const int channel_dim = nchw_ && shape.rank() >= 3 ? 1 : shape.rank() - 1;
    const int64_t channels = shape.dim(channel_dim);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({channels})));
    int64_t inner = 1;
    for (int d = channel_dim + 1; d < shape.rank(); ++d) inner *= shape.dim(d);
    const int64_t outer = channels == 0 || inner == 0 ? 0 : grad.NumElements() / (channels * inner);
    return VisitKernelTypes<RILL_BIAS_ADD_TYPES>(*this, grad.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using A = decltype(Load(T()));
      const T* g = grad.flat<T>().data();
      std::vector<A> sum(channels, A(0));
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const T* row = g + (o * channels + c) * inner;
          A acc = sum[c];
          for (int64_t i = 0; i < inner; ++i) acc = cwise_math::WrapAdd(acc, Load(row[i]));
          sum[c] = acc;
        }
      }
      T* z = out->flat<T>().data();
      for (int64_t c = 0; c < channels; ++c) z[c] = cwise_internal::Store<T>(sum[c]);
      return absl::OkStatus();
    });
  }

 private:
  bool nchw_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("BiasAddGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_BIAS_ADD_TYPES>()),
                BiasAddGradOp);
REGISTER_KERNEL(KernelDefBuilder("BiasAdd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_BIAS_ADD_TYPES>()),
                BiasAddOp);
// BiasAddV1: BiasAdd before data_format (always NHWC).
REGISTER_KERNEL(KernelDefBuilder("BiasAddV1")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_BIAS_ADD_TYPES>()),
                BiasAddOp);

}  // namespace
}  // namespace rill
