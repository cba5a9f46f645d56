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

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

absl::StatusOr<std::vector<Tensor>> Range(int32_t start, int32_t limit, int32_t delta) {
  OpTester t("Range");
  t.Input(Tensor::Scalar<int32_t>(start)).Input(Tensor::Scalar<int32_t>(limit));
  t.Input(Tensor::Scalar<int32_t>(delta));
  return t.Run();
}

TEST(RangeOpTest, UpAndDownWithPartialLastStep) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Range(1, 8, 3));
  ExpectTensorEqual(out[0], I32({1, 4, 7}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Range(5, 0, -2));
  ExpectTensorEqual(out[0], I32({5, 3, 1}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Range(2, 2, 1));
  ExpectTensorEqual(out[0], I32({}, TensorShape({0})));
}

// TensorFlow 2.21's tf.range(1e30, 1e30 + 1e24, 1e23) in float32 (crafted_round7's
// Range_float_huge_start): start + i * delta, where repeated addition gives 1.00000017e30 third.
TEST(RangeOpTest, FloatElementsAreStartPlusIndexTimesDelta) {
  OpTester t("Range");
  t.Attr("Tidx", DT_FLOAT);
  t.Input(Tensor::Scalar<float>(1e30f)).Input(Tensor::Scalar<float>(1e30f + 1e24f));
  t.Input(Tensor::Scalar<float>(1e23f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out[0].NumElements(), 10);
  const float* z = out[0].flat<float>().data();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(z[i], 1e30f + static_cast<float>(i) * 1e23f) << i;
  EXPECT_EQ(z[2], 1.00000024e30f);
  EXPECT_EQ(z[9], 1.00000092e30f);
}

TEST(RangeOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(Range(0, 5, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Requires delta != 0: 0")));
  EXPECT_THAT(Range(5, 0, 1), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("Requires start <= limit when delta > 0: 5/0")));
}

template <typename T>
absl::StatusOr<std::vector<Tensor>> RangeOf(T start, T limit, T delta) {
  OpTester t("Range");
  t.Attr("Tidx", DataTypeToEnum<T>::value);
  t.Input(Tensor::Scalar<T>(start)).Input(Tensor::Scalar<T>(limit));
  t.Input(Tensor::Scalar<T>(delta));
  return t.Run();
}

// Issue 26: a size computed from NaN, inf or huge bounds is InvalidArgument with TensorFlow's
// texts, never a TensorShape abort; a size that fits int64 but not memory is ResourceExhausted.
template <typename T>
void ExpectFloatRangeErrors() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const auto bound = HasSubstr("Requires ((limit - start) / delta) <= 9223372036854775807");
  EXPECT_THAT(RangeOf<T>(0, inf, 1), StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<T>(-inf, 0, 1), StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<T>(0, T(1e30), 1), StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<T>(T(1e30), 0, -1), StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<T>(0, 0, nan), StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<T>(0, nan, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Requires start <= limit when delta > 0: 0/nan")));
  EXPECT_THAT(RangeOf<T>(nan, 0, -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Requires start >= limit when delta < 0: nan/0")));
  EXPECT_THAT(RangeOf<T>(0, 5, nan),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Requires start >= limit when delta < 0: 0/5")));
  // 2^59 elements fit int64 (and size_t bytes) but no memory.
  EXPECT_THAT(RangeOf<T>(0, T(576460752303423488.0), 1),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("OOM when allocating")));
}

TEST(RangeOpTest, FloatNanInfAndHugeBoundsAreInvalidArgument) {
  ExpectFloatRangeErrors<float>();
  ExpectFloatRangeErrors<double>();
}

TEST(RangeOpTest, IntegerSpansPastInt64AreInvalidArgument) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const auto bound = HasSubstr("Requires ((limit - start) / delta) <= 9223372036854775807");
  EXPECT_THAT(RangeOf<int64_t>(kMin, kMax, 1), StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<int64_t>(kMax, kMin, -1),
              StatusIs(absl::StatusCode::kInvalidArgument, bound));
  EXPECT_THAT(RangeOf<int64_t>(0, kMax / 16, 1),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("OOM when allocating")));
  // Steps that end next to the type's limits never overflow.
  RILL_ASSERT_OK_AND_ASSIGN(auto out, RangeOf<int64_t>(kMin, kMax, kMax));
  ExpectTensorEqual(out[0], I64({kMin, -1, kMax - 1}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RangeOf<int64_t>(kMax, kMin, kMin));
  ExpectTensorEqual(out[0], I64({kMax, -1}, TensorShape({2})));
  constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
  RILL_ASSERT_OK_AND_ASSIGN(out, RangeOf<int32_t>(0, kMax32, kMax32 / 2 + 1));
  ExpectTensorEqual(out[0], I32({0, kMax32 / 2 + 1}, TensorShape({2})));
}

absl::StatusOr<std::vector<Tensor>> LinSpace(const Tensor& start, const Tensor& stop, int64_t num) {
  OpTester t("LinSpace");
  t.Attr("T", start.dtype()).Attr("Tidx", DT_INT64);
  t.Input(start).Input(stop).Input(Tensor::Scalar<int64_t>(num));
  return t.Run();
}

TEST(LinSpaceOpTest, EndsExactlyAtStop) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            LinSpace(Tensor::Scalar<float>(0), Tensor::Scalar<float>(1), 5));
  ExpectTensorEqual(out[0], F({0, 0.25f, 0.5f, 0.75f, 1}, TensorShape({5})));
  RILL_ASSERT_OK_AND_ASSIGN(out, LinSpace(Tensor::Scalar<float>(3), Tensor::Scalar<float>(9), 1));
  ExpectTensorEqual(out[0], F({3}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            LinSpace(Tensor::Scalar<double>(1), Tensor::Scalar<double>(-1), 3));
  ExpectTensorEqual(out[0], Tensor::FromVector<double>({1, 0, -1}, TensorShape({3})));
}

TEST(LinSpaceOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(LinSpace(Tensor::Scalar<float>(0), Tensor::Scalar<float>(1), 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Requires num > 0: 0")));
  EXPECT_THAT(LinSpace(F({0, 1}, TensorShape({2})), Tensor::Scalar<float>(1), 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("start must be a scalar, not shape [2]")));
}

}  // namespace
}  // namespace rill
