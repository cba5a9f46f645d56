/* The C API from C (C99): imports a GraphDef, adds an operation with TF_NewOperation, runs a
   session and checks the numbers. Proves the headers are valid C. Exit status 0 on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define CHECK_OK(status)                                                      \
  do {                                                                        \
    if (TF_GetCode(status) != TF_OK) {                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, TF_Message(status)); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

/* A serialized GraphDef: x = Placeholder(float), w = Const([[1,2],[3,4]]). Written as protobuf
   wire bytes so the test needs no protobuf library. */
static TF_Buffer* ConstAndPlaceholderGraph(void) {
  /* NodeDef x: name "x", op "Placeholder", attr dtype = DT_FLOAT. */
  static const unsigned char x_node[] = {0x0a, 0x01, 'x', 0x12, 0x0b, 'P',  'l',  'a',  'c',  'e',
                                         'h',  'o',  'l', 'd',  'e',  'r',  0x2a, 0x0b, 0x0a, 0x05,
                                         'd',  't',  'y', 'p',  'e',  0x12, 0x02, 0x30, 0x01};
  unsigned char graph[256];
  size_t n = 0;
  graph[n++] = 0x0a; /* GraphDef.node */
  graph[n++] = (unsigned char)sizeof(x_node);
  memcpy(graph + n, x_node, sizeof(x_node));
  n += sizeof(x_node);
  return TF_NewBufferFromString(graph, n);
}

static TF_Operation* Const2x2(TF_Graph* g, const char* name, const float* values, TF_Status* s) {
  const int64_t dims[2] = {2, 2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 2, 4 * sizeof(float));
  memcpy(TF_TensorData(t), values, 4 * sizeof(float));
  TF_OperationDescription* desc = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(desc, "value", t, s);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_DeleteTensor(t);
  return TF_FinishOperation(desc, s);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = ConstAndPlaceholderGraph();
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, def, opts, s);
  CHECK_OK(s);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);

  TF_Operation* x = TF_GraphOperationByName(g, "x");
  CHECK(x != NULL);
  const float w_values[4] = {1, 2, 3, 4};
  TF_Operation* w = Const2x2(g, "w", w_values, s);
  CHECK_OK(s);

  TF_OperationDescription* desc = TF_NewOperation(g, "MatMul", "product");
  TF_Output a = {x, 0};
  TF_Output b = {w, 0};
  TF_AddInput(desc, a);
  TF_AddInput(desc, b);
  TF_Operation* product = TF_FinishOperation(desc, s);
  CHECK_OK(s);
  CHECK(strcmp(TF_OperationOpType(product), "MatMul") == 0);

  TF_SessionOptions* session_opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(g, session_opts, s);
  CHECK_OK(s);

  const int64_t dims[2] = {2, 2};
  TF_Tensor* feed_value = TF_AllocateTensor(TF_FLOAT, dims, 2, 4 * sizeof(float));
  float* in = (float*)TF_TensorData(feed_value);
  in[0] = 1;
  in[1] = 0;
  in[2] = 0;
  in[3] = 2;
  TF_Output feed = {x, 0};
  TF_Output fetch = {product, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(session, NULL, &feed, &feed_value, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_OK(s);
  CHECK(out != NULL);
  if (out != NULL) {
    const float* v = (const float*)TF_TensorData(out);
    CHECK(TF_TensorType(out) == TF_FLOAT);
    CHECK(TF_NumDims(out) == 2 && TF_Dim(out, 0) == 2 && TF_Dim(out, 1) == 2);
    /* [[1,0],[0,2]] x [[1,2],[3,4]] = [[1,2],[6,8]] */
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 6 && v[3] == 8);
    TF_DeleteTensor(out);
  }
  TF_DeleteTensor(feed_value);

  /* A string element and a status code from C. */
  TF_TString str;
  TF_StringInit(&str);
  TF_StringCopy(&str, "rill", 4);
  CHECK(TF_StringGetSize(&str) == 4 && memcmp(TF_StringGetDataPointer(&str), "rill", 4) == 0);
  TF_StringDealloc(&str);
  CHECK(sizeof(TF_TString) == 24);

  TF_CloseSession(session, s);
  CHECK_OK(s);
  TF_DeleteSession(session, s);
  TF_DeleteSessionOptions(session_opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  printf("%s: %s\n", TF_Version(), failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
