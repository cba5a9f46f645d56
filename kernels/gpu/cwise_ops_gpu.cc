// CUDA kernels of the elementwise ops: binary ops with NumPy broadcasting (Add, AddV2, Sub, Mul,
// RealDiv, Div, Maximum, Minimum, SquaredDifference, Pow, FloorDiv, FloorMod), unary ops (Relu,
// Relu6, Sigmoid, Tanh, Neg, Abs, Exp, Log, Sqrt, Rsqrt, Square, Reciprocal/Inv, Sin, Cos, Erf,
// Erfc, Softplus, Softsign, Elu, Selu, Floor, Ceil, Round/Rint, Sign, Log1p, Expm1), LeakyRelu,
// AddN, BiasAdd (NHWC and NCHW); float and double. Cast from float, double, int32, int64 and bool
// to all but int32 (the CPU kernel's conversions). Shapes are checked on the host with the CPU
// kernels' errors (BroadcastShapes' "Incompatible shapes: [2,3] vs. [4]", BiasAdd's "Must provide
// as many biases as the last dimension of the input tensor: [3] vs. [2,4]"); the work is one
// launch on the compute stream (AddN: one per input after the first). Outputs reuse an input
// buffer nothing else holds, as on the CPU.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/gpu/broadcast_index.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/math_lib/broadcast.h"

namespace rill {
namespace {

using gpu_kernels::BinaryFn;
using gpu_kernels::UnaryFn;

using gpu_broadcast::MakeBroadcastIndex;

// A float16 tensor's elements as their 16 bits, the launchers' view of half.
const uint16_t* HalfBits(const Tensor& t) { return static_cast<const uint16_t*>(t.raw_data()); }
uint16_t* HalfBits(Tensor* t) { return static_cast<uint16_t*>(t->raw_data()); }

template <BinaryFn kFn>
class BinaryGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    if (x.shape() == y.shape()) {
      RILL_ASSIGN_OR_RETURN(Tensor * out,
                            ctx.forward_input_or_allocate_output({0, 1}, 0, x.shape()));
      return Run(x, y, out, nullptr);
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, BroadcastShapes(x.shape(), y.shape()));
    RILL_ASSIGN_OR_RETURN(gpu_kernels::BroadcastIndex index,
                          MakeBroadcastIndex(x.shape(), y.shape(), shape));
    // No forwarding: an output element may read operand elements another thread overwrites.
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    return Run(x, y, out, &index);
  }

 private:
  absl::Status Run(const Tensor& x, const Tensor& y, Tensor* out,
                   const gpu_kernels::BroadcastIndex* index) const {
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    if (x.dtype() == DT_HALF) {
      gpu_kernels::LaunchBinaryHalf(kFn, HalfBits(x), HalfBits(y), HalfBits(out), n, index,
                                    stream());
    } else if (x.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchBinary<double>(kFn, x.flat<double>().data(), y.flat<double>().data(),
                                        out->flat<double>().data(), n, index, stream());
    } else {
      gpu_kernels::LaunchBinary<float>(kFn, x.flat<float>().data(), y.flat<float>().data(),
                                       out->flat<float>().data(), n, index, stream());
    }
    return Launched();
  }
};

template <UnaryFn kFn>
class UnaryGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, x.shape()));
    const int64_t n = x.NumElements();
    if (n == 0) return absl::OkStatus();
    if (x.dtype() == DT_HALF) {
      gpu_kernels::LaunchUnaryHalf(kFn, HalfBits(x), HalfBits(out), n, stream());
    } else if (x.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchUnary<double>(kFn, x.flat<double>().data(), out->flat<double>().data(), n,
                                       stream());
    } else {
      gpu_kernels::LaunchUnary<float>(kFn, x.flat<float>().data(), out->flat<float>().data(), n,
                                      stream());
    }
    return Launched();
  }
};

class LeakyReluGpuOp final : public GpuOpKernel {
 public:
  explicit LeakyReluGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("alpha", &alpha_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, x.shape()));
    const int64_t n = x.NumElements();
    if (x.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchLeakyRelu<double>(x.flat<double>().data(), out->flat<double>().data(), n,
                                           static_cast<double>(alpha_), stream());
    } else {
      gpu_kernels::LaunchLeakyRelu<float>(x.flat<float>().data(), out->flat<float>().data(), n,
                                          alpha_, stream());
    }
    return Launched();
  }

 private:
  float alpha_ = 0.2f;
};

class AddNGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const TensorShape& shape = ctx.input(0).shape();
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      if (ctx.input(i).shape() != shape) {
        return absl::InvalidArgumentError(
            absl::StrCat("Inputs to operation ", name(), " of type ", type_string(),
                         " must have the same size and shape.  Input 0: ", shape.DebugString(),
                         " != input ", i, ": ", ctx.input(i).shape().DebugString()));
      }
    }
    if (ctx.num_inputs() == 1) {
      ctx.set_output(0, ctx.input(0));
      return absl::OkStatus();
    }
    // Input 0's buffer becomes the output only when no other input shares it: the passes below
    // would read an input an earlier pass overwrote (AddN(x, x, x)).
    bool aliased = false;
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      aliased |= ctx.input(i).SharesBufferWith(ctx.input(0));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, aliased
                                            ? ctx.allocate_output(0, shape)
                                            : ctx.forward_input_or_allocate_output({0}, 0, shape));
    const int64_t n = shape.num_elements();
    if (n == 0) return absl::OkStatus();
    // out = x0 + x1, then out += xi: left to right, as the CPU kernel adds.
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      const Tensor& prev = i == 1 ? ctx.input(0) : *out;
      if (out->dtype() == DT_HALF) {
        gpu_kernels::LaunchBinaryHalf(BinaryFn::kAdd, HalfBits(prev), HalfBits(ctx.input(i)),
                                      HalfBits(out), n, nullptr, stream());
      } else if (out->dtype() == DT_DOUBLE) {
        gpu_kernels::LaunchBinary<double>(BinaryFn::kAdd, prev.flat<double>().data(),
                                          ctx.input(i).flat<double>().data(),
                                          out->flat<double>().data(), n, nullptr, stream());
      } else {
        gpu_kernels::LaunchBinary<float>(BinaryFn::kAdd, prev.flat<float>().data(),
                                         ctx.input(i).flat<float>().data(),
                                         out->flat<float>().data(), n, nullptr, stream());
      }
      RILL_RETURN_IF_ERROR(Launched());
    }
    return absl::OkStatus();
  }
};

class BiasAddGpuOp final : public GpuOpKernel {
 public:
  explicit BiasAddGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    std::string format = "NHWC";
    (void)ctx.GetAttr("data_format", &format);
    nchw_ = format == "NCHW";
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& value = ctx.input(0);
    const Tensor& bias = ctx.input(1);
    const TensorShape& shape = value.shape();
    RILL_ASSIGN_OR_RETURN(BiasAddLayout layout, BiasAddLayoutOf(shape, bias.shape(), nchw_));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, shape));
    const int64_t n = shape.num_elements();
    if (n == 0) return absl::OkStatus();
    const int64_t channels = layout.channels, inner = layout.inner;
    if (value.dtype() == DT_HALF) {
      gpu_kernels::LaunchBiasAddHalf(HalfBits(value), HalfBits(bias), HalfBits(out), n, channels,
                                     inner, stream());
    } else if (value.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchBiasAdd<double>(value.flat<double>().data(), bias.flat<double>().data(),
                                         out->flat<double>().data(), n, channels, inner, stream());
    } else {
      gpu_kernels::LaunchBiasAdd<float>(value.flat<float>().data(), bias.flat<float>().data(),
                                        out->flat<float>().data(), n, channels, inner, stream());
    }
    return Launched();
  }

 private:
  bool nchw_ = false;
};

// Calls f(Tag<T>{}) with T the C++ type of float, double, int32, int64 or bool.
template <typename T>
struct Tag {
  using type = T;
};
template <typename F>
void VisitCastType(DataType dtype, F&& f) {
  switch (dtype) {
    case DT_DOUBLE:
      return f(Tag<double>{});
    case DT_INT32:
      return f(Tag<int32_t>{});
    case DT_INT64:
      return f(Tag<int64_t>{});
    case DT_BOOL:
      return f(Tag<bool>{});
    default:
      return f(Tag<float>{});
  }
}

// Cast's `Truncate` attr (absent in older graphs: false).
bool ReadTruncate(OpKernelConstruction& ctx) {
  bool truncate = false;
  if (ctx.def().attr().count("Truncate") > 0) ctx.SetStatus(ctx.GetAttr("Truncate", &truncate));
  return truncate;
}

class CastGpuOp final : public GpuOpKernel {
 public:
  explicit CastGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx), truncate_(ReadTruncate(ctx)) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const DataType to = output_type(0);
    if (x.dtype() == to) {
      ctx.set_output(0, x);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    const int64_t n = x.NumElements();
    if (n == 0) return absl::OkStatus();
    void* s = stream();
    Tensor source = x;
    if (x.dtype() == DT_INT32) {
      // int32 tensors on a GPU live in host memory: copy the input over first (ordered, no wait).
      RILL_ASSIGN_OR_RETURN(source,
                            Tensor::AllocateUninitialized(gpu()->allocator(), DT_INT32, x.shape()));
      RILL_RETURN_IF_ERROR(gpu()->CopyHostToDevice(x, source));
    }
    if (truncate_ && x.dtype() == DT_DOUBLE && to == DT_FLOAT) {
      gpu_kernels::LaunchTruncatingCastDoubleToFloat(x.flat<double>().data(),
                                                     out->flat<float>().data(), n, s);
      return Launched();
    }
    VisitCastType(x.dtype(), [&](auto src) {
      using Src = typename decltype(src)::type;
      VisitCastType(to, [&](auto dst) {
        using Dst = typename decltype(dst)::type;
        gpu_kernels::LaunchCast<Src, Dst>(source.flat<Src>().data(), out->flat<Dst>().data(), n, s);
      });
    });
    return Launched();
  }

 private:
  bool truncate_;
};

const std::vector<DataType> kFloatTypes = {DT_FLOAT, DT_DOUBLE};
// Elementwise ops also take float16 (computed in float32): a half network's layers stay on the
// GPU between its half convolutions and products.
const std::vector<DataType> kElementwiseTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE};

#define RILL_GPU_BINARY(op, fn)                                                    \
  REGISTER_GPU_KERNEL(KernelDefBuilder(op).TypeConstraint("T", kElementwiseTypes), \
                      BinaryGpuOp<BinaryFn::fn>)
RILL_GPU_BINARY("Add", kAdd);
RILL_GPU_BINARY("AddV2", kAdd);
RILL_GPU_BINARY("Sub", kSub);
RILL_GPU_BINARY("Mul", kMul);
RILL_GPU_BINARY("RealDiv", kDiv);
RILL_GPU_BINARY("Div", kDiv);
RILL_GPU_BINARY("Maximum", kMaximum);
RILL_GPU_BINARY("Minimum", kMinimum);
RILL_GPU_BINARY("SquaredDifference", kSquaredDifference);
RILL_GPU_BINARY("Pow", kPow);
RILL_GPU_BINARY("FloorDiv", kFloorDiv);
RILL_GPU_BINARY("FloorMod", kFloorMod);
#undef RILL_GPU_BINARY

#define RILL_GPU_UNARY(op, fn)                                                     \
  REGISTER_GPU_KERNEL(KernelDefBuilder(op).TypeConstraint("T", kElementwiseTypes), \
                      UnaryGpuOp<UnaryFn::fn>)
RILL_GPU_UNARY("Relu", kRelu);
RILL_GPU_UNARY("Relu6", kRelu6);
RILL_GPU_UNARY("Sigmoid", kSigmoid);
RILL_GPU_UNARY("Tanh", kTanh);
RILL_GPU_UNARY("Neg", kNeg);
RILL_GPU_UNARY("Abs", kAbs);
RILL_GPU_UNARY("Exp", kExp);
RILL_GPU_UNARY("Log", kLog);
RILL_GPU_UNARY("Sqrt", kSqrt);
RILL_GPU_UNARY("Rsqrt", kRsqrt);
RILL_GPU_UNARY("Square", kSquare);
RILL_GPU_UNARY("Reciprocal", kReciprocal);
RILL_GPU_UNARY("Inv", kReciprocal);
RILL_GPU_UNARY("Sin", kSin);
RILL_GPU_UNARY("Cos", kCos);
RILL_GPU_UNARY("Erf", kErf);
RILL_GPU_UNARY("Erfc", kErfc);
RILL_GPU_UNARY("Softplus", kSoftplus);
RILL_GPU_UNARY("Softsign", kSoftsign);
RILL_GPU_UNARY("Elu", kElu);
RILL_GPU_UNARY("Selu", kSelu);
RILL_GPU_UNARY("Floor", kFloor);
RILL_GPU_UNARY("Ceil", kCeil);
RILL_GPU_UNARY("Round", kRound);
RILL_GPU_UNARY("Rint", kRound);
RILL_GPU_UNARY("Sign", kSign);
RILL_GPU_UNARY("Log1p", kLog1p);
RILL_GPU_UNARY("Expm1", kExpm1);
#undef RILL_GPU_UNARY

REGISTER_GPU_KERNEL(KernelDefBuilder("AddN").TypeConstraint("T", kElementwiseTypes), AddNGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("BiasAdd").TypeConstraint("T", kElementwiseTypes),
                    BiasAddGpuOp);
REGISTER_GPU_KERNEL(KernelDefBuilder("LeakyRelu").TypeConstraint("T", kFloatTypes), LeakyReluGpuOp);
// Cast between float32 and float16 (mixed-precision graphs around half MatMuls and convolutions).
class HalfCastGpuOp final : public GpuOpKernel {
 public:
  explicit HalfCastGpuOp(OpKernelConstruction& ctx)
      : GpuOpKernel(ctx), truncate_(ReadTruncate(ctx)) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    const int64_t n = x.NumElements();
    if (x.dtype() == DT_FLOAT && truncate_) {
      gpu_kernels::LaunchTruncatingCastFloatToHalf(
          x.flat<float>().data(), static_cast<uint16_t*>(out->raw_data()), n, stream());
    } else if (x.dtype() == DT_FLOAT) {
      gpu_kernels::LaunchCastFloatToHalf(x.flat<float>().data(),
                                         static_cast<uint16_t*>(out->raw_data()), n, stream());
    } else {
      gpu_kernels::LaunchCastHalfToFloat(static_cast<const uint16_t*>(x.raw_data()),
                                         out->flat<float>().data(), n, stream());
    }
    return Launched();
  }

 private:
  bool truncate_;
};

// int32 results are not made here: int32 tensors on a GPU live in host memory, which a CUDA
// kernel cannot write without waiting for the GPU, so a Cast to int32 runs on the CPU.
const std::vector<DataType> kCastTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL};
const std::vector<DataType> kCastResultTypes = {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL};
REGISTER_GPU_KERNEL(KernelDefBuilder("Cast")
                        .TypeConstraint("SrcT", kCastTypes)
                        .TypeConstraint("DstT", kCastResultTypes),
                    CastGpuOp);
REGISTER_GPU_KERNEL(
    KernelDefBuilder("Cast").TypeConstraint("SrcT", {DT_FLOAT}).TypeConstraint("DstT", {DT_HALF}),
    HalfCastGpuOp);
REGISTER_GPU_KERNEL(
    KernelDefBuilder("Cast").TypeConstraint("SrcT", {DT_HALF}).TypeConstraint("DstT", {DT_FLOAT}),
    HalfCastGpuOp);

}  // namespace
}  // namespace rill
