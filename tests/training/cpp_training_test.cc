// Models built only in C++ (Rill's builder): an MLP, a CNN and an LSTM over a TF1 while loop,
// trained with Rill's AddSymbolicGradients and
// optimizers from the initial values TensorFlow started from (tests/tfgen/
// make_cpp_training_cases.py), on the same batches: the loss must match TensorFlow's at every
// one of the 100 steps. The model builders here mirror the generator's op for op.
// Arguments: the <name>.pbtxt.gz CppTrainingCase files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor_proto.h"
#include "google/protobuf/text_format.h"
#include "graph/builder/ops.h"
#include "graph/gradients/optimizer.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/conformance/conformance_case.h"
#include "tests/training/cpp_training_case.pb.h"
#include "tests/training/training_steps.h"

namespace rill {
namespace {

struct Built {
  Output loss;
  std::vector<Output> variables;
  std::vector<Operation> initializers;
};

// A VariableV2 named `name` with `value` as its initial value.
Output InitializedVariable(const Scope& root, const std::string& name, const Tensor& value,
                           Built* built) {
  Output v = ops::Variable(root.WithOpName(name),
                           PartialTensorShape(std::vector<int64_t>(value.shape().dims().begin(),
                                                                   value.shape().dims().end())),
                           value.dtype());
  built->initializers.push_back(
      ops::Assign(root.WithOpName(name + "/Assign"), v,
                  ops::Const(root.WithOpName(name + "/initial_value"), value)));
  built->variables.push_back(v);
  return v;
}

// x[8,4] -> tanh(x W1 + b1) -> h W2 + b2; loss mean((out - y)^2), as the generator's mlp_tanh.
Built MlpTanh(const Scope& root, const std::map<std::string, Tensor>& init) {
  Built b;
  std::map<std::string, Output> v;
  for (const auto& [name, value] : init) v[name] = InitializedVariable(root, name, value, &b);
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  Output h = ops::Tanh(root, ops::AddV2(root, ops::MatMul(root, x, v["w1"]), v["b1"]));
  Output out = ops::AddV2(root, ops::MatMul(root, h, v["w2"]), v["b2"]);
  Output sq = ops::Square(root, ops::Sub(root, out, y));
  b.loss = ops::Mean(root.WithOpName("loss"), sq, ops::Const(root, {0, 1}));
  return b;
}

// x[4,6,6,1] -> relu(conv3x3 SAME + kb) -> max pool 2x2 -> [4,36] -> x w + b; loss mean of the
// sparse softmax cross entropy with int32 labels y, as the generator's cnn_relu.
Built CnnRelu(const Scope& root, const std::map<std::string, Tensor>& init) {
  Built b;
  std::map<std::string, Output> v;
  for (const auto& [name, value] : init) v[name] = InitializedVariable(root, name, value, &b);
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_INT32);
  Output conv = ops::Conv2D(root, x, v["k"], {1, 1, 1, 1}, "SAME");
  Output h = ops::Relu(root, ops::BiasAdd(root, conv, v["kb"]));
  Output p = ops::MaxPool(root, h, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
  Output flat = ops::Reshape(root, p, ops::Const(root, {4, 36}));
  Output out = ops::AddV2(root, ops::MatMul(root, flat, v["w"]), v["b"]);
  Output xent = ops::SparseSoftmaxCrossEntropyWithLogits(root, out, y).loss;
  b.loss = ops::Mean(root.WithOpName("loss"), xent, ops::Const(root, {0}));
  return b;
}

// An LSTM(4) over 5 steps of x[5,4,3] in a TF1 while loop with the weights as loop invariants,
// then h wo + bo; loss mean((out - y)^2), as the generator's lstm_while.
Built LstmWhile(const Scope& root, const std::map<std::string, Tensor>& init) {
  Built b;
  std::map<std::string, Output> v;
  for (const auto& [name, value] : init) v[name] = InitializedVariable(root, name, value, &b);
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  Output zeros = ops::Const(root, 0.f, TensorShape({4, 4}));
  std::vector<Output> exits = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), zeros, zeros},
      [](const Scope& s, const std::vector<Output>& l) {
        return ops::Less(s, l[0], ops::Const(s, 5));
      },
      [](const Scope& s, const std::vector<Output>& l) -> std::vector<Output> {
        // l: i, h, c, then the invariants wx, bx, x.
        Output xt = ops::GatherV2(s, l[5], l[0], ops::Const(s, 0));
        Output z = ops::AddV2(
            s, ops::MatMul(s, ops::ConcatV2(s, {xt, l[1]}, ops::Const(s, 1)), l[3]), l[4]);
        std::vector<Output> g = ops::Split(s, ops::Const(s, 1), z, 4);
        Output c2 = ops::AddV2(s, ops::Mul(s, ops::Sigmoid(s, g[1]), l[2]),
                               ops::Mul(s, ops::Sigmoid(s, g[0]), ops::Tanh(s, g[3])));
        Output h2 = ops::Mul(s, ops::Sigmoid(s, g[2]), ops::Tanh(s, c2));
        return {ops::AddV2(s, l[0], ops::Const(s, 1)), h2, c2};
      },
      ops::WhileLoopAttrs().Invariants({v["wx"], v["bx"], x}));
  Output out = ops::AddV2(root, ops::MatMul(root, exits[1], v["wo"]), v["bo"]);
  b.loss = ops::Mean(root.WithOpName("loss"), ops::Square(root, ops::Sub(root, out, y)),
                     ops::Const(root, {0, 1}));
  return b;
}

std::unique_ptr<Optimizer> MakeOptimizer(const CppTrainingCase& c) {
  auto h = [&](int i) { return c.hyper(i); };
  if (c.optimizer() == "sgd") return std::make_unique<GradientDescentOptimizer>(h(0));
  if (c.optimizer() == "momentum") return std::make_unique<MomentumOptimizer>(h(0), h(1));
  if (c.optimizer() == "nesterov") return std::make_unique<MomentumOptimizer>(h(0), h(1), true);
  if (c.optimizer() == "adam") return std::make_unique<AdamOptimizer>(h(0), h(1), h(2), h(3));
  if (c.optimizer() == "rmsprop") return std::make_unique<RMSPropOptimizer>(h(0), h(1), h(2), h(3));
  if (c.optimizer() == "adagrad") return std::make_unique<AdagradOptimizer>(h(0), h(1));
  return nullptr;
}

class CppTrainingTest : public ::testing::Test {
 public:
  explicit CppTrainingTest(std::string file) : file_(std::move(file)) {}

  void TestBody() override {
    absl::StatusOr<std::string> text = ReadTextMaybeGzipped(file_);
    ASSERT_TRUE(text.ok()) << text.status();
    CppTrainingCase c;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &c)) << file_;
    std::map<std::string, Tensor> init;
    for (const ConformanceFeed& f : c.initial()) {
      absl::StatusOr<Tensor> t = TensorFromProto(f.value());
      ASSERT_TRUE(t.ok()) << t.status();
      init.emplace(f.name(), *std::move(t));
    }
    Scope root = Scope::NewRootScope();
    Built model;
    if (c.model() == "mlp_tanh") {
      model = MlpTanh(root, init);
    } else if (c.model() == "cnn_relu") {
      model = CnnRelu(root, init);
    } else if (c.model() == "lstm_while") {
      model = LstmWhile(root, init);
    } else {
      FAIL() << "no C++ builder for model " << c.model();
    }
    std::unique_ptr<Optimizer> optimizer = MakeOptimizer(c);
    ASSERT_NE(optimizer, nullptr) << "unknown optimizer " << c.optimizer();
    absl::StatusOr<Operation> train = optimizer->Minimize(root, model.loss, model.variables);
    ASSERT_TRUE(train.ok()) << train.status();
    Operation init_all =
        ops::NoOp(root.WithOpName("init").WithControlDependencies(model.initializers));
    absl::StatusOr<GraphDef> graph = root.ToGraphDef();
    ASSERT_TRUE(graph.ok()) << graph.status();
    std::unique_ptr<Session> session = std::move(Session::New(SessionOptions())).value();
    ASSERT_TRUE(session->Create(*graph).ok());
    std::vector<Tensor> out;
    absl::Status s = session->Run({}, {}, {init_all.name()}, &out);
    ASSERT_TRUE(s.ok()) << s;
    s = session->Run({}, {}, {optimizer->initializer().name()}, &out);
    ASSERT_TRUE(s.ok()) << s;
    RunTrainingSteps(*session, c.name(), c.step(), model.loss.TensorName(), train->name(), c.rtol(),
                     c.atol());
  }

 private:
  std::string file_;
};

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    const std::string name = path.substr(path.find_last_of('/') + 1);
    ::testing::RegisterTest(
        "CppTrainingTest", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
        [path]() -> ::testing::Test* { return new rill::CppTrainingTest(path); });
  }
  return RUN_ALL_TESTS();
}
