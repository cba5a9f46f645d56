// Const on the CPU: the `value` tensor is decoded once, when the kernel is built, and every run
// hands out that same (shared, immutable) tensor. Cheap: runs inline on the executor's thread.
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/tensor_proto.h"
#include "kernels/kernel_registry.h"
#include "kernels/type_lists.h"

namespace rill {
namespace {

class ConstOp final : public OpKernel {
 public:
  // InvalidArgument naming the node for a missing or malformed `value`, or when `dtype` differs
  // from the value's dtype.
  explicit ConstOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const AttrValue* value = FindNodeAttr(ctx.def(), "value");
    if (value == nullptr || value->value_case() != AttrValue::kTensor) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("Const node '", ctx.def().name(), "' has no tensor attr 'value'")));
      return;
    }
    DataType dtype = DT_INVALID;
    if (absl::Status s = ctx.GetAttr("dtype", &dtype); !s.ok()) {
      ctx.SetStatus(s);
      return;
    }
    if (value->tensor().dtype() != dtype) {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat(
          "Type mismatch between value (", DataTypeString(value->tensor().dtype()), ") and dtype (",
          DataTypeString(dtype), ") in Const node '", ctx.def().name(), "'")));
      return;
    }
    absl::StatusOr<Tensor> t = TensorFromProto(value->tensor(), ctx.device()->allocator());
    if (!t.ok()) {
      ctx.SetStatus(absl::Status(t.status().code(), absl::StrCat("Const node '", ctx.def().name(),
                                                                 "': ", t.status().message())));
      return;
    }
    tensor_ = *std::move(t);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, tensor_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  Tensor tensor_;  // Never written after construction; shared with every run's output.
};

REGISTER_KERNEL(
    KernelDefBuilder("Const").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()), ConstOp);

}  // namespace
}  // namespace rill
