#include <cmath>

#include "core/random/distributions.h"
#include "core/random/philox.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Shape(std::vector<int32_t> dims) {
  const int64_t n = static_cast<int64_t>(dims.size());
  return Tensor::FromVector<int32_t>(dims, TensorShape({n}));
}

void Configure(OpTester& t, int64_t seed, int64_t seed2, DataType dtype = DT_FLOAT) {
  t.Attr("dtype", dtype).Attr("T", DT_INT32).Attr("seed", seed).Attr("seed2", seed2);
}

TEST(RandomOpsTest, UniformIsPhiloxBlocksConvertedAndRunsContinueTheStream) {
  OpTester t("RandomUniform");
  Configure(t, 1, 2);
  t.Input(Shape({6}));
  RILL_ASSERT_OK_AND_ASSIGN(auto first, t.Run());
  RILL_ASSERT_OK_AND_ASSIGN(auto second, t.Run());
  // Run 1 uses blocks 0 and 1 of the (1, 2) stream; run 2 starts 6 * 256 blocks later.
  PhiloxRandom gen(1, 2);
  for (int run = 0; run < 2; ++run) {
    PhiloxRandom base = gen;
    const auto& out = run == 0 ? first[0] : second[0];
    for (int g = 0; g < 2; ++g) {
      const PhiloxRandom::ResultType block = base();
      for (int i = 0; i < 4 && g * 4 + i < 6; ++i) {
        EXPECT_EQ(out.flat<float>()[g * 4 + i], random::Uint32ToFloat(block[i]))
            << "run " << run << " element " << g * 4 + i;
      }
    }
    gen.Skip(6 * 256);
  }
}

TEST(RandomOpsTest, SameSeedsSameValuesAcrossKernels) {
  OpTester a("RandomStandardNormal"), b("RandomStandardNormal");
  Configure(a, 7, 9);
  Configure(b, 7, 9);
  a.Input(Shape({3, 3}));
  b.Input(Shape({3, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto x, a.Run());
  RILL_ASSERT_OK_AND_ASSIGN(auto y, b.Run());
  ExpectTensorEqual(x[0], y[0]);
}

TEST(RandomOpsTest, TruncatedNormalStaysWithinTwoDeviations) {
  OpTester t("TruncatedNormal");
  Configure(t, 3, 4, DT_DOUBLE);
  t.Input(Shape({1000}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  for (double v : out[0].flat<double>()) EXPECT_LT(std::abs(v), 2.0);
}

TEST(RandomOpsTest, UniformIntRangeAndErrors) {
  OpTester t("RandomUniformInt");
  t.Attr("Tout", DT_INT32).Attr("T", DT_INT32).Attr("seed", int64_t{5}).Attr("seed2", int64_t{6});
  t.Input(Shape({100})).Input(Tensor::Scalar<int32_t>(-3)).Input(Tensor::Scalar<int32_t>(4));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  for (int32_t v : out[0].flat<int32_t>()) {
    EXPECT_GE(v, -3);
    EXPECT_LT(v, 4);
  }
  OpTester bad("RandomUniformInt");
  bad.Attr("Tout", DT_INT32).Attr("T", DT_INT32).Attr("seed", int64_t{5});
  bad.Input(Shape({2})).Input(Tensor::Scalar<int32_t>(5)).Input(Tensor::Scalar<int32_t>(5));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("Need minval < maxval, got 5 >= 5")));
  OpTester neg("RandomUniform");
  Configure(neg, 1, 1);
  neg.Input(Shape({2, -1}));
  EXPECT_THAT(neg.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Dimension -1 must be >= 0")));
}

// Issue 26: the shape input is checked before it becomes a TensorShape.
TEST(RandomOpsTest, NegativeOverflowingOrHugeShapesAreErrorsNotCrashes) {
  const auto uniform = [](std::vector<int64_t> dims) {
    OpTester t("RandomUniform");
    t.Attr("dtype", DT_FLOAT)
        .Attr("T", DT_INT64)
        .Attr("seed", int64_t{1})
        .Attr("seed2", int64_t{2});
    t.Input(Tensor::FromVector<int64_t>(dims, TensorShape({static_cast<int64_t>(dims.size())})));
    return t.Run();
  };
  EXPECT_THAT(uniform({2, -3}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("-3")));
  EXPECT_THAT(uniform({int64_t{1} << 62, 4}), StatusIs(absl::StatusCode::kInvalidArgument,
                                                       ::testing::HasSubstr("overflows int64")));
  EXPECT_THAT(uniform({int64_t{1} << 59}), StatusIs(absl::StatusCode::kResourceExhausted,
                                                    ::testing::HasSubstr("OOM when allocating")));
}

}  // namespace
}  // namespace rill
