// Placeholder and PlaceholderWithDefault on the CPU. A fed placeholder is pruned away by the
// session's feed rewrite, so Placeholder's kernel only runs when a needed value was not fed, and
// then fails with TensorFlow's text:
//   You must feed a value for placeholder tensor 'x' with dtype float and shape [?,3]
// (" and shape ..." only when the shape attr has known rank > 0, as TensorFlow). Both cheap.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/partial_tensor_shape.h"
#include "core/quantized_types.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

class PlaceholderOp final : public OpKernel {
 public:
  explicit PlaceholderOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    DataType dtype = DT_INVALID;
    TensorShapeProto proto;
    absl::Status s = ctx.GetAttr("dtype", &dtype);
    if (s.ok()) s = ctx.GetAttr("shape", &proto);
    absl::StatusOr<PartialTensorShape> shape =
        s.ok() ? PartialTensorShape::FromProto(proto) : absl::StatusOr<PartialTensorShape>(s);
    if (!shape.ok()) {
      ctx.SetStatus(shape.status());
      return;
    }
    message_ = absl::StrCat("You must feed a value for placeholder tensor '", ctx.def().name(),
                            "' with dtype ", DataTypeString(dtype));
    if (shape->rank() > 0) absl::StrAppend(&message_, " and shape ", shape->DebugString());
  }

  // Always InvalidArgument (the feed is missing).
  absl::Status Compute(OpKernelContext&) const override {
    return absl::InvalidArgumentError(message_);
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string message_;
};

// Unfed, PlaceholderWithDefault passes its input through; a default whose shape the shape attr
// does not admit (TensorFlow refuses such a graph when building it) is InvalidArgument.
class PlaceholderWithDefaultOp final : public OpKernel {
 public:
  explicit PlaceholderWithDefaultOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    TensorShapeProto proto;
    ctx.SetStatus(ctx.GetAttr("shape", &proto));
    absl::StatusOr<PartialTensorShape> shape = PartialTensorShape::FromProto(proto);
    ctx.SetStatus(shape.status());
    if (shape.ok()) shape_ = *std::move(shape);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    if (!shape_.IsCompatibleWith(input.shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("PlaceholderWithDefault's default value has shape ",
                       input.shape().DebugString(), ", which its shape attr ", shape_.DebugString(),
                       " does not admit; give it a default of that shape or relax the attr"));
    }
    ctx.set_output(0, input);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  PartialTensorShape shape_;
};

REGISTER_KERNEL(
    // Resource and variant placeholders too: frozen TF2 loops leave unused variant ones.
    KernelDefBuilder("Placeholder")
        .Device(kDeviceCpu)
        .TypeConstraint("dtype", WithQuantizedTypes(PassThroughTypes())),
    PlaceholderOp);
// PlaceholderV2: Placeholder's name in TF1 graphs of GraphDef versions 21 to 22.
REGISTER_KERNEL(KernelDefBuilder("PlaceholderV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", PassThroughTypes()),
                PlaceholderOp);
REGISTER_KERNEL(KernelDefBuilder("PlaceholderWithDefault")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", StorableTypes()),
                PlaceholderWithDefaultOp);

}  // namespace
}  // namespace rill
