// Run overhead and per-node cost through Session::Run, with feeds and fetches, as ONNX Runtime's
// harness in ../shared/peers measures them: a 1-node graph (Add(x, x) on [2,2] float32) and a
// chain of 1000 Adds; a 1M-element Add for elementwise bandwidth; and the cost of cross-device
// Send/Recv edges (BM_DeviceChain100, BM_TwoTowers). `--benchmark_filter`,
// `--benchmark_repetitions` work as usual.
//   bazel run -c opt //tools/bench:session_bench
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "google/protobuf/text_format.h"
#include "session/session.h"
#include "tools/bench/bench_graphs.h"

namespace rill {
namespace {

// The timed loop: one Session::Run per iteration, feeding `x` and fetching `fetch`.
void TimeRuns(benchmark::State& state, Session& session, const Tensor& x,
              const std::string& fetch) {
  std::vector<Tensor> out;
  for (auto _ : state) {
    absl::Status s = session.Run({{"x", x}}, {fetch}, {}, &out);
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(out);
  }
}

void RunChain(benchmark::State& state, int n, int64_t elements = 4, int intra_threads = 0) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(static_cast<int>(state.range(0)));
  if (intra_threads > 0) options.config.set_intra_op_parallelism_threads(intra_threads);
  auto session = std::move(Session::New(options)).value();
  if (!session->Create(AddChain(n)).ok()) {
    state.SkipWithError("Create failed");
    return;
  }
  Tensor x = elements == 4 ? Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}))
                           : Tensor::FromVector<float>(std::vector<float>(elements, 1.5f),
                                                       TensorShape({elements}));
  TimeRuns(state, *session, x, absl::StrCat("add_", n - 1));
}

void BM_RunOverhead_OneAdd(benchmark::State& state) { RunChain(state, 1); }
void BM_PerNode_AddChain1000(benchmark::State& state) {
  RunChain(state, 1000);
  state.counters["ns_per_node"] = benchmark::Counter(
      1000.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
// A 1M-element float32 Add (x + x), on `range(0)` intra-op threads: bytes = 2 reads + 1 write.
void BM_Add1M(benchmark::State& state) {
  constexpr int64_t kElements = 1 << 20;
  RunChain(state, 1, kElements, static_cast<int>(state.range(0)));
  state.SetBytesProcessed(state.iterations() * kElements * 3 * 4);
}
// Multi-device overhead (issue 14, workload 7). A chain of 100 Adds whose nodes alternate between
// /cpu:0 and /cpu:1 (99 Send/Recv pairs per step) against the same chain on /cpu:0 only, both in
// a session with 2 CPU devices: (alternating - single) / 99 is the cost of one cross-device edge.
GraphDef DeviceChain(int n, bool alternate) {
  GraphDef g = AddChain(n);
  for (int i = 0; i < g.node_size(); ++i) {
    g.mutable_node(i)->set_device(alternate && i % 2 == 1 ? "/cpu:1" : "/cpu:0");
  }
  return g;
}

// The seed example's two towers: MatMul on /cpu:1 and /cpu:2, AddN on /cpu:0 (4 cross-device
// edges: x to each tower, each tower's product to the AddN), on 3 CPU devices or all on one.
GraphDef TwoTowers(bool spread) {
  std::string text =
      "node { name: 'x' op: 'Placeholder' device: '/cpu:0' "
      "attr { key: 'dtype' value { type: DT_FLOAT } } }\n";
  for (int t = 1; t <= 2; ++t) {
    absl::StrAppend(&text, "node { name: 'm", t, "' op: 'MatMul' input: 'x' input: 'x' device: '",
                    spread ? absl::StrCat("/cpu:", t) : "/cpu:0",
                    "' attr { key: 'T' value { type: DT_FLOAT } } }\n");
  }
  absl::StrAppend(&text,
                  "node { name: 'sum' op: 'AddN' input: 'm1' input: 'm2' device: '/cpu:0' "
                  "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'N' value { i: 2 } } }");
  GraphDef g;
  google::protobuf::TextFormat::ParseFromString(text, &g);
  return g;
}

void RunGraph(benchmark::State& state, const GraphDef& graph, int cpus, const std::string& fetch) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = cpus;
  options.config.set_inter_op_parallelism_threads(1);
  options.config.set_intra_op_parallelism_threads(1);
  auto session = std::move(Session::New(options)).value();
  if (!session->Create(graph).ok()) {
    state.SkipWithError("Create failed");
    return;
  }
  TimeRuns(state, *session, Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})), fetch);
}

void BM_DeviceChain100(benchmark::State& state) {
  RunGraph(state, DeviceChain(100, state.range(0) == 1), 2, "add_99");
}
void BM_TwoTowers(benchmark::State& state) {
  const bool spread = state.range(0) == 1;
  RunGraph(state, TwoTowers(spread), spread ? 3 : 1, "sum");
}
BENCHMARK(BM_DeviceChain100)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoTowers)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_Add1M)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_RunOverhead_OneAdd)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PerNode_AddChain1000)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rill

BENCHMARK_MAIN();
