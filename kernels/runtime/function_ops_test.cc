#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;
using ::testing::HasSubstr;

// A call frame over a vector of arguments and a map of return values.
class TestCallFrame final : public CallFrame {
 public:
  explicit TestCallFrame(std::vector<Tensor> args) : args_(std::move(args)) {}
  absl::StatusOr<Tensor> GetArg(int index) const override {
    if (index < 0 || index >= static_cast<int>(args_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("no arg ", index));
    }
    return args_[index];
  }
  absl::Status SetRetval(int index, const Tensor& value) override {
    rill::MutexLock lock(&mu_);
    if (!retvals_.emplace(index, value).second) {
      return absl::InvalidArgumentError(absl::StrCat("retval ", index, " set twice"));
    }
    return absl::OkStatus();
  }
  Tensor retval(int index) {
    rill::MutexLock lock(&mu_);
    return retvals_.at(index);
  }

 private:
  std::vector<Tensor> args_;
  rill::Mutex mu_;
  std::map<int, Tensor> retvals_;
};

TEST(ArgOpTest, OutputsTheCallFramesArgument) {
  const Tensor a0 = Tensor::Scalar<int32_t>(1);
  const Tensor a1 = Tensor::FromVector<double>({2, 3}, TensorShape({2}));
  TestCallFrame frame({a0, a1});
  OpTester t("_Arg", "_arg_x_0_1");
  t.Attr("T", DT_DOUBLE).Attr("index", 1);
  t.SetCallFrame(&frame);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  ExpectTensorEqual(out[0], a1);
  EXPECT_TRUE(out[0].SharesBufferWith(a1));
  EXPECT_FALSE(t.kernel().IsExpensive());
}

TEST(ArgOpTest, PropagatesTheCallFramesError) {
  TestCallFrame frame({});
  OpTester t("_Arg", "a");
  t.Attr("T", DT_FLOAT).Attr("index", 3);
  t.SetCallFrame(&frame);
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument, Eq("no arg 3")));
}

TEST(ArgOpTest, NoCallFrameIsInternal) {
  OpTester t("_Arg", "a");
  t.Attr("T", DT_FLOAT).Attr("index", 0);
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInternal, HasSubstr("without a call frame")));
}

TEST(RetvalOpTest, SetsTheReturnValueOnce) {
  TestCallFrame frame({});
  const Tensor v = Tensor::FromVector<std::string>({"p", "q"}, TensorShape({2}));
  OpTester t("_Retval", "_retval_y_0_0");
  t.Attr("T", DT_STRING).Attr("index", 2).Input(v);
  t.SetCallFrame(&frame);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(frame.retval(2).SharesBufferWith(v));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument, Eq("retval 2 set twice")));
}

TEST(RetvalOpTest, NegativeIndexIsRejectedByTheOpDef) {
  OpTester t("_Retval", "r");
  t.Attr("T", DT_FLOAT).Attr("index", -1).Input(Tensor::Scalar<float>(1));
  EXPECT_THAT(t.Init(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("index")));
}

}  // namespace
}  // namespace rill
