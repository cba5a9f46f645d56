#include "kernels/framework/op_kernel.h"

#include <cstdint>
#include <sstream>
#include <string>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace rill {

Tensor TensorValue::Get() const {
  if (ref == nullptr) return tensor;
  rill::ReaderMutexLock lock(ref_mu);
  return *ref;
}

namespace {

// The NodeDef a kernel keeps as def(): ctx.def(), except that a Const's `value` is left out. Const
// kernels (CPU and GPU) decode the value from ctx.def() in their constructors into the tensor they
// hand out, and nothing reads it from def() later: kept, it would hold every weight of a model a
// second time for the session's life.
NodeDef KernelNodeDef(const NodeDef& def) {
  if (def.op() != "Const" || !def.attr().contains("value")) return def;
  NodeDef out;
  out.set_name(def.name());
  out.set_op(def.op());
  *out.mutable_input() = def.input();
  out.set_device(def.device());
  for (const auto& [name, value] : def.attr()) {
    if (name != "value") (*out.mutable_attr())[name] = value;
  }
  if (def.has_experimental_debug_info()) {
    *out.mutable_experimental_debug_info() = def.experimental_debug_info();
  }
  if (def.has_experimental_type()) *out.mutable_experimental_type() = def.experimental_type();
  return out;
}

}  // namespace

OpKernel::OpKernel(OpKernelConstruction& ctx)
    : def_(KernelNodeDef(ctx.def())),
      input_types_(ctx.input_types()),
      output_types_(ctx.output_types()) {}

OpKernelContext::OpKernelContext(const Params* params, int num_outputs)
    : params_(params), outputs_(num_outputs) {
  absl::Span<const TensorValue> inputs = params_->inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].is_ref()) continue;
    if (ref_values_.empty()) ref_values_.resize(inputs.size());
    ref_values_[i] = inputs[i].Get();
  }
}

absl::StatusOr<Tensor*> OpKernelContext::forward_input_or_allocate_output(
    std::initializer_list<int> candidates, int o, const TensorShape& shape) {
  // A host-memory output of a non-CPU kernel is never an input's device buffer.
  if (OutputInHostMemory(o)) return allocate_output(o, shape);
  const DataType dtype = BaseType(kernel().output_type(o));
  absl::Span<const TensorValue> inputs = params_->inputs;
  Allocator* device_allocator = nullptr;  // looked up once a candidate gets that far
  for (int i : candidates) {
    const TensorValue& v = inputs[i];
    // Cheap rejections first: a ref, another dtype or element count.
    if (v.is_ref() || v.tensor.dtype() != dtype || v.tensor.NumElements() != shape.num_elements()) {
      continue;
    }
    // Held by this node's input slots alone (x + x holds one buffer in two slots); a single
    // holder is this slot.
    const long holders = v.tensor.BufferHolders();
    if (holders != 1) {
      long in_slots = 0;
      for (const TensorValue& w : inputs) {
        in_slots += !w.is_ref() && w.tensor.SharesBufferWith(v.tensor);
      }
      if (holders != in_slots) continue;
    }
    if (device_allocator == nullptr) device_allocator = device()->allocator();
    if (v.tensor.allocator() != device_allocator) continue;
    if (v.tensor.shape() == shape) {
      outputs_[o].tensor = v.tensor;
      return &outputs_[o].tensor;
    }
    absl::StatusOr<Tensor> reshaped = v.tensor.Reshaped(shape);
    if (!reshaped.ok()) continue;
    outputs_[o].tensor = *std::move(reshaped);
    return &outputs_[o].tensor;
  }
  return allocate_output(o, shape);
}

absl::StatusOr<Tensor*> OpKernelContext::allocate_output(int i, const TensorShape& shape) {
  const DataType dtype = BaseType(kernel().output_type(i));
  if (OutputInHostMemory(i)) {
    RILL_ASSIGN_OR_RETURN(outputs_[i].tensor,
                          Tensor::AllocateUninitialized(CpuAllocator::Default(), dtype, shape));
    return &outputs_[i].tensor;
  }
  RILL_ASSIGN_OR_RETURN(Tensor t, allocate_temp(dtype, shape));
  outputs_[i].tensor = std::move(t);
  return &outputs_[i].tensor;
}

namespace {

// The bytes of a tensor of `shape` and `dtype`, exact past int64 (2^62 floats: 2^64 bytes).
std::string ByteCount(const TensorShape& shape, DataType dtype) {
  std::ostringstream bytes;
  bytes << absl::uint128(static_cast<uint64_t>(shape.num_elements())) *
               static_cast<uint64_t>(DataTypeSize(dtype));
  return bytes.str();
}

}  // namespace

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
        allocator->Name(), " (", ByteCount(shape, dtype), " bytes) in node ", kernel().name(), " (",
        kernel().type_string(), ")\nAllocator ", allocator->Name(), " stats:\n",
        stats.DebugString(),
        "\nFree memory on the device or lower what the graph keeps live at once (batch size, "
        "tensor sizes); for a GPU, a larger per_process_gpu_memory_fraction or memory_limit_mb "
        "gives the allocator more room."));
  }
  return t;
}

}  // namespace rill
