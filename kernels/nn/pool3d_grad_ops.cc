// The gradients of the 3-D pools (kernels/nn/conv3d_ops.cc) on the CPU, NDHWC, float:
//   AvgPool3DGrad (orig_input_shape, grad): each pooled gradient divided by its window's element
//     count inside the input and added to those elements;
//   MaxPool3DGrad (orig_input, orig_output, grad): each pooled gradient added to every element of
//     its window equal to the pooled maximum (TensorFlow's mask);
//   MaxPool3DGradGrad (orig_input, orig_output, grad): per pooled element, `grad` at the first
//     window element (depth, row, column order) equal to the pooled maximum; 0 when none is.
// SAME padding never counts. Windows overlap, so the scatters run sequentially; MaxPool3DGradGrad
// runs pooled pixels in parallel over the kernel's intra-op threads.
// Errors (TensorFlow's texts): InvalidArgument "Default Pooling3DOp only supports NDHWC on device
// type CPU", "Sliding window ksize field must specify 5 dimensions", "Sliding window strides field
// must specify 5 dimensions", "tensor_in must be 5-dimensional", "orig_input_shape must be
// 1-dimensional and 5 elements", "Expected grad shape to be [...], but got [...]",
// "Expected orig_output shape to be [...], but got [...]", "grad should have the same shape as
// orig_input", the window errors of ops/window_geometry.h; Unimplemented "Pooling is not yet
// supported on the batch dimension.", "... on the depth dimension.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// Input [batch, in[0..2], channels]; windows k[0..2] moved by stride, starting pad before.
struct Pool3d {
  int64_t batch = 0, channels = 0;
  int64_t in[3] = {0, 0, 0}, k[3] = {1, 1, 1}, stride[3] = {1, 1, 1};
  int64_t out[3] = {0, 0, 0}, pad[3] = {0, 0, 0};

  int64_t out_pixels() const { return batch * out[0] * out[1] * out[2]; }
  TensorShape in_shape() const { return TensorShape({batch, in[0], in[1], in[2], channels}); }
  TensorShape out_shape() const { return TensorShape({batch, out[0], out[1], out[2], channels}); }
  int64_t InIndex(int64_t n, int64_t d, int64_t h, int64_t w) const {
    return (((n * in[0] + d) * in[1] + h) * in[2] + w) * channels;
  }
  // The in-bounds window [lo, hi) of pooled pixel p along each dim, and its batch.
  void Window(int64_t p, int64_t* n, int64_t lo[3], int64_t hi[3]) const {
    int64_t o[3];
    o[2] = p % out[2];
    o[1] = (p / out[2]) % out[1];
    o[0] = (p / (out[2] * out[1])) % out[0];
    *n = p / (out[2] * out[1] * out[0]);
    for (int d = 0; d < 3; ++d) {
      const int64_t start = o[d] * stride[d] - pad[d];
      lo[d] = std::max<int64_t>(start, 0);
      hi[d] = std::min(start + k[d], in[d]);
    }
  }
};

class Pool3dGradBase : public OpKernel {
 public:
  explicit Pool3dGradBase(OpKernelConstruction& ctx) : OpKernel(ctx) { ctx.SetStatus(Init(ctx)); }

 protected:
  // The geometry for an input of `shape` (checked to be 5-D).
  absl::StatusOr<Pool3d> Geometry(const TensorShape& shape) const {
    if (shape.rank() != 5) return absl::InvalidArgumentError("tensor_in must be 5-dimensional");
    Pool3d g;
    g.batch = shape.dim(0);
    g.channels = shape.dim(4);
    for (int d = 0; d < 3; ++d) {
      g.in[d] = shape.dim(d + 1);
      g.k[d] = ksize_[d + 1];
      g.stride[d] = strides_[d + 1];
      RILL_ASSIGN_OR_RETURN(Window w, ComputeWindow(g.in[d], g.k[d], g.stride[d], 1, padding_));
      g.out[d] = w.out;
      g.pad[d] = w.pad_before;
    }
    return g;
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    std::string format = "NDHWC", padding;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("data_format", &format));
    if (format != "NDHWC") {
      return absl::InvalidArgumentError(
          "Default Pooling3DOp only supports NDHWC on device type CPU");
    }
    RILL_RETURN_IF_ERROR(ctx.GetAttr("ksize", &ksize_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &strides_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
    padding_ = PaddingFromString(padding);
    if (ksize_.size() != 5) {
      return absl::InvalidArgumentError("Sliding window ksize field must specify 5 dimensions");
    }
    if (strides_.size() != 5) {
      return absl::InvalidArgumentError("Sliding window strides field must specify 5 dimensions");
    }
    if (ksize_[0] != 1 || strides_[0] != 1) {
      return absl::UnimplementedError("Pooling is not yet supported on the batch dimension.");
    }
    if (ksize_[4] != 1 || strides_[4] != 1) {
      return absl::UnimplementedError("Pooling is not yet supported on the depth dimension.");
    }
    for (int64_t k : ksize_) {
      if (k <= 0) {
        return absl::InvalidArgumentError(
            "Sliding window ksize field must have non-negative dimensions");
      }
    }
    return absl::OkStatus();
  }

  std::vector<int64_t> ksize_, strides_;
  Padding padding_ = Padding::kValid;
};

absl::Status CheckShape(const char* what, const TensorShape& got, const TensorShape& want) {
  if (got == want) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Expected ", what, " shape to be ", want.DebugString(), ", but got ", got.DebugString()));
}

class AvgPool3DGradOp final : public Pool3dGradBase {
 public:
  using Pool3dGradBase::Pool3dGradBase;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& shape_t = ctx.input(0);
    const Tensor& grad = ctx.input(1);
    if (shape_t.shape().rank() != 1 || shape_t.NumElements() != 5) {
      return absl::InvalidArgumentError("orig_input_shape must be 1-dimensional and 5 elements");
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape in_shape, TensorShape::FromDims(IndexValues(shape_t)));
    RILL_ASSIGN_OR_RETURN(Pool3d g, Geometry(in_shape));
    RILL_RETURN_IF_ERROR(CheckShape("grad", grad.shape(), g.out_shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in_shape));
    float* z = out->flat<float>().data();
    std::fill(z, z + out->NumElements(), 0.f);
    const float* gp = grad.flat<float>().data();
    for (int64_t p = 0; p < g.out_pixels(); ++p) {
      int64_t n, lo[3], hi[3];
      g.Window(p, &n, lo, hi);
      const int64_t count = std::max<int64_t>(0, hi[0] - lo[0]) *
                            std::max<int64_t>(0, hi[1] - lo[1]) *
                            std::max<int64_t>(0, hi[2] - lo[2]);
      if (count == 0) continue;
      for (int64_t d = lo[0]; d < hi[0]; ++d) {
        for (int64_t h = lo[1]; h < hi[1]; ++h) {
          for (int64_t w = lo[2]; w < hi[2]; ++w) {
            float* dst = z + g.InIndex(n, d, h, w);
            for (int64_t c = 0; c < g.channels; ++c) {
              dst[c] += gp[p * g.channels + c] / static_cast<float>(count);
            }
          }
        }
      }
    }
    return absl::OkStatus();
  }
};

// MaxPool3DGrad (kGradGrad false) and MaxPool3DGradGrad (true).
template <bool kGradGrad>
class MaxPool3DGradOp final : public Pool3dGradBase {
 public:
  using Pool3dGradBase::Pool3dGradBase;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& pooled = ctx.input(1);
    const Tensor& grad = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(Pool3d g, Geometry(in.shape()));
    if (pooled.shape() != g.out_shape()) {
      return absl::InvalidArgumentError(absl::StrCat("Expected orig_output shape to be ",
                                                     g.out_shape().DebugString(), ", but got ",
                                                     pooled.shape().DebugString()));
    }
    const float* x = in.flat<float>().data();
    const float* y = pooled.flat<float>().data();
    const float* gp = grad.flat<float>().data();
    if constexpr (kGradGrad) {
      if (grad.shape() != in.shape()) {
        return absl::InvalidArgumentError("grad should have the same shape as orig_input");
      }
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, g.out_shape()));
      float* z = out->flat<float>().data();
      ctx.ParallelFor(
          g.out_pixels(), g.k[0] * g.k[1] * g.k[2] * g.channels, [&](int64_t begin, int64_t end) {
            for (int64_t p = begin; p < end; ++p) {
              int64_t n, lo[3], hi[3];
              g.Window(p, &n, lo, hi);
              for (int64_t c = 0; c < g.channels; ++c) {
                z[p * g.channels + c] = FirstMatch(g, x, gp, n, lo, hi, c, y[p * g.channels + c]);
              }
            }
          });
    } else {
      RILL_RETURN_IF_ERROR(CheckShape("grad", grad.shape(), g.out_shape()));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
      float* z = out->flat<float>().data();
      std::fill(z, z + out->NumElements(), 0.f);
      for (int64_t p = 0; p < g.out_pixels(); ++p) {
        int64_t n, lo[3], hi[3];
        g.Window(p, &n, lo, hi);
        for (int64_t d = lo[0]; d < hi[0]; ++d) {
          for (int64_t h = lo[1]; h < hi[1]; ++h) {
            for (int64_t w = lo[2]; w < hi[2]; ++w) {
              const int64_t at = g.InIndex(n, d, h, w);
              for (int64_t c = 0; c < g.channels; ++c) {
                if (x[at + c] == y[p * g.channels + c]) z[at + c] += gp[p * g.channels + c];
              }
            }
          }
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  static float FirstMatch(const Pool3d& g, const float* x, const float* gp, int64_t n,
                          const int64_t lo[3], const int64_t hi[3], int64_t c, float target) {
    for (int64_t d = lo[0]; d < hi[0]; ++d) {
      for (int64_t h = lo[1]; h < hi[1]; ++h) {
        for (int64_t w = lo[2]; w < hi[2]; ++w) {
          const int64_t at = g.InIndex(n, d, h, w) + c;
          if (x[at] == target) return gp[at];
        }
      }
    }
    return 0.f;
  }
};

REGISTER_KERNEL(KernelDefBuilder("AvgPool3DGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float>())
                    .HostMemory("orig_input_shape"),
                AvgPool3DGradOp);
REGISTER_KERNEL(KernelDefBuilder("MaxPool3DGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float>())
                    .TypeConstraint("TInput", DataTypesOf<float>()),
                MaxPool3DGradOp<false>);
REGISTER_KERNEL(KernelDefBuilder("MaxPool3DGradGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float>()),
                MaxPool3DGradOp<true>);

}  // namespace
}  // namespace rill
