// TensorList kernels on a GPU (kernels/lists/list_kernels.h), registered as TensorFlow registers
// them and with the list handle in host memory too: the handle (a host object), index,
// element_shape, num_elements and the int32/shape outputs live in host memory, the element tensors
// in the GPU's memory. GetItem, SetItem, PushBack, PopBack, Reserve, Length and ElementShape move
// no element data (an element is a shared tensor); FromTensor and Stack copy elements and an unset
// element reads as zeros, enqueued on the compute stream (cudaMemcpyAsync, cudaMemsetAsync), so no
// list op waits for the GPU. Reading an element that is not in this GPU's memory (a list made on
// another device) is InvalidArgument naming the node. Element dtypes half, float, double, int64,
// bool (int32 elements would live on the host: their lists stay on the CPU).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_stream.h"
#include "core/gpu/gpu_device.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/lists/list_kernels.h"

namespace rill {
namespace {

absl::StatusOr<GpuDevice*> GpuOf(OpKernelContext& ctx) {
  GpuDevice* gpu = AsGpuDevice(ctx.device());
  if (gpu == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat(ctx.kernel().type_string(), " node ", ctx.kernel().name(),
                     " has only a CUDA kernel on ", ctx.device()->name(),
                     ", which is not a CUDA GPU (a simulated GPU); pin the node to a CPU"));
  }
  return gpu;
}

char* At(const Tensor& t, int64_t element) {
  return static_cast<char*>(t.raw_data()) + element * static_cast<int64_t>(DataTypeSize(t.dtype()));
}

struct GpuListElements {
  static absl::Status Copy(OpKernelContext& ctx, const Tensor& src, int64_t src_off, Tensor* dst,
                           int64_t dst_off, int64_t n) {
    if (n <= 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(GpuDevice * gpu, GpuOf(ctx));
    std::string error;
    if (!gpu_internal::CudaMemcpyAsync(
            gpu->platform_id(), At(*dst, dst_off), At(src, src_off), n * DataTypeSize(src.dtype()),
            gpu_internal::CudaCopy::kDeviceToDevice, gpu->compute_stream(), &error)) {
      return gpu->CudaError(absl::StrCat("copying list elements in ", ctx.kernel().name()), error);
    }
    return absl::OkStatus();
  }
  static absl::Status Zero(OpKernelContext& ctx, Tensor* dst, int64_t off, int64_t n) {
    if (n <= 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(GpuDevice * gpu, GpuOf(ctx));
    std::string error;
    if (!gpu_internal::CudaMemsetAsync(gpu->platform_id(), At(*dst, off), 0,
                                       n * DataTypeSize(dst->dtype()), gpu->compute_stream(),
                                       &error)) {
      return gpu->CudaError(absl::StrCat("zeroing list elements in ", ctx.kernel().name()), error);
    }
    return absl::OkStatus();
  }
  static absl::Status CheckItem(OpKernelContext& ctx, const Tensor& item, int64_t index) {
    if (item.TotalBytes() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(GpuDevice * gpu, GpuOf(ctx));
    int platform_id = -1;
    std::string error;
    if (!gpu_internal::CudaPointerMemory(item.raw_data(), &platform_id, &error)) {
      return gpu->CudaError(
          absl::StrCat("finding the memory of element ", index, " read by ", ctx.kernel().name()),
          error);
    }
    if (platform_id == gpu->platform_id()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        ctx.kernel().type_string(), " node ", ctx.kernel().name(), " on ", ctx.device()->name(),
        " read element ", index, " of a list whose elements are in ",
        platform_id < 0 ? std::string("host memory")
                        : absl::StrCat("the memory of GPU ", platform_id),
        ": the list was made on another device; place the list's ops on one device"));
  }
};

using namespace list_kernels;  // NOLINT: the kernel classes of this file's registrations

const std::vector<DataType> kElementTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL};

#define RILL_GPU_LIST_KERNEL(builder, ...)                                                     \
  REGISTER_KERNEL(                                                                             \
      (builder).Device(kDeviceGpu).NeedsCuda().TypeConstraint("element_dtype", kElementTypes), \
      __VA_ARGS__)

RILL_GPU_LIST_KERNEL(KernelDefBuilder("EmptyTensorList")
                         .HostMemory("element_shape")
                         .HostMemory("max_num_elements")
                         .HostMemory("handle"),
                     NewListOp);
RILL_GPU_LIST_KERNEL(KernelDefBuilder("TensorListReserve")
                         .HostMemory("element_shape")
                         .HostMemory("num_elements")
                         .HostMemory("handle"),
                     NewListOp);
RILL_GPU_LIST_KERNEL(KernelDefBuilder("TensorListFromTensor")
                         .HostMemory("element_shape")
                         .HostMemory("output_handle"),
                     FromTensorOp<GpuListElements>);
RILL_GPU_LIST_KERNEL(KernelDefBuilder("TensorListGetItem")
                         .HostMemory("input_handle")
                         .HostMemory("index")
                         .HostMemory("element_shape"),
                     GetItemOp<GpuListElements>);
RILL_GPU_LIST_KERNEL(KernelDefBuilder("TensorListSetItem")
                         .HostMemory("input_handle")
                         .HostMemory("index")
                         .HostMemory("output_handle"),
                     SetItemOp);
RILL_GPU_LIST_KERNEL(
    KernelDefBuilder("TensorListStack").HostMemory("input_handle").HostMemory("element_shape"),
    StackOp<GpuListElements>);
RILL_GPU_LIST_KERNEL(
    KernelDefBuilder("TensorListPushBack").HostMemory("input_handle").HostMemory("output_handle"),
    PushBackOp);
RILL_GPU_LIST_KERNEL(KernelDefBuilder("TensorListPopBack")
                         .HostMemory("input_handle")
                         .HostMemory("element_shape")
                         .HostMemory("output_handle"),
                     PopBackOp<GpuListElements>);
#undef RILL_GPU_LIST_KERNEL
// No element_dtype attr: any list's length and element shape, all in host memory.
REGISTER_KERNEL(KernelDefBuilder("TensorListLength")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("input_handle")
                    .HostMemory("length"),
                LengthOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListElementShape")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("input_handle")
                    .HostMemory("element_shape"),
                ElementShapeOp);

}  // namespace
}  // namespace rill
