// The GPU's convolutions (cuDNN), pooling and batch norm against the CPU kernels on random inputs
// (tests/gpu/gpu_test_util.h): every padding kind including asymmetric SAME and EXPLICIT padding,
// strides, dilations, grouped and depthwise filters, depth pooling, batch norm in inference and
// training, and the CPU kernels' errors. Every test skips without a CUDA GPU, saying why.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"

namespace rill {
namespace {

using gpu_test::ExpectGpuMatchesCpu;
using gpu_test::Placeholder;
using gpu_test::Random;
using gpu_test::RunOn;
using ::testing::HasSubstr;

std::string Ints(const std::vector<int>& v) {
  std::string s;
  for (int x : v) absl::StrAppend(&s, "i: ", x, " ");
  return s;
}

// A convolution-like node `op` of x and f with the given window attrs.
std::string Conv(const std::string& op, const std::vector<int>& strides, const std::string& padding,
                 const std::vector<int>& dilations = {1, 1, 1, 1},
                 const std::vector<int>& explicit_paddings = {}) {
  std::string node = absl::StrCat(
      "node { name: 'z' op: '", op, "' input: 'x' input: 'f' device: 'DEVICE' ",
      "attr { key: 'T' value { type: DT_FLOAT } } ", "attr { key: 'strides' value { list { ",
      Ints(strides), "} } } ", "attr { key: 'dilations' value { list { ", Ints(dilations), "} } } ",
      "attr { key: 'padding' value { s: '", padding, "' } } ");
  if (!explicit_paddings.empty()) {
    absl::StrAppend(&node, "attr { key: 'explicit_paddings' value { list { ",
                    Ints(explicit_paddings), "} } } ");
  }
  return Placeholder("x", DT_FLOAT) + Placeholder("f", DT_FLOAT) + node + "}\n";
}

void ExpectConvMatches(const std::string& graph, const TensorShape& x, const TensorShape& f,
                       int seed) {
  // cuDNN and oneDNN sum the taps in different orders: a tenth of the output's scale as floor.
  ExpectGpuMatchesCpu(
      graph, {{"x", Random(DT_FLOAT, x, seed)}, {"f", Random(DT_FLOAT, f, seed + 1)}}, "z:0", 0.1);
}

TEST(GpuNnKernelsTest, Conv2DWithEveryPaddingStrideAndDilationMatchesCpu) {
  RILL_REQUIRE_GPU();
  const TensorShape x({2, 9, 8, 5});
  for (const char* padding : {"VALID", "SAME"}) {
    for (int stride : {1, 2, 3}) {
      SCOPED_TRACE(absl::StrCat(padding, " stride ", stride));
      ExpectConvMatches(Conv("Conv2D", {1, stride, stride, 1}, padding), x,
                        TensorShape({3, 3, 5, 7}), 1);
      ExpectConvMatches(Conv("Conv2D", {1, stride, 1, 1}, padding), x, TensorShape({2, 4, 5, 6}),
                        3);
    }
    SCOPED_TRACE(absl::StrCat(padding, " dilation 2"));
    ExpectConvMatches(Conv("Conv2D", {1, 1, 1, 1}, padding, {1, 2, 2, 1}), x,
                      TensorShape({3, 3, 5, 4}), 5);
  }
  // 1x1 (a product), a window as large as the input, and EXPLICIT padding unequal on each side.
  ExpectConvMatches(Conv("Conv2D", {1, 1, 1, 1}, "VALID"), x, TensorShape({1, 1, 5, 16}), 7);
  ExpectConvMatches(Conv("Conv2D", {1, 1, 1, 1}, "VALID"), x, TensorShape({9, 8, 5, 3}), 9);
  ExpectConvMatches(
      Conv("Conv2D", {1, 2, 1, 1}, "EXPLICIT", {1, 1, 1, 1}, {0, 0, 2, 1, 0, 3, 0, 0}), x,
      TensorShape({3, 2, 5, 4}), 11);
}

// A Const filter is transposed once (the optimizer marks it constant) and reused by later runs.
TEST(GpuNnKernelsTest, ConstantFilterGivesTheSameResultEveryRun) {
  RILL_REQUIRE_GPU();
  std::string filter_values;
  for (int i = 0; i < 3 * 3 * 2 * 4; ++i)
    absl::StrAppend(&filter_values, "float_val: ", (i % 7) - 3, " ");
  const std::string graph =
      Placeholder("x", DT_FLOAT) +
      absl::StrCat(
          "node { name: 'f' op: 'Const' device: 'DEVICE' attr { key: 'dtype' value { "
          "type: DT_FLOAT } } attr { key: 'value' value { tensor { dtype: DT_FLOAT "
          "tensor_shape { dim { size: 3 } dim { size: 3 } dim { size: 2 } dim { size: 4 "
          "} } ",
          filter_values, "} } } }\n") +
      "node { name: 'z' op: 'Conv2D' input: 'x' input: 'f' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } "
      "attr { key: 'strides' value { list { i: 1 i: 1 i: 1 i: 1 } } } "
      "attr { key: 'padding' value { s: 'SAME' } } }\n";
  const Tensor x = Random(DT_FLOAT, TensorShape({1, 5, 5, 2}), 81);
  absl::StatusOr<Tensor> cpu = RunOn(graph, "/device:CPU:0", {{"x", x}}, "z:0");
  ASSERT_THAT(cpu.status(), IsOk());
  absl::StatusOr<std::unique_ptr<Session>> session =
      gpu_test::SessionWith(absl::StrReplaceAll(graph, {{"DEVICE", "/device:GPU:0"}}));
  ASSERT_THAT(session.status(), IsOk());
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE(run);
    std::vector<Tensor> out;
    ASSERT_THAT((*session)->Run({{"x", x}}, {"z:0"}, {}, &out), IsOk());
    gpu_test::ExpectClose(out[0], *cpu, 0.1);
  }
}

TEST(GpuNnKernelsTest, GroupedAndDepthwiseConvolutionsMatchCpu) {
  RILL_REQUIRE_GPU();
  // Input depth 8, filter depth 2: 4 groups of 3 output channels each.
  ExpectConvMatches(Conv("Conv2D", {1, 1, 1, 1}, "SAME"), TensorShape({2, 7, 7, 8}),
                    TensorShape({3, 3, 2, 12}), 13);
  for (int multiplier : {1, 3}) {
    for (int stride : {1, 2}) {
      SCOPED_TRACE(absl::StrCat("multiplier ", multiplier, " stride ", stride));
      ExpectConvMatches(Conv("DepthwiseConv2dNative", {1, stride, stride, 1}, "SAME"),
                        TensorShape({2, 10, 9, 6}), TensorShape({3, 3, 6, multiplier}), 15);
    }
  }
  ExpectConvMatches(Conv("DepthwiseConv2dNative", {1, 1, 1, 1}, "VALID", {1, 2, 2, 1}),
                    TensorShape({1, 11, 11, 4}), TensorShape({5, 5, 4, 2}), 17);
  // Multiplier 1 with a multiple of 4 channels: the four-channel vector kernel, its unrolled 3x3
  // and its general window (5x5 dilated).
  for (int stride : {1, 2}) {
    SCOPED_TRACE(absl::StrCat("vector kernel, stride ", stride));
    ExpectConvMatches(Conv("DepthwiseConv2dNative", {1, stride, stride, 1}, "SAME"),
                      TensorShape({2, 10, 9, 12}), TensorShape({3, 3, 12, 1}), 18);
  }
  ExpectConvMatches(Conv("DepthwiseConv2dNative", {1, 1, 1, 1}, "VALID", {1, 2, 2, 1}),
                    TensorShape({1, 13, 12, 8}), TensorShape({5, 5, 8, 1}), 19);
}

// A fused node `op` (_FusedConv2D, _FusedDepthwiseConv2dNative, _FusedMatMul) of x, f and bias b.
std::string Fused(const std::string& op, const std::string& activation) {
  std::string node =
      absl::StrCat("node { name: 'z' op: '", op, "' input: 'x' input: 'f' input: 'b' ",
                   "device: 'DEVICE' attr { key: 'T' value { type: DT_FLOAT } } ",
                   "attr { key: 'num_args' value { i: 1 } } ",
                   "attr { key: 'fused_ops' value { list { s: 'BiasAdd' ",
                   activation.empty() ? "" : absl::StrCat("s: '", activation, "' "), "} } } ");
  if (op != "_FusedMatMul") {
    absl::StrAppend(&node, "attr { key: 'strides' value { list { i: 1 i: 2 i: 2 i: 1 } } } ",
                    "attr { key: 'padding' value { s: 'SAME' } } ");
  }
  return Placeholder("x", DT_FLOAT) + Placeholder("f", DT_FLOAT) + Placeholder("b", DT_FLOAT) +
         node + "}\n";
}

TEST(GpuNnKernelsTest, FusedConvolutionsAndMatMulWithEveryActivationMatchCpu) {
  RILL_REQUIRE_GPU();
  for (const char* activation : {"", "Relu", "Relu6", "_MklSwish", "_FusedHardSwish"}) {
    SCOPED_TRACE(activation);
    ExpectGpuMatchesCpu(Fused("_FusedConv2D", activation),
                        {{"x", Random(DT_FLOAT, TensorShape({2, 8, 7, 3}), 51, -3, 3)},
                         {"f", Random(DT_FLOAT, TensorShape({3, 3, 3, 5}), 52)},
                         {"b", Random(DT_FLOAT, TensorShape({5}), 53)}},
                        "z:0", 0.1);
    ExpectGpuMatchesCpu(Fused("_FusedDepthwiseConv2dNative", activation),
                        {{"x", Random(DT_FLOAT, TensorShape({2, 8, 7, 3}), 54, -3, 3)},
                         {"f", Random(DT_FLOAT, TensorShape({3, 3, 3, 2}), 55)},
                         {"b", Random(DT_FLOAT, TensorShape({6}), 56)}},
                        "z:0", 0.1);
    ExpectGpuMatchesCpu(Fused("_FusedDepthwiseConv2dNative", activation),
                        {{"x", Random(DT_FLOAT, TensorShape({2, 8, 7, 8}), 60, -3, 3)},
                         {"f", Random(DT_FLOAT, TensorShape({3, 3, 8, 1}), 64)},
                         {"b", Random(DT_FLOAT, TensorShape({8}), 65)}},
                        "z:0", 0.1);
    ExpectGpuMatchesCpu(Fused("_FusedMatMul", activation),
                        {{"x", Random(DT_FLOAT, TensorShape({9, 17}), 57, -3, 3)},
                         {"f", Random(DT_FLOAT, TensorShape({17, 6}), 58)},
                         {"b", Random(DT_FLOAT, TensorShape({6}), 59)}},
                        "z:0", 0.1);
  }
}

// Conv2D -> BiasAdd -> Relu placed on the GPU: the optimizer fuses it there (the GPU has
// _FusedConv2D) and the result is the CPU's.
TEST(GpuNnKernelsTest, ConvBiasReluChainOnTheGpuMatchesCpu) {
  RILL_REQUIRE_GPU();
  const std::string graph =
      Conv("Conv2D", {1, 1, 1, 1}, "SAME") + Placeholder("b", DT_FLOAT) +
      "node { name: 'ba' op: 'BiasAdd' input: 'z' input: 'b' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n"
      "node { name: 'r' op: 'Relu' input: 'ba' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n";
  ExpectGpuMatchesCpu(graph,
                      {{"x", Random(DT_FLOAT, TensorShape({1, 6, 6, 4}), 61)},
                       {"f", Random(DT_FLOAT, TensorShape({3, 3, 4, 8}), 62)},
                       {"b", Random(DT_FLOAT, TensorShape({8}), 63)}},
                      "r:0", 0.1);
}

// x and f fed as float, cast to half on the CPU, `op` in half on DEVICE, the result cast back to
// float on the CPU.
std::string HalfProduct(const std::string& op, const std::string& attrs) {
  std::string g = Placeholder("x", DT_FLOAT) + Placeholder("f", DT_FLOAT);
  for (const char* v : {"x", "f"}) {
    g += absl::StrCat("node { name: '", v, "16' op: 'Cast' input: '", v,
                      "' device: '/device:CPU:0' attr { key: 'SrcT' value { type: DT_FLOAT } } ",
                      "attr { key: 'DstT' value { type: DT_HALF } } }\n");
  }
  return g + absl::StrCat("node { name: 'p' op: '", op, "' input: 'x16' input: 'f16' ",
                          "device: 'DEVICE' attr { key: 'T' value { type: DT_HALF } } ", attrs,
                          "}\n", "node { name: 'z' op: 'Cast' input: 'p' device: '/device:CPU:0' ",
                          "attr { key: 'SrcT' value { type: DT_HALF } } ",
                          "attr { key: 'DstT' value { type: DT_FLOAT } } }\n");
}

// Float16 MatMul and convolutions accumulate in float32 on the GPU: within float16 rounding of
// the CPU's half kernels.
TEST(GpuNnKernelsTest, HalfMatMulAndConvolutionsMatchCpu) {
  RILL_REQUIRE_GPU();
  ExpectGpuMatchesCpu(HalfProduct("MatMul", ""),
                      {{"x", Random(DT_FLOAT, TensorShape({33, 70}), 71)},
                       {"f", Random(DT_FLOAT, TensorShape({70, 18}), 72)}},
                      "z:0", 0.1, 4e-3);
  ExpectGpuMatchesCpu(HalfProduct("BatchMatMulV2", ""),
                      {{"x", Random(DT_FLOAT, TensorShape({3, 9, 40}), 73)},
                       {"f", Random(DT_FLOAT, TensorShape({3, 40, 8}), 74)}},
                      "z:0", 0.1, 4e-3);
  const std::string window =
      "attr { key: 'strides' value { list { i: 1 i: 2 i: 2 i: 1 } } } "
      "attr { key: 'padding' value { s: 'SAME' } } ";
  ExpectGpuMatchesCpu(HalfProduct("Conv2D", window),
                      {{"x", Random(DT_FLOAT, TensorShape({2, 10, 9, 8}), 75)},
                       {"f", Random(DT_FLOAT, TensorShape({3, 3, 8, 16}), 76)}},
                      "z:0", 0.1, 4e-3);
  ExpectGpuMatchesCpu(HalfProduct("DepthwiseConv2dNative", window),
                      {{"x", Random(DT_FLOAT, TensorShape({2, 10, 9, 8}), 77)},
                       {"f", Random(DT_FLOAT, TensorShape({3, 3, 8, 1}), 78)}},
                      "z:0", 0.1, 4e-3);
}

// float32 -> float16 -> float32 on the GPU rounds as the CPU's Cast (to nearest even).
TEST(GpuNnKernelsTest, HalfCastsMatchCpu) {
  RILL_REQUIRE_GPU();
  const std::string graph =
      Placeholder("x", DT_FLOAT) +
      "node { name: 'h' op: 'Cast' input: 'x' device: 'DEVICE' "
      "attr { key: 'SrcT' value { type: DT_FLOAT } } attr { key: 'DstT' value { type: DT_HALF } } "
      "}\n"
      "node { name: 'z' op: 'Cast' input: 'h' device: 'DEVICE' "
      "attr { key: 'SrcT' value { type: DT_HALF } } attr { key: 'DstT' value { type: DT_FLOAT } } "
      "}\n";
  // Values past float16's range become inf on both devices.
  ExpectGpuMatchesCpu(graph, {{"x", Random(DT_FLOAT, TensorShape({1000}), 85, -70000, 70000)}},
                      "z:0");
}

// Cast with Truncate set on the GPU clears the mantissa bits the result cannot hold before it
// rounds, as the CPU's Cast and TensorFlow: float 1.00415 -> float16 is 1.0 (rounded: 1.00488),
// float 65535 -> float16 is 65504 (rounded: inf), double 1 + 2^-24 + 2^-30 -> float is 1
// (rounded: 1 + 2^-23).
TEST(GpuNnKernelsTest, TruncatingCastsMatchCpu) {
  RILL_REQUIRE_GPU();
  auto cast = [](DataType from, DataType to) {
    return Placeholder("x", from) +
           absl::StrCat(
               "node { name: 'z' op: 'Cast' input: 'x' device: 'DEVICE' attr { key: "
               "'SrcT' value { type: ",
               DataType_Name(from), " } } attr { key: 'DstT' value { type: ", DataType_Name(to),
               " } } attr { key: 'Truncate' value { b: true } } }\n");
  };
  Tensor f = Random(DT_FLOAT, TensorShape({1000}), 86, -70000, 70000);
  f.flat<float>()[0] = 1.00415f;
  f.flat<float>()[1] = std::numeric_limits<float>::quiet_NaN();
  f.flat<float>()[2] = -std::numeric_limits<float>::infinity();
  f.flat<float>()[3] = 65535.0f;  // rounds to inf, truncates to 65504
  const std::string to_half = cast(DT_FLOAT, DT_HALF) +
                              "node { name: 'y' op: 'Cast' input: 'z' "
                              "attr { key: 'SrcT' value { type: DT_HALF } } "
                              "attr { key: 'DstT' value { type: DT_FLOAT } } }\n";
  // tol 1e-30: bit for bit, as the CPU kernel.
  ExpectGpuMatchesCpu(to_half, {{"x", f}}, "y:0", 0, 1e-30);
  absl::StatusOr<Tensor> halves = RunOn(to_half, "/device:GPU:0", {{"x", f}}, "y:0");
  ASSERT_THAT(halves.status(), IsOk());
  EXPECT_EQ(halves->flat<float>()[0], 1.0f);
  EXPECT_TRUE(std::isnan(halves->flat<float>()[1]));
  EXPECT_EQ(halves->flat<float>()[2], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(halves->flat<float>()[3], 65504.0f);
  Tensor d = Random(DT_DOUBLE, TensorShape({1000}), 87, -1e6, 1e6);
  d.flat<double>()[0] = 1.0 + std::ldexp(1.0, -23) + std::ldexp(1.0, -30);
  d.flat<double>()[1] = 1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -30);
  d.flat<double>()[2] = std::numeric_limits<double>::quiet_NaN();
  d.flat<double>()[3] = 1e300;
  ExpectGpuMatchesCpu(cast(DT_DOUBLE, DT_FLOAT), {{"x", d}}, "z:0", 0, 1e-30);
  absl::StatusOr<Tensor> floats =
      RunOn(cast(DT_DOUBLE, DT_FLOAT), "/device:GPU:0", {{"x", d}}, "z:0");
  ASSERT_THAT(floats.status(), IsOk());
  EXPECT_EQ(floats->flat<float>()[0], 1.0f + std::ldexp(1.0f, -23));
  EXPECT_EQ(floats->flat<float>()[1], 1.0f);
  EXPECT_TRUE(std::isnan(floats->flat<float>()[2]));
  EXPECT_EQ(floats->flat<float>()[3], std::numeric_limits<float>::infinity());
}

// A float16 layer's elementwise ops on the GPU (computed in float32, rounded to half as the CPU's
// half kernels): BiasAdd, Relu, Tanh, AddV2, AddN and Identity between half casts.
TEST(GpuNnKernelsTest, HalfElementwiseOpsMatchCpu) {
  RILL_REQUIRE_GPU();
  auto node = [](const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs) {
    std::string n = absl::StrCat("node { name: '", name, "' op: '", op, "'");
    for (const std::string& in : inputs) absl::StrAppend(&n, " input: '", in, "'");
    return absl::StrCat(n, " device: 'DEVICE' ", attrs, " }\n");
  };
  const std::string half = "attr { key: 'T' value { type: DT_HALF } }";
  const std::string to_half =
      "attr { key: 'SrcT' value { type: DT_FLOAT } } attr { key: 'DstT' value { type: DT_HALF } }";
  const std::string to_float =
      "attr { key: 'SrcT' value { type: DT_HALF } } attr { key: 'DstT' value { type: DT_FLOAT } }";
  const std::string graph =
      Placeholder("x", DT_FLOAT) + Placeholder("b", DT_FLOAT) + node("xh", "Cast", {"x"}, to_half) +
      node("bh", "Cast", {"b"}, to_half) + node("ba", "BiasAdd", {"xh", "bh"}, half) +
      node("r", "Relu", {"ba"}, half) + node("t", "Tanh", {"xh"}, half) +
      node("s", "AddV2", {"r", "t"}, half) + node("i", "Identity", {"s"}, half) +
      node("n", "AddN", {"i", "r", "t"}, half + " attr { key: 'N' value { i: 3 } }") +
      node("z", "Cast", {"n"}, to_float);
  ExpectGpuMatchesCpu(graph,
                      {{"x", Random(DT_FLOAT, TensorShape({4, 5, 6, 8}), 91, -3, 3)},
                       {"b", Random(DT_FLOAT, TensorShape({8}), 92)}},
                      "z:0", 0.1, 4e-3);
}

std::string Pool(const std::string& op, const std::vector<int>& ksize,
                 const std::vector<int>& strides, const std::string& padding) {
  return Placeholder("x", DT_FLOAT) +
         absl::StrCat("node { name: 'z' op: '", op, "' input: 'x' device: 'DEVICE' ",
                      "attr { key: 'T' value { type: DT_FLOAT } } ",
                      "attr { key: 'ksize' value { list { ", Ints(ksize), "} } } ",
                      "attr { key: 'strides' value { list { ", Ints(strides), "} } } ",
                      "attr { key: 'padding' value { s: '", padding, "' } } }\n");
}

TEST(GpuNnKernelsTest, PoolingMatchesCpu) {
  RILL_REQUIRE_GPU();
  const TensorShape x({2, 9, 10, 5});
  for (const char* op : {"MaxPool", "AvgPool"}) {
    for (const char* padding : {"VALID", "SAME"}) {
      SCOPED_TRACE(absl::StrCat(op, " ", padding));
      ExpectGpuMatchesCpu(Pool(op, {1, 3, 3, 1}, {1, 2, 2, 1}, padding),
                          {{"x", Random(DT_FLOAT, x, 21)}}, "z:0");
      ExpectGpuMatchesCpu(Pool(op, {1, 2, 4, 1}, {1, 1, 3, 1}, padding),
                          {{"x", Random(DT_FLOAT, x, 22)}}, "z:0");
    }
  }
  // Max over depth windows of 5 channels.
  ExpectGpuMatchesCpu(Pool("MaxPool", {1, 1, 1, 5}, {1, 1, 1, 5}, "VALID"),
                      {{"x", Random(DT_FLOAT, TensorShape({2, 3, 4, 10}), 23)}}, "z:0");
  // MaxPoolV2: ksize and strides are int32 inputs in host memory.
  const std::string v2 =
      Placeholder("x", DT_FLOAT) + Placeholder("k", DT_INT32) + Placeholder("s", DT_INT32) +
      "node { name: 'z' op: 'MaxPoolV2' input: 'x' input: 'k' input: 's' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'padding' value { s: 'SAME' } } }\n";
  Tensor k = *Tensor::Allocate(CpuAllocator::Default(), DT_INT32, TensorShape({4}));
  Tensor s = *Tensor::Allocate(CpuAllocator::Default(), DT_INT32, TensorShape({4}));
  const int kv[] = {1, 3, 2, 1}, sv[] = {1, 2, 2, 1};
  for (int i = 0; i < 4; ++i) {
    k.flat<int32_t>()[i] = kv[i];
    s.flat<int32_t>()[i] = sv[i];
  }
  ExpectGpuMatchesCpu(v2, {{"x", Random(DT_FLOAT, x, 24)}, {"k", k}, {"s", s}}, "z:0");
}

std::string BatchNorm(bool training, float avg_factor) {
  std::string g = Placeholder("x", DT_FLOAT);
  for (const char* v : {"scale", "offset", "mean", "var"}) g += Placeholder(v, DT_FLOAT);
  return g + absl::StrCat(
                 "node { name: 'z' op: 'FusedBatchNormV3' input: 'x' input: 'scale' input: "
                 "'offset' input: 'mean' input: 'var' device: 'DEVICE' ",
                 "attr { key: 'T' value { type: DT_FLOAT } } ",
                 "attr { key: 'U' value { type: DT_FLOAT } } ",
                 "attr { key: 'epsilon' value { f: 0.001 } } ",
                 "attr { key: 'exponential_avg_factor' value { f: ", avg_factor, " } } ",
                 "attr { key: 'is_training' value { b: ", training ? "true" : "false", " } } }\n");
}

TEST(GpuNnKernelsTest, FusedBatchNormInInferenceAndTrainingMatchesCpu) {
  RILL_REQUIRE_GPU();
  const int channels = 6;
  const TensorShape vec({channels});
  for (bool training : {false, true}) {
    for (float avg_factor : {1.0f, 0.25f}) {
      const std::vector<std::pair<std::string, Tensor>> feeds = {
          {"x", Random(DT_FLOAT, TensorShape({3, 5, 4, channels}), 31, -3, 5)},
          {"scale", Random(DT_FLOAT, vec, 32, 0.5, 1.5)},
          {"offset", Random(DT_FLOAT, vec, 33)},
          {"mean", Random(DT_FLOAT, vec, 34)},
          {"var", Random(DT_FLOAT, vec, 35, 0.5, 2)}};
      for (int out = 0; out < 5; ++out) {
        SCOPED_TRACE(absl::StrCat("training ", training, " factor ", avg_factor, " output ", out));
        ExpectGpuMatchesCpu(BatchNorm(training, avg_factor), feeds, absl::StrCat("z:", out));
      }
    }
  }
}

TEST(GpuNnKernelsTest, ErrorsOnTheGpuAreTheCpuKernelsErrors) {
  RILL_REQUIRE_GPU();
  for (const char* device : {"/device:GPU:0", "/device:CPU:0"}) {
    SCOPED_TRACE(device);
    EXPECT_THAT(RunOn(Conv("Conv2D", {1, 1, 1, 1}, "VALID"), device,
                      {{"x", Random(DT_FLOAT, TensorShape({4, 4, 3}), 41)},
                       {"f", Random(DT_FLOAT, TensorShape({1, 1, 3, 2}), 42)}},
                      "z:0")
                    .status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("convolution input must be 4-dimensional: [4,4,3]")));
    EXPECT_THAT(
        RunOn(Conv("Conv2D", {1, 1, 1, 1}, "VALID"), device,
              {{"x", Random(DT_FLOAT, TensorShape({1, 4, 4, 7}), 43)},
               {"f", Random(DT_FLOAT, TensorShape({1, 1, 2, 2}), 44)}},
              "z:0")
            .status(),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 HasSubstr("input depth must be evenly divisible by filter depth: 7 vs 2")));
    EXPECT_THAT(RunOn(Pool("MaxPool", {1, 5, 5, 1}, {1, 1, 1, 1}, "VALID"), device,
                      {{"x", Random(DT_FLOAT, TensorShape({1, 3, 3, 1}), 45)}}, "z:0")
                    .status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("Computed output size would be negative")));
  }
}

}  // namespace
}  // namespace rill
