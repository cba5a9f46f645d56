#include "graph/gradients/grad_test_util.h"

#include <memory>

#include "graph/gradients/gradients.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace grad_test {

std::vector<Tensor> RunGraph(const Scope& root, const std::vector<Output>& fetches,
                             const Feeds& feeds) {
  absl::StatusOr<GraphDef> graph = root.ToGraphDef();
  EXPECT_TRUE(graph.ok()) << graph.status();
  if (!graph.ok()) return {};
  std::unique_ptr<Session> session = std::move(Session::New(SessionOptions())).value();
  absl::Status s = session->Create(*graph);
  EXPECT_TRUE(s.ok()) << s;
  std::vector<std::string> names;
  for (const Output& f : fetches) names.push_back(f.TensorName());
  std::vector<Tensor> out;
  if (s.ok()) s = session->Run(feeds, names, {}, &out);
  EXPECT_TRUE(s.ok()) << s;
  return s.ok() ? out : std::vector<Tensor>{};
}

std::vector<float> Values(const Tensor& t) {
  auto flat = t.flat<float>();
  return std::vector<float>(flat.data(), flat.data() + flat.size());
}

std::vector<float> RunFetch(const Scope& root, const Output& fetch, const Feeds& feeds) {
  std::vector<Tensor> out = RunGraph(root, {fetch}, feeds);
  return out.empty() ? std::vector<float>{} : Values(out[0]);
}

std::vector<float> GradOf(const Scope& root, const Output& y, const Output& x) {
  std::vector<Output> grads;
  absl::Status s = AddSymbolicGradients(root, {y}, {x}, &grads);
  EXPECT_TRUE(s.ok()) << s;
  if (!s.ok() || !grads[0].valid()) return {};
  return RunFetch(root, grads[0]);
}

}  // namespace grad_test
}  // namespace rill
