// The served part of tensorflow/c/eager/c_api_experimental.h, with TensorFlow 2.21's results for
// the same calls (its pip library: context id 0, "/job:localhost/replica:0/task:0", a [3] float
// handle's pointer is its tensor's data and 12 bytes on "CPU" 0, a missing function NotFound, a
// null handle InvalidArgument "Invalid handle").
#include <string>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "proto/function.pb.h"
#include "tensorflow/c/eager/c_api_experimental.h"

namespace {

using rill_c_test::Status;

TFE_Context* NewContext() {
  Status s;
  TFE_ContextOptions* opts = TFE_NewContextOptions();
  TFE_ContextOptionsSetTfrt(opts, true);
  TFE_Context* ctx = TFE_NewContext(opts, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TFE_DeleteContextOptions(opts);
  return ctx;
}

TEST(EagerExperimental, ContextQueries) {
  TFE_Context* ctx = NewContext();
  EXPECT_EQ(TFE_GetContextId(ctx), 0u);
  Status s;
  TFE_ContextAsyncWait(ctx, s);
  EXPECT_EQ(s.code(), TF_OK);
  TF_Buffer* host = TF_NewBuffer();
  TFE_HostAddressSpace(ctx, host);
  EXPECT_EQ(std::string(static_cast<const char*>(host->data), host->length),
            "/job:localhost/replica:0/task:0");
  TF_DeleteBuffer(host);
  TFE_DeleteContext(ctx);
}

TEST(EagerExperimental, FunctionDefOfAnAddedFunction) {
  TFE_Context* ctx = NewContext();
  Status s;
  TF_Buffer* buf = TF_NewBuffer();
  TFE_ContextGetFunctionDef(ctx, "Double", buf, s);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_EQ(s.message(), "Unable to find FunctionDef with name: Double");
  EXPECT_EQ(buf->length, 0u);

  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* sum = rill_c_test::Add(g, "sum", {x, 0}, {x, 0});
  TF_Output in{x, 0}, result{sum, 0};
  TF_Function* f = TF_GraphToFunction(g, "Double", 0, -1, nullptr, 1, &in, 1, &result, nullptr,
                                      nullptr, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TFE_ContextAddFunction(ctx, f, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TFE_ContextGetFunctionDef(ctx, "Double", buf, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::FunctionDef def;
  ASSERT_TRUE(def.ParseFromArray(buf->data, static_cast<int>(buf->length)));
  EXPECT_EQ(def.signature().name(), "Double");
  EXPECT_EQ(def.signature().input_arg_size(), 1);
  TF_DeleteBuffer(buf);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
  TFE_DeleteContext(ctx);
}

TEST(EagerExperimental, HandleDeviceQueries) {
  Status s;
  TF_Tensor* t = rill_c_test::FloatTensor({3}, {1, 2, 3});
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TFE_TensorHandleDevicePointer(h, s), TF_TensorData(t));
  EXPECT_EQ(s.code(), TF_OK);
  EXPECT_EQ(TFE_TensorHandleDeviceMemorySize(h, s), 12u);
  EXPECT_EQ(std::string(TFE_TensorHandleDeviceType(h, s)), "CPU");
  EXPECT_EQ(TFE_TensorHandleDeviceID(h, s), 0);
  EXPECT_EQ(s.code(), TF_OK);

  EXPECT_EQ(TFE_TensorHandleDevicePointer(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Invalid handle");
  EXPECT_EQ(TFE_TensorHandleDeviceMemorySize(nullptr, s), 0u);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TFE_TensorHandleDeviceType(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TFE_TensorHandleDeviceID(nullptr, s), -1);
  EXPECT_EQ(s.message(), "Invalid handle");

  // A string handle has no fixed-size buffer to hand out.
  const int64_t dims[] = {1};
  TF_Tensor* strings = TF_AllocateTensor(TF_STRING, dims, 1, sizeof(TF_TString));
  TFE_TensorHandle* sh = TFE_NewTensorHandle(strings, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TFE_TensorHandleDevicePointer(sh, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(sh);
  TF_DeleteTensor(strings);
  TFE_DeleteTensorHandle(h);
  TF_DeleteTensor(t);
}

}  // namespace
