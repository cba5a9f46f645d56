// c_api_experimental.h: the configuration buffers parse as the protos they stand for and a
// session takes them, the XLA switches report what was set, debug strings, scalar handles and
// TF_OpIsStateful.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "tensorflow/c/c_api_experimental.h"

namespace {

using rill_c_test::Status;
using ::testing::HasSubstr;

TEST(Experimental, CreateConfigIsAConfigProtoASessionTakes) {
  TF_Buffer* buffer = TF_CreateConfig(/*enable_xla_compilation=*/1, /*gpu_memory_allow_growth=*/1,
                                      /*num_cpu_devices=*/2);
  rill::ConfigProto config;
  ASSERT_TRUE(config.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  EXPECT_EQ(config.graph_options().optimizer_options().global_jit_level(),
            rill::OptimizerOptions::ON_1);
  EXPECT_TRUE(config.gpu_options().allow_growth());
  EXPECT_EQ(config.device_count().at("CPU"), 2);

  TF_SessionOptions* opts = TF_NewSessionOptions();
  Status s;
  TF_SetConfig(opts, buffer->data, buffer->length, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_EnableXLACompilation(opts, 0);
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = rill_c_test::ScalarConst(g, "c", 3);
  TF_Session* session = TF_NewSession(g, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Output out{c, 0};
  TF_Tensor* value = nullptr;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &out, &value, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(*static_cast<float*>(TF_TensorData(value)), 3);
  TF_DeleteTensor(value);
  TF_DeleteSession(session, s);
  TF_DeleteGraph(g);
  TF_DeleteSessionOptions(opts);
  TF_DeleteBuffer(buffer);

  buffer = TF_CreateConfig(0, 0, 1);
  ASSERT_TRUE(config.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  EXPECT_EQ(config.graph_options().optimizer_options().global_jit_level(),
            rill::OptimizerOptions::OFF);
  EXPECT_FALSE(config.gpu_options().allow_growth());
  EXPECT_EQ(config.device_count().at("CPU"), 1);
  TF_DeleteBuffer(buffer);
}

TEST(Experimental, RunOptionsAndXlaSwitches) {
  TF_Buffer* buffer = TF_CreateRunOptions(1);
  rill::RunOptions options;
  ASSERT_TRUE(options.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  EXPECT_EQ(options.trace_level(), rill::RunOptions::FULL_TRACE);
  TF_DeleteBuffer(buffer);

  EXPECT_EQ(TF_SetXlaEnableLazyCompilation(0), 1);
  EXPECT_EQ(TF_SetXlaEnableLazyCompilation(1), 0);
  EXPECT_EQ(TF_SetTfXlaCpuGlobalJit(1), 0);
  EXPECT_EQ(TF_SetTfXlaCpuGlobalJit(0), 1);
  TF_SetXlaAutoJitMode("2");
  EXPECT_EQ(TF_GetXlaAutoJitEnabled(), 1);
  TF_SetXlaAutoJitMode("0");
  EXPECT_EQ(TF_GetXlaAutoJitEnabled(), 0);
  TF_SetXlaConstantFoldingDisabled(1);
  EXPECT_EQ(TF_GetXlaConstantFoldingDisabled(), 1);
  TF_SetXlaConstantFoldingDisabled(0);
  EXPECT_EQ(TF_GetXlaConstantFoldingDisabled(), 0);
  TF_SetXlaMinClusterSize(4);
}

TEST(Experimental, DebugStrings) {
  TF_Graph* g = TF_NewGraph();
  rill_c_test::ScalarConst(g, "the_constant", 1);
  size_t len = 0;
  const char* text = TF_GraphDebugString(g, &len);
  EXPECT_EQ(len, std::strlen(text));
  EXPECT_THAT(std::string(text), HasSubstr("name: \"the_constant\""));
  std::free(const_cast<char*>(text));
  TF_DeleteGraph(g);
  // An empty graph is its library and versions, as TensorFlow writes them (whose protobuf puts
  // a marker of random text first).
  g = TF_NewGraph();
  text = TF_GraphDebugString(g, &len);
  EXPECT_EQ(std::string(text), "library {\n}\nversions {\n  producer: 2474\n}\n");
  EXPECT_EQ(len, std::strlen(text));
  std::free(const_cast<char*>(text));
  TF_DeleteGraph(g);
}

TEST(Experimental, ScalarHandlesAndStatefulOps) {
  Status s;
  double v = 2.5;
  TFE_TensorHandle* h = TFE_NewTensorHandleFromScalar(TF_DOUBLE, &v, sizeof(v), s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TFE_TensorHandleNumDims(h, s), 0);
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  EXPECT_EQ(*static_cast<double*>(TF_TensorData(t)), 2.5);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(h);
  EXPECT_EQ(TFE_NewTensorHandleFromScalar(TF_DOUBLE, &v, 4, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "TFE_NewTensorHandleFromScalar takes a fixed-size type and exactly its size in bytes "
            "(8), got 4");

  EXPECT_EQ(TF_OpIsStateful("RandomUniform", s), 1);
  EXPECT_EQ(TF_OpIsStateful("AddV2", s), 0);
  EXPECT_EQ(s.code(), TF_OK);
  TF_OpIsStateful("NoSuchOp", s);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);

  TF_MakeInternalErrorStatus(s, "broken");
  EXPECT_EQ(s.code(), TF_INTERNAL);
  EXPECT_EQ(s.message(), "broken");
}

TEST(Experimental, ShapeAndTypeLists) {
  TF_ShapeAndTypeList* list = TF_NewShapeAndTypeList(2);
  ASSERT_EQ(list->num_items, 2);
  EXPECT_EQ(list->items[0].num_dims, -1);
  const int64_t dims[] = {3, -1};
  TF_ShapeAndTypeListSetShape(list, 0, dims, 2);
  TF_ShapeAndTypeListSetDtype(list, 0, TF_INT64);
  EXPECT_EQ(list->items[0].num_dims, 2);
  EXPECT_EQ(list->items[0].dims[0], 3);
  EXPECT_EQ(list->items[0].dims[1], -1);
  EXPECT_EQ(list->items[0].dtype, TF_INT64);
  TF_ShapeAndTypeListSetShape(list, 1, nullptr, 0);
  EXPECT_EQ(list->items[1].num_dims, 0);
  TF_ShapeAndTypeListSetUnknownShape(list, 0);
  EXPECT_EQ(list->items[0].num_dims, -1);
  EXPECT_EQ(list->items[0].dims, nullptr);
  TF_ShapeAndTypeListSetShape(list, 5, dims, 2);  // out of range: ignored
  // Refused (no status): a rank without dims, a rank over 254; the item is of unknown rank.
  TF_ShapeAndTypeListSetShape(list, 1, dims, 2);
  TF_ShapeAndTypeListSetShape(list, 1, nullptr, 3);
  EXPECT_EQ(list->items[1].num_dims, -1);
  EXPECT_EQ(list->items[1].dims, nullptr);
  TF_ShapeAndTypeListSetShape(list, 1, dims, 1 << 30);
  EXPECT_EQ(list->items[1].num_dims, -1);
  EXPECT_EQ(list->items[1].dims, nullptr);
  std::vector<int64_t> rank_254(254, 1);
  TF_ShapeAndTypeListSetShape(list, 1, rank_254.data(), 254);
  EXPECT_EQ(list->items[1].num_dims, 254);
  EXPECT_EQ(list->items[1].dims[253], 1);
  auto** array = new TF_ShapeAndTypeList* [2] { list, TF_NewShapeAndTypeList(0) };
  TF_DeleteShapeAndTypeListArray(array, 2);
}

TEST(Experimental, NumberAttrOfAListInput) {
  Status s;
  EXPECT_STREQ(TF_GetNumberAttrForOpListInput("ConcatV2", 0, s), "N");
  EXPECT_EQ(s.code(), TF_OK);
  EXPECT_EQ(TF_GetNumberAttrForOpListInput("ConcatV2", 1, s), nullptr);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_EQ(s.message(), "ConcatV2 does not have number_attr() defined.");
  EXPECT_EQ(TF_GetNumberAttrForOpListInput("ConcatV2", 2, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "2 out of range for ConcatV2");
}

}  // namespace
