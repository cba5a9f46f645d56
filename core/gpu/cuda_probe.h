// Asks the CUDA runtime how many GPUs this process can use. No toolkit at build time, no driver,
// no GPU, or CUDA_VISIBLE_DEVICES="" all mean 0, never an error (../shared/notes/gpu.md): a
// machine without GPUs runs Rill on its CPUs. Thread-safe.
#ifndef RILL_CORE_GPU_CUDA_PROBE_H_
#define RILL_CORE_GPU_CUDA_PROBE_H_

#include <string>

namespace rill {

// True when Rill was built with the CUDA toolkit (RILL_WITH_CUDA).
bool BuiltWithCuda();
// The number of usable GPUs (0 when none). `why_none`, if non-null, receives the reason when 0.
int CudaDeviceCount(std::string* why_none = nullptr);

}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_PROBE_H_
