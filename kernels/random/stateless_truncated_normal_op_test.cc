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

using ::testing::Eq;

Tensor Doubles(const std::vector<double>& v) {
  Tensor t(DT_DOUBLE, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.flat<double>()[i] = v[i];
  return t;
}

void Configure(OpTester& t, const std::vector<double>& stddevs) {
  Tensor shape(DT_INT32, TensorShape({2}));
  shape.flat<int32_t>()[0] = 2;
  shape.flat<int32_t>()[1] = 2;
  Tensor seed(DT_INT64, TensorShape({2}));
  seed.flat<int64_t>()[0] = 1;
  seed.flat<int64_t>()[1] = 2;
  t.Attr("S", DT_INT32).Attr("Tseed", DT_INT64).Attr("dtype", DT_DOUBLE);
  t.Input(shape).Input(seed).Input(Doubles({0, 0})).Input(Doubles(stddevs));
  t.Input(Doubles({-2, 2.5})).Input(Doubles({2, std::numeric_limits<double>::infinity()}));
}

// Recorded from TensorFlow 2.21: batch 0 by normal rejection in [-2, 2], batch 1 by exponential
// rejection above 2.5 (stddev 2), in output order from one stream.
TEST(StatelessParameterizedTruncatedNormalOpTest, TensorFlowsSamples) {
  OpTester t("StatelessParameterizedTruncatedNormal");
  Configure(t, {1, 2});
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const std::vector<double> want = {-0.1423118100189212, 4.426246260544485, 0.7406072461585091,
                                    3.2359895918838584};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<double>()[i], want[i]) << i;
}

TEST(StatelessParameterizedTruncatedNormalOpTest, NonPositiveStddevIsRefused) {
  OpTester t("StatelessParameterizedTruncatedNormal");
  Configure(t, {1, 0});
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("Invalid parameters")));
}

}  // namespace
}  // namespace rill
