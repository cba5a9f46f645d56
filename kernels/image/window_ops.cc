// Sliding-window image kernels on the CPU, NHWC, with TensorFlow's SAME / VALID window geometry
// (ops/window_geometry.h; an effective window of (k - 1) * rate + 1):
//   ExtractImagePatches: patches [batch, out_h, out_w, k_h * k_w * depth], element (i, j, d) of a
//     patch the input at (y * stride_h + i * rate_h - pad_top, x * stride_w + j * rate_w -
//     pad_left, d), 0 outside the image; a VALID window larger than the image gives an empty
//     output (as TensorFlow).
//   MaxPoolWithArgmax: MaxPool and, per output, the flat index of the first maximum in window
//     scan order ((y * width + x) * depth + d, plus batch * height * width * depth with
//     include_batch_in_index), int32 or int64 (Targmax).
//   Dilation2D: grayscale morphological dilation, out = max over the window of input + filter
//     (filter [k_h, k_w, depth]); taps outside the image are skipped (T's lowest when none is
//     inside).
// Errors are TensorFlow's texts: InvalidArgument "Sliding window ksizes field must specify 4
// dimensions", "input must be 4-dimensional[2,3]", "tensor_in must be 4-dimensional", "filter
// must be 3-dimensional: [2,2]", "input and filter must have the same depth: 3 vs 2",
// "Computed output size would be negative...", "ksize must be a positive int32 value, got:0";
// OutOfRange "strides is out of range."; Unimplemented "Only support ksizes across space.",
// "Pooling is not yet supported on the batch dimension.", "Stride is only supported across
// spatial dimensions.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/attr_value_util.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

struct Geometry2D {
  int64_t batch, in_h, in_w, depth;
  Window h, w;
};

absl::StatusOr<Geometry2D> Geometry(const TensorShape& in, int64_t k_h, int64_t k_w,
                                    int64_t stride_h, int64_t stride_w, int64_t rate_h,
                                    int64_t rate_w, Padding padding) {
  Geometry2D g;
  g.batch = in.dim(0);
  g.in_h = in.dim(1);
  g.in_w = in.dim(2);
  g.depth = in.dim(3);
  RILL_ASSIGN_OR_RETURN(g.h, ComputeWindow(g.in_h, k_h, stride_h, rate_h, padding));
  RILL_ASSIGN_OR_RETURN(g.w, ComputeWindow(g.in_w, k_w, stride_w, rate_w, padding));
  return g;
}

// TensorFlow reads these window attrs as int32: a value outside it is its shape function's
// error ("Attr strides has value 2147483648 out of range for an int32"), which also keeps every
// window product within int64.
absl::Status CheckBounded(const std::vector<int64_t>& v, const char* attr) {
  for (int64_t x : v) RILL_RETURN_IF_ERROR(CheckInt32Attr(attr, x));
  return absl::OkStatus();
}

// Reads a 4-value list attr; `bad` is the error when it does not have 4 values.
absl::Status FourValues(OpKernelConstruction& ctx, const char* attr, std::vector<int64_t>* v,
                        const std::string& bad) {
  RILL_RETURN_IF_ERROR(ctx.GetAttr(attr, v));
  if (v->size() != 4) return absl::InvalidArgumentError(bad);
  return CheckBounded(*v, attr);
}

// --- ExtractImagePatches ----------------------------------------------------------------------
class ExtractImagePatchesOp final : public OpKernel {
 public:
  explicit ExtractImagePatchesOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Init(ctx));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape s = in.shape();
    if (s.rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", s.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape patch, TensorShape::FromDims({k_[1], k_[2], s.dim(3)}));
    const int64_t kk = patch.num_elements();
    // A VALID window larger than the image gives no patches (TensorFlow: an empty output).
    if (padding_ == Padding::kValid &&
        (s.dim(1) < (k_[1] - 1) * rate_[1] + 1 || s.dim(2) < (k_[2] - 1) * rate_[2] + 1)) {
      RILL_ASSIGN_OR_RETURN(TensorShape empty, TensorShape::FromDims({s.dim(0), 0, 0, kk}));
      return ctx.allocate_output(0, empty).status();
    }
    RILL_ASSIGN_OR_RETURN(Geometry2D g, Geometry(s, k_[1], k_[2], stride_[1], stride_[2], rate_[1],
                                                 rate_[2], padding_));
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.h.out, g.w.out, kk}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t elem = DataTypeSize(in.dtype());
    const char* x = static_cast<const char*>(in.raw_data());
    char* z = static_cast<char*>(out->raw_data());
    const int64_t row_bytes = g.depth * elem;
    ctx.ParallelFor(g.batch * g.h.out, g.w.out * kk, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t n = row / g.h.out, oy = row % g.h.out;
        char* zr = z + row * g.w.out * kk * elem;
        for (int64_t ox = 0; ox < g.w.out; ++ox) {
          char* zp = zr + ox * kk * elem;
          for (int64_t i = 0; i < k_[1]; ++i) {
            const int64_t iy = oy * stride_[1] + i * rate_[1] - g.h.pad_before;
            for (int64_t j = 0; j < k_[2]; ++j) {
              const int64_t ix = ox * stride_[2] + j * rate_[2] - g.w.pad_before;
              char* dst = zp + (i * k_[2] + j) * row_bytes;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
                std::fill_n(dst, row_bytes, 0);
              } else {
                std::copy_n(x + ((n * g.in_h + iy) * g.in_w + ix) * row_bytes, row_bytes, dst);
              }
            }
          }
        }
      }
    });
    return absl::OkStatus();
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    RILL_RETURN_IF_ERROR(
        FourValues(ctx, "ksizes", &k_, "Sliding window ksizes field must specify 4 dimensions"));
    if (k_[0] != 1 || k_[3] != 1) {
      return absl::UnimplementedError("Only support ksizes across space.");
    }
    RILL_RETURN_IF_ERROR(FourValues(ctx, "strides", &stride_,
                                    "Sliding window strides field must specify 4 dimensions"));
    if (stride_[0] != 1 || stride_[3] != 1) {
      return absl::UnimplementedError("Only support strides across space.");
    }
    RILL_RETURN_IF_ERROR(
        FourValues(ctx, "rates", &rate_, "Sliding window rates field must specify 4 dimensions"));
    if (rate_[0] != 1 || rate_[3] != 1) {
      return absl::UnimplementedError("Only support rates across space.");
    }
    for (const auto& [values, name] :
         {std::pair{&k_, "ksizes"}, std::pair{&stride_, "strides"}, std::pair{&rate_, "rates"}}) {
      for (int64_t v : *values) {
        if (v <= 0) return absl::OutOfRangeError(absl::StrCat(name, " is out of range."));
      }
    }
    std::string padding;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    return absl::OkStatus();
  }

  std::vector<int64_t> k_, stride_, rate_;
  Padding padding_ = Padding::kValid;
};

// --- MaxPoolWithArgmax --------------------------------------------------------------------------
#define RILL_WINDOW_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class MaxPoolWithArgmaxOp final : public OpKernel {
 public:
  explicit MaxPoolWithArgmaxOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Init(ctx));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape s = in.shape();
    if (s.rank() != 4) return absl::InvalidArgumentError("tensor_in must be 4-dimensional");
    RILL_ASSIGN_OR_RETURN(Geometry2D g,
                          Geometry(s, k_[1], k_[2], stride_[1], stride_[2], 1, 1, padding_));
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.h.out, g.w.out, g.depth}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * argmax, ctx.allocate_output(1, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_WINDOW_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = in.flat<T>().data();
      T* z = out->flat<T>().data();
      const bool am32 = argmax->dtype() == DT_INT32;
      int64_t* am64 = am32 ? nullptr : argmax->flat<int64_t>().data();
      int32_t* am32p = am32 ? argmax->flat<int32_t>().data() : nullptr;
      auto set_argmax = [&](int64_t i, int64_t v) {
        if (am32) {
          am32p[i] = static_cast<int32_t>(v);
        } else {
          am64[i] = v;
        }
      };
      const int64_t image = g.in_h * g.in_w * g.depth;
      ctx.ParallelFor(
          g.batch * g.h.out, g.w.out * g.depth * k_[1] * k_[2], [&](int64_t begin, int64_t end) {
            for (int64_t row = begin; row < end; ++row) {
              const int64_t n = row / g.h.out, oy = row % g.h.out;
              const int64_t y0 = oy * stride_[1] - g.h.pad_before;
              const int64_t y_lo = std::max<int64_t>(y0, 0);
              const int64_t y_hi = std::min(y0 + k_[1], g.in_h);
              for (int64_t ox = 0; ox < g.w.out; ++ox) {
                const int64_t x0 = ox * stride_[2] - g.w.pad_before;
                const int64_t x_lo = std::max<int64_t>(x0, 0);
                const int64_t x_hi = std::min(x0 + k_[2], g.in_w);
                const int64_t o = (row * g.w.out + ox) * g.depth;
                for (int64_t d = 0; d < g.depth; ++d) {
                  int64_t best = -1;
                  for (int64_t yy = y_lo; yy < y_hi; ++yy) {
                    for (int64_t xx = x_lo; xx < x_hi; ++xx) {
                      const int64_t idx = (yy * g.in_w + xx) * g.depth + d;
                      if (best < 0 || Load(x[best + n * image]) < Load(x[idx + n * image])) {
                        best = idx;
                      }
                    }
                  }
                  if (best < 0) {  // no input in the window
                    z[o + d] = T();
                    set_argmax(o + d, -1);
                    continue;
                  }
                  z[o + d] = x[best + n * image];
                  set_argmax(o + d, include_batch_ ? best + n * image : best);
                }
              }
            }
          });
      return absl::OkStatus();
    });
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    RILL_RETURN_IF_ERROR(
        FourValues(ctx, "ksize", &k_, "Sliding window ksize field must specify 4 dimensions"));
    RILL_RETURN_IF_ERROR(FourValues(ctx, "strides", &stride_,
                                    "Sliding window stride field must specify 4 dimensions"));
    if (k_[0] != 1 || stride_[0] != 1) {
      return absl::UnimplementedError("Pooling is not yet supported on the batch dimension.");
    }
    for (int64_t v : k_) {
      if (v <= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("ksize must be a positive int32 value, got:", v));
      }
    }
    if (k_[3] != 1 || stride_[3] != 1) {
      return absl::UnimplementedError(
          "MaxPooling supports exactly one of pooling across depth or pooling across "
          "width/height.");
    }
    std::string padding;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    return ctx.GetAttr("include_batch_in_index", &include_batch_);
  }

  std::vector<int64_t> k_, stride_;
  Padding padding_ = Padding::kValid;
  bool include_batch_ = false;
};

// --- Dilation2D ---------------------------------------------------------------------------------
class Dilation2DOp final : public OpKernel {
 public:
  explicit Dilation2DOp(OpKernelConstruction& ctx) : OpKernel(ctx) { ctx.SetStatus(Init(ctx)); }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    const TensorShape s = in.shape(), fs = filter.shape();
    if (s.rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", s.DebugString()));
    }
    if (fs.rank() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter must be 3-dimensional: ", fs.DebugString()));
    }
    if (s.dim(3) != fs.dim(2)) {
      return absl::InvalidArgumentError(
          absl::StrCat("input and filter must have the same depth: ", s.dim(3), " vs ", fs.dim(2)));
    }
    const int64_t k_h = fs.dim(0), k_w = fs.dim(1);
    RILL_ASSIGN_OR_RETURN(
        Geometry2D g, Geometry(s, k_h, k_w, stride_[1], stride_[2], rate_[1], rate_[2], padding_));
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.h.out, g.w.out, g.depth}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_WINDOW_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      using C = decltype(Load(T()));
      const T* x = in.flat<T>().data();
      const T* f = filter.flat<T>().data();
      T* z = out->flat<T>().data();
      // T's lowest (half: -65504, not float's).
      const C lowest = std::is_same_v<T, half> ? static_cast<C>(-65504.0f)
                                               : static_cast<C>(std::numeric_limits<C>::lowest());
      ctx.ParallelFor(g.batch * g.h.out, g.w.out * g.depth * k_h * k_w,
                      [&](int64_t begin, int64_t end) {
                        // Each channel's maximum over the taps in (i, j) order, the channels of a
                        // tap in one vector loop.
                        std::vector<C> best(static_cast<size_t>(g.depth));
                        for (int64_t row = begin; row < end; ++row) {
                          const int64_t n = row / g.h.out, oy = row % g.h.out;
                          for (int64_t ox = 0; ox < g.w.out; ++ox) {
                            std::fill(best.begin(), best.end(), lowest);
                            C* b = best.data();
                            for (int64_t i = 0; i < k_h; ++i) {
                              const int64_t iy = oy * stride_[1] + i * rate_[1] - g.h.pad_before;
                              if (iy < 0 || iy >= g.in_h) continue;
                              for (int64_t j = 0; j < k_w; ++j) {
                                const int64_t ix = ox * stride_[2] + j * rate_[2] - g.w.pad_before;
                                if (ix < 0 || ix >= g.in_w) continue;
                                const T* xp = x + ((n * g.in_h + iy) * g.in_w + ix) * g.depth;
                                const T* fp = f + (i * k_w + j) * g.depth;
                                for (int64_t d = 0; d < g.depth; ++d) {
                                  const C v = static_cast<C>(Load(xp[d]) + Load(fp[d]));
                                  b[d] = v > b[d] ? v : b[d];
                                }
                              }
                            }
                            T* zp = z + (row * g.w.out + ox) * g.depth;
                            for (int64_t d = 0; d < g.depth; ++d)
                              zp[d] = cwise_internal::Store<T>(b[d]);
                          }
                        }
                      });
      return absl::OkStatus();
    });
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &stride_));
    if (stride_.size() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dilation2D requires the stride attribute to contain 4 values, but got: ",
                       stride_.size()));
    }
    RILL_RETURN_IF_ERROR(CheckBounded(stride_, "strides"));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("rates", &rate_));
    RILL_RETURN_IF_ERROR(CheckBounded(rate_, "rates"));
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
    std::string padding;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    return absl::OkStatus();
  }

  std::vector<int64_t> stride_, rate_;
  Padding padding_ = Padding::kValid;
};

REGISTER_KERNEL(KernelDefBuilder("ExtractImagePatches")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_WINDOW_TYPES>()),
                ExtractImagePatchesOp);
REGISTER_KERNEL(KernelDefBuilder("MaxPoolWithArgmax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_WINDOW_TYPES>())
                    .TypeConstraint("Targmax", {DT_INT32, DT_INT64}),
                MaxPoolWithArgmaxOp);
REGISTER_KERNEL(KernelDefBuilder("Dilation2D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_WINDOW_TYPES>()),
                Dilation2DOp);

}  // namespace
}  // namespace rill
