// The --memory_stats table of session_runner: one line per device with its allocator's figures
// in MiB, so users see what each GPU reserved (the seeds' allow_growth and
// per_process_gpu_memory_fraction) and what their graph used at peak.
//
//   device                                         allocator  in use    peak      reserved  limit     largest free  allocs
//   /job:localhost/replica:0/task:0/device:GPU:0   GPU_0_bfc  0.0 MiB   ...
//
// Pure function; thread-safe.
#ifndef RILL_TOOLS_SESSION_RUNNER_MEMORY_REPORT_H_
#define RILL_TOOLS_SESSION_RUNNER_MEMORY_REPORT_H_

#include <string>
#include <vector>

#include "session/session.h"

namespace rill {

// A header line and one line per device; "-" where the allocator has no such figure (the host
// allocator reserves nothing ahead and has no limit).
std::string MemoryReport(const std::vector<DeviceMemoryStats>& devices);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_MEMORY_REPORT_H_
