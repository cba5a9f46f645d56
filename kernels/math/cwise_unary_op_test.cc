// Neg, Atan, Asin, Acos, Tan, IsNan, IsInf, Rint, Inv and LeakyRelu on the CPU; the other unary
// kernels are covered by tests/conformance.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/half.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Runs unary `op` on a double vector; returns its output tensor.
Tensor RunUnary(const std::string& op, const std::vector<double>& x) {
  OpTester t(op, "u");
  t.Attr("T", DT_DOUBLE)
      .Input(Tensor::FromVector<double>(x, TensorShape({static_cast<int64_t>(x.size())})));
  auto out = t.Run();
  EXPECT_TRUE(out.ok()) << op << ": " << out.status();
  return out.ok() ? (*out)[0] : Tensor();
}

std::vector<double> Doubles(const Tensor& t) {
  auto flat = t.flat<double>();
  return std::vector<double>(flat.begin(), flat.end());
}

// Neg flips the sign bit as TensorFlow's -x does: Neg(+0) is -0, Neg(-0) is +0, a NaN's sign flips.
TEST(CwiseUnaryTest, NegFlipsTheSignOfZerosAndNaNs) {
  const std::vector<double> got = Doubles(RunUnary("Neg", {0.0, -0.0, kNaN, -kInf, 2.5}));
  EXPECT_TRUE(std::signbit(got[0]));
  EXPECT_EQ(got[0], 0.0);
  EXPECT_FALSE(std::signbit(got[1]));
  EXPECT_EQ(got[1], 0.0);
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_TRUE(std::signbit(got[2]));
  EXPECT_EQ(got[3], kInf);
  EXPECT_EQ(got[4], -2.5);
}

TEST(CwiseUnaryTest, InverseTrigonometry) {
  const std::vector<double> x = {0.0, 0.5, -1.0, 1.0};
  EXPECT_EQ(Doubles(RunUnary("Atan", x)),
            (std::vector<double>{0.0, std::atan(0.5), -M_PI / 4, M_PI / 4}));
  EXPECT_EQ(Doubles(RunUnary("Asin", x)),
            (std::vector<double>{0.0, std::asin(0.5), -M_PI / 2, M_PI / 2}));
  EXPECT_EQ(Doubles(RunUnary("Acos", x)),
            (std::vector<double>{M_PI / 2, std::acos(0.5), M_PI, 0.0}));
  EXPECT_EQ(Doubles(RunUnary("Tan", {0.0, 0.25})), (std::vector<double>{0.0, std::tan(0.25)}));
}

TEST(CwiseUnaryTest, OutsideTheDomainIsNaN) {
  for (const char* op : {"Asin", "Acos"}) {
    for (double v : Doubles(RunUnary(op, {1.5, -2.0, kNaN}))) EXPECT_TRUE(std::isnan(v)) << op;
  }
  EXPECT_EQ(Doubles(RunUnary("Atan", {kInf, -kInf})), (std::vector<double>{M_PI / 2, -M_PI / 2}));
}

TEST(CwiseUnaryTest, IsNanAndIsInfGiveBools) {
  const std::vector<double> x = {kNaN, kInf, -kInf, 0.0, 1e308};
  const Tensor nan = RunUnary("IsNan", x);
  const Tensor inf = RunUnary("IsInf", x);
  ASSERT_EQ(nan.dtype(), DT_BOOL);
  ASSERT_EQ(inf.dtype(), DT_BOOL);
  const std::vector<bool> want_nan = {true, false, false, false, false};
  const std::vector<bool> want_inf = {false, true, true, false, false};
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(nan.flat<bool>()[i], want_nan[i]) << i;
    EXPECT_EQ(inf.flat<bool>()[i], want_inf[i]) << i;
  }
}

TEST(CwiseUnaryTest, RintRoundsHalfToEven) {
  EXPECT_EQ(Doubles(RunUnary("Rint", {0.5, 1.5, 2.5, -2.5, -0.4, 1e15 + 0.5})),
            (std::vector<double>{0.0, 2.0, 2.0, -2.0, -0.0, 1e15}));
}

TEST(CwiseUnaryTest, InvIsReciprocal) {
  EXPECT_EQ(Doubles(RunUnary("Inv", {2.0, -0.25, 0.0, kInf})),
            (std::vector<double>{0.5, -4.0, kInf, 0.0}));
}

// TensorFlow's select: x > 0 ? x : x * alpha, so 0 and -0 give 0 * alpha (NaN for a NaN alpha,
// -0 for a negative one).
TEST(CwiseUnaryTest, LeakyReluMultipliesEverythingButPositives) {
  OpTester t("LeakyRelu", "u");
  t.Attr("T", DT_DOUBLE)
      .Attr("alpha", std::numeric_limits<float>::quiet_NaN())
      .Input(Tensor::FromVector<double>({0.0, -0.0, 1.0, -1.0}, TensorShape({4})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const std::vector<double> nan_alpha = Doubles(out[0]);
  EXPECT_TRUE(std::isnan(nan_alpha[0]));
  EXPECT_TRUE(std::isnan(nan_alpha[1]));
  EXPECT_EQ(nan_alpha[2], 1.0);
  EXPECT_TRUE(std::isnan(nan_alpha[3]));
  OpTester negative("LeakyRelu", "u");
  negative.Attr("T", DT_DOUBLE)
      .Attr("alpha", -0.5f)
      .Input(Tensor::FromVector<double>({0.0, -2.0}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, negative.Run());
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{0.0, 1.0}));
  EXPECT_TRUE(std::signbit(Doubles(out[0])[0]));
}

// The float loop is vectorized: over a length with a vector body and a tail, every element is
// TensorFlow's x > 0 ? x : x * alpha bit for bit (NaN, +-inf, -0 and subnormals included).
TEST(CwiseUnaryTest, LeakyReluFloatLoopMatchesTheScalarFormula) {
  const float alpha = 0.1f;
  std::vector<float> x(1037);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * i) * (1 + i % 7);
  x[3] = std::numeric_limits<float>::quiet_NaN();
  x[4] = std::numeric_limits<float>::infinity();
  x[5] = -std::numeric_limits<float>::infinity();
  x[6] = -0.0f;
  x[7] = -std::numeric_limits<float>::denorm_min();
  x[1036] = -3.0f;
  OpTester t("LeakyRelu", "u");
  t.Attr("T", DT_FLOAT)
      .Attr("alpha", alpha)
      .Input(Tensor::FromVector<float>(x, TensorShape({static_cast<int64_t>(x.size())})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const auto got = out[0].flat<float>();
  ASSERT_EQ(got.size(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = x[i] > 0.0f ? x[i] : x[i] * alpha;
    EXPECT_EQ(std::memcmp(&got[i], &want, sizeof(float)), 0)
        << "element " << i << ": " << got[i] << " vs " << want;
  }
}

// half runs in chunks widened and rounded by F16C (kernels/math_lib/cwise_op.h): over all 65,536
// half bit patterns (NaNs, +-inf, -0, subnormals) every element is the float result rounded once
// to half, as the scalar conversions of core/half.h give it, with F16C and without (baseline).
TEST(CwiseUnaryTest, HalfIsTheFloatResultRoundedOnce) {
  Tensor x(DT_HALF, TensorShape({65536}));
  for (int i = 0; i < 65536; ++i) x.flat<half>()[i] = half::FromBits(static_cast<uint16_t>(i));
  struct Case {
    std::string op;
    float (*f)(float);
  };
  const Case cases[] = {
      {"Relu", [](float v) { return std::isnan(v) ? v : (v > 0.f ? v : 0.f); }},
      {"Abs", [](float v) { return std::fabs(v); }},
      {"Square", [](float v) { return v * v; }},
  };
  for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx512}) {
    ScopedSimdLevelForTesting cap(level);
    for (const Case& c : cases) {
      SCOPED_TRACE(c.op + " " + SimdLevelName(level));
      OpTester t(c.op, "u");
      t.Attr("T", DT_HALF).Input(x);
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      int mismatches = 0;
      for (int i = 0; i < 65536; ++i) {
        const half want(c.f(static_cast<float>(x.flat<half>()[i])));
        const half got = out[0].flat<half>()[i];
        if (got.bits != want.bits && ++mismatches <= 3) {
          ADD_FAILURE() << "input bits " << i << ": " << got.bits << ", want " << want.bits;
        }
      }
      EXPECT_EQ(mismatches, 0);
    }
    OpTester t("IsNan", "u");
    t.Attr("T", DT_HALF).Input(x);
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    for (int i = 0; i < 65536; ++i) {
      ASSERT_EQ(out[0].flat<bool>()[i], (i & 0x7c00) == 0x7c00 && (i & 0x3ff) != 0) << i;
    }
  }
}

TEST(CwiseUnaryTest, IntegerInvHasNoCpuKernel) {
  OpTester t("Inv", "u");
  t.Attr("T", DT_INT32).Input(Tensor::FromVector<int32_t>({2}, TensorShape({1})));
  EXPECT_THAT(t.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       testing::HasSubstr("No OpKernel was registered to support Op 'Inv'")));
}

}  // namespace
}  // namespace rill
