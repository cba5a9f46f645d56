// cuDNN calls Rill's GPU convolutions make, implemented by cuda_dnn.cu, so host-compiled code needs
// no cuDNN headers. Only built with a CUDA toolkit. cuDNN is opened with dlopen when a GPU first
// convolves (CUDA 13's cuDNN 9: libcudnn.so.9, then libcudnn.so, through the usual library search
// path; stderr names the file loaded), never at program start: the same binary runs on hosts
// without it. On failure a call returns false with the reason in *error (cuDNN's status text, or
// how to install cuDNN when it could not be loaded).
//
// Float32 convolutions run in strict float32 (CUDNN_FMA_MATH: no TF32 tensor-core rounding) so a
// graph's GPU results match its CPU results to float32 rounding; RILL_GPU_TF32=1 in the
// environment (Rill-only) lets cuDNN use TF32 for them, as TensorFlow does by default. Float16
// convolutions accumulate in float32.
//
// A handle is bound to one stream. Algorithms are chosen once per (GPU, shape) by cuDNN's
// heuristics and cached for the process. With RILL_CUDNN_API=graph (Rill-only) convolutions run
// through cuDNN's graph API with one execution plan per (handle, shape) (cuda_dnn_graph.h),
// falling back to the legacy API for shapes it has no engine for. Thread-safe.
#ifndef RILL_CORE_GPU_CUDA_DNN_H_
#define RILL_CORE_GPU_CUDA_DNN_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>

namespace rill {
namespace gpu_internal {

// One 2-D cross-correlation as cuDNN runs it: NHWC activations, an OHWI filter ([out_depth,
// filter_rows, filter_cols, in_depth / groups]), symmetric zero padding (callers pad the input
// themselves for asymmetric padding). Float32 tensors, or float16 (`half`) accumulated in float32
// (tensor cores allowed). Every size fits in an int (callers check with FitsCudnn).
struct DnnConvShape {
  bool half = false;
  int64_t batch = 0, in_rows = 0, in_cols = 0, in_depth = 0;
  int64_t out_rows = 0, out_cols = 0, out_depth = 0;
  int64_t filter_rows = 0, filter_cols = 0, groups = 1;
  int64_t pad_rows = 0, pad_cols = 0;
  int64_t stride_rows = 1, stride_cols = 1, dilation_rows = 1, dilation_cols = 1;
  // The largest power of two up to 16 that divides the input, filter and output addresses
  // (PointerAlignment): the graph API plans for it.
  int64_t alignment = 16;

  auto Key() const {
    return std::make_tuple(half, batch, in_rows, in_cols, in_depth, out_rows, out_cols, out_depth,
                           filter_rows, filter_cols, groups, pad_rows, pad_cols, stride_rows,
                           stride_cols, dilation_rows, dilation_cols, alignment);
  }
};

// The largest power of two up to 16 dividing every address in `pointers`.
inline int64_t PointerAlignment(std::initializer_list<const void*> pointers) {
  int64_t alignment = 16;
  for (const void* p : pointers) {
    while (alignment > 1 && reinterpret_cast<uintptr_t>(p) % alignment != 0) alignment /= 2;
  }
  return alignment;
}

// Whether every tensor of `shape` has fewer than 2^31 elements (cuDNN's descriptors take ints).
bool FitsCudnn(const DnnConvShape& shape);

bool CudnnCreate(int platform_id, void* stream, void** handle, std::string* error);
void CudnnDestroy(int platform_id, void* handle);

// The algorithm for `shape` on this handle's GPU and the workspace (bytes of device memory) it
// needs; cached per (platform_id, shape).
bool CudnnConvPlan(int platform_id, void* handle, const DnnConvShape& shape, int* algorithm,
                   size_t* workspace_bytes, std::string* error);

// output = conv(input, filter) with the planned algorithm, enqueued on the handle's stream.
// `workspace` holds at least the planned bytes (may be null when they are 0).
bool CudnnConvForward(int platform_id, void* handle, const DnnConvShape& shape, int algorithm,
                      const void* input, const void* filter, void* output, void* workspace,
                      size_t workspace_bytes, std::string* error);

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_DNN_H_
