/* Loads a library of custom ops with TF_LoadLibrary and runs its op (ZeroOut, zero_out.cc):
 *
 *   load_custom_op path/to/libzero_out.so
 *   loaded ops: ZeroOut
 *   ZeroOut 5 0 0
 *
 * Exit status 1 with TensorFlow's status message on stderr when a call fails. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

static int Check(TF_Status* status, const char* what) {
  if (TF_GetCode(status) == TF_OK) return 1;
  fprintf(stderr, "%s: %s\n", what, TF_Message(status));
  return 0;
}

/* Reads a varint at *p (protobuf wire format); advances *p. */
static uint64_t Varint(const unsigned char** p, const unsigned char* end) {
  uint64_t value = 0;
  int shift = 0;
  while (*p < end) {
    unsigned char byte = *(*p)++;
    value |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
    shift += 7;
  }
  return value;
}

/* Prints the names in a serialized OpList (field 1: OpDef, whose field 1 is its name). */
static void PrintOpNames(TF_Buffer list) {
  const unsigned char* p = (const unsigned char*)list.data;
  const unsigned char* end = p + list.length;
  printf("loaded ops:");
  while (p < end && *p == 0x0a) {
    p++;
    uint64_t len = Varint(&p, end);
    const unsigned char* op_end = p + len;
    if (p < op_end && *p == 0x0a) {
      p++;
      uint64_t name_len = Varint(&p, op_end);
      printf(" %.*s", (int)name_len, (const char*)p);
    }
    p = op_end;
  }
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LIBRARY.so\n", argv[0]);
    return 2;
  }
  TF_Status* status = TF_NewStatus();
  TF_Library* library = TF_LoadLibrary(argv[1], status);
  if (!Check(status, "TF_LoadLibrary")) return 1;
  PrintOpNames(TF_GetOpList(library));

  TF_Graph* graph = TF_NewGraph();
  int64_t dims[1] = {3};
  TF_Tensor* value = TF_AllocateTensor(TF_INT32, dims, 1, 3 * sizeof(int32_t));
  int32_t numbers[3] = {5, 7, 9};
  memcpy(TF_TensorData(value), numbers, sizeof(numbers));
  TF_OperationDescription* desc = TF_NewOperation(graph, "Const", "numbers");
  TF_SetAttrTensor(desc, "value", value, status);
  TF_SetAttrType(desc, "dtype", TF_INT32);
  TF_Operation* constant = TF_FinishOperation(desc, status);
  if (!Check(status, "Const")) return 1;
  desc = TF_NewOperation(graph, "ZeroOut", "zeroed");
  TF_Output input = {constant, 0};
  TF_AddInput(desc, input);
  TF_Operation* zero_out = TF_FinishOperation(desc, status);
  if (!Check(status, "ZeroOut")) return 1;

  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, options, status);
  if (!Check(status, "TF_NewSession")) return 1;
  TF_Output fetch = {zero_out, 0};
  TF_Tensor* result = NULL;
  TF_SessionRun(session, NULL, NULL, NULL, 0, &fetch, &result, 1, NULL, 0, NULL, status);
  if (!Check(status, "TF_SessionRun")) return 1;
  const int32_t* out = (const int32_t*)TF_TensorData(result);
  printf("ZeroOut %d %d %d\n", out[0], out[1], out[2]);

  TF_DeleteTensor(result);
  TF_CloseSession(session, status);
  TF_DeleteSession(session, status);
  TF_DeleteSessionOptions(options);
  TF_DeleteTensor(value);
  TF_DeleteGraph(graph);
  TF_DeleteLibraryHandle(library);
  TF_DeleteStatus(status);
  return 0;
}
