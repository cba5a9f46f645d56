// TF_GraphToFunction: FunctionDefs made from a graph's operations, then copied into another graph,
// called with TF_NewOperation and run.
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/function.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;
using ::testing::StartsWith;

rill::FunctionDef ToFunctionDef(TF_Function* f) {
  TF_Buffer* buffer = TF_NewBuffer();
  Status s;
  TF_FunctionToFunctionDef(f, buffer, s);
  rill::FunctionDef fdef;
  EXPECT_TRUE(fdef.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  TF_DeleteBuffer(buffer);
  return fdef;
}

// body: neg = -(Feed_1 + y), plus a ConcatV2 over a list to reach an output of a list argument.
class GraphToFunction : public ::testing::Test {
 protected:
  void SetUp() override {
    body_ = TF_NewGraph();
    x_ = rill_c_test::Placeholder(body_, "Feed_1");
    y_ = rill_c_test::Placeholder(body_, "y");
    add_ = rill_c_test::Add(body_, "add", {x_, 0}, {y_, 0});
    TF_OperationDescription* desc = TF_NewOperation(body_, "Neg", "neg");
    TF_AddInput(desc, {add_, 0});
    Status s;
    neg_ = TF_FinishOperation(desc, s);
    EXPECT_EQ(s.code(), TF_OK) << s.message();
  }
  void TearDown() override { TF_DeleteGraph(body_); }

  TF_Graph* body_;
  TF_Operation *x_, *y_, *add_, *neg_;
};

TEST_F(GraphToFunction, WholeGraphRunsAsACall) {
  Status s;
  TF_Output inputs[] = {{x_, 0}, {y_, 0}};
  TF_Output outputs[] = {{neg_, 0}};
  TF_Function* f = TF_GraphToFunction(body_, "negsum", 0, -1, nullptr, 2, inputs, 1, outputs,
                                      nullptr, nullptr, "minus the sum", s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_STREQ(TF_FunctionName(f), "negsum");
  rill::FunctionDef fdef = ToFunctionDef(f);
  ASSERT_EQ(fdef.signature().input_arg_size(), 2);
  EXPECT_EQ(fdef.signature().input_arg(0).name(), "feed_1");
  EXPECT_EQ(fdef.signature().input_arg(1).name(), "y");
  EXPECT_EQ(fdef.signature().description(), "minus the sum");
  ASSERT_EQ(fdef.node_def_size(), 2);
  EXPECT_EQ(fdef.node_def(0).input(0), "feed_1");
  EXPECT_EQ(fdef.node_def(1).input(0), "add:z:0");
  EXPECT_EQ(fdef.ret().at("neg"), "neg:y:0");

  // Copied into another graph and called by name.
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, f, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* a = rill_c_test::ScalarConst(g, "a", 2.f);
  TF_Operation* b = rill_c_test::ScalarConst(g, "b", 5.f);
  TF_OperationDescription* desc = TF_NewOperation(g, "negsum", "call");
  TF_AddInput(desc, {a, 0});
  TF_AddInput(desc, {b, 0});
  TF_Operation* call = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(g, opts, s);
  TF_Output fetch{call, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{-7}));
  TF_DeleteTensor(out);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteFunction(f);
}

TEST_F(GraphToFunction, ExplicitBodyNamesHashAndControlOutputs) {
  Status s;
  TF_Output inputs[] = {{add_, 0}};
  TF_Output outputs[] = {{neg_, 0}, {add_, 0}};
  const TF_Operation* body[] = {neg_};
  const char* names[] = {"negated", "sum"};
  const TF_Operation* controls[] = {neg_};
  const char* control_names[] = {"done"};
  TF_Function* f =
      TF_GraphToFunctionWithControlOutputs(body_, "part", 1, 1, body, 1, inputs, 2, outputs, names,
                                           1, controls, control_names, nullptr, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_THAT(TF_FunctionName(f), StartsWith("part_"));
  rill::FunctionDef fdef = ToFunctionDef(f);
  EXPECT_EQ(fdef.ret().at("negated"), "neg:y:0");
  EXPECT_EQ(fdef.ret().at("sum"), "add");  // an output that is an input
  EXPECT_EQ(fdef.control_ret().at("done"), "neg");
  // The same definition hashes to the same name.
  TF_Function* again =
      TF_GraphToFunctionWithControlOutputs(body_, "part", 1, 1, body, 1, inputs, 2, outputs, names,
                                           1, controls, control_names, nullptr, nullptr, s);
  EXPECT_STREQ(TF_FunctionName(again), TF_FunctionName(f));
  TF_DeleteFunction(again);
  TF_DeleteFunction(f);
}

TEST_F(GraphToFunction, Errors) {
  Status s;
  TF_Output outputs[] = {{neg_, 0}};
  // `y` is neither an input nor in the body.
  TF_Output only_x[] = {{x_, 0}};
  const TF_Operation* body[] = {add_, neg_};
  EXPECT_EQ(TF_GraphToFunction(body_, "f", 0, 2, body, 1, only_x, 1, outputs, nullptr, nullptr,
                               nullptr, s),
            nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "The tensor y:0 is neither produced in the function's body nor one of its inputs");
  TF_Output twice[] = {{x_, 0}, {x_, 0}};
  EXPECT_EQ(TF_GraphToFunction(body_, "f", 0, -1, nullptr, 2, twice, 1, outputs, nullptr, nullptr,
                               nullptr, s),
            nullptr);
  EXPECT_EQ(s.message(), "TF_Output Feed_1:0 appears more than once in the input list");
  EXPECT_EQ(TF_GraphToFunction(nullptr, "f", 0, -1, nullptr, 0, nullptr, 0, nullptr, nullptr,
                               nullptr, nullptr, s),
            nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
}

}  // namespace
