// Fuzz target: structure-aware graphs in four modes, each aimed at a class of issue 26's defects,
// run the user's way (Session::New, Create, Run with operation_timeout_in_ms; session_check.h):
//   mode 0, multi-device (gen_multi_device.cc): 2-3 CPUs, Send/Recv pairs, chains and control
//           edges crossing devices;
//   mode 1, functions (gen_functions.cc): libraries with direct calls, PartitionedCall, If and
//           While bodies, self and mutual recursion, wrong arities;
//   mode 2, strings (gen_strings.cc): string ops with fuzzed attrs, regexes, long inputs;
//   mode 3, huge sizes (gen_huge_sizes.cc): sizes from attrs and values far beyond memory.
// The first byte picks the mode; the rest is the generator's program (tests/fuzz/fuzz_input.h).
//
// Checked on every input (besides no crash and no sanitizer report): every failure is a status
// with a message, never DeadlineExceeded; a deterministic graph's second Run matches the first bit
// for bit (or fails too). For a quarter of the inputs (by the second byte): the same graph with the
// optimizer off gives the same outcome, and a multi-device graph whose devices all exist gives the
// same outcome with its devices cleared on one CPU (see SameOutcome for what "the same" is). At
// exit it prints the counts per mode.
//
// Allocations: a huge size that is valid on a big enough machine must fail as ResourceExhausted
// where memory runs out, so the target caps memory for itself: ASan and LeakSanitizer builds
// refuse single allocations over 256 MiB (a malloc returns null, a `new` is reported), and
// unsanitized builds limit the address space to 4 GiB.
#include <sys/resource.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/graph_gen.h"
#include "tests/fuzz/session_check.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RILL_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RILL_FUZZ_ASAN 1
#endif

#ifdef RILL_FUZZ_ASAN
extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1:max_allocation_size_mb=256";
}
#endif

namespace rill {
namespace fuzz {
namespace {

constexpr int kModes = 4;
const char* const kModeNames[kModes] = {"multi_device", "functions", "strings", "huge_sizes"};

SessionCounters* Counters() {
  static SessionCounters* counters = [] {
    auto* c = new SessionCounters[kModes];
    std::atexit([] {
      SessionCounters* all = Counters();
      for (int m = 0; m < kModes; ++m) {
        const SessionCounters& s = all[m];
        std::fprintf(stderr,
                     "graph_modes_fuzzer %s: %lld inputs, %lld created, %lld reached "
                     "Session::Run, %lld runs succeeded\n",
                     kModeNames[m], static_cast<long long>(s.inputs.load()),
                     static_cast<long long>(s.created.load()), static_cast<long long>(s.ran.load()),
                     static_cast<long long>(s.ran_ok.load()));
      }
    });
    return c;
  }();
  return counters;
}

void LimitAddressSpace() {
#if !defined(RILL_FUZZ_ASAN) && !defined(RILL_TSAN)
  static const bool once = [] {
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = rlim_t{4} << 30;
    return setrlimit(RLIMIT_AS, &limit) == 0;
  }();
  (void)once;
#endif
}

bool Failed(const RunOutcome& r) {
  return r.create_code != absl::StatusCode::kOk || r.run_code != absl::StatusCode::kOk;
}

// Both succeed with the same bits, or both fail. The codes of two failures are not compared:
// when several nodes fail, which one reports first depends on the schedule (in TensorFlow too),
// and the optimized graph is scheduled differently. One side running out of memory is not a
// mismatch either: the optimizer may fold away a node whose tensor is too large to allocate
// (Shape of a Const of 2^41 floats), so the optimized graph succeeds where the plain one fails
// with ResourceExhausted. Memory is not a result.
bool SameOutcome(const RunOutcome& a, const RunOutcome& b) {
  for (const RunOutcome* r : {&a, &b}) {
    if (r->create_code == absl::StatusCode::kResourceExhausted ||
        r->run_code == absl::StatusCode::kResourceExhausted)
      return true;
  }
  if (Failed(a) || Failed(b)) return Failed(a) && Failed(b);
  return a.fingerprint == b.fingerprint;
}

}  // namespace
}  // namespace fuzz
}  // namespace rill

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rill;        // NOLINT: a fuzz entry point
  using namespace rill::fuzz;  // NOLINT
  LimitAddressSpace();
  FuzzInput in(data, size);
  const int mode = in.Byte() % kModes;
  const uint8_t differential = in.Byte();
  SessionCounters& counters = Counters()[mode];
  counters.inputs++;
  Generated g;
  switch (mode) {
    case 0:
      GenerateMultiDevice(&in, &g);
      break;
    case 1:
      GenerateFunctions(&in, &g);
      break;
    case 2:
      GenerateStrings(&in, &g);
      break;
    default:
      GenerateHugeSizes(&in, &g);
      break;
  }
  if (std::getenv("RILL_FUZZ_DUMP") != nullptr) {  // to see what a crashing input builds
    std::string text;
    google::protobuf::TextFormat::PrintToString(g.graph, &text);
    std::fprintf(stderr, "mode: %s\n%s\nconfig: %s\nfetches: %s\n", kModeNames[mode], text.c_str(),
                 g.config.ShortDebugString().c_str(), absl::StrJoin(g.fetches, ", ").c_str());
  }
  const RunOutcome first =
      CheckedCreateAndRun(g.graph, g.config, g.feeds, g.fetches, g.deterministic, &counters);
  if (!g.deterministic || (differential & 3) != 0) return 0;
  ConfigProto plain = g.config;
  plain.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  FUZZ_CHECK(SameOutcome(
      first, CheckedCreateAndRun(g.graph, plain, g.feeds, g.fetches, true, /*counters=*/nullptr)));
  if (g.single_device_twin) {
    GraphDef single = g.graph;
    for (NodeDef& n : *single.mutable_node()) n.clear_device();
    ConfigProto one_cpu = g.config;
    (*one_cpu.mutable_device_count())["CPU"] = 1;
    FUZZ_CHECK(SameOutcome(
        first, CheckedCreateAndRun(single, one_cpu, g.feeds, g.fetches, true, nullptr)));
  }
  return 0;
}
