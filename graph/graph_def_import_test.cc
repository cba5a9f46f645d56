#include "graph/graph_def_import.h"

#include <memory>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/graph_def_export.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

// Two float constants a, b (shape [2,3] and [3,2]) and an int32 constant i; `rest` is appended.
GraphDef WithConsts(const std::string& rest) {
  return Parse(R"pb(
                 node {
                   name: "a"
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
                         tensor_shape {
                           dim { size: 2 }
                           dim { size: 3 }
                         }
                       }
                     }
                   }
                 }
                 node {
                   name: "b"
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
                         tensor_shape {
                           dim { size: 3 }
                           dim { size: 2 }
                         }
                       }
                     }
                   }
                 }
                 node {
                   name: "i"
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
                         int_val: 1
                       }
                     }
                   }
                 }
                 versions { producer: 1000 }
               )pb" +
               rest);
}

std::string Identity(const std::string& name, const std::string& input,
                     const std::string& type = "DT_FLOAT") {
  return "node { name: '" + name + "' op: 'Identity' input: '" + input +
         "' attr { key: 'T' value { type: " + type + " } } }";
}

// Registers a NextIteration op for the loop tests when the registry has none (Rill's op set may
// not define the control-flow ops yet).
void EnsureNextIterationOp() {
  if (OpRegistry::Global()->LookUp("NextIteration") != nullptr) return;
  absl::StatusOr<OpRegistration> reg = OpDefBuilder("NextIteration")
                                           .Input("data: T")
                                           .Output("output: T")
                                           .Attr("T: type")
                                           .SetShapeFn(shape_fns::Unchanged)
                                           .Finalize();
  ASSERT_TRUE(reg.ok()) << reg.status();
  ASSERT_TRUE(OpRegistry::Global()->Register(*std::move(reg)).ok());
}

// ------------------------------------------------------------------------------------------------
// Success.

TEST(ImportGraphDefTest, BuildsNodesAndEdges) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(WithConsts(R"pb(
                              node {
                                name: "m"
                                op: "MatMul"
                                input: "a"
                                input: "b"
                                input: "^i"
                                device: "/cpu:0"
                                attr {
                                  key: "T"
                                  value { type: DT_FLOAT }
                                }
                              }
                            )pb")));
  EXPECT_EQ(g->num_op_nodes(), 4);
  const Node* m = g->FindNode("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->id(), 5);  // SOURCE, SINK, then the GraphDef's order
  EXPECT_EQ(m->requested_device(), "/cpu:0");
  EXPECT_EQ(m->def().attr().at("transpose_a").b(), false);  // default filled
  ASSERT_NE(m->input_edge(0), nullptr);
  EXPECT_EQ(m->input_node(0)->name(), "a");
  EXPECT_EQ(m->input_node(1)->name(), "b");
  ASSERT_EQ(m->in_edges().size(), 3u);
  EXPECT_TRUE(m->in_edges()[2]->IsControlEdge());
  EXPECT_EQ(m->in_edges()[2]->src()->name(), "i");
  // SOURCE -> nodes without inputs, nodes without outputs -> SINK.
  EXPECT_EQ(g->FindNode("a")->in_edges()[0]->src(), g->source_node());
  EXPECT_EQ(m->out_edges()[0]->dst(), g->sink_node());
  EXPECT_EQ(g->versions().producer(), 1000);
}

TEST(ImportGraphDefTest, MovingImportGivesTheSameGraph) {
  GraphDef def = WithConsts(R"pb(
    node {
      name: "m"
      op: "MatMul"
      input: "a"
      input: "b"
      input: "^i"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    library { function { signature { name: "f" } } }
    debug_info { files: "x.py" }
  )pb");
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> copied, ImportGraphDef(def));
  GraphDef moved_from = def;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> moved, ImportGraphDef(std::move(moved_from)));
  GraphDef a, b;
  ExportGraphDef(*copied, &a);
  ExportGraphDef(*moved, &b);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b));
  EXPECT_EQ(b.library().function(0).signature().name(), "f");
  EXPECT_EQ(b.debug_info().files(0), "x.py");
  EXPECT_EQ(moved->FindNode("m")->output_shapes()[0].DebugString(), "[2,2]");
}

TEST(ImportGraphDefTest, InfersShapes) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(WithConsts(R"pb(
                              node {
                                name: "p"
                                op: "Placeholder"
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
                                name: "m"
                                op: "MatMul"
                                input: "p"
                                input: "b"
                                attr {
                                  key: "T"
                                  value { type: DT_FLOAT }
                                }
                              }
                              node { name: "u" op: "Unknown" input: "m" }
                              node {
                                name: "n"
                                op: "MatMul"
                                input: "u"
                                input: "a"
                                attr {
                                  key: "T"
                                  value { type: DT_FLOAT }
                                }
                              }
                            )pb")));
  ASSERT_EQ(g->FindNode("m")->output_shapes().size(), 1u);
  EXPECT_EQ(g->FindNode("m")->output_shapes()[0].DebugString(), "[?,2]");
  EXPECT_TRUE(g->FindNode("u")->output_shapes()[0].unknown_rank());
  EXPECT_EQ(g->FindNode("n")->output_shapes()[0].DebugString(), "[?,3]");
}

// An int32 vector Const node named `name` holding `values` (GraphDef text).
std::string IndexConst(const std::string& name, const std::vector<int>& values) {
  std::string vals;
  for (int v : values) vals += " int_val: " + std::to_string(v);
  return "node { name: '" + name + "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }" +
         " attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: " +
         std::to_string(values.size()) + " } }" + vals + " } } } }\n";
}

TEST(ImportGraphDefTest, ShapeFunctionsReadConstantInputs) {
  const std::string text =
      R"pb(
        node {
          name: "p"
          op: "Placeholder"
          attr {
            key: "dtype"
            value { type: DT_FLOAT }
          }
          attr {
            key: "shape"
            value {
              shape {
                dim { size: 2 }
                dim { size: 3 }
              }
            }
          }
        }
        node {
          name: "q"
          op: "Placeholder"
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
      )pb" +
      IndexConst("to_3_minus1", {3, -1}) + IndexConst("axis1", {1}) + IndexConst("dims", {4, 1}) +
      IndexConst("mult", {2, 3}) +
      R"pb(
    node {
      name: "reshape"
      op: "Reshape"
      input: "p"
      input: "to_3_minus1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "reshape_unknown"
      op: "Reshape"
      input: "q"
      input: "to_3_minus1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "sum"
      op: "Sum"
      input: "q"
      input: "axis1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "mean_keep"
      op: "Mean"
      input: "q"
      input: "axis1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "keep_dims"
        value { b: true }
      }
    }
    node {
      name: "argmax"
      op: "ArgMax"
      input: "p"
      input: "axis1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "expand"
      op: "ExpandDims"
      input: "q"
      input: "axis1"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "tile"
      op: "Tile"
      input: "q"
      input: "mult"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "broadcast"
      op: "BroadcastTo"
      input: "p"
      input: "dims"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "fill"
      op: "Fill"
      input: "dims"
      input: "zero"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "zero"
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
            float_val: 0
          }
        }
      }
    }
      )pb";
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(Parse(text)));
  auto shape = [&](const char* node) {
    return g->FindNode(node)->output_shapes()[0].DebugString();
  };
  EXPECT_EQ(shape("reshape"), "[3,2]");
  EXPECT_EQ(shape("reshape_unknown"), "[3,?]");
  EXPECT_EQ(shape("sum"), "[?]");
  EXPECT_EQ(shape("mean_keep"), "[?,1]");
  EXPECT_EQ(shape("argmax"), "[2]");
  EXPECT_EQ(shape("expand"), "[?,1,3]");
  EXPECT_EQ(shape("tile"), "[?,9]");
  EXPECT_EQ(shape("broadcast"), "[4,1]");
  EXPECT_EQ(shape("fill"), "[4,1]");
}

// A node `name` of `op` on `inputs` with type attrs (key: DT_...), as text.
std::string TypedNode(const std::string& name, const std::string& op,
                      const std::vector<std::string>& inputs,
                      const std::vector<std::pair<std::string, std::string>>& types,
                      const std::string& more = "") {
  std::string text = "node { name: '" + name + "' op: '" + op + "'";
  for (const std::string& in : inputs) text += " input: '" + in + "'";
  for (const auto& [key, type] : types) {
    text += " attr { key: '" + key + "' value { type: " + type + " } }";
  }
  return text + " " + more + " }\n";
}

TEST(ImportGraphDefTest, ShapeTensorsBuiltFromShapesArePartlyKnown) {
  const std::string int32 = "DT_INT32";
  const std::string text =
      R"pb(
        node {
          name: "q"
          op: "Placeholder"
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
          name: "zero"
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
                float_val: 0
              }
            }
          }
        }
        node {
          name: "four"
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
                int_val: 4
              }
            }
          }
        }
        node {
          name: "ones"
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
                tensor_shape {
                  dim { size: 1 }
                  dim { size: 1 }
                }
                float_val: 1
              }
            }
          }
        }
      )pb" +
      IndexConst("b0", {0}) + IndexConst("e1", {1}) + IndexConst("s1", {1}) +
      IndexConst("two", {2}) +
      "node { name: 'axis' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: "
      "'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }\n" +
      TypedNode("shape", "Shape", {"q"}, {{"T", "DT_FLOAT"}, {"out_type", int32}}) +
      TypedNode("batch", "StridedSlice", {"shape", "b0", "e1", "s1"},
                {{"T", int32}, {"Index", int32}},
                "attr { key: 'shrink_axis_mask' value { i: 1 } }") +
      TypedNode("packed", "Pack", {"batch", "four"}, {{"T", int32}},
                "attr { key: 'N' value { i: 2 } }") +
      TypedNode("fill", "Fill", {"packed", "zero"}, {{"T", "DT_FLOAT"}, {"index_type", int32}}) +
      TypedNode("zeros_like_q", "Fill", {"shape", "zero"},
                {{"T", "DT_FLOAT"}, {"index_type", int32}}) +
      TypedNode("reshape", "Reshape", {"fill", "packed"}, {{"T", "DT_FLOAT"}, {"Tshape", int32}}) +
      TypedNode("tile", "Tile", {"ones", "shape"}, {{"T", "DT_FLOAT"}, {"Tmultiples", int32}}) +
      TypedNode("random", "RandomUniform", {"shape"}, {{"T", int32}, {"dtype", "DT_FLOAT"}}) +
      TypedNode("concat", "ConcatV2", {"shape", "two", "axis"}, {{"T", int32}, {"Tidx", int32}},
                "attr { key: 'N' value { i: 2 } }") +
      TypedNode("broadcast", "BroadcastTo", {"zero", "concat"},
                {{"T", "DT_FLOAT"}, {"Tidx", int32}});
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(Parse(text)));
  auto shape = [&](const char* node) {
    return g->FindNode(node)->output_shapes()[0].DebugString();
  };
  EXPECT_EQ(shape("fill"), "[?,4]");
  EXPECT_EQ(shape("zeros_like_q"), "[?,3]");
  EXPECT_EQ(shape("reshape"), "[?,4]");
  EXPECT_EQ(shape("tile"), "[?,3]");
  EXPECT_EQ(shape("random"), "[?,3]");
  EXPECT_EQ(shape("broadcast"), "[?,3,2]");
}

TEST(ImportGraphDefTest, SkipsShapesWhenAsked) {
  ImportOptions options;
  options.infer_shapes = false;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(WithConsts(R"pb(
                                                                       node {
                                                                         name: "m"
                                                                         op: "MatMul"
                                                                         input: "a"
                                                                         input: "a"
                                                                         attr {
                                                                           key: "T"
                                                                           value { type: DT_FLOAT }
                                                                         }
                                                                       }
                                                                     )pb"),
                                                                     options));
  EXPECT_THAT(g->FindNode("m")->output_shapes(), IsEmpty());
}

TEST(ImportGraphDefTest, RefOutputMayFeedNonRefInput) {
  RILL_ASSERT_OK(ImportGraphDef(Parse(R"pb(
                   node {
                     name: "v"
                     op: "VariableV2"
                     attr {
                       key: "dtype"
                       value { type: DT_FLOAT }
                     }
                     attr {
                       key: "shape"
                       value { shape { dim { size: 2 } } }
                     }
                   }
                   node {
                     name: "r"
                     op: "Identity"
                     input: "v"
                     attr {
                       key: "T"
                       value { type: DT_FLOAT }
                     }
                   }
                 )pb"))
                     .status());
}

TEST(ImportGraphDefTest, ClearDevices) {
  ImportOptions options;
  options.clear_devices = true;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g,
                            ImportGraphDef(WithConsts(Identity("x", "a").insert(
                                               std::string("node { ").size(),
                                               "device: '/job:worker/task:7/device:GPU:3' ")),
                                           options));
  EXPECT_EQ(g->FindNode("x")->requested_device(), "");
  // Even a malformed one is dropped rather than rejected.
  RILL_EXPECT_OK(ImportGraphDef(WithConsts(Identity("x", "a").insert(std::string("node { ").size(),
                                                                     "device: 'not a device' ")),
                                options)
                     .status());
}

// ------------------------------------------------------------------------------------------------
// GraphDef versions.

TEST(ImportGraphDefTest, OldProducerScalarPlaceholderShapeMeansUnknown) {
  const std::string placeholder = R"pb(
    node {
      name: "p"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "shape"
        value { shape {} }
      }
    }
  )pb";
  for (int producer : {0, 21}) {
    SCOPED_TRACE(producer);
    GraphDef def = Parse(placeholder);
    if (producer > 0) def.mutable_versions()->set_producer(producer);
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(def));
    const Node* p = g->FindNode("p");
    EXPECT_TRUE(p->def().attr().at("shape").shape().unknown_rank());
    EXPECT_TRUE(p->output_shapes()[0].unknown_rank());
  }
  GraphDef def = Parse(placeholder);
  def.mutable_versions()->set_producer(22);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(def));
  const Node* p = g->FindNode("p");
  EXPECT_FALSE(p->def().attr().at("shape").shape().unknown_rank());
  EXPECT_EQ(p->output_shapes()[0].DebugString(), "[]");
}

// ------------------------------------------------------------------------------------------------
// Unknown ops.

// Nodes of one op in a row reuse its registration; a different op, an unknown one, and an op
// registered after an import that did not know it are each looked up again.
TEST(ImportGraphDefTest, OpsInRowsAndAnOpRegisteredLater) {
  const GraphDef def = WithConsts(R"pb(
    node { name: "late0" op: "RegisteredLaterOp" input: "a" }
    node { name: "late1" op: "RegisteredLaterOp" input: "late0" }
    node {
      name: "id0"
      op: "Identity"
      input: "a"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "id1"
      op: "Identity"
      input: "id0"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "m"
      op: "MatMul"
      input: "id1"
      input: "b"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "id2"
      op: "Identity"
      input: "m"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
  )pb");
  {
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(def));
    EXPECT_TRUE(g->FindNode("late0")->is_unknown_op());
    EXPECT_TRUE(g->FindNode("late1")->is_unknown_op());
    EXPECT_EQ(g->FindNode("id1")->op_def()->name(), "Identity");
    EXPECT_EQ(g->FindNode("m")->op_def()->name(), "MatMul");
    EXPECT_EQ(g->FindNode("id2")->op_def()->name(), "Identity");
    EXPECT_EQ(g->FindNode("id1")->output_shapes()[0].DebugString(), "[2,3]");
    EXPECT_EQ(g->FindNode("m")->output_shapes()[0].DebugString(), "[2,2]");
    EXPECT_EQ(g->FindNode("id2")->output_shapes()[0].DebugString(), "[2,2]");
  }
  absl::StatusOr<OpRegistration> reg = OpDefBuilder("RegisteredLaterOp")
                                           .Input("x: float")
                                           .Output("y: float")
                                           .SetShapeFn(shape_fns::Unchanged)
                                           .Finalize();
  ASSERT_TRUE(reg.ok()) << reg.status();
  ASSERT_TRUE(OpRegistry::Global()->Register(*std::move(reg)).ok());
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(def));
  for (const char* name : {"late0", "late1"}) {
    const Node* late = g->FindNode(name);
    EXPECT_FALSE(late->is_unknown_op()) << name;
    EXPECT_EQ(late->op_def()->name(), "RegisteredLaterOp") << name;
    EXPECT_EQ(late->output_shapes()[0].DebugString(), "[2,3]") << name;
  }
  EXPECT_EQ(g->FindNode("id0")->op_def()->name(), "Identity");
}

TEST(ImportGraphDefTest, UnknownOpIsKeptAndExported) {
  const GraphDef def = WithConsts(R"pb(
    node {
      name: "save"
      op: "SaveV2Unknown"
      input: "a"
      input: "i"
      input: "^b"
      device: "/cpu:0"
      attr {
        key: "dtypes"
        value { list { type: DT_FLOAT type: DT_INT32 } }
      }
    }
    node {
      name: "after"
      op: "Identity"
      input: "save:2"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "m"
      op: "MatMul"
      input: "a"
      input: "b"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "transpose_a"
        value { b: false }
      }
      attr {
        key: "transpose_b"
        value { b: false }
      }
      attr {
        key: "grad_a"
        value { b: false }
      }
      attr {
        key: "grad_b"
        value { b: false }
      }
    }
  )pb");
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(def));
  const Node* save = g->FindNode("save");
  ASSERT_NE(save, nullptr);
  EXPECT_TRUE(save->is_unknown_op());
  EXPECT_EQ(save->op_def(), nullptr);
  EXPECT_EQ(save->num_outputs(), 3);  // the largest index used, plus one
  EXPECT_THAT(save->input_types(), ElementsAre(DT_FLOAT, DT_INT32));
  EXPECT_EQ(save->def().attr().size(), 1u);  // nothing added
  EXPECT_FALSE(g->FindNode("m")->is_unknown_op());

  GraphDef out;
  ExportGraphDef(*g, &out);
  std::string diff;
  google::protobuf::util::MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  EXPECT_TRUE(d.Compare(def, out)) << diff;
}

// ------------------------------------------------------------------------------------------------
// Loops.

TEST(ImportGraphDefTest, CycleThroughNextIterationIsAccepted) {
  EnsureNextIterationOp();
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(WithConsts(R"pb(
                              node {
                                name: "body"
                                op: "Identity"
                                input: "next"
                                attr {
                                  key: "T"
                                  value { type: DT_FLOAT }
                                }
                              }
                              node {
                                name: "next"
                                op: "NextIteration"
                                input: "body"
                                attr {
                                  key: "T"
                                  value { type: DT_FLOAT }
                                }
                              }
                            )pb")));
  EXPECT_FALSE(g->FindNode("next")->is_unknown_op());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Node*> order, TopologicalOrder(*g));
  std::vector<std::string> names;
  for (const Node* n : order) names.push_back(n->name());
  EXPECT_THAT(names, ElementsAre("a", "b", "i", "body", "next"));
}

TEST(ImportGraphDefTest, WhileLoopThroughNextIterationIsAccepted) {
  // The control-flow ops as TensorFlow writes them (ops/control_flow_ops.cc).
  RILL_EXPECT_OK(ImportGraphDef(WithConsts(R"pb(
                   node {
                     name: "enter"
                     op: "Enter"
                     input: "i"
                     attr {
                       key: "T"
                       value { type: DT_INT32 }
                     }
                     attr {
                       key: "frame_name"
                       value { s: "while/while_context" }
                     }
                   }
                   node {
                     name: "merge"
                     op: "Merge"
                     input: "enter"
                     input: "next"
                     attr {
                       key: "T"
                       value { type: DT_INT32 }
                     }
                     attr {
                       key: "N"
                       value { i: 2 }
                     }
                   }
                   node {
                     name: "add"
                     op: "AddV2"
                     input: "merge"
                     input: "i"
                     attr {
                       key: "T"
                       value { type: DT_INT32 }
                     }
                   }
                   node {
                     name: "next"
                     op: "NextIteration"
                     input: "add"
                     attr {
                       key: "T"
                       value { type: DT_INT32 }
                     }
                   }
                 )pb"))
                     .status());
}

TEST(ImportGraphDefTest, OtherCyclesAreRejected) {
  EnsureNextIterationOp();
  EXPECT_THAT(
      ImportGraphDef(WithConsts(Identity("x", "z") + Identity("y", "x") + Identity("z", "y") +
                                Identity("after", "z"))),
      StatusIs(kInvalid, AllOf(HasSubstr("cycle that does not pass through NextIteration"),
                               HasSubstr("x -> y -> z -> x"), HasSubstr("4 nodes in a cycle"))));
  // A self-loop, and a control edge closing a cycle.
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "x"))),
              StatusIs(kInvalid, HasSubstr("x -> x")));
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a") + R"pb(
                node {
                  name: "y"
                  op: "Identity"
                  input: "x"
                  input: "^y"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, HasSubstr("y -> y")));
  // A loop closed by NextIteration does not excuse another cycle beside it.
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                                          node {
                                            name: "body"
                                            op: "Identity"
                                            input: "next"
                                            attr {
                                              key: "T"
                                              value { type: DT_FLOAT }
                                            }
                                          }
                                          node {
                                            name: "next"
                                            op: "NextIteration"
                                            input: "body"
                                            attr {
                                              key: "T"
                                              value { type: DT_FLOAT }
                                            }
                                          }
                                        )pb" +
                                        Identity("p", "q") + Identity("q", "p"))),
              StatusIs(kInvalid, HasSubstr("p -> q -> p")));
}

// ------------------------------------------------------------------------------------------------
// One test per validation error.

TEST(ImportGraphDefErrorTest, DuplicateNodeName) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a") + Identity("x", "b"))),
              StatusIs(kInvalid, HasSubstr("Node 'x' is not unique")));
}

// A repeated name is reported before any error of a node's device, inputs or attrs, wherever
// the two are (as if every name were checked first), in the copying and the moving import alike;
// an empty or invalid name only after a repeat before it.
TEST(ImportGraphDefErrorTest, DuplicateNameReportedBeforeOtherErrors) {
  const std::string bad_device = "node { name: 'd' op: 'NoOp' device: '/nonsense:x' }";
  const std::string bad_attr = "node { name: 't' op: 'Identity' input: 'a' }";  // no T
  const std::string bad_inputs =
      "node { name: 'm' op: 'MatMul' input: 'a' attr { key: 'T' "
      "value { type: DT_FLOAT } } }";
  for (const std::string& earlier : {bad_device, bad_attr, bad_inputs}) {
    for (const std::string& later : {Identity("x", "a") + Identity("x", "b"), Identity("a", "b")}) {
      SCOPED_TRACE(earlier + later);
      const GraphDef def = WithConsts(earlier + later);
      const std::string repeated = later == Identity("a", "b") ? "a" : "x";
      EXPECT_THAT(ImportGraphDef(def),
                  StatusIs(kInvalid, HasSubstr("Node '" + repeated + "' is not unique")));
      GraphDef moved = def;
      EXPECT_THAT(ImportGraphDef(std::move(moved)),
                  StatusIs(kInvalid, HasSubstr("Node '" + repeated + "' is not unique")));
    }
  }
  // The first repeat in GraphDef order is the one named.
  EXPECT_THAT(ImportGraphDef(WithConsts(bad_attr + Identity("y", "a") + Identity("y", "a") +
                                        Identity("t", "a"))),
              StatusIs(kInvalid, HasSubstr("Node 'y' is not unique")));
  // Without a repeat, a node's own error stands.
  EXPECT_THAT(ImportGraphDef(WithConsts(bad_device + Identity("x", "a"))),
              StatusIs(kInvalid, HasSubstr("Node 'd'")));
  EXPECT_THAT(ImportGraphDef(WithConsts(bad_inputs)),
              StatusIs(kInvalid, HasSubstr("do not match 1 inputs specified")));
  // Names are checked in order: an invalid one after a repeat, and before one.
  const std::string bad_name = Identity("a b", "a");
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a") + Identity("x", "a") + bad_name)),
              StatusIs(kInvalid, HasSubstr("Node 'x' is not unique")));
  EXPECT_THAT(ImportGraphDef(WithConsts(bad_name + Identity("x", "a") + Identity("x", "a"))),
              StatusIs(kInvalid, HasSubstr("Node name contains invalid characters")));
}

TEST(ImportGraphDefErrorTest, EmptyNodeName) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("", "a"))),
              StatusIs(kInvalid, HasSubstr("Node 3 (op 'Identity') has an empty name")));
}

TEST(ImportGraphDefErrorTest, InvalidCharactersInNodeName) {
  for (const char* bad : {"a:1", "^a", "-a", "a b", "a>", "a>_b"}) {
    SCOPED_TRACE(bad);
    EXPECT_THAT(ImportGraphDef(WithConsts(Identity(bad, "a"))),
                StatusIs(kInvalid, HasSubstr("Node name contains invalid characters")));
  }
  for (const char* good : {"_a", ".a", "tower_0/MatMul", "a-b.c", "a>b"}) {
    EXPECT_TRUE(IsValidNodeName(good)) << good;
  }
}

TEST(ImportGraphDefErrorTest, InputNamesMissingNode) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "nope"))),
              StatusIs(kInvalid, HasSubstr("Node 'x': Unknown input node 'nope'")));
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "nope:1"))),
              StatusIs(kInvalid, HasSubstr("Node 'x': Unknown input node 'nope:1'")));
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node { name: "x" op: "NoOp" input: "^nope" })pb")),
              StatusIs(kInvalid, HasSubstr("Node 'x': Unknown input node '^nope'")));
}

// Edges are added in the GraphDef's input order whether a node's inputs were all added before it
// or one comes later: a's consumers x, z, w read it in that order, around y's forward reference.
TEST(ImportGraphDefTest, EdgesInInputOrderAroundAForwardReference) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g,
                            ImportGraphDef(WithConsts(Identity("x", "a") + Identity("y", "z") +
                                                      Identity("z", "a") + Identity("w", "a"))));
  std::vector<std::string> consumers;
  for (const Edge* e : g->FindNode("a")->out_edges()) {
    if (!e->IsControlEdge()) consumers.push_back(e->dst()->name());
  }
  EXPECT_THAT(consumers, ElementsAre("x", "z", "w"));
  EXPECT_EQ(g->FindNode("y")->input_node(0), g->FindNode("z"));
}

// A node whose first input was added before it and whose second comes later: its edges are added
// in input order (the first while the node is added, the second once `later` is there).
std::string MatMul(const std::string& name, const std::string& a, const std::string& b) {
  return "node { name: '" + name + "' op: 'MatMul' input: '" + a + "' input: '" + b +
         "' attr { key: 'T' value { type: DT_FLOAT } } }";
}

TEST(ImportGraphDefTest, InputsAfterAForwardReferenceInTheSameNode) {
  RILL_ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<Graph> g,
      ImportGraphDef(WithConsts(MatMul("m", "a", "later") + Identity("later", "b") +
                                "node { name: 'n' op: 'NoOp' input: '^a' input: '^later' }")));
  const Node* m = g->FindNode("m");
  EXPECT_EQ(m->input_node(0), g->FindNode("a"));
  EXPECT_EQ(m->input_node(1), g->FindNode("later"));
  std::vector<std::string> ins;
  for (const Edge* e : g->FindNode("n")->in_edges()) ins.push_back(e->src()->name());
  EXPECT_THAT(ins, ElementsAre("a", "later"));
  std::vector<int> slots;
  for (const Edge* e : m->in_edges()) slots.push_back(e->dst_input());
  EXPECT_THAT(slots, ElementsAre(0, 1));
}

// A node's input errors are reported in its input order: an edge error before a later unknown
// input, an unknown input before a later edge error.
TEST(ImportGraphDefErrorTest, FirstFailingInputOfANodeIsReported) {
  EXPECT_THAT(ImportGraphDef(WithConsts(MatMul("m", "a:3", "nope"))),
              StatusIs(kInvalid, HasSubstr("Node 'm': Connecting to invalid output 3 of source "
                                           "node a which has 1 outputs.")));
  EXPECT_THAT(ImportGraphDef(WithConsts(MatMul("m", "a", "nope") + Identity("x", "a:3"))),
              StatusIs(kInvalid, HasSubstr("Node 'm': Unknown input node 'nope'")));
  EXPECT_THAT(ImportGraphDef(WithConsts(MatMul("m", "a", "later:2") + Identity("later", "b"))),
              StatusIs(kInvalid, HasSubstr("Node 'm': Connecting to invalid output 2 of source "
                                           "node later which has 1 outputs.")));
}

// An input error is reported after every node's own checks, also when the failing input names a
// node listed before it: x's dtype mismatch comes after m's missing attr.
TEST(ImportGraphDefErrorTest, InputErrorsComeAfterEveryNodesChecks) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a", "DT_INT32") + R"pb(
                node { name: "m" op: "MatMul" input: "a" input: "b" })pb")),
              StatusIs(kInvalid, HasSubstr("NodeDef missing attr 'T'")));
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a", "DT_INT32") + Identity("y", "x"))),
              StatusIs(kInvalid, HasSubstr("Input 0 of node x was passed float from a:0 "
                                           "incompatible with expected int32.")));
}

TEST(ImportGraphDefErrorTest, InputNamesOutOfRangeOutput) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a:3"))),
              StatusIs(kInvalid, HasSubstr("Node 'x': Connecting to invalid output 3 of source "
                                           "node a which has 1 outputs.")));
}

TEST(ImportGraphDefErrorTest, MalformedInputString) {
  EXPECT_THAT(
      ImportGraphDef(WithConsts(Identity("x", "a:one"))),
      StatusIs(kInvalid, AllOf(HasSubstr("Node 'x'"), HasSubstr("Malformed input 'a:one'"))));
}

TEST(ImportGraphDefErrorTest, DtypeMismatch) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "a", "DT_INT32"))),
              StatusIs(kInvalid, HasSubstr("Input 0 of node x was passed float from a:0 "
                                           "incompatible with expected int32.")));
}

TEST(ImportGraphDefErrorTest, NonRefOutputIntoRefInput) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "assign"
                  op: "Assign"
                  input: "a"
                  input: "b"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, HasSubstr("Input 0 of node assign was passed float from a:0 "
                                           "incompatible with expected float_ref.")));
}

TEST(ImportGraphDefErrorTest, MissingAttr) {
  EXPECT_THAT(
      ImportGraphDef(WithConsts(R"pb(
        node { name: "m" op: "MatMul" input: "a" input: "b" })pb")),
      StatusIs(kInvalid, AllOf(HasSubstr("NodeDef missing attr 'T'"), HasSubstr("{{node m}}"))));
}

TEST(ImportGraphDefErrorTest, AttrOfWrongType) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "m"
                  op: "MatMul"
                  input: "a"
                  input: "b"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                  attr {
                    key: "transpose_a"
                    value { i: 1 }
                  }
                })pb")),
              StatusIs(kInvalid, AllOf(HasSubstr("AttrValue had value with type 'int' when "
                                                 "'bool' expected"),
                                       HasSubstr("{{node m}}"))));
}

TEST(ImportGraphDefErrorTest, AttrValueNotAllowed) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "m"
                  op: "MatMul"
                  input: "i"
                  input: "i"
                  attr {
                    key: "T"
                    value { type: DT_BOOL }
                  }
                })pb")),
              StatusIs(kInvalid, AllOf(HasSubstr("Value for attr 'T' of bool is not in the list "
                                                 "of allowed values"),
                                       HasSubstr("{{node m}}"))));
}

TEST(ImportGraphDefErrorTest, AttrNotInOp) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "m"
                  op: "MatMul"
                  input: "a"
                  input: "b"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                  attr {
                    key: "bogus"
                    value { b: true }
                  }
                })pb")),
              StatusIs(kInvalid, AllOf(HasSubstr("NodeDef mentions attr 'bogus' not in"),
                                       HasSubstr("{{node m}}"))));
}

TEST(ImportGraphDefErrorTest, WrongNumberOfInputs) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "m"
                  op: "MatMul"
                  input: "a"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, AllOf(HasSubstr("do not match 1 inputs specified"),
                                       HasSubstr("{{node m}}"))));
}

TEST(ImportGraphDefErrorTest, ControlInputBeforeDataInput) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "x"
                  op: "Identity"
                  input: "^b"
                  input: "a"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, HasSubstr("Node 'x': Control dependencies must come after "
                                           "regular dependencies")));
}

TEST(ImportGraphDefErrorTest, MalformedDevice) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "x"
                  op: "Identity"
                  input: "a"
                  device: "/gpu:zero"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, HasSubstr("Node 'x': Malformed device specification "
                                           "'/gpu:zero'")));
}

TEST(ImportGraphDefErrorTest, CycleNotThroughNextIteration) {
  EXPECT_THAT(ImportGraphDef(WithConsts(Identity("x", "y") + Identity("y", "x"))),
              StatusIs(kInvalid, AllOf(HasSubstr("cycle that does not pass through "
                                                 "NextIteration"),
                                       HasSubstr("x -> y -> x"))));
}

TEST(ImportGraphDefErrorTest, ShapeContradiction) {
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "m"
                  op: "MatMul"
                  input: "a"
                  input: "a"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, AllOf(HasSubstr("Dimensions must be equal, but are 3 and 2"),
                                       HasSubstr("'m'"))));
  EXPECT_THAT(ImportGraphDef(WithConsts(R"pb(
                node {
                  name: "s"
                  op: "AddV2"
                  input: "a"
                  input: "b"
                  attr {
                    key: "T"
                    value { type: DT_FLOAT }
                  }
                })pb")),
              StatusIs(kInvalid, AllOf(HasSubstr("Incompatible shapes"), HasSubstr("'s'"))));
}

}  // namespace
}  // namespace rill
