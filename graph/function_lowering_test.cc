#include "graph/function_lowering.h"

#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
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

// add_one(x: float) -> y: float, with a constant that has no inputs.
constexpr char kLibrary[] = R"pb(
  library {
    function {
      signature {
        name: "add_one"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      node_def {
        name: "one"
        op: "Const"
        attr {
          key: "dtype"
          value { type: DT_FLOAT }
        }
        attr {
          key: "value"
          value {
            tensor {
              dtype: DT_FLOAT
              tensor_shape {}
              float_val: 1
            }
          }
        }
      }
      node_def {
        name: "add"
        op: "AddV2"
        input: "x"
        input: "one:output:0"
        attr {
          key: "T"
          value { placeholder: "T" }
        }
      }
      ret { key: "y" value: "add:z:0" }
    }
    function {
      signature {
        name: "forever"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      node_def { name: "again" op: "forever" input: "x" }
      ret { key: "y" value: "again:y:0" }
    }
  }
)pb";

const NodeDef* Find(const GraphDef& g, const std::string& name) {
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

std::vector<std::string> Inputs(const GraphDef& g, const std::string& name) {
  const NodeDef* n = Find(g, name);
  if (n == nullptr) return {"<no node " + name + ">"};
  return {n->input().begin(), n->input().end()};
}

TEST(FunctionLoweringTest, PartitionedCallIsInlinedUnderItsName) {
  GraphDef g = Parse(std::string(kLibrary) + R"pb(
    node {
      name: "a"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node { name: "gate" op: "NoOp" }
    node {
      name: "call"
      op: "PartitionedCall"
      input: "a"
      input: "^gate"
      device: "/cpu:0"
      attr {
        key: "f"
        value {
          func {
            name: "add_one"
            attr {
              key: "T"
              value { type: DT_FLOAT }
            }
          }
        }
      }
      attr {
        key: "Tin"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "Tout"
        value { list { type: DT_FLOAT } }
      }
    }
    node {
      name: "use"
      op: "Identity"
      input: "call"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
  )pb");
  EXPECT_TRUE(HasFunctionalOps(g));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerFunctionalOps(g));
  EXPECT_FALSE(HasFunctionalOps(out));
  EXPECT_THAT(Inputs(out, "call/input_control_node"), ElementsAre("^a", "^gate"));
  EXPECT_THAT(Inputs(out, "call/one"), ElementsAre("^call/input_control_node"));
  EXPECT_THAT(Inputs(out, "call/add"), ElementsAre("a", "call/one"));
  EXPECT_EQ(Find(out, "call/add")->attr().at("T").type(), DT_FLOAT);  // placeholder bound
  EXPECT_EQ(Find(out, "call/add")->device(), "/cpu:0");
  EXPECT_EQ(Find(out, "call")->op(), "IdentityN");
  EXPECT_THAT(Inputs(out, "call"), ElementsAre("call/add"));
  EXPECT_THAT(Inputs(out, "use"), ElementsAre("call"));
}

TEST(FunctionLoweringTest, IfBecomesSwitchesBranchesAndMerges) {
  GraphDef g = Parse(std::string(kLibrary) + R"pb(
    node {
      name: "p"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "a"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "if"
      op: "StatelessIf"
      input: "p"
      input: "a"
      attr {
        key: "Tcond"
        value { type: DT_INT32 }
      }
      attr {
        key: "Tin"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "Tout"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "then_branch"
        value {
          func {
            name: "add_one"
            attr {
              key: "T"
              value { type: DT_FLOAT }
            }
          }
        }
      }
      attr {
        key: "else_branch"
        value {
          func {
            name: "add_one"
            attr {
              key: "T"
              value { type: DT_FLOAT }
            }
          }
        }
      }
    }
  )pb");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerFunctionalOps(g));
  EXPECT_EQ(Find(out, "if/pred")->op(), "ToBool");
  EXPECT_THAT(Inputs(out, "if/pred"), ElementsAre("p"));
  EXPECT_THAT(Inputs(out, "if/input_0"), ElementsAre("a", "if/pred"));
  EXPECT_THAT(Inputs(out, "if/then/add"), ElementsAre("if/input_0:1", "if/then/one"));
  EXPECT_THAT(Inputs(out, "if/then/one"), ElementsAre("^if/switch_t"));
  EXPECT_THAT(Inputs(out, "if/else/add"), ElementsAre("if/input_0", "if/else/one"));
  EXPECT_THAT(Inputs(out, "if/output_0"), ElementsAre("if/else/add", "if/then/add"));
  EXPECT_THAT(Inputs(out, "if"), ElementsAre("if/output_0", "^if/branch_executed"));
}

TEST(FunctionLoweringTest, WhileBecomesAFrame) {
  GraphDef g = Parse(R"pb(
    library {
      function {
        signature {
          name: "below_ten"
          input_arg { name: "x" type: DT_FLOAT }
          output_arg { name: "c" type: DT_BOOL }
        }
        node_def {
          name: "ten"
          op: "Const"
          attr {
            key: "dtype"
            value { type: DT_FLOAT }
          }
          attr {
            key: "value"
            value {
              tensor {
                dtype: DT_FLOAT
                tensor_shape {}
                float_val: 10
              }
            }
          }
        }
        node_def {
          name: "less"
          op: "Less"
          input: "x"
          input: "ten:output:0"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
        ret { key: "c" value: "less:z:0" }
      }
    }
  )pb");
  g.MergeFrom(Parse(std::string(kLibrary) + R"pb(
    node {
      name: "a"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "w"
      op: "While"
      input: "a"
      attr {
        key: "T"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "parallel_iterations"
        value { i: 3 }
      }
      attr {
        key: "cond"
        value { func { name: "below_ten" } }
      }
      attr {
        key: "body"
        value {
          func {
            name: "add_one"
            attr {
              key: "T"
              value { type: DT_FLOAT }
            }
          }
        }
      }
    }
  )pb"));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerFunctionalOps(g));
  EXPECT_EQ(Find(out, "w/enter_0")->attr().at("frame_name").s(), "w");
  EXPECT_EQ(Find(out, "w/enter_0")->attr().at("parallel_iterations").i(), 3);
  EXPECT_THAT(Inputs(out, "w/merge_0"), ElementsAre("w/enter_0", "w/next_iteration_0"));
  EXPECT_THAT(Inputs(out, "w/cond/ten"), ElementsAre("^w/merge_0"));
  EXPECT_THAT(Inputs(out, "w/cond/less"), ElementsAre("w/merge_0", "w/cond/ten"));
  EXPECT_THAT(Inputs(out, "w/to_bool"), ElementsAre("w/cond/less"));
  EXPECT_THAT(Inputs(out, "w/switch_0"), ElementsAre("w/merge_0", "w/loop_cond"));
  EXPECT_THAT(Inputs(out, "w/body/one"), ElementsAre("^w/identity_0"));
  EXPECT_THAT(Inputs(out, "w/next_iteration_0"), ElementsAre("w/body/add"));
  EXPECT_THAT(Inputs(out, "w"), ElementsAre("w/exit_0"));
}

TEST(FunctionLoweringTest, ErrorsNameTheNodeAndTheFunction) {
  EXPECT_THAT(LowerFunctionalOps(Parse(R"pb(
                node {
                  name: "call"
                  op: "PartitionedCall"
                  attr {
                    key: "f"
                    value { func { name: "missing" } }
                  }
                }
              )pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (PartitionedCall): function 'missing' is not in the graph's "
                       "function library"));
  EXPECT_THAT(LowerFunctionalOps(Parse(std::string(kLibrary) + R"pb(
                node {
                  name: "a"
                  op: "Placeholder"
                  attr {
                    key: "dtype"
                    value { type: DT_FLOAT }
                  }
                }
                node { name: "call" op: "add_one" input: "a" input: "a" }
              )pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("calls function 'add_one' with 2 inputs; its signature takes 1")));
  EXPECT_THAT(LowerFunctionalOps(Parse(std::string(kLibrary) + R"pb(
                node {
                  name: "a"
                  op: "Placeholder"
                  attr {
                    key: "dtype"
                    value { type: DT_FLOAT }
                  }
                }
                node { name: "call" op: "add_one" input: "a" }
              )pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("attr 'T' is the placeholder $T, which the call does not set")));
  EXPECT_THAT(LowerFunctionalOps(Parse(std::string(kLibrary) + R"pb(
                node {
                  name: "a"
                  op: "Placeholder"
                  attr {
                    key: "dtype"
                    value { type: DT_FLOAT }
                  }
                }
                node { name: "call" op: "forever" input: "a" }
              )pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("function calls nest more than 64 deep")));
}

}  // namespace
}  // namespace rill
