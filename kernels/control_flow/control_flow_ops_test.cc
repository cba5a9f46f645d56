#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

const Tensor kData = Tensor::FromVector<float>({1.5f, -2}, TensorShape({2}));

TEST(SwitchOpTest, ForwardsToThePortThePredicateNamesAndLeavesTheOtherUnset) {
  for (bool pred : {false, true}) {
    OpTester t("Switch", "sw");
    t.Attr("T", DT_FLOAT).Input(kData).Input(Tensor::Scalar<bool>(pred));
    ASSERT_THAT(t.Init(), IsOk());
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
    ASSERT_EQ(out.size(), 2u);
    const int taken = pred ? 1 : 0;
    ExpectTensorEqual(out[taken].tensor, kData);
    EXPECT_TRUE(out[taken].tensor.SharesBufferWith(kData));
    EXPECT_FALSE(out[1 - taken].tensor.IsInitialized()) << "the dead output must stay unset";
    EXPECT_FALSE(t.kernel().IsExpensive());
  }
}

TEST(SwitchOpTest, NonScalarPredicateIsTensorFlowsError) {
  OpTester t("Switch", "sw");
  t.Attr("T", DT_FLOAT)
      .Input(kData)
      .Input(Tensor::FromVector<bool>({true, false}, TensorShape({2})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The second input must be a scalar, but it has shape [2]"));
}

TEST(SwitchNOpTest, ForwardsToTheIndexedOutputOrTheLastWhenOutOfRange) {
  for (int32_t index : {0, 1, 2, 3, -1}) {
    OpTester t("_SwitchN", "sw");
    t.Attr("T", DT_FLOAT).Attr("num_outs", 3).Input(kData).Input(Tensor::Scalar<int32_t>(index));
    ASSERT_THAT(t.Init(), IsOk());
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
    ASSERT_EQ(out.size(), 3u);
    const int taken = index >= 0 && index < 3 ? index : 2;
    for (int i = 0; i < 3; ++i) {
      if (i == taken) {
        ExpectTensorEqual(out[i].tensor, kData);
      } else {
        EXPECT_FALSE(out[i].tensor.IsInitialized()) << "output " << i << " must stay unset";
      }
    }
  }
}

TEST(SwitchNOpTest, NonScalarIndexIsAnError) {
  OpTester t("_SwitchN", "sw");
  t.Attr("T", DT_FLOAT)
      .Attr("num_outs", 2)
      .Input(kData)
      .Input(Tensor::FromVector<int32_t>({0, 1}, TensorShape({2})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The second input must be a scalar, but it has shape [2]"));
}

TEST(SwitchOpTest, RefSwitchForwardsTheReference) {
  Var var(DT_FLOAT);
  {
    rill::WriterMutexLock lock(var.mu());
    *var.tensor() = kData;
  }
  OpTester t("RefSwitch", "sw");
  t.Attr("T", DT_FLOAT).RefInput(var.tensor(), var.mu(), "v").Input(Tensor::Scalar<bool>(true));
  ASSERT_THAT(t.Init(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
  EXPECT_EQ(out[1].ref, var.tensor());
  EXPECT_FALSE(out[0].is_ref());
}

TEST(MergeOpTest, ForwardsTheFirstLiveInputAndItsIndex) {
  const Tensor other = Tensor::FromVector<float>({7}, TensorShape({1}));
  OpTester t("Merge", "m");
  t.Attr("T", DT_FLOAT).Attr("N", 3).InputValue(TensorValue{}).Input(kData).Input(other);
  ASSERT_THAT(t.Init(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
  ExpectTensorEqual(out[0].tensor, kData);
  ExpectTensorEqual(out[1].tensor, Tensor::Scalar<int32_t>(1));
}

TEST(MergeOpTest, NoLiveInputIsAnInternalError) {
  OpTester t("Merge", "m");
  t.Attr("T", DT_FLOAT).Attr("N", 2).InputValue(TensorValue{}).InputValue(TensorValue{});
  ASSERT_THAT(t.Init(), IsOk());
  EXPECT_THAT(t.RunWith(t.inputs()).status(),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("Merge node m ran with no live")));
}

TEST(ForwardingOpsTest, EnterExitNextIterationLoopCondPassTheirInputThrough) {
  for (const char* op : {"Enter", "Exit", "NextIteration"}) {
    OpTester t(op);
    t.Attr("T", DT_FLOAT).Input(kData);
    if (std::string(op) == "Enter") t.Attr("frame_name", "while/while_context");
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    EXPECT_TRUE(out[0].SharesBufferWith(kData)) << op;
  }
  OpTester cond("LoopCond");
  cond.Input(Tensor::Scalar<bool>(true));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, cond.Run());
  ExpectTensorEqual(out[0], Tensor::Scalar<bool>(true));
}

TEST(ForwardingOpsTest, EnterRequiresAFrameName) {
  OpTester t("Enter");
  t.Attr("T", DT_FLOAT).Input(kData);
  EXPECT_THAT(t.Init(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("frame_name")));
}

bool ToBool(const Tensor& t) {
  OpTester op("ToBool");
  op.Attr("T", t.dtype()).Input(t);
  absl::StatusOr<std::vector<Tensor>> out = op.Run();
  EXPECT_THAT(out.status(), IsOk());
  return out.ok() && (*out)[0].flat<bool>()[0];
}

TEST(ToBoolOpTest, ScalarsByValueOtherTensorsByElementCount) {
  EXPECT_TRUE(ToBool(Tensor::Scalar<int32_t>(-4)));
  EXPECT_FALSE(ToBool(Tensor::Scalar<int32_t>(0)));
  EXPECT_FALSE(ToBool(Tensor::Scalar<float>(-0.f)));
  EXPECT_TRUE(ToBool(Tensor::Scalar<double>(1e-300)));
  EXPECT_FALSE(ToBool(Tensor::Scalar<std::string>("")));
  EXPECT_TRUE(ToBool(Tensor::Scalar<std::string>("x")));
  EXPECT_TRUE(ToBool(Tensor::Scalar<bool>(true)));
  // Non-scalars: true when non-empty, whatever the values.
  EXPECT_TRUE(ToBool(Tensor::FromVector<float>({0.f}, TensorShape({1}))));
  EXPECT_FALSE(ToBool(Tensor(DT_FLOAT, TensorShape({0, 3}))));
}

TEST(ToBoolOpTest, HalfScalarIsTensorFlowsError) {
  OpTester op("ToBool");
  op.Attr("T", DT_HALF).Input(MakeTensor(DT_HALF, TensorShape(), {0.5}));
  EXPECT_THAT(op.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                          "half cannot be converted to a boolean"));
  EXPECT_TRUE(ToBool(MakeTensor(DT_HALF, TensorShape({1}), {0.0})));
}

TEST(ControlTriggerOpTest, HasNoOutputs) {
  OpTester t("ControlTrigger");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace rill
