#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor B(std::vector<bool> v, TensorShape s) { return Tensor::FromVector<bool>(v, s); }

absl::StatusOr<std::vector<Tensor>> RunSelect(const std::string& op, const Tensor& c,
                                              const Tensor& t, const Tensor& e) {
  OpTester s(op, "out");
  s.Attr("T", t.dtype()).Input(c).Input(t).Input(e);
  return s.Run();
}

const Tensor kThen = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
const Tensor kElse = F({-1, -2, -3, -4, -5, -6}, TensorShape({2, 3}));

TEST(SelectOpTest, ElementwiseScalarAndRowConditions) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, RunSelect("Select", B({true, false, true, false, false, true}, TensorShape({2, 3})),
                          kThen, kElse));
  ExpectTensorEqual(out[0], F({1, -2, 3, -4, -5, 6}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunSelect("Select", Tensor::Scalar<bool>(false), kThen, kElse));
  ExpectTensorEqual(out[0], kElse);
  EXPECT_TRUE(out[0].SharesBufferWith(kElse));  // a scalar condition forwards the operand
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            RunSelect("Select", B({false, true}, TensorShape({2})), kThen, kElse));
  ExpectTensorEqual(out[0], F({-1, -2, -3, 4, 5, 6}, TensorShape({2, 3})));
}

TEST(SelectOpTest, ShapeErrorsAreTensorFlows) {
  EXPECT_THAT(RunSelect("Select", B({true, false, true}, TensorShape({3})), kThen, kElse),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Number of batches of 'then' must match size of 'cond', but "
                                 "saw: 2 vs. 3")));
  EXPECT_THAT(RunSelect("Select", B({true, false, true, false, false, true}, TensorShape({2, 3})),
                        kThen, F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Inputs to operation out of type Select must have the "
                                 "same size and "
                                 "shape.  Input 0: [2,3] != input 2: [3,2]")));
  EXPECT_THAT(RunSelect("Select", Tensor::Scalar<bool>(true), kThen, F({1, 2}, TensorShape({2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("'then' and 'else' must have the same size.  but received: "
                                 "[2,3] vs. [2]")));
}

TEST(SelectV2OpTest, BroadcastsAllThreeOperands) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            RunSelect("SelectV2", B({true, false, true}, TensorShape({3})), kThen,
                                      Tensor::Scalar<float>(0)));
  ExpectTensorEqual(out[0], F({1, 0, 3, 4, 0, 6}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunSelect("SelectV2", B({false, true}, TensorShape({2, 1})),
                                           F({7, 8, 9}, TensorShape({3})), kElse));
  ExpectTensorEqual(out[0], F({-1, -2, -3, 7, 8, 9}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunSelect("SelectV2", Tensor::Scalar<bool>(true),
                                           Tensor::Scalar<float>(1), Tensor::Scalar<float>(2)));
  ExpectTensorEqual(out[0], Tensor::Scalar<float>(1));
}

TEST(SelectV2OpTest, IncompatibleShapesNameAllThree) {
  EXPECT_THAT(RunSelect("SelectV2", B({true, false, true, false, false, true}, TensorShape({2, 3})),
                        F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})), kElse),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("condition [2,3], then [3,2], and else [2,3] must be "
                                 "broadcastable")));
}

}  // namespace
}  // namespace rill
