// Mod on the CPU (C's truncating % and fmod) and Equal / NotEqual on strings; the other binary
// kernels are covered by tests/conformance.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

template <typename T>
absl::StatusOr<std::vector<Tensor>> RunMod(DataType dtype, const std::vector<T>& x,
                                           const std::vector<T>& y) {
  OpTester t("Mod", "m");
  const TensorShape shape({static_cast<int64_t>(x.size())});
  t.Attr("T", dtype)
      .Input(Tensor::FromVector<T>(x, shape))
      .Input(Tensor::FromVector<T>(y, TensorShape({static_cast<int64_t>(y.size())})));
  return t.Run();
}

TEST(ModTest, IntegersTruncateTowardZero) {
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      RunMod<int32_t>(DT_INT32, {7, -7, 7, -7, std::numeric_limits<int32_t>::min()},
                      {2, 2, -2, -2, -1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({1, -1, 1, -1, 0}, TensorShape({5})));
}

TEST(ModTest, FloatsAreFmod) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunMod<double>(DT_DOUBLE, {5.5, -5.5, 5.5}, {2.0, 2.0, -2.0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<double>({1.5, -1.5, 1.5}, TensorShape({3})));
}

TEST(ModTest, BroadcastsScalarDivisor) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunMod<int64_t>(DT_INT64, {10, -10, 3}, {4}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({2, -2, 3}, TensorShape({3})));
}

TEST(ModTest, IntegerZeroDivisorIsInvalidArgument) {
  EXPECT_THAT(
      RunMod<int32_t>(DT_INT32, {1, 2}, {1, 0}),
      StatusIs(absl::StatusCode::kInvalidArgument, testing::HasSubstr("Integer division by zero")));
}

TEST(EqualTest, StringsCompareByValueWithBroadcasting) {
  for (const char* op : {"Equal", "NotEqual"}) {
    OpTester t(op, "eq");
    t.Attr("T", DT_STRING)
        .Input(Tensor::FromVector<std::string>({"x", "", "xy"}, TensorShape({3})))
        .Input(Tensor::Scalar<std::string>("x"));
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    const bool eq = std::string(op) == "Equal";
    ExpectTensorEqual(out[0], Tensor::FromVector<bool>({eq, !eq, !eq}, TensorShape({3})));
  }
}

}  // namespace
}  // namespace rill
