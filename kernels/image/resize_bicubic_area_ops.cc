// ResizeBicubic and ResizeArea on the CPU: NHWC images [batch, h, w, c] resized to
// [batch, size[0], size[1], c], output float. The scale along a dim is in / out, or
// (in - 1) / (out - 1) with align_corners (and out > 1), in float (as ResizeBilinear).
//
// Bicubic: output index i samples input coordinate x = i * scale (legacy, align_corners) or
// (i + 0.5) * scale - 0.5 (half_pixel_centers), from the 4 pixels floor(x) - 1 .. floor(x) + 2
// (clamped into the image) with Keys' cubic convolution weights, read from a 1025-entry table at
// round((x - floor(x)) * 1024). The kernel parameter is a = -0.75 (legacy) or -0.5
// (half_pixel_centers); with half_pixel_centers, taps outside the image get weight 0 and the others
// are renormalized to sum to 1. Columns are interpolated along y first, then along x.
//
// Area: output pixel (y, x) is the average of the input over the box [y * sh, (y + 1) * sh) x
// [x * sw, (x + 1) * sw), each input pixel weighted by its overlap with the box (pixels past the
// last row / column read the last one), times 1 / (sh * sw).
//
// Errors are InvalidArgument with TensorFlow's texts: "If half_pixel_centers is True,
// align_corners must be False.", "input must be 4-dimensional[2,2]", "image must have at least one
// channel", "input image must be of non-zero size", "shape_t must be 1-D[]", "shape_t must have
// two elements[3]", "output dimensions must be positive".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/resize_geometry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_RESIZE_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class ResizeOpBase : public OpKernel {
 public:
  explicit ResizeOpBase(OpKernelConstruction& ctx, bool has_half_pixel) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("align_corners", &align_corners_));
    if (has_half_pixel) ctx.SetStatus(ctx.GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

 protected:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// --- bicubic ------------------------------------------------------------------------------------
constexpr int kTableSize = 1024;

// Keys' cubic convolution weights for offsets t = i / 1024 (entry 2i: |d| = t, 2i + 1: |d| = 1 +
// t).
std::vector<float> CubicTable(double a) {
  std::vector<float> tab((kTableSize + 1) * 2);
  for (int i = 0; i <= kTableSize; ++i) {
    float x = static_cast<float>(i * 1.0 / kTableSize);
    tab[i * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
    x += 1.0f;
    tab[i * 2 + 1] = static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
  }
  return tab;
}

const std::vector<float>& LegacyTable() {
  static const std::vector<float>* t = new std::vector<float>(CubicTable(-0.75));
  return *t;
}
const std::vector<float>& KeysTable() {
  static const std::vector<float>* t = new std::vector<float>(CubicTable(-0.5));
  return *t;
}

struct Taps {
  std::array<int64_t, 4> index;
  std::array<float, 4> weight;
};

std::vector<Taps> CubicTaps(int64_t out, int64_t in, float scale, bool half_pixel_centers) {
  const std::vector<float>& tab = half_pixel_centers ? KeysTable() : LegacyTable();
  std::vector<Taps> taps(out);
  auto bound = [in](int64_t v) { return std::min(in - 1, std::max<int64_t>(0, v)); };
  for (int64_t i = 0; i < out; ++i) {
    const float x = half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                                       : static_cast<float>(i) * scale;
    const int64_t loc = static_cast<int64_t>(std::floor(x));
    const float delta = x - static_cast<float>(loc);
    const int64_t off = std::lrint(delta * kTableSize);
    Taps& t = taps[i];
    t.weight = {tab[off * 2 + 1], tab[off * 2], tab[(kTableSize - off) * 2],
                tab[(kTableSize - off) * 2 + 1]};
    for (int k = 0; k < 4; ++k) {
      t.index[k] = bound(loc - 1 + k);
      if (half_pixel_centers && t.index[k] != loc - 1 + k) t.weight[k] = 0.0f;
    }
    if (half_pixel_centers) {
      const float sum = t.weight[0] + t.weight[1] + t.weight[2] + t.weight[3];
      if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
        const float inv = 1.0f / sum;
        for (float& w : t.weight) w *= inv;
      }
    }
  }
  return taps;
}

// Four float lanes (GCC / Clang vector extension; SSE on baseline x86-64): a 3-channel pixel in
// lanes 0-2, lane-wise arithmetic in the scalar loops' order.
typedef float Float4 __attribute__((vector_size(16)));

inline Float4 LoadFloat4(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
// A 3-channel pixel's values as float in lanes 0-2 (lane 3 zero); reads p[0..2] only.
template <typename T>
inline Float4 LoadPixel3(const T* p) {
  using cwise_internal::Load;
  return Float4{static_cast<float>(Load(p[0])), static_cast<float>(Load(p[1])),
                static_cast<float>(Load(p[2])), 0.0f};
}
// A 4-channel pixel's values as float.
template <typename T>
inline Float4 LoadPixel4(const T* p) {
  using cwise_internal::Load;
  return Float4{static_cast<float>(Load(p[0])), static_cast<float>(Load(p[1])),
                static_cast<float>(Load(p[2])), static_cast<float>(Load(p[3]))};
}
inline void StoreFloat4(const Float4& v, float* p) {
  p[0] = v[0];
  p[1] = v[1];
  p[2] = v[2];
  p[3] = v[3];
}
// Lanes 0-2 of v into p[0..2], stored as floats (a memcpy would be a char store, which the
// compiler must assume may change anything, reloading every pointer after it).
inline void StoreFloat3(const Float4& v, float* p) {
  p[0] = v[0];
  p[1] = v[1];
  p[2] = v[2];
}

// col[o] = r0[o] * w0 + r1[o] * w1 + r2[o] * w2 + r3[o] * w3 for o < count, as float.
template <typename T>
inline void InterpolateY(const T* __restrict r0, const T* __restrict r1, const T* __restrict r2,
                         const T* __restrict r3, float w0, float w1, float w2, float w3,
                         int64_t count, float* __restrict col) {
  using cwise_internal::Load;
  for (int64_t o = 0; o < count; ++o) {
    col[o] = static_cast<float>(Load(r0[o])) * w0 + static_cast<float>(Load(r1[o])) * w1 +
             static_cast<float>(Load(r2[o])) * w2 + static_cast<float>(Load(r3[o])) * w3;
  }
}

class ResizeBicubicOp final : public ResizeOpBase {
 public:
  explicit ResizeBicubicOp(OpKernelConstruction& ctx) : ResizeOpBase(ctx, true) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResizeGeometry g,
                          ResizeGeometryOf(ctx, align_corners_, half_pixel_centers_));
    const Tensor& images = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<Taps> ys = CubicTaps(g.out_h, g.in_h, g.scale_h, half_pixel_centers_);
    const std::vector<Taps> xs = CubicTaps(g.out_w, g.in_w, g.scale_w, half_pixel_centers_);
    return VisitKernelTypes<RILL_RESIZE_TYPES>(*this, images.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = images.flat<T>().data();
      float* z = out->flat<float>().data();
      const int64_t cc = g.channels;
      // The input columns the output reads, as runs of consecutive columns: each output row
      // first interpolates them along y (every tap of the row's columns then reads these sums),
      // then along x.
      std::vector<char> used(static_cast<size_t>(g.in_w), 0);
      for (const Taps& t : xs) {
        for (int64_t i : t.index) used[i] = 1;
      }
      std::vector<std::pair<int64_t, int64_t>> runs;  // element offsets [begin, end) in a row
      for (int64_t i = 0; i < g.in_w; ++i) {
        if (!used[i]) continue;
        if (!runs.empty() && runs.back().second == i * cc) {
          runs.back().second = (i + 1) * cc;
        } else {
          runs.emplace_back(i * cc, (i + 1) * cc);
        }
      }
      if (cc == 3) {
        BicubicRows<T, 3>(ctx, g, ys, xs, runs, x, z);
      } else {
        BicubicRows<T, 0>(ctx, g, ys, xs, runs, x, z);
      }
      return absl::OkStatus();
    });
  }

 private:
  // The output rows, spread over the intra-op threads, each at the CPU's vector width (RunSimd);
  // kC: the channel count when fixed at compile time (3: RGB images, whose pixels are combined as
  // one 4-lane vector), 0 for any. Each sum adds the four taps' products in tap order.
  template <typename T, int kC>
  static void BicubicRows(OpKernelContext& ctx, const ResizeGeometry& g,
                          const std::vector<Taps>& ys, const std::vector<Taps>& xs,
                          const std::vector<std::pair<int64_t, int64_t>>& runs, const T* x,
                          float* z) {
    const int64_t cc = kC > 0 ? kC : g.channels;
    ctx.ParallelFor(g.batch * g.out_h, g.out_w * cc * 32, [&](int64_t begin, int64_t end) {
      // One spare float: a 3-channel pixel is read as 4 lanes.
      std::vector<float> col(static_cast<size_t>(g.in_w * cc + 1), 0.0f);
      cwise_internal::RunSimdFor<T>([&] {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t n = row / g.out_h, oy = row % g.out_h;
          const Taps& ty = ys[oy];
          const T* r[4];
          for (int k = 0; k < 4; ++k) r[k] = x + (n * g.in_h + ty.index[k]) * g.in_w * cc;
          for (const auto& [b, e] : runs) {
            InterpolateY(r[0] + b, r[1] + b, r[2] + b, r[3] + b, ty.weight[0], ty.weight[1],
                         ty.weight[2], ty.weight[3], e - b, col.data() + b);
          }
          float* zr = z + row * g.out_w * cc;
          if constexpr (kC == 3) {
            for (int64_t ox = 0; ox < g.out_w; ++ox) {
              const Taps& tx = xs[ox];
              const Float4 v = LoadFloat4(col.data() + tx.index[0] * 3) * tx.weight[0] +
                               LoadFloat4(col.data() + tx.index[1] * 3) * tx.weight[1] +
                               LoadFloat4(col.data() + tx.index[2] * 3) * tx.weight[2] +
                               LoadFloat4(col.data() + tx.index[3] * 3) * tx.weight[3];
              StoreFloat3(v, zr + ox * 3);
            }
          } else {
            for (int64_t ox = 0; ox < g.out_w; ++ox) {
              const Taps& tx = xs[ox];
              const float* c0 = col.data() + tx.index[0] * cc;
              const float* c1 = col.data() + tx.index[1] * cc;
              const float* c2 = col.data() + tx.index[2] * cc;
              const float* c3 = col.data() + tx.index[3] * cc;
              for (int64_t c = 0; c < cc; ++c) {
                zr[ox * cc + c] = c0[c] * tx.weight[0] + c1[c] * tx.weight[1] +
                                  c2[c] * tx.weight[2] + c3[c] * tx.weight[3];
              }
            }
          }
        }
      });
    });
  }
};

// --- area ---------------------------------------------------------------------------------------

// Weight of input cell v in the output cell [lo, hi) (scale = hi - lo).
float CellWeight(int64_t v, float lo, float hi, float scale) {
  const float fv = static_cast<float>(v);
  if (fv < lo) return fv + 1 > hi ? scale : fv + 1 - lo;
  return fv + 1 > hi ? hi - fv : 1.0f;
}

struct Span {
  int64_t start, end;          // input cells [start, end)
  std::vector<float> weights;  // one per cell
};

std::vector<Span> AreaSpans(int64_t out, float scale) {
  std::vector<Span> spans(out);
  for (int64_t i = 0; i < out; ++i) {
    const float lo = static_cast<float>(i) * scale;
    const float hi = static_cast<float>(i + 1) * scale;
    Span& s = spans[i];
    s.start = static_cast<int64_t>(std::floor(lo));
    s.end = static_cast<int64_t>(std::ceil(hi));
    for (int64_t v = s.start; v < s.end; ++v) s.weights.push_back(CellWeight(v, lo, hi, scale));
  }
  return spans;
}

class ResizeAreaOp final : public ResizeOpBase {
 public:
  explicit ResizeAreaOp(OpKernelConstruction& ctx) : ResizeOpBase(ctx, false) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResizeGeometry g, ResizeGeometryOf(ctx, align_corners_, false));
    const Tensor& images = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.channels}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<Span> ys = AreaSpans(g.out_h, g.scale_h);
    const std::vector<Span> xs = AreaSpans(g.out_w, g.scale_w);
    const float norm = static_cast<float>(1.0 / (g.scale_h * g.scale_w));
    return VisitKernelTypes<RILL_RESIZE_TYPES>(*this, images.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = images.flat<T>().data();
      float* z = out->flat<float>().data();
      switch (g.channels) {
        case 1:
          AreaRows<T, 1>(ctx, g, ys, xs, norm, x, z);
          break;
        case 3:
          AreaRows<T, 3>(ctx, g, ys, xs, norm, x, z);
          break;
        case 4:
          AreaRows<T, 4>(ctx, g, ys, xs, norm, x, z);
          break;
        default:
          AreaRows<T, 0>(ctx, g, ys, xs, norm, x, z);
      }
      return absl::OkStatus();
    });
  }

 private:
  // The output rows, spread over the intra-op threads, each at the CPU's vector width (RunSimd),
  // summed input row by input row across the output row (each pixel's sums are added in the same
  // order, and neighbouring pixels' independent sums overlap in the pipeline). kC: the channel
  // count when fixed at compile time (1; 3: RGB pixels as one 4-lane vector; 4: RGBA pixels as
  // one), 0 for any (the channels of a cell in one loop). Per channel, sum_y adds the cells of an
  // input row in x order and the row's sums add sum_y * wy in y order, as the definition above
  // reads.
  template <typename T, int kC>
  static void AreaRows(OpKernelContext& ctx, const ResizeGeometry& g, const std::vector<Span>& ys,
                       const std::vector<Span>& xs, float norm, const T* x, float* z) {
    using cwise_internal::Load;
    const int64_t cc = kC > 0 ? kC : g.channels;
    // The spans' cells, flat: output column ox reads cells [first[ox], first[ox + 1]), each an
    // element offset into an input row (the last column past the edge) and its weight.
    std::vector<int64_t> first(xs.size() + 1, 0), offsets;
    std::vector<float> weights;
    for (size_t i = 0; i < xs.size(); ++i) {
      for (int64_t ix = xs[i].start; ix < xs[i].end; ++ix) {
        offsets.push_back(std::min(ix, g.in_w - 1) * cc);
        weights.push_back(xs[i].weights[ix - xs[i].start]);
      }
      first[i + 1] = static_cast<int64_t>(offsets.size());
    }
    ctx.ParallelFor(g.batch * g.out_h, g.out_w * cc * 16, [&](int64_t begin, int64_t end) {
      // The row's sums, one pixel per cc floats (one spare float for 3-channel 4-lane loads), and
      // (kC == 0) one pixel's sum_y.
      std::vector<float> acc(static_cast<size_t>(g.out_w * cc + 1));
      std::vector<float> pixel(kC == 0 ? static_cast<size_t>(cc) : 0);
      cwise_internal::RunSimdFor<T>([&] {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t n = row / g.out_h, oy = row % g.out_h;
          const Span& sy = ys[oy];
          float* zr = z + row * g.out_w * cc;
          float* __restrict a = acc.data();
          const int64_t* __restrict cell_first = first.data();
          const int64_t* __restrict cell_offset = offsets.data();
          const float* __restrict cell_weight = weights.data();
          const int64_t out_w = g.out_w;
          std::fill(acc.begin(), acc.end(), 0.0f);
          for (int64_t iy = sy.start; iy < sy.end; ++iy) {
            const int64_t in_row = n * g.in_h + std::min(iy, g.in_h - 1);
            const T* r = x + in_row * g.in_w * cc;
            const float wy = sy.weights[iy - sy.start];
            if constexpr (kC == 1) {
              for (int64_t ox = 0; ox < out_w; ++ox) {
                float sum_y = 0.0f;
                for (int64_t k = cell_first[ox]; k < cell_first[ox + 1]; ++k) {
                  sum_y += static_cast<float>(Load(r[cell_offset[k]])) * cell_weight[k];
                }
                a[ox] += sum_y * wy;
              }
            } else if constexpr (kC == 3 || kC == 4) {
              // 3 channels: float pixels are read as 4 lanes (lane 3, the next pixel's first
              // channel, only reaches the discarded lane 3 of the sums), except in the tensor's
              // last row, where the last pixel has no next one.
              auto sum_row = [&](auto load) {
                for (int64_t ox = 0; ox < out_w; ++ox) {
                  Float4 sum_y = {0.0f, 0.0f, 0.0f, 0.0f};
                  for (int64_t k = cell_first[ox]; k < cell_first[ox + 1]; ++k) {
                    sum_y += load(r + cell_offset[k]) * cell_weight[k];
                  }
                  const Float4 sum = LoadFloat4(a + ox * kC) + sum_y * wy;
                  if constexpr (kC == 3) {
                    StoreFloat3(sum, a + ox * 3);
                  } else {
                    StoreFloat4(sum, a + ox * 4);
                  }
                }
              };
              if constexpr (std::is_same_v<T, float>) {
                if (kC == 4 || in_row + 1 < g.batch * g.in_h) {
                  sum_row([](const float* p) { return LoadFloat4(p); });
                  continue;
                }
              }
              if constexpr (kC == 3) {
                sum_row([](const T* p) { return LoadPixel3(p); });
              } else {
                sum_row([](const T* p) { return LoadPixel4(p); });
              }
            } else {
              float* __restrict sum_y = pixel.data();
              for (int64_t ox = 0; ox < out_w; ++ox) {
                std::fill_n(sum_y, cc, 0.0f);
                for (int64_t k = cell_first[ox]; k < cell_first[ox + 1]; ++k) {
                  const T* p = r + cell_offset[k];
                  const float w = cell_weight[k];
                  for (int64_t c = 0; c < cc; ++c) sum_y[c] += static_cast<float>(Load(p[c])) * w;
                }
                float* __restrict ap = a + ox * cc;
                for (int64_t c = 0; c < cc; ++c) ap[c] += sum_y[c] * wy;
              }
            }
          }
          for (int64_t i = 0; i < out_w * cc; ++i) zr[i] = a[i] * norm;
        }
      });
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("ResizeBicubic")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_RESIZE_TYPES>())
                    .HostMemory("size"),
                ResizeBicubicOp);
REGISTER_KERNEL(KernelDefBuilder("ResizeArea")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_RESIZE_TYPES>())
                    .HostMemory("size"),
                ResizeAreaOp);

}  // namespace
}  // namespace rill
