// TF_Graph: lookup, iteration, GraphDef/OpDef/VersionDef export, tensor shapes, the op list.
#include <set>
#include <string>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "proto/op_def.pb.h"
#include "proto/versions.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

TEST(Graph, LookupAndIteration) {
  TF_Graph* g = TF_NewGraph();
  EXPECT_EQ(TF_GraphOperationByName(g, "x"), nullptr);
  size_t pos = 0;
  EXPECT_EQ(TF_GraphNextOperation(g, &pos), nullptr);

  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* y = rill_c_test::ScalarConst(g, "y", 2.f);
  TF_Operation* sum = rill_c_test::Add(g, "sum", {x, 0}, {y, 0});
  EXPECT_EQ(TF_GraphOperationByName(g, "x"), x);
  EXPECT_EQ(TF_GraphOperationByName(g, "sum"), sum);
  EXPECT_EQ(TF_GraphOperationByName(g, "_SOURCE"), nullptr);
  EXPECT_EQ(TF_GraphOperationByName(g, nullptr), nullptr);
  EXPECT_EQ(TF_GraphOperationByName(nullptr, "x"), nullptr);

  pos = 0;
  std::vector<std::string> names;
  while (TF_Operation* op = TF_GraphNextOperation(g, &pos)) names.push_back(TF_OperationName(op));
  EXPECT_EQ(names, (std::vector<std::string>{"x", "y", "sum"}));
  EXPECT_EQ(TF_GraphNextOperation(g, &pos), nullptr);
  TF_DeleteGraph(g);
  TF_DeleteGraph(nullptr);
}

TEST(Graph, ToGraphDefWritesEveryOperation) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  rill_c_test::Add(g, "sum", {x, 0}, {x, 0});
  TF_Buffer* buffer = TF_NewBuffer();
  Status s;
  TF_GraphToGraphDef(g, buffer, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::GraphDef def;
  ASSERT_TRUE(def.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  ASSERT_EQ(def.node_size(), 2);
  EXPECT_EQ(def.node(1).name(), "sum");
  EXPECT_EQ(def.node(1).op(), "Add");
  ASSERT_EQ(def.node(1).input_size(), 2);
  EXPECT_EQ(def.node(1).input(0), "x");
  EXPECT_EQ(def.node(1).attr().at("T").type(), rill::DT_FLOAT);
  TF_DeleteBuffer(buffer);
  TF_GraphToGraphDef(nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

TEST(Graph, GetOpDefAndVersions) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* buffer = TF_NewBuffer();
  Status s;
  TF_GraphGetOpDef(g, "MatMul", buffer, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::OpDef op;
  ASSERT_TRUE(op.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  EXPECT_EQ(op.name(), "MatMul");
  EXPECT_EQ(op.input_arg_size(), 2);
  TF_GraphGetOpDef(g, "NoSuchOp", buffer, s);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_NE(s.message().find("Op type not registered 'NoSuchOp'"), std::string::npos)
      << s.message();
  TF_GraphVersions(g, buffer, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  // A graph made by the C API has TensorFlow 2.21's versions: producer 2474.
  EXPECT_EQ(std::string(static_cast<const char*>(buffer->data), buffer->length), "\x08\xaa\x13");
  TF_DeleteBuffer(buffer);
  TF_DeleteGraph(g);
}

TEST(Graph, AnEmptyGraphsGraphDefIsTensorFlows) {
  // TensorFlow writes the versions and an empty library: 12 00 22 03 08 aa 13.
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* buffer = TF_NewBuffer();
  Status s;
  TF_GraphToGraphDef(g, buffer, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(std::string(static_cast<const char*>(buffer->data), buffer->length),
            std::string("\x12\x00\x22\x03\x08\xaa\x13", 7));
  TF_DeleteBuffer(buffer);
  TF_DeleteGraph(g);
}

TEST(Graph, ImportedVersionsAreKept) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = rill_c_test::GraphDefBuffer("versions { producer: 27 min_consumer: 12 }");
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  Status s;
  TF_GraphImportGraphDef(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Buffer* buffer = TF_NewBuffer();
  TF_GraphVersions(g, buffer, s);
  rill::VersionDef versions;
  ASSERT_TRUE(versions.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  EXPECT_EQ(versions.producer(), 27);
  EXPECT_EQ(versions.min_consumer(), 12);
  TF_DeleteBuffer(buffer);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

TEST(Graph, TensorShapesFromInferenceAndSetTensorShape) {
  TF_Graph* g = TF_NewGraph();
  Status s;
  TF_Operation* x = rill_c_test::Placeholder(g, "x", TF_FLOAT, {-1, 3}, true);
  TF_Tensor* w_value = rill_c_test::FloatTensor({3, 2}, {1, 2, 3, 4, 5, 6});
  TF_Operation* w = rill_c_test::Const(g, "w", w_value);
  TF_DeleteTensor(w_value);
  TF_Operation* m = rill_c_test::MatMul(g, "m", {x, 0}, {w, 0});
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {m, 0}, s), 2);
  int64_t dims[2];
  TF_GraphGetTensorShape(g, {m, 0}, dims, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(dims[0], -1);
  EXPECT_EQ(dims[1], 2);

  TF_GraphGetTensorShape(g, {m, 0}, dims, 1, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Expected rank is 1 but actual rank is 2");

  const int64_t known[] = {5, -1};
  TF_GraphSetTensorShape(g, {x, 0}, known, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_GraphGetTensorShape(g, {x, 0}, dims, 2, s);
  EXPECT_EQ(dims[0], 5);
  EXPECT_EQ(dims[1], 3);  // merged with the placeholder's [?, 3]

  const int64_t clash[] = {5, 4};
  TF_GraphSetTensorShape(g, {x, 0}, clash, 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Dimension 1 in both shapes must be equal, but are 3 and 4. Shapes are [5,3] and "
            "[5,4].");
  TF_GraphSetTensorShape(g, {x, 0}, known, 3 - 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Shapes must be equal rank, but are 2 and 1");

  TF_Operation* unknown = rill_c_test::Placeholder(g, "u");
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {unknown, 0}, s), -1);
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {unknown, 3}, s), -1);
  EXPECT_EQ(s.code(), TF_OUT_OF_RANGE);
  EXPECT_EQ(s.message(), "Node 'u' has 1 outputs; output 3 does not exist");
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {nullptr, 0}, s), -1);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

TEST(Graph, OperationFromAnotherGraphIsRefused) {
  TF_Graph* a = TF_NewGraph();
  TF_Graph* b = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(a, "x");
  Status s;
  TF_GraphGetTensorNumDims(b, {x, 0}, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node x was not found in the graph");
  TF_DeleteGraph(a);
  TF_DeleteGraph(b);
}

TEST(Graph, AllOpListHoldsTheRegistry) {
  TF_Buffer* buffer = TF_GetAllOpList();
  rill::OpList list;
  ASSERT_TRUE(list.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  std::set<std::string> names;
  for (const rill::OpDef& op : list.op()) names.insert(op.name());
  EXPECT_GT(names.size(), 100u);
  EXPECT_TRUE(names.count("MatMul"));
  EXPECT_TRUE(names.count("Placeholder"));
  TF_DeleteBuffer(buffer);
}

}  // namespace
