// The 3-D (NDHWC) convolution and pooling kernels on the CPU: Conv3D, Conv3DBackpropInputV2 (the
// transposed 3-D convolution), MaxPool3D and AvgPool3D.
//
//   Conv3D: out[n,od,oh,ow,co] = sum over kd,kh,kw,ci of
//     in[n, od*sd - pd + kd, oh*sh - ph + kh, ow*sw - pw + kw, ci] * filter[kd,kh,kw,ci,co]
//     (zero outside the input): the patches of a block of output pixels are gathered into rows of
//     a [pixels, KD*KH*KW*Cin] matrix and multiplied by the filter viewed as [KD*KH*KW*Cin, Cout]
//     (Gemm, kernels/math_lib/gemm.h), blocks spread over the intra-op threads; float runs on
//     oneDNN's direct 3-D convolution instead (kernels/math_lib/onednn_conv.h), as TensorFlow's
//     oneDNN build does.
//   Conv3DBackpropInputV2: Conv3D's gradient for its input, of shape input_sizes: out_backprop
//     [pixels, Cout] times filter^T gives each pixel's patch gradient, scatter-added into the
//     input (half is computed in float and rounded once); float with finite weights runs on
//     oneDNN's 3-D deconvolution instead (kernels/math_lib/onednn_deconv.h).
//   MaxPool3D / AvgPool3D: the max / mean of each window over the elements inside the input
//     (SAME padding never counts in the mean; in the max it counts as the lowest finite value,
//     and NaN is kept or skipped as TensorFlow's Eigen pooling does: see Pool3DOp).
// Dilations other than 1 are refused, as TensorFlow's CPU kernels do.
//
// Errors (TensorFlow's texts): InvalidArgument "input must be 5-dimensional", "filter must be
// 5-dimensional", "Input depth must be evenly divisible by filter depth: 2 vs 3", "Number of
// channels in filter (2) must match last dimension of input (4)", "filter must not have zero
// elements (i.e. all dimensions must be non-zero)", "CPU implementation of Conv3D currently only
// supports dilated rates of 1.", "Current implementation does not yet support strides in the
// batch and depth dimensions.", "tensor_in must be 5-dimensional", "Sliding window ksize field must
// have non-negative dimensions", "input tensor must have 5 dimensions", "filter_sizes tensor must
// have 5 dimensions", "out_backprop tensor must have 5 dimensions", "input and filter_sizes must
// have the same number of channels. Got 3 for input and 2 for filter_sizes",
// "Conv3DBackpropInputOp: input and out_backprop must have the same batch size. Input batch: 2,
// outbackprop batch: 1, batch_dim: 0", "out_backprop and filter_sizes must have the same number of
// channels. Got 2 for out_backprop and 3 for filter_sizes", "Conv3DBackpropInputOp: Size of
// out_backprop doesn't match computed: actual = 1, computed = 2 spatial_dim: 1 input: 5 filter: 2
// output: 1 stride: 2 dilation: 1", "Computed output size would be negative: ...", "Stride must be
// > 0, but got 0"; data_format NCDHW: "Default Pooling3DOp only supports NDHWC on device type CPU"
// (pools), InvalidArgument naming the op (convolutions); Unimplemented "Pooling is not yet
// supported on the batch dimension." ("... depth dimension.").
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/onednn_conv.h"
#include "kernels/math_lib/onednn_deconv.h"
#include "ops/attr_value_util.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// The attrs of a 3-D window op, NDHWC.
struct Attrs3d {
  std::vector<int64_t> strides, ksize;
  Padding padding = Padding::kValid;
};

absl::StatusOr<Attrs3d> ParseAttrs3d(const OpKernelConstruction& ctx, bool pool) {
  Attrs3d a;
  std::string padding, format = "NDHWC";
  RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &a.strides));
  // TensorFlow reads strides, ksize and dilations as int32: a value outside it is its shape
  // function's error.
  for (int64_t v : a.strides) RILL_RETURN_IF_ERROR(CheckInt32Attr("strides", v));
  RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
  (void)ctx.GetAttr("data_format", &format);
  a.padding = PaddingFromString(padding);
  if (format != "NDHWC") {
    return absl::InvalidArgumentError(
        pool ? std::string("Default Pooling3DOp only supports NDHWC on device type CPU")
             : absl::StrCat(ctx.def().op(), " on the CPU supports only data_format NDHWC, got ",
                            format));
  }
  if (a.strides.size() != 5) {
    return absl::InvalidArgumentError("Sliding window strides field must specify 5 dimensions");
  }
  if (pool) {
    RILL_RETURN_IF_ERROR(ctx.GetAttr("ksize", &a.ksize));
    for (int64_t v : a.ksize) RILL_RETURN_IF_ERROR(CheckInt32Attr("ksize", v));
    if (a.ksize.size() != 5) {
      return absl::InvalidArgumentError("Sliding window ksize field must specify 5 dimensions");
    }
    if (a.ksize[0] != 1 || a.strides[0] != 1) {
      return absl::UnimplementedError("Pooling is not yet supported on the batch dimension.");
    }
    if (a.ksize[4] != 1 || a.strides[4] != 1) {
      return absl::UnimplementedError("Pooling is not yet supported on the depth dimension.");
    }
    for (int64_t k : a.ksize) {
      if (k <= 0) {
        return absl::InvalidArgumentError(
            "Sliding window ksize field must have non-negative dimensions");
      }
    }
  } else {
    if (a.strides[0] != 1 || a.strides[4] != 1) {
      return absl::InvalidArgumentError(
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.");
    }
    std::vector<int64_t> dilations = {1, 1, 1, 1, 1};
    (void)ctx.GetAttr("dilations", &dilations);
    for (int64_t v : dilations) RILL_RETURN_IF_ERROR(CheckInt32Attr("dilations", v));
    for (int64_t d : dilations) {
      if (d != 1) {
        return absl::InvalidArgumentError(
            "CPU implementation of Conv3D currently only supports dilated rates of 1.");
      }
    }
  }
  return a;
}

// The geometry of one NDHWC window op: input [batch, in[0..2], in_c], window k[0..2] with
// strides and padding before, output out[0..2].
struct Geometry3d {
  int64_t batch = 0, in_c = 0, out_c = 0;
  int64_t in[3] = {0, 0, 0}, k[3] = {1, 1, 1}, out[3] = {0, 0, 0};
  int64_t stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  int64_t in_pixels() const { return batch * in[0] * in[1] * in[2]; }
  int64_t out_pixels() const { return batch * out[0] * out[1] * out[2]; }
  int64_t taps() const { return k[0] * k[1] * k[2]; }
  int64_t patch() const { return taps() * in_c; }
};

absl::Status FillWindows(const Attrs3d& a, Geometry3d* g) {
  for (int d = 0; d < 3; ++d) {
    g->stride[d] = a.strides[d + 1];
    RILL_ASSIGN_OR_RETURN(Window w, ComputeWindow(g->in[d], g->k[d], g->stride[d], 1, a.padding));
    g->out[d] = w.out;
    g->pad[d] = w.pad_before;
  }
  return absl::OkStatus();
}

// Calls fn(out pixel p, its input corner (d0, h0, w0), batch n).
template <typename Fn>
void ForPixel(const Geometry3d& g, int64_t p, Fn&& fn) {
  const int64_t ow = p % g.out[2];
  const int64_t oh = (p / g.out[2]) % g.out[1];
  const int64_t od = (p / (g.out[2] * g.out[1])) % g.out[0];
  const int64_t n = p / (g.out[2] * g.out[1] * g.out[0]);
  fn(n, od * g.stride[0] - g.pad[0], oh * g.stride[1] - g.pad[1], ow * g.stride[2] - g.pad[2]);
}

// The patches of output pixels [begin, end) into rows of `col` (zeros outside the input).
template <typename T>
void Im2Col3d(const Geometry3d& g, const T* in, int64_t begin, int64_t end, T* col) {
  for (int64_t p = begin; p < end; ++p) {
    T* row = col + (p - begin) * g.patch();
    ForPixel(g, p, [&](int64_t n, int64_t d0, int64_t h0, int64_t w0) {
      for (int64_t kd = 0; kd < g.k[0]; ++kd) {
        for (int64_t kh = 0; kh < g.k[1]; ++kh) {
          T* dst = row + ((kd * g.k[1] + kh) * g.k[2]) * g.in_c;
          const int64_t d = d0 + kd, h = h0 + kh;
          if (d < 0 || d >= g.in[0] || h < 0 || h >= g.in[1]) {
            std::fill_n(dst, g.k[2] * g.in_c, T());
            continue;
          }
          const T* src = in + (((n * g.in[0] + d) * g.in[1] + h) * g.in[2]) * g.in_c;
          for (int64_t kw = 0; kw < g.k[2]; ++kw) {
            const int64_t w = w0 + kw;
            if (w < 0 || w >= g.in[2]) {
              std::fill_n(dst + kw * g.in_c, g.in_c, T());
            } else {
              std::copy_n(src + w * g.in_c, g.in_c, dst + kw * g.in_c);
            }
          }
        }
      }
    });
  }
}

// Adds the patch gradients of output pixels [begin, end) (rows of `col`) into `in_grad`.
template <typename T>
void Col2ImAdd3d(const Geometry3d& g, const T* col, int64_t begin, int64_t end, T* in_grad) {
  for (int64_t p = begin; p < end; ++p) {
    const T* row = col + (p - begin) * g.patch();
    ForPixel(g, p, [&](int64_t n, int64_t d0, int64_t h0, int64_t w0) {
      for (int64_t kd = 0; kd < g.k[0]; ++kd) {
        const int64_t d = d0 + kd;
        if (d < 0 || d >= g.in[0]) continue;
        for (int64_t kh = 0; kh < g.k[1]; ++kh) {
          const int64_t h = h0 + kh;
          if (h < 0 || h >= g.in[1]) continue;
          for (int64_t kw = 0; kw < g.k[2]; ++kw) {
            const int64_t w = w0 + kw;
            if (w < 0 || w >= g.in[2]) continue;
            const T* src = row + ((kd * g.k[1] + kh) * g.k[2] + kw) * g.in_c;
            T* dst = in_grad + (((n * g.in[0] + d) * g.in[1] + h) * g.in[2] + w) * g.in_c;
            for (int64_t c = 0; c < g.in_c; ++c) dst[c] += src[c];
          }
        }
      }
    });
  }
}

// Output pixels per im2col block: the column buffer near 256 KiB.
template <typename T>
int64_t PixelsPerBlock(const Geometry3d& g) {
  constexpr int64_t kBlockBytes = 256 << 10;
  return std::max<int64_t>(1, kBlockBytes / std::max<int64_t>(1, g.patch() * sizeof(T)));
}

template <typename T>
absl::Status Conv3dForward(OpKernelContext& ctx, const Geometry3d& g, const T* in, const T* filter,
                           T* out) {
  GemmDims d;
  d.k = g.patch();
  d.n = g.out_c;
  d.lda = g.patch();
  d.ldb = g.out_c;
  d.threads = 1;  // each block's product runs on its worker
  const int threads = ctx.intra_op_threads();
  const int64_t pixels = g.out_pixels();
  const int64_t block =
      std::max<int64_t>(1, std::min(PixelsPerBlock<T>(g), (pixels + threads - 1) / threads));
  const int64_t blocks = (pixels + block - 1) / block;
  std::atomic<bool> failed{false};
  absl::Status first_error;
  rill::Mutex mu;
  ctx.ParallelFor(blocks, block * g.patch() * g.out_c, [&](int64_t b0, int64_t b1) {
    std::vector<T> col(static_cast<size_t>(block * g.patch()));
    for (int64_t b = b0; b < b1 && !failed.load(); ++b) {
      const int64_t begin = b * block, end = std::min(begin + block, pixels);
      Im2Col3d(g, in, begin, end, col.data());
      GemmDims bd = d;
      bd.m = end - begin;
      absl::Status s = Gemm<T>(bd, col.data(), filter, out + begin * g.out_c);
      if (!s.ok()) {
        rill::MutexLock lock(&mu);
        if (first_error.ok()) first_error = s;
        failed = true;
      }
    }
  });
  return first_error;
}

// in_grad = col2im(out_backprop x filter^T), accumulated in T (float or double).
template <typename T>
absl::Status Conv3dBackpropInput(OpKernelContext& ctx, const Geometry3d& g, const T* filter,
                                 const T* out_backprop, T* in_grad) {
  std::fill_n(in_grad, g.in_pixels() * g.in_c, T());
  GemmDims d;  // [pixels, Cout] x filter^T [Cout, patch]
  d.threads = ctx.intra_op_threads();
  d.k = g.out_c;
  d.n = g.patch();
  d.lda = g.out_c;
  d.ldb = g.out_c;
  d.transpose_b = true;
  const int64_t block = std::min(PixelsPerBlock<T>(g), g.out_pixels());
  std::vector<T> col(static_cast<size_t>(block * g.patch()));
  for (int64_t begin = 0; begin < g.out_pixels(); begin += block) {
    const int64_t end = std::min(begin + block, g.out_pixels());
    d.m = end - begin;
    RILL_RETURN_IF_ERROR(Gemm<T>(d, out_backprop + begin * g.out_c, filter, col.data()));
    Col2ImAdd3d(g, col.data(), begin, end, in_grad);  // sequential: patches overlap
  }
  return absl::OkStatus();
}

// The geometry as oneDNN's 3-D convolution shape (stride and padding per spatial dim, no
// dilation: Conv3D refuses it on the CPU).
OneDnnConvShape OneDnnShape(const Geometry3d& g) {
  OneDnnConvShape s;
  s.spatial_dims = 3;
  s.batch = g.batch;
  s.in_c = g.in_c;
  s.out_c = g.out_c;
  s.in_d = g.in[0];
  s.in_h = g.in[1];
  s.in_w = g.in[2];
  s.k_d = g.k[0];
  s.k_h = g.k[1];
  s.k_w = g.k[2];
  s.out_d = g.out[0];
  s.out_h = g.out[1];
  s.out_w = g.out[2];
  s.stride_d = g.stride[0];
  s.stride_h = g.stride[1];
  s.stride_w = g.stride[2];
  s.pad_front = g.pad[0];
  s.pad_top = g.pad[1];
  s.pad_left = g.pad[2];
  return s;
}

class Conv3DOp final : public OpKernel {
 public:
  explicit Conv3DOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<Attrs3d> a = ParseAttrs3d(ctx, /*pool=*/false);
    if (a.ok()) {
      attrs_ = *std::move(a);
    } else {
      ctx.SetStatus(a.status());
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    if (input.shape().rank() != 5) {
      return absl::InvalidArgumentError("input must be 5-dimensional");
    }
    if (filter.shape().rank() != 5) {
      return absl::InvalidArgumentError("filter must be 5-dimensional");
    }
    const TensorShape& is = input.shape();
    const TensorShape& fs = filter.shape();
    if (filter.NumElements() == 0) {
      return absl::InvalidArgumentError(
          "filter must not have zero elements (i.e. all dimensions must be non-zero)");
    }
    if (is.dim(4) % fs.dim(3) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input depth must be evenly divisible by filter depth: ", is.dim(4), " vs ", fs.dim(3)));
    }
    if (is.dim(4) != fs.dim(3)) {
      return absl::InvalidArgumentError(absl::StrCat("Number of channels in filter (", fs.dim(3),
                                                     ") must match last dimension of input (",
                                                     is.dim(4), ")"));
    }
    Geometry3d g;
    g.batch = is.dim(0);
    g.in_c = is.dim(4);
    g.out_c = fs.dim(4);
    for (int d = 0; d < 3; ++d) {
      g.in[d] = is.dim(d + 1);
      g.k[d] = fs.dim(d);
    }
    RILL_RETURN_IF_ERROR(FillWindows(attrs_, &g));
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out[0], g.out[1], g.out[2], g.out_c}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (input.dtype() == DT_FLOAT) {
      return OneDnnConv2D(OneDnnShape(g), ctx.intra_op_threads(), input.flat<float>().data(),
                          filter.flat<float>().data(), /*bias=*/nullptr, out->flat<float>().data());
    }
    return VisitKernelTypes<half, float, double>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Conv3dForward<T>(ctx, g, input.flat<T>().data(), filter.flat<T>().data(),
                              out->flat<T>().data());
    });
  }

 private:
  Attrs3d attrs_;
};

class Conv3DBackpropInputOp final : public OpKernel {
 public:
  explicit Conv3DBackpropInputOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<Attrs3d> a = ParseAttrs3d(ctx, /*pool=*/false);
    if (a.ok()) {
      attrs_ = *std::move(a);
    } else {
      ctx.SetStatus(a.status());
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& sizes = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    const Tensor& out_backprop = ctx.input(2);
    if (sizes.shape().rank() != 1 || sizes.NumElements() != 5) {
      return absl::InvalidArgumentError("input tensor must have 5 dimensions");
    }
    if (filter.shape().rank() != 5) {
      return absl::InvalidArgumentError("filter_sizes tensor must have 5 dimensions");
    }
    if (out_backprop.shape().rank() != 5) {
      return absl::InvalidArgumentError("out_backprop tensor must have 5 dimensions");
    }
    RILL_ASSIGN_OR_RETURN(TensorShape in_shape, TensorShape::FromDims(IndexValues(sizes)));
    const TensorShape& fs = filter.shape();
    const TensorShape& bs = out_backprop.shape();
    if (in_shape.dim(4) != fs.dim(3)) {
      return absl::InvalidArgumentError(
          absl::StrCat("input and filter_sizes must have the same number of channels. Got ",
                       in_shape.dim(4), " for input and ", fs.dim(3), " for filter_sizes"));
    }
    if (bs.dim(0) != in_shape.dim(0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Conv3DBackpropInputOp: input and out_backprop must have the same batch size. Input "
          "batch: ",
          in_shape.dim(0), ", outbackprop batch: ", bs.dim(0), ", batch_dim: 0"));
    }
    if (bs.dim(4) != fs.dim(4)) {
      return absl::InvalidArgumentError(
          absl::StrCat("out_backprop and filter_sizes must have the same number of channels. Got ",
                       bs.dim(4), " for out_backprop and ", fs.dim(4), " for filter_sizes"));
    }
    Geometry3d g;
    g.batch = in_shape.dim(0);
    g.in_c = in_shape.dim(4);
    g.out_c = fs.dim(4);
    for (int d = 0; d < 3; ++d) {
      g.in[d] = in_shape.dim(d + 1);
      g.k[d] = fs.dim(d);
    }
    RILL_RETURN_IF_ERROR(FillWindows(attrs_, &g));
    for (int d = 0; d < 3; ++d) {
      if (bs.dim(d + 1) != g.out[d]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Conv3DBackpropInputOp: Size of out_backprop doesn't match computed: actual = ",
            bs.dim(d + 1), ", computed = ", g.out[d], " spatial_dim: ", d + 1, " input: ", g.in[d],
            " filter: ", g.k[d], " output: ", bs.dim(d + 1), " stride: ", g.stride[d],
            " dilation: 1"));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (out_backprop.NumElements() == 0) {
      return VisitKernelTypes<half, float, double>(*this, filter.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::fill_n(out->flat<T>().data(), out->NumElements(), T(0));
        return absl::OkStatus();
      });
    }
    if (filter.dtype() == DT_HALF) {  // accumulated in float, rounded once
      std::vector<float> f(filter.NumElements()), b(out_backprop.NumElements()),
          grad(out->NumElements());
      for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>(filter.flat<half>()[i]);
      for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(out_backprop.flat<half>()[i]);
      RILL_RETURN_IF_ERROR(Conv3dBackpropInput<float>(ctx, g, f.data(), b.data(), grad.data()));
      for (size_t i = 0; i < grad.size(); ++i) out->flat<half>()[i] = half(grad[i]);
      return absl::OkStatus();
    }
    // float with finite weights: oneDNN's deconvolution (kernels/math_lib/onednn_deconv.h), the
    // im2col path if oneDNN refuses the shape. An inf or NaN weight keeps the im2col path, which
    // forms every product of a weight and an out_backprop element.
    if (filter.dtype() == DT_FLOAT) {
      const float* f = filter.flat<float>().data();
      if (std::all_of(f, f + filter.NumElements(), [](float x) { return std::isfinite(x); }) &&
          OneDnnConv3DBackpropInput(OneDnnShape(g), ctx.intra_op_threads(), f,
                                    out_backprop.flat<float>().data(), out->flat<float>().data())
              .ok()) {
        return absl::OkStatus();
      }
    }
    return VisitKernelTypes<float, double>(*this, filter.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Conv3dBackpropInput<T>(ctx, g, filter.flat<T>().data(), out_backprop.flat<T>().data(),
                                    out->flat<T>().data());
    });
  }

 private:
  Attrs3d attrs_;
};

class Pool3DOp final : public OpKernel {
 public:
  explicit Pool3DOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), max_(ctx.def().op() == "MaxPool3D") {
    absl::StatusOr<Attrs3d> a = ParseAttrs3d(ctx, /*pool=*/true);
    if (a.ok()) {
      attrs_ = *std::move(a);
    } else {
      ctx.SetStatus(a.status());
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& is = input.shape();
    if (is.rank() != 5) return absl::InvalidArgumentError("tensor_in must be 5-dimensional");
    Geometry3d g;
    g.batch = is.dim(0);
    g.in_c = g.out_c = is.dim(4);
    for (int d = 0; d < 3; ++d) {
      g.in[d] = is.dim(d + 1);
      g.k[d] = attrs_.ksize[d + 1];
    }
    RILL_RETURN_IF_ERROR(FillWindows(attrs_, &g));
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out[0], g.out[1], g.out[2], g.in_c}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<float>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (max_) {
        Pool<T, true>(ctx, g, input.flat<T>().data(), out->flat<T>().data());
      } else {
        Pool<T, false>(ctx, g, input.flat<T>().data(), out->flat<T>().data());
      }
      return absl::OkStatus();
    });
  }

 private:
  // Each output pixel's channels are combined tap by tap (one vector loop per tap, at the CPU's
  // vector width: RunSimd), blocks of 32 channels in registers, then averaged.
  // MaxPool3D follows TensorFlow's Eigen cuboid pooling, which matters where NaN is: the
  // running max starts at -inf, SAME padding takes part as the lowest finite value, and the
  // output (flattened) is computed in aligned groups of kEigenLanes. A group whose elements
  // are channels of one pixel is combined with the vector max, which never lets a NaN element
  // in (the loops below); any other group (straddling two pixels, or the tail) is combined
  // element by element as max(x, acc), which takes a NaN element and drops it again at the next
  // number, so there the result is the max of the window's elements (in depth, row, column
  // order) from its last NaN on (ScalarLaneMax). Without a NaN in the input the two differ only
  // in the sign of a zero maximum (max(x, acc) keeps the window's last zero, the vector max its
  // first), so ScalarLaneMax runs for a scalar lane only when the input holds a NaN, or holds a
  // -0 and the vector result is zero: a pool over fewer than 8 channels, or a channel count that
  // is not a multiple of 8, would otherwise take it (and ScalarLane's divisions) on every or most
  // elements.
  static constexpr int64_t kEigenLanes = 8;

  static bool ScalarLane(int64_t flat, int64_t channels, int64_t total) {
    const int64_t group = flat - flat % kEigenLanes;
    return group + kEigenLanes > total || group % channels + kEigenLanes > channels;
  }

  // Whether in[0, size) holds a NaN, and a -0: for float a branchless pass over the bit patterns
  // (the comparisons of a post-Relu map's many zeros would each be a mispredicted branch).
  template <typename T>
  static void ScanForNanAndNegativeZero(const T* in, int64_t size, bool* nan, bool* negative_zero) {
    if constexpr (std::is_same_v<T, float>) {
      uint32_t any_nan = 0, any_negative_zero = 0;
      for (int64_t i = 0; i < size; ++i) {
        uint32_t bits;
        std::memcpy(&bits, in + i, sizeof(bits));
        any_nan |= (bits & 0x7fffffffu) > 0x7f800000u;
        any_negative_zero |= bits == 0x80000000u;
      }
      *nan = any_nan != 0;
      *negative_zero = any_negative_zero != 0;
    } else {
      for (int64_t i = 0; i < size; ++i) {
        *nan = *nan || std::isnan(in[i]);
        *negative_zero = *negative_zero || (in[i] == T(0) && std::signbit(in[i]));
      }
    }
  }

  template <typename T>
  static T ScalarLaneMax(const Geometry3d& g, const T* in, int64_t n, int64_t d0, int64_t h0,
                         int64_t w0, int64_t ch) {
    T acc = -std::numeric_limits<T>::infinity();
    for (int64_t d = d0; d < d0 + g.k[0]; ++d) {
      for (int64_t h = h0; h < h0 + g.k[1]; ++h) {
        for (int64_t w = w0; w < w0 + g.k[2]; ++w) {
          const bool inside =
              d >= 0 && d < g.in[0] && h >= 0 && h < g.in[1] && w >= 0 && w < g.in[2];
          const T x = inside ? in[(((n * g.in[0] + d) * g.in[1] + h) * g.in[2] + w) * g.in_c + ch]
                             : std::numeric_limits<T>::lowest();
          acc = acc > x ? acc : x;
        }
      }
    }
    return acc;
  }

  template <typename T, bool kMax>
  static void Pool(OpKernelContext& ctx, const Geometry3d& g, const T* in, T* out) {
    constexpr int kBlock = 32;
    constexpr T kInit = kMax ? -std::numeric_limits<T>::infinity() : static_cast<T>(0);
    auto Combine = [](T a, T b) {
      if constexpr (kMax) {
        return std::max(a, b);
      } else {
        return a + b;
      }
    };
    const int64_t c = g.in_c;
    // Whether the input holds a NaN (every scalar lane takes ScalarLaneMax) or a -0 (a scalar
    // lane whose vector result is zero takes it); see above.
    bool input_has_nan = false, input_has_negative_zero = false;
    if constexpr (kMax) {
      const int64_t total = g.out_pixels() * c;
      if (c % kEigenLanes != 0 || total % kEigenLanes != 0) {
        const int64_t size = g.batch * g.in[0] * g.in[1] * g.in[2] * c;
        ScanForNanAndNegativeZero(in, size, &input_has_nan, &input_has_negative_zero);
      }
    }
    ctx.ParallelFor(g.out_pixels(), g.taps() * c, [&](int64_t p0, int64_t p1) {
      cwise_internal::RunSimdFor<T>([&] {
        for (int64_t p = p0; p < p1; ++p) {
          ForPixel(g, p, [&](int64_t n, int64_t d0, int64_t h0, int64_t w0) {
            const int64_t d_lo = std::max<int64_t>(d0, 0), d_hi = std::min(d0 + g.k[0], g.in[0]);
            const int64_t h_lo = std::max<int64_t>(h0, 0), h_hi = std::min(h0 + g.k[1], g.in[1]);
            const int64_t w_lo = std::max<int64_t>(w0, 0), w_hi = std::min(w0 + g.k[2], g.in[2]);
            T* acc = out + p * c;
            // Full blocks of kBlock channels in registers (a fixed-length loop over a local
            // array), the rest in the output row.
            int64_t c0 = 0;
            for (; c0 + kBlock <= c; c0 += kBlock) {
              T sum[kBlock];
              for (int i = 0; i < kBlock; ++i) sum[i] = kInit;
              for (int64_t d = d_lo; d < d_hi; ++d) {
                for (int64_t h = h_lo; h < h_hi; ++h) {
                  for (int64_t w = w_lo; w < w_hi; ++w) {
                    const T* src = in + (((n * g.in[0] + d) * g.in[1] + h) * g.in[2] + w) * c + c0;
                    for (int i = 0; i < kBlock; ++i) sum[i] = Combine(sum[i], src[i]);
                  }
                }
              }
              for (int i = 0; i < kBlock; ++i) acc[c0 + i] = sum[i];
            }
            std::fill(acc + c0, acc + c, kInit);
            if (c0 < c) {
              for (int64_t d = d_lo; d < d_hi; ++d) {
                for (int64_t h = h_lo; h < h_hi; ++h) {
                  for (int64_t w = w_lo; w < w_hi; ++w) {
                    const T* src = in + (((n * g.in[0] + d) * g.in[1] + h) * g.in[2] + w) * c;
                    for (int64_t i = c0; i < c; ++i) acc[i] = Combine(acc[i], src[i]);
                  }
                }
              }
            }
            if constexpr (kMax) {
              const bool padded =
                  d_hi - d_lo < g.k[0] || h_hi - h_lo < g.k[1] || w_hi - w_lo < g.k[2];
              const int64_t total = g.out_pixels() * c;
              for (int64_t i = 0; i < c; ++i) {
                if (padded) acc[i] = Combine(acc[i], std::numeric_limits<T>::lowest());
                if ((input_has_nan || (input_has_negative_zero && acc[i] == static_cast<T>(0))) &&
                    ScalarLane(p * c + i, c, total)) {
                  acc[i] = ScalarLaneMax(g, in, n, d0, h0, w0, i);
                }
              }
            } else {
              const T count = static_cast<T>(
                  std::max<int64_t>(1, (d_hi - d_lo) * (h_hi - h_lo) * (w_hi - w_lo)));
              for (int64_t i = 0; i < c; ++i) acc[i] = acc[i] / count;
            }
          });
        }
      });
    });
  }

  const bool max_;
  Attrs3d attrs_;
};

REGISTER_KERNEL(KernelDefBuilder("Conv3D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>()),
                Conv3DOp);
REGISTER_KERNEL(KernelDefBuilder("Conv3DBackpropInputV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>())
                    .HostMemory("input_sizes"),
                Conv3DBackpropInputOp);
REGISTER_KERNEL(
    KernelDefBuilder("MaxPool3D").Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<float>()),
    Pool3DOp);
REGISTER_KERNEL(
    KernelDefBuilder("AvgPool3D").Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<float>()),
    Pool3DOp);

}  // namespace
}  // namespace rill
