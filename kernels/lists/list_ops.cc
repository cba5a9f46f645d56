// TensorList kernels on the CPU (kernels/lists/list_kernels.h): element data moves with
// std::copy_n and std::fill_n.
#include <cstdint>

#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/lists/list_kernels.h"

namespace rill {
namespace {

struct CpuListElements {
  static absl::Status Copy(OpKernelContext&, const Tensor& src, int64_t src_off, Tensor* dst,
                           int64_t dst_off, int64_t n) {
    return CopyElements(src, src_off, dst, dst_off, n);
  }
  static absl::Status Zero(OpKernelContext&, Tensor* dst, int64_t off, int64_t n) {
    return ZeroElements(dst, off, n);
  }
  // Not checked: telling device pointers needs CUDA. A list's ops of one element dtype all have
  // GPU kernels or none, so a GPU's lists stay there (kernels/gpu/list_ops_gpu.cc).
  static absl::Status CheckItem(OpKernelContext&, const Tensor&, int64_t) {
    return absl::OkStatus();
  }
};

using namespace list_kernels;  // NOLINT: the kernel classes of this file's registrations

REGISTER_KERNEL(KernelDefBuilder("EmptyTensorList").Device(kDeviceCpu), NewListOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListReserve").Device(kDeviceCpu), NewListOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListFromTensor").Device(kDeviceCpu),
                FromTensorOp<CpuListElements>);
REGISTER_KERNEL(KernelDefBuilder("TensorListGetItem").Device(kDeviceCpu),
                GetItemOp<CpuListElements>);
REGISTER_KERNEL(KernelDefBuilder("TensorListSetItem").Device(kDeviceCpu), SetItemOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListStack").Device(kDeviceCpu), StackOp<CpuListElements>);
REGISTER_KERNEL(KernelDefBuilder("TensorListConcatV2").Device(kDeviceCpu),
                ConcatOp<CpuListElements>);
REGISTER_KERNEL(KernelDefBuilder("TensorListConcat").Device(kDeviceCpu), ConcatOp<CpuListElements>);
REGISTER_KERNEL(KernelDefBuilder("TensorListSplit").Device(kDeviceCpu), SplitOp<CpuListElements>);
REGISTER_KERNEL(KernelDefBuilder("TensorListLength").Device(kDeviceCpu), LengthOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListElementShape").Device(kDeviceCpu), ElementShapeOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListPushBack").Device(kDeviceCpu), PushBackOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListPopBack").Device(kDeviceCpu),
                PopBackOp<CpuListElements>);

}  // namespace
}  // namespace rill
