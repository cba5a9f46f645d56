// QuantizedMaxPool and QuantizedAvgPool on the CPU (quint8 and qint8, as TensorFlow 2.21
// registers them): MaxPool / AvgPool over the integer codes of an NHWC tensor; the range passes
// through. Max pooling takes the largest code of each window (padding excluded), across depth too;
// average pooling sums each window's codes in 32 bits and divides by the count of input positions
// it covers (padding excluded), truncating toward zero as TensorFlow's int32 AvgPool does, then
// clamps to the type. Errors are TensorFlow's texts: "min_input shape must be rank 0 but is rank 1,
// received shape: [1]", "tensor_in_shape must have 2 spatial dimensions. 3 0" (the rank, then
// TensorFlow's NHWC format number), Unimplemented "Pooling is not yet supported on the batch
// dimension." and "Non-spatial pooling is not yet supported. Volunteers? :)" (average across
// depth), and pool_geometry.h's. Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/nn/pool_geometry.h"

namespace rill {
namespace {

absl::StatusOr<float> PoolRange(const OpKernelContext& ctx, int i, const char* name) {
  const Tensor& t = ctx.input(i);
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(name, " shape must be rank 0 but is rank ",
                                                   t.shape().rank(),
                                                   ", received shape: ", t.shape().DebugString()));
  }
  return t.flat<float>()[0];
}

template <typename Int>
void MaxPoolCodes(const PoolGeometry& g, const Int* in, Int* out, int64_t begin, int64_t end) {
  for (int64_t p = begin; p < end; ++p) {
    const int64_t b = p / (g.out_h * g.out_w);
    const int64_t oy = (p / g.out_w) % g.out_h, ox = p % g.out_w;
    Int* dst = out + p * g.out_d;
    if (g.k_d != 1) {  // across depth: the pixel's channels in groups of k_d
      const Int* src = in + p * g.depth;
      for (int64_t c = 0; c < g.out_d; ++c) {
        dst[c] = *std::max_element(src + c * g.k_d, src + (c + 1) * g.k_d);
      }
      continue;
    }
    std::fill(dst, dst + g.depth, std::numeric_limits<Int>::lowest());
    const int64_t y0 = oy * g.stride_h - g.pad_h, x0 = ox * g.stride_w - g.pad_w;
    for (int64_t y = std::max<int64_t>(y0, 0); y < std::min(y0 + g.k_h, g.in_h); ++y) {
      for (int64_t x = std::max<int64_t>(x0, 0); x < std::min(x0 + g.k_w, g.in_w); ++x) {
        const Int* src = in + ((b * g.in_h + y) * g.in_w + x) * g.depth;
        for (int64_t c = 0; c < g.depth; ++c) dst[c] = std::max(dst[c], src[c]);
      }
    }
  }
}

template <typename Int>
void AvgPoolCodes(const PoolGeometry& g, const Int* in, Int* out, int64_t begin, int64_t end) {
  std::vector<int32_t> sum(g.depth);
  for (int64_t p = begin; p < end; ++p) {
    const int64_t b = p / (g.out_h * g.out_w);
    const int64_t oy = (p / g.out_w) % g.out_h, ox = p % g.out_w;
    std::fill(sum.begin(), sum.end(), 0);
    const int64_t y0 = oy * g.stride_h - g.pad_h, x0 = ox * g.stride_w - g.pad_w;
    int32_t count = 0;
    for (int64_t y = std::max<int64_t>(y0, 0); y < std::min(y0 + g.k_h, g.in_h); ++y) {
      for (int64_t x = std::max<int64_t>(x0, 0); x < std::min(x0 + g.k_w, g.in_w); ++x) {
        const Int* src = in + ((b * g.in_h + y) * g.in_w + x) * g.depth;
        for (int64_t c = 0; c < g.depth; ++c) sum[c] += src[c];
        ++count;
      }
    }
    Int* dst = out + p * g.depth;
    for (int64_t c = 0; c < g.depth; ++c) {
      const int32_t v = count == 0 ? 0 : sum[c] / count;
      dst[c] = static_cast<Int>(std::clamp<int32_t>(v, std::numeric_limits<Int>::lowest(),
                                                    std::numeric_limits<Int>::max()));
    }
  }
}

template <bool kMax>
class QuantizedPoolOp final : public OpKernel {
 public:
  explicit QuantizedPoolOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string padding;
    absl::Status s = ctx.GetAttr("ksize", &spec_.ksize);
    if (s.ok()) s = ctx.GetAttr("strides", &spec_.strides);
    if (s.ok()) s = ctx.GetAttr("padding", &padding);
    if (s.ok()) s = CheckKsizeAndStrides(spec_);
    spec_.padding = PaddingFromString(padding);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const float lo, PoolRange(ctx, 1, "min_input"));
    RILL_ASSIGN_OR_RETURN(const float hi, PoolRange(ctx, 2, "max_input"));
    const Tensor& input = ctx.input(0);
    if (input.shape().rank() != 4) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tensor_in_shape must have 2 spatial dimensions. ", input.shape().rank(), " 0"));
    }
    RILL_ASSIGN_OR_RETURN(PoolGeometry g, NhwcPoolGeometry(spec_, input.shape()));
    if (!kMax && g.k_d != 1) {
      return absl::UnimplementedError("Non-spatial pooling is not yet supported. Volunteers? :)");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.out_d}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    ctx.set_output(1, Tensor::Scalar<float>(lo));
    ctx.set_output(2, Tensor::Scalar<float>(hi));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t pixels = g.batch * g.out_h * g.out_w;
    auto run = [&](auto* x, auto* y) {
      using Int = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
      ctx.ParallelFor(pixels, g.k_h * g.k_w * g.k_d * g.depth, [&](int64_t begin, int64_t end) {
        if constexpr (kMax) {
          MaxPoolCodes<Int>(g, x, y, begin, end);
        } else {
          AvgPoolCodes<Int>(g, x, y, begin, end);
        }
      });
    };
    if (input.dtype() == DT_QUINT8) {
      run(&input.flat<quint8>().data()->value, &out->flat<quint8>().data()->value);
    } else {
      run(&input.flat<qint8>().data()->value, &out->flat<qint8>().data()->value);
    }
    return absl::OkStatus();
  }

 private:
  PoolSpec spec_;
};

REGISTER_KERNEL(KernelDefBuilder("QuantizedMaxPool")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_QUINT8, DT_QINT8}),
                QuantizedPoolOp<true>);
REGISTER_KERNEL(KernelDefBuilder("QuantizedAvgPool")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_QUINT8, DT_QINT8}),
                QuantizedPoolOp<false>);

}  // namespace
}  // namespace rill
