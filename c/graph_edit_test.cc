// TF_UpdateEdge and TF_TryEvaluateConstant.
#include <string>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/rill_extensions.h"

namespace {

using rill_c_test::Status;

TEST(UpdateEdge, RewiresAnInputAndItsShape) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = rill_c_test::Placeholder(g, "a", TF_FLOAT, {2}, true);
  TF_Operation* b = rill_c_test::Placeholder(g, "b", TF_FLOAT, {3}, true);
  TF_Operation* i = rill_c_test::Placeholder(g, "i", TF_INT32);
  TF_OperationDescription* desc = TF_NewOperation(g, "Relu", "r");
  TF_AddInput(desc, {a, 0});
  Status s;
  TF_Operation* r = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  int64_t dim = 0;
  TF_GraphGetTensorShape(g, {r, 0}, &dim, 1, s);
  EXPECT_EQ(dim, 2);

  TF_UpdateEdge(g, {b, 0}, {r, 0}, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationInput({r, 0}).oper, b);
  EXPECT_EQ(TF_OperationOutputNumConsumers({a, 0}), 0);
  TF_GraphGetTensorShape(g, {r, 0}, &dim, 1, s);
  EXPECT_EQ(dim, 3);

  TF_UpdateEdge(g, {i, 0}, {r, 0}, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Input 0 of node r was passed int32 from i:0 incompatible with "
            "expected float.");
  EXPECT_EQ(TF_OperationInput({r, 0}).oper, b);  // unchanged
  TF_UpdateEdge(g, {b, 0}, {r, 4}, s);
  EXPECT_EQ(s.message(), "Node 'r' has no input 4 to update");
  TF_UpdateEdge(nullptr, {b, 0}, {r, 0}, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

TEST(TryEvaluateConstant, EvaluatesConstantSubgraphsOnly) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* two = rill_c_test::ScalarConst(g, "two", 2.f);
  TF_Operation* three = rill_c_test::ScalarConst(g, "three", 3.f);
  TF_Operation* sum = rill_c_test::Add(g, "sum", {two, 0}, {three, 0});
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* fed = rill_c_test::Add(g, "fed", {x, 0}, {sum, 0});
  Status s;
  TF_Tensor* result = nullptr;
  EXPECT_EQ(TF_TryEvaluateConstant(g, {sum, 0}, &result, s), 1);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(result), (std::vector<float>{5}));
  TF_DeleteTensor(result);
  EXPECT_EQ(TF_TryEvaluateConstant(g, {fed, 0}, &result, s), 0);
  EXPECT_EQ(s.code(), TF_OK);
  EXPECT_EQ(result, nullptr);
  EXPECT_EQ(TF_TryEvaluateConstant(g, {sum, 5}, &result, s), 0);
  EXPECT_EQ(s.code(), TF_OUT_OF_RANGE);
  TF_DeleteGraph(g);
}

TEST(SetOperationDevice, SetsAndValidatesTheRequestedDevice) {
  Status s;
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  RILL_SetOperationDevice(g, x, "/gpu:1", s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(std::string(TF_OperationDevice(x)), "/gpu:1");
  RILL_SetOperationDevice(g, x, "/gpu:banana", s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("Node 'x'"), std::string::npos) << s.message();
  EXPECT_EQ(std::string(TF_OperationDevice(x)), "/gpu:1");  // unchanged
  RILL_SetOperationDevice(g, x, "", s);
  EXPECT_EQ(s.code(), TF_OK);
  EXPECT_EQ(std::string(TF_OperationDevice(x)), "");
  RILL_SetOperationDevice(nullptr, x, "", s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

}  // namespace
