// Gradient conformance: each case recorded from TensorFlow (tests/tfgen/make_gradient_cases.py)
// has the forward graph TensorFlow differentiated; Rill imports it into a Scope, builds its own
// gradients with AddSymbolicGradients (unconnected inputs give no gradient, as tf.gradients) and
// must return TensorFlow's values, and no gradient exactly where TensorFlow returned None.
//
// Coverage: every op Rill registers that TensorFlow's gradient registry differentiates
// (tf_gradient_registry.txt, recorded) must have a gradient function and cases; every op
// TensorFlow marks NotDifferentiable must be registered so in Rill too. Ops not there yet are
// listed in data/PENDING (one per line); the list may only shrink: an op listed there that is
// covered fails the test, so the list stays true.
// Arguments: the suite files, then for the coverage check (the all-families target only)
// "--registry=<tf_gradient_registry.txt>" and "--pending=<PENDING>".
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/tensor_proto.h"
#include "google/protobuf/text_format.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "graph/gradients/grad_registry.h"
#include "graph/gradients/gradients.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"
#include "session/session.h"
#include "tests/conformance/conformance_case.h"
#include "tests/gradients/gradient_case.pb.h"

namespace rill {
namespace {

std::vector<std::string>* SuitePaths() {
  static auto* paths = new std::vector<std::string>;
  return paths;
}
std::string* RegistryPath() {
  static auto* path = new std::string;
  return path;
}
std::string* PendingPath() {
  static auto* path = new std::string;
  return path;
}

absl::StatusOr<Output> TensorOf(const Scope& root, const std::string& name) {
  std::pair<std::string, std::string> parts = absl::StrSplit(name, ':');
  int index = 0;
  if (!absl::SimpleAtoi(parts.second, &index)) {
    return absl::InvalidArgumentError(absl::StrCat("bad tensor name ", name));
  }
  absl::StatusOr<Operation> op = root.GetOperation(parts.first);
  if (!op.ok()) return op.status();
  Output out = op->output(index);
  if (!out.valid()) return absl::InvalidArgumentError(absl::StrCat("no tensor ", name));
  return out;
}

// "" when Rill's gradients match the case; else what differs.
std::string RunCase(const GradientCase& c) {
  Scope root = Scope::NewRootScope();
  if (absl::Status s = root.ImportGraphDef(c.graph()); !s.ok()) {
    return absl::StrCat("import: ", s.ToString());
  }
  std::vector<Output> xs, ys, dys;
  for (const auto& [names, list] :
       {std::make_pair(&c.x(), &xs), std::make_pair(&c.y(), &ys), std::make_pair(&c.dy(), &dys)}) {
    for (const std::string& name : *names) {
      absl::StatusOr<Output> t = TensorOf(root, name);
      if (!t.ok()) return t.status().ToString();
      list->push_back(*t);
    }
  }
  GradientOptions options;
  options.unconnected_gradients = GradientOptions::Unconnected::kNone;
  std::vector<Output> dx;
  if (absl::Status s = AddSymbolicGradients(root, ys, xs, dys, &dx, options); !s.ok()) {
    return absl::StrCat("AddSymbolicGradients: ", s.ToString());
  }
  std::vector<std::string> fetch;
  std::vector<int> fetched_x;
  // Each gradient is fetched through an Identity: it may be a fed tensor itself (Identity's
  // gradient is dy).
  for (size_t i = 0; i < dx.size(); ++i) {
    const bool none = static_cast<int>(i) < c.none_size() && c.none(i);
    if (none != !dx[i].valid()) {
      return absl::StrCat("gradient ", i, " (", c.x(i), "): TensorFlow ",
                          none ? "returned None" : "returned a gradient", ", Rill ",
                          dx[i].valid() ? "returned a gradient" : "returned none");
    }
    if (!none) {
      fetch.push_back(
          ops::Identity(root.WithOpName(absl::StrCat("fetch_dx_", i)), dx[i]).TensorName());
      fetched_x.push_back(static_cast<int>(i));
    }
  }
  if (fetch.empty()) return "";
  absl::StatusOr<GraphDef> graph = root.ToGraphDef();
  if (!graph.ok()) return graph.status().ToString();
  std::unique_ptr<Session> session = std::move(Session::New(SessionOptions())).value();
  if (absl::Status s = session->Create(*graph); !s.ok())
    return absl::StrCat("Create: ", s.ToString());
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const ConformanceFeed& f : c.feed()) {
    absl::StatusOr<Tensor> t = TensorFromProto(f.value());
    if (!t.ok()) return t.status().ToString();
    feeds.emplace_back(f.name(), *std::move(t));
  }
  std::vector<Tensor> got;
  if (c.init_target_size() > 0) {
    std::vector<std::string> targets(c.init_target().begin(), c.init_target().end());
    if (absl::Status s = session->Run({}, {}, targets, &got); !s.ok()) {
      return absl::StrCat("init: ", s.ToString());
    }
  }
  if (absl::Status s = session->Run(feeds, fetch, {}, &got); !s.ok()) {
    return absl::StrCat("Run: ", s.ToString());
  }
  for (size_t k = 0; k < got.size(); ++k) {
    absl::StatusOr<Tensor> want = TensorFromProto(c.expected(fetched_x[k]));
    if (!want.ok()) return want.status().ToString();
    std::string diff = CompareTensors(fetched_x[k], got[k], *want, c.rtol(), c.atol());
    if (!diff.empty()) return absl::StrCat("gradient of ", c.x(fetched_x[k]), ": ", diff);
  }
  return "";
}

std::vector<GradientSuite> LoadGradientSuites() {
  std::vector<GradientSuite> suites;
  for (const std::string& path : *SuitePaths()) {
    absl::StatusOr<std::string> text = ReadTextMaybeGzipped(path);
    EXPECT_TRUE(text.ok()) << text.status();
    if (!text.ok()) continue;
    GradientSuite suite;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &suite)) << path;
    suites.push_back(std::move(suite));
  }
  return suites;
}

TEST(GradientConformanceTest, RillMatchesTensorFlow) {
  std::vector<GradientSuite> suites = LoadGradientSuites();
  ASSERT_FALSE(suites.empty());
  int cases = 0, failed = 0;
  for (const GradientSuite& suite : suites) {
    for (const GradientCase& c : suite.case_()) {
      ++cases;
      std::string diff = RunCase(c);
      if (!diff.empty()) {
        ++failed;
        ADD_FAILURE() << c.name() << ": " << diff;
      }
    }
  }
  std::printf("%d gradient cases from %zu ops, %d differ from TensorFlow\n", cases, suites.size(),
              failed);
}

std::set<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::set<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') lines.insert(line);
  }
  return lines;
}

TEST(GradientConformanceTest, EveryDifferentiableOpHasAGradientAndCases) {
  if (RegistryPath()->empty()) return;         // a family's test: only the cases above
  std::map<std::string, std::string> tf_kind;  // op -> "gradient" | "none"
  for (const std::string& line : ReadLines(*RegistryPath())) {
    std::pair<std::string, std::string> parts = absl::StrSplit(line, '\t');
    tf_kind[parts.first] = parts.second;
  }
  ASSERT_GT(tf_kind.size(), 100u) << "the recorded registry " << *RegistryPath() << " is short";
  std::set<std::string> with_cases;
  for (const GradientSuite& suite : LoadGradientSuites()) {
    for (const GradientCase& c : suite.case_()) with_cases.insert(c.op());
  }
  const std::set<std::string> pending = ReadLines(*PendingPath());
  std::set<std::string> missing, stale_pending;
  int differentiable = 0;
  for (const std::string& op : OpRegistry::Global()->ListOps(/*include_internal=*/false)) {
    auto it = tf_kind.find(op);
    if (it == tf_kind.end()) continue;
    bool no_gradient = false;
    const bool has_fn = GradRegistry::Global()->Find(op, &no_gradient) != nullptr;
    bool covered;
    if (it->second == "gradient") {
      ++differentiable;
      covered = has_fn && with_cases.count(op);
    } else {
      covered = has_fn || no_gradient;
    }
    if (!covered && !pending.count(op)) missing.insert(op);
    if (covered && pending.count(op)) stale_pending.insert(op);
  }
  std::string missing_list, stale_list;
  for (const std::string& op : missing) absl::StrAppend(&missing_list, " ", op);
  for (const std::string& op : stale_pending) absl::StrAppend(&stale_list, " ", op);
  EXPECT_TRUE(missing.empty()) << "ops TensorFlow differentiates (or marks NotDifferentiable) "
                                  "without a Rill gradient function, registration or cases:"
                               << missing_list;
  EXPECT_TRUE(stale_pending.empty()) << "covered now; remove from PENDING:" << stale_list;
  std::printf("%d registered ops TensorFlow differentiates; %zu pending\n", differentiable,
              pending.size());
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--registry=")) {
      *rill::RegistryPath() = arg.substr(11);
    } else if (absl::StartsWith(arg, "--pending=")) {
      *rill::PendingPath() = arg.substr(10);
    } else {
      rill::SuitePaths()->push_back(arg);
    }
  }
  return RUN_ALL_TESTS();
}
