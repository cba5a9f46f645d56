// Add and AddV2 on the CPU with numpy broadcasting (kernels/math_lib/cwise_op.h), for the dtypes
// the conformance suites cover (float32, float64, half, bfloat16, int8/16/32/64, uint8).
// Incompatible shapes are InvalidArgument "Incompatible shapes: [2] vs. [3]". Large adds run in
// parallel over the kernel's intra-op threads (OpKernelContext::ParallelFor).
#include "kernels/math/add_op.h"

#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

struct AddFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return cwise_math::WrapAdd(x, y);  // half arrives as float (cwise_op.h)
  }
};

// The dtypes real graphs use and the conformance suites cover (tests/conformance).
// bfloat16 is added in float and rounded once to nearest even, as Eigen's bfloat16 does.
REGISTER_CWISE_CPU("Add", BinaryOp, AddFunctor, half, bfloat16, float, double, uint8_t, int8_t,
                   int16_t, int32_t, int64_t);
REGISTER_CWISE_CPU("AddV2", BinaryOp, AddFunctor, half, bfloat16, float, double, uint8_t, int8_t,
                   int16_t, int32_t, int64_t);
// int32 on a GPU lives on the host (as TensorFlow's int32 GPU kernels): the CPU kernel adds a
// while loop's counter inside the GPU's partition. NeedsCuda: real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("Add")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", {DT_INT32})
                    .HostMemory("x")
                    .HostMemory("y")
                    .HostMemory("z"),
                BinaryOp<AddFunctor, int32_t>);
REGISTER_KERNEL(KernelDefBuilder("AddV2")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", {DT_INT32})
                    .HostMemory("x")
                    .HostMemory("y")
                    .HostMemory("z"),
                BinaryOp<AddFunctor, int32_t>);

}  // namespace
}  // namespace rill
