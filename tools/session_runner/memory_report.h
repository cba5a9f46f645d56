// The --memory_stats table of session_runner: one line per device with its allocator's figures
// in MiB, so users see what each GPU reserved (the seeds' allow_growth and
// per_process_gpu_memory_fraction) and what their graph used at peak.
//
//   device                                         allocator  in use    peak      reserved  limit
//   largest free  allocs /job:localhost/replica:0/task:0/device:GPU:0   GPU_0_bfc  0.0 MiB   ...
//
// Pure function; thread-safe.
#ifndef RILL_TOOLS_SESSION_RUNNER_MEMORY_REPORT_H_
#define RILL_TOOLS_SESSION_RUNNER_MEMORY_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "session/session.h"

namespace rill {

// A header line and one line per device; "-" where the allocator has no such figure (the host
// allocator reserves nothing ahead and has no limit).
std::string MemoryReport(const std::vector<DeviceMemoryStats>& devices);

// The process's resident set in bytes (Linux /proc/self/statm), or -1 where it cannot be read:
// what the allocators do not see (the C library's heap, thread stacks, caches) shows up here, so
// a leak outside the allocators is visible as growth across runs.
int64_t ProcessResidentBytes();
// "process resident set: 123.4 MiB\n" ("unknown" for -1).
std::string ResidentLine(int64_t bytes);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_MEMORY_REPORT_H_
