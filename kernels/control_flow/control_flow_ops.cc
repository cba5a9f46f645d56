// TF1 control-flow kernels on the CPU. They move tensors; the executor gives them meaning:
//   Switch(data, pred): data goes to output_true (port 1) when pred, else output_false (port 0);
//     the output left unset is dead for its consumers.
//   _SwitchN(data, output_index): data goes to output output_index (the last output when the
//     index is out of range, as TensorFlow's kernel); the other outputs are dead.
//   Merge(inputs...): the executor runs it once any input is live (dead inputs are empty); it
//     forwards the first live input and its index (value_index).
//   Enter, Exit, NextIteration, LoopCond: forward their input; the executor moves the output into
//     the child frame, the parent frame or the next iteration.
//   ControlTrigger: nothing (the executor runs it even when its inputs are dead).
// Ref forms forward the variable's reference. All cheap; every storable dtype and resources.
// The non-ref forms are registered for GPUs too (below).
#include "absl/strings/str_cat.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Writes input `in` to output `out`: the reference itself for a ref input, else the tensor.
void Forward(OpKernelContext& ctx, int in, int out) {
  if (ctx.input_value(in).is_ref()) {
    ctx.forward_ref_input_to_ref_output(in, out);
  } else {
    ctx.set_output(out, ctx.input_value(in).tensor);
  }
}

class SwitchOp final : public OpKernel {
 public:
  explicit SwitchOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  // InvalidArgument when pred is not a scalar (TensorFlow's text).
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& pred = ctx.input(1);
    if (pred.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The second input must be a scalar, but it has shape ", pred.shape().DebugString()));
    }
    Forward(ctx, 0, pred.flat<bool>()[0] ? 1 : 0);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class SwitchNOp final : public OpKernel {
 public:
  explicit SwitchNOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  // InvalidArgument when output_index is not a scalar (TensorFlow's text).
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& index = ctx.input(1);
    if (index.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The second input must be a scalar, but it has shape ", index.shape().DebugString()));
    }
    int32_t out = index.flat<int32_t>()[0];
    if (out < 0 || out >= ctx.num_outputs()) out = ctx.num_outputs() - 1;
    Forward(ctx, 0, out);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class MergeOp final : public OpKernel {
 public:
  explicit MergeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  // Internal when no input is live (the executor never runs it so).
  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      if (!ctx.has_input(i)) continue;
      Forward(ctx, i, 0);
      ctx.set_output(1, Tensor::Scalar<int32_t>(i));
      return absl::OkStatus();
    }
    return absl::InternalError(absl::StrCat("Merge node ", name(), " ran with no live input"));
  }
  bool IsExpensive() const override { return false; }
};

class ForwardOp final : public OpKernel {
 public:
  explicit ForwardOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    Forward(ctx, 0, 0);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// TensorFlow's truth of a tensor (If's and While's predicates): a scalar is true when nonzero
// (strings: non-empty), any other tensor when it has at least one element. A half scalar is
// InvalidArgument "half cannot be converted to a boolean", as in TensorFlow.
class ToBoolOp final : public OpKernel {
 public:
  explicit ToBoolOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    bool truth = in.NumElements() > 0;
    if (in.shape().rank() == 0) {
      if (in.dtype() == DT_STRING) {
        truth = !in.flat<std::string>()[0].empty();
      } else {
        // Any nonzero byte of a numeric scalar, except that floating -0.0 is false too.
        switch (in.dtype()) {
          case DT_FLOAT:
            truth = in.flat<float>()[0] != 0.f;
            break;
          case DT_DOUBLE:
            truth = in.flat<double>()[0] != 0.0;
            break;
          case DT_HALF:
            // TensorFlow 2.21's ToBool has no half scalar conversion.
            return absl::InvalidArgumentError("half cannot be converted to a boolean");
          default: {
            const size_t bytes = DataTypeSize(in.dtype());
            const unsigned char* p = static_cast<const unsigned char*>(in.raw_data());
            truth = false;
            for (size_t i = 0; i < bytes; ++i) truth |= p[i] != 0;
          }
        }
      }
    }
    ctx.set_output(0, Tensor::Scalar<bool>(truth));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class ControlTriggerOp final : public OpKernel {
 public:
  explicit ControlTriggerOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext&) const override { return absl::OkStatus(); }
  bool IsExpensive() const override { return false; }
};

#define REGISTER_FORWARDING_CPU(op, kernel)                                                        \
  REGISTER_KERNEL(KernelDefBuilder(op).Device(kDeviceCpu).TypeConstraint("T", PassThroughTypes()), \
                  kernel)

REGISTER_FORWARDING_CPU("Switch", SwitchOp);
REGISTER_FORWARDING_CPU("RefSwitch", SwitchOp);
REGISTER_FORWARDING_CPU("_SwitchN", SwitchNOp);
REGISTER_FORWARDING_CPU("Merge", MergeOp);
REGISTER_FORWARDING_CPU("RefMerge", MergeOp);
REGISTER_FORWARDING_CPU("Enter", ForwardOp);
REGISTER_FORWARDING_CPU("RefEnter", ForwardOp);
REGISTER_FORWARDING_CPU("Exit", ForwardOp);
REGISTER_FORWARDING_CPU("RefExit", ForwardOp);
REGISTER_FORWARDING_CPU("NextIteration", ForwardOp);
REGISTER_FORWARDING_CPU("RefNextIteration", ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("LoopCond").Device(kDeviceCpu), ForwardOp);
// ToBool: the dtypes TensorFlow's recorded cases cover (and strings).
REGISTER_KERNEL(KernelDefBuilder("ToBool")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING}),
                ToBoolOp);
REGISTER_KERNEL(KernelDefBuilder("ControlTrigger").Device(kDeviceCpu), ControlTriggerOp);

#undef REGISTER_FORWARDING_CPU

// On a GPU the same kernels forward tensors (no GPU work, no sync), registered as TensorFlow
// registers them: float and double data in device memory, int32 data on the host (every int32
// tensor on a GPU lives there), Switch's pred and LoopCond in host memory, so a loop's counter and
// condition stay on the host while its body runs on the GPU. Unlike TensorFlow, bool and variant
// data pass in host memory: a loop's bools (a finished flag, the condition) are made by int32
// comparisons and logical ops, which run on the host (kernels/gpu/compare_ops_gpu.cc), and a
// TensorList's handle is a host object whose elements live on the GPU
// (kernels/gpu/list_ops_gpu.cc), so such loops and a Keras LSTM's lists stay in the GPU's partition
// with no copy inside the loop. Marked NeedsCuda: sessions with simulated GPUs keep control flow on
// the CPU.
const std::vector<DataType> kGpuForwardTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32};
const std::vector<DataType> kGpuHostForwardTypes = {DT_BOOL, DT_VARIANT};
#define REGISTER_FORWARDING_GPU(op, kernel)                                                      \
  REGISTER_KERNEL(                                                                               \
      KernelDefBuilder(op).Device(kDeviceGpu).NeedsCuda().TypeConstraint("T", kGpuForwardTypes), \
      kernel)

REGISTER_KERNEL(KernelDefBuilder("Switch")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", kGpuForwardTypes)
                    .HostMemory("pred"),
                SwitchOp);
REGISTER_KERNEL(KernelDefBuilder("Merge")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", kGpuForwardTypes)
                    .HostMemory("value_index"),
                MergeOp);
REGISTER_FORWARDING_GPU("Enter", ForwardOp);
REGISTER_FORWARDING_GPU("Exit", ForwardOp);
REGISTER_FORWARDING_GPU("NextIteration", ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("Switch")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", kGpuHostForwardTypes)
                    .HostMemory("data")
                    .HostMemory("pred")
                    .HostMemory("output_false")
                    .HostMemory("output_true"),
                SwitchOp);
REGISTER_KERNEL(KernelDefBuilder("Merge")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", kGpuHostForwardTypes)
                    .HostMemory("inputs")
                    .HostMemory("output")
                    .HostMemory("value_index"),
                MergeOp);
#define REGISTER_HOST_FORWARDING_GPU(op)                         \
  REGISTER_KERNEL(KernelDefBuilder(op)                           \
                      .Device(kDeviceGpu)                        \
                      .NeedsCuda()                               \
                      .TypeConstraint("T", kGpuHostForwardTypes) \
                      .HostMemory("data")                        \
                      .HostMemory("output"),                     \
                  ForwardOp)
REGISTER_HOST_FORWARDING_GPU("Enter");
REGISTER_HOST_FORWARDING_GPU("Exit");
REGISTER_HOST_FORWARDING_GPU("NextIteration");
#undef REGISTER_HOST_FORWARDING_GPU
REGISTER_KERNEL(KernelDefBuilder("LoopCond")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("input")
                    .HostMemory("output"),
                ForwardOp);
REGISTER_KERNEL(KernelDefBuilder("ControlTrigger").Device(kDeviceGpu).NeedsCuda(),
                ControlTriggerOp);

#undef REGISTER_FORWARDING_GPU

}  // namespace
}  // namespace rill
