// TF_LoadLibrary with the example op library (examples/custom_op: ZeroOut) and a library whose
// registration fails.
#include <cstdint>
#include <string>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/op_def.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using ::rill_c_test::Status;
using ::testing::HasSubstr;

constexpr char kZeroOut[] = "examples/custom_op/libzero_out.so";
constexpr char kDuplicateOp[] = "examples/custom_op/libduplicate_op.so";

rill::OpList OpsOf(TF_Library* library) {
  TF_Buffer list = TF_GetOpList(library);
  rill::OpList ops;
  EXPECT_TRUE(ops.ParseFromArray(list.data, static_cast<int>(list.length)));
  return ops;
}

TEST(LoadLibrary, RegistersTheLibrarysOpsAndKernelsForGraphsAndSessions) {
  Status s;
  TF_Library* library = TF_LoadLibrary(kZeroOut, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::OpList ops = OpsOf(library);
  ASSERT_EQ(ops.op_size(), 1);
  EXPECT_EQ(ops.op(0).name(), "ZeroOut");
  EXPECT_EQ(ops.op(0).input_arg(0).type(), rill::DT_INT32);

  TF_Graph* graph = TF_NewGraph();
  TF_Tensor* value = rill_c_test::Int32Tensor({3}, {5, 7, 9});
  TF_Operation* numbers = rill_c_test::Const(graph, "numbers", value);
  TF_OperationDescription* desc = TF_NewOperation(graph, "ZeroOut", "zeroed");
  TF_AddInput(desc, TF_Output{numbers, 0});
  TF_Operation* zeroed = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  int64_t dims[1];
  TF_GraphGetTensorShape(graph, TF_Output{zeroed, 0}, dims, 1, s);
  EXPECT_EQ(dims[0], 3);  // the library's shape function ran

  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, options, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Output fetch{zeroed, 0};
  TF_Tensor* result = nullptr;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &fetch, &result, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  const auto* out = static_cast<const int32_t*>(TF_TensorData(result));
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 0);
  TF_DeleteTensor(result);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(options);
  TF_DeleteTensor(value);
  TF_DeleteGraph(graph);

  // A second load of the same file lists the same ops.
  TF_Library* again = TF_LoadLibrary(kZeroOut, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(OpsOf(again).op(0).name(), "ZeroOut");
  TF_DeleteLibraryHandle(again);
  TF_DeleteLibraryHandle(library);
}

TEST(LoadLibrary, AMissingFileIsNotFoundWithTheLoadersMessage) {
  Status s;
  EXPECT_EQ(TF_LoadLibrary("examples/custom_op/no_such_library.so", s), nullptr);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_THAT(s.message(), HasSubstr("no_such_library.so: cannot open shared object file"));
  EXPECT_EQ(TF_LoadLibrary(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_GetOpList(nullptr).data, nullptr);
  TF_DeleteLibraryHandle(nullptr);
}

TEST(LoadLibrary, AFailingRegistrationIsAnErrorAndTheProcessGoesOn) {
  Status s;
  EXPECT_EQ(TF_LoadLibrary(kDuplicateOp, s), nullptr);
  EXPECT_EQ(s.code(), TF_ALREADY_EXISTS);
  EXPECT_EQ(s.message(), "Op 'Identity' is registered twice");
  // Rill's own Identity still works.
  TF_Graph* graph = TF_NewGraph();
  TF_Operation* x = rill_c_test::ScalarConst(graph, "x", 2.f);
  TF_OperationDescription* desc = TF_NewOperation(graph, "Identity", "y");
  TF_AddInput(desc, TF_Output{x, 0});
  TF_Operation* y = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, options, s);
  TF_Output fetch{y, 0};
  TF_Tensor* result = nullptr;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &fetch, &result, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(result), std::vector<float>{2.f});
  TF_DeleteTensor(result);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(options);
  TF_DeleteGraph(graph);
}

}  // namespace
