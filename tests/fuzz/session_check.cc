#include "tests/fuzz/session_check.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "absl/hash/hash.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/tensor_proto.h"
#include "core/variant.h"
#include "graph/graph_file.h"
#include "session/session.h"
#include "tests/fuzz/fuzz_check.h"

namespace rill {
namespace fuzz {

std::string Fingerprint(const std::vector<Tensor>& outputs) {
  // Hashes of the bytes, not copies of them: an output of hundreds of MB must not double the
  // memory the target may use. Strings and variants (by their DebugString) are hashed element by
  // element; other non-numeric dtypes through their proto.
  const absl::Hash<absl::string_view> hash;
  std::string out;
  for (const Tensor& t : outputs) {
    size_t h = 0;
    if (!t.IsInitialized()) {
      h = 0;
    } else if (t.dtype() == DT_STRING) {
      for (const std::string& s : t.flat<std::string>()) h = h * 1000003 ^ hash(s);
    } else if (t.dtype() == DT_VARIANT) {  // by value: the elements hold pointers
      for (const Variant& v : t.flat<Variant>()) h = h * 1000003 ^ hash(v.DebugString());
    } else if (DataTypeSize(t.dtype()) > 0) {
      h = hash(absl::string_view(static_cast<const char*>(t.raw_data()), t.TotalBytes()));
    } else {
      TensorProto p;
      TensorToProto(t, &p, /*use_tensor_content=*/true);
      h = hash(p.SerializeAsString());
    }
    absl::StrAppend(&out, DataTypeString(t.dtype()), t.shape().DebugString(), ":", h, "\n");
  }
  return out;
}

RunOutcome CheckedCreateAndRun(const GraphDef& graph_def, const ConfigProto& config,
                               const std::vector<std::pair<std::string, Tensor>>& feeds,
                               const std::vector<std::string>& fetches, bool deterministic,
                               SessionCounters* counters) {
  RunOutcome result;
  // A GraphDef too large to serialize (over protobuf's 2 GB) cannot be made by these generators.
  absl::StatusOr<GraphDef> graph = ParseGraphDefBytes(graph_def.SerializeAsString(), "fuzzed.pb");
  FUZZ_CHECK(graph.ok());
  SessionOptions options;
  options.config = config;
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  FUZZ_CHECK(session.ok());
  absl::Status created = (*session)->Create(*graph);
  result.create_code = created.code();
  const bool verbose = std::getenv("RILL_FUZZ_DUMP") != nullptr;
  if (verbose) std::fprintf(stderr, "Create: %s\n", created.ToString().c_str());
  if (!created.ok()) {
    FUZZ_CHECK(!created.message().empty());
    return result;
  }
  if (counters != nullptr) counters->created++;
  std::vector<Tensor> first;
  absl::Status run = (*session)->Run(feeds, fetches, {}, &first);
  if (counters != nullptr) counters->ran++;
  result.run_code = run.code();
  if (verbose) std::fprintf(stderr, "Run: %s\n", run.ToString().c_str());
  FUZZ_CHECK(run.code() != absl::StatusCode::kDeadlineExceeded);
  if (!run.ok()) FUZZ_CHECK(!run.message().empty());
  if (run.ok() && counters != nullptr) counters->ran_ok++;
  if (run.ok()) result.fingerprint = Fingerprint(first);
  first.clear();
  std::vector<Tensor> second;
  absl::Status again = (*session)->Run(feeds, fetches, {}, &second);
  FUZZ_CHECK(again.code() != absl::StatusCode::kDeadlineExceeded);
  if (!again.ok()) FUZZ_CHECK(!again.message().empty());
  if (deterministic) {
    // Failures are compared as failures: which of several failing nodes reports first depends
    // on the schedule.
    FUZZ_CHECK(again.ok() == run.ok());
    if (again.ok()) FUZZ_CHECK(Fingerprint(second) == result.fingerprint);
  }
  FUZZ_CHECK((*session)->Close().ok());
  return result;
}

}  // namespace fuzz
}  // namespace rill
