// TF_NewWhile / TF_FinishWhile / TF_AbortWhile: loops built in their own cond and body graphs,
// added to the parent graph and run.
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

TF_Operation* Binary(TF_Graph* g, const char* op, const char* name, TF_Output a, TF_Output b) {
  TF_OperationDescription* desc = TF_NewOperation(g, op, name);
  TF_AddInput(desc, a);
  TF_AddInput(desc, b);
  Status s;
  TF_Operation* result = TF_FinishOperation(desc, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  return result;
}

TF_Operation* Int32Const(TF_Graph* g, const char* name, int32_t value) {
  TF_Tensor* t = rill_c_test::Int32Tensor({}, {value});
  TF_Operation* op = rill_c_test::Const(g, name, t);
  TF_DeleteTensor(t);
  return op;
}

// while i < 10: i += 1, s *= 2; from i = 0, s = x.
TEST(WhileLoop, CountsAndDoubles) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = Int32Const(g, "i0", 0);
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Output inputs[] = {{i0, 0}, {x, 0}};
  Status s;
  TF_WhileParams params = TF_NewWhile(g, inputs, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_EQ(params.ninputs, 2);
  EXPECT_EQ(TF_OperationOutputType(params.cond_inputs[0]), TF_INT32);
  EXPECT_EQ(TF_OperationOutputType(params.body_inputs[1]), TF_FLOAT);

  TF_Operation* ten = Int32Const(params.cond_graph, "ten", 10);
  params.cond_output = {Binary(params.cond_graph, "Less", "less", params.cond_inputs[0], {ten, 0}),
                        0};
  TF_Operation* one = Int32Const(params.body_graph, "one", 1);
  TF_Operation* two = rill_c_test::ScalarConst(params.body_graph, "two", 2.f);
  params.body_outputs[0] = {
      Binary(params.body_graph, "AddV2", "next_i", params.body_inputs[0], {one, 0}), 0};
  params.body_outputs[1] = {
      Binary(params.body_graph, "Mul", "next_s", params.body_inputs[1], {two, 0}), 0};
  params.name = "loop";
  TF_Output outputs[2];
  TF_FinishWhile(&params, s, outputs);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_STREQ(TF_OperationName(outputs[0].oper), "loop");
  EXPECT_EQ(TF_OperationOutputType(outputs[1]), TF_FLOAT);
  EXPECT_EQ(TF_GraphNumFunctions(g), 2);

  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(g, opts, s);
  TF_Tensor* three = rill_c_test::FloatTensor({}, {3});
  TF_Output feed{x, 0};
  TF_Tensor* out[2] = {nullptr, nullptr};
  TF_SessionRun(session, nullptr, &feed, &three, 1, outputs, out, 2, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(out[0]))[0], 10);
  EXPECT_EQ(rill_c_test::FloatValues(out[1]), (std::vector<float>{3072}));  // 3 * 2^10
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
  TF_DeleteTensor(three);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
}

TEST(WhileLoop, AbortAndErrors) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = Int32Const(g, "i0", 0);
  TF_Output inputs[] = {{i0, 0}};
  Status s;
  TF_WhileParams aborted = TF_NewWhile(g, inputs, 1, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_AbortWhile(&aborted);  // frees the cond and body graphs

  TF_WhileParams unnamed = TF_NewWhile(g, inputs, 1, s);
  TF_Output outputs[1];
  TF_FinishWhile(&unnamed, s, outputs);  // no name, no cond output
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "TF_WhileParams `name` field must be set");

  TF_WhileParams none = TF_NewWhile(g, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(none.cond_graph, nullptr);
  TF_AbortWhile(&none);
  TF_AbortWhile(nullptr);
  TF_DeleteGraph(g);
}

}  // namespace
