// TF_NewOperation ... TF_FinishOperation: successful builds (attr inference from inputs, devices,
// control inputs) and every refusal, each leaving the graph unchanged.
#include <cstdint>
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/tensor_shape.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;
using ::testing::HasSubstr;
using ::testing::StartsWith;

int NumOperations(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != nullptr) ++n;
  return n;
}

class Build : public ::testing::Test {
 protected:
  void SetUp() override {
    g_ = TF_NewGraph();
    x_ = rill_c_test::Placeholder(g_, "x", TF_FLOAT, {2, 3}, true);
    i_ = rill_c_test::Placeholder(g_, "i", TF_INT32);
  }
  void TearDown() override { TF_DeleteGraph(g_); }

  // Finishes `desc`, expecting failure with `code`; checks the graph did not change.
  std::string Refused(TF_OperationDescription* desc, TF_Code code) {
    const int before = NumOperations(g_);
    Status s;
    EXPECT_EQ(TF_FinishOperation(desc, s), nullptr);
    EXPECT_EQ(s.code(), code) << s.message();
    EXPECT_EQ(NumOperations(g_), before);
    return s.message();
  }

  TF_Graph* g_;
  TF_Operation* x_;
  TF_Operation* i_;
};

TEST_F(Build, InfersTypeAttrsAndRunsTheShapeFunction) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "Relu", "r");
  TF_AddInput(desc, {x_, 0});
  TF_SetDevice(desc, "/device:CPU:0");
  TF_AddControlInput(desc, i_);
  Status s;
  TF_Operation* r = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_DataType t;
  TF_OperationGetAttrType(r, "T", &t, s);
  EXPECT_EQ(t, TF_FLOAT);
  EXPECT_STREQ(TF_OperationDevice(r), "/device:CPU:0");
  EXPECT_EQ(TF_OperationNumControlInputs(r), 1);
  int64_t dims[2];
  TF_GraphGetTensorShape(g_, {r, 0}, dims, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 3);
}

TEST_F(Build, AssignTakesTheVariablesShapeWhenValidating) {
  // A restored value of unknown shape (as a Saver's RestoreV2 gives) assigned to a [2, 3]
  // variable: TensorFlow's shape function merges both (validate_shape), so the output is [2, 3].
  TF_OperationDescription* v = TF_NewOperation(g_, "VariableV2", "v");
  TF_SetAttrType(v, "dtype", TF_FLOAT);
  const int64_t shape[] = {2, 3};
  TF_SetAttrShape(v, "shape", shape, 2);
  Status s;
  TF_Operation* var = TF_FinishOperation(v, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* value = rill_c_test::Placeholder(g_, "value");
  for (int validate = 0; validate < 2; ++validate) {
    TF_OperationDescription* a =
        TF_NewOperation(g_, "Assign", validate == 1 ? "assign_validated" : "assign");
    TF_AddInput(a, {var, 0});
    TF_AddInput(a, {value, 0});
    TF_SetAttrBool(a, "validate_shape", static_cast<unsigned char>(validate));
    TF_Operation* assign = TF_FinishOperation(a, s);
    ASSERT_EQ(s.code(), TF_OK) << s.message();
    EXPECT_EQ(TF_GraphGetTensorNumDims(g_, {assign, 0}, s), validate == 1 ? 2 : -1);
  }
  // Known shapes that differ are refused when validating.
  TF_Operation* wrong = rill_c_test::Placeholder(g_, "wrong", TF_FLOAT, {3}, true);
  TF_OperationDescription* bad = TF_NewOperation(g_, "Assign", "assign_bad");
  TF_AddInput(bad, {var, 0});
  TF_AddInput(bad, {wrong, 0});
  EXPECT_THAT(Refused(bad, TF_INVALID_ARGUMENT),
              HasSubstr("Shapes must be equal rank, but are 2 and 1"));
}

TEST_F(Build, ConcatWithAListInputAndAScalarAxis) {
  TF_Tensor* axis_value = rill_c_test::Int32Tensor({}, {0});
  TF_Operation* axis = rill_c_test::Const(g_, "axis", axis_value);
  TF_DeleteTensor(axis_value);
  TF_OperationDescription* desc = TF_NewOperation(g_, "ConcatV2", "cat");
  TF_Output values[] = {{x_, 0}, {x_, 0}};
  TF_AddInputList(desc, values, 2);
  TF_AddInput(desc, {axis, 0});
  Status s;
  TF_Operation* cat = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  int64_t n = 0;
  TF_OperationGetAttrInt(cat, "N", &n, s);
  EXPECT_EQ(n, 2);
  // Rill's ConcatV2 shape function gives the rank only.
  EXPECT_EQ(TF_GraphGetTensorNumDims(g_, {cat, 0}, s), 2);
}

TEST_F(Build, ShapeFunctionsReadConstantInputs) {
  TF_Tensor* shape_value = rill_c_test::Int32Tensor({2}, {3, -1});
  TF_Operation* shape = rill_c_test::Const(g_, "shape", shape_value);
  TF_DeleteTensor(shape_value);
  TF_OperationDescription* desc = TF_NewOperation(g_, "Reshape", "reshaped");
  TF_AddInput(desc, {x_, 0});
  TF_AddInput(desc, {shape, 0});
  Status s;
  TF_Operation* reshaped = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  int64_t dims[2];
  TF_GraphGetTensorShape(g_, {reshaped, 0}, dims, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(dims[0], 3);
  EXPECT_EQ(dims[1], 2);  // 6 elements / 3
}

TEST_F(Build, UnknownOp) {
  // TensorFlow 2.21's TF_FinishOperation: InvalidArgument from its NodeDefBuilder.
  const std::string message = Refused(TF_NewOperation(g_, "Bogus", "b"), TF_INVALID_ARGUMENT);
  EXPECT_THAT(message, StartsWith("Op type not registered 'Bogus'"));
  EXPECT_THAT(message, ::testing::EndsWith(" while building NodeDef 'b'"));
}

TEST_F(Build, DuplicateNames) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "Placeholder", "x");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT), "Duplicate node name in graph: 'x'");
}

TEST_F(Build, NamesTheImporterRefusesAreBuiltAndFailWhenRun) {
  // TensorFlow 2.21's TF_FinishOperation takes any name (its Go binding's attrs test names
  // Consts "const/0/[1 2 3 4]"); running the graph, or importing its GraphDef, refuses it with
  // the importer's InvalidArgument.
  TF_Tensor* three = rill_c_test::FloatTensor({}, {3});
  TF_Operation* c = rill_c_test::Const(g_, "const/0/[1 2 3 4]", three);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(TF_GraphOperationByName(g_, "const/0/[1 2 3 4]"), c);
  TF_DeleteTensor(three);
  Status s;
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(g_, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Output out{c, 0};
  TF_Tensor* value = nullptr;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &out, &value, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node 'const/0/[1 2 3 4]': Node name contains invalid characters");
  EXPECT_EQ(value, nullptr);
  TF_CloseSession(session, s);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(opts);

  TF_Buffer* def = TF_NewBuffer();
  TF_GraphToGraphDef(g_, def, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Graph* copy = TF_NewGraph();
  TF_ImportGraphDefOptions* import = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(copy, def, import, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node 'const/0/[1 2 3 4]': Node name contains invalid characters");
  TF_DeleteImportGraphDefOptions(import);
  TF_DeleteGraph(copy);
  TF_DeleteBuffer(def);
}

TEST_F(Build, WrongNumberOfInputs) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "Add", "add");
  TF_AddInput(desc, {x_, 0});
  // TensorFlow 2.21's NodeDefBuilder counts the input args first.
  EXPECT_THAT(Refused(desc, TF_INVALID_ARGUMENT),
              StartsWith("1 inputs specified of 2 inputs in Op while building NodeDef 'add' "
                         "using Op<name=Add;"));
}

TEST_F(Build, InconsistentInputTypes) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "Add", "add");
  TF_AddInput(desc, {x_, 0});
  TF_AddInput(desc, {i_, 0});
  EXPECT_THAT(Refused(desc, TF_INVALID_ARGUMENT),
              StartsWith("Inconsistent values for attr 'T' DT_FLOAT vs. DT_INT32 while "
                         "building NodeDef 'add' using Op<name=Add;"));
}

TEST_F(Build, SingleTensorForAListAndTheReverse) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "AddN", "n");
  TF_AddInput(desc, {x_, 0});
  EXPECT_THAT(Refused(desc, TF_INVALID_ARGUMENT),
              StartsWith("Single tensor passed to 'inputs', expected list while building "
                         "NodeDef 'n' using Op<name=AddN;"));
  desc = TF_NewOperation(g_, "Relu", "r");
  TF_Output one[] = {{x_, 0}};
  TF_AddInputList(desc, one, 1);
  EXPECT_THAT(Refused(desc, TF_INVALID_ARGUMENT),
              StartsWith("List provided to input 'features' when single Tensor expected"));
}

TEST_F(Build, MissingAttr) {
  EXPECT_THAT(Refused(TF_NewOperation(g_, "Placeholder", "p"), TF_INVALID_ARGUMENT),
              HasSubstr("dtype"));
}

TEST_F(Build, ShapeFunctionErrorsLeaveNoOperation) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "MatMul", "m");
  TF_AddInput(desc, {x_, 0});  // [2,3] x [2,3]
  TF_AddInput(desc, {x_, 0});
  Refused(desc, TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_GraphOperationByName(g_, "m"), nullptr);
  // The name is free again.
  desc = TF_NewOperation(g_, "MatMul", "m");
  TF_AddInput(desc, {x_, 0});
  TF_AddInput(desc, {x_, 0});
  TF_SetAttrBool(desc, "transpose_b", 1);
  Status s;
  EXPECT_NE(TF_FinishOperation(desc, s), nullptr);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
}

TEST_F(Build, ShapeAttrsOfRankAbove254AreRefused) {
  // TensorFlow's TF_SetAttrShape fails a CHECK on them; Rill reports TFE_OpSetAttrShape's text
  // from TF_FinishOperation (the setter has no status), and the proto setters at once.
  std::vector<int64_t> dims(300, 1);
  TF_OperationDescription* desc = TF_NewOperation(g_, "Placeholder", "p");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShape(desc, "shape", dims.data(), 300);
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT),
            "Value specified for `shape` has 300 dimensions which is over the limit of 254.");
  const int64_t* lists[] = {dims.data(), dims.data()};
  const int ranks[] = {2, 255};
  desc = TF_NewOperation(g_, "Placeholder", "p");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShapeList(desc, "_shapes", lists, ranks, 2);
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT),
            "Value specified for `_shapes` has 255 dimensions which is over the limit of 254.");
  rill::TensorShapeProto proto;
  for (int i = 0; i < 300; ++i) proto.add_dim()->set_size(1);
  const std::string bytes = proto.SerializeAsString();
  desc = TF_NewOperation(g_, "Placeholder", "p");
  Status s;
  TF_SetAttrTensorShapeProto(desc, "shape", bytes.data(), bytes.size(), s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Value specified for `shape` has 300 dimensions which is over the limit of 254.");
  // Rank 254 is TensorFlow's limit and allowed.
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShape(desc, "shape", dims.data(), 254);
  EXPECT_NE(TF_FinishOperation(desc, s), nullptr);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
}

TEST_F(Build, BadInputs) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "Relu", "r");
  TF_AddInput(desc, {x_, 3});
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT),
            "Attempt to add output 3 of x not in range [0, 1) to node with type Relu. Node: "
            "{{node x}}");
  desc = TF_NewOperation(g_, "Relu", "r");
  TF_AddInput(desc, {nullptr, 0});
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT), "Node 'r': an input is null");
  desc = TF_NewOperation(g_, "NoOp", "n");
  TF_AddControlInput(desc, nullptr);
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT), "A control input is null");

  TF_Graph* other = TF_NewGraph();
  TF_Operation* elsewhere = rill_c_test::Placeholder(other, "elsewhere");
  desc = TF_NewOperation(g_, "Relu", "r");
  TF_AddInput(desc, {elsewhere, 0});
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT),
            "Node 'r': input node elsewhere is not in this graph");
  TF_DeleteGraph(other);
}

TEST_F(Build, NullArgumentsNeverCrash) {
  Status s;
  EXPECT_EQ(TF_FinishOperation(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_OperationDescription* desc = TF_NewOperation(nullptr, "NoOp", "n");
  EXPECT_EQ(TF_FinishOperation(desc, s), nullptr);
  EXPECT_EQ(s.message(), "The graph is null");
  desc = TF_NewOperation(g_, nullptr, nullptr);
  TF_SetAttrInt(desc, nullptr, 3);
  TF_AddInputList(desc, nullptr, 2);
  EXPECT_EQ(Refused(desc, TF_INVALID_ARGUMENT), "The op type or the operation name is null");
  TF_SetAttrInt(nullptr, "a", 1);
  TF_AddInput(nullptr, {x_, 0});
  TF_SetDevice(nullptr, "x");
}

}  // namespace
