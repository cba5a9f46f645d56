#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(PrintOpsTest, StringFormatThenPrintV2ToAFile) {
  OpTester format("StringFormat");
  format.Attr("T", std::vector<DataType>{DT_INT32}).Attr("template", "x = {}");
  format.Attr("placeholder", "{}");
  format.Input(Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6, 7}, TensorShape({7})));
  RILL_ASSERT_OK_AND_ASSIGN(auto text, format.Run());
  ExpectTensorEqual(text[0], Tensor::Scalar<std::string>("x = [1 2 3 ... 5 6 7]"));

  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/print_v2.txt";
  std::remove(path.c_str());
  OpTester print("PrintV2");
  print.Attr("output_stream", "file://" + path).Input(text[0]);
  RILL_ASSERT_OK(print.Run().status());
  RILL_ASSERT_OK(print.Run().status());
  EXPECT_EQ(ReadFile(path), "x = [1 2 3 ... 5 6 7]\nx = [1 2 3 ... 5 6 7]\n");
}

TEST(PrintOpsTest, ErrorsAreTensorFlows) {
  OpTester format("StringFormat");
  format.Attr("T", std::vector<DataType>{DT_INT32}).Attr("template", "{} {}");
  format.Attr("placeholder", "{}").Input(Tensor::Scalar<int32_t>(1));
  EXPECT_THAT(format.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("Number of placeholders in template (2) does not "
                                               "match number of inputs (1)")));
  OpTester print("PrintV2");
  print.Attr("output_stream", "nowhere").Input(Tensor::Scalar<std::string>("x"));
  EXPECT_THAT(print.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("Unknown output stream: nowhere")));
}

TEST(PrintOpsTest, PrintForwardsItsInput) {
  OpTester t("Print");
  const Tensor x = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  t.Attr("T", DT_FLOAT).Attr("U", std::vector<DataType>{DT_FLOAT}).Attr("message", "x: ");
  t.Attr("first_n", int64_t{1}).Input(x).Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  EXPECT_TRUE(out[0].SharesBufferWith(x));
  RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());  // past first_n: forwards without printing
  EXPECT_TRUE(out[0].SharesBufferWith(x));
}

}  // namespace
}  // namespace rill
