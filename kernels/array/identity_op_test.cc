#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

TEST(IdentityOpTest, ForwardsTheTensorWithoutCopying) {
  const Tensor x = Tensor::FromVector<float>({1.5f, -2}, TensorShape({2}));
  OpTester t("Identity", "id");
  t.Attr("T", DT_FLOAT).Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  ExpectTensorEqual(out[0], x);
  EXPECT_TRUE(out[0].SharesBufferWith(x));
  EXPECT_FALSE(t.kernel().IsExpensive());
}

TEST(IdentityOpTest, RefInputOutputsTheVariablesValueNotARef) {
  Var var(DT_FLOAT);
  {
    rill::WriterMutexLock lock(var.mu());
    *var.tensor() = Tensor::FromVector<float>({3, 4}, TensorShape({2}));
  }
  OpTester t("Identity", "v/read");
  t.Attr("T", DT_FLOAT).RefInput(var.tensor(), var.mu(), "v");
  ASSERT_THAT(t.Init(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].is_ref());
  ExpectTensorEqual(out[0].tensor, Tensor::FromVector<float>({3, 4}, TensorShape({2})));
}

TEST(IdentityOpTest, PassesResourceHandles) {
  const Tensor handle = MakeResourceHandleTensor("localhost", "v");
  OpTester t("Identity", "h");
  t.Attr("T", DT_RESOURCE).Input(handle);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_TRUE(out[0].SharesBufferWith(handle));
}

TEST(RefIdentityOpTest, OutputsTheReferenceItself) {
  Var var(DT_FLOAT);
  OpTester t("RefIdentity", "v/ref");
  t.Attr("T", DT_FLOAT).RefInput(var.tensor(), var.mu(), "v");
  ASSERT_THAT(t.Init(), IsOk());
  // An uninitialized variable is forwarded too (the op allows uninitialized input).
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].is_ref());
  EXPECT_EQ(out[0].ref, var.tensor());
  EXPECT_EQ(out[0].ref_mu, var.mu());
  EXPECT_FALSE(t.kernel().IsExpensive());
}

TEST(IdentityNOpTest, ForwardsEveryInputInOrder) {
  const Tensor a = Tensor::FromVector<int32_t>({1, 2, 3}, TensorShape({3}));
  const Tensor b = Tensor::Scalar<std::string>("hi");
  OpTester t("IdentityN", "idn");
  t.Attr("T", std::vector<DataType>{DT_INT32, DT_STRING}).Input(a).Input(b);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  ASSERT_EQ(out.size(), 2u);
  ExpectTensorEqual(out[0], a);
  ExpectTensorEqual(out[1], b);
}

TEST(NoOpTest, RunsWithNoOutputs) {
  OpTester t("NoOp", "init");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(t.kernel().IsExpensive());
}

}  // namespace
}  // namespace rill
