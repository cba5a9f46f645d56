#include "kernels/op_kernel.h"

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace rill {

Tensor TensorValue::Get() const {
  if (ref == nullptr) return tensor;
  rill::ReaderMutexLock lock(ref_mu);
  return *ref;
}

OpKernel::OpKernel(OpKernelConstruction& ctx)
    : def_(ctx.def()), input_types_(ctx.input_types()), output_types_(ctx.output_types()) {}

absl::StatusOr<Tensor*> OpKernelContext::allocate_output(int i, const TensorShape& shape) {
  RILL_ASSIGN_OR_RETURN(Tensor t, allocate_temp(BaseType(kernel().output_type(i)), shape));
  outputs_[i].tensor = std::move(t);
  return &outputs_[i].tensor;
}

absl::StatusOr<Tensor> OpKernelContext::allocate_temp(DataType dtype, const TensorShape& shape) {
  absl::StatusOr<Tensor> t = Tensor::AllocateUninitialized(device()->allocator(), dtype, shape);
  if (!t.ok() && t.status().code() == absl::StatusCode::kResourceExhausted) {
    return absl::ResourceExhaustedError(absl::StrCat(
        t.status().message(), " by node ", kernel().name(), " (", kernel().type_string(),
        ") on device ", device()->name(), "\nAllocator ", device()->allocator()->Name(),
        " stats:\n", device()->allocator()->GetStats().DebugString()));
  }
  return t;
}

}  // namespace rill
