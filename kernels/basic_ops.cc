// CPU kernels the runtime needs for every graph: Const, Placeholder, PlaceholderWithDefault,
// Identity, IdentityN, NoOp, and _Arg/_Retval (feeds and fetches through the step's CallFrame).
#include "absl/strings/str_cat.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor_proto.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

// Decodes its tensor once, at construction.
class ConstOp final : public OpKernel {
 public:
  explicit ConstOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const AttrValue* value = FindNodeAttr(ctx.def(), "value");
    if (value == nullptr || value->value_case() != AttrValue::kTensor) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("Const node ", ctx.def().name(), " has no tensor 'value' attr")));
      return;
    }
    absl::StatusOr<Tensor> t = TensorFromProto(value->tensor(), ctx.device()->allocator());
    if (!t.ok()) {
      ctx.SetStatus(absl::Status(t.status().code(), absl::StrCat("Const node ", ctx.def().name(),
                                                                 ": ", t.status().message())));
      return;
    }
    DataType dtype;
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype));
    if (ctx.status().ok() && dtype != t->dtype()) {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat(
          "Type mismatch between value (", DataTypeString(t->dtype()), ") and dtype (",
          DataTypeString(dtype), ") in Const node ", ctx.def().name())));
    }
    tensor_ = *std::move(t);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, tensor_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  Tensor tensor_;
};

// Runs only when a needed placeholder was not fed.
class PlaceholderOp final : public OpKernel {
 public:
  explicit PlaceholderOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
    TensorShapeProto proto;
    if (ctx.GetAttr("shape", &proto).ok()) {
      absl::StatusOr<PartialTensorShape> s = PartialTensorShape::FromProto(proto);
      if (s.ok() && !s->unknown_rank()) shape_ = " and shape " + s->DebugString();
    }
  }
  absl::Status Compute(OpKernelContext&) const override {
    return absl::InvalidArgumentError(absl::StrCat("You must feed a value for placeholder tensor '",
                                                   name(), "' with dtype ",
                                                   DataTypeString(dtype_), shape_));
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
  std::string shape_;
};

// Identity, PlaceholderWithDefault, and every output of IdentityN: pass inputs through. A ref
// input is read (the executor hands non-ref consumers the value).
class ForwardOp final : public OpKernel {
 public:
  explicit ForwardOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int i = 0; i < ctx.num_inputs() && i < ctx.num_outputs(); ++i) {
      ctx.set_output(i, ctx.input(i));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class NoOp final : public OpKernel {
 public:
  explicit NoOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext&) const override { return absl::OkStatus(); }
  bool IsExpensive() const override { return false; }
};

class ArgOp final : public OpKernel {
 public:
  explicit ArgOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("index", &index_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.call_frame() == nullptr) return absl::InternalError("_Arg run without a call frame");
    absl::StatusOr<Tensor> t = ctx.call_frame()->GetArg(static_cast<int>(index_));
    if (!t.ok()) return t.status();
    ctx.set_output(0, *std::move(t));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  int64_t index_ = 0;
};

class RetvalOp final : public OpKernel {
 public:
  explicit RetvalOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("index", &index_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.call_frame() == nullptr) {
      return absl::InternalError("_Retval run without a call frame");
    }
    return ctx.call_frame()->SetRetval(static_cast<int>(index_), ctx.input(0));
  }
  bool IsExpensive() const override { return false; }

 private:
  int64_t index_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("Const").Device(kDeviceCpu), ConstOp);
REGISTER_KERNEL(KernelDefBuilder("Placeholder").Device(kDeviceCpu), PlaceholderOp);
REGISTER_KERNEL(KernelDefBuilder("PlaceholderWithDefault").Device(kDeviceCpu), ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("Identity").Device(kDeviceCpu), ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("IdentityN").Device(kDeviceCpu), ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("NoOp").Device(kDeviceCpu), NoOp);
REGISTER_KERNEL(KernelDefBuilder("_Arg").Device(kDeviceCpu), ArgOp);
REGISTER_KERNEL(KernelDefBuilder("_Retval").Device(kDeviceCpu), RetvalOp);

}  // namespace
}  // namespace rill
