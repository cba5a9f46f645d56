// The README's C++ example: y = relu(x * w + b), x fed, y fetched; prints "22.5 0 49.5 0".
// hello_rill_test runs it, so the README stays true.
#include <iostream>
#include <memory>
#include <vector>

#include "graph/builder/ops.h"
#include "session/session.h"

int main() {
  using namespace rill;
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({-1, 3}));
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Output b = ops::Const(root.WithOpName("b"), {0.5f, -100.f});
  Output y = ops::Relu(root.WithOpName("y"), ops::BiasAdd(root, ops::MatMul(root, x, w), b));
  absl::StatusOr<GraphDef> graph = root.ToGraphDef();  // the first build error, if any
  if (!graph.ok()) {
    std::cerr << graph.status() << "\n";
    return 1;
  }

  SessionOptions options;  // options.config is TensorFlow's ConfigProto
  options.config.set_intra_op_parallelism_threads(2);
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  if (!session.ok()) {
    std::cerr << session.status() << "\n";
    return 1;
  }
  absl::Status s = (*session)->Create(*graph);  // validates and places the graph

  std::vector<Tensor> out;
  Tensor x_value = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  if (s.ok()) s = (*session)->Run({{"x", x_value}}, {y.TensorName()}, {}, &out);
  if (!s.ok()) {
    std::cerr << s << "\n";
    return 1;
  }
  for (float v : out[0].flat<float>()) std::cout << v << " ";  // 22.5 0 49.5 0
  std::cout << "\n";
  return (*session)->Close().ok() ? 0 : 1;
}
