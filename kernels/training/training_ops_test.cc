#include <cmath>
#include <memory>
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

Tensor F(std::vector<float> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<float>(v, TensorShape({n}));
}

// A ref variable holding `value` (or uninitialized), as VariableV2 + Assign leave it.
struct RefVar {
  explicit RefVar(const std::vector<float>& value) {
    if (!value.empty()) tensor = F(value);
  }
  TensorValue ref() {
    TensorValue v;
    v.ref = &tensor;
    v.ref_mu = &mu;
    return v;
  }
  Tensor tensor;
  rill::SharedMutex mu;
};

TEST(TrainingOpsTest, GradientDescentUpdatesTheRefInPlace) {
  RefVar var({1, 2});
  OpTester t("ApplyGradientDescent");
  t.Attr("T", DT_FLOAT).InputValue(var.ref(), "w").Input(Tensor::Scalar<float>(0.5f));
  t.Input(F({2, -4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(var.tensor, F({0, 4}));
  ExpectTensorEqual(out[0], F({0, 4}));  // the ref output reads the updated var
}

TEST(TrainingOpsTest, MomentumAndAdamFollowTensorFlowsRules) {
  RefVar var({1}), accum({0.5});
  OpTester m("ApplyMomentum");
  m.Attr("T", DT_FLOAT).InputValue(var.ref(), "w").InputValue(accum.ref(), "a");
  m.Input(Tensor::Scalar<float>(0.1f)).Input(F({2})).Input(Tensor::Scalar<float>(0.5f));
  RILL_ASSERT_OK(m.Run().status());
  ExpectTensorEqual(accum.tensor, F({0.5f * 0.5f + 2}));
  ExpectTensorEqual(var.tensor, F({1 - 2.25f * 0.1f}));

  RefVar w({1}), mm({0}), v({0});
  OpTester adam("ApplyAdam");
  adam.Attr("T", DT_FLOAT).InputValue(w.ref(), "w").InputValue(mm.ref(), "m");
  adam.InputValue(v.ref(), "v");
  for (float p : {0.9f, 0.999f, 0.01f, 0.9f, 0.999f, 1e-7f}) adam.Input(Tensor::Scalar<float>(p));
  adam.Input(F({3}));
  RILL_ASSERT_OK(adam.Run().status());
  const float alpha = 0.01f * std::sqrt(1 - 0.999f) / (1 - 0.9f);
  const float m1 = (3 - 0.f) * (1 - 0.9f), v1 = (9 - 0.f) * (1 - 0.999f);
  ExpectTensorEqual(mm.tensor, F({m1}));
  ExpectTensorEqual(v.tensor, F({v1}));
  ExpectTensorEqual(w.tensor, F({1 - (m1 * alpha) / (std::sqrt(v1) + 1e-7f)}));
}

TEST(TrainingOpsTest, UninitializedAndMismatchedInputsAreTensorFlowsErrors) {
  RefVar uninit({});
  OpTester t("ApplyGradientDescent");
  t.Attr("T", DT_FLOAT).InputValue(uninit.ref(), "w").Input(Tensor::Scalar<float>(0.5f));
  t.Input(F({1}));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kFailedPrecondition,
                                HasSubstr("Attempting to use uninitialized value w")));
  RefVar var({1, 2});
  OpTester bad("ApplyGradientDescent");
  bad.Attr("T", DT_FLOAT).InputValue(var.ref(), "w").Input(F({0.5f}));
  bad.Input(F({1, 2}));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("alpha is not a scalar: [1]")));
  OpTester shape("ApplyGradientDescent");
  shape.Attr("T", DT_FLOAT).InputValue(var.ref(), "w").Input(Tensor::Scalar<float>(0.5f));
  shape.Input(F({1, 2, 3}));
  EXPECT_THAT(shape.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("var and delta do not have the same shape[2] [3]")));
}

TEST(TrainingOpsTest, ResourceFormWritesAFreshBuffer) {
  std::unique_ptr<Device> device = NewCpuDevice(kTestCpuDevice);
  auto var = std::make_shared<Var>(DT_FLOAT);
  *var->tensor() = F({1, 2});
  ASSERT_THAT(device->resource_manager()
                  ->LookupOrCreate<Var>("localhost", "w", [&] { return var; })
                  .status(),
              IsOk());
  const Tensor before = *var->tensor();
  OpTester t("ResourceApplyGradientDescent", "step", device.get());
  t.Attr("T", DT_FLOAT).Input(MakeResourceHandleTensor("localhost", "w"));
  t.Input(Tensor::Scalar<float>(1)).Input(F({1, 1}));
  RILL_ASSERT_OK(t.Run().status());
  ExpectTensorEqual(*var->tensor(), F({0, 1}));
  ExpectTensorEqual(before, F({1, 2}));  // an earlier read is a stable snapshot
}

TEST(TrainingOpsTest, ProximalGradientDescentShrinksAndAdaMaxTakesTheMax) {
  RefVar var({1, -0.05f});
  OpTester prox("ApplyProximalGradientDescent");
  prox.Attr("T", DT_FLOAT).InputValue(var.ref(), "w");
  for (float p : {0.5f, 0.2f, 1.0f}) prox.Input(Tensor::Scalar<float>(p));  // alpha, l1, l2
  prox.Input(F({0.4f, 0.1f}));
  RILL_ASSERT_OK(prox.Run().status());
  // prox = var - delta * alpha = {0.8, -0.1}; shrunk by alpha * l1 = 0.1, over 1 + l2 * alpha.
  ExpectTensorEqual(var.tensor, F({(0.8f - 0.1f) / 1.5f, -0.0f}));

  RefVar w({1}), m({0}), v({0.5f});
  OpTester adamax("ApplyAdaMax");
  adamax.Attr("T", DT_FLOAT).InputValue(w.ref(), "w").InputValue(m.ref(), "m");
  adamax.InputValue(v.ref(), "v");
  // beta1_power, lr, beta1, beta2, epsilon
  for (float p : {0.5f, 0.1f, 0.5f, 0.5f, 0.0f}) adamax.Input(Tensor::Scalar<float>(p));
  adamax.Input(F({-2}));
  RILL_ASSERT_OK(adamax.Run().status());
  ExpectTensorEqual(m.tensor, F({-1}));  // m += (grad - m) * (1 - beta1)
  ExpectTensorEqual(v.tensor, F({2}));   // max(beta2 * v, |grad|)
  ExpectTensorEqual(w.tensor, F({1 + 0.1f / 0.5f * 0.5f}));
}

}  // namespace
}  // namespace rill
