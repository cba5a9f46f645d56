// The properties a structure-aware fuzz target checks on one generated graph, run the user's way:
// the GraphDef is serialized and goes through ParseGraphDefBytes, Session::New, Create and Run
// (twice, to compare), then Close.
//
// - every failure is an absl::Status with a message;
// - nothing blocks: a Run never ends in DeadlineExceeded (callers set operation_timeout_in_ms);
// - for a deterministic graph, the second Run of the same signature fails too or returns
//   bit-identical outputs (no state lost or leaked across runs, including after a failure; the
//   codes of two failures may differ when several nodes fail, as the schedule decides which one
//   reports first).
// A failed check aborts (FUZZ_CHECK), which libFuzzer and the smoke driver report as a crash.
#ifndef RILL_TESTS_FUZZ_SESSION_CHECK_H_
#define RILL_TESTS_FUZZ_SESSION_CHECK_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"

namespace rill {
namespace fuzz {

// Counters printed at exit by the target that owns them.
struct SessionCounters {
  std::atomic<int64_t> inputs{0};
  std::atomic<int64_t> created{0};  // Session::Create succeeded
  std::atomic<int64_t> ran{0};      // reached Session::Run
  std::atomic<int64_t> ran_ok{0};   // Session::Run succeeded
};

struct RunOutcome {
  absl::StatusCode create_code = absl::StatusCode::kOk;
  absl::StatusCode run_code = absl::StatusCode::kOk;
  std::string fingerprint;  // the outputs' dtypes, shapes and byte hashes when the run succeeded
};

// Each output's dtype, shape and a hash of its bytes (strings element by element): equal tensors
// (NaN payloads included) give equal strings, without copying the outputs.
std::string Fingerprint(const std::vector<Tensor>& outputs);

// Runs `graph` under `config` as described above. `counters` may be null (a differential rerun
// is not counted). With `deterministic` false only the status properties are checked.
RunOutcome CheckedCreateAndRun(const GraphDef& graph, const ConfigProto& config,
                               const std::vector<std::pair<std::string, Tensor>>& feeds,
                               const std::vector<std::string>& fetches, bool deterministic,
                               SessionCounters* counters);

}  // namespace fuzz
}  // namespace rill

#endif  // RILL_TESTS_FUZZ_SESSION_CHECK_H_
