#include "tools/summarize_graph/summarize.h"

#include <string>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace rill {
namespace {

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g));
  return g;
}

TEST(SummarizeGraphTest, HandWrittenGraph) {
  GraphDef g = Parse(R"pb(
    node {
      name: "x"
      op: "Placeholder"
      device: "/device:CPU:0"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "shape"
        value {
          shape {
            dim { size: -1 }
            dim { size: 3 }
          }
        }
      }
    }
    node {
      name: "w"
      op: "Const"
      device: "/device:CPU:0"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape {
              dim { size: 3 }
              dim { size: 2 }
            }
            float_val: 1
          }
        }
      }
    }
    node {
      name: "k"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_INT32
            tensor_shape {}
            int_val: 7
          }
        }
      }
    }
    node {
      name: "y"
      op: "MatMul"
      input: "x"
      input: "w:0"
      device: "/device:CPU:1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node { name: "save" op: "SaveV2Unknown" input: "y" input: "^k" }
    node { name: "init" op: "NoOp" }
    library { function { signature { name: "my_fn" } } }
  )pb");
  EXPECT_EQ(SummarizeGraph(g),
            "nodes: 6\n"
            "ops: 5 types\n"
            "  Const 2\n"
            "  MatMul 1\n"
            "  NoOp 1\n"
            "  Placeholder 1\n"
            "  SaveV2Unknown 1\n"
            "inputs: 1\n"
            "  x (float, [?,3])\n"
            "outputs: 2\n"
            "  save (SaveV2Unknown)\n"
            "  init (NoOp)\n"
            "devices: 2\n"
            "  /device:CPU:0 2\n"
            "  /device:CPU:1 1\n"
            "constants: 2 Const nodes, 28 bytes\n"
            "functions: 1\n"
            "  my_fn\n"
            "unknown ops: SaveV2Unknown (1 node)\n");
}

// Functional ops run by lowering and calls of library functions are not unknown; an unregistered
// op inside a function body is.
TEST(SummarizeGraphTest, UnknownOpsSkipFunctionalOpsAndCountFunctionBodies) {
  GraphDef g = Parse(R"pb(
    node { name: "w" op: "StatelessWhile" }
    node { name: "i" op: "If" }
    node { name: "c" op: "StatefulPartitionedCall" }
    node { name: "f" op: "body_fn" }
    node { name: "u" op: "NoSuchOp" }
    library {
      function {
        signature { name: "body_fn" }
        node_def { name: "a" op: "AddV2" }
        node_def { name: "b" op: "NoSuchOp" }
        node_def { name: "d" op: "AlsoMissing" }
      }
    }
  )pb");
  const std::string summary = SummarizeGraph(g);
  EXPECT_NE(summary.find("unknown ops: AlsoMissing (1 node), NoSuchOp (2 nodes)\n"),
            std::string::npos)
      << summary;
}

TEST(SummarizeGraphTest, EmptyGraph) {
  EXPECT_EQ(SummarizeGraph(GraphDef()),
            "nodes: 0\n"
            "ops: 0 types\n"
            "inputs: 0\n"
            "outputs: 0\n"
            "devices: 0\n"
            "constants: 0 Const nodes, 0 bytes\n"
            "functions: 0\n"
            "unknown ops: none\n");
}

}  // namespace
}  // namespace rill
