// Add and AddV2 on the CPU with numpy broadcasting (kernels/cwise_op.h), for every dtype their
// OpDefs allow (Add also concatenates strings). Incompatible shapes are InvalidArgument
// "Incompatible shapes: [2] vs. [3]". Large adds run in parallel on the intra-op pool.
#include "kernels/add_op.h"

#include "kernels/cwise_op.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

struct AddFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(const T& x, const T& y) const {
    return AddValues(x, y);
  }
};

REGISTER_KERNEL(KernelDefBuilder("Add")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8,
                                          DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_COMPLEX64,
                                          DT_COMPLEX128, DT_STRING}),
                BinaryOp<AddFunctor, bfloat16, half, float, double, uint8_t, int8_t, int16_t,
                         int32_t, int64_t, complex64, complex128, std::string>);
REGISTER_KERNEL(KernelDefBuilder("AddV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8,
                                          DT_UINT16, DT_UINT32, DT_UINT64, DT_INT8, DT_INT16,
                                          DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128}),
                BinaryOp<AddFunctor, bfloat16, half, float, double, uint8_t, uint16_t, uint32_t,
                         uint64_t, int8_t, int16_t, int32_t, int64_t, complex64, complex128>);

}  // namespace
}  // namespace rill
