// Converts RunMetadata step stats into a Chrome trace (the JSON "Trace Event Format" that
// chrome://tracing and ui.perfetto.dev open): one process per device, one track (thread) per
// executor thread, one complete event ("ph":"X") per node execution, named "<node> (<op>)" with
// the op in "args". _Send/_Recv events show the copies between devices. Pure; thread-safe.
#ifndef RILL_TOOLS_SESSION_RUNNER_CHROME_TRACE_H_
#define RILL_TOOLS_SESSION_RUNNER_CHROME_TRACE_H_

#include <string>

#include "proto/step_stats.pb.h"

namespace rill {

std::string StepStatsToChromeTrace(const StepStats& stats);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_CHROME_TRACE_H_
