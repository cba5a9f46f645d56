// The eager API's context options, contexts, device lists, tensor handles (sharing their
// tensors' buffers) and library functions.
#include <cstring>
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "tensorflow/c/eager/c_api.h"

namespace {

using rill_c_test::FloatTensor;
using rill_c_test::Status;
using ::testing::HasSubstr;

TFE_Context* NewContext() {
  Status s;
  TFE_ContextOptions* opts = TFE_NewContextOptions();
  TFE_ContextOptionsSetAsync(opts, 1);
  TFE_ContextOptionsSetDevicePlacementPolicy(opts, TFE_DEVICE_PLACEMENT_SILENT);
  TFE_Context* ctx = TFE_NewContext(opts, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TFE_DeleteContextOptions(opts);
  return ctx;
}

TEST(EagerContext, ListsTheCpuDevice) {
  TFE_Context* ctx = NewContext();
  Status s;
  TF_DeviceList* devices = TFE_ContextListDevices(ctx, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_GE(TF_DeviceListCount(devices), 1);
  EXPECT_STREQ(TF_DeviceListName(devices, 0, s), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_STREQ(TF_DeviceListType(devices, 0, s), "CPU");
  TF_DeleteDeviceList(devices);
  EXPECT_EQ(TFE_ContextGetDevicePlacementPolicy(ctx), TFE_DEVICE_PLACEMENT_SILENT);
  TFE_ContextSetThreadLocalDevicePlacementPolicy(ctx, TFE_DEVICE_PLACEMENT_EXPLICIT);
  EXPECT_EQ(TFE_ContextGetDevicePlacementPolicy(ctx), TFE_DEVICE_PLACEMENT_EXPLICIT);
  TFE_DeleteContext(ctx);
}

TEST(EagerContext, TakesAConfigAndRefusesOneThatDoesNotParse) {
  TFE_ContextOptions* opts = TFE_NewContextOptions();
  Status s;
  rill::ConfigProto config;
  config.set_intra_op_parallelism_threads(1);
  const std::string bytes = config.SerializeAsString();
  TFE_ContextOptionsSetConfig(opts, bytes.data(), bytes.size(), s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TFE_Context* ctx = TFE_NewContext(opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TFE_DeleteContext(ctx);

  TFE_ContextOptionsSetConfig(opts, "\xff\xff", 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TFE_DeleteContextOptions(opts);
}

TEST(EagerTensorHandle, SharesTheTensorsBuffer) {
  Status s;
  TF_Tensor* t = FloatTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TFE_TensorHandleDataType(h), TF_FLOAT);
  EXPECT_EQ(TFE_TensorHandleNumDims(h, s), 2);
  EXPECT_EQ(TFE_TensorHandleDim(h, 0, s), 2);
  EXPECT_EQ(TFE_TensorHandleDim(h, 1, s), 3);
  EXPECT_EQ(TFE_TensorHandleNumElements(h, s), 6);
  EXPECT_STREQ(TFE_TensorHandleDeviceName(h, s), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_STREQ(TFE_TensorHandleBackingDeviceName(h, s),
               "/job:localhost/replica:0/task:0/device:CPU:0");

  TFE_TensorHandleDim(h, 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Dimension index 2 is out of range for a tensor of rank 2");

  // The caller's tensor may go first: the handle holds the buffer.
  void* data = TF_TensorData(t);
  TF_DeleteTensor(t);
  TF_Tensor* resolved = TFE_TensorHandleResolve(h, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_TensorData(resolved), data);
  EXPECT_EQ(rill_c_test::FloatValues(resolved), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(TF_NumDims(resolved), 2);

  TFE_TensorHandle* copy = TFE_TensorHandleCopySharingTensor(h, s);
  TFE_DeleteTensorHandle(h);
  TF_Tensor* resolved_copy = TFE_TensorHandleResolve(copy, s);
  EXPECT_EQ(TF_TensorData(resolved_copy), data);
  TF_DeleteTensor(resolved_copy);
  TF_DeleteTensor(resolved);

  TFE_TensorDebugInfo* info = TFE_TensorHandleTensorDebugInfo(copy, s);
  EXPECT_EQ(TFE_TensorDebugInfoOnDeviceNumDims(info), 2);
  EXPECT_EQ(TFE_TensorDebugInfoOnDeviceDim(info, 1), 3);
  EXPECT_EQ(TFE_TensorDebugInfoOnDeviceDim(info, 2), -1);
  TFE_DeleteTensorDebugInfo(info);
  TFE_DeleteTensorHandle(copy);
}

TEST(EagerTensorHandle, CopiesToTheCpuOnly) {
  TFE_Context* ctx = NewContext();
  Status s;
  TF_Tensor* t = FloatTensor({1}, {7});
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  TFE_TensorHandle* cpu = TFE_TensorHandleCopyToDevice(h, ctx, "/device:CPU:0", s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Tensor* r = TFE_TensorHandleResolve(cpu, s);
  EXPECT_EQ(TF_TensorData(r), TF_TensorData(t));
  TF_DeleteTensor(r);
  EXPECT_EQ(TFE_TensorHandleCopyToDevice(h, ctx, "/device:GPU:0", s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s.message(), HasSubstr("'/device:GPU:0'"));
  TFE_DeleteTensorHandle(cpu);
  TFE_DeleteTensorHandle(h);
  TF_DeleteTensor(t);
  TFE_DeleteContext(ctx);
}

TEST(EagerTensorHandle, NullArgumentsAreErrors) {
  Status s;
  EXPECT_EQ(TFE_NewTensorHandle(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TFE_TensorHandleNumDims(nullptr, s), -1);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TFE_TensorHandleResolve(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TFE_TensorHandleDeviceName(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TFE_ContextListDevices(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(nullptr);
  TFE_DeleteContext(nullptr);
  TFE_DeleteContextOptions(nullptr);
  TFE_ContextClearCaches(nullptr);
}

TEST(EagerContext, AddsAndRemovesFunctions) {
  TFE_Context* ctx = NewContext();
  Status s;
  // A function of the graph x -> x + x.
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* sum = rill_c_test::Add(g, "sum", {x, 0}, {x, 0});
  TF_Output in{x, 0}, out{sum, 0};
  TF_Function* f = TF_GraphToFunction(g, "Double", 0, -1, nullptr, 1, &in, 1, &out, nullptr,
                                      nullptr, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TFE_ContextHasFunction(ctx, "Double"), 0);
  TFE_ContextAddFunction(ctx, f, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TFE_ContextHasFunction(ctx, "Double"), 1);
  // The same function again is fine; a different one of that name is refused.
  TFE_ContextAddFunction(ctx, f, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* product = rill_c_test::Add(g, "triple", {sum, 0}, {x, 0});
  TF_Output squared{product, 0};
  TF_Function* other = TF_GraphToFunction(g, "Double", 0, -1, nullptr, 1, &in, 1, &squared, nullptr,
                                          nullptr, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TFE_ContextAddFunction(ctx, other, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Cannot add function 'Double' because a different function with the same name already "
            "exists.");
  TF_DeleteFunction(other);
  TFE_ContextRemoveFunction(ctx, "Double", s);
  EXPECT_EQ(s.code(), TF_OK);
  EXPECT_EQ(TFE_ContextHasFunction(ctx, "Double"), 0);
  TFE_ContextRemoveFunction(ctx, "Double", s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Tried to remove non-existent function 'Double'.");
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
  TFE_DeleteContext(ctx);
}

}  // namespace
