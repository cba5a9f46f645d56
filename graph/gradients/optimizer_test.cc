#include "graph/gradients/optimizer.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "core/status_matchers.h"
#include "graph/builder/ops.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

// loss = sum((x * w - y)^2) over 2 elements, w a [2] variable starting at {1, 2}:
// dloss/dw = 2 x (x w - y) = {2*1*(1-3), 2*2*(4-1)} = {-4, 12} with x = {1, 2}, y = {3, 1}.
struct Model {
  Scope root = Scope::NewRootScope();
  Output w, loss;
  Operation init;
  explicit Model(bool resource) {
    Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
    Output y = ops::Const(root.WithOpName("y"), {3.f, 1.f});
    Output start = ops::Const(root.WithOpName("w_start"), {1.f, 2.f});
    Output value;
    if (resource) {
      w = ops::VarHandleOp(root.WithOpName("w"), DT_FLOAT, PartialTensorShape({2}));
      init = ops::AssignVariableOp(root.WithOpName("w_init"), w, start);
      value = ops::ReadVariableOp(root, w, DT_FLOAT);
    } else {
      w = ops::Variable(root.WithOpName("w"), PartialTensorShape({2}), DT_FLOAT);
      init = ops::Assign(root.WithOpName("w_init"), w, start);
      value = w;
    }
    loss = ops::Sum(root.WithOpName("loss"),
                    ops::Square(root, ops::Sub(root, ops::Mul(root, x, value), y)),
                    ops::Const(root, 0));
  }
  // Runs the initializers, then `steps` train steps; returns w.
  std::vector<float> Train(const Optimizer& opt, const Operation& train, int steps, bool resource) {
    Output read = resource ? ops::ReadVariableOp(root.WithOpName("w_read"), w, DT_FLOAT)
                           : ops::Identity(root.WithOpName("w_read"), w);
    absl::StatusOr<GraphDef> graph = root.ToGraphDef();
    EXPECT_TRUE(graph.ok()) << graph.status();
    std::unique_ptr<Session> session = std::move(Session::New(SessionOptions())).value();
    EXPECT_TRUE(session->Create(*graph).ok());
    std::vector<Tensor> out;
    EXPECT_TRUE(session->Run({}, {}, {init.name(), opt.initializer().name()}, &out).ok());
    for (int i = 0; i < steps; ++i) {
      absl::Status s = session->Run({}, {}, {train.name()}, &out);
      EXPECT_TRUE(s.ok()) << s;
    }
    EXPECT_TRUE(session->Run({}, {read.TensorName()}, {}, &out).ok());
    auto flat = out[0].flat<float>();
    return {flat[0], flat[1]};
  }
};

TEST(OptimizerTest, GradientDescentStepOnRefAndResourceVariables) {
  for (bool resource : {false, true}) {
    Model m(resource);
    GradientDescentOptimizer sgd(0.1);
    absl::StatusOr<Operation> train = sgd.Minimize(m.root, m.loss, {m.w});
    RILL_ASSERT_OK(train.status());
    EXPECT_EQ(train->name(), "GradientDescent");
    std::vector<float> w = m.Train(sgd, *train, 1, resource);
    EXPECT_FLOAT_EQ(w[0], 1.f + 0.4f);
    EXPECT_FLOAT_EQ(w[1], 2.f - 1.2f);
  }
}

TEST(OptimizerTest, MomentumAccumulatesAndNamesItsSlot) {
  Model m(false);
  MomentumOptimizer momentum(0.1, 0.9);
  absl::StatusOr<Operation> train = momentum.Minimize(m.root, m.loss, {m.w});
  RILL_ASSERT_OK(train.status());
  RILL_EXPECT_OK(m.root.GetNodeDef("w/Momentum").status());
  // Step 1: accum = g1 = {-4, 12}, w = {1.4, 0.8}. Step 2: g2 = 2x(xw - y) = {-3.2, 2.4},
  // accum = 0.9 * g1 + g2 = {-6.8, 13.2}, w = {1.4 + 0.68, 0.8 - 1.32}.
  std::vector<float> w = m.Train(momentum, *train, 2, false);
  EXPECT_NEAR(w[0], 2.08f, 1e-6);
  EXPECT_NEAR(w[1], -0.52f, 1e-6);
}

TEST(OptimizerTest, AdamFirstStepMovesByTheLearningRate) {
  Model m(true);
  AdamOptimizer adam(0.01);
  absl::StatusOr<Operation> train = adam.Minimize(m.root, m.loss, {m.w});
  RILL_ASSERT_OK(train.status());
  for (const char* name : {"w/Adam", "w/Adam_1", "beta1_power", "beta2_power"}) {
    RILL_EXPECT_OK(m.root.GetNodeDef(name).status()) << name;
  }
  // The first Adam step is lr * g / (|g| + eps') ~ lr * sign(g).
  std::vector<float> w = m.Train(adam, *train, 1, true);
  EXPECT_NEAR(w[0], 1.01f, 1e-6);
  EXPECT_NEAR(w[1], 1.99f, 1e-6);
}

TEST(OptimizerTest, RMSPropAndAdagradFirstSteps) {
  {
    Model m(false);
    RMSPropOptimizer rms(0.1);
    absl::StatusOr<Operation> train = rms.Minimize(m.root, m.loss, {m.w});
    RILL_ASSERT_OK(train.status());
    // ms = 0.9 * 1 + 0.1 g^2; w -= lr * g / sqrt(ms + eps).
    std::vector<float> w = m.Train(rms, *train, 1, false);
    EXPECT_NEAR(w[0], 1.f + 0.1f * 4.f / std::sqrt(0.9f + 1.6f), 1e-6);
    EXPECT_NEAR(w[1], 2.f - 0.1f * 12.f / std::sqrt(0.9f + 14.4f), 1e-6);
  }
  {
    Model m(false);
    AdagradOptimizer adagrad(0.1);
    absl::StatusOr<Operation> train = adagrad.Minimize(m.root, m.loss, {m.w});
    RILL_ASSERT_OK(train.status());
    // accum = 0.1 + g^2; w -= lr * g / sqrt(accum).
    std::vector<float> w = m.Train(adagrad, *train, 1, false);
    EXPECT_NEAR(w[0], 1.f + 0.1f * 4.f / std::sqrt(16.1f), 1e-6);
    EXPECT_NEAR(w[1], 2.f - 0.1f * 12.f / std::sqrt(144.1f), 1e-6);
  }
}

TEST(OptimizerTest, NoGradientIsInvalidArgumentNamingTheVariables) {
  Model m(false);
  Output other = ops::Variable(m.root.WithOpName("unused"), PartialTensorShape({2}), DT_FLOAT);
  GradientDescentOptimizer sgd(0.1);
  absl::StatusOr<Operation> train = sgd.Minimize(m.root, m.loss, {other});
  EXPECT_EQ(train.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(train.status().message(),
                                "No gradients provided for any variable, check your graph for "
                                "ops that do not support gradients, between variables [unused]"))
      << train.status();
  Scope root = Scope::NewRootScope();
  Output unknown = ops::Variable(root.WithOpName("v"), PartialTensorShape(), DT_FLOAT);
  Output loss = ops::Sum(root, ops::Square(root, unknown), ops::Const(root, 0));
  absl::StatusOr<Operation> t2 = sgd.Minimize(root, loss, {unknown});
  EXPECT_EQ(t2.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(t2.status().message(), "Variable 'v' has shape")) << t2.status();
}

}  // namespace
}  // namespace rill
