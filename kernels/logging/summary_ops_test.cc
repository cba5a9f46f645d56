#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

std::string Summary(const Tensor& value, const std::string& node) {
  OpTester t("TensorSummary", node);
  t.Attr("T", value.dtype()).Attr("labels", std::vector<std::string>{"foo", "bar"});
  t.Input(value);
  absl::StatusOr<std::vector<Tensor>> out = t.Run();
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return "";
  EXPECT_EQ(out->at(0).shape(), TensorShape({}));
  return out->at(0).flat<std::string>()[0];
}

// The bytes TensorFlow 2.21's TensorSummary gives for the same nodes and values.
TEST(TensorSummaryOpTest, WritesTensorFlowsBytes) {
  EXPECT_EQ(Summary(Tensor::FromVector<float>({1.5f, 2.0f}, TensorShape({2})), "ts"),
            std::string("\n\x18:\x02tsB\x12\x08\x01\x12\x04\x12\x02\x08\x02\"\x08\x00\x00\xc0?"
                        "\x00\x00\x00@",
                        26));
  EXPECT_EQ(Summary(Tensor::FromVector<std::string>({"x", "yz"}, TensorShape({2})), "ts2"),
            std::string("\n\x16:\x03ts2B\x0f\x08\x07\x12\x04\x12\x02\x08\x02"
                        "B\x01xB\x02yz",
                        24));
  EXPECT_EQ(Summary(Tensor::FromVector<int32_t>({3}, TensorShape({})), "ts3"),
            std::string("\n\x11:\x03ts3B\n\x08\x03\x12\x00\"\x04\x03\x00\x00\x00", 19));
}

TEST(TensorSummaryOpTest, VariantInputIsUnimplemented) {
  OpTester t("TensorSummary", "s");
  t.Attr("T", DT_VARIANT).Input(Tensor(DT_VARIANT, TensorShape({})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kUnimplemented,
                                "TensorSummary node s: a variant tensor has no TensorProto form "
                                "in Rill"));
}

}  // namespace
}  // namespace rill
