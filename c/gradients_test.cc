// TF_AddGradients, TF_AddGradientsWithPrefix and RILL_AddGradientsWithOptions on graphs built
// through the C API: values from a session, names, and the errors.
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/rill_extensions.h"

namespace {

using rill_c_test::Status;

TF_Operation* Unary(TF_Graph* g, const char* op, const char* name, TF_Output x) {
  Status s;
  TF_OperationDescription* d = TF_NewOperation(g, op, name);
  TF_AddInput(d, x);
  TF_Operation* result = TF_FinishOperation(d, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  return result;
}

// Runs `fetch` with x fed `x_value`.
std::vector<float> RunFed(TF_Graph* g, TF_Output x, const std::vector<float>& x_value,
                          TF_Output fetch) {
  Status s;
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(g, opts, s);
  TF_DeleteSessionOptions(opts);
  TF_Tensor* in = rill_c_test::FloatTensor({static_cast<int64_t>(x_value.size())}, x_value);
  TF_Tensor* out = nullptr;
  TF_SessionRun(session, nullptr, &x, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  std::vector<float> values = out == nullptr ? std::vector<float>{} : rill_c_test::FloatValues(out);
  TF_DeleteTensor(in);
  if (out != nullptr) TF_DeleteTensor(out);
  TF_CloseSession(session, s);
  TF_DeleteSession(session, s);
  return values;
}

TEST(AddGradients, SquareGivesTwoXUnderGradients) {
  Status s;
  TF_Graph* g = TF_NewGraph();
  TF_Output x{rill_c_test::Placeholder(g, "x"), 0};
  TF_Output y{Unary(g, "Square", "y", x), 0};
  TF_Output dy{};
  TF_AddGradients(g, &y, 1, &x, 1, nullptr, s, &dy);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_NE(dy.oper, nullptr);
  EXPECT_EQ(std::string(TF_OperationName(dy.oper)).rfind("gradients/y_grad/", 0), 0u)
      << TF_OperationName(dy.oper);
  EXPECT_EQ(RunFed(g, x, {1, -2, 3}, dy), (std::vector<float>{2, -4, 6}));
  // A second call gets its own name scope.
  TF_Output dy2{};
  TF_AddGradients(g, &y, 1, &x, 1, nullptr, s, &dy2);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(std::string(TF_OperationName(dy2.oper)).rfind("gradients_1/", 0), 0u)
      << TF_OperationName(dy2.oper);
  TF_DeleteGraph(g);
}

TEST(AddGradients, PrefixAndGivenDx) {
  Status s;
  TF_Graph* g = TF_NewGraph();
  TF_Output x{rill_c_test::Placeholder(g, "x"), 0};
  TF_Output y{Unary(g, "Square", "y", x), 0};
  TF_Tensor* dx_value = rill_c_test::FloatTensor({3}, {1, 10, 100});
  TF_Output dx{rill_c_test::Const(g, "dx", dx_value), 0};
  TF_DeleteTensor(dx_value);
  TF_Output dy{};
  TF_AddGradientsWithPrefix(g, "mygrads", &y, 1, &x, 1, &dx, s, &dy);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(std::string(TF_OperationName(dy.oper)).rfind("mygrads/", 0), 0u);
  EXPECT_EQ(RunFed(g, x, {1, 2, 3}, dy), (std::vector<float>{2, 40, 600}));
  TF_AddGradientsWithPrefix(g, "y", &y, 1, &x, 1, nullptr, s, &dy);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "prefix [y] conflicts with existing node in the graph named [y]");
  TF_DeleteGraph(g);
}

TEST(AddGradients, OptionsAndErrors) {
  Status s;
  TF_Graph* g = TF_NewGraph();
  TF_Output x{rill_c_test::Placeholder(g, "x"), 0};
  TF_Output z{rill_c_test::Placeholder(g, "z"), 0};
  TF_Output y{Unary(g, "Square", "y", x), 0};
  TF_Output xs[2] = {x, z};
  TF_Output dys[2];
  RILL_AddGradientsWithOptions(g, nullptr, &y, 1, xs, 2, nullptr, nullptr, 0, 0, 0, 0, s, dys);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_NE(dys[0].oper, nullptr);
  EXPECT_EQ(dys[1].oper, nullptr);  // unconnected: None
  // Stopping y's gradient at y leaves x unconnected: zeros when asked.
  RILL_AddGradientsWithOptions(g, nullptr, &y, 1, &x, 1, nullptr, &y, 1, 0, 1, 0, s, dys);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(RunFed(g, x, {4, 5}, dys[0]), (std::vector<float>{0, 0}));
  // An op without a gradient function (TensorFlow has none for ResizeArea either).
  TF_Operation* images = rill_c_test::Placeholder(g, "images");
  TF_OperationDescription* d = TF_NewOperation(g, "ResizeArea", "area");
  TF_AddInput(d, TF_Output{images, 0});
  TF_Tensor* size_value = rill_c_test::Int32Tensor({2}, {2, 2});
  TF_AddInput(d, TF_Output{rill_c_test::Const(g, "size", size_value), 0});
  TF_DeleteTensor(size_value);
  TF_Output area{TF_FinishOperation(d, s), 0};
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Output image_input{images, 0};
  const int before = [&] {
    size_t pos = 0;
    int n = 0;
    while (TF_GraphNextOperation(g, &pos) != nullptr) ++n;
    return n;
  }();
  TF_AddGradients(g, &area, 1, &image_input, 1, nullptr, s, dys);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_NE(s.message().find("No gradient defined for op: ResizeArea (node 'area')"),
            std::string::npos)
      << s.message();
  size_t pos = 0;
  int after = 0;
  while (TF_GraphNextOperation(g, &pos) != nullptr) ++after;
  EXPECT_EQ(after, before);  // the graph is unchanged
  TF_DeleteGraph(g);
}

}  // namespace
