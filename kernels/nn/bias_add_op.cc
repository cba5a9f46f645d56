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
#include "kernels/math_lib/half_convert.h"

namespace rill {
namespace {

#define RILL_BIAS_ADD_TYPES \
  half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, complex64, complex128

// half: float(x) + float(bias) rounded once to half per element, as the float path computes it,
// with x widened and the sums rounded by F16C (half_convert.h) a chunk of kHalfChunk elements at a
// time. Rows of `channels` elements (NHWC, inner == 1) are taken whole, as many as fit a chunk,
// against the float bias repeated across the chunk; planes of `inner` elements (NCHW) add their
// channel's bias.
void BiasAddHalf(const OpKernelContext& ctx, const half* x, const half* b, half* z, int64_t outer,
                 int64_t channels, int64_t inner, int64_t row_cost) {
  constexpr int64_t kChunk = cwise_internal::kHalfChunk;
  std::vector<float> bias(channels);
  HalfToFloat(b, channels, bias.data());
  if (inner == 1) {
    // Whole rows per chunk when a row fits one (rows_per_chunk rows against `tile`), else each
    // row in chunks against the bias at the chunk's offset.
    const int64_t rows_per_chunk = std::max<int64_t>(1, kChunk / channels);
    std::vector<float> tile;
    if (channels <= kChunk) {
      tile.resize(rows_per_chunk * channels);
      for (int64_t j = 0; j < static_cast<int64_t>(tile.size()); ++j) tile[j] = bias[j % channels];
    }
    ctx.ParallelFor(outer, row_cost, [&](int64_t begin, int64_t end) {
      float buf[kChunk];
      if (channels <= kChunk) {
        for (int64_t row = begin; row < end; row += rows_per_chunk) {
          const int64_t m = std::min(rows_per_chunk, end - row) * channels;
          HalfToFloat(x + row * channels, m, buf);
          for (int64_t j = 0; j < m; ++j) buf[j] += tile[j];
          FloatToHalf(buf, m, z + row * channels);
        }
        return;
      }
      for (int64_t row = begin; row < end; ++row) {
        for (int64_t c = 0; c < channels; c += kChunk) {
          const int64_t m = std::min(kChunk, channels - c);
          HalfToFloat(x + row * channels + c, m, buf);
          for (int64_t j = 0; j < m; ++j) buf[j] += bias[c + j];
          FloatToHalf(buf, m, z + row * channels + c);
        }
      }
    });
    return;
  }
  ctx.ParallelFor(outer * channels, row_cost, [&](int64_t begin, int64_t end) {
    float buf[kChunk];
    for (int64_t row = begin; row < end; ++row) {  // one channel's spatial plane
      const float bc = bias[row % channels];
      for (int64_t i = 0; i < inner; i += kChunk) {
        const int64_t m = std::min(kChunk, inner - i);
        HalfToFloat(x + row * inner + i, m, buf);
        for (int64_t j = 0; j < m; ++j) buf[j] += bc;
        FloatToHalf(buf, m, z + row * inner + i);
      }
    }
  });
}

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
      if constexpr (std::is_same_v<T, half>) {
        BiasAddHalf(ctx, x, b, z, outer, channels, inner, row_cost(inner == 1 ? channels : inner));
        return absl::OkStatus();
      }
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
