#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Tensor Doubles(const std::vector<double>& v) {
  Tensor t(DT_DOUBLE, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.flat<double>()[i] = v[i];
  return t;
}

Tensor Seed() {
  Tensor s(DT_INT64, TensorShape({2}));
  s.flat<int64_t>()[0] = 1;
  s.flat<int64_t>()[1] = 2;
  return s;
}

// Recorded from TensorFlow 2.21: count 5 draws by inversion, count 40 with p 0.6 by BTRS on
// 1 - p; output [3, 2] holds samples of the two batches side by side.
TEST(StatelessRandomBinomialOpTest, TensorFlowsSamples) {
  Tensor shape(DT_INT32, TensorShape({2}));
  shape.flat<int32_t>()[0] = 3;
  shape.flat<int32_t>()[1] = 2;
  OpTester t("StatelessRandomBinomial");
  t.Attr("S", DT_INT32).Attr("Tseed", DT_INT64).Attr("T", DT_DOUBLE).Attr("dtype", DT_INT32);
  t.Input(shape).Input(Seed()).Input(Doubles({5, 40})).Input(Doubles({0.3, 0.6}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  std::vector<int32_t> got(out[0].flat<int32_t>().data(), out[0].flat<int32_t>().data() + 6);
  EXPECT_THAT(got, ElementsAre(3, 16, 2, 27, 2, 21));
}

// TensorFlow loops forever on a NaN count; Rill refuses it.
TEST(StatelessRandomBinomialOpTest, NanCountIsRefused) {
  Tensor shape(DT_INT32, TensorShape({1}));
  shape.flat<int32_t>()[0] = 1;
  OpTester t("StatelessRandomBinomial");
  t.Attr("S", DT_INT32).Attr("Tseed", DT_INT64).Attr("T", DT_DOUBLE).Attr("dtype", DT_INT32);
  t.Input(shape).Input(Seed()).Input(Doubles({std::nan("")})).Input(Doubles({0.3}));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pass finite counts")));
}

}  // namespace
}  // namespace rill
