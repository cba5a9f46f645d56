#include "graph/builder/ops.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Expects the node `name` of `scope`'s graph to equal the NodeDef in `text`.
void ExpectNode(const Scope& scope, const std::string& name, const std::string& text) {
  GraphDef g;
  ASSERT_THAT(scope.ToGraphDef(&g), IsOk());
  NodeDef want;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &want)) << text;
  for (const NodeDef& n : g.node()) {
    if (n.name() != name) continue;
    std::string diff;
    google::protobuf::util::MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(want, n)) << name << ":\n" << diff;
    return;
  }
  ADD_FAILURE() << "no node " << name;
}

// --- Initializer
// ----------------------------------------------------------------------------------

TEST(InitializerTest, ScalarsVectorsAndNestedLists) {
  Initializer f(3.f);
  EXPECT_EQ(f.tensor().DebugString(), "Tensor<type: float shape: [] values: 3>");
  Initializer i({1, 2, 3});
  EXPECT_EQ(i.tensor().DebugString(), "Tensor<type: int32 shape: [3] values: 1 2 3>");
  Initializer m({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  EXPECT_THAT(m.status(), IsOk());
  EXPECT_EQ(m.tensor().DebugString(), "Tensor<type: float shape: [2,3] values: [1 2 3][4 5 6]>");
  Initializer cube({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
  EXPECT_EQ(cube.tensor().shape().DebugString(), "[2,2,2]");
  EXPECT_EQ(cube.tensor().flat<int32_t>()[7], 8);
  Initializer d(2.5);
  EXPECT_EQ(d.tensor().dtype(), DT_DOUBLE);
  Initializer b({true, false});
  EXPECT_EQ(b.tensor().dtype(), DT_BOOL);
  Initializer l(int64_t{1} << 40);
  EXPECT_EQ(l.tensor().dtype(), DT_INT64);
  Initializer s({"a", "bc"});
  EXPECT_EQ(s.tensor().dtype(), DT_STRING);
  EXPECT_EQ(s.tensor().flat<std::string>()[1], "bc");
  Initializer one("x");
  EXPECT_EQ(one.tensor().shape().rank(), 0);
  EXPECT_EQ(Initializer({"p", "q"}).tensor().NumElements(), 2);
  Initializer nested_strings({{"a"}, {"b"}});
  EXPECT_EQ(nested_strings.tensor().shape().DebugString(), "[2,1]");
}

TEST(InitializerTest, RaggedListsAreErrors) {
  Initializer ragged({{1.f, 2.f}, {3.f}});
  EXPECT_THAT(ragged.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Initializer list components should all have the same shape; got [2] "
                       "and [1]"));
  EXPECT_FALSE(ragged.tensor().IsInitialized());
  Initializer mixed({{1.f}, {2}});
  EXPECT_THAT(mixed.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Initializer list components should all have the same type; got float "
                       "and int32"));
  // An error deep inside propagates.
  Initializer deep({{{1.f}, {2.f, 3.f}}, {{1.f}, {2.f}}});
  EXPECT_THAT(deep.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("should all have the same shape")));
}

// --- Const
// ----------------------------------------------------------------------------------------

TEST(ConstTest, FromNestedInitializerList) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  EXPECT_EQ(a.node(), "Const");
  EXPECT_EQ(a.dtype(), DT_FLOAT);
  ExpectNode(root, "Const", R"pb(
    name: "Const"
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
          float_val: [ 1, 2, 3, 4, 5, 6 ]
        }
      }
    }
  )pb");
}

TEST(ConstTest, ScalarsOfEachKind) {
  Scope root = Scope::NewRootScope();
  ops::Const(root.WithOpName("i"), 7);
  ops::Const(root.WithOpName("s"), "hi");
  ops::Const(root.WithOpName("b"), true);
  ExpectNode(root, "i", R"pb(
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
          int_val: 7
        }
      }
    }
  )pb");
  ExpectNode(root, "s", R"pb(
    name: "s"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_STRING }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_STRING
          tensor_shape {}
          string_val: "hi"
        }
      }
    }
  )pb");
  ExpectNode(root, "b", R"pb(
    name: "b"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_BOOL }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_BOOL
          tensor_shape {}
          bool_val: true
        }
      }
    }
  )pb");
}

TEST(ConstTest, ValuesWithAShape) {
  Scope root = Scope::NewRootScope();
  Output b = ops::Const<float>(root.WithOpName("b"), {1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(root.GetShape(b)->DebugString(), "[3,2]");
  ExpectNode(root, "b", R"pb(
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
          float_val: [ 1, 2, 3, 4, 5, 6 ]
        }
      }
    }
  )pb");
}

TEST(ConstTest, OneValueFillsTheShapeAndIsStoredOnce) {
  // As TensorFlow Python stores tf.zeros([2, 2]).
  Scope root = Scope::NewRootScope();
  Output z = ops::Const(root.WithOpName("zeros"), 0.f, {2, 2});
  Output o = ops::Const<int64_t>(root.WithOpName("ones"), {1}, {3});
  EXPECT_EQ(root.GetShape(z)->DebugString(), "[2,2]");
  ExpectNode(root, "zeros", R"pb(
    name: "zeros"
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
            dim { size: 2 }
          }
          float_val: 0
        }
      }
    }
  )pb");
  ExpectNode(root, "ones", R"pb(
    name: "ones"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_INT64 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT64
          tensor_shape { dim { size: 3 } }
          int64_val: 1
        }
      }
    }
  )pb");
}

TEST(ConstTest, FromATensor) {
  Scope root = Scope::NewRootScope();
  ops::Const(root, Tensor::FromVector<double>({1.5, 2.5}, TensorShape({2, 1})));
  ExpectNode(root, "Const", R"pb(
    name: "Const"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_DOUBLE }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_DOUBLE
          tensor_shape {
            dim { size: 2 }
            dim { size: 1 }
          }
          double_val: [ 1.5, 2.5 ]
        }
      }
    }
  )pb");
}

TEST(ConstTest, WrongValueCountIsAnErrorNamingTheNode) {
  Scope root = Scope::NewRootScope();
  Output c = ops::Const<float>(root.WithOpName("c"), {1, 2, 3, 4}, {2, 3});
  EXPECT_FALSE(c.valid());
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'c' (Const): Expected 6 values for a Const of shape [2,3], got 4"));
}

TEST(ConstTest, RaggedInitializerIsAnErrorNamingTheNode) {
  Scope root = Scope::NewRootScope();
  ops::Const(root.WithOpName("r"), {{1.f, 2.f}, {3.f}});
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("Node 'r' (Const): Initializer list components should all "
                                  "have the same shape")));
}

// --- Feeds and plumbing
// ---------------------------------------------------------------------------

TEST(PlaceholderTest, DefaultsToUnknownShape) {
  Scope root = Scope::NewRootScope();
  ops::Placeholder(root, DT_FLOAT);
  ops::Placeholder(root, DT_INT32, PartialTensorShape({-1, 2}));
  ops::Placeholder(root, DT_FLOAT,
                   ops::PlaceholderAttrs().Shape(PartialTensorShape(std::vector<int64_t>{})));
  ExpectNode(root, "Placeholder", R"pb(
    name: "Placeholder"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { unknown_rank: true } }
    }
  )pb");
  ExpectNode(root, "Placeholder_1", R"pb(
    name: "Placeholder_1"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: -1 }
          dim { size: 2 }
        }
      }
    }
  )pb");
  ExpectNode(root, "Placeholder_2", R"pb(
    name: "Placeholder_2"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape {} }
    }
  )pb");
}

TEST(PlaceholderTest, WithDefault) {
  Scope root = Scope::NewRootScope();
  Output d = ops::Const(root.WithOpName("d"), {1.f, 2.f});
  Output p = ops::PlaceholderWithDefault(root, d, PartialTensorShape({-1}));
  EXPECT_EQ(p.dtype(), DT_FLOAT);
  ExpectNode(root, "PlaceholderWithDefault", R"pb(
    name: "PlaceholderWithDefault"
    op: "PlaceholderWithDefault"
    input: "d"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: -1 } } }
    }
  )pb");
}

TEST(PlumbingTest, IdentityIdentityNAndNoOp) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), 1.f);
  Output b = ops::Const(root.WithOpName("b"), 2);
  ops::Identity(root, a);
  std::vector<Output> n = ops::IdentityN(root, {a, b});
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[1].dtype(), DT_INT32);
  ops::NoOp(root.WithOpName("group").WithControlDependencies({a, b}));
  ExpectNode(root, "Identity", R"pb(
    name: "Identity"
    op: "Identity"
    input: "a"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  )pb");
  ExpectNode(root, "IdentityN", R"pb(
    name: "IdentityN"
    op: "IdentityN"
    input: "a"
    input: "b"
    attr {
      key: "T"
      value { list { type: [ DT_FLOAT, DT_INT32 ] } }
    }
  )pb");
  ExpectNode(root, "group", R"pb(
    name: "group" op: "NoOp" input: "^a" input: "^b"
  )pb");
}

// --- Math
// -----------------------------------------------------------------------------------------

TEST(MathTest, MatMulWithAttrs) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  Output c = ops::MatMul(root, a, a, ops::MatMulAttrs().TransposeB(true));
  EXPECT_EQ(root.GetShape(c)->DebugString(), "[2,2]");
  Output d = ops::MatMul(root, a, a, ops::MatMulAttrs().TransposeA(true));
  EXPECT_EQ(root.GetShape(d)->DebugString(), "[3,3]");
  ExpectNode(root, "MatMul", R"pb(
    name: "MatMul"
    op: "MatMul"
    input: "a"
    input: "a"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "transpose_a"
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
    attr {
      key: "transpose_b"
      value { b: true }
    }
  )pb");
  ExpectNode(root, "MatMul_1", R"pb(
    name: "MatMul_1"
    op: "MatMul"
    input: "a"
    input: "a"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "transpose_a"
      value { b: true }
    }
    attr {
      key: "grad_a"
      value { b: false }
    }
    attr {
      key: "grad_b"
      value { b: false }
    }
    attr {
      key: "transpose_b"
      value { b: false }
    }
  )pb");
}

TEST(MathTest, AddAddV2AndAddN) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1, 2});
  Output y = ops::Const(root.WithOpName("y"), 3);
  Output s = ops::Add(root, x, y);
  EXPECT_EQ(root.GetShape(s)->DebugString(), "[2]");
  ops::AddV2(root, x, y);
  Output n = ops::AddN(root, {x, x, x});
  EXPECT_EQ(n.dtype(), DT_INT32);
  ExpectNode(root, "Add", R"pb(
    name: "Add"
    op: "Add"
    input: "x"
    input: "y"
    attr {
      key: "T"
      value { type: DT_INT32 }
    }
  )pb");
  ExpectNode(root, "AddV2", R"pb(
    name: "AddV2"
    op: "AddV2"
    input: "x"
    input: "y"
    attr {
      key: "T"
      value { type: DT_INT32 }
    }
  )pb");
  ExpectNode(root, "AddN", R"pb(
    name: "AddN"
    op: "AddN"
    input: "x"
    input: "x"
    input: "x"
    attr {
      key: "N"
      value { i: 3 }
    }
    attr {
      key: "T"
      value { type: DT_INT32 }
    }
  )pb");
}

TEST(MathTest, AddNOfMixedDtypes) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 1.f);
  Output y = ops::Const(root.WithOpName("y"), 1);
  ops::AddN(root, {x, y});
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input 1 of node AddN was passed int32 from y:0 incompatible with "
                       "expected float."));
}

TEST(MathTest, AddNOfNothing) {
  Scope root = Scope::NewRootScope();
  ops::AddN(root, {});
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("Node 'AddN' (AddN): ")));
}

// --- Variables
// ------------------------------------------------------------------------------------

TEST(VariableTest, ReferenceVariableAndItsUpdates) {
  Scope root = Scope::NewRootScope();
  Output w = ops::Variable(root, PartialTensorShape({2}), DT_FLOAT);
  EXPECT_EQ(w.node(), "Variable");
  EXPECT_EQ(w.dtype(), DT_FLOAT_REF);
  Output v = ops::LegacyVariable(root, PartialTensorShape({2}), DT_FLOAT,
                                 ops::VariableAttrs().SharedName("shared").Container("c"));
  EXPECT_EQ(v.node(), "Variable_1");
  Output one = ops::Const(root.WithOpName("one"), {1.f, 1.f});
  Output a = ops::Assign(root, w, one, ops::AssignAttrs().ValidateShape(false));
  EXPECT_EQ(a.dtype(), DT_FLOAT_REF);
  ops::AssignAdd(root, w, one, ops::AssignAddAttrs().UseLocking(true));
  ops::AssignSub(root, v, one);
  Output r = ops::RefIdentity(root, w);
  EXPECT_EQ(r.dtype(), DT_FLOAT_REF);
  ExpectNode(root, "RefIdentity", R"pb(
    name: "RefIdentity"
    op: "RefIdentity"
    input: "Variable"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "_class"
      value { list { s: "loc:@Variable" } }
    }
  )pb");
  ExpectNode(root, "Variable", R"pb(
    name: "Variable"
    op: "VariableV2"
    attr {
      key: "container"
      value { s: "" }
    }
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
    attr {
      key: "shared_name"
      value { s: "" }
    }
  )pb");
  ExpectNode(root, "Variable_1", R"pb(
    name: "Variable_1"
    op: "Variable"
    attr {
      key: "container"
      value { s: "c" }
    }
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
    attr {
      key: "shared_name"
      value { s: "shared" }
    }
  )pb");
  ExpectNode(root, "Assign", R"pb(
    name: "Assign"
    op: "Assign"
    input: "Variable"
    input: "one"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "_class"
      value { list { s: "loc:@Variable" } }
    }
    attr {
      key: "use_locking"
      value { b: true }
    }
    attr {
      key: "validate_shape"
      value { b: false }
    }
  )pb");
  ExpectNode(root, "AssignAdd", R"pb(
    name: "AssignAdd"
    op: "AssignAdd"
    input: "Variable"
    input: "one"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "_class"
      value { list { s: "loc:@Variable" } }
    }
    attr {
      key: "use_locking"
      value { b: true }
    }
  )pb");
  ExpectNode(root, "AssignSub", R"pb(
    name: "AssignSub"
    op: "AssignSub"
    input: "Variable_1"
    input: "one"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "_class"
      value { list { s: "loc:@Variable_1" } }
    }
    attr {
      key: "use_locking"
      value { b: false }
    }
  )pb");
}

TEST(VariableTest, AssignOfTheWrongDtype) {
  Scope root = Scope::NewRootScope();
  Output w =
      ops::Variable(root.WithOpName("w"), PartialTensorShape(std::vector<int64_t>{}), DT_FLOAT);
  Output i = ops::Const(root.WithOpName("i"), 1);
  ops::Assign(root, w, i);
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input 1 of node Assign was passed int32 from i:0 incompatible with "
                       "expected float."));
}

TEST(VariableTest, ResourceVariable) {
  Scope root = Scope::NewRootScope();
  Output h = ops::VarHandleOp(root.WithOpName("v"), DT_FLOAT, PartialTensorShape({2}),
                              ops::VarHandleOpAttrs().SharedName("v").AllowedDevices({"/cpu:0"}));
  EXPECT_EQ(h.dtype(), DT_RESOURCE);
  Output init = ops::Const(root.WithOpName("init"), {1.f, 2.f});
  Operation assign = ops::AssignVariableOp(root, h, init);
  EXPECT_EQ(assign.name(), "AssignVariableOp");
  ops::AssignAddVariableOp(root, h, init);
  ops::AssignSubVariableOp(root, h, init);
  Output read = ops::ReadVariableOp(root.WithControlDependencies({assign}), h, DT_FLOAT);
  EXPECT_EQ(read.dtype(), DT_FLOAT);
  Output ok = ops::VarIsInitializedOp(root, h);
  EXPECT_EQ(ok.dtype(), DT_BOOL);
  ExpectNode(root, "v", R"pb(
    name: "v"
    op: "VarHandleOp"
    attr {
      key: "allowed_devices"
      value { list { s: "/cpu:0" } }
    }
    attr {
      key: "container"
      value { s: "" }
    }
    attr {
      key: "debug_name"
      value { s: "" }
    }
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
    attr {
      key: "shared_name"
      value { s: "v" }
    }
  )pb");
  ExpectNode(root, "AssignVariableOp", R"pb(
    name: "AssignVariableOp"
    op: "AssignVariableOp"
    input: "v"
    input: "init"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "validate_shape"
      value { b: false }
    }
  )pb");
  ExpectNode(root, "AssignAddVariableOp", R"pb(
    name: "AssignAddVariableOp"
    op: "AssignAddVariableOp"
    input: "v"
    input: "init"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  )pb");
  ExpectNode(root, "AssignSubVariableOp", R"pb(
    name: "AssignSubVariableOp"
    op: "AssignSubVariableOp"
    input: "v"
    input: "init"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  )pb");
  ExpectNode(root, "ReadVariableOp", R"pb(
    name: "ReadVariableOp"
    op: "ReadVariableOp"
    input: "v"
    input: "^AssignVariableOp"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  )pb");
  ExpectNode(root, "VarIsInitializedOp",
             R"pb(
               name: "VarIsInitializedOp" op: "VarIsInitializedOp" input: "v"
             )pb");
}

TEST(VariableTest, ResourceInputMustBeAResource) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 1.f);
  ops::ReadVariableOp(root, x, DT_FLOAT);
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input 0 of node ReadVariableOp was passed float from x:0 incompatible "
                       "with expected resource."));
}

// Every op a user can put in a graph has a wrapper here. Runtime-internal ops ("_Send", "_Arg",
// ...) are added by the runtime, never by users, and have none.
// The wrappers of TensorList, tf.math.special, banded / tridiagonal linear algebra, stateless
// sampling and QuantizeAndDequantizeV3 build nodes of their op with TensorFlow's input order.
TEST(SpecialListAndLinalgTest, WrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output m = ops::Const(root.WithOpName("m"), {{4.f, 1.f}, {1.f, 3.f}});
  Output rhs = ops::Const(root.WithOpName("rhs"), {{1.f}, {2.f}});
  Output v = ops::Const(root.WithOpName("v"), {0.5f, 1.5f});
  Output shape = ops::Const(root.WithOpName("shape"), {1});
  Output idx = ops::Const(root.WithOpName("idx"), {1, 0});
  std::vector<Output> lu = ops::Lu(root, m);
  ASSERT_EQ(lu.size(), 2u);
  ops::MatrixSolveLs(root, m, rhs, ops::Const(root, 0.0));
  ops::MatrixSquareRoot(root, m);
  ops::BandedTriangularSolve(root, m, rhs);
  Output diagonals = ops::Const(root.WithOpName("diagonals"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  ops::TridiagonalSolve(root, diagonals, rhs);
  ops::TridiagonalMatMul(root, ops::Const(root, {{1.f, 0.f}}), ops::Const(root, {{2.f, 3.f}}),
                         ops::Const(root, {{0.f, 4.f}}), rhs);
  for (auto* special :
       {&ops::BesselI0, &ops::BesselI1, &ops::BesselJ0, &ops::BesselJ1, &ops::BesselY0,
        &ops::BesselY1, &ops::BesselK0, &ops::BesselK1, &ops::BesselK0e, &ops::BesselK1e,
        &ops::Dawsn, &ops::Expint, &ops::FresnelCos, &ops::FresnelSin, &ops::Spence}) {
    EXPECT_EQ(root.GetShape((*special)(root, v))->DebugString(), "[2]");
  }
  Output list = ops::TensorListScatter(root, rhs, idx, shape);
  Output list2 = ops::TensorListScatterV2(root, rhs, idx, shape, ops::Const(root, 3));
  Output list3 = ops::TensorListScatterIntoExistingList(root, list, rhs, idx);
  ops::TensorListGather(root, list3, idx, shape, DT_FLOAT);
  EXPECT_EQ(ops::TensorListConcat(root, list2, DT_FLOAT).size(), 2u);
  ops::TensorListConcatLists(root, list, list2, DT_FLOAT);
  ops::TensorListResize(root, list, ops::Const(root, 4));
  Output seed = ops::Const(root.WithOpName("seed"), {int64_t{1}, int64_t{2}});
  ops::StatelessMultinomial(root, ops::Const(root, {{0.f, 1.f}}), ops::Const(root, 3), seed);
  ops::StatelessRandomPoisson(root, shape, seed, ops::Const(root, 2.f), DT_FLOAT);
  ops::QuantizeAndDequantizeV3(root, v, ops::Const(root, 0.f), ops::Const(root, 2.f),
                               ops::Const(root, 8));
  ASSERT_THAT(root.status(), IsOk());
  GraphDef g;
  ASSERT_THAT(root.ToGraphDef(&g), IsOk());
  std::set<std::string> built;
  for (const NodeDef& n : g.node()) built.insert(n.op());
  for (const char* op :
       {"Lu", "MatrixSolveLs", "MatrixSquareRoot", "BandedTriangularSolve", "TridiagonalSolve",
        "TridiagonalMatMul", "Spence", "TensorListScatter", "TensorListScatterV2",
        "TensorListScatterIntoExistingList", "TensorListGather", "TensorListConcat",
        "TensorListConcatLists", "TensorListResize", "StatelessMultinomial",
        "StatelessRandomPoisson", "QuantizeAndDequantizeV3"}) {
    EXPECT_TRUE(built.count(op)) << op;
  }
}

TEST(OpsCoverageTest, EveryRegisteredOpHasAWrapper) {
  std::set<std::string> wrapped = {
      "Add",
      "AddN",
      "AddV2",
      "Assign",
      "AssignAdd",
      "AssignAddVariableOp",
      "AssignSub",
      "AssignSubVariableOp",
      "AssignVariableOp",
      "ScatterUpdate",
      "ScatterAdd",
      "ScatterSub",
      "ScatterMul",
      "ScatterDiv",
      "ScatterMax",
      "ScatterMin",
      "ScatterNdUpdate",
      "ScatterNdAdd",
      "ScatterNdSub",
      "ResourceScatterUpdate",
      "ResourceScatterAdd",
      "ResourceScatterSub",
      "ResourceScatterMul",
      "ResourceScatterDiv",
      "ResourceScatterMax",
      "ResourceScatterMin",
      "ResourceScatterNdUpdate",
      "ResourceScatterNdAdd",
      "VariableShape",
      "ResourceGather",
      "ResourceGatherNd",
      "ApplyAdadelta",
      "ApplyProximalGradientDescent",
      "ApplyAddSign",
      "ApplyPowerSign",
      "ApplyCenteredRMSProp",
      "ApplyAdagradV2",
      "ApplyAdaMax",
      "ResourceApplyAdadelta",
      "ResourceApplyProximalGradientDescent",
      "ResourceApplyAddSign",
      "ResourceApplyPowerSign",
      "ResourceApplyCenteredRMSProp",
      "ResourceApplyAdagradV2",
      "ResourceApplyAdaMax",
      "ResourceApplyKerasMomentum",
      "ResourceApplyAdamWithAmsgrad",
      "ApplyFtrl",
      "ApplyFtrlV2",
      "ResourceApplyFtrl",
      "ResourceApplyFtrlV2",
      "DestroyResourceOp",
      "Const",
      "Identity",
      "IdentityN",
      "RefIdentity",
      "MatMul",
      "NoOp",
      "Placeholder",
      "PlaceholderWithDefault",
      "ReadVariableOp",
      "VarHandleOp",
      "VarIsInitializedOp",
      "Variable",
      "VariableV2",
  };
  // Elementwise math (graph/builder/math_ops.h).
  const std::set<std::string> math = {
      "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "FloorDiv", "FloorMod", "Maximum", "Minimum",
      "Pow", "SquaredDifference", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal",
      "NotEqual", "LogicalAnd", "LogicalOr", "Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp",
      "Log", "Log1p", "Sin", "Cos", "Tanh", "Sigmoid", "Relu", "Relu6", "Elu", "Selu", "Softplus",
      "LeakyRelu", "Floor", "Ceil", "Round", "Reciprocal", "Erf", "LogicalNot", "Shape", "Size",
      "Rank", "Reshape", "ExpandDims", "Squeeze", "Fill", "ZerosLike", "OnesLike", "StopGradient",
      "PreventGradient", "Snapshot", "EnsureShape", "Bitcast", "Empty", "Cast", "Sum", "Mean",
      "Prod", "Max", "Min", "All", "Any", "ShapeN",
      // Layout ops (graph/builder/math_ops.h too).
      "Transpose", "ConcatV2", "Pack", "Unpack", "Split", "SplitV", "Slice",
      "XlaDynamicUpdateSlice", "StridedSlice", "Pad", "PadV2", "MirrorPad",
      // Three-operand elementwise ops, repetition, arg reductions and scans.
      "Select", "SelectV2", "ClipByValue", "Tile", "BroadcastTo", "ArgMax", "ArgMin", "Cumsum",
      // Special functions, bitwise ops, scans, segment reductions, counting (math_ops.h too).
      "Erfc", "Expm1", "Softsign", "Asinh", "Acosh", "Atanh", "Sinh", "Cosh", "Lgamma", "Digamma",
      "Erfinv", "Ndtri", "BesselI0e", "BesselI1e", "IsFinite", "Invert", "Atan2", "Xlogy", "Xdivy",
      "Xlog1py", "TruncateDiv", "TruncateMod", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
      "RightShift", "Cumprod", "CumulativeLogsumexp", "EuclideanNorm", "SegmentSum", "SegmentMean",
      "SegmentMax", "SegmentMin", "SegmentProd", "UnsortedSegmentSum", "UnsortedSegmentMax",
      "UnsortedSegmentMin", "UnsortedSegmentProd", "SparseSegmentSum", "SparseSegmentMean",
      "SparseSegmentSqrtN", "InTopKV2", "BroadcastArgs", "DenseBincount", "Polygamma", "Mod",
      "Atan", "Asin", "Acos", "Tan", "IsNan", "IsInf", "Rint", "Inv", "Cross", "Bucketize",
      "Igamma", "Igammac", "IgammaGradA", "Zeta", "Betainc",
      // Block rearrangements, structured matrices, 3-D windows, N-d scatters
      // (graph/builder/array_nn_ops.h).
      "SpaceToBatchND", "BatchToSpaceND", "SpaceToBatch", "BatchToSpace", "DepthToSpace",
      "SpaceToDepth", "Roll", "ReverseSequence", "MatrixBandPart", "MatrixDiagV3",
      "MatrixDiagPartV3", "MatrixSetDiagV3", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag",
      "Diag", "DiagPart", "Conv3D", "Conv3DBackpropInputV2", "MaxPool3D", "AvgPool3D", "ScatterNd",
      "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
      "TensorScatterMin",
      // Neural-network ops (graph/builder/nn_ops.h).
      "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "BiasAdd", "Softmax", "LogSoftmax", "L2Loss",
      "Conv2D", "Conv2DBackpropInput", "DepthwiseConv2dNative", "SoftmaxCrossEntropyWithLogits",
      "SparseSoftmaxCrossEntropyWithLogits", "Einsum",
      // Indexing ops (graph/builder/index_ops.h).
      "Gather", "GatherV2", "GatherNd", "OneHot", "Where", "TopKV2", "Unique", "Range",
      "CheckNumerics", "ReverseV2", "Reverse", "Concat", "LinSpace", "ConcatOffset", "UnravelIndex",
      "UniqueWithCounts", "Bincount", "NthElement", "UniqueV2",
      // Seeded random ops (graph/builder/random_ops.h).
      "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
      "StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
      "StatelessRandomUniformInt", "StatelessRandomUniformV2", "StatelessRandomNormalV2",
      "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2", "StatelessRandomGetKeyCounter",
      "StatelessRandomGetKeyCounterAlg", "StatelessRandomGetAlg",
      // Gradient helpers (graph/builder/grad_ops.h).
      "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "SoftplusGrad", "LeakyReluGrad",
      "SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "BiasAddGrad", "BroadcastGradientArgs",
      "InvertPermutation",
      // Optimizer steps (graph/builder/training_ops.h).
      "ApplyGradientDescent", "ApplyMomentum", "ApplyAdam", "ApplyRMSProp", "ApplyAdagrad",
      "ResourceApplyGradientDescent", "ResourceApplyMomentum", "ResourceApplyAdam",
      "ResourceApplyRMSProp", "ResourceApplyAdagrad",
      // Pooling, normalization and resizing (graph/builder/pool_norm_ops.h).
      "MaxPool", "MaxPoolV2", "AvgPool", "FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3",
      "LRN", "ResizeBilinear", "ResizeNearestNeighbor",
      // Convolution, pooling and batch-norm gradients (graph/builder/grad_ops.h).
      "Conv2DBackpropFilter", "MaxPoolGrad", "AvgPoolGrad", "FusedBatchNormGrad",
      "FusedBatchNormGradV2", "FusedBatchNormGradV3", "MaxPoolGradGrad", "LRNGrad",
      "ResizeBilinearGrad", "ResizeNearestNeighborGrad", "Conv3DBackpropFilterV2", "AvgPool3DGrad",
      "MaxPool3DGrad", "MaxPool3DGradGrad", "Dilation2DBackpropInput", "Dilation2DBackpropFilter",
      "ResizeBicubicGrad", "CropAndResizeGradImage", "CropAndResizeGradBoxes",
      "ScaleAndTranslateGrad",
      // Strings, checks and DynamicStitch (graph/builder/index_ops.h).
      "StringJoin", "AsString", "Assert", "DynamicStitch", "DepthwiseConv2dNativeBackpropInput",
      "DepthwiseConv2dNativeBackpropFilter", "RandomShuffle", "Multinomial", "StringFormat",
      "PrintV2", "Print",
      // TF1 control flow (graph/builder/control_flow_ops.h).
      "Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter", "Exit", "RefExit",
      "NextIteration", "RefNextIteration", "LoopCond", "ControlTrigger", "ToBool",
      // TensorLists (graph/builder/list_ops.h).
      "EmptyTensorList", "TensorListReserve", "TensorListFromTensor", "TensorListGetItem",
      "TensorListSetItem", "TensorListStack", "TensorListLength", "TensorListElementShape",
      "TensorListPushBack", "TensorListPopBack",
      // TF1 TensorArrays (graph/builder/tensor_array_ops.h).
      "TensorArrayV3", "TensorArrayWriteV3", "TensorArrayReadV3", "TensorArrayGatherV3",
      "TensorArrayScatterV3", "TensorArraySizeV3", "TensorArrayCloseV3", "TensorArrayGradV3",
      "StackV2", "StackPushV2", "StackPopV2", "StackCloseV2",
      // Checkpoints (graph/builder/io_ops.h).
      "RestoreV2", "SaveV2", "MergeV2Checkpoints", "ShardedFilename", "ShardedFilespec", "ReadFile",
      "WriteFile", "StaticRegexFullMatch",
      // Image ops (graph/builder/image_ops.h).
      "ResizeBicubic", "ResizeArea", "ScaleAndTranslate", "NonMaxSuppressionV3",
      "NonMaxSuppressionV4", "NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps",
      "FusedResizeAndPadConv2D", "FusedPadConv2D", "CombinedNonMaxSuppression", "CropAndResize",
      "RGBToHSV", "HSVToRGB", "AdjustContrastv2", "AdjustHue", "AdjustSaturation",
      "ExtractImagePatches", "MaxPoolWithArgmax", "Dilation2D",
      // String transformations (graph/builder/string_ops.h).
      "StringLength", "StringLower", "StringUpper", "Substr", "StringStrip", "StringToNumber",
      "StringToHashBucketFast", "StaticRegexReplace", "RegexReplace", "RegexFullMatch",
      "StringSplitV2", "ReduceJoin",
      // Lookup tables (graph/builder/lookup_ops.h).
      "HashTableV2", "MutableHashTableV2", "InitializeTableV2", "LookupTableImportV2",
      "LookupTableInsertV2", "LookupTableFindV2", "LookupTableSizeV2", "LookupTableExportV2",
      "InitializeTableFromTextFileV2",
      // Fused recurrent cells (graph/builder/rnn_ops.h).
      "BlockLSTM", "BlockLSTMV2", "LSTMBlockCell", "GRUBlockCell",
      // String hashes and byte encodings (graph/builder/string_ops.h).
      "StringToHashBucket", "StringToHashBucketStrong", "Fingerprint", "EncodeBase64",
      "DecodeBase64", "DecodeRaw",
      // Dense linear algebra (graph/builder/linalg_ops.h).
      "MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse", "Cholesky", "Qr", "Svd",
      "MatrixTriangularSolve", "MatrixSolve",
      // Sparse tensors (graph/builder/sparse_ops.h).
      "SparseToDense", "SparseTensorDenseMatMul", "SparseReduceSum", "SparseAdd", "SparseReorder",
      "SparseReshape", "SparseFillEmptyRows",
      // Complex numbers and FFTs (graph/builder/spectral_ops.h).
      "Complex", "Real", "Imag", "ComplexAbs", "Angle", "Conj", "FFT", "IFFT", "FFT2D", "IFFT2D",
      "RFFT", "IRFFT", "RFFT2D", "IRFFT2D", "FFT3D", "IFFT3D", "RFFT3D", "IRFFT3D",
      // Sorted search and histograms (graph/builder/math_ops.h).
      "LowerBound", "UpperBound", "HistogramFixedWidth",
      // Ragged strings and CTC decoding (string_ops.h, sparse_ops.h, nn_ops.h).
      "StringNGrams", "UnsortedSegmentJoin", "RaggedTensorToTensor", "CTCGreedyDecoder",
      "RaggedBincount", "SparseBincount", "RaggedRange", "RaggedGather", "RaggedTensorToSparse",
      "UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeEncode", "UnicodeTranscode",
      "SelfAdjointEigV2", "DynamicPartition", "MulNoNan", "ImageProjectiveTransformV3",
      "ImageProjectiveTransformV2", "DenseCountSparseOutput", "SparseCountSparseOutput",
      "RaggedCountSparseOutput", "BandedTriangularSolve", "BesselI0", "BesselI1", "BesselJ0",
      "BesselJ1", "BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "BesselY0", "BesselY1", "Dawsn",
      "Expint", "FresnelCos", "FresnelSin", "Lu", "MatrixSolveLs", "MatrixSquareRoot",
      "QuantizeAndDequantizeV3", "Spence", "StatelessMultinomial", "StatelessRandomPoisson",
      "StatelessShuffle", "TensorListConcat", "TensorListConcatLists", "TensorListGather",
      "TensorListPushBackBatch", "TensorListResize", "TensorListScatter",
      "TensorListScatterIntoExistingList", "TensorListScatterV2", "TridiagonalMatMul",
      "TridiagonalSolve", "TensorArraySplitV3", "TensorListSplit", "PopulationCount",
      "CTCBeamSearchDecoder",
      // Fake quantization (graph/builder/quantize_ops.h).
      "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel",
      "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4", "FakeQuantWithMinMaxArgsGradient",
      "FakeQuantWithMinMaxVarsGradient", "FakeQuantWithMinMaxVarsPerChannelGradient",
      "QuantizeAndDequantizeV4Grad", "QuantizeV2", "Dequantize", "QuantizeAndDequantize",
      "StatelessRandomGammaV2", "StatelessRandomGammaV3",
      // The Batch* linear-algebra names of old TF1 graphs (graph/builder/linalg_ops.h).
      "BatchMatrixDeterminant", "BatchMatrixInverse", "BatchMatrixSolve",
      "BatchMatrixTriangularSolve", "BatchCholesky", "BatchSelfAdjointEigV2", "BatchMatrixSolveLs",
      // Image codecs (graph/builder/image_codec_ops.h).
      "DecodeJpeg", "DecodeAndCropJpeg", "DecodePng", "DecodeImage", "DecodeBmp", "DecodeGif",
      "ExtractJpegShape", "EncodePng", "EncodeJpeg",
      // Ops the model sweep's later families need (math_ops.h, image_ops.h).
      "SparseSegmentSumWithNumSegments", "SparseSegmentMeanWithNumSegments",
      "SparseSegmentSqrtNWithNumSegments", "NonMaxSuppressionV2", "TensorArrayConcatV3",
      "SparseCross", "AudioSpectrogram", "Mfcc", "TensorListConcatV2", "SparseReduceMax",
      "SparseSlice", "SparseSoftmax", "SparseTensorDenseAdd", "SparseDenseCwiseMul",
      "SparseDenseCwiseAdd", "SparseDenseCwiseDiv", "SparseCrossV2", "SparseCrossHashed",
      // Input parsing of serving graphs (graph/builder/parsing_ops.h).
      "ParseExampleV2", "ParseExample", "ParseSingleExample", "ParseSequenceExample",
      "ParseSequenceExampleV2", "ParseSingleSequenceExample", "DecodeCSV", "SerializeTensor",
      "ParseTensor", "DecodeWav", "EncodeWav",
      // Old op names of TF1 graphs (graph/builder/legacy_ops.h).
      "BatchMatrixDiag", "BatchMatrixDiagPart", "BatchMatrixSetDiag", "BatchMatrixBandPart",
      "BiasAddV1", "InTopK", "BatchNormWithGlobalNormalization", "MatrixDiagV2", "MatrixDiagPartV2",
      "MatrixSetDiagV2", "TopK", "PlaceholderV2", "AccumulateNV2", "ConjugateTranspose",
      "GuaranteeConst", "DeepCopy", "DataFormatDimMap", "DataFormatVecPermute", "InplaceAdd",
      "InplaceSub", "InplaceUpdate", "ListDiff", "NonMaxSuppression", "StringSplit",
      // SparseMatMul and TensorFlow 1.0's TensorArray names (legacy_ops.h), EditDistance
      // (sparse_ops.h), the quantize_nodes kernels (quantize_ops.h).
      "SparseMatMul", "TensorArrayV2", "TensorArrayWriteV2", "TensorArrayReadV2",
      "TensorArrayGatherV2", "TensorArrayScatterV2", "TensorArraySplitV2", "TensorArrayConcatV2",
      "TensorArraySizeV2", "TensorArrayCloseV2", "TensorArrayGradV2", "EditDistance",
      "RequantizationRange", "Requantize", "QuantizedReshape", "QuantizedRelu", "QuantizedRelu6",
      // The eight-bit layers (quantize_ops.h), boxes (image_ops.h), Eig and MatrixLogarithm
      // (linalg_ops.h), RandomGammaGrad (math_ops.h), StatelessRandomBinomial (random_ops.h),
      // UnicodeScript (ragged_text_ops.h).
      "QuantizedConv2D", "QuantizedMatMul", "QuantizedBiasAdd", "QuantizedMaxPool",
      "QuantizedAvgPool", "QuantizedConcat", "DrawBoundingBoxes", "DrawBoundingBoxesV2", "Eig",
      "MatrixLogarithm", "RandomGammaGrad", "StatelessRandomBinomial", "UnicodeScript",
      "StatelessParameterizedTruncatedNormal", "AdjustContrast",
      // TensorFlow 0.x's TensorArray names (legacy_ops.h).
      "TensorArray", "TensorArrayWrite", "TensorArrayRead", "TensorArrayGather",
      "TensorArrayScatter", "TensorArrayPack", "TensorArrayUnpack", "TensorArraySplit",
      "TensorArrayConcat", "TensorArraySize", "TensorArrayClose", "TensorArrayGrad",
      // A one-element tf.data pipeline and TensorSummary (dataset_ops.h).
      "TensorDataset", "Iterator", "IteratorV2", "MakeIterator", "IteratorGetNext",
      "TensorSummary"};
  wrapped.insert(math.begin(), math.end());
  for (const std::string& op : OpRegistry::Global()->ListOps(/*include_internal=*/false)) {
    EXPECT_TRUE(wrapped.count(op))
        << "op " << op << " has no wrapper in graph/builder/ops.h; add one (and to this list)";
  }
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

TEST(MathOpsTest, WrappersBuildTheOpWithItsTypeAndAttrs) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  ops::Sub(root.WithOpName("d"), x, y);
  ops::Less(root.WithOpName("lt"), x, y);
  ops::LeakyRelu(root.WithOpName("lr"), x, ops::LeakyReluAttrs().Alpha(0.5f));
  ops::Sqrt(root.WithOpName("s"), x);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  ASSERT_EQ(g.node_size(), 6);
  EXPECT_EQ(g.node(2).op(), "Sub");
  EXPECT_EQ(g.node(2).attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(g.node(3).op(), "Less");
  EXPECT_EQ(g.node(4).attr().at("alpha").f(), 0.5f);
  EXPECT_EQ(g.node(5).input(0), "x");
  // Mismatched operand types are the builder's error, naming the node.
  ops::Mul(root.WithOpName("bad"), x, ops::Placeholder(root.WithOpName("i"), DT_INT32));
  EXPECT_THAT(root.ToGraphDef().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("bad")));
}

TEST(MathOpsTest, SpecialSegmentAndCountWrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  Output ids = ops::Placeholder(root.WithOpName("ids"), DT_INT32);
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::Atan2(root.WithOpName("a"), y, x);
  ops::UnsortedSegmentSum(root.WithOpName("u"), x, ids, n);
  ops::DenseBincount(root.WithOpName("b"), ids, n, x, /*binary_output=*/true);
  ops::Cumprod(root.WithOpName("c"), x, n, /*exclusive=*/true);
  ops::Polygamma(root.WithOpName("p"), y, x);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  ASSERT_EQ(g.node_size(), 9);
  EXPECT_EQ(g.node(4).op(), "Atan2");
  EXPECT_EQ(g.node(4).input(0), "y");  // y first, as TensorFlow's Atan2
  EXPECT_EQ(g.node(5).op(), "UnsortedSegmentSum");
  EXPECT_EQ(g.node(5).input(2), "n");
  EXPECT_EQ(g.node(6).attr().at("binary_output").b(), true);
  EXPECT_EQ(g.node(6).attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(g.node(7).attr().at("exclusive").b(), true);
  EXPECT_EQ(g.node(7).attr().at("reverse").b(), false);
  EXPECT_EQ(g.node(8).op(), "Polygamma");
  EXPECT_EQ(g.node(8).input(0), "y");  // the order a first
  EXPECT_EQ(g.node(8).attr().at("T").type(), DT_FLOAT);
}

TEST(MathOpsTest, RaggedTextAndOtherWrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output s = ops::Placeholder(root.WithOpName("s"), DT_STRING);
  Output i = ops::Placeholder(root.WithOpName("i"), DT_INT64);
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::RaggedBincount(root.WithOpName("rb"), i, n, n, x, true);
  ops::SparseBincount(root.WithOpName("sb"), i, n, i, n, x);
  std::vector<Output> range = ops::RaggedRange(root.WithOpName("rr"), n, n, n, DT_INT32);
  ASSERT_EQ(range.size(), 2u);
  std::vector<Output> gathered = ops::RaggedGather(root.WithOpName("rg"), {i}, x, n, 1);
  ASSERT_EQ(gathered.size(), 2u);
  ASSERT_EQ(ops::RaggedTensorToSparse(root.WithOpName("rts"), {i, i}, x).size(), 3u);
  ASSERT_EQ(ops::UnicodeDecode(root.WithOpName("ud"), s, "UTF-8").size(), 2u);
  ASSERT_EQ(ops::UnicodeDecodeWithOffsets(root.WithOpName("udo"), s, "UTF-8", "ignore").size(), 3u);
  ops::UnicodeEncode(root.WithOpName("ue"), n, i, "UTF-16-BE");
  ops::UnicodeTranscode(root.WithOpName("ut"), s, "latin1", "UTF-8", "strict");
  ASSERT_EQ(ops::SelfAdjointEigV2(root.WithOpName("eig"), x, false).size(), 2u);
  ASSERT_EQ(ops::DynamicPartition(root.WithOpName("dp"), x, n, 3).size(), 3u);
  ops::MulNoNan(root.WithOpName("mnn"), x, x);
  ops::PopulationCount(root.WithOpName("pc"), n);
  ops::ImageProjectiveTransformV3(root.WithOpName("ipt"), x, x, n, x, "BILINEAR", "REFLECT");
  ops::ImageProjectiveTransformV2(root.WithOpName("ipt2"), x, x, n, "NEAREST");
  ASSERT_EQ(ops::DenseCountSparseOutput(root.WithOpName("dcso"), n, x, true, 3).size(), 3u);
  ASSERT_EQ(ops::SparseCountSparseOutput(root.WithOpName("scso"), i, n, i, x, false).size(), 3u);
  ASSERT_EQ(ops::RaggedCountSparseOutput(root.WithOpName("rcso"), i, n, x, false, -1, 9).size(),
            3u);
  ops::TensorListSplit(root.WithOpName("tls"), x, n, i);
  Output handle = ops::Placeholder(root.WithOpName("handle"), DT_RESOURCE);
  ops::TensorArraySplitV3(root.WithOpName("tas"), handle, x, i, x);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& node : g.node()) by_name[node.name()] = &node;
  EXPECT_EQ(by_name.at("rb")->attr().at("binary_output").b(), true);
  EXPECT_EQ(by_name.at("rb")->attr().at("Tidx").type(), DT_INT32);
  EXPECT_EQ(by_name.at("sb")->op(), "SparseBincount");
  EXPECT_EQ(by_name.at("rr")->attr().at("Tsplits").type(), DT_INT32);
  EXPECT_EQ(by_name.at("rg")->attr().at("OUTPUT_RAGGED_RANK").i(), 1);
  EXPECT_EQ(by_name.at("rts")->attr().at("RAGGED_RANK").i(), 2);
  EXPECT_EQ(by_name.at("udo")->attr().at("errors").s(), "ignore");
  EXPECT_EQ(by_name.at("ue")->attr().at("output_encoding").s(), "UTF-16-BE");
  EXPECT_EQ(by_name.at("ut")->attr().at("input_encoding").s(), "latin1");
  EXPECT_EQ(by_name.at("eig")->attr().at("compute_v").b(), false);
  EXPECT_EQ(by_name.at("dp")->attr().at("num_partitions").i(), 3);
  EXPECT_EQ(by_name.at("mnn")->op(), "MulNoNan");
  EXPECT_EQ(by_name.at("pc")->attr().at("T").type(), DT_INT32);
  EXPECT_EQ(by_name.at("ipt")->attr().at("fill_mode").s(), "REFLECT");
  EXPECT_EQ(by_name.at("ipt2")->attr().at("fill_mode").s(), "CONSTANT");
  EXPECT_EQ(by_name.at("ipt2")->attr().at("interpolation").s(), "NEAREST");
  EXPECT_EQ(by_name.at("ipt2")->input_size(), 3);
  EXPECT_EQ(by_name.at("dcso")->attr().at("minlength").i(), 3);
  EXPECT_EQ(by_name.at("dcso")->attr().at("binary_output").b(), true);
  EXPECT_EQ(by_name.at("scso")->attr().at("output_type").type(), DT_FLOAT);
  EXPECT_EQ(by_name.at("rcso")->attr().at("maxlength").i(), 9);
  EXPECT_EQ(by_name.at("tls")->attr().at("shape_type").type(), DT_INT32);
  EXPECT_EQ(by_name.at("tas")->attr().at("T").type(), DT_FLOAT);
}

// The SparseDenseCwise wrappers: each op with its four inputs in order and T from the values.
TEST(SparseOpsTest, SparseDenseCwiseWrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output idx = ops::Placeholder(root.WithOpName("idx"), DT_INT64, PartialTensorShape({5, 2}));
  Output val = ops::Placeholder(root.WithOpName("val"), DT_DOUBLE);
  Output shape = ops::Placeholder(root.WithOpName("shape"), DT_INT64);
  Output dense = ops::Placeholder(root.WithOpName("dense"), DT_DOUBLE);
  ops::SparseDenseCwiseMul(root.WithOpName("mul"), idx, val, shape, dense);
  ops::SparseDenseCwiseAdd(root.WithOpName("add"), idx, val, shape, dense);
  ops::SparseDenseCwiseDiv(root.WithOpName("div"), idx, val, shape, dense);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& node : g.node()) by_name[node.name()] = &node;
  for (const char* name : {"mul", "add", "div"}) {
    const NodeDef& n = *by_name.at(name);
    EXPECT_THAT(n.input(), ::testing::ElementsAre("idx", "val", "shape", "dense")) << name;
    EXPECT_EQ(n.attr().at("T").type(), DT_DOUBLE) << name;
  }
  EXPECT_EQ(by_name.at("mul")->op(), "SparseDenseCwiseMul");
  EXPECT_EQ(by_name.at("add")->op(), "SparseDenseCwiseAdd");
  EXPECT_EQ(by_name.at("div")->op(), "SparseDenseCwiseDiv");
}

// SparseCrossV2 / SparseCrossHashed: the list attrs from the inputs, three outputs each.
TEST(SparseOpsTest, SparseCrossV2AndHashedWrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output idx = ops::Placeholder(root.WithOpName("idx"), DT_INT64);
  Output words = ops::Placeholder(root.WithOpName("words"), DT_STRING);
  Output ids = ops::Placeholder(root.WithOpName("ids"), DT_INT64);
  Output shape = ops::Placeholder(root.WithOpName("shape"), DT_INT64);
  Output dense = ops::Placeholder(root.WithOpName("dense"), DT_STRING);
  EXPECT_EQ(ops::SparseCrossV2(root.WithOpName("v2"), {idx, idx}, {words, ids}, {shape, shape},
                               {dense}, "#")
                .size(),
            3u);
  EXPECT_EQ(ops::SparseCrossHashed(root.WithOpName("hashed"), {idx}, {ids}, {shape}, {},
                                   int64_t{10}, true, {int64_t{1}, int64_t{2}})
                .size(),
            3u);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& node : g.node()) by_name[node.name()] = &node;
  const NodeDef& v2 = *by_name.at("v2");
  EXPECT_EQ(v2.attr().at("N").i(), 2);
  EXPECT_EQ(v2.attr().at("sparse_types").list().type(1), DT_INT64);
  EXPECT_EQ(v2.attr().at("dense_types").list().type_size(), 1);
  EXPECT_EQ(v2.input_size(), 8);
  const NodeDef& hashed = *by_name.at("hashed");
  EXPECT_EQ(hashed.attr().at("dense_types").list().type_size(), 0);
  EXPECT_EQ(hashed.input_size(), 6);
}

// TensorFlow 0.x's TensorArray names: a ref string handle from TensorArray and TensorArrayGrad,
// read by the others; each op keeps its attrs.
TEST(LegacyOpsTest, TensorArrayV1WrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output size = ops::Const(root.WithOpName("size"), 2);
  Output index = ops::Const(root.WithOpName("index"), 0);
  Output flow = ops::Const(root.WithOpName("flow"), 0.f);
  Output value = ops::Placeholder(root.WithOpName("value"), DT_FLOAT);
  Output lengths = ops::Placeholder(root.WithOpName("lengths"), DT_INT64);
  Output ta = ops::TensorArray(root.WithOpName("ta"), size, DT_FLOAT, true, false);
  EXPECT_EQ(ta.dtype(), DT_STRING_REF);
  EXPECT_EQ(ops::TensorArrayWrite(root.WithOpName("w"), ta, index, value, flow).dtype(), DT_FLOAT);
  EXPECT_EQ(ops::TensorArrayRead(root.WithOpName("r"), ta, index, flow, DT_FLOAT).dtype(),
            DT_FLOAT);
  ops::TensorArrayGather(root.WithOpName("g"), ta, size, flow, DT_FLOAT);
  ops::TensorArrayScatter(root.WithOpName("s"), ta, size, value, flow);
  ops::TensorArrayPack(root.WithOpName("p"), ta, flow, DT_FLOAT);
  ops::TensorArrayUnpack(root.WithOpName("u"), ta, value, flow);
  ops::TensorArraySplit(root.WithOpName("sp"), ta, value, lengths, flow);
  std::vector<Output> concat = ops::TensorArrayConcat(root.WithOpName("c"), ta, flow, DT_FLOAT);
  ASSERT_EQ(concat.size(), 2u);
  EXPECT_EQ(concat[1].dtype(), DT_INT64);
  EXPECT_EQ(ops::TensorArraySize(root.WithOpName("n"), ta, flow).dtype(), DT_INT32);
  ops::TensorArrayClose(root.WithOpName("close"), ta);
  Output plain = ops::Placeholder(root.WithOpName("plain"), DT_STRING);
  EXPECT_EQ(ops::TensorArrayGrad(root.WithOpName("grad"), plain, flow, "gradients").dtype(),
            DT_STRING_REF);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& node : g.node()) by_name[node.name()] = &node;
  EXPECT_EQ(by_name.at("ta")->attr().at("dynamic_size").b(), true);
  EXPECT_EQ(by_name.at("ta")->attr().at("clear_after_read").b(), false);
  EXPECT_EQ(by_name.at("w")->attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(by_name.at("u")->input(0), "ta");
  EXPECT_EQ(by_name.at("sp")->input_size(), 4);
  EXPECT_EQ(by_name.at("c")->attr().at("dtype").type(), DT_FLOAT);
  EXPECT_EQ(by_name.at("close")->op(), "TensorArrayClose");
  EXPECT_EQ(by_name.at("grad")->attr().at("source").s(), "gradients");
}

TEST(DatasetOpsTest, OneElementPipelineAndTensorSummaryBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {1.f, 2.f});
  Output n = ops::Const(root.WithOpName("n"), 3);
  const std::vector<PartialTensorShape> shapes = {PartialTensorShape({2}), PartialTensorShape({})};
  Output dataset = ops::TensorDataset(root.WithOpName("ds"), {x, n}, shapes);
  EXPECT_EQ(dataset.dtype(), DT_VARIANT);
  Output it = ops::IteratorV2(root.WithOpName("it"), "shared", "", {DT_FLOAT, DT_INT32}, shapes);
  EXPECT_EQ(it.dtype(), DT_RESOURCE);
  ops::Iterator(root.WithOpName("old"), "", "c", {DT_FLOAT, DT_INT32}, shapes);
  ops::MakeIterator(root.WithOpName("make"), dataset, it);
  std::vector<Output> next =
      ops::IteratorGetNext(root.WithOpName("next"), it, {DT_FLOAT, DT_INT32}, shapes);
  ASSERT_EQ(next.size(), 2u);
  EXPECT_EQ(next[1].dtype(), DT_INT32);
  EXPECT_EQ(ops::TensorSummary(root.WithOpName("sum"), x, "d", {"a", "b"}, "shown").dtype(),
            DT_STRING);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& node : g.node()) by_name[node.name()] = &node;
  EXPECT_EQ(by_name.at("ds")->attr().at("Toutput_types").list().type_size(), 2);
  EXPECT_EQ(by_name.at("ds")->attr().at("output_shapes").list().shape(0).dim(0).size(), 2);
  EXPECT_EQ(by_name.at("it")->attr().at("shared_name").s(), "shared");
  EXPECT_EQ(by_name.at("old")->op(), "Iterator");
  EXPECT_EQ(by_name.at("old")->attr().at("container").s(), "c");
  EXPECT_EQ(by_name.at("make")->input(1), "it");
  EXPECT_EQ(by_name.at("sum")->attr().at("labels").list().s(1), "b");
  EXPECT_EQ(by_name.at("sum")->attr().at("display_name").s(), "shown");
}

TEST(MathOpsTest, SearchQuantizeRaggedAndCtcWrappersBuildTheirOps) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output s = ops::Placeholder(root.WithOpName("s"), DT_STRING);
  Output i = ops::Placeholder(root.WithOpName("i"), DT_INT64);
  ops::UpperBound(root.WithOpName("ub"), x, x, DT_INT64);
  ops::HistogramFixedWidth(root.WithOpName("h"), x, x, ops::Const(root.WithOpName("n"), 5));
  ops::FakeQuantWithMinMaxArgs(root.WithOpName("fq"), x, -1.0f, 1.0f, 4, true);
  ops::QuantizeAndDequantizeV4(root.WithOpName("qdq"), x, x, x, true, 8, true, "HALF_UP");
  ops::FakeQuantWithMinMaxArgsGradient(root.WithOpName("fqg"), x, x, -2.0f, 2.0f, 5);
  ops::FakeQuantGradientOutputs fq_pc =
      ops::FakeQuantWithMinMaxVarsPerChannelGradient(root.WithOpName("fqpc"), x, x, x, x, 6, true);
  EXPECT_EQ(fq_pc.backprop_wrt_max.index(), 2);
  ops::QuantizeAndDequantizeV4GradOutputs qdq_grad =
      ops::QuantizeAndDequantizeV4Grad(root.WithOpName("qdqg"), x, x, x, x, 1);
  EXPECT_EQ(qdq_grad.input_min_backprop.index(), 1);
  Output m = ops::Placeholder(root.WithOpName("m"), DT_DOUBLE);
  ops::BatchMatrixDeterminant(root.WithOpName("bdet"), m);
  ops::BatchMatrixInverse(root.WithOpName("binv"), m, true);
  ops::BatchMatrixSolve(root.WithOpName("bsolve"), m, m);
  ops::BatchMatrixTriangularSolve(root.WithOpName("btri"), m, m, false, true);
  ops::BatchCholesky(root.WithOpName("bchol"), m);
  EXPECT_EQ(ops::BatchSelfAdjointEigV2(root.WithOpName("beig"), m, false).size(), 2u);
  ops::BatchMatrixSolveLs(root.WithOpName("bls"), m, m, 0.5);
  ExpectNode(root, "btri",
             R"pb(name: "btri"
                  op: "BatchMatrixTriangularSolve"
                  input: "m"
                  input: "m"
                  attr {
                    key: "T"
                    value { type: DT_DOUBLE }
                  }
                  attr {
                    key: "adjoint"
                    value { b: true }
                  }
                  attr {
                    key: "lower"
                    value { b: false }
                  })pb");
  ops::QuantizeAndDequantize(root.WithOpName("qdq1"), x, true, 4, true, -1.0f, 2.0f);
  Output gamma = ops::StatelessRandomGammaV2(
      root.WithOpName("gamma"), {4, 2}, ops::Const(root, {int64_t{1}, int64_t{2}}), {0.5f, 2.f});
  EXPECT_EQ(gamma.index(), 0);
  Output key = ops::Placeholder(root.WithOpName("key"), DT_UINT64);
  EXPECT_EQ(ops::StatelessRandomGammaV3(root.WithOpName("gamma3"), {3}, key, key, 1, 2.0).index(),
            0);
  ops::QuantizeV2Outputs q =
      ops::QuantizeV2(root.WithOpName("q"), x, -1.0f, 1.0f, DT_QUINT8, "SCALED", "HALF_TO_EVEN");
  EXPECT_EQ(q.output_max.index(), 2);
  Output dq = ops::Dequantize(root.WithOpName("dq"), q.output, q.output_min, q.output_max, "SCALED",
                              false, -1, DT_BFLOAT16);
  EXPECT_EQ(dq.index(), 0);
  ExpectNode(root, "dq",
             R"pb(name: "dq"
                  op: "Dequantize"
                  input: "q"
                  input: "q:1"
                  input: "q:2"
                  attr {
                    key: "T"
                    value { type: DT_QUINT8 }
                  }
                  attr {
                    key: "axis"
                    value { i: -1 }
                  }
                  attr {
                    key: "dtype"
                    value { type: DT_BFLOAT16 }
                  }
                  attr {
                    key: "mode"
                    value { s: "SCALED" }
                  }
                  attr {
                    key: "narrow_range"
                    value { b: false }
                  })pb");
  ops::StringNGrams(root.WithOpName("ng"), s, i, " ", {2, 3}, "<", ">", 1, false);
  ops::RaggedTensorToTensor(root.WithOpName("r"), i, x, x, {i}, {"ROW_SPLITS"});
  Output lengths = ops::Placeholder(root.WithOpName("lengths"), DT_INT32);
  std::vector<Output> ctc = ops::CTCGreedyDecoder(root.WithOpName("ctc"), x, lengths, true);
  ASSERT_EQ(ctc.size(), 4u);
  ops::CTCBeamSearchDecoderOutputs beam =
      ops::CTCBeamSearchDecoder(root.WithOpName("beam"), x, lengths, 8, 2, false);
  ASSERT_EQ(beam.decoded_indices.size(), 2u);
  EXPECT_EQ(beam.decoded_values[1].index(), 3);
  EXPECT_EQ(beam.decoded_shape[0].index(), 4);
  EXPECT_EQ(beam.log_probability.index(), 6);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& n : g.node()) by_name[n.name()] = &n;
  EXPECT_EQ(by_name.at("ub")->op(), "UpperBound");
  EXPECT_EQ(by_name.at("ub")->attr().at("out_type").type(), DT_INT64);
  EXPECT_EQ(by_name.at("h")->input(2), "n");
  EXPECT_EQ(by_name.at("fq")->attr().at("num_bits").i(), 4);
  EXPECT_EQ(by_name.at("fq")->attr().at("narrow_range").b(), true);
  EXPECT_FLOAT_EQ(by_name.at("fq")->attr().at("min").f(), -1.0f);
  EXPECT_EQ(by_name.at("qdq")->attr().at("round_mode").s(), "HALF_UP");
  EXPECT_EQ(by_name.at("qdq")->attr().at("range_given").b(), true);
  EXPECT_EQ(by_name.at("fqg")->attr().at("num_bits").i(), 5);
  EXPECT_FLOAT_EQ(by_name.at("fqg")->attr().at("max").f(), 2.0f);
  EXPECT_EQ(by_name.at("fqpc")->op(), "FakeQuantWithMinMaxVarsPerChannelGradient");
  EXPECT_EQ(by_name.at("fqpc")->attr().at("narrow_range").b(), true);
  EXPECT_EQ(by_name.at("qdqg")->attr().at("axis").i(), 1);
  EXPECT_EQ(by_name.at("ng")->attr().at("ngram_widths").list().i_size(), 2);
  EXPECT_EQ(by_name.at("ng")->attr().at("left_pad").s(), "<");
  EXPECT_EQ(by_name.at("r")->input_size(), 4);
  EXPECT_EQ(by_name.at("r")->attr().at("num_row_partition_tensors").i(), 1);
  EXPECT_EQ(by_name.at("ctc")->attr().at("merge_repeated").b(), true);
  EXPECT_EQ(by_name.at("beam")->attr().at("beam_width").i(), 8);
  EXPECT_EQ(by_name.at("beam")->attr().at("top_paths").i(), 2);
  EXPECT_EQ(by_name.at("beam")->attr().at("merge_repeated").b(), false);
}

TEST(MathOpsTest, IncompleteGammaBetaAndZetaWrappersTakeTheirOperandsInOrder) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Placeholder(root.WithOpName("a"), DT_DOUBLE);
  Output x = ops::Placeholder(root.WithOpName("x"), DT_DOUBLE);
  ops::Igamma(root.WithOpName("p"), a, x);
  ops::Igammac(root.WithOpName("q"), a, x);
  ops::IgammaGradA(root.WithOpName("d"), a, x);
  ops::Zeta(root.WithOpName("z"), x, a);
  ops::Betainc(root.WithOpName("i"), x, a, x);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  ASSERT_EQ(g.node_size(), 7);
  const std::vector<std::string> want_ops = {"Igamma", "Igammac", "IgammaGradA", "Zeta"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(g.node(2 + i).op(), want_ops[i]);
    EXPECT_EQ(g.node(2 + i).input(0), i < 3 ? "a" : "x");
    EXPECT_EQ(g.node(2 + i).input(1), i < 3 ? "x" : "a");
    EXPECT_EQ(g.node(2 + i).attr().at("T").type(), DT_DOUBLE);
  }
  EXPECT_EQ(g.node(6).op(), "Betainc");
  EXPECT_EQ(g.node(6).input(1), "a");  // a, b, x
  EXPECT_EQ(g.node(6).input(2), "x");
}

TEST(ShapeInferenceTest, ShapeTensorsBuiltFromShapesArePartlyKnown) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({-1, 3}));
  Output shape = ops::Shape(root.WithOpName("shape"), x);
  Output zeros =
      ops::Fill(root.WithOpName("zeros"), shape, ops::Const(root.WithOpName("zero"), 0.f));
  EXPECT_EQ(root.GetShape(zeros)->DebugString(), "[?,3]");
  Output one = ops::Const(root.WithOpName("one"), 1.f, TensorShape({1, 1}));
  EXPECT_EQ(root.GetShape(ops::Tile(root.WithOpName("tile"), one, shape))->DebugString(), "[?,3]");
}

TEST(IndexOpsTest, UniqueV2TakesItsAxisAndShapesTheSlices) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({4, 2}));
  Output axis = ops::Const(root.WithOpName("axis"), std::vector<int64_t>{0}, TensorShape({1}));
  ops::UniqueOutputs u = ops::UniqueV2(root.WithOpName("u"), x, axis, DT_INT64);
  EXPECT_EQ(root.GetShape(u.y)->DebugString(), "[?,2]");
  EXPECT_EQ(root.GetShape(u.idx)->DebugString(), "[4]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  ASSERT_EQ(g.node_size(), 3);
  EXPECT_EQ(g.node(2).op(), "UniqueV2");
  EXPECT_EQ(g.node(2).input(1), "axis");
  EXPECT_EQ(g.node(2).attr().at("Taxis").type(), DT_INT64);
  EXPECT_EQ(g.node(2).attr().at("out_idx").type(), DT_INT64);
}

TEST(MathOpsTest, LayoutWrappersBuildTheOpWithItsAttrsAndOutputs) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({2, 3}));
  Output axis = ops::Placeholder(root.WithOpName("axis"), DT_INT32);
  ops::ConcatV2(root.WithOpName("c"), {x, x}, axis);
  std::vector<Output> parts = ops::Unpack(root.WithOpName("u"), x, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(root.GetShape(parts[1])->DebugString(), "[3]");
  EXPECT_EQ(ops::Split(root.WithOpName("s"), axis, x, 3).size(), 3u);
  ops::MirrorPad(root.WithOpName("m"), x, axis, "REFLECT");
  Output up = ops::XlaDynamicUpdateSlice(root.WithOpName("dus"), x, x, {int64_t{0}, int64_t{1}});
  EXPECT_EQ(root.GetShape(up)->DebugString(), "[2,3]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  EXPECT_EQ(g.node(2).op(), "ConcatV2");
  EXPECT_EQ(g.node(2).attr().at("N").i(), 2);
  EXPECT_EQ(g.node(3).attr().at("num").i(), 2);
  EXPECT_EQ(g.node(5).attr().at("mode").s(), "REFLECT");
  const NodeDef& dus = g.node(g.node_size() - 1);
  EXPECT_EQ(dus.op(), "XlaDynamicUpdateSlice");
  EXPECT_EQ(dus.attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(dus.attr().at("Tindices").type(), DT_INT64);
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

TEST(MathOpsTest, SelectTileArgWrappersInferShapesFromConstants) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({2, 3}));
  Output c = ops::Placeholder(root.WithOpName("c"), DT_BOOL, PartialTensorShape({3}));
  Output one = ops::Const(root.WithOpName("one"), 1);
  Output multiples = ops::Const(root.WithOpName("m"), {2, 1});
  Output target = ops::Const(root.WithOpName("target"), {4, 2, 3});
  Output sel = ops::SelectV2(root.WithOpName("sel"), c, x, ops::Const(root.WithOpName("z"), 0.0f));
  Output clip =
      ops::ClipByValue(root.WithOpName("clip"), x, ops::Const(root.WithOpName("lo"), 0.0f),
                       ops::Const(root.WithOpName("hi"), 1.0f));
  Output tile = ops::Tile(root.WithOpName("tile"), x, multiples);
  Output bcast = ops::BroadcastTo(root.WithOpName("bcast"), x, target);
  Output arg = ops::ArgMax(root.WithOpName("arg"), x, one, DT_INT32);
  Output sum = ops::Sum(root.WithOpName("sum"), x, one, /*keep_dims=*/true);
  Output cumsum = ops::Cumsum(root.WithOpName("cumsum"), x, one, /*exclusive=*/true);
  EXPECT_EQ(root.GetShape(sel)->DebugString(), "[2,3]");
  EXPECT_EQ(root.GetShape(clip)->DebugString(), "[2,3]");
  EXPECT_EQ(root.GetShape(tile)->DebugString(), "[4,3]");
  EXPECT_EQ(root.GetShape(bcast)->DebugString(), "[4,2,3]");
  EXPECT_EQ(root.GetShape(arg)->DebugString(), "[2]");
  EXPECT_EQ(root.GetShape(sum)->DebugString(), "[2,1]");
  EXPECT_EQ(root.GetShape(cumsum)->DebugString(), "[2,3]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  const NodeDef* argmax = nullptr;
  const NodeDef* cs = nullptr;
  for (const NodeDef& n : g.node()) {
    if (n.name() == "arg") argmax = &n;
    if (n.name() == "cumsum") cs = &n;
  }
  ASSERT_NE(argmax, nullptr);
  ASSERT_NE(cs, nullptr);
  EXPECT_EQ(argmax->attr().at("output_type").type(), DT_INT32);
  EXPECT_TRUE(cs->attr().at("exclusive").b());
  EXPECT_FALSE(cs->attr().at("reverse").b());
  // NN wrappers: shapes from the shape functions, attrs as given.
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT, PartialTensorShape({5, 3, 4}));
  Output bmm = ops::BatchMatMulV2(root.WithOpName("bmm"), x, w);
  Output bias =
      ops::BiasAdd(root.WithOpName("bias"), x, ops::Const(root.WithOpName("b"), {1.f, 2.f, 3.f}));
  EXPECT_EQ(root.GetShape(bmm)->DebugString(), "[5,2,4]");
  EXPECT_EQ(root.GetShape(bias)->DebugString(), "[2,3]");
  EXPECT_EQ(root.GetShape(ops::Softmax(root.WithOpName("sm"), x))->DebugString(), "[2,3]");
  EXPECT_EQ(root.GetShape(ops::L2Loss(root.WithOpName("l2"), x))->DebugString(), "[]");
  Output image =
      ops::Placeholder(root.WithOpName("image"), DT_FLOAT, PartialTensorShape({1, 28, 28, 32}));
  Output kernel =
      ops::Placeholder(root.WithOpName("kernel"), DT_FLOAT, PartialTensorShape({3, 3, 32, 64}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), image, kernel, {1, 2, 2, 1}, "SAME");
  EXPECT_EQ(root.GetShape(conv)->DebugString(), "[1,14,14,64]");
  Output dw = ops::DepthwiseConv2dNative(
      root.WithOpName("dw"), image,
      ops::Placeholder(root.WithOpName("dwk"), DT_FLOAT, PartialTensorShape({3, 3, 32, 2})),
      {1, 1, 1, 1}, "VALID");
  EXPECT_EQ(root.GetShape(dw)->DebugString(), "[1,26,26,64]");
  EXPECT_EQ(
      root.GetShape(ops::Einsum(root.WithOpName("ein"), {x, w}, "ij,bjk->bik"))->DebugString(),
      "[5,2,4]");
  // Index wrappers: shapes from constants where the shape functions can use them.
  Output ids = ops::Const(root.WithOpName("ids"), {2, 0, 1, 1});
  EXPECT_EQ(root.GetShape(ops::GatherV2(root.WithOpName("gather"), x, ids,
                                        ops::Const(root.WithOpName("axis1"), 1)))
                ->DebugString(),
            "[2,4]");
  EXPECT_EQ(root.GetShape(ops::OneHot(root.WithOpName("onehot"), ids,
                                      ops::Const(root.WithOpName("depth"), 3),
                                      ops::Const(root.WithOpName("on"), 1.f),
                                      ops::Const(root.WithOpName("off"), 0.f)))
                ->DebugString(),
            "[4,3]");
  ops::TopKOutputs top =
      ops::TopKV2(root.WithOpName("top"), x, ops::Const(root.WithOpName("k"), 2));
  EXPECT_EQ(root.GetShape(top.indices)->DebugString(), "[2,2]");
  EXPECT_EQ(root.GetShape(ops::Where(root.WithOpName("where"), x))->DebugString(), "[?,2]");
  Output init =
      ops::TruncatedNormal(root.WithOpName("init"),
                           ops::Const(root.WithOpName("init_shape"), {3, 4}), DT_FLOAT, {42, 7});
  EXPECT_EQ(root.GetShape(init)->DebugString(), "[3,4]");
  EXPECT_EQ(root.GetShape(ops::BiasAddGrad(root.WithOpName("bgrad"), x))->DebugString(), "[3]");
  EXPECT_EQ(root.GetShape(ops::ReluGrad(root.WithOpName("rgrad"), x, x))->DebugString(), "[2,3]");
  // Window, normalization and resize ops.
  Output img = ops::Placeholder(root.WithOpName("img"), DT_FLOAT, PartialTensorShape({2, 7, 6, 4}));
  EXPECT_EQ(
      root.GetShape(ops::MaxPool(root.WithOpName("mp"), img, {1, 3, 3, 1}, {1, 2, 2, 1}, "VALID"))
          ->DebugString(),
      "[2,3,2,4]");
  EXPECT_EQ(
      root.GetShape(ops::MaxPool(root.WithOpName("mpd"), img, {1, 1, 1, 2}, {1, 1, 1, 2}, "VALID"))
          ->DebugString(),
      "[2,7,6,2]");
  EXPECT_EQ(
      root.GetShape(ops::AvgPool(root.WithOpName("ap"), img, {1, 3, 3, 1}, {1, 2, 2, 1}, "SAME"))
          ->DebugString(),
      "[2,4,3,4]");
  EXPECT_EQ(root.GetShape(ops::MaxPoolV2(root.WithOpName("mp2"), img,
                                         ops::Const(root.WithOpName("ks"), {1, 2, 2, 1}),
                                         ops::Const(root.WithOpName("st"), {1, 2, 2, 1}), "SAME"))
                ->DebugString(),
            "[2,4,3,4]");
  Output vec4 = ops::Placeholder(root.WithOpName("v4"), DT_FLOAT, PartialTensorShape({4}));
  std::vector<Output> bn = ops::FusedBatchNormV3(root.WithOpName("bn"), img, vec4, vec4, vec4, vec4,
                                                 ops::FusedBatchNormAttrs().IsTraining(false));
  ASSERT_EQ(bn.size(), 6u);
  EXPECT_EQ(root.GetShape(bn[0])->DebugString(), "[2,7,6,4]");
  EXPECT_EQ(root.GetShape(bn[1])->DebugString(), "[4]");
  EXPECT_EQ(root.GetShape(ops::LRN(root.WithOpName("lrn"), img, 2))->DebugString(), "[2,7,6,4]");
  Output size = ops::Const(root.WithOpName("size"), {3, 5});
  EXPECT_EQ(root.GetShape(ops::ResizeBilinear(root.WithOpName("rb"), img, size))->DebugString(),
            "[2,3,5,4]");
  EXPECT_EQ(root.GetShape(ops::ResizeNearestNeighbor(root.WithOpName("rn"), img, size, true))
                ->DebugString(),
            "[2,3,5,4]");
  ops::XentOutputs xent = ops::SparseSoftmaxCrossEntropyWithLogits(
      root.WithOpName("xent"), x, ops::Placeholder(root.WithOpName("labels"), DT_INT32));
  EXPECT_EQ(root.GetShape(xent.loss)->DebugString(), "[2]");
  EXPECT_EQ(root.GetShape(xent.backprop)->DebugString(), "[2,3]");
  // A condition that cannot broadcast is the shape function's error, naming the node.
  ops::SelectV2(root.WithOpName("bad"),
                ops::Placeholder(root.WithOpName("c4"), DT_BOOL, PartialTensorShape({4})), x, x);
  EXPECT_THAT(root.ToGraphDef().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("bad")));
}

TEST(ArrayNnOpsTest, WrappersBuildTheOpWithItsAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({2, 8, 6, 4}));
  Output block = ops::Const(root.WithOpName("block"), {2, 2});
  Output pads = ops::Const<int32_t>(root.WithOpName("pads"), {0, 0, 0, 0}, {2, 2});
  EXPECT_EQ(
      root.GetShape(ops::SpaceToBatchND(root.WithOpName("s2b"), x, block, pads))->DebugString(),
      "[?,?,?,4]");
  EXPECT_EQ(root.GetShape(ops::DepthToSpace(root.WithOpName("d2s"), x, 2))->DebugString(),
            "[2,16,12,1]");
  EXPECT_EQ(root.GetShape(ops::SpaceToDepth(root.WithOpName("s2d"), x, 2))->DebugString(),
            "[2,4,3,16]");
  Output v = ops::Placeholder(root.WithOpName("v"), DT_FLOAT, PartialTensorShape({1, 6, 6, 6, 2}));
  Output f = ops::Placeholder(root.WithOpName("f"), DT_FLOAT, PartialTensorShape({3, 3, 3, 2, 5}));
  EXPECT_EQ(root.GetShape(ops::Conv3D(root.WithOpName("c3"), v, f, {1, 2, 2, 2, 1}, "SAME"))
                ->DebugString(),
            "[1,3,3,3,5]");
  EXPECT_EQ(root.GetShape(ops::AvgPool3D(root.WithOpName("ap"), v, {1, 2, 2, 2, 1}, {1, 2, 2, 2, 1},
                                         "VALID"))
                ->DebugString(),
            "[1,3,3,3,2]");
  Output idx = ops::Const<int32_t>(root.WithOpName("idx"), {0, 2}, {2, 1});
  Output upd = ops::Placeholder(root.WithOpName("upd"), DT_FLOAT);
  EXPECT_EQ(root.GetShape(ops::ScatterNd(root.WithOpName("sn"), idx, upd,
                                         ops::Const(root.WithOpName("shape"), {4, 3})))
                ->DebugString(),
            "[4,3]");
  ops::ReverseSequence(root.WithOpName("rs"), x, ops::Const(root.WithOpName("len"), {1, 2}), 1);
  ops::MatrixDiagPartV3(root.WithOpName("mdp"), x, ops::Const(root.WithOpName("k"), 0),
                        ops::Const(root.WithOpName("pad"), 0.f), "LEFT_RIGHT");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "rs") EXPECT_EQ(n.attr().at("seq_dim").i(), 1);
    if (n.name() == "mdp") EXPECT_EQ(n.attr().at("align").s(), "LEFT_RIGHT");
    if (n.name() == "c3") EXPECT_EQ(n.attr().at("padding").s(), "SAME");
  }
}

TEST(ImageOpsTest, WrappersBuildTheOpWithItsAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output img = ops::Placeholder(root.WithOpName("img"), DT_FLOAT, PartialTensorShape({2, 7, 6, 3}));
  Output size = ops::Const(root.WithOpName("size"), {3, 5});
  EXPECT_EQ(root.GetShape(ops::ResizeBicubic(root.WithOpName("rb"), img, size))->DebugString(),
            "[2,3,5,3]");
  EXPECT_EQ(root.GetShape(ops::ResizeArea(root.WithOpName("ra"), img, size))->DebugString(),
            "[2,3,5,3]");
  Output boxes = ops::Placeholder(root.WithOpName("boxes"), DT_FLOAT, PartialTensorShape({4, 4}));
  Output scores = ops::Placeholder(root.WithOpName("scores"), DT_FLOAT);
  Output k = ops::Const(root.WithOpName("k"), 2);
  Output t = ops::Const(root.WithOpName("t"), 0.5f);
  std::vector<Output> nms = ops::NonMaxSuppressionV5(root.WithOpName("nms"), boxes, scores, k, t, t,
                                                     t, /*pad_to_max_output_size=*/true);
  ASSERT_EQ(nms.size(), 3u);
  EXPECT_EQ(root.GetShape(nms[2])->DebugString(), "[]");
  Output fpc_filter =
      ops::Placeholder(root.WithOpName("fpc_filter"), DT_FLOAT, PartialTensorShape({3, 3, 3, 8}));
  Output pads = ops::Const(root.WithOpName("pads"), {0, 0, 1, 1, 1, 1, 0, 0});
  EXPECT_EQ(
      root.GetShape(ops::FusedResizeAndPadConv2D(root.WithOpName("frpc"), img, size, pads,
                                                 fpc_filter, "REFLECT", {1, 1, 1, 1}, "SAME", true))
          ->DebugString(),
      "[2,?,?,8]");
  EXPECT_EQ(root.GetShape(ops::FusedPadConv2D(root.WithOpName("fpc"), img, pads, fpc_filter,
                                              "SYMMETRIC", {1, 2, 2, 1}, "VALID"))
                ->DebugString(),
            "[2,?,?,8]");
  Output overlaps =
      ops::Placeholder(root.WithOpName("overlaps"), DT_FLOAT, PartialTensorShape({4, 4}));
  EXPECT_EQ(root.GetShape(ops::NonMaxSuppressionWithOverlaps(root.WithOpName("nmso"), overlaps,
                                                             scores, k, t, t))
                ->DebugString(),
            "[?]");
  Output crops =
      ops::CropAndResize(root.WithOpName("crop"), img, boxes,
                         ops::Const(root.WithOpName("ind"), {0, 1, 0, 1}), size, "nearest", -1.0f);
  EXPECT_EQ(root.GetShape(crops)->DebugString(), "[4,3,5,3]");
  std::vector<Output> pool =
      ops::MaxPoolWithArgmax(root.WithOpName("mp"), img, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID");
  ASSERT_EQ(pool.size(), 2u);
  ops::RGBToHSV(root.WithOpName("hsv"), img);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "nms") EXPECT_TRUE(n.attr().at("pad_to_max_output_size").b());
    if (n.name() == "crop") EXPECT_EQ(n.attr().at("method").s(), "nearest");
    if (n.name() == "mp") EXPECT_EQ(n.attr().at("Targmax").type(), DT_INT64);
  }
}

TEST(RnnOpsTest, WrappersBuildTheOpWithItsAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({7, 2, 3}));
  Output state = ops::Placeholder(root.WithOpName("state"), DT_FLOAT, PartialTensorShape({2, 5}));
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT);
  Output peep = ops::Placeholder(root.WithOpName("peep"), DT_FLOAT);
  Output b = ops::Placeholder(root.WithOpName("b"), DT_FLOAT, PartialTensorShape({20}));
  Output len = ops::Const(root.WithOpName("len"), int64_t{7});
  std::vector<Output> lstm = ops::BlockLSTM(root.WithOpName("lstm"), len, x, state, state, w, peep,
                                            peep, peep, b, 0.5f, 2.0f, true);
  ASSERT_EQ(lstm.size(), 7u);
  EXPECT_EQ(root.GetShape(lstm[6])->DebugString(), "[7,2,5]");
  std::vector<Output> v2 =
      ops::BlockLSTMV2(root.WithOpName("v2"), len, x, state, state, w, peep, peep, peep, b);
  EXPECT_EQ(root.GetShape(v2[1])->DebugString(), "[7,2,5]");
  Output x2 = ops::Placeholder(root.WithOpName("x2"), DT_FLOAT, PartialTensorShape({2, 3}));
  std::vector<Output> cell =
      ops::LSTMBlockCell(root.WithOpName("cell"), x2, state, state, w, peep, peep, peep, b);
  EXPECT_EQ(root.GetShape(cell[0])->DebugString(), "[2,5]");
  std::vector<Output> gru = ops::GRUBlockCell(root.WithOpName("gru"), x2, state, w, w, b, b);
  ASSERT_EQ(gru.size(), 4u);
  EXPECT_EQ(root.GetShape(gru[3])->DebugString(), "[2,5]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "lstm") {
      EXPECT_EQ(n.attr().at("forget_bias").f(), 0.5f);
      EXPECT_EQ(n.attr().at("cell_clip").f(), 2.0f);
      EXPECT_TRUE(n.attr().at("use_peephole").b());
    }
    if (n.name() == "v2") {
      EXPECT_EQ(n.attr().count("forget_bias"), 0u);
    }
  }
}

TEST(ImageCodecOpsTest, WrappersBuildTheOpWithItsAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output contents = ops::Placeholder(root.WithOpName("contents"), DT_STRING);
  ops::DecodeJpegAttrs jpeg_attrs;
  jpeg_attrs.channels = 3;
  jpeg_attrs.ratio = 2;
  jpeg_attrs.dct_method = "INTEGER_ACCURATE";
  Output jpeg = ops::DecodeJpeg(root.WithOpName("jpeg"), contents, jpeg_attrs);
  EXPECT_EQ(root.GetShape(jpeg)->DebugString(), "[?,?,3]");
  Output crop = ops::DecodeAndCropJpeg(root.WithOpName("crop"), contents,
                                       ops::Const(root.WithOpName("window"), {0, 1, 5, 7}));
  EXPECT_EQ(root.GetShape(crop)->DebugString(), "[5,7,?]");
  Output png = ops::DecodePng(root.WithOpName("png"), contents, 4, DT_UINT16);
  EXPECT_EQ(root.GetShape(png)->DebugString(), "[?,?,4]");
  EXPECT_EQ(png.dtype(), DT_UINT16);
  Output image = ops::DecodeImage(root.WithOpName("image"), contents, 1, DT_FLOAT, false);
  EXPECT_EQ(root.GetShape(image)->DebugString(), "[?,?,1]");
  EXPECT_EQ(image.dtype(), DT_FLOAT);
  ops::DecodeBmp(root.WithOpName("bmp"), contents, 4);
  Output gif = ops::DecodeGif(root.WithOpName("gif"), contents);
  EXPECT_EQ(root.GetShape(gif)->DebugString(), "[?,?,?,3]");
  EXPECT_EQ(gif.dtype(), DT_UINT8);
  Output shape = ops::ExtractJpegShape(root.WithOpName("shape"), contents, DT_INT64);
  EXPECT_EQ(root.GetShape(shape)->DebugString(), "[3]");
  Output pixels =
      ops::Placeholder(root.WithOpName("pixels"), DT_UINT8, PartialTensorShape({2, 5, 4, 3}));
  EXPECT_EQ(root.GetShape(ops::EncodePng(root.WithOpName("encpng"), pixels, 9))->DebugString(),
            "[2]");
  Output one = ops::Placeholder(root.WithOpName("one"), DT_UINT8, PartialTensorShape({5, 4, 3}));
  ops::EncodeJpegAttrs enc_attrs;
  enc_attrs.quality = 80;
  enc_attrs.progressive = true;
  enc_attrs.density_unit = "cm";
  Output enc = ops::EncodeJpeg(root.WithOpName("encjpeg"), one, enc_attrs);
  EXPECT_EQ(root.GetShape(enc)->DebugString(), "[]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "jpeg") EXPECT_EQ(n.attr().at("ratio").i(), 2);
    if (n.name() == "jpeg") EXPECT_EQ(n.attr().at("dct_method").s(), "INTEGER_ACCURATE");
    if (n.name() == "encpng") EXPECT_EQ(n.attr().at("T").type(), DT_UINT8);
    if (n.name() == "encjpeg") EXPECT_EQ(n.attr().at("density_unit").s(), "cm");
    if (n.name() == "encjpeg") EXPECT_TRUE(n.attr().at("progressive").b());
  }
}

TEST(LinalgOpsTest, WrappersBuildTheOpWithItsAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({2, 5, 3}));
  Output sq = ops::Placeholder(root.WithOpName("sq"), DT_FLOAT, PartialTensorShape({2, 3, 3}));
  EXPECT_EQ(root.GetShape(ops::MatrixDeterminant(root.WithOpName("det"), sq))->DebugString(),
            "[2]");
  std::vector<Output> qr = ops::Qr(root.WithOpName("qr"), x);
  ASSERT_EQ(qr.size(), 2u);
  EXPECT_EQ(root.GetShape(qr[0])->DebugString(), "[2,5,3]");
  EXPECT_EQ(root.GetShape(qr[1])->DebugString(), "[2,3,3]");
  std::vector<Output> svd = ops::Svd(root.WithOpName("svd"), x, true, /*full_matrices=*/true);
  ASSERT_EQ(svd.size(), 3u);
  EXPECT_EQ(root.GetShape(svd[1])->DebugString(), "[2,5,5]");
  Output ts = ops::MatrixTriangularSolve(root.WithOpName("ts"), sq, sq, /*lower=*/false);
  EXPECT_EQ(root.GetShape(ts)->DebugString(), "[2,3,3]");
  ops::MatrixInverse(root.WithOpName("inv"), sq, /*adjoint=*/true);
  ops::LogMatrixDeterminant(root.WithOpName("ld"), sq);
  ops::Cholesky(root.WithOpName("chol"), sq);
  ops::MatrixSolve(root.WithOpName("solve"), sq, sq);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "ts") EXPECT_FALSE(n.attr().at("lower").b());
    if (n.name() == "inv") EXPECT_TRUE(n.attr().at("adjoint").b());
    if (n.name() == "svd") EXPECT_TRUE(n.attr().at("full_matrices").b());
  }
}

TEST(SpectralOpsTest, WrappersBuildTheOpWithItsTypesAndShapes) {
  Scope root = Scope::NewRootScope();
  Output re = ops::Placeholder(root.WithOpName("re"), DT_DOUBLE, PartialTensorShape({2, 8}));
  Output z = ops::Complex(root.WithOpName("z"), re, re);
  EXPECT_EQ(z.dtype(), DT_COMPLEX128);
  EXPECT_EQ(ops::Real(root.WithOpName("real"), z).dtype(), DT_DOUBLE);
  EXPECT_EQ(ops::ComplexAbs(root.WithOpName("abs"), z).dtype(), DT_DOUBLE);
  ops::Imag(root.WithOpName("imag"), z);
  ops::Angle(root.WithOpName("angle"), z);
  EXPECT_EQ(root.GetShape(ops::Conj(root.WithOpName("conj"), z))->DebugString(), "[2,8]");
  EXPECT_EQ(root.GetShape(ops::FFT(root.WithOpName("fft"), z))->DebugString(), "[2,8]");
  ops::IFFT(root.WithOpName("ifft"), z);
  ops::FFT2D(root.WithOpName("fft2d"), z);
  ops::IFFT2D(root.WithOpName("ifft2d"), z);
  Output n = ops::Const(root.WithOpName("n"), {6});
  Output spectrum = ops::RFFT(root.WithOpName("rfft"), re, n);
  EXPECT_EQ(spectrum.dtype(), DT_COMPLEX128);
  EXPECT_EQ(root.GetShape(spectrum)->DebugString(), "[2,4]");
  Output back = ops::IRFFT(root.WithOpName("irfft"), spectrum, n);
  EXPECT_EQ(back.dtype(), DT_DOUBLE);
  EXPECT_EQ(root.GetShape(back)->DebugString(), "[2,6]");
  Output n2 = ops::Const(root.WithOpName("n2"), {2, 8});
  EXPECT_EQ(root.GetShape(ops::RFFT2D(root.WithOpName("rfft2d"), re, n2))->DebugString(), "[2,5]");
  ops::IRFFT2D(root.WithOpName("irfft2d"), z, n2);
  Output re3 = ops::Placeholder(root.WithOpName("re3"), DT_FLOAT, PartialTensorShape({2, 3, 8}));
  Output z3 = ops::Complex(root.WithOpName("z3"), re3, re3);
  EXPECT_EQ(root.GetShape(ops::FFT3D(root.WithOpName("fft3d"), z3))->DebugString(), "[2,3,8]");
  ops::IFFT3D(root.WithOpName("ifft3d"), z3);
  Output n3 = ops::Const(root.WithOpName("n3"), {2, 3, 6});
  Output spectrum3 = ops::RFFT3D(root.WithOpName("rfft3d"), re3, n3);
  EXPECT_EQ(spectrum3.dtype(), DT_COMPLEX64);
  EXPECT_EQ(root.GetShape(spectrum3)->DebugString(), "[2,3,4]");
  Output back3 = ops::IRFFT3D(root.WithOpName("irfft3d"), spectrum3, n3);
  EXPECT_EQ(back3.dtype(), DT_FLOAT);
  EXPECT_EQ(root.GetShape(back3)->DebugString(), "[2,3,6]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  EXPECT_EQ(g.node_size(), 24);
}

TEST(SparseOpsTest, WrappersBuildTheOpWithItsAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output idx = ops::Placeholder(root.WithOpName("idx"), DT_INT64);
  Output vals = ops::Placeholder(root.WithOpName("vals"), DT_FLOAT);
  Output shape = ops::Placeholder(root.WithOpName("shape"), DT_INT64);
  Output dense = ops::Placeholder(root.WithOpName("dense"), DT_FLOAT);
  Output out = ops::SparseToDense(root.WithOpName("std"), idx,
                                  ops::Const(root.WithOpName("s"), {int64_t{3}, int64_t{4}}), vals,
                                  ops::Const(root.WithOpName("d"), 0.f), false);
  EXPECT_EQ(root.GetShape(out)->DebugString(), "[3,4]");
  ops::SparseTensorDenseMatMul(root.WithOpName("mm"), idx, vals, shape, dense, true);
  ops::SparseReduceSum(root.WithOpName("rs"), idx, vals, shape,
                       ops::Const(root.WithOpName("ax"), {1}), true);
  std::vector<Output> sum = ops::SparseAdd(root.WithOpName("add"), idx, vals, shape, idx, vals,
                                           shape, ops::Const(root.WithOpName("t"), 0.f));
  ASSERT_EQ(sum.size(), 3u);
  std::vector<Output> re = ops::SparseReorder(root.WithOpName("re"), idx, vals, shape);
  ASSERT_EQ(re.size(), 2u);
  std::vector<Output> rs = ops::SparseReshape(root.WithOpName("rsh"), idx, shape, shape);
  ASSERT_EQ(rs.size(), 2u);
  std::vector<Output> fill = ops::SparseFillEmptyRows(root.WithOpName("fill"), idx, vals, shape,
                                                      ops::Const(root.WithOpName("dv"), 0.f));
  ASSERT_EQ(fill.size(), 4u);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "std") EXPECT_FALSE(n.attr().at("validate_indices").b());
    if (n.name() == "mm") EXPECT_TRUE(n.attr().at("adjoint_a").b());
    if (n.name() == "rs") EXPECT_TRUE(n.attr().at("keep_dims").b());
  }
}

TEST(StringOpsTest, WrappersBuildTheOpWithItsAttrs) {
  Scope root = Scope::NewRootScope();
  Output s = ops::Placeholder(root.WithOpName("s"), DT_STRING, PartialTensorShape({3}));
  EXPECT_EQ(root.GetShape(ops::StringLength(root.WithOpName("len"), s, "UTF8_CHAR"))->DebugString(),
            "[3]");
  ops::StringToNumber(root.WithOpName("num"), s, DT_INT64);
  ops::StaticRegexReplace(root.WithOpName("re"), s, "[0-9]+", "#", false);
  std::vector<Output> split =
      ops::StringSplitV2(root.WithOpName("split"), s, ops::Const(root.WithOpName("sep"), "-"));
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(root.GetShape(split[2])->DebugString(), "[2]");
  ops::ReduceJoin(root.WithOpName("join"), s, ops::Const(root.WithOpName("axis"), {0}), true, ",");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "len") EXPECT_EQ(n.attr().at("unit").s(), "UTF8_CHAR");
    if (n.name() == "num") EXPECT_EQ(n.attr().at("out_type").type(), DT_INT64);
    if (n.name() == "re") EXPECT_FALSE(n.attr().at("replace_global").b());
    if (n.name() == "join") EXPECT_EQ(n.attr().at("separator").s(), ",");
  }
}

TEST(ParsingOpsTest, WrappersInferListAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output s = ops::Placeholder(root.WithOpName("s"), DT_STRING, PartialTensorShape({4}));
  const Tensor none(DT_STRING, TensorShape({0}));
  std::vector<Output> parsed = ops::ParseExampleV2(
      root.WithOpName("parse"), s, none, Tensor::FromVector<std::string>({"ids"}, TensorShape({1})),
      Tensor::FromVector<std::string>({"age"}, TensorShape({1})), none, {ops::Const(root, {40.f})},
      1, {DT_INT64}, {}, {}, {PartialTensorShape({1})});
  ASSERT_EQ(parsed.size(), 4u);
  EXPECT_EQ(root.GetShape(parsed[0])->DebugString(), "[?,2]");
  EXPECT_EQ(root.GetShape(parsed[3])->DebugString(), "[4,1]");
  std::vector<Output> csv =
      ops::DecodeCSV(root.WithOpName("csv"), s, {ops::Const(root, {0}), ops::Const(root, {1.5})});
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(root.GetShape(csv[1])->DebugString(), "[4]");
  ops::ParseTensor(root.WithOpName("pt"), ops::SerializeTensor(root, csv[0]), DT_INT32);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "parse") EXPECT_EQ(n.attr().at("Tdense").list().type(0), DT_FLOAT);
    if (n.name() == "csv") EXPECT_EQ(n.attr().at("OUT_TYPE").list().type_size(), 2);
  }
}

// The SequenceExample wrappers: outputs in TensorFlow's order with their inferred shapes.
TEST(ParsingOpsTest, SequenceExampleWrappersInferAttrsAndShapes) {
  Scope root = Scope::NewRootScope();
  Output s = ops::Placeholder(root.WithOpName("s"), DT_STRING, PartialTensorShape({4}));
  const Tensor none(DT_STRING, TensorShape({0}));
  ops::SequenceExampleSpec spec;
  spec.context_dense_keys = {"age"};
  spec.context_dense_shapes = {PartialTensorShape({1})};
  spec.feature_list_sparse_keys = {"ids"};
  spec.feature_list_sparse_types = {DT_INT64};
  spec.feature_list_dense_keys = {"frames"};
  spec.feature_list_dense_types = {DT_FLOAT};
  spec.feature_list_dense_shapes = {PartialTensorShape({3})};
  spec.feature_list_dense_missing_assumed_empty = {"frames"};
  std::vector<Output> v1 =
      ops::ParseSequenceExample(root.WithOpName("seq"), s, none, {ops::Const(root, {40.f})}, spec);
  ASSERT_EQ(v1.size(), 6u);
  EXPECT_EQ(root.GetShape(v1[0])->DebugString(), "[4,1]");
  EXPECT_EQ(root.GetShape(v1[1])->DebugString(), "[?,3]");
  EXPECT_EQ(root.GetShape(v1[4])->DebugString(), "[4,?,3]");
  EXPECT_EQ(root.GetShape(v1[5])->DebugString(), "[4]");
  ops::SequenceExampleV2Types types;
  types.feature_list_ragged_value_types = {DT_STRING};
  types.feature_list_ragged_split_types = {DT_INT32};
  std::vector<Output> v2 =
      ops::ParseSequenceExampleV2(root.WithOpName("seq2"), s, none, none, none, none, none, none,
                                  Tensor::FromVector<std::string>({"words"}, TensorShape({1})),
                                  Tensor(DT_BOOL, TensorShape({0})), {}, types);
  ASSERT_EQ(v2.size(), 3u);
  EXPECT_EQ(v2[0].dtype(), DT_STRING);
  EXPECT_EQ(v2[2].dtype(), DT_INT32);
  std::vector<Output> single = ops::ParseSingleSequenceExample(
      root.WithOpName("single"), ops::Placeholder(root, DT_STRING, PartialTensorShape({})),
      Tensor::FromVector<std::string>({"frames"}, TensorShape({1})), {ops::Const(root, {40.f})},
      std::string("record"), spec);
  ASSERT_EQ(single.size(), 5u);
  EXPECT_EQ(root.GetShape(single[0])->DebugString(), "[1]");
  EXPECT_EQ(root.GetShape(single[1])->DebugString(), "[?,2]");
  EXPECT_EQ(root.GetShape(single[4])->DebugString(), "[?,3]");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef g, root.ToGraphDef());
  for (const NodeDef& n : g.node()) {
    if (n.name() == "single") EXPECT_EQ(n.input(2), "context_dense_key0");
    if (n.name() == "seq") {
      EXPECT_EQ(n.attr().at("Nfeature_list_dense").i(), 1);
      EXPECT_EQ(n.attr().at("feature_list_dense_missing_assumed_empty").list().s(0), "frames");
    }
  }
}

// A constant target shape whose size differs from the input's known size is refused when the
// node is built, with TensorFlow's text; a -1 or an unknown input size leaves it to the kernel.
TEST(ShapeOpsTest, ReshapeToAnotherSizeIsRefusedAtBuild) {
  Scope root = Scope::NewRootScope();
  ops::Reshape(root.WithOpName("r"), ops::Const(root, {1.f, 2.f}), ops::Const(root, {3}));
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(root.status().message()),
              ::testing::HasSubstr("Cannot reshape a tensor with 2 elements to shape [3] (3 "
                                   "elements)"));
  Scope ok = Scope::NewRootScope();
  Output unknown = ops::Placeholder(ok, DT_FLOAT);
  ops::Reshape(ok, unknown, ops::Const(ok, {3}));
  ops::Reshape(ok, ops::Const(ok, {1.f, 2.f, 3.f, 4.f}), ops::Const(ok, {-1, 2}));
  RILL_EXPECT_OK(ok.status());
}

}  // namespace
}  // namespace rill
