// Compute-bound kernels through Session::Run, with feeds and fetches (issue 8's speed targets),
// beside a direct OpenBLAS call in the same process so ratios are taken in one run:
//   BM_MatMulSession/N/threads   float32 NxN MatMul, a and b fed, the product fetched;
//   BM_Sgemm/N/threads           OpenBLAS's cblas_sgemm on the same sizes, threaded by OpenBLAS;
//   BM_Conv2D_*/threads          NHWC Conv2D of the two shapes (input fed, filter Const);
//   BM_DenseBatch1/threads       [1,3136] x [3136,1024] MatMul (memory-bound, a batch-1 layer);
//   BM_MLP/batch/threads         784-512-512-10 Relu MLP with Softmax, input fed, probs fetched.
// `threads` sets the session's intra_op_parallelism_threads, and OpenBLAS's own thread count for
// BM_Sgemm (Rill's kernels call OpenBLAS single-threaded and split products themselves).
//   bazel run -c opt //tools/bench:nn_bench -- --benchmark_repetitions=3
// tools/bench/nn_peers.py times ONNX Runtime and TensorFlow on the same workloads.
#include <cblas.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "graph/builder/ops.h"
#include "session/session.h"

namespace rill {
namespace {

Tensor RandomTensor(const TensorShape& shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(shape.num_elements());
  for (float& x : v) x = dist(gen);
  return Tensor::FromVector<float>(v, shape);
}

// Runs `graph` with `feeds`, fetching `fetch`, once per iteration.
void RunGraph(benchmark::State& state, const GraphDef& graph,
              const std::vector<std::pair<std::string, Tensor>>& feeds, const std::string& fetch,
              int threads) {
  SessionOptions options;
  options.config.set_intra_op_parallelism_threads(threads);
  options.config.set_inter_op_parallelism_threads(1);
  auto session = std::move(Session::New(options)).value();
  absl::Status s = session->Create(graph);
  std::vector<Tensor> out;
  if (s.ok()) s = session->Run(feeds, {fetch}, {}, &out);  // warm-up
  if (!s.ok()) {
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  for (auto _ : state) {
    s = session->Run(feeds, {fetch}, {}, &out);
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(out);
  }
}

GraphDef Build(Scope& root) {
  absl::StatusOr<GraphDef> g = root.ToGraphDef();
  return g.ok() ? *std::move(g) : GraphDef();
}

void BM_MatMulSession(benchmark::State& state) {
  const int64_t n = state.range(0);
  Scope root = Scope::NewRootScope();
  Output a = ops::Placeholder(root.WithOpName("a"), DT_FLOAT);
  Output b = ops::Placeholder(root.WithOpName("b"), DT_FLOAT);
  ops::MatMul(root.WithOpName("product"), a, b);
  RunGraph(
      state, Build(root),
      {{"a", RandomTensor(TensorShape({n, n}), 1)}, {"b", RandomTensor(TensorShape({n, n}), 2)}},
      "product", static_cast<int>(state.range(1)));
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
}

// A batch-1 dense layer: [1, 3136] x [3136, 1024] (the small CNN's, 12.8 MB of weights read
// once per run: bound by memory, not flops).
void BM_DenseBatch1(benchmark::State& state) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), RandomTensor(TensorShape({3136, 1024}), 5));
  ops::MatMul(root.WithOpName("dense"), x, w);
  RunGraph(state, Build(root), {{"x", RandomTensor(TensorShape({1, 3136}), 6)}}, "dense",
           static_cast<int>(state.range(0)));
  state.counters["GBps"] =
      benchmark::Counter(3136.0 * 1024 * 4, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Sgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  openblas_set_num_threads(static_cast<int>(state.range(1)));
  const Tensor a = RandomTensor(TensorShape({n, n}), 1);
  const Tensor b = RandomTensor(TensorShape({n, n}), 2);
  std::vector<float> c(static_cast<size_t>(n) * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.flat<float>().data(), n,
                b.flat<float>().data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
}

void RunConv(benchmark::State& state, int64_t h, int64_t w, int64_t c_in, int64_t c_out, int64_t k,
             int64_t stride) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output f =
      ops::Const(root.WithOpName("filter"), RandomTensor(TensorShape({k, k, c_in, c_out}), 3));
  ops::Conv2D(root.WithOpName("conv"), x, f, {1, stride, stride, 1}, "SAME");
  RunGraph(state, Build(root), {{"x", RandomTensor(TensorShape({1, h, w, c_in}), 4)}}, "conv",
           static_cast<int>(state.range(0)));
  const int64_t out_h = (h + stride - 1) / stride, out_w = (w + stride - 1) / stride;
  state.counters["GFLOPs"] = benchmark::Counter(2.0 * out_h * out_w * c_out * k * k * c_in,
                                                benchmark::Counter::kIsIterationInvariantRate);
}
void BM_Conv2D_28x28x32_to_64_3x3(benchmark::State& state) { RunConv(state, 28, 28, 32, 64, 3, 1); }
void BM_Conv2D_224x224x3_to_64_7x7s2(benchmark::State& state) {
  RunConv(state, 224, 224, 3, 64, 7, 2);
}

void BM_MLP(benchmark::State& state) {
  const int64_t batch = state.range(0);
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output h = x;
  const int64_t sizes[] = {784, 512, 512, 10};
  for (int i = 0; i < 3; ++i) {
    Output w = ops::Const(root.WithOpName("w" + std::to_string(i)),
                          RandomTensor(TensorShape({sizes[i], sizes[i + 1]}), 10 + i));
    Output b = ops::Const(root.WithOpName("b" + std::to_string(i)),
                          RandomTensor(TensorShape({sizes[i + 1]}), 20 + i));
    h = ops::BiasAdd(root.WithOpName("dense" + std::to_string(i)), ops::MatMul(root, h, w), b);
    if (i < 2) h = ops::Relu(root, h);
  }
  ops::Softmax(root.WithOpName("probs"), h);
  RunGraph(state, Build(root), {{"x", RandomTensor(TensorShape({batch, 784}), 5)}}, "probs",
           static_cast<int>(state.range(1)));
  state.counters["runs_per_s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_MatMulSession)
    ->ArgsProduct({{256, 1024, 2048}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sgemm)
    ->ArgsProduct({{256, 1024, 2048}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Conv2D_28x28x32_to_64_3x3)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Conv2D_224x224x3_to_64_7x7s2)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DenseBatch1)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MLP)->ArgsProduct({{1, 64}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rill

BENCHMARK_MAIN();
