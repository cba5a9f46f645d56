// Whole models built and frozen by TensorFlow (tests/tfgen/make_model_cases.py), run in Rill on
// the inputs TensorFlow ran them on: every op of each frozen graph must be one Rill registers
// (no unknown op, as summarize_graph would list them), and the outputs must match TensorFlow's
// within the tolerances recorded in the case. Arguments: the <name>.case.pbtxt files; each
// model's GraphDef is the <name>.pb beside its case.
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "google/protobuf/text_format.h"
#include "graph/op_classes.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"
#include "tests/conformance/conformance_case.h"

namespace rill {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ModelTest : public ::testing::Test {
 public:
  explicit ModelTest(std::string case_file) : case_file_(std::move(case_file)) {}

  void TestBody() override {
    ConformanceCase c;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(ReadFile(case_file_), &c))
        << case_file_ << " does not parse";
    const std::string pb = std::string(absl::StripSuffix(case_file_, ".case.pbtxt")) + ".pb";
    ASSERT_TRUE(c.mutable_graph()->ParseFromString(ReadFile(pb))) << pb << " does not parse";
    ASSERT_GT(c.graph().node_size(), 0) << pb;
    std::set<std::string> unknown;
    std::set<std::string> library_functions;
    for (const FunctionDef& f : c.graph().library().function()) {
      library_functions.insert(f.signature().name());
    }
    for (const NodeDef& node : c.graph().node()) {
      // Functional ops (If, While, the function calls) and calls of the graph's own functions
      // are not registered ops: the session lowers them before it runs the graph.
      if (OpRegistry::Global()->LookUp(node.op()) == nullptr &&
          !IsFunctional(ClassifyOp(node.op())) && !library_functions.count(node.op())) {
        unknown.insert(node.op());
      }
    }
    EXPECT_TRUE(unknown.empty()) << c.name() << " has ops Rill does not register: "
                                 << absl::StrJoin(unknown, ", ");
    ASSERT_GT(c.expected_size(), 0) << c.name() << " records no outputs";
    EXPECT_EQ(RunConformanceCase(c), "") << "model " << c.name();
  }

 private:
  std::string case_file_;
};

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string file = argv[i];
    const std::string base = file.substr(file.find_last_of('/') + 1);
    const std::string name = std::string(absl::StripSuffix(base, ".case.pbtxt"));
    ::testing::RegisterTest("Model", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [file]() -> ::testing::Test* { return new rill::ModelTest(file); });
  }
  return RUN_ALL_TESTS();
}
