#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

// Expected values recorded from TensorFlow 2.21 (ICU's UScriptCode numbers).
TEST(UnicodeScriptOpTest, ScriptsOfCodePointsAndMinusOneOutsideTheRange) {
  const std::vector<int32_t> cps = {0x41,  0x3B1, 0x416, 0x627, 0x65E5,
                                    0x301, 0x21,  0x378, -1,    0x110000};
  Tensor x(DT_INT32, TensorShape({static_cast<int64_t>(cps.size())}));
  for (size_t i = 0; i < cps.size(); ++i) x.flat<int32_t>()[i] = cps[i];
  OpTester t("UnicodeScript");
  t.Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  std::vector<int32_t> got(out[0].flat<int32_t>().data(),
                           out[0].flat<int32_t>().data() + out[0].NumElements());
  // Latin, Greek, Cyrillic, Arabic, Han, Inherited, Common, Unknown, then not code points.
  EXPECT_THAT(got, ElementsAre(25, 14, 8, 2, 17, 1, 0, 103, -1, -1));
}

}  // namespace
}  // namespace rill
