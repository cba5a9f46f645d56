// GPU benchmarks of issue 11 / 14, timed through Session::Run on a real GPU (median of repeated
// runs, microseconds), for tools/bench/gpu_peers.py to set beside PyTorch in the same command:
//   matmul_4096_us      one 4096x4096 float32 MatMul on GPU:0 (a chain of 10 on GPU-resident
//                       inputs, minus the same graph without them, divided by 10)
//   add_chain_per_node_us  a chain of 1000 Adds on [2,2] on GPU:0 minus a chain of 0, per node
//   h2d_256mib_gbps     a 256 MiB feed copied to GPU:0 (from pageable memory, staged; and from
//                       pinned memory Rill returned earlier), GB/s
//   d2h_256mib_gbps     a 256 MiB GPU tensor fetched, GB/s
//   conv3x3_us          one float32 3x3 convolution (SAME) of [32, 56, 56, 64] by [3, 3, 64, 64] on
//                       GPU:0 (ResNet50's first stage; a chain of 10 minus none, divided by 10)
//   depthwise3x3_us     one float32 3x3 depthwise convolution (SAME) of [32, 56, 56, 144]
//                       (MobileNetV2's), measured the same way
// Prints "name value" lines. Exits 0 with "skipped: no GPU found (...)" without a GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_probe.h"
#include "google/protobuf/text_format.h"
#include "session/session.h"

namespace rill {
namespace {

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs,
                 const std::string& device = "/device:GPU:0") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  if (!device.empty()) absl::StrAppend(&s, " device: '", device, "'");
  return absl::StrCat(s, " ", attrs, " }\n");
}

const char kFloat[] = "attr { key: 'T' value { type: DT_FLOAT } }";

std::string ConstVector(const std::string& name, int64_t rows, int64_t cols, float value) {
  return Node(name, "Const", {},
              absl::StrCat("attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' "
                           "value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: ",
                           rows, " } dim { size: ", cols, " } } float_val: ", value, " } } }"));
}

std::string Placeholder(const std::string& name) {
  return Node(name, "Placeholder", {}, "attr { key: 'dtype' value { type: DT_FLOAT } }", "");
}

// Median microseconds of `runs` runs after 3 warm-ups.
double MedianUs(Session& session, const std::vector<std::pair<std::string, Tensor>>& feeds,
                const std::string& fetch, int runs, Tensor* last = nullptr) {
  std::vector<double> us;
  for (int i = 0; i < runs + 3; ++i) {
    std::vector<Tensor> out;
    const auto t0 = std::chrono::steady_clock::now();
    absl::Status s = session.Run(feeds, {fetch}, {}, &out);
    const auto t1 = std::chrono::steady_clock::now();
    if (!s.ok()) {
      std::fprintf(stderr, "run failed: %s\n", s.ToString().c_str());
      std::exit(1);
    }
    if (i >= 3) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    if (last != nullptr) *last = out[0];
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

std::unique_ptr<Session> Make(const std::string& text) {
  GraphDef g;
  if (!google::protobuf::TextFormat::ParseFromString(text, &g)) std::exit(2);
  SessionOptions options;
  // No constant folding: the inputs made from Consts on the GPU must be made on the GPU.
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  auto s = Session::New(options);
  if (!s.ok() || !(*s)->Create(g).ok()) {
    std::fprintf(stderr, "session failed\n");
    std::exit(1);
  }
  return *std::move(s);
}

void MatMul4096() {
  const int64_t n = 4096;
  // a = col + row (broadcast) made on the GPU each run; 10 chained products scaled to stay finite.
  std::string base = ConstVector("col", n, 1, 1.0f / n) + ConstVector("row", 1, n, 0.0f) +
                     Node("a", "Add", {"col", "row"}, kFloat);
  std::string chain = base;
  std::string prev = "a";
  for (int i = 0; i < 10; ++i) {
    const std::string name = absl::StrCat("m", i);
    chain += Node(name, "MatMul", {prev, "a"}, kFloat);
    prev = name;
  }
  const std::string reduce =
      Node("axes", "Const", {},
           "attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value { tensor { "
           "dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 } } }",
           "/device:CPU:0");
  auto sum = [&](const std::string& of) {
    return Node("s", "Sum", {of, "axes"},
                "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tidx' value { type: "
                "DT_INT32 } } attr { key: 'keep_dims' value { b: false } }");
  };
  auto with = Make(chain + reduce + sum(prev));
  auto without = Make(base + reduce + sum("a"));
  const double t_with = MedianUs(*with, {}, "s:0", 20);
  const double t_without = MedianUs(*without, {}, "s:0", 20);
  const double per = (t_with - t_without) / 10;
  std::printf("matmul_4096_us %.1f\nmatmul_4096_tflops %.2f\n", per, 2.0 * n * n * n / per / 1e6);
}

void AddChain() {
  auto chain = [](int nodes) {
    std::string g = Placeholder("x") + Node("add_0", "Identity", {"x"}, kFloat);
    std::string prev = "add_0";
    for (int i = 1; i <= nodes; ++i) {
      const std::string name = absl::StrCat("add_", i);
      g += Node(name, "Add", {prev, prev}, kFloat);
      prev = name;
    }
    return std::make_pair(g, prev);
  };
  Tensor x = Tensor::FromVector<float>({0.0f, 0.0f, 0.0f, 0.0f}, TensorShape({2, 2}));  // stays 0
  auto [g1000, f1000] = chain(1000);
  auto [g0, f0] = chain(0);
  auto s1000 = Make(g1000);
  auto s0 = Make(g0);
  const double t1000 = MedianUs(*s1000, {{"x", x}}, f1000 + ":0", 50);
  const double t0 = MedianUs(*s0, {{"x", x}}, f0 + ":0", 50);
  std::printf("add_chain_1000_run_us %.1f\nadd_chain_per_node_us %.3f\n", t1000,
              (t1000 - t0) / 1000);
}

void Copies() {
  const int64_t n = int64_t{64} << 20;  // 256 MiB of float
  const double gb = n * 4.0 / 1e9;
  // H2D: a [8192, 8192] feed -> Neg on the GPU -> Max of each row (8192 blocks, contiguous rows:
  // cheap next to the copy); minus the same with a [1, 1] feed.
  const std::string reduce =
      Node("axes", "Const", {},
           "attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value { tensor { "
           "dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 } } }",
           "/device:CPU:0") +
      Node("m", "Max", {"g", "axes"},
           "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tidx' value { type: "
           "DT_INT32 } } attr { key: 'keep_dims' value { b: false } }");
  auto h2d = Make(Placeholder("x") + Node("g", "Neg", {"x"}, kFloat) + reduce);
  Tensor big = *Tensor::Allocate(CpuAllocator::Default(), DT_FLOAT, TensorShape({8192, 8192}));
  Tensor tiny = Tensor::FromVector<float>({1.0f}, TensorShape({1, 1}));
  const double t_tiny = MedianUs(*h2d, {{"x", tiny}}, "m:0", 10);
  const double t_big = MedianUs(*h2d, {{"x", big}}, "m:0", 10);
  std::printf("h2d_256mib_pageable_gbps %.1f\n", gb / ((t_big - t_tiny) / 1e6));
  // D2H: a 256 MiB tensor made on the GPU (broadcast Add) and fetched; minus making it and
  // fetching only its Max.
  const std::string make = ConstVector("col", 8192, 1, 1.0f) + ConstVector("row", 1, 8192, 2.0f) +
                           Node("g", "Add", {"col", "row"}, kFloat);
  auto d2h = Make(make + reduce);
  Tensor pinned;
  const double t_fetch = MedianUs(*d2h, {}, "g:0", 10, &pinned);
  const double t_make = MedianUs(*d2h, {}, "m:0", 10);
  std::printf("d2h_256mib_gbps %.1f\n", gb / ((t_fetch - t_make) / 1e6));
  // H2D again, from the pinned [8192, 8192] tensor Rill returned (no staging copy).
  const double t_pinned = MedianUs(*h2d, {{"x", pinned}}, "m:0", 10);
  std::printf("h2d_256mib_pinned_gbps %.1f\n", gb / ((t_pinned - t_tiny) / 1e6));
}

// A float Const of `dims` filled with `value`, on GPU:0.
std::string ConstFilled(const std::string& name, const std::vector<int64_t>& dims, float value) {
  std::string shape;
  for (int64_t d : dims) absl::StrAppend(&shape, "dim { size: ", d, " } ");
  return Node(name, "Const", {},
              absl::StrCat("attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' "
                           "value { tensor { dtype: DT_FLOAT tensor_shape { ",
                           shape, "} float_val: ", value, " } } }"));
}

// A chain of 10 convolutions `op` (SAME, stride 1) of x by f, timed against x alone; both reduce
// to one value per image on the GPU before the fetch.
void ConvChain(const std::string& figure, const std::string& op, int64_t channels,
               const std::vector<int64_t>& filter, float filter_value) {
  const std::string base = ConstFilled("x", {32, 56, 56, channels}, 1.0f) +
                           ConstFilled("f", filter, filter_value) +
                           Node("axes", "Const", {},
                                "attr { key: 'dtype' value { type: DT_INT32 } } attr { key: "
                                "'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { "
                                "size: 3 } } int_val: 1 int_val: 2 int_val: 3 } } }",
                                "/device:CPU:0");
  const std::string attrs = absl::StrCat(
      kFloat,
      " attr { key: 'strides' value { list { i: 1 i: 1 i: 1 i: 1 } } } attr { key: 'padding' "
      "value { s: 'SAME' } }");
  std::string chain = base;
  std::string prev = "x";
  for (int i = 0; i < 10; ++i) {
    const std::string name = absl::StrCat("c", i);
    chain += Node(name, op, {prev, "f"}, attrs);
    prev = name;
  }
  auto sum = [&](const std::string& of) {
    return Node("s", "Sum", {of, "axes"},
                "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tidx' value { type: "
                "DT_INT32 } } attr { key: 'keep_dims' value { b: false } }");
  };
  auto with = Make(chain + sum(prev));
  auto without = Make(base + sum("x"));
  const double t_with = MedianUs(*with, {}, "s:0", 20);
  const double t_without = MedianUs(*without, {}, "s:0", 20);
  std::printf("%s %.1f\n", figure.c_str(), (t_with - t_without) / 10);
}

}  // namespace
}  // namespace rill

int main() {
  std::string why;
  if (rill::CudaDeviceCount(&why) == 0) {
    std::printf("skipped: no GPU found (%s)\n", why.c_str());
    return 0;
  }
  rill::MatMul4096();
  rill::AddChain();
  rill::Copies();
  // Filters that keep the values at 1 through the chain (away from the edges).
  rill::ConvChain("conv3x3_us", "Conv2D", 64, {3, 3, 64, 64}, 1.0f / (9 * 64));
  rill::ConvChain("depthwise3x3_us", "DepthwiseConv2dNative", 144, {3, 3, 144, 1}, 1.0f / 9);
  return 0;
}
