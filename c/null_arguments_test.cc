// Every C API function called with NULL pointers (and zero or negative counts): none crashes;
// those with a status report an error (or OK where NULL is allowed, as for the deletions).
#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_tstring.h"

namespace {

using rill_c_test::Status;

constexpr size_t kMinusOne = static_cast<size_t>(-1);  // a negative length passed as size_t

TEST(NullArguments, StatusBuffersTensorsStrings) {
  TF_DeleteStatus(nullptr);
  TF_SetStatus(nullptr, TF_OK, nullptr);
  TF_SetPayload(nullptr, nullptr, nullptr);
  TF_SetStatusFromIOError(nullptr, 2, nullptr);
  EXPECT_EQ(TF_GetCode(nullptr), TF_OK);
  EXPECT_STREQ(TF_Message(nullptr), "");
  TF_Buffer* b = TF_NewBufferFromString(nullptr, 10);
  EXPECT_EQ(b->length, 0u);
  TF_DeleteBuffer(b);
  TF_DeleteBuffer(nullptr);
  TF_GetBuffer(nullptr);
  Status s;
  TF_TensorFromProto(nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, nullptr, 1, nullptr, 4, nullptr, nullptr), nullptr);
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, nullptr, 3, 0), nullptr);
  EXPECT_EQ(TF_TensorMaybeMove(nullptr), nullptr);
  TF_DeleteTensor(nullptr);
  EXPECT_EQ(TF_TensorType(nullptr), 0);
  TF_SetShape(nullptr, nullptr, 2);
  EXPECT_EQ(TF_NumDims(nullptr), 0);
  EXPECT_EQ(TF_Dim(nullptr, 0), 0);
  EXPECT_EQ(TF_TensorByteSize(nullptr), 0u);
  EXPECT_EQ(TF_TensorData(nullptr), nullptr);
  EXPECT_EQ(TF_TensorElementCount(nullptr), 0);
  TF_TensorBitcastFrom(nullptr, TF_FLOAT, nullptr, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_TRUE(TF_TensorIsAligned(nullptr));  // no data: nothing misaligned
  TF_StringInit(nullptr);
  TF_StringCopy(nullptr, "x", 1);
  TF_StringAssignView(nullptr, "x", 1);
  EXPECT_EQ(TF_StringGetDataPointer(nullptr), nullptr);
  EXPECT_EQ(TF_StringGetSize(nullptr), 0u);
  TF_StringGetType(nullptr);
  TF_StringDealloc(nullptr);
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(-1)), 0u);
}

TEST(NullArguments, GraphsOperationsImport) {
  Status s;
  TF_DeleteGraph(nullptr);
  TF_GraphSetTensorShape(nullptr, {nullptr, 0}, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_GraphGetTensorNumDims(nullptr, {nullptr, 0}, s), -1);
  TF_GraphGetTensorShape(nullptr, {nullptr, 0}, nullptr, 0, s);
  EXPECT_EQ(TF_GraphOperationByName(nullptr, nullptr), nullptr);
  EXPECT_EQ(TF_GraphNextOperation(nullptr, nullptr), nullptr);
  TF_GraphToGraphDef(nullptr, nullptr, s);
  TF_GraphGetOpDef(nullptr, nullptr, nullptr, s);
  TF_GraphVersions(nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_Graph* g = TF_NewGraph();
  TF_GraphToGraphDef(g, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_GraphVersions(g, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_GraphGetOpDef(g, "MatMul", nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);

  EXPECT_STREQ(TF_OperationName(nullptr), "");
  EXPECT_STREQ(TF_OperationOpType(nullptr), "");
  EXPECT_STREQ(TF_OperationDevice(nullptr), "");
  EXPECT_EQ(TF_OperationNumOutputs(nullptr), 0);
  EXPECT_EQ(TF_OperationOutputType({nullptr, 0}), 0);
  EXPECT_EQ(TF_OperationOutputListLength(nullptr, nullptr, s), -1);
  EXPECT_EQ(TF_OperationNumInputs(nullptr), 0);
  EXPECT_EQ(TF_OperationInputType({nullptr, 0}), 0);
  EXPECT_EQ(TF_OperationInputListLength(nullptr, nullptr, s), -1);
  EXPECT_EQ(TF_OperationInput({nullptr, 0}).oper, nullptr);
  TF_OperationAllInputs(nullptr, nullptr, 3);
  EXPECT_EQ(TF_OperationOutputNumConsumers({nullptr, 0}), 0);
  EXPECT_EQ(TF_OperationOutputConsumers({nullptr, 0}, nullptr, 3), 0);
  EXPECT_EQ(TF_OperationNumControlInputs(nullptr), 0);
  EXPECT_EQ(TF_OperationGetControlInputs(nullptr, nullptr, 3), 0);
  EXPECT_EQ(TF_OperationNumControlOutputs(nullptr), 0);
  EXPECT_EQ(TF_OperationGetControlOutputs(nullptr, nullptr, 3), 0);
  TF_OperationGetAttrMetadata(nullptr, nullptr, s);
  TF_OperationGetAttrString(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrStringList(nullptr, nullptr, nullptr, nullptr, 3, nullptr, 3, s);
  TF_OperationGetAttrInt(nullptr, nullptr, nullptr, s);
  TF_OperationGetAttrIntList(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrFloat(nullptr, nullptr, nullptr, s);
  TF_OperationGetAttrFloatList(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrBool(nullptr, nullptr, nullptr, s);
  TF_OperationGetAttrBoolList(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrType(nullptr, nullptr, nullptr, s);
  TF_OperationGetAttrTypeList(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrShape(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrShapeList(nullptr, nullptr, nullptr, nullptr, 3, nullptr, 3, s);
  TF_OperationGetAttrTensorShapeProto(nullptr, nullptr, nullptr, s);
  TF_OperationGetAttrTensorShapeProtoList(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrTensor(nullptr, nullptr, nullptr, s);
  TF_OperationGetAttrTensorList(nullptr, nullptr, nullptr, 3, s);
  TF_OperationGetAttrValueProto(nullptr, nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_OperationGetNumAttrs(nullptr), 0);
  EXPECT_EQ(TF_OperationGetAttrNameLength(nullptr, 0), -1);
  TF_OperationGetAttrName(nullptr, 0, nullptr, s);
  TF_OperationToNodeDef(nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);

  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(opts, nullptr);
  TF_ImportGraphDefOptionsSetDefaultDevice(opts, nullptr);
  TF_ImportGraphDefOptionsAddInputMapping(opts, nullptr, 0, {nullptr, 0});
  TF_ImportGraphDefOptionsRemapControlDependency(opts, nullptr, nullptr);
  TF_ImportGraphDefOptionsAddControlDependency(opts, nullptr);
  TF_ImportGraphDefOptionsAddReturnOutput(opts, nullptr, 0);
  TF_ImportGraphDefOptionsAddReturnOperation(opts, nullptr);
  EXPECT_EQ(TF_ImportGraphDefOptionsNumReturnOutputs(opts), 0);
  EXPECT_EQ(TF_ImportGraphDefOptionsNumReturnOperations(opts), 0);
  TF_DeleteImportGraphDefOptions(opts);
  TF_ImportGraphDefOptionsSetPrefix(nullptr, "p");
  TF_ImportGraphDefOptionsSetDefaultDevice(nullptr, "d");
  TF_ImportGraphDefOptionsSetUniquifyNames(nullptr, 1);
  TF_ImportGraphDefOptionsSetUniquifyPrefix(nullptr, 1);
  TF_ImportGraphDefOptionsAddInputMapping(nullptr, "a", 0, {nullptr, 0});
  TF_ImportGraphDefOptionsRemapControlDependency(nullptr, "a", nullptr);
  TF_ImportGraphDefOptionsAddControlDependency(nullptr, nullptr);
  TF_ImportGraphDefOptionsAddReturnOutput(nullptr, "a", 0);
  TF_ImportGraphDefOptionsAddReturnOperation(nullptr, "a");
  EXPECT_EQ(TF_ImportGraphDefOptionsNumReturnOutputs(nullptr), 0);
  EXPECT_EQ(TF_ImportGraphDefOptionsNumReturnOperations(nullptr), 0);
  TF_DeleteImportGraphDefOptions(nullptr);
  TF_ImportGraphDefResultsReturnOutputs(nullptr, nullptr, nullptr);
  TF_ImportGraphDefResultsReturnOperations(nullptr, nullptr, nullptr);
  TF_ImportGraphDefResultsMissingUnusedInputMappings(nullptr, nullptr, nullptr, nullptr);
  TF_DeleteImportGraphDefResults(nullptr);
  EXPECT_EQ(TF_GraphImportGraphDefWithResults(nullptr, nullptr, nullptr, s), nullptr);
  TF_GraphImportGraphDefWithReturnOutputs(nullptr, nullptr, nullptr, nullptr, 0, s);
  TF_GraphImportGraphDef(nullptr, nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
}

TEST(NullArguments, BuildingFunctionsLoops) {
  Status s;
  TF_OperationDescription* desc = TF_NewOperationLocked(nullptr, nullptr, nullptr);
  TF_SetDevice(desc, nullptr);
  TF_AddInput(desc, {nullptr, 0});
  TF_AddInputList(desc, nullptr, 1);
  TF_AddControlInput(desc, nullptr);
  TF_ColocateWith(desc, nullptr);
  TF_SetAttrString(desc, nullptr, nullptr, 3);
  TF_SetAttrStringList(desc, "a", nullptr, nullptr, 3);
  TF_SetAttrInt(desc, nullptr, 1);
  TF_SetAttrIntList(desc, "a", nullptr, 3);
  TF_SetAttrFloat(desc, nullptr, 1);
  TF_SetAttrFloatList(desc, "a", nullptr, 3);
  TF_SetAttrBool(desc, nullptr, 1);
  TF_SetAttrBoolList(desc, "a", nullptr, 3);
  TF_SetAttrType(desc, nullptr, TF_FLOAT);
  TF_SetAttrTypeList(desc, "a", nullptr, 3);
  TF_SetAttrPlaceholder(desc, "a", nullptr);
  TF_SetAttrFuncName(desc, "a", nullptr, 3);
  TF_SetAttrShape(desc, "a", nullptr, 3);
  TF_SetAttrShapeList(desc, "a", nullptr, nullptr, 3);
  TF_SetAttrTensorShapeProto(desc, "a", nullptr, 3, s);
  TF_SetAttrTensorShapeProtoList(desc, "a", nullptr, nullptr, 3, s);
  TF_SetAttrTensor(desc, "a", nullptr, s);
  TF_SetAttrTensorList(desc, "a", nullptr, 3, s);
  TF_SetAttrValueProto(desc, "a", nullptr, 3, s);
  EXPECT_EQ(TF_FinishOperationLocked(desc, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_SetAttrString(nullptr, "a", "b", 1);
  TF_SetAttrTensor(nullptr, "a", nullptr, s);
  EXPECT_EQ(TF_FinishOperation(nullptr, s), nullptr);

  TF_GraphCopyFunction(nullptr, nullptr, nullptr, s);
  EXPECT_EQ(TF_GraphNumFunctions(nullptr), 0);
  EXPECT_EQ(TF_GraphGetFunctions(nullptr, nullptr, 3, s), 0);
  EXPECT_EQ(TF_GraphToFunction(nullptr, nullptr, 0, -1, nullptr, 0, nullptr, 0, nullptr, nullptr,
                               nullptr, nullptr, s),
            nullptr);
  TF_Graph* g = TF_NewGraph();
  EXPECT_EQ(TF_GraphToFunction(g, nullptr, 0, 3, nullptr, 3, nullptr, 3, nullptr, nullptr, nullptr,
                               nullptr, s),
            nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_FunctionName(nullptr), nullptr);
  TF_FunctionToFunctionDef(nullptr, nullptr, s);
  EXPECT_EQ(TF_FunctionImportFunctionDef(nullptr, 3, s), nullptr);
  TF_FunctionSetAttrValueProto(nullptr, nullptr, nullptr, 0, s);
  TF_FunctionGetAttrValueProto(nullptr, nullptr, nullptr, s);
  TF_DeleteFunction(nullptr);
  EXPECT_EQ(TF_TryEvaluateConstant(nullptr, {nullptr, 0}, nullptr, s), 0);
  TF_UpdateEdge(nullptr, {nullptr, 0}, {nullptr, 0}, s);
  TF_UpdateEdge(g, {nullptr, 0}, {nullptr, 0}, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_WhileParams params = TF_NewWhile(nullptr, nullptr, 1, s);
  EXPECT_EQ(params.cond_graph, nullptr);
  TF_FinishWhile(nullptr, s, nullptr);
  TF_FinishWhile(&params, s, nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_AbortWhile(nullptr);
  TF_AddGradients(nullptr, nullptr, 0, nullptr, 0, nullptr, s, nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "The graph is null");
  TF_DeleteGraph(g);
}

TEST(NullArguments, SessionsDevicesLibraries) {
  Status s;
  TF_SetTarget(nullptr, "x");
  TF_SetConfig(nullptr, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_SetTarget(opts, nullptr);
  TF_SetConfig(opts, nullptr, 3, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_NewSession(nullptr, nullptr, s), nullptr);
  EXPECT_EQ(
      TF_LoadSessionFromSavedModel(nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, s),
      nullptr);
  EXPECT_EQ(
      TF_LoadSessionFromSavedModel(opts, nullptr, "/nonexistent", nullptr, 1, nullptr, nullptr, s),
      nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_CloseSession(nullptr, s);
  TF_DeleteSession(nullptr, s);
  TF_SessionRun(nullptr, nullptr, nullptr, nullptr, 1, nullptr, nullptr, 1, nullptr, 1, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_SessionPRunSetup(nullptr, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, s);
  const char* handle = "x";
  TF_SessionPRunSetup(nullptr, nullptr, 0, nullptr, 0, nullptr, 0, &handle, s);
  EXPECT_EQ(handle, nullptr);
  TF_SessionPRun(nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeletePRunHandle(nullptr);
  EXPECT_EQ(TF_NewDeprecatedSession(nullptr, s), nullptr);
  TF_CloseDeprecatedSession(nullptr, s);
  TF_DeleteDeprecatedSession(nullptr, s);
  TF_Reset(nullptr, nullptr, 0, s);
  TF_ExtendGraph(nullptr, nullptr, 0, s);
  TF_Run(nullptr, nullptr, nullptr, nullptr, 1, nullptr, nullptr, 1, nullptr, 1, nullptr, s);
  TF_PRunSetup(nullptr, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, s);
  TF_PRun(nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, s);
  EXPECT_EQ(TF_SessionListDevices(nullptr, s), nullptr);
  EXPECT_EQ(TF_DeprecatedSessionListDevices(nullptr, s), nullptr);
  TF_DeleteDeviceList(nullptr);
  EXPECT_EQ(TF_DeviceListCount(nullptr), 0);
  EXPECT_EQ(TF_DeviceListName(nullptr, 0, s), nullptr);
  EXPECT_EQ(TF_DeviceListType(nullptr, 0, s), nullptr);
  EXPECT_EQ(TF_DeviceListMemoryBytes(nullptr, 0, s), -1);
  EXPECT_EQ(TF_DeviceListIncarnation(nullptr, 0, s), 0u);
  EXPECT_EQ(TF_LoadLibrary(nullptr, s), nullptr);
  TF_GetOpList(nullptr);
  TF_DeleteLibraryHandle(nullptr);
  EXPECT_EQ(TF_NewApiDefMap(nullptr, s), nullptr);
  TF_DeleteApiDefMap(nullptr);
  TF_ApiDefMapPut(nullptr, nullptr, 3, s);
  EXPECT_EQ(TF_ApiDefMapGet(nullptr, nullptr, 3, s), nullptr);
  EXPECT_EQ(TF_GetRegisteredKernelsForOp(nullptr, s), nullptr);
  EXPECT_EQ(TF_NewServer(nullptr, 0, s), nullptr);
  TF_ServerStart(nullptr, s);
  TF_ServerStop(nullptr, s);
  TF_ServerJoin(nullptr, s);
  EXPECT_EQ(TF_ServerTarget(nullptr), nullptr);
  TF_DeleteServer(nullptr);
  TF_RegisterLogListener(nullptr);
  TF_RegisterFilesystemPlugin(nullptr, s);
  TF_DeleteSessionOptions(opts);
}

// Lengths no object can have (a negative count converted to size_t) and NULL outputs the misuse
// sweep (misuse_sweep_test) found crashing or silently accepted; each is now refused.
TEST(NullArguments, LengthsPastAnyObjectAndNullOutputs) {
  Status s;
  EXPECT_EQ(TF_NewBufferFromString("ab", kMinusOne), nullptr);

  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "Const", "c");
  TF_SetAttrString(d, "s", "ab", kMinusOne);
  EXPECT_EQ(TF_FinishOperation(d, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "TF_SetAttrString's length is 18446744073709551615, larger than any object (a "
            "negative length converted to size_t?); pass the number of bytes");
  d = TF_NewOperation(g, "Const", "c");
  TF_SetAttrFuncName(d, "f", "ab", kMinusOne);
  EXPECT_EQ(TF_FinishOperation(d, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message().rfind("TF_SetAttrFuncName's length is 18446744073709551615", 0), 0u);

  TF_Operation* p = rill_c_test::Placeholder(g, "p");
  TF_OperationGetAttrType(p, "dtype", nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "The value pointer is null");
  TF_DeleteGraph(g);

  TF_Buffer* empty = TF_NewBuffer();
  TF_ApiDefMap* map = TF_NewApiDefMap(empty, s);
  ASSERT_EQ(s.code(), TF_OK);
  TF_ApiDefMapPut(map, "x", kMinusOne, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message().rfind("text_len is 18446744073709551615, larger than any object", 0), 0u);
  EXPECT_EQ(TF_ApiDefMapGet(map, "x", kMinusOne, s), nullptr);
  EXPECT_EQ(s.message().rfind("name_len is 18446744073709551615", 0), 0u);
  TF_DeleteApiDefMap(map);
  TF_DeleteBuffer(empty);

  TFE_ContextOptions* opts = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(opts, s);
  ASSERT_EQ(s.code(), TF_OK);
  TFE_OpNameGetAttrType(ctx, "Identity", "T", nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "is_list is null; pass where to write whether the attribute is a list");
  TFE_Op* op = TFE_NewOp(ctx, "Identity", s);
  TFE_OpSetAttrString(op, "T", "ab", kMinusOne);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(opts);

  // The inline TF_TString functions: NULL strings and sources, keep past the size.
  TF_TString t;
  TF_TString_Init(&t);
  TF_TString_Copy(&t, "abc", 3);
  EXPECT_EQ(TF_TString_RillOwn(nullptr, 0, 1, 1), nullptr);
  EXPECT_EQ(TF_TString_GetMutableDataPointer(nullptr), nullptr);
  TF_TString_Move(nullptr, &t);
  TF_TString_AppendN(&t, nullptr, 5);
  TF_TString_AppendN(nullptr, "x", 1);
  EXPECT_EQ(TF_TString_Resize(&t, kMinusOne, 'x'), nullptr);
  char* bytes = TF_TString_RillOwn(&t, kMinusOne, 2, 2);  // keeps at most new_size bytes
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(std::string(bytes, 2), "ab");
  EXPECT_EQ(TF_TString_GetSize(&t), 2u);
  TF_TString_Dealloc(&t);
}

}  // namespace
