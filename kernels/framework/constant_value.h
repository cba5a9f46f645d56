// Const's value, decoded from its NodeDef attrs (`value`, checked against `dtype`) into a tensor
// from `allocator` (host memory), for the CPU kernel (which hands it out) and the GPU kernel
// (which copies it to the device). InvalidArgument naming the node for a missing or malformed
// value or a dtype mismatch: "Type mismatch between value (DT_INT32) and dtype (DT_FLOAT) in
// Const node 'c'". Pure; thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_CONSTANT_VALUE_H_
#define RILL_KERNELS_FRAMEWORK_CONSTANT_VALUE_H_

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/allocator.h"
#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "kernels/framework/op_kernel.h"
#include "ops/attr_value_util.h"

namespace rill {

inline absl::StatusOr<Tensor> ConstValueFromAttrs(OpKernelConstruction& ctx, Allocator* allocator) {
  const AttrValue* value = FindNodeAttr(ctx.def(), "value");
  if (value == nullptr || value->value_case() != AttrValue::kTensor) {
    return absl::InvalidArgumentError(
        absl::StrCat("Const node '", ctx.def().name(), "' has no tensor attr 'value'"));
  }
  DataType dtype = DT_INVALID;
  if (absl::Status s = ctx.GetAttr("dtype", &dtype); !s.ok()) return s;
  if (value->tensor().dtype() != dtype) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Type mismatch between value (", DataTypeString(value->tensor().dtype()), ") and dtype (",
        DataTypeString(dtype), ") in Const node '", ctx.def().name(), "'"));
  }
  absl::StatusOr<Tensor> t = TensorFromProto(value->tensor(), allocator);
  if (!t.ok()) {
    return absl::Status(t.status().code(), absl::StrCat("Const node '", ctx.def().name(),
                                                        "': ", t.status().message()));
  }
  return t;
}

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_CONSTANT_VALUE_H_
