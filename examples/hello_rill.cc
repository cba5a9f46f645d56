// The README's C++ example: y = relu(x * w + b), x fed, y fetched; prints "22.5 0 49.5 0".
// hello_rill_test runs it, so the README stays true.
#include <iostream>
#include <vector>

#include "graph/builder/ops.h"
#include "session/client/client_session.h"

int main() {
  using namespace rill;
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({-1, 3}));
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Output xw = ops::MatMul(root, x, w);
  Output y = ops::Relu(root.WithOpName("y"), ops::BiasAdd(root, xw, {0.5f, -100.f}));

  SessionOptions options;  // options.config is TensorFlow's ConfigProto
  options.config.set_intra_op_parallelism_threads(2);
  ClientSession session(root, options);
  std::vector<Tensor> out;
  // Build errors, a session that could not start and run errors all come back here.
  absl::Status s = session.Run({{x, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}}}, {y}, &out);
  if (!s.ok()) {
    std::cerr << s << "\n";
    return 1;
  }
  for (float v : out[0].flat<float>()) std::cout << v << " ";  // 22.5 0 49.5 0
  std::cout << "\n";
  return 0;
}
