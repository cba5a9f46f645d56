#include "graph/shape_value.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace rill {
namespace {

// A GraphDef with the output shapes shape inference would have given, by node name.
class FakeGraph final : public ShapeValueGraph {
 public:
  FakeGraph(const std::string& text, std::map<std::string, PartialTensorShape> shapes)
      : shapes_(std::move(shapes)) {
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph_));
  }
  int Find(const std::string& name) const {
    for (int i = 0; i < graph_.node_size(); ++i) {
      if (graph_.node(i).name() == name) return i;
    }
    ADD_FAILURE() << "no node " << name;
    return 0;
  }
  const NodeDef& Def(int node) const override { return graph_.node(node); }
  bool Input(int node, int i, int* producer, int* output) const override {
    if (i >= graph_.node(node).input_size()) return false;
    std::vector<std::string> parts = absl::StrSplit(graph_.node(node).input(i), ':');
    *producer = Find(parts[0]);
    *output = 0;
    if (parts.size() > 1 && !absl::SimpleAtoi(parts[1], output)) return false;
    return true;
  }
  PartialTensorShape OutputShape(int node, int output) const override {
    auto it = shapes_.find(graph_.node(node).name() + ":" + std::to_string(output));
    return it == shapes_.end() ? PartialTensorShape() : it->second;
  }
  std::optional<PartialValue> Eval(const std::string& name, int output = 0) const {
    return EvaluatePartialValue(*this, Find(name), output);
  }

 private:
  GraphDef graph_;
  std::map<std::string, PartialTensorShape> shapes_;
};

// An int32 Const node named `name` with `values` (a vector, or a scalar when `scalar`).
std::string IntConst(const std::string& name, const std::vector<int>& values, bool scalar = false) {
  std::string text = "node { name: '" + name +
                     "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
                     "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { ";
  if (!scalar) text += "dim { size: " + std::to_string(values.size()) + " } ";
  text += "} ";
  for (int v : values) text += "int_val: " + std::to_string(v) + " ";
  return text + "} } } }\n";
}

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string text = "node { name: '" + name + "' op: '" + op + "' ";
  for (const std::string& in : inputs) text += "input: '" + in + "' ";
  return text + attrs + " }\n";
}

std::string IntAttr(const std::string& key, int64_t v) {
  return "attr { key: '" + key + "' value { i: " + std::to_string(v) + " } }";
}

TEST(ShapeValueTest, ShapeOfAPartiallyKnownTensor) {
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}) +
                  Node("n", "ShapeN", {"x", "y"}) + Node("y", "Placeholder", {}),
              {{"x:0", PartialTensorShape({-1, 3})}, {"y:0", PartialTensorShape({2})}});
  std::optional<PartialValue> v = g.Eval("s");
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->scalar);
  EXPECT_EQ(v->elements, std::vector<int64_t>({-1, 3}));
  v = g.Eval("n", 1);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({2}));
}

TEST(ShapeValueTest, ShapeOfUnknownRankIsUnknown) {
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}), {});
  EXPECT_FALSE(g.Eval("s"));
}

TEST(ShapeValueTest, StridedSliceOfShapeTakesElementsAndScalars) {
  const std::string slice_attrs = IntAttr("begin_mask", 0) + IntAttr("end_mask", 0) +
                                  IntAttr("ellipsis_mask", 0) + IntAttr("new_axis_mask", 0);
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}) + IntConst("b1", {1}) +
                  IntConst("e2", {2}) + IntConst("one", {1}) + IntConst("bneg", {-1}) +
                  IntConst("e0", {0}) +
                  Node("dim1", "StridedSlice", {"s", "b1", "e2", "one"},
                       slice_attrs + IntAttr("shrink_axis_mask", 1)) +
                  Node("last", "StridedSlice", {"s", "bneg", "e0", "one"},
                       slice_attrs + IntAttr("shrink_axis_mask", 1)) +
                  Node("tail", "StridedSlice", {"s", "b1", "e0", "one"},
                       IntAttr("begin_mask", 0) + IntAttr("end_mask", 1)),
              {{"x:0", PartialTensorShape({-1, 3, 5})}});
  std::optional<PartialValue> v = g.Eval("dim1");
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->scalar);
  EXPECT_EQ(v->elements, std::vector<int64_t>({3}));
  v = g.Eval("last");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({5}));
  v = g.Eval("tail");  // s[1:]
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->scalar);
  EXPECT_EQ(v->elements, std::vector<int64_t>({3, 5}));
}

TEST(ShapeValueTest, PackOfScalarsKnowsTheKnownOnes) {
  const std::string slice_attrs = IntAttr("shrink_axis_mask", 1);
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}) + IntConst("b0", {0}) +
                  IntConst("e1", {1}) + IntConst("one", {1}) + IntConst("four", {4}, true) +
                  Node("batch", "StridedSlice", {"s", "b0", "e1", "one"}, slice_attrs) +
                  Node("n", "Placeholder", {}) +
                  Node("p", "Pack", {"batch", "four", "n"}, IntAttr("N", 3) + IntAttr("axis", 0)),
              {{"x:0", PartialTensorShape({-1, 3})},
               {"four:0", PartialTensorShape({})},
               {"batch:0", PartialTensorShape({})},
               {"n:0", PartialTensorShape({})}});
  std::optional<PartialValue> v = g.Eval("p");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({-1, 4, -1}));
}

TEST(ShapeValueTest, ConcatJoinsValuesAndCountsUnknownVectorsOfKnownLength) {
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}) + IntConst("c", {7, 8}) +
                  Node("v", "Placeholder", {}) + IntConst("axis", {0}, true) +
                  Node("cat", "ConcatV2", {"s", "c", "v", "axis"}, IntAttr("N", 3)) +
                  Node("cast", "Cast", {"cat"}) + Node("id", "Identity", {"cast"}),
              {{"x:0", PartialTensorShape({2, -1})}, {"v:0", PartialTensorShape({2})}});
  std::optional<PartialValue> v = g.Eval("id");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({2, -1, 7, 8, -1, -1}));
}

TEST(ShapeValueTest, ConcatOfAVectorOfUnknownLengthIsUnknown) {
  FakeGraph g(Node("v", "Placeholder", {}) + IntConst("c", {7}) + IntConst("axis", {0}, true) +
                  Node("cat", "ConcatV2", {"c", "v", "axis"}, IntAttr("N", 2)),
              {{"v:0", PartialTensorShape({-1})}});
  EXPECT_FALSE(g.Eval("cat"));
}

TEST(ShapeValueTest, SizeAndRank) {
  FakeGraph g(Node("x", "Placeholder", {}) + Node("y", "Placeholder", {}) +
                  Node("size", "Size", {"x"}) + Node("rank", "Rank", {"y"}) +
                  Node("unknown_size", "Size", {"y"}),
              {{"x:0", PartialTensorShape({2, 3})}, {"y:0", PartialTensorShape({-1, 4, 1})}});
  std::optional<PartialValue> v = g.Eval("size");
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->scalar);
  EXPECT_EQ(v->elements, std::vector<int64_t>({6}));
  v = g.Eval("rank");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({3}));
  EXPECT_FALSE(g.Eval("unknown_size"));
}

TEST(ShapeValueTest, OtherOpsAndDeepChainsAreUnknown) {
  std::string text = Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"});
  std::string prev = "s";
  for (int i = 0; i < 20; ++i) {
    text += Node("id" + std::to_string(i), "Identity", {prev});
    prev = "id" + std::to_string(i);
  }
  text += Node("neg", "Neg", {"s"});
  FakeGraph g(text, {{"x:0", PartialTensorShape({1, 2})}});
  EXPECT_TRUE(g.Eval("id3"));
  EXPECT_FALSE(g.Eval("id19"));  // beyond the walk's depth
  EXPECT_FALSE(g.Eval("neg"));
}

TEST(ShapeValueTest, RangeOfKnownBoundsListsItsValues) {
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}) + Node("n", "Size", {"s"}) +
                  IntConst("zero", {0}, true) + IntConst("one", {1}, true) +
                  IntConst("minus_one", {-1}, true) + IntConst("three", {3}, true) +
                  IntConst("big", {2000000000}, true) + Node("up", "Range", {"zero", "n", "one"}) +
                  Node("down", "Range", {"three", "minus_one", "minus_one"}) +
                  Node("huge", "Range", {"zero", "big", "one"}) +
                  Node("empty", "Range", {"three", "zero", "one"}),
              {{"x:0", PartialTensorShape({-1, 10})}, {"s:0", PartialTensorShape({2})}});
  std::optional<PartialValue> v = g.Eval("up");  // range(size(shape(x))) = range(rank)
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->scalar);
  EXPECT_EQ(v->elements, std::vector<int64_t>({0, 1}));
  v = g.Eval("down");  // a Const -1 is a value, not "unknown"
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({3, 2, 1, 0}));
  EXPECT_FALSE(g.Eval("huge"));   // past 1024 elements: not tracked
  EXPECT_FALSE(g.Eval("empty"));  // the kernel refuses start > limit with delta > 0
}

TEST(ShapeValueTest, IntegerArithmeticOnKnownElements) {
  // Sum's gradient: the reduced axes (axes + rank) % rank, and the kept dims' multiples.
  FakeGraph g(Node("x", "Placeholder", {}) + Node("s", "Shape", {"x"}) + Node("n", "Size", {"s"}) +
                  IntConst("axes", {1, -3}) + IntConst("zero", {0}, true) +
                  IntConst("two", {2}, true) + Node("sum", "AddV2", {"axes", "n"}) +
                  Node("mod", "FloorMod", {"sum", "n"}) + Node("div", "FloorDiv", {"s", "two"}) +
                  Node("by_zero", "FloorDiv", {"s", "zero"}) +
                  Node("most", "Maximum", {"s", "two"}) + Node("mismatch", "Mul", {"s", "axes"}),
              {{"x:0", PartialTensorShape({-1, 10, 7})}, {"s:0", PartialTensorShape({3})}});
  std::optional<PartialValue> v = g.Eval("mod");
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->scalar);
  EXPECT_EQ(v->elements, std::vector<int64_t>({1, 0}));  // (1 + 3) % 3, (-3 + 3) % 3
  v = g.Eval("div");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({-1, 5, 3}));  // the unknown dim stays unknown
  v = g.Eval("by_zero");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({-1, -1, -1}));  // the kernel refuses it
  v = g.Eval("most");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({-1, 10, 7}));
  EXPECT_FALSE(g.Eval("mismatch"));  // lengths 3 and 2 do not broadcast
}

TEST(ShapeValueTest, SizesPastInt64OrAnInt32OutTypeAreUnknown) {
  // UBSan (fuzz_findings_test under --config=asan): the element count of [2^62, 4] overflowed.
  FakeGraph g(
      Node("x", "Placeholder", {}) + Node("y", "Placeholder", {}) +
          Node("overflow", "Size", {"x"}) +
          Node("int32", "Size", {"y"}, "attr { key: 'out_type' value { type: DT_INT32 } }") +
          Node("int64", "Size", {"y"}, "attr { key: 'out_type' value { type: DT_INT64 } }"),
      {{"x:0", PartialTensorShape({int64_t{1} << 62, 4})},
       {"y:0", PartialTensorShape({int64_t{1} << 16, int64_t{1} << 16})}});
  EXPECT_FALSE(g.Eval("overflow"));
  EXPECT_FALSE(g.Eval("int32"));  // 2^32 elements: the int32 Size kernel refuses it
  std::optional<PartialValue> v = g.Eval("int64");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({int64_t{1} << 32}));
}

TEST(ShapeValueTest, FloorModOfTheInt64MinimumDoesNotOverflow) {
  // floor(-2^63 / 3) * 3 is below -2^63: computed in 128 bits, the remainder is 1.
  FakeGraph g(
      "node { name: 'min' op: 'Const' attr { key: 'dtype' value { type: DT_INT64 } } "
      "attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} "
      "int64_val: -9223372036854775808 } } } }\n" +
          IntConst("three", {3}, true) + Node("mod", "FloorMod", {"min", "three"}),
      {});
  std::optional<PartialValue> v = g.Eval("mod");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->elements, std::vector<int64_t>({1}));
}

}  // namespace
}  // namespace rill
