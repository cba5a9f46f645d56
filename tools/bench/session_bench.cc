// Run overhead and per-node cost through Session::Run, with feeds and fetches, as ONNX Runtime's
// harness in ../shared/peers measures them: a 1-node graph (Add(x, x) on [2,2] float32) and a
// chain of 1000 Adds; and a 1M-element Add for elementwise bandwidth. `--benchmark_filter`, `--benchmark_repetitions` work as usual.
//   bazel run -c opt //tools/bench:session_bench
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "google/protobuf/text_format.h"
#include "session/session.h"

namespace rill {
namespace {

GraphDef AddChain(int n) {
  std::string text =
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n";
  std::string prev = "x";
  for (int i = 0; i < n; ++i) {
    const std::string name = absl::StrCat("add_", i);
    absl::StrAppend(&text, "node { name: '", name, "' op: 'Add' input: '", prev, "' input: '",
                    i == 0 ? "x" : prev, "' attr { key: 'T' value { type: DT_FLOAT } } }\n");
    prev = name;
  }
  GraphDef g;
  google::protobuf::TextFormat::ParseFromString(text, &g);
  return g;
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
  const std::string fetch = absl::StrCat("add_", n - 1);
  std::vector<Tensor> out;
  for (auto _ : state) {
    absl::Status s = session->Run({{"x", x}}, {fetch}, {}, &out);
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(out);
  }
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
BENCHMARK(BM_Add1M)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_RunOverhead_OneAdd)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PerNode_AddChain1000)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rill

BENCHMARK_MAIN();
