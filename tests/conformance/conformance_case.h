// Replays one ConformanceCase (recorded from TensorFlow by tests/tfgen/make_kernel_conformance.py)
// through a Rill Session and compares with TensorFlow's result: the outputs (dtype, shape, values
// within the case's tolerance) or the error (code and key phrases).
//
//   RILL_ASSIGN_OR_RETURN(std::vector<ConformanceSuite> suites, LoadSuites(paths));
//   std::string mismatch = RunConformanceCase(suite.case_(0));  // "" when Rill agrees
//
// Thread safety: functions are reentrant; each run makes its own Session.
#ifndef RILL_TESTS_CONFORMANCE_CONFORMANCE_CASE_H_
#define RILL_TESTS_CONFORMANCE_CONFORMANCE_CASE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "session/session.h"
#include "tests/conformance/conformance.pb.h"

namespace rill {

// The text of `path`, gunzipped when it is gzip-compressed. NotFound when it cannot be read,
// DataLoss when the compressed stream is corrupt.
absl::StatusOr<std::string> ReadTextMaybeGzipped(const std::string& path);

// Parses each text-format ConformanceSuite file. InvalidArgument names the file that does not
// parse; NotFound one that cannot be read.
absl::StatusOr<std::vector<ConformanceSuite>> LoadSuites(const std::vector<std::string>& paths);

// "" when `got` matches `want` (TensorFlow's) under the tolerances; otherwise what differs, e.g.
// "output 0 element 3: got 1.5, want 1.25 (rtol 1e-06, atol 0)".
std::string CompareTensors(int output, const Tensor& got, const Tensor& want, double rtol,
                           double atol);

// Runs the case in a session made with `options`; "" when Rill agrees with TensorFlow, else a
// description of the disagreement.
std::string RunConformanceCase(const ConformanceCase& c,
                               const SessionOptions& options = SessionOptions());

}  // namespace rill

#endif  // RILL_TESTS_CONFORMANCE_CONFORMANCE_CASE_H_
