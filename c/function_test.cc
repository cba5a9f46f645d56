// TF_Function: FunctionDefs in and out, attrs, and copies into a graph's library that a session
// then runs.
#include <string>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/attr_value.pb.h"
#include "proto/function.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

// double(x) = x * 2, as TensorFlow writes function bodies.
constexpr char kDouble[] = R"pb(
  signature {
    name: "double"
    input_arg { name: "x" type: DT_FLOAT }
    output_arg { name: "y" type: DT_FLOAT }
  }
  node_def {
    name: "two"
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
          float_val: 2
        }
      }
    }
  }
  node_def {
    name: "mul"
    op: "Mul"
    input: "x"
    input: "two:output:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  ret { key: "y" value: "mul:z:0" }
)pb";

TF_Function* Double(TF_Status* s) {
  rill::FunctionDef fdef;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(kDouble, &fdef));
  const std::string bytes = fdef.SerializeAsString();
  return TF_FunctionImportFunctionDef(bytes.data(), bytes.size(), s);
}

TEST(Function, ImportExportNameAndAttrs) {
  Status s;
  TF_Function* f = Double(s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_STREQ(TF_FunctionName(f), "double");
  TF_Buffer* out = TF_NewBuffer();
  TF_FunctionToFunctionDef(f, out, s);
  rill::FunctionDef back;
  ASSERT_TRUE(back.ParseFromArray(out->data, static_cast<int>(out->length)));
  EXPECT_EQ(back.node_def_size(), 2);
  rill::AttrValue v;
  v.set_b(true);
  const std::string bytes = v.SerializeAsString();
  TF_FunctionSetAttrValueProto(f, "_noinline", bytes.data(), bytes.size(), s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_FunctionGetAttrValueProto(f, "_noinline", out, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::AttrValue got;
  ASSERT_TRUE(got.ParseFromArray(out->data, static_cast<int>(out->length)));
  EXPECT_TRUE(got.b());
  TF_FunctionGetAttrValueProto(f, "nope", out, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Function 'double' has no attr named 'nope'.");
  TF_DeleteBuffer(out);
  TF_DeleteFunction(f);
  TF_DeleteFunction(nullptr);

  EXPECT_EQ(TF_FunctionImportFunctionDef("\xff\xff", 2, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Invalid FunctionDef given to TF_FunctionImportFunctionDef");
}

TEST(Function, CopiedIntoAGraphAndCalledThroughAnImport) {
  Status s;
  TF_Function* f = Double(s);
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, f, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_GraphCopyFunction(g, f, nullptr, s);  // the same function again: no change
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_GraphNumFunctions(g), 1);
  TF_Function* listed[2] = {nullptr, nullptr};
  EXPECT_EQ(TF_GraphGetFunctions(g, listed, 2, s), 1);
  EXPECT_STREQ(TF_FunctionName(listed[0]), "double");
  TF_DeleteFunction(listed[0]);

  // A different function under the same name is refused.
  rill::FunctionDef other;
  other.mutable_signature()->set_name("double");
  const std::string bytes = other.SerializeAsString();
  TF_Function* clash = TF_FunctionImportFunctionDef(bytes.data(), bytes.size(), s);
  TF_GraphCopyFunction(g, clash, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Cannot add function 'double' because a different function with the same name "
            "already exists.");
  TF_DeleteFunction(clash);
  // A function named like an op is refused: a call by that name would run the op.
  rill::FunctionDef like_op;
  like_op.mutable_signature()->set_name("MatMul");
  const std::string like_op_bytes = like_op.SerializeAsString();
  TF_Function* op_named =
      TF_FunctionImportFunctionDef(like_op_bytes.data(), like_op_bytes.size(), s);
  TF_GraphCopyFunction(g, op_named, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Cannot add function 'MatMul' because an op with the same name already exists.");
  EXPECT_EQ(TF_GraphNumFunctions(g), 1);
  TF_DeleteFunction(op_named);
  TF_GraphCopyFunction(g, nullptr, nullptr, s);
  EXPECT_EQ(s.message(), "'func' argument to TF_GraphCopyFunction cannot be null");

  // A GraphDef that calls the function by its name imports into the graph and runs.
  TF_Buffer* def = rill_c_test::GraphDefBuffer(R"pb(
    node {
      name: "c"
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
            float_val: 21
          }
        }
      }
    }
    node { name: "call" op: "double" input: "c" }
  )pb");
  TF_GraphImportGraphDef(g, def, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteBuffer(def);
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(g, opts, s);
  TF_Output fetch{TF_GraphOperationByName(g, "call"), 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{42}));
  TF_DeleteTensor(out);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
}

// Runs `fetch` of `g` in a new session and returns its float values.
std::vector<float> RunFloat(TF_Graph* g, TF_Output fetch, TF_Output feed = {nullptr, 0},
                            TF_Tensor* value = nullptr) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  Status s;
  TF_Session* session = TF_NewSession(g, opts, s);
  TF_DeleteSessionOptions(opts);
  TF_Tensor* out = nullptr;
  TF_SessionRun(session, nullptr, &feed, &value, value == nullptr ? 0 : 1, &fetch, &out, 1, nullptr,
                0, nullptr, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  std::vector<float> result;
  if (out != nullptr) result = rill_c_test::FloatValues(out);
  TF_DeleteTensor(out);
  TF_DeleteSession(session, s);
  return result;
}

TEST(Function, ImportedCallThatNothingReadsHasItsToutOutputs) {
  // A SavedModel's serving signature: a StatefulPartitionedCall whose outputs a session fetches
  // and no node reads (BART's TF2 models ask TF_GraphGetTensorNumDims of its output 4).
  // TensorFlow gives it one output per Tout entry; Rill had none ("has 0 outputs").
  Status s;
  TF_Function* f = Double(s);
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, f, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Buffer* def = rill_c_test::GraphDefBuffer(R"pb(
    node {
      name: "c"
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
            float_val: 21
          }
        }
      }
    }
    node {
      name: "call"
      op: "StatefulPartitionedCall"
      input: "c"
      attr {
        key: "Tin"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "Tout"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "f"
        value { func { name: "double" } }
      }
      attr {
        key: "_output_shapes"
        value { list { shape {} } }
      }
    }
  )pb");
  TF_GraphImportGraphDef(g, def, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteBuffer(def);
  TF_Operation* call = TF_GraphOperationByName(g, "call");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(TF_OperationNumOutputs(call), 1);
  EXPECT_EQ(TF_OperationOutputType({call, 0}), TF_FLOAT);
  EXPECT_EQ(TF_OperationOutputListLength(call, "output", s), 1);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationInputListLength(call, "args", s), 1);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationInputListLength(call, "input", s), -1);
  EXPECT_EQ(s.message(), "Input arg 'input' not found");    // TensorFlow's text
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {call, 0}, s), 0);  // its _output_shapes
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {call, 1}, s), -1);
  EXPECT_EQ(s.code(), TF_OUT_OF_RANGE);
  EXPECT_EQ(s.message(), "Node 'call' has 1 outputs; output 1 does not exist");
  EXPECT_EQ(RunFloat(g, {call, 0}), (std::vector<float>{42}));
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
}

TEST(Function, CallsBuiltWithTFNewOperation) {
  Status s;
  TF_Function* f = Double(s);
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, f, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");

  // The function's name as the op type; its signature checks the inputs.
  TF_OperationDescription* desc = TF_NewOperation(g, "double", "call");
  TF_AddInput(desc, {x, 0});
  TF_Operation* call = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationNumOutputs(call), 1);
  EXPECT_EQ(TF_OperationOutputType({call, 0}), TF_FLOAT);
  desc = TF_NewOperation(g, "double", "bad_call");
  TF_AddInput(desc, {x, 0});
  TF_AddInput(desc, {x, 0});
  EXPECT_EQ(TF_FinishOperation(desc, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s.message(),
              ::testing::HasSubstr("2 inputs specified of 1 inputs in Op while building NodeDef "
                                   "'bad_call'"));

  // PartitionedCall with f, Tout; Tin inferred from the inputs.
  desc = TF_NewOperation(g, "PartitionedCall", "pcall");
  TF_Output args[] = {{call, 0}};
  TF_AddInputList(desc, args, 1);
  const TF_DataType tout[] = {TF_FLOAT};
  TF_SetAttrTypeList(desc, "Tout", tout, 1);
  TF_SetAttrFuncName(desc, "f", "double", 6);
  TF_Operation* pcall = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationNumOutputs(pcall), 1);
  TF_Operation* plus = rill_c_test::Add(g, "plus", {pcall, 0}, {x, 0});

  TF_Tensor* three = rill_c_test::FloatTensor({}, {3});
  EXPECT_EQ(RunFloat(g, {call, 0}, {x, 0}, three), (std::vector<float>{6}));
  EXPECT_EQ(RunFloat(g, {plus, 0}, {x, 0}, three), (std::vector<float>{15}));  // 3*2*2 + 3
  TF_DeleteTensor(three);

  // A functional op without its output types is refused.
  desc = TF_NewOperation(g, "PartitionedCall", "no_tout");
  TF_AddInputList(desc, args, 1);
  TF_SetAttrFuncName(desc, "f", "double", 6);
  EXPECT_EQ(TF_FinishOperation(desc, s), nullptr);
  EXPECT_EQ(s.message(), "Node 'no_tout' (PartitionedCall) has no attr 'Tout'");
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
}

TEST(Function, StatelessIfBuiltWithTFNewOperation) {
  Status s;
  TF_Function* f = Double(s);
  rill::FunctionDef same;
  same.mutable_signature()->set_name("same");
  auto* in = same.mutable_signature()->add_input_arg();
  in->set_name("x");
  in->set_type(rill::DT_FLOAT);
  auto* out = same.mutable_signature()->add_output_arg();
  out->set_name("y");
  out->set_type(rill::DT_FLOAT);
  (*same.mutable_ret())["y"] = "x";
  const std::string bytes = same.SerializeAsString();
  TF_Function* identity = TF_FunctionImportFunctionDef(bytes.data(), bytes.size(), s);
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, f, nullptr, s);
  TF_GraphCopyFunction(g, identity, nullptr, s);
  TF_Operation* pred = rill_c_test::Placeholder(g, "pred", TF_BOOL);
  TF_Operation* five = rill_c_test::ScalarConst(g, "five", 5.f);
  TF_OperationDescription* desc = TF_NewOperation(g, "StatelessIf", "if");
  TF_AddInput(desc, {pred, 0});
  TF_Output ins[] = {{five, 0}};
  TF_AddInputList(desc, ins, 1);
  const TF_DataType tout[] = {TF_FLOAT};
  TF_SetAttrTypeList(desc, "Tout", tout, 1);
  TF_SetAttrFuncName(desc, "then_branch", "double", 6);
  TF_SetAttrFuncName(desc, "else_branch", "same", 4);
  TF_Operation* branch = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* result = rill_c_test::Add(g, "result", {branch, 0}, {five, 0});
  for (const bool p : {true, false}) {
    TF_Tensor* value = TF_AllocateTensor(TF_BOOL, nullptr, 0, 1);
    *static_cast<unsigned char*>(TF_TensorData(value)) = p;
    EXPECT_EQ(RunFloat(g, {result, 0}, {pred, 0}, value), (std::vector<float>{p ? 15.f : 10.f}));
    TF_DeleteTensor(value);
  }
  TF_DeleteFunction(f);
  TF_DeleteFunction(identity);
  TF_DeleteGraph(g);
}

}  // namespace
