// GraphDefs written by TensorFlow, imported with TF_GraphImportGraphDef and run with
// TF_SessionRun, as a C API client that loads a frozen graph does.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

TF_Graph* ImportFile(const std::string& name) {
  std::ifstream in("c/testdata/tf_written/" + name + ".pb", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string data = bytes.str();
  EXPECT_FALSE(data.empty()) << name;
  TF_Buffer* buffer = TF_NewBufferFromString(data.data(), data.size());
  TF_Graph* g = TF_NewGraph();
  Status s;
  TF_GraphImportGraphDef(g, buffer, nullptr, s);
  EXPECT_EQ(s.code(), TF_OK) << name << ": " << s.message();
  TF_DeleteBuffer(buffer);
  return g;
}

// Runs `fetch` (feeding `feed_name` with `feed` when given) and returns the output tensor.
TF_Tensor* RunGraph(TF_Graph* g, const char* fetch, int index = 0, const char* feed_name = nullptr,
                    TF_Tensor* feed = nullptr) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  Status s;
  TF_Session* session = TF_NewSession(g, opts, s);
  TF_DeleteSessionOptions(opts);
  TF_Output in{TF_GraphOperationByName(g, feed_name == nullptr ? "" : feed_name), 0};
  TF_Output out{TF_GraphOperationByName(g, fetch), index};
  EXPECT_NE(out.oper, nullptr) << fetch;
  TF_Tensor* result = nullptr;
  TF_SessionRun(session, nullptr, &in, &feed, feed == nullptr ? 0 : 1, &out, &result, 1, nullptr, 0,
                nullptr, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteSession(session, s);
  return result;
}

TEST(TensorFlowWritten, MatMul) {
  TF_Graph* g = ImportFile("graph_matmul");
  TF_Tensor* out = RunGraph(g, "MatMul");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{22, 28, 49, 64}));
  TF_DeleteTensor(out);
  TF_DeleteGraph(g);
}

TEST(TensorFlowWritten, FrozenKerasDense) {
  TF_Graph* g = ImportFile("graph_frozen_keras");
  Status s;
  TF_Operation* features = TF_GraphOperationByName(g, "features");
  int64_t dims[2];
  TF_GraphGetTensorShape(g, {features, 0}, dims, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(dims[0], -1);
  EXPECT_EQ(dims[1], 3);
  TF_Tensor* x = rill_c_test::FloatTensor({2, 3}, {1, 2, 3, -4, 0, 0});
  TF_Tensor* out = RunGraph(g, "Identity", 0, "features", x);
  ASSERT_NE(out, nullptr);
  // relu(x . 0.5 + 0.25)
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{3.25, 3.25, 0, 0}));
  TF_DeleteTensor(out);
  TF_DeleteTensor(x);
  TF_DeleteGraph(g);
}

TEST(TensorFlowWritten, WhileLoopV1) {
  TF_Graph* g = ImportFile("graph_while_v1");
  TF_Tensor* out = RunGraph(g, "loop/Exit_1");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{32}));  // 1 doubled 5 times
  TF_DeleteTensor(out);
  out = RunGraph(g, "loop/Exit");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(out))[0], 5);
  TF_DeleteTensor(out);
  TF_DeleteGraph(g);
}

// StatelessIf: pred ? x * 2 : x - 1 with x = 3; StatelessWhile over (counter, max, i, s, c):
// while i < 5: i += 1, s += c, from s = c = the If's result.
TEST(TensorFlowWritten, FunctionalControlFlowV2) {
  TF_Graph* g = ImportFile("graph_control_flow_v2");
  EXPECT_EQ(TF_GraphNumFunctions(g), 4);
  TF_Tensor* pred = TF_AllocateTensor(TF_BOOL, nullptr, 0, 1);
  for (const bool p : {true, false}) {
    *static_cast<unsigned char*>(TF_TensorData(pred)) = p ? 1 : 0;
    const float c = p ? 6 : 2;
    TF_Tensor* out = RunGraph(g, "cond/Identity", 0, "pred", pred);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{c}));
    TF_DeleteTensor(out);
    out = RunGraph(g, "loop", 3, "pred", pred);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{6 * c}));
    TF_DeleteTensor(out);
    out = RunGraph(g, "loop", 2, "pred", pred);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(out))[0], 5);
    TF_DeleteTensor(out);
  }
  TF_DeleteTensor(pred);
  TF_DeleteGraph(g);
}

}  // namespace
