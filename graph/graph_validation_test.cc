#include "graph/graph_validation.h"

#include <string>

#include "core/status_matchers.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

TEST(ValidateGraphDefTest, FillsDefaultsAndCanonicalizesInputs) {
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, ValidateGraphDef(Parse(R"pb(
                              node {
                                name: "p"
                                op: "Placeholder"
                                device: "/gpu:0"
                                attr {
                                  key: "dtype"
                                  value { type: DT_FLOAT }
                                }
                              }
                              node {
                                name: "q"
                                op: "Identity"
                                input: "p:0"
                                input: "^p"
                                input: "^p"
                                attr {
                                  key: "T"
                                  value { type: DT_FLOAT }
                                }
                              }
                            )pb")));
  ASSERT_EQ(out.node_size(), 2);
  EXPECT_TRUE(out.node(0).attr().at("shape").shape().unknown_rank());
  EXPECT_EQ(out.node(0).device(), "/gpu:0");
  EXPECT_THAT(out.node(1).input(), ElementsAre("p", "^p"));
}

TEST(ValidateGraphDefTest, ClearDevicesAndErrors) {
  const GraphDef def = Parse(R"pb(
    node {
      name: "p"
      op: "Placeholder"
      device: "/gpu:0"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "q"
      op: "Identity"
      input: "r"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
  )pb");
  EXPECT_THAT(ValidateGraphDef(def), StatusIs(absl::StatusCode::kInvalidArgument,
                                              HasSubstr("Node 'q': Unknown input node 'r'")));
  GraphDef fixed = def;
  fixed.mutable_node(1)->set_input(0, "p");
  ValidationOptions options;
  options.clear_devices = true;
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, ValidateGraphDef(fixed, options));
  EXPECT_EQ(out.node(0).device(), "");
}

}  // namespace
}  // namespace rill
