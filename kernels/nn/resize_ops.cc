// ResizeBilinear and ResizeNearestNeighbor on the CPU: NHWC images [batch, h, w, c] resized to
// [batch, size[0], size[1], c] with TensorFlow's coordinate rules. The scale along a dim is
// in / out, or (in - 1) / (out - 1) with align_corners (and out > 1), in float. Output pixel i maps
// to the input coordinate
//   bilinear: i * scale (legacy and align_corners), (i + 0.5) * scale - 0.5 (half_pixel_centers);
//     out = lerp of the 4 neighbours (floor and ceil clamped into the image) in float, the output
//     is float whatever the input type; an unchanged size copies the input cast to float. Each
//     input row an output row reads is interpolated along x once (top = tl + (tr - tl) * x_lerp
//     per column and channel, kept while consecutive output rows read it), then each output row
//     is top + (bottom - top) * y_lerp, elementwise, at the CPU's vector width (RunSimd, whose
//     clones may fuse the multiply-adds: last-bit differences from TensorFlow);
//   nearest: floor(i * scale) (legacy), round(i * scale) (align_corners), floor((i + 0.5) *
//     scale) (half_pixel_centers), clamped into the image; the output has the input's type.
// Output rows run in parallel over the kernel's intra-op threads (OpKernelContext::ParallelFor).
// Errors are InvalidArgument with TensorFlow's texts: "If half_pixel_centers is True,
// align_corners must be False.", "input must be 4-dimensional[2,2]", "image must have at least one
// channel", "input image must be of non-zero size", "shape_t must be 1-D[]", "shape_t must have
// two elements[3]", "output dimensions must be positive".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/resize_geometry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_RESIZE_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

// Where output index i of a bilinear resize reads: neighbours lower/upper and the weight of upper.
struct Interpolation {
  int64_t lower, upper;
  float lerp;
};

std::vector<Interpolation> BilinearWeights(int64_t out, int64_t in, float scale,
                                           bool half_pixel_centers) {
  std::vector<Interpolation> w(out);
  for (int64_t i = 0; i < out; ++i) {
    const float x = half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                                       : static_cast<float>(i) * scale;
    const float x_floor = std::floor(x);
    w[i].upper = std::min(static_cast<int64_t>(std::ceil(x)), in - 1);
    w[i].lower = std::min(std::max(static_cast<int64_t>(x_floor), int64_t{0}), w[i].upper);
    w[i].lerp = x - x_floor;
  }
  return w;
}

int64_t NearestIndex(int64_t i, int64_t in, float scale, bool align_corners,
                     bool half_pixel_centers) {
  const float x =
      half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale : static_cast<float>(i) * scale;
  int64_t k = std::min(static_cast<int64_t>(align_corners ? std::round(x) : std::floor(x)), in - 1);
  if (half_pixel_centers) k = std::max<int64_t>(0, k);
  return k;
}

class ResizeOpBase : public OpKernel {
 public:
  explicit ResizeOpBase(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("align_corners", &align_corners_));
    ctx.SetStatus(ctx.GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

 protected:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

class ResizeBilinearOp final : public ResizeOpBase {
 public:
  explicit ResizeBilinearOp(OpKernelConstruction& ctx) : ResizeOpBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResizeGeometry g,
                          ResizeGeometryOf(ctx, align_corners_, half_pixel_centers_));
    const Tensor& images = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<Interpolation> ys =
        BilinearWeights(g.out_h, g.in_h, g.scale_h, half_pixel_centers_);
    const std::vector<Interpolation> xs =
        BilinearWeights(g.out_w, g.in_w, g.scale_w, half_pixel_centers_);
    const bool same_size = g.out_h == g.in_h && g.out_w == g.in_w;
    return VisitKernelTypes<RILL_RESIZE_TYPES>(*this, images.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = images.flat<T>().data();
      float* z = out->flat<float>().data();
      const int64_t c_count = g.channels;
      const int64_t row_len = g.out_w * c_count;
      if (same_size) {
        ctx.ParallelFor(g.batch * g.out_h, row_len, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin * row_len; i < end * row_len; ++i) {
            z[i] = static_cast<float>(Load(x[i]));
          }
        });
        return absl::OkStatus();
      }
      // Element offsets of each output column's two input columns in an input row.
      std::vector<int64_t> lower_offset(g.out_w), upper_offset(g.out_w);
      std::vector<float> x_lerp(g.out_w);
      for (int64_t ox = 0; ox < g.out_w; ++ox) {
        lower_offset[ox] = xs[ox].lower * c_count;
        upper_offset[ox] = xs[ox].upper * c_count;
        x_lerp[ox] = xs[ox].lerp;
      }
      // Input row `in_row` (over the whole batch) interpolated along x into out[row_len].
      auto lerp_x = [&](int64_t in_row, float* __restrict out) {
        const T* __restrict r = x + in_row * g.in_w * c_count;
        if (c_count == 1) {
          for (int64_t ox = 0; ox < g.out_w; ++ox) {
            const float l = static_cast<float>(Load(r[lower_offset[ox]]));
            const float u = static_cast<float>(Load(r[upper_offset[ox]]));
            out[ox] = l + (u - l) * x_lerp[ox];
          }
          return;
        }
        for (int64_t ox = 0; ox < g.out_w; ++ox) {
          const T* __restrict pl = r + lower_offset[ox];
          const T* __restrict pu = r + upper_offset[ox];
          const float w = x_lerp[ox];
          float* __restrict o = out + ox * c_count;
          for (int64_t c = 0; c < c_count; ++c) {
            const float l = static_cast<float>(Load(pl[c]));
            const float u = static_cast<float>(Load(pu[c]));
            o[c] = l + (u - l) * w;
          }
        }
      };
      // Charged at 3 cycles per 8-lane vector of an output row, what a row's y lerp and its share
      // of the x lerps measure with many channels (docs/performance.md, "resizes by channel
      // count"), so small outputs run on the calling thread, where waking a worker would cost
      // more than it saves.
      ctx.ParallelFor(g.batch * g.out_h, row_len * 3 / 8 + 1, [&](int64_t begin, int64_t end) {
        // The two input rows last interpolated along x (consecutive output rows mostly share
        // them): their rows over the whole batch, and their values.
        int64_t key[2] = {-1, -1};
        std::vector<float> rows[2] = {std::vector<float>(row_len), std::vector<float>(row_len)};
        // The x-interpolated input row `want`, computed unless held; never evicts `keep`.
        auto get = [&](int64_t want, int64_t keep) -> const float* {
          for (int s = 0; s < 2; ++s) {
            if (key[s] == want) return rows[s].data();
          }
          const int s = key[0] == keep ? 1 : 0;
          lerp_x(want, rows[s].data());
          key[s] = want;
          return rows[s].data();
        };
        cwise_internal::RunSimdFor<T>([&] {
          for (int64_t row = begin; row < end; ++row) {
            const int64_t n = row / g.out_h, oy = row % g.out_h;
            const Interpolation& y = ys[oy];
            const int64_t lower = n * g.in_h + y.lower, upper = n * g.in_h + y.upper;
            const float* __restrict top = get(lower, upper);
            const float* __restrict bottom = get(upper, lower);
            float* __restrict zr = z + row * row_len;
            const float w = y.lerp;
            for (int64_t i = 0; i < row_len; ++i) zr[i] = top[i] + (bottom[i] - top[i]) * w;
          }
        });
      });
      return absl::OkStatus();
    });
  }
};

class ResizeNearestNeighborOp final : public ResizeOpBase {
 public:
  explicit ResizeNearestNeighborOp(OpKernelConstruction& ctx) : ResizeOpBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResizeGeometry g,
                          ResizeGeometryOf(ctx, align_corners_, half_pixel_centers_));
    const Tensor& images = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    std::vector<int64_t> xs(g.out_w);
    for (int64_t i = 0; i < g.out_w; ++i) {
      xs[i] = NearestIndex(i, g.in_w, g.scale_w, align_corners_, half_pixel_centers_);
    }
    return VisitKernelTypes<RILL_RESIZE_TYPES>(*this, images.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = images.flat<T>().data();
      T* z = out->flat<T>().data();
      const int64_t c_count = g.channels;
      ctx.ParallelFor(g.batch * g.out_h, g.out_w * c_count, [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t n = row / g.out_h, oy = row % g.out_h;
          const int64_t iy =
              NearestIndex(oy, g.in_h, g.scale_h, align_corners_, half_pixel_centers_);
          const T* src = x + (n * g.in_h + iy) * g.in_w * c_count;
          T* dst = z + row * g.out_w * c_count;
          for (int64_t ox = 0; ox < g.out_w; ++ox) {
            std::copy_n(src + xs[ox] * c_count, c_count, dst + ox * c_count);
          }
        }
      });
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("ResizeBilinear")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_RESIZE_TYPES>())
                    .HostMemory("size"),
                ResizeBilinearOp);
REGISTER_KERNEL(KernelDefBuilder("ResizeNearestNeighbor")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_RESIZE_TYPES>())
                    .HostMemory("size"),
                ResizeNearestNeighborOp);

}  // namespace
}  // namespace rill
