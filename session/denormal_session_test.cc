// A Session computes with subnormal floats flushed to zero, as TensorFlow does (core/denormal.h),
// on every thread that runs kernels: the caller's (cheap nodes inline), the inter-op pool's, the
// OpenMP team's, and the graph optimizer's constant folding; and the caller of Run gets its own
// float mode back. The expected values are TensorFlow 2.21's (the same operands are recorded as
// the conformance cases */subnormals_flushed in tests/conformance/data). Built twice: as
// denormal_session_test, and as denormal_keep_session_test with RILL_KEEP_DENORMALS=1, where the
// subnormals are kept.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/denormal.h"
#include "core/openmp_parallel_for.h"
#include "core/status_matchers.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

constexpr float kTiny = 1.17549435e-38f;  // FLT_MIN, the smallest normal float
constexpr float kSub = kTiny / 12;        // subnormal
constexpr double kSubDouble = 2.2250738585072014e-308 / 12;

// The control word without its exception flags (the arithmetic raises them).
FloatMode Mode() { return ReadFloatMode() & ~kFloatStatusBits; }

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

std::vector<uint32_t> BitsOf(const Tensor& t) {
  std::vector<uint32_t> out;
  for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(Bits(t.flat<float>()[i]));
  return out;
}

Tensor Floats(const std::vector<float>& v, const std::vector<int64_t>& dims) {
  Tensor t(DT_FLOAT, *TensorShape::FromDims(dims));
  for (size_t i = 0; i < v.size(); ++i) t.flat<float>()[i] = v[i];
  return t;
}

// x, y, a, b: float Placeholders; d, e: double ones. mul = x * y, add = x + y, mm = a x b,
// min / max = Minimum / Maximum(x, y), dmin = Minimum(d, e),
// mm2 = b x a (two products ready at once: with two inter-op threads one may run on the pool),
// dmul = d * e, folded = Const(1e-39) * Const(3) (the optimizer folds it), conv = img * filt
// (float Conv2D: oneDNN).
constexpr char kGraph[] = R"(
  node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  node { name: 'y' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  node { name: 'a' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  node { name: 'b' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  node { name: 'd' op: 'Placeholder' attr { key: 'dtype' value { type: DT_DOUBLE } } }
  node { name: 'e' op: 'Placeholder' attr { key: 'dtype' value { type: DT_DOUBLE } } }
  node { name: 'mul' op: 'Mul' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'add' op: 'AddV2' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'min' op: 'Minimum' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'max' op: 'Maximum' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'dmin' op: 'Minimum' input: 'd' input: 'e' attr { key: 'T' value { type: DT_DOUBLE } } }
  node { name: 'mm' op: 'MatMul' input: 'a' input: 'b' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'mm2' op: 'MatMul' input: 'b' input: 'a' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'dmul' op: 'Mul' input: 'd' input: 'e' attr { key: 'T' value { type: DT_DOUBLE } } }
  node { name: 'sub' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {}
                                             float_val: 1e-39 } } } }
  node { name: 'three' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 3 } } } }
  node { name: 'folded' op: 'Mul' input: 'sub' input: 'three'
         attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'img' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  node { name: 'filt' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  node { name: 'conv' op: 'Conv2D' input: 'img' input: 'filt'
         attr { key: 'T' value { type: DT_FLOAT } }
         attr { key: 'strides' value { list { i: 1 i: 1 i: 1 i: 1 } } }
         attr { key: 'padding' value { s: 'VALID' } } }
)";

std::unique_ptr<Session> NewSession(int inter_op, int intra_op, bool optimize = true) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(inter_op);
  options.config.set_intra_op_parallelism_threads(intra_op);
  options.config.set_use_per_session_threads(true);
  if (!optimize) {
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
  }
  auto s = Session::New(options);
  EXPECT_THAT(s, IsOk());
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(kGraph, &g));
  EXPECT_THAT((*s)->Create(g), IsOk());
  return std::move(s).value();
}

class DenormalSessionTest : public testing::Test {
 protected:
  void SetUp() override {
    if (kFlushDenormalBits == 0) GTEST_SKIP() << "no flush-to-zero mode on this CPU";
    outer_ = ReadFloatMode();
  }
  void TearDown() override {
    if (kFlushDenormalBits != 0) WriteFloatMode(outer_);
  }
  // The keep-denormals build expects IEEE 754's results.
  static bool Flush() { return FlushDenormals(); }
  FloatMode outer_ = 0;
};

TEST_F(DenormalSessionTest, ElementwiseAndMatMulGiveTensorFlowsResults) {
  // The caller keeps subnormals and rounds toward zero: Run must leave both as they are.
  const FloatMode caller = (Mode() & ~kFlushDenormalBits) | 0x6000;
  WriteFloatMode(caller);
  for (const auto& [inter, intra] : {std::pair{1, 1}, std::pair{2, 2}}) {
    std::unique_ptr<Session> s = NewSession(inter, intra);
    const Tensor x = Floats({kSub, -kSub, 2 * kTiny, kSub, 1, 3}, {6});
    const Tensor y = Floats({1, 1, 1, kSub, kSub, -kSub}, {6});
    const float r = 5.421011e-20f;  // r * r is subnormal
    const Tensor a = Floats({1, 1, r, r}, {2, 2});
    const Tensor b = Floats({kSub, r, kSub, r}, {2, 2});
    Tensor d(DT_DOUBLE, TensorShape({2}));
    d.flat<double>()[0] = kSubDouble;
    d.flat<double>()[1] = 1.5;
    Tensor e(DT_DOUBLE, TensorShape({2}));
    e.flat<double>()[0] = 1;
    e.flat<double>()[1] = 1.5;
    std::vector<Tensor> out;
    ASSERT_THAT(s->Run({{"x", x}, {"y", y}, {"a", a}, {"b", b}, {"d", d}, {"e", e}},
                       {"mul", "add", "mm", "mm2", "dmul", "folded"}, {}, &out),
                IsOk());
    EXPECT_EQ(Mode(), caller) << "inter " << inter;
    ASSERT_EQ(out.size(), 6u);
    if (Flush()) {
      // TensorFlow: inputs read as 0 (DAZ), subnormal results are 0 (FTZ), signs kept.
      EXPECT_EQ(BitsOf(out[0]),
                (std::vector<uint32_t>{0, 0x80000000, Bits(2 * kTiny), 0, 0, 0x80000000}));
      EXPECT_EQ(BitsOf(out[1]),
                (std::vector<uint32_t>{Bits(1), Bits(1), Bits(1), 0, Bits(1), Bits(3)}));
      EXPECT_EQ(BitsOf(out[2]), (std::vector<uint32_t>{0, Bits(2 * r), 0, 0}));
      EXPECT_EQ(BitsOf(out[3]), (std::vector<uint32_t>{0, 0, 0, 0}));
      EXPECT_EQ(out[4].flat<double>()[0], 0.0);
      EXPECT_EQ(BitsOf(out[5]), (std::vector<uint32_t>{0}));
    } else {
      EXPECT_EQ(BitsOf(out[0]), (std::vector<uint32_t>{Bits(kSub), Bits(-kSub), Bits(2 * kTiny), 0,
                                                       Bits(kSub), Bits(-3 * kSub)}));
      EXPECT_EQ(out[1].flat<float>()[3], 2 * kSub);
      EXPECT_EQ(out[2].flat<float>()[0], 2 * kSub);
      EXPECT_EQ(out[4].flat<double>()[0], kSubDouble);
      EXPECT_FLOAT_EQ(out[5].flat<float>()[0], 3e-39f);
    }
    EXPECT_EQ(out[4].flat<double>()[1], 2.25);  // normal values are untouched
  }
}

TEST_F(DenormalSessionTest, MinimumAndMaximumFlushASubnormalResult) {
  // TensorFlow 2.21's Minimum / Maximum (minps / maxps with DAZ): a subnormal operand compares as
  // 0, ties return x, and a subnormal result is a zero of its sign.
  std::unique_ptr<Session> s = NewSession(1, 1);
  const float r = 5.421011e-20f;
  const Tensor x = Floats({kSub, -kSub, 2 * kTiny, 1.5f * kTiny, r, kSub, 1, 3, 1.25f * kTiny, 0,
                           -0.0f, kSub, -kSub, kSub},
                          {14});
  const Tensor y =
      Floats({1, 1, 1, 1.2f * kTiny, r, kSub, kSub, -kSub, -kTiny, kSub, kSub, 0, 0, -kSub}, {14});
  Tensor d(DT_DOUBLE, TensorShape({2}));
  d.flat<double>()[0] = kSubDouble;
  d.flat<double>()[1] = -kSubDouble;
  Tensor e(DT_DOUBLE, TensorShape({2}));
  e.flat<double>()[0] = 1;
  e.flat<double>()[1] = 1;
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({{"x", x}, {"y", y}, {"d", d}, {"e", e}}, {"min", "max", "dmin"}, {}, &out),
              IsOk());
  const uint32_t neg0 = 0x80000000;
  if (Flush()) {
    EXPECT_EQ(BitsOf(out[0]),
              (std::vector<uint32_t>{0, neg0, Bits(2 * kTiny), Bits(1.2f * kTiny), Bits(r), 0, 0,
                                     neg0, Bits(-kTiny), 0, neg0, 0, neg0, 0}));
    EXPECT_EQ(BitsOf(out[1]),
              (std::vector<uint32_t>{Bits(1), Bits(1), Bits(1), Bits(1.5f * kTiny), Bits(r), 0,
                                     Bits(1), Bits(3), Bits(1.25f * kTiny), 0, neg0, 0, neg0, 0}));
    EXPECT_EQ(out[2].flat<double>()[0], 0.0);
    EXPECT_TRUE(std::signbit(out[2].flat<double>()[1]));
    EXPECT_EQ(out[2].flat<double>()[1], 0.0);
  } else {
    EXPECT_EQ(out[0].flat<float>()[0], kSub);
    EXPECT_EQ(out[0].flat<float>()[13], -kSub);
    EXPECT_EQ(out[1].flat<float>()[6], 1.0f);
    EXPECT_EQ(out[1].flat<float>()[9], kSub);
    EXPECT_EQ(out[2].flat<double>()[0], kSubDouble);
  }
}

TEST_F(DenormalSessionTest, ACallerThatFlushesKeepsFlushing) {
  const FloatMode caller = Mode() | kFlushDenormalBits;
  WriteFloatMode(caller);
  std::unique_ptr<Session> s = NewSession(1, 1);
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({{"x", Floats({kSub}, {1})}, {"y", Floats({1}, {1})}}, {"mul"}, {}, &out),
              IsOk());
  EXPECT_EQ(Mode(), caller);
  EXPECT_EQ(out[0].flat<float>()[0], 0.0f);  // the caller's own mode flushes too
}

TEST_F(DenormalSessionTest, AnOpenMpTeamFlushesOnEveryThread) {
  // 2^20 elements: AddV2 splits them over an OpenMP team of 2 (the caller and a worker).
  constexpr int64_t kN = 1 << 20;
  const Tensor x = Floats(std::vector<float>(kN, kSub), {kN});
  WriteFloatMode(Mode() & ~kFlushDenormalBits);
  std::unique_ptr<Session> s = NewSession(1, 2);
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({{"x", x}, {"y", x}}, {"add"}, {}, &out), IsOk());
  EXPECT_EQ(Mode() & kFlushDenormalBits, 0u);
  int64_t kept = 0;
  for (int64_t i = 0; i < kN; ++i) kept += out[0].flat<float>()[i] != 0.0f;
  EXPECT_EQ(kept, Flush() ? 0 : kN);
}

TEST_F(DenormalSessionTest, OneDnnsTeamFlushesEvenWithWorkersStartedInAnotherMode) {
  // This thread's OpenMP workers start keeping subnormals (an application's own OpenMP code
  // would leave them so); the convolution's team must still flush on them.
  WriteFloatMode(Mode() & ~kFlushDenormalBits);
  OpenMpRunBlocks(2, [](int64_t) {});
  std::unique_ptr<Session> s = NewSession(1, 2);
  // Every output sums 36 products kSub * 1: 0 when the inputs read as 0, 3 * kTiny otherwise.
  const Tensor img = Floats(std::vector<float>(8 * 8 * 4, kSub), {1, 8, 8, 4});
  const Tensor filt = Floats(std::vector<float>(3 * 3 * 4 * 2, 1.0f), {3, 3, 4, 2});
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({{"img", img}, {"filt", filt}}, {"conv"}, {}, &out), IsOk());
  EXPECT_EQ(Mode() & kFlushDenormalBits, 0u);
  ASSERT_EQ(out[0].NumElements(), 6 * 6 * 2);
  int64_t kept = 0;
  for (int64_t i = 0; i < out[0].NumElements(); ++i) kept += out[0].flat<float>()[i] != 0.0f;
  EXPECT_EQ(kept, Flush() ? 0 : 6 * 6 * 2);
}

TEST_F(DenormalSessionTest, ConstantFoldingGivesWhatTheKernelGives) {
  // The optimizer evaluates `folded` while building the step; without it the kernel runs.
  WriteFloatMode(Mode() & ~kFlushDenormalBits);
  for (bool optimize : {true, false}) {
    std::unique_ptr<Session> s = NewSession(1, 1, optimize);
    std::vector<Tensor> out;
    ASSERT_THAT(s->Run({}, {"folded"}, {}, &out), IsOk());
    if (Flush()) {
      EXPECT_EQ(Bits(out[0].flat<float>()[0]), 0u) << optimize;
    } else {
      EXPECT_FLOAT_EQ(out[0].flat<float>()[0], 3e-39f) << optimize;
    }
    EXPECT_EQ(Mode() & kFlushDenormalBits, 0u);
  }
}

}  // namespace
}  // namespace rill
