#include <cmath>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Xent(const std::string& op, const Tensor& logits,
                                         const Tensor& labels) {
  OpTester t(op);
  t.Attr("T", logits.dtype()).Input(logits).Input(labels);
  if (op == "SparseSoftmaxCrossEntropyWithLogits") t.Attr("Tlabels", labels.dtype());
  return t.Run();
}

const Tensor kLogits = Tensor::FromVector<double>({0, std::log(3.0), 5, 5}, TensorShape({2, 2}));

TEST(XentOpsTest, DenseLabelsLossAndBackprop) {
  const Tensor labels = Tensor::FromVector<double>({0, 1, 0.5, 0.5}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Xent("SoftmaxCrossEntropyWithLogits", kLogits, labels));
  EXPECT_DOUBLE_EQ(out[0].flat<double>()[0], -std::log(0.75));
  EXPECT_DOUBLE_EQ(out[0].flat<double>()[1], std::log(2.0));
  EXPECT_DOUBLE_EQ(out[1].flat<double>()[0], 0.25);   // softmax 0.25 - label 0
  EXPECT_DOUBLE_EQ(out[1].flat<double>()[1], -0.25);  // 0.75 - 1
  EXPECT_DOUBLE_EQ(out[1].flat<double>()[2], 0.0);
}

TEST(XentOpsTest, SparseLabelsAreOneHotRows) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Xent("SparseSoftmaxCrossEntropyWithLogits", kLogits,
                                           Tensor::FromVector<int32_t>({1, 0}, TensorShape({2}))));
  EXPECT_DOUBLE_EQ(out[0].flat<double>()[0], -std::log(0.75));
  EXPECT_DOUBLE_EQ(out[1].flat<double>()[1], -0.25);
  EXPECT_DOUBLE_EQ(out[1].flat<double>()[2], -0.5);
}

TEST(XentOpsTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(Xent("SparseSoftmaxCrossEntropyWithLogits", kLogits,
                   Tensor::FromVector<int32_t>({0, 5}, TensorShape({2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Received a label value of 5 which is outside the valid range "
                                 "of [0, 2).  Label values: 0 5")));
  EXPECT_THAT(Xent("SparseSoftmaxCrossEntropyWithLogits", kLogits,
                   Tensor::FromVector<int32_t>({0, 1, 1}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("logits and labels must have the same first dimension, got "
                                 "logits shape [2,2] and labels shape [3]")));
  EXPECT_THAT(Xent("SoftmaxCrossEntropyWithLogits", kLogits,
                   Tensor::FromVector<double>({1, 0, 0}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("logits and labels must be broadcastable: logits_size=[2,2] "
                                 "labels_size=[3]")));
}

}  // namespace
}  // namespace rill
