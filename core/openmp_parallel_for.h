// Intra-op parallelism on an OpenMP team (libgomp, the runtime oneDNN is built against). There is
// no intra-op thread pool: a kernel's OpKernelContext::ParallelFor, Gemm's blocks
// (kernels/math_lib/gemm.h) and oneDNN's primitives all run on the OpenMP team of the thread that
// calls them, intra_op_parallelism_threads threads counting that thread. One team means a kernel
// that follows a convolution finds the workers still spinning, instead of waking a second set of
// threads that would compete with them for the same cores.
//
//   OpenMpParallelFor(threads, n, /*cost_per_unit=*/20, [&](int64_t b, int64_t e) { ... });
//
// Calls fn on disjoint blocks covering [0, total) (sized as ThreadPool::ParallelFor sizes them),
// claimed by a team of `threads` (the calling thread and threads - 1 OpenMP workers); returns when
// all are done. Inside another parallel region the team is the calling thread alone. Under
// ThreadSanitizer (RILL_TSAN) the blocks run on the calling thread: libgomp is not instrumented.
// Thread-safe; fn must be safe to call concurrently on disjoint blocks.
//
// Float mode: every thread of a team computes with the subnormal mode (FTZ/DAZ, core/denormal.h)
// of the thread that opened it. Each worker takes that mode at the start of its share and keeps it
// after (libgomp's workers are Rill's to run kernels on), so a kernel run under the executor's
// ScopedFlushDenormal flushes on all its threads, as on TensorFlow's.
#ifndef RILL_CORE_OPENMP_PARALLEL_FOR_H_
#define RILL_CORE_OPENMP_PARALLEL_FOR_H_

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace rill {

void OpenMpParallelFor(int threads, int64_t total, int64_t cost_per_unit,
                       absl::FunctionRef<void(int64_t begin, int64_t end)> fn);

// Calls fn(block) for every block in [0, blocks) on an OpenMP team of `blocks` threads (the
// calling thread and blocks - 1 workers), block i on team thread i; inside another parallel
// region (or under TSan) the calling thread runs them all in order. For work already cut into
// one equal piece per thread (Gemm's row blocks and bands). Thread-safe.
void OpenMpRunBlocks(int64_t blocks, absl::FunctionRef<void(int64_t block)> fn);

// For teams Rill does not open itself (oneDNN's primitives): gives the workers of this thread's
// teams of up to `threads` threads this thread's subnormal mode, by one empty region the first
// time a thread asks for that many workers in that mode (workers libgomp starts later inherit the
// mode of the thread starting them). Call before a library opens a team of `threads`. A no-op
// under TSan. Thread-safe (the state is per thread).
void OpenMpMatchTeamFloatMode(int threads);

}  // namespace rill

#endif  // RILL_CORE_OPENMP_PARALLEL_FOR_H_
