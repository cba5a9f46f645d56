// Convolutions through cuDNN's graph (backend) API, for cuda_dnn.cu: one operation graph per
// (handle, shape), its execution plan chosen once from cuDNN's heuristics (mode A) and kept, so a
// run only packs the three pointers and executes. The legacy cudnnConvolutionForward builds this
// state on every call inside cuDNN 9; the plan here is built once. Included only by .cu files.
//
// Chosen with RILL_CUDNN_API=graph in the environment (Rill-only); without it Rill uses the legacy
// API. A shape the graph API has no engine for falls back to the legacy API (GraphConvPlan
// returns false with no error). Thread-safe.
#ifndef RILL_CORE_GPU_CUDA_DNN_GRAPH_H_
#define RILL_CORE_GPU_CUDA_DNN_GRAPH_H_

#include <cstddef>
#include <string>

#include "core/gpu/cuda_dnn.h"

namespace rill {
namespace gpu_internal {

// Whether RILL_CUDNN_API=graph is set (read once).
bool UseCudnnGraphApi();

// Plans `shape` on `handle` (a cudnnHandle_t) for tensors whose pointers are aligned to
// `alignment` bytes. True with the plan's workspace bytes when cuDNN has an engine for it; false
// with *error empty when none qualifies (the caller falls back to the legacy API), false with
// *error set on a cuDNN failure. `tensor_ops`: whether tensor-core engines may run it (float16,
// or TF32 when allowed).
bool GraphConvPlan(void* handle, const DnnConvShape& shape, int64_t alignment, bool tensor_ops,
                   size_t* workspace_bytes, std::string* error);

// Drops the plans made on `handle` (before cudnnDestroy: a later handle may reuse its address).
void GraphConvForget(void* handle);

// Runs the plan GraphConvPlan made for (handle, shape, alignment) on the handle's stream.
bool GraphConvForward(void* handle, const DnnConvShape& shape, int64_t alignment, const void* input,
                      const void* filter, void* output, void* workspace, std::string* error);

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_DNN_GRAPH_H_
