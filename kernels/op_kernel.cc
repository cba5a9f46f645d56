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
  Allocator* allocator = device()->allocator();
  absl::StatusOr<Tensor> t = Tensor::AllocateUninitialized(allocator, dtype, shape);
  if (!t.ok() && t.status().code() == absl::StatusCode::kResourceExhausted) {
    // TensorFlow's sentence first (spec §7.6), then what it leaves to a log: the bytes, the node
    // and the allocator's figures, so the error alone says what ran out and by how much.
    const AllocatorStats stats = allocator->GetStats();
    return absl::ResourceExhaustedError(absl::StrCat(
        "OOM when allocating tensor with shape", shape.DebugString(), " and type ",
        DataTypeString(BaseType(dtype)), " on ", device()->name(), " by allocator ",
        allocator->Name(), " (", shape.num_elements() * static_cast<int64_t>(DataTypeSize(dtype)),
        " bytes) in node ", kernel().name(), " (", kernel().type_string(), ")\nAllocator ",
        allocator->Name(), " stats:\n", stats.DebugString(),
        "\nFree memory on the device or lower what the graph keeps live at once (batch size, "
        "tensor sizes); for a GPU, a larger per_process_gpu_memory_fraction or memory_limit_mb "
        "gives the allocator more room."));
  }
  return t;
}

}  // namespace rill
