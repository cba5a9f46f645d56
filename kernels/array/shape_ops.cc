// Shape and layout kernels that move no data, or copy it once: Shape, ShapeN, Size, Rank
// (metadata), Reshape (and QuantizedReshape), ExpandDims, Squeeze (share the input's buffer under a
// new shape), Fill, ZerosLike, OnesLike, Empty (fresh outputs), StopGradient, PreventGradient,
// EnsureShape (forward the input), Snapshot (a copy). Errors are InvalidArgument with TensorFlow's
// texts, e.g. "Input to reshape is a tensor with 6 values, but the requested shape has 4",
// EnsureShape "Shape of tensor x [2,3] is not compatible with expected shape [3,?]." (x the node's
// input).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/partial_tensor_shape.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Writes `values` into a new output of the kernel's int32/int64 output type.
absl::Status OutputIndexValues(OpKernelContext& ctx, const std::vector<int64_t>& values,
                               const TensorShape& shape) {
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
  if (out->dtype() == DT_INT32) {
    auto v = out->flat<int32_t>();
    for (size_t i = 0; i < values.size(); ++i) v[i] = static_cast<int32_t>(values[i]);
  } else {
    auto v = out->flat<int64_t>();
    for (size_t i = 0; i < values.size(); ++i) v[i] = values[i];
  }
  return absl::OkStatus();
}

class ShapeOp final : public OpKernel {
 public:
  explicit ShapeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    // ctx.input() returns a handle by value: keep it alive while its shape is read (found by
    // tests/fuzz:graph_run_fuzzer, ASan stack-use-after-scope).
    const Tensor& input = ctx.input(0);
    const TensorShape& s = input.shape();
    return OutputIndexValues(ctx, std::vector<int64_t>(s.dims().begin(), s.dims().end()),
                             TensorShape({s.rank()}));
  }
  bool IsExpensive() const override { return false; }
};

// ShapeN: output i is the shape of input i.
class ShapeNOp final : public OpKernel {
 public:
  explicit ShapeNOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      const TensorShape shape = ctx.input(i).shape();
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(i, TensorShape({shape.rank()})));
      for (int d = 0; d < shape.rank(); ++d) {
        if (out->dtype() == DT_INT32) {
          out->flat<int32_t>()[d] = static_cast<int32_t>(shape.dim(d));
        } else {
          out->flat<int64_t>()[d] = shape.dim(d);
        }
      }
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class SizeOp final : public OpKernel {
 public:
  explicit SizeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    return OutputIndexValues(ctx, {ctx.input(0).NumElements()}, TensorShape());
  }
  bool IsExpensive() const override { return false; }
};

class RankOp final : public OpKernel {
 public:
  explicit RankOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    return OutputIndexValues(ctx, {ctx.input(0).shape().rank()}, TensorShape());
  }
  bool IsExpensive() const override { return false; }
};

class ReshapeOp : public OpKernel {
 public:
  explicit ReshapeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& sizes = ctx.input(1);
    if (sizes.shape().rank() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("sizes input must be 1-D, not ", sizes.shape().DebugString()));
    }
    // TensorFlow's Reshape takes fewer sizes than TensorShape's 254-rank limit.
    if (sizes.NumElements() >= 254) {
      return absl::InvalidArgumentError(
          absl::StrCat("too many dimensions: must be < 254, but received ", sizes.NumElements()));
    }
    std::vector<int64_t> dims = IndexValues(sizes);
    int unknown = -1;
    int64_t product = 1;
    bool has_zero = false;
    for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
      has_zero |= dims[i] == 0;
      if (dims[i] == -1) {
        if (unknown >= 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("Only one input size may be -1, not both ", unknown, " and ", i));
        }
        unknown = i;
      } else if (dims[i] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Size ", i, " must be non-negative, not ", dims[i]));
      } else if (__builtin_mul_overflow(product, dims[i], &product)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input to reshape is a tensor with ", input.NumElements(),
                         " values, but the requested shape [", absl::StrJoin(dims, ","),
                         "] has more than ", std::numeric_limits<int64_t>::max()));
      }
    }
    const int64_t n = input.NumElements();
    if (unknown >= 0 && has_zero) {
      // TensorFlow's rule (ValidateSizes): with a 0 among the sizes, the -1 is inferred from the
      // non-zero sizes and the input's non-zero dims, so [0] -> [-1, 0] is [1, 0] and
      // [2, 0, 3] -> [-1, 0] is [6, 0]; the element counts are compared after.
      int64_t known = 1, count = 1;
      bool overflow = false, input_has_zero = false;
      for (int64_t d : dims) {
        if (d > 0) overflow |= __builtin_mul_overflow(known, d, &known);
      }
      for (int64_t d : input.shape().dims()) {
        if (d == 0) {
          input_has_zero = true;
        } else {
          overflow |= __builtin_mul_overflow(count, d, &count);
        }
      }
      if (overflow) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input to reshape is a tensor of shape ", input.shape().DebugString(),
                         " and the requested shape is [", absl::StrJoin(dims, ","),
                         "]: the -1 cannot be inferred without overflowing int64"));
      }
      if (!input_has_zero && count % known != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input to reshape is a tensor with ", n,
                         " values, but the requested shape requires a multiple of ", known));
      }
      dims[unknown] = count / known;
    } else if (unknown >= 0) {
      if (product == 0 || n % product != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input to reshape is a tensor with ", n,
                         " values, but the requested shape requires a multiple of ", product));
      }
      dims[unknown] = n / product;
      product = n;
    }
    if (product != n) {
      return absl::InvalidArgumentError(absl::StrCat("Input to reshape is a tensor with ", n,
                                                     " values, but the requested shape has ",
                                                     product));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(shape));
    ctx.set_output(0, std::move(out));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// QuantizedReshape: Reshape's output, and the range passed through (TensorFlow's check: each a
// scalar or a vector of one element).
class QuantizedReshapeOp final : public ReshapeOp {
 public:
  explicit QuantizedReshapeOp(OpKernelConstruction& ctx) : ReshapeOp(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(ReshapeOp::Compute(ctx));
    for (int i : {2, 3}) {
      const Tensor& t = ctx.input(i);
      if (!(t.shape().rank() == 0 || (t.shape().rank() == 1 && t.shape().dim(0) == 1))) {
        return absl::InvalidArgumentError(absl::StrCat(
            i == 2 ? "input_min" : "input_max", " must be a scalar or a vector of 1 element"));
      }
      ctx.set_output(i - 1, Tensor::Scalar<float>(t.flat<float>()[0]));
    }
    return absl::OkStatus();
  }
};

class ExpandDimsOp final : public OpKernel {
 public:
  explicit ExpandDimsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& dim = ctx.input(1);
    if (dim.NumElements() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'dim' must be a tensor with a single value, but got ", dim.shape().DebugString()));
    }
    const int rank = input.shape().rank();
    int64_t d = IndexValues(dim)[0];
    if (d < -1 - rank || d > rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("Tried to expand dim index ", d, " for tensor with ", rank, " dimensions."));
    }
    if (d < 0) d += rank + 1;
    std::vector<int64_t> dims(input.shape().dims().begin(), input.shape().dims().end());
    dims.insert(dims.begin() + d, 1);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(shape));
    ctx.set_output(0, std::move(out));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class SqueezeOp final : public OpKernel {
 public:
  explicit SqueezeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("squeeze_dims", &squeeze_dims_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& shape = input.shape();
    const int rank = shape.rank();
    std::vector<bool> drop(rank, false);
    for (int64_t d : squeeze_dims_) {
      if (d < -rank || d >= rank) {
        return absl::InvalidArgumentError(absl::StrCat("Tried to squeeze dim index ", d,
                                                       " for tensor with ", rank, " dimensions."));
      }
      drop[d < 0 ? d + rank : d] = true;
    }
    std::vector<int64_t> dims;
    for (int i = 0; i < rank; ++i) {
      if (squeeze_dims_.empty() ? shape.dim(i) == 1 : drop[i]) {
        if (shape.dim(i) != 1) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Can not squeeze dim[", i, "], expected a dimension of 1, got ", shape.dim(i)));
        }
        continue;
      }
      dims.push_back(shape.dim(i));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape squeezed, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(squeezed));
    ctx.set_output(0, std::move(out));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::vector<int64_t> squeeze_dims_;
};

// Fills a fresh output of the input's shape (or `dims`) with one value.
absl::Status FillWith(OpKernelContext& ctx, const TensorShape& shape, const Tensor* scalar,
                      int constant) {
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
  return VisitDataType(out->dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    T value{};
    if (scalar != nullptr) {
      value = scalar->flat<T>()[0];
    } else if constexpr (std::is_same_v<T, std::string>) {
      value = "";
    } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
      value = T(static_cast<float>(constant));
    } else {
      value = static_cast<T>(constant);
    }
    for (T& v : out->flat<T>()) v = value;
    return absl::OkStatus();
  });
}

class FillOp final : public OpKernel {
 public:
  explicit FillOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& value = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, FillShapeOf(ctx.input(0), value));
    return FillWith(ctx, shape, &value, 0);
  }
  bool IsExpensive() const override { return false; }
};

template <int kValue>
class FillLikeOp final : public OpKernel {
 public:
  explicit FillLikeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    return FillWith(ctx, ctx.input(0).shape(), nullptr, kValue);
  }
  bool IsExpensive() const override { return false; }
};

// Empty: a fresh tensor of the int32 vector `shape`; Rill zero-fills it whether or not `init`
// asks (TensorFlow leaves it uninitialized without init).
class EmptyOp final : public OpKernel {
 public:
  explicit EmptyOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& shape = ctx.input(0);
    if (shape.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape must be a vector of int32, got shape ", shape.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(IndexValues(shape)));
    return FillWith(ctx, out_shape, nullptr, 0);
  }
};

class ForwardOp final : public OpKernel {
 public:
  explicit ForwardOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// EnsureShape: forwards its input when its shape fits the `shape` attr.
class EnsureShapeOp final : public OpKernel {
 public:
  explicit EnsureShapeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    TensorShapeProto proto;
    absl::Status s = ctx.GetAttr("shape", &proto);
    absl::StatusOr<PartialTensorShape> shape =
        s.ok() ? PartialTensorShape::FromProto(proto) : absl::StatusOr<PartialTensorShape>(s);
    if (!shape.ok()) {
      ctx.SetStatus(shape.status());
      return;
    }
    expected_ = *std::move(shape);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (!expected_.IsCompatibleWith(in.shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Shape of tensor ", def().input_size() > 0 ? def().input(0) : std::string(),
                       " ", in.shape().DebugString(), " is not compatible with expected shape ",
                       expected_.DebugString(), "."));
    }
    ctx.set_output(0, in);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  PartialTensorShape expected_;
};

class SnapshotOp final : public OpKernel {
 public:
  explicit SnapshotOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(Tensor copy, ctx.input(0).DeepCopy());
    ctx.set_output(0, std::move(copy));
    return absl::OkStatus();
  }
};

const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};
// Kernels that write values: the dtypes the conformance suites cover.
const std::vector<DataType> kValueTypes = {DT_HALF,  DT_FLOAT, DT_DOUBLE, DT_INT8, DT_INT16,
                                           DT_INT32, DT_INT64, DT_UINT8,  DT_BOOL};
// Fill and OnesLike also write complex values (tf.signal and complex layers fill them).
const std::vector<DataType> kValueAndComplexTypes = {DT_HALF,  DT_FLOAT,     DT_DOUBLE,    DT_INT8,
                                                     DT_INT16, DT_INT32,     DT_INT64,     DT_UINT8,
                                                     DT_BOOL,  DT_COMPLEX64, DT_COMPLEX128};

REGISTER_KERNEL(KernelDefBuilder("Shape")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", PassThroughTypes())
                    .TypeConstraint("out_type", kIndexTypes),
                ShapeOp);
REGISTER_KERNEL(KernelDefBuilder("ShapeN")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", PassThroughTypes())
                    .TypeConstraint("out_type", kIndexTypes),
                ShapeNOp);
REGISTER_KERNEL(KernelDefBuilder("Size")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", PassThroughTypes())
                    .TypeConstraint("out_type", kIndexTypes),
                SizeOp);
REGISTER_KERNEL(KernelDefBuilder("Rank").Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()),
                RankOp);
REGISTER_KERNEL(KernelDefBuilder("Reshape")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tshape", kIndexTypes),
                ReshapeOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizedReshape")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_QUINT8, DT_QINT32})
                    .TypeConstraint("Tshape", kIndexTypes),
                QuantizedReshapeOp);
REGISTER_KERNEL(KernelDefBuilder("ExpandDims")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tdim", kIndexTypes),
                ExpandDimsOp);
REGISTER_KERNEL(KernelDefBuilder("Squeeze").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                SqueezeOp);
// The same three on a real GPU: they only relabel a tensor's shape, whatever memory holds it
// (no GPU work); the shape arguments stay in host memory, as in TensorFlow's GPU registrations.
const std::vector<DataType> kGpuFloatTypes = {DT_FLOAT, DT_DOUBLE};
REGISTER_KERNEL(KernelDefBuilder("Reshape")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("shape")
                    .TypeConstraint("T", kGpuFloatTypes)
                    .TypeConstraint("Tshape", kIndexTypes),
                ReshapeOp);
REGISTER_KERNEL(KernelDefBuilder("ExpandDims")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("dim")
                    .TypeConstraint("T", kGpuFloatTypes)
                    .TypeConstraint("Tdim", kIndexTypes),
                ExpandDimsOp);
REGISTER_KERNEL(
    KernelDefBuilder("Squeeze").Device(kDeviceGpu).NeedsCuda().TypeConstraint("T", kGpuFloatTypes),
    SqueezeOp);
// Shape, Size and Rank of a GPU tensor read only its shape; their int32/int64 outputs live in host
// memory (allocate_output takes HostMemory outputs from the host allocator).
REGISTER_KERNEL(KernelDefBuilder("Shape")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("output")
                    .TypeConstraint("T", kGpuFloatTypes)
                    .TypeConstraint("out_type", kIndexTypes),
                ShapeOp);
REGISTER_KERNEL(KernelDefBuilder("Size")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("output")
                    .TypeConstraint("T", kGpuFloatTypes)
                    .TypeConstraint("out_type", kIndexTypes),
                SizeOp);
REGISTER_KERNEL(KernelDefBuilder("Rank")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("output")
                    .TypeConstraint("T", kGpuFloatTypes),
                RankOp);
// Fill also writes the wider unsigned integers and bfloat16, as TensorFlow's CPU kernel does.
REGISTER_KERNEL(
    KernelDefBuilder("Fill")
        .Device(kDeviceCpu)
        .TypeConstraint("T",
                        [] {
                          std::vector<DataType> types = kValueAndComplexTypes;
                          types.insert(types.end(), {DT_UINT16, DT_UINT32, DT_UINT64, DT_BFLOAT16});
                          return types;
                        }())
        .TypeConstraint("index_type", kIndexTypes),
    FillOp);
REGISTER_KERNEL(
    KernelDefBuilder("ZerosLike").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
    FillLikeOp<0>);
REGISTER_KERNEL(
    KernelDefBuilder("OnesLike").Device(kDeviceCpu).TypeConstraint("T", kValueAndComplexTypes),
    FillLikeOp<1>);
REGISTER_KERNEL(
    KernelDefBuilder("StopGradient").Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()),
    ForwardOp);
REGISTER_KERNEL(
    KernelDefBuilder("PreventGradient").Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()),
    ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("Empty")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", kValueTypes)
                    .HostMemory("shape"),
                EmptyOp);
REGISTER_KERNEL(
    KernelDefBuilder("EnsureShape").Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()),
    EnsureShapeOp);
REGISTER_KERNEL(
    KernelDefBuilder("Snapshot").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
    SnapshotOp);

}  // namespace
}  // namespace rill
