#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Poisson(std::vector<int32_t> shape, const Tensor& lam,
                                            DataType dtype) {
  OpTester t("StatelessRandomPoisson");
  t.Attr("Rtype", lam.dtype()).Attr("dtype", dtype).Attr("T", DT_INT32).Attr("Tseed", DT_INT64);
  t.Input(Tensor::FromVector<int32_t>(shape, TensorShape({static_cast<int64_t>(shape.size())})));
  t.Input(Tensor::FromVector<int64_t>({1, 2}, TensorShape({2})));
  t.Input(lam);
  return t.Run();
}

Tensor Rates(std::vector<float> v) {
  return Tensor::FromVector<float>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

// The same seed gives the same samples every run (TensorFlow 2.21's, which the conformance suite
// checks bit for bit); rate 0 gives zeros.
TEST(StatelessRandomPoissonTest, IsAPureFunctionOfItsInputs) {
  RILL_ASSERT_OK_AND_ASSIGN(auto a, Poisson({4, 2}, Rates({0.5f, 30.f}), DT_INT64));
  RILL_ASSERT_OK_AND_ASSIGN(auto b, Poisson({4, 2}, Rates({0.5f, 30.f}), DT_INT64));
  ExpectTensorEqual(a[0], b[0]);
  for (int i = 0; i < 4; ++i) {
    EXPECT_LE(a[0].flat<int64_t>()[2 * i], 6);      // rate 0.5
    EXPECT_GE(a[0].flat<int64_t>()[2 * i + 1], 5);  // rate 30
  }
  RILL_ASSERT_OK_AND_ASSIGN(auto zero, Poisson({3, 1}, Rates({0.f}), DT_FLOAT));
  ExpectTensorEqual(zero[0], Tensor::FromVector<float>({0, 0, 0}, TensorShape({3, 1})));
}

// TensorFlow loops forever on these; Rill answers InvalidArgument naming the node.
TEST(StatelessRandomPoissonTest, RatesWithoutSamplesAreInvalidArgument) {
  EXPECT_THAT(Poisson({2, 1}, Rates({std::numeric_limits<float>::quiet_NaN()}), DT_INT64).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lam[0] is nan")));
  EXPECT_THAT(Poisson({2, 1}, Rates({std::numeric_limits<float>::infinity()}), DT_INT64).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lam[0] is inf")));
  EXPECT_THAT(Poisson({2, 1}, Rates({1e12f}), DT_INT32).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("gives samples past the largest int32")));
  EXPECT_THAT(Poisson({2, 1}, Rates({1e6f}), DT_HALF).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("gives samples past the largest half")));
}

TEST(StatelessRandomPoissonTest, ShapeMustEndWithTheRates) {
  EXPECT_THAT(Poisson({3, 2}, Rates({1.f, 2.f, 3.f}), DT_INT64).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape passed in must end with broadcasted shape."));
}

}  // namespace
}  // namespace rill
