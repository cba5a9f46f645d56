// Dilation2DBackpropInput and Dilation2DBackpropFilter on the CPU, NHWC: the gradients of
// Dilation2D (kernels/image/window_ops.cc). Each output gradient is added to the input element /
// filter tap of its window's first maximum of input + filter (row by row; taps outside the image
// skipped; the window's first in-image position / tap (0, 0) when none is greater than T's
// lowest), as TensorFlow's CPU kernels; sums are accumulated in T (half rounds after each add) in
// TensorFlow's visiting order.
// Errors are InvalidArgument with TensorFlow's texts: "input must be 4-dimensional[...]", "filter
// must be 3-dimensional: [...]", "input and filter must have the same depth: 3 vs 2",
// "out_backprop has incompatible size.", "filter must not be empty: [0,2,1]", "Dilation2D requires
// the stride attribute to contain 4 values, but got: 3" (and rates), the window errors of
// ops/window_geometry.h; Unimplemented "Stride is only supported across spatial dimensions.", "Rate
// is only supported across spatial dimensions.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

#define RILL_WINDOW_GRAD_TYPES half, float, double, int32_t, int64_t

// Dilation2DBackpropInput (kFilter false) and Dilation2DBackpropFilter (true).
template <bool kFilter>
class Dilation2DBackpropOp final : public OpKernel {
 public:
  explicit Dilation2DBackpropOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Init(ctx));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    const Tensor& backprop = ctx.input(2);
    const TensorShape &s = input.shape(), &fs = filter.shape();
    if (s.rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", s.DebugString()));
    }
    if (fs.rank() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter must be 3-dimensional: ", fs.DebugString()));
    }
    const int64_t batch = s.dim(0), in_h = s.dim(1), in_w = s.dim(2), depth = s.dim(3);
    if (depth != fs.dim(2)) {
      return absl::InvalidArgumentError(
          absl::StrCat("input and filter must have the same depth: ", depth, " vs ", fs.dim(2)));
    }
    const int64_t k_h = fs.dim(0), k_w = fs.dim(1);
    if (k_h == 0 || k_w == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter must not be empty: ", fs.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Window h, ComputeWindow(in_h, k_h, stride_[1], rate_[1], padding_));
    RILL_ASSIGN_OR_RETURN(Window w, ComputeWindow(in_w, k_w, stride_[2], rate_[2], padding_));
    if (backprop.shape() != TensorShape({batch, h.out, w.out, depth})) {
      return absl::InvalidArgumentError("out_backprop has incompatible size.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, kFilter ? fs : s));
    return VisitKernelTypes<RILL_WINDOW_GRAD_TYPES>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using cwise_internal::Store;
      using C = decltype(Load(T()));
      const C lowest = std::is_same_v<T, half> ? static_cast<C>(-65504.0f)
                                               : static_cast<C>(std::numeric_limits<C>::lowest());
      const T* x = input.flat<T>().data();
      const T* f = filter.flat<T>().data();
      const T* g = backprop.flat<T>().data();
      T* z = out->flat<T>().data();
      std::fill(z, z + out->NumElements(), T());
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t oy = 0; oy < h.out; ++oy) {
          const int64_t y0 = oy * stride_[1] - h.pad_before;
          for (int64_t ox = 0; ox < w.out; ++ox) {
            const int64_t x0 = ox * stride_[2] - w.pad_before;
            for (int64_t d = 0; d < depth; ++d) {
              C best = lowest;
              int64_t best_y = std::max<int64_t>(y0, 0), best_x = std::max<int64_t>(x0, 0);
              int64_t best_i = 0, best_j = 0;
              for (int64_t i = 0; i < k_h; ++i) {
                const int64_t iy = y0 + i * rate_[1];
                if (iy < 0 || iy >= in_h) continue;
                for (int64_t j = 0; j < k_w; ++j) {
                  const int64_t ix = x0 + j * rate_[2];
                  if (ix < 0 || ix >= in_w) continue;
                  const C v = static_cast<C>(Load(x[((n * in_h + iy) * in_w + ix) * depth + d]) +
                                             Load(f[(i * k_w + j) * depth + d]));
                  if (v > best) {
                    best = v;
                    best_y = iy;
                    best_x = ix;
                    best_i = i;
                    best_j = j;
                  }
                }
              }
              const int64_t at = kFilter ? (best_i * k_w + best_j) * depth + d
                                         : ((n * in_h + best_y) * in_w + best_x) * depth + d;
              z[at] = Store<T>(Load(z[at]) + Load(g[((n * h.out + oy) * w.out + ox) * depth + d]));
            }
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    std::string padding;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &stride_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("rates", &rate_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    if (stride_.size() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dilation2D requires the stride attribute to contain 4 values, but got: ",
                       stride_.size()));
    }
    if (rate_.size() != 4) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Dilation2D requires the rates attribute to contain 4 values, but got: ", rate_.size()));
    }
    if (stride_[0] != 1 || stride_[3] != 1) {
      return absl::UnimplementedError("Stride is only supported across spatial dimensions.");
    }
    if (rate_[0] != 1 || rate_[3] != 1) {
      return absl::UnimplementedError("Rate is only supported across spatial dimensions.");
    }
    return absl::OkStatus();
  }

  std::vector<int64_t> stride_, rate_;
  Padding padding_ = Padding::kValid;
};

REGISTER_KERNEL(KernelDefBuilder("Dilation2DBackpropInput")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_WINDOW_GRAD_TYPES>()),
                Dilation2DBackpropOp<false>);
REGISTER_KERNEL(KernelDefBuilder("Dilation2DBackpropFilter")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_WINDOW_GRAD_TYPES>()),
                Dilation2DBackpropOp<true>);

}  // namespace
}  // namespace rill
