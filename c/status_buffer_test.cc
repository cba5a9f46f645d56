#include <cerrno>
#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

TEST(Version, NamesTheTensorFlowReleaseItStandsFor) { EXPECT_STREQ(TF_Version(), "2.21.0"); }

TEST(Status, StartsOkAndKeepsCodeAndMessage) {
  TF_Status* s = TF_NewStatus();
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_STREQ(TF_Message(s), "");
  TF_SetStatus(s, TF_INVALID_ARGUMENT, "bad thing");
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "bad thing");
  TF_SetPayload(s, "key", "value");  // accepted, not kept
  EXPECT_STREQ(TF_Message(s), "bad thing");
  TF_SetStatus(s, TF_OK, "ignored");
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_STREQ(TF_Message(s), "");
  TF_SetStatus(s, TF_NOT_FOUND, nullptr);
  EXPECT_EQ(TF_GetCode(s), TF_NOT_FOUND);
  EXPECT_STREQ(TF_Message(s), "");
  TF_DeleteStatus(s);
}

TEST(Status, CodesAreTensorFlowsNumbers) {
  EXPECT_EQ(TF_CANCELLED, 1);
  EXPECT_EQ(TF_INVALID_ARGUMENT, 3);
  EXPECT_EQ(TF_NOT_FOUND, 5);
  EXPECT_EQ(TF_UNAUTHENTICATED, 16);
  EXPECT_EQ(TF_UNIMPLEMENTED, 12);
  EXPECT_EQ(TF_DATA_LOSS, 15);
}

TEST(Status, FromIOError) {
  TF_Status* s = TF_NewStatus();
  TF_SetStatusFromIOError(s, ENOENT, "opening /x");
  EXPECT_EQ(TF_GetCode(s), TF_NOT_FOUND);
  EXPECT_EQ(std::string(TF_Message(s)), std::string("opening /x; ") + std::strerror(ENOENT));
  TF_SetStatusFromIOError(s, EACCES, "c");
  EXPECT_EQ(TF_GetCode(s), TF_PERMISSION_DENIED);
  // TensorFlow's codes where the C API had its own mapping (core/errno_status.h).
  TF_SetStatusFromIOError(s, EISDIR, "d");
  EXPECT_EQ(TF_GetCode(s), TF_FAILED_PRECONDITION);
  TF_SetStatusFromIOError(s, ENOTDIR, "d");
  EXPECT_EQ(TF_GetCode(s), TF_FAILED_PRECONDITION);
  TF_SetStatusFromIOError(s, EBUSY, "d");
  EXPECT_EQ(TF_GetCode(s), TF_FAILED_PRECONDITION);
  TF_SetStatusFromIOError(s, 0, "d");
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_STREQ(TF_Message(s), "");
  TF_DeleteStatus(s);
}

TEST(Status, NullIsSafe) {
  TF_DeleteStatus(nullptr);
  TF_SetStatus(nullptr, TF_INTERNAL, "x");
  EXPECT_EQ(TF_GetCode(nullptr), TF_OK);
  EXPECT_STREQ(TF_Message(nullptr), "");
}

TEST(Buffer, FromStringCopiesTheBytes) {
  char bytes[] = {'a', 'b', '\0', 'c'};
  TF_Buffer* b = TF_NewBufferFromString(bytes, sizeof(bytes));
  bytes[0] = 'z';
  ASSERT_EQ(b->length, 4u);
  EXPECT_EQ(std::string(static_cast<const char*>(b->data), 4), std::string("ab\0c", 4));
  EXPECT_NE(b->data_deallocator, nullptr);
  TF_Buffer copy = TF_GetBuffer(b);
  EXPECT_EQ(copy.data, b->data);
  EXPECT_EQ(copy.length, 4u);
  TF_DeleteBuffer(b);
}

int deallocations = 0;
void CountingDeallocator(void* data, size_t length) {
  ++deallocations;
  EXPECT_EQ(length, 3u);
  delete[] static_cast<char*>(data);
}

TEST(Buffer, DeleteCallsTheDeallocatorOnce) {
  TF_Buffer* b = TF_NewBuffer();
  EXPECT_EQ(b->data, nullptr);
  EXPECT_EQ(b->length, 0u);
  EXPECT_EQ(b->data_deallocator, nullptr);
  b->data = new char[3];
  b->length = 3;
  b->data_deallocator = CountingDeallocator;
  deallocations = 0;
  TF_DeleteBuffer(b);
  EXPECT_EQ(deallocations, 1);
  TF_DeleteBuffer(nullptr);
  TF_Buffer empty = TF_GetBuffer(nullptr);
  EXPECT_EQ(empty.data, nullptr);
}

TEST(DataType, Sizes) {
  EXPECT_EQ(TF_DataTypeSize(TF_FLOAT), 4u);
  EXPECT_EQ(TF_DataTypeSize(TF_DOUBLE), 8u);
  EXPECT_EQ(TF_DataTypeSize(TF_INT8), 1u);
  EXPECT_EQ(TF_DataTypeSize(TF_BOOL), 1u);
  EXPECT_EQ(TF_DataTypeSize(TF_HALF), 2u);
  EXPECT_EQ(TF_DataTypeSize(TF_BFLOAT16), 2u);
  EXPECT_EQ(TF_DataTypeSize(TF_INT64), 8u);
  EXPECT_EQ(TF_DataTypeSize(TF_UINT64), 8u);
  EXPECT_EQ(TF_DataTypeSize(TF_COMPLEX64), 8u);
  EXPECT_EQ(TF_DataTypeSize(TF_COMPLEX128), 16u);
  EXPECT_EQ(TF_DataTypeSize(TF_STRING), 0u);
  EXPECT_EQ(TF_DataTypeSize(TF_RESOURCE), 0u);
  EXPECT_EQ(TF_DataTypeSize(TF_VARIANT), 0u);
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(0)), 0u);
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(1000)), 0u);
}

TEST(Layout, StructsMatchTensorFlows) {
  EXPECT_EQ(sizeof(TF_Buffer), 3 * sizeof(void*));
  EXPECT_EQ(sizeof(TF_Output), 2 * sizeof(void*));
  EXPECT_EQ(sizeof(TF_Input), 2 * sizeof(void*));
  EXPECT_EQ(sizeof(TF_TString), 24u);
}

}  // namespace
