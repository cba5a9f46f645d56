// The seed examples built with the builder API (examples/seed_graphs.cc) against the GraphDefs real
// TensorFlow 2.21 writes for the same code through tf.compat.v1 (examples/tf_reference/*.pbtxt,
// written by examples/tf_reference/make_seed_graphs.py), field by field and node by node in order:
// name, op, inputs (data and control, in order), device string, `_class`, every other attr, and
// Const values (compared as tensors: TensorFlow writes tensor_content, Rill the typed fields).
//
// What TensorFlow writes that Rill does not is listed in kIgnored below, each with its reason;
// anything else present on one side only fails.
#include "examples/seed_graphs.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

// (op, attr) pairs TensorFlow writes that Rill's op definitions do not have; "*" is any op.
const std::set<std::pair<std::string, std::string>>& Ignored() {
  static const auto* const kIgnored = new std::set<std::pair<std::string, std::string>>{
      // TensorFlow 2.x's MatMul has grad_a / grad_b (hints for gradient kernels, always false
      // here); Rill's MatMul is TF 1.x's.
      {"MatMul", "grad_a"},
      {"MatMul", "grad_b"},
      // Bookkeeping of TF 2's automatic control dependencies, set on ops used as control inputs
      // (w/Assign under global_variables_initializer); no effect on a TF1 graph.
      {"*", "_has_manual_control_dependencies"},
  };
  return *kIgnored;
}

bool IsIgnored(const std::string& op, const std::string& attr) {
  return Ignored().count({op, attr}) > 0 || Ignored().count({"*", attr}) > 0;
}

// A TensorProto as canonical bytes: decoded, then re-encoded with tensor_content.
std::string CanonicalTensor(const TensorProto& proto) {
  absl::StatusOr<Tensor> t = TensorFromProto(proto);
  if (!t.ok()) return absl::StrCat("<undecodable: ", t.status().ToString(), ">");
  TensorProto canonical;
  TensorToProto(*t, &canonical, /*use_tensor_content=*/true);
  return absl::StrCat(t->DebugString(100), " ", canonical.SerializeAsString());
}

void CompareNodes(const NodeDef& rill, const NodeDef& tf) {
  SCOPED_TRACE(absl::StrCat("node ", tf.name()));
  EXPECT_EQ(rill.name(), tf.name());
  EXPECT_EQ(rill.op(), tf.op());
  EXPECT_EQ(std::vector<std::string>(rill.input().begin(), rill.input().end()),
            std::vector<std::string>(tf.input().begin(), tf.input().end()));
  EXPECT_EQ(rill.device(), tf.device());
  std::set<std::string> keys;
  for (const auto& [k, v] : rill.attr()) keys.insert(k);
  for (const auto& [k, v] : tf.attr()) keys.insert(k);
  for (const std::string& key : keys) {
    SCOPED_TRACE(absl::StrCat("attr ", key));
    auto r = rill.attr().find(key);
    auto t = tf.attr().find(key);
    if (t != tf.attr().end() && r == rill.attr().end()) {
      EXPECT_TRUE(IsIgnored(tf.op(), key)) << "TensorFlow writes it, Rill does not";
      continue;
    }
    ASSERT_TRUE(t != tf.attr().end()) << "Rill writes it, TensorFlow does not";
    if (key == "value" && t->second.has_tensor()) {
      EXPECT_EQ(CanonicalTensor(r->second.tensor()), CanonicalTensor(t->second.tensor()));
      continue;
    }
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(r->second, t->second))
        << "Rill: " << r->second.ShortDebugString()
        << "\nTensorFlow: " << t->second.ShortDebugString();
  }
}

TEST(SeedGraphsVsTensorFlowTest, EverySeedGraphMatchesTensorFlowsFieldByField) {
  ASSERT_EQ(examples::SeedGraphs().size(), 8u);
  for (const examples::SeedGraph& seed : examples::SeedGraphs()) {
    SCOPED_TRACE(seed.name);
    RILL_ASSERT_OK_AND_ASSIGN(GraphDef rill, seed.build());
    const std::string path = absl::StrCat("examples/tf_reference/", seed.name, ".pbtxt");
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    GraphDef tf;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text.str(), &tf)) << path;
    // GraphDef-level fields: TensorFlow stamps versions.producer (its GraphDef version); Rill's
    // builder writes no versions (so importers apply current semantics). Nothing else is set.
    EXPECT_GT(tf.versions().producer(), 21);
    EXPECT_FALSE(rill.has_versions());
    EXPECT_FALSE(tf.has_library());
    EXPECT_FALSE(rill.has_library());
    ASSERT_EQ(rill.node_size(), tf.node_size());
    for (int i = 0; i < tf.node_size(); ++i) CompareNodes(rill.node(i), tf.node(i));
  }
}

// The comparison itself notices differences.
TEST(SeedGraphsVsTensorFlowTest, ComparisonCatchesADifference) {
  NodeDef a, b;
  a.set_name("x");
  a.set_op("Const");
  b = a;
  b.set_device("/device:CPU:0");
  EXPECT_NONFATAL_FAILURE(CompareNodes(a, b), "device");
  b = a;
  (*b.mutable_attr())["T"].set_type(DT_FLOAT);
  EXPECT_NONFATAL_FAILURE(CompareNodes(a, b), "TensorFlow writes it, Rill does not");
  b = a;
  (*b.mutable_attr())["grad_a"].set_b(false);
  b.set_op("MatMul");
  a.set_op("MatMul");
  CompareNodes(a, b);  // ignored, listed
}

// The seeds' own statements about these graphs.
TEST(SeedGraphsVsTensorFlowTest, TheSeedsNamesAndDevices) {
  std::map<std::string, GraphDef> graphs;
  for (const examples::SeedGraph& seed : examples::SeedGraphs()) {
    RILL_ASSERT_OK_AND_ASSIGN(graphs[seed.name], seed.build());
  }
  auto summary = [&](const std::string& name) {
    std::vector<std::string> lines;
    for (const NodeDef& n : graphs[name].node()) {
      lines.push_back(absl::StrCat(n.name(), " ", n.op(), " @", n.device()));
    }
    return lines;
  };
  using ::testing::ElementsAre;
  // Seed 001: "b: .../gpu:0  a: .../gpu:0  MatMul: .../gpu:0".
  EXPECT_THAT(summary("matmul"), ElementsAre("a Const @", "b Const @", "MatMul MatMul @"));
  EXPECT_THAT(summary("manual_placement"),
              ElementsAre("a Const @/device:CPU:0", "b Const @/device:CPU:0", "MatMul MatMul @"));
  // Seed 001's tower log: Const, Const_1, MatMul on gpu:2; Const_2, Const_3, MatMul_1 on gpu:3;
  // AddN on cpu:0.
  EXPECT_THAT(summary("multi_tower_gpu"),
              ElementsAre("Const Const @/device:GPU:2", "Const_1 Const @/device:GPU:2",
                          "MatMul MatMul @/device:GPU:2", "Const_2 Const @/device:GPU:3",
                          "Const_3 Const @/device:GPU:3", "MatMul_1 MatMul @/device:GPU:3",
                          "AddN AddN @/device:CPU:0"));
  EXPECT_THAT(summary("device_function"),
              ElementsAre("w/initial_value Const @/device:GPU:0", "w VariableV2 @/device:CPU:0",
                          "w/Assign Assign @/device:CPU:0", "w/read Identity @/device:CPU:0",
                          "a Const @/device:GPU:0", "MatMul MatMul @/device:GPU:0"));
  EXPECT_THAT(
      summary("training_loop"),
      ElementsAre("zeros Const @", "w VariableV2 @", "w/Assign Assign @", "w/read Identity @",
                  "init NoOp @", "Const Const @", "train AssignAdd @"));
}

}  // namespace
}  // namespace rill
