// ImageProjectiveTransformV3 and V2 on the CPU (tf.raw_ops.ImageProjectiveTransformV3: Keras's
// RandomRotation / RandomZoom / RandomTranslation when they run, keras.ops.image.affine_transform;
// V2, which has no fill_value input and fills with 0: TensorFlow 2.3's Keras preprocessing,
// tfa.image.transform / rotate). Output
// pixel (x, y) of image b reads the input at ((a0 x + a1 y + a2) / k, (a3 x + a4 y + a5) / k),
// k = c0 x + c1 y + 1, with transforms[b] (or transforms[0] for all) = [a0, a1, a2, a3, a4, a5,
// c0, c1]. Coordinates outside the image are mapped by fill_mode as TensorFlow's kernel maps them
// (REFLECT: dcba|abcd|dcba, WRAP: abcd|abcd|abcd, NEAREST: clamped; CONSTANT: left outside);
// k == 0 gives fill_value. NEAREST interpolation rounds half away from zero; BILINEAR weighs the
// four neighbours in float; a neighbour outside the image reads fill_value (so CONSTANT blends
// the border with it); the result converts to the image dtype as static_cast does.
//
// Errors are InvalidArgument with TensorFlow's texts: "Input images must have rank 4", "Input
// transform should be num_images x 8 or 1 x 8", "output shape must be 1-dimensional[1,2]",
// "output shape must have two elements[3]", "output dimensions must be positive", "fill_value
// must be a scalar[2]" (V3 only). An interpolation or fill_mode TensorFlow does not know, which its
// kernel only logs, is an error here.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

enum class Fill { kReflect, kWrap, kConstant, kNearest };

float Clamp(float v, int64_t len) {
  const float hi = static_cast<float>(len - 1);
  return v < 0.0f ? 0.0f : (v > hi ? hi : v);
}

// scipy's ndimage boundary modes, as TensorFlow's MapCoordinate computes them in float.
float MapCoordinate(Fill mode, float c, int64_t len) {
  switch (mode) {
    case Fill::kConstant:
      return c;
    case Fill::kNearest:
      return Clamp(c, len);
    case Fill::kReflect:
      if (c < 0) {
        if (len <= 1) {
          c = 0;
        } else {
          const int64_t sz2 = 2 * len;
          if (c < sz2) c = sz2 * static_cast<int64_t>(-c / sz2) + c;
          c = c < -len ? c + sz2 : -c - 1;
        }
      } else if (c > len - 1) {
        if (len <= 1) {
          c = 0;
        } else {
          const int64_t sz2 = 2 * len;
          c -= sz2 * static_cast<int64_t>(c / sz2);
          if (c >= len) c = sz2 - c - 1;
        }
      }
      return Clamp(c, len);
    case Fill::kWrap:
      if (c < 0) {
        if (len <= 1) {
          c = 0;
        } else {
          const int64_t sz = len - 1;
          c += len * (static_cast<int64_t>(-c / sz) + 1);
        }
      } else if (c > len - 1) {
        if (len <= 1) {
          c = 0;
        } else {
          const int64_t sz = len - 1;
          c -= len * static_cast<int64_t>(c / sz);
        }
      }
      return Clamp(c, len);
  }
  return c;
}

class ImageProjectiveTransformOp final : public OpKernel {
 public:
  explicit ImageProjectiveTransformOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string interpolation, fill_mode;
    ctx.SetStatus(ctx.GetAttr("interpolation", &interpolation));
    ctx.SetStatus(ctx.GetAttr("fill_mode", &fill_mode));
    if (interpolation == "BILINEAR") {
      bilinear_ = true;
    } else if (interpolation != "NEAREST") {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat(
          "Invalid interpolation ", interpolation, ". Supported types: NEAREST, BILINEAR")));
    }
    if (fill_mode == "REFLECT") {
      fill_ = Fill::kReflect;
    } else if (fill_mode == "WRAP") {
      fill_ = Fill::kWrap;
    } else if (fill_mode == "CONSTANT") {
      fill_ = Fill::kConstant;
    } else if (fill_mode == "NEAREST") {
      fill_ = Fill::kNearest;
    } else {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat(
          "Invalid mode ", fill_mode, ". Supported types: REFLECT, WRAP, CONSTANT, NEAREST")));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& images = ctx.input(0);
    const Tensor& transforms = ctx.input(1);
    const Tensor& shape_t = ctx.input(2);
    if (images.shape().rank() != 4) {
      return absl::InvalidArgumentError("Input images must have rank 4");
    }
    const int64_t batch = images.shape().dim(0);
    const TensorShape& ts = transforms.shape();
    if (ts.rank() != 2 || ts.dim(1) != 8 || (ts.dim(0) != 1 && ts.dim(0) != batch)) {
      return absl::InvalidArgumentError("Input transform should be num_images x 8 or 1 x 8");
    }
    if (shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("output shape must be 1-dimensional", shape_t.shape().DebugString()));
    }
    if (shape_t.NumElements() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("output shape must have two elements", shape_t.shape().DebugString()));
    }
    const int32_t out_h = shape_t.flat<int32_t>()[0];
    const int32_t out_w = shape_t.flat<int32_t>()[1];
    if (out_h <= 0 || out_w <= 0) {
      return absl::InvalidArgumentError("output dimensions must be positive");
    }
    float fill_value = 0.0f;  // V2
    if (ctx.num_inputs() == 4) {
      const Tensor& fill_t = ctx.input(3);
      if (fill_t.shape().rank() != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("fill_value must be a scalar", fill_t.shape().DebugString()));
      }
      fill_value = fill_t.flat<float>()[0];
    }
    const int64_t in_h = images.shape().dim(1);
    const int64_t in_w = images.shape().dim(2);
    const int64_t channels = images.shape().dim(3);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({batch, out_h, out_w, channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const float* tr = transforms.flat<float>().data();
    return VisitKernelTypes<uint8_t, int32_t, int64_t, half, float, double>(
        *this, images.dtype(), [&](auto tag) -> absl::Status {
          using T = typename decltype(tag)::type;
          const T* in = images.flat<T>().data();
          T* z = out->flat<T>().data();
          const T fill = static_cast<T>(fill_value);
          auto read = [&](int64_t b, int64_t y, int64_t x, int64_t c) {
            return (0 <= y && y < in_h && 0 <= x && x < in_w)
                       ? in[((b * in_h + y) * in_w + x) * channels + c]
                       : fill;
          };
          const int64_t rows = batch * out_h;
          ctx.ParallelFor(rows, out_w * channels * 20, [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
              const int64_t b = r / out_h;
              const int64_t oy = r % out_h;
              const float* t = ts.dim(0) == 1 ? tr : tr + 8 * b;
              T* row = z + r * out_w * channels;
              for (int64_t ox = 0; ox < out_w; ++ox) {
                T* px = row + ox * channels;
                const float fx = static_cast<float>(ox);
                const float fy = static_cast<float>(oy);
                const float k = t[6] * fx + t[7] * fy + 1.f;
                if (k == 0) {
                  for (int64_t c = 0; c < channels; ++c) px[c] = fill;
                  continue;
                }
                const float ix = (t[0] * fx + t[1] * fy + t[2]) / k;
                const float iy = (t[3] * fx + t[4] * fy + t[5]) / k;
                const float x = MapCoordinate(fill_, ix, in_w);
                const float y = MapCoordinate(fill_, iy, in_h);
                // CONSTANT keeps coordinates outside the image: their neighbours read
                // fill_value. Beyond any int64 (or NaN) every neighbour is outside: NEAREST
                // gives fill_value. BILINEAR weighs the neighbours by x1 - x and x - x0 (and
                // y's), as TensorFlow does: for a huge finite coordinate x0 + 1 rounds to x0,
                // both weights are 0 and the value is 0 * fill_value (0 with fill_value's sign,
                // NaN for a non-finite fill of a floating-point image); for a NaN or infinite
                // one they are NaN, and a floating-point image gets NaN (an integer image keeps
                // fill_value, where TensorFlow converts NaN to the integer type).
                if (!(std::abs(x) < 1e15f) || !(std::abs(y) < 1e15f)) {
                  T value = fill;
                  if (bilinear_) {
                    const bool finite = std::isfinite(x) && std::isfinite(y);
                    if constexpr (std::is_integral_v<T>) {
                      if (finite) value = T(0);
                    } else {
                      const float f = static_cast<float>(fill);
                      value = static_cast<T>(finite && std::isfinite(f)
                                                 ? std::copysign(0.f, f)
                                                 : std::numeric_limits<float>::quiet_NaN());
                    }
                  }
                  for (int64_t c = 0; c < channels; ++c) px[c] = value;
                  continue;
                }
                if (!bilinear_) {
                  const int64_t ny = static_cast<int64_t>(std::round(y));
                  const int64_t nx = static_cast<int64_t>(std::round(x));
                  for (int64_t c = 0; c < channels; ++c) px[c] = read(b, ny, nx, c);
                  continue;
                }
                const float y0 = std::floor(y), x0 = std::floor(x);
                const float y1 = y0 + 1, x1 = x0 + 1;
                const int64_t iy0 = static_cast<int64_t>(y0), ix0 = static_cast<int64_t>(x0);
                const int64_t iy1 = static_cast<int64_t>(y1), ix1 = static_cast<int64_t>(x1);
                for (int64_t c = 0; c < channels; ++c) {
                  const float top = (x1 - x) * static_cast<float>(read(b, iy0, ix0, c)) +
                                    (x - x0) * static_cast<float>(read(b, iy0, ix1, c));
                  const float bottom = (x1 - x) * static_cast<float>(read(b, iy1, ix0, c)) +
                                       (x - x0) * static_cast<float>(read(b, iy1, ix1, c));
                  px[c] = static_cast<T>((y1 - y) * top + (y - y0) * bottom);
                }
              }
            }
          });
          return absl::OkStatus();
        });
  }

 private:
  bool bilinear_ = false;
  Fill fill_ = Fill::kConstant;
};

REGISTER_KERNEL(KernelDefBuilder("ImageProjectiveTransformV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype",
                                    DataTypesOf<uint8_t, int32_t, int64_t, half, float, double>()),
                ImageProjectiveTransformOp);
REGISTER_KERNEL(KernelDefBuilder("ImageProjectiveTransformV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype",
                                    DataTypesOf<uint8_t, int32_t, int64_t, half, float, double>()),
                ImageProjectiveTransformOp);

}  // namespace
}  // namespace rill
