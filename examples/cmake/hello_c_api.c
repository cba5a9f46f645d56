/* The README's C example: the seed's MatMul of a [2,3] and a [3,2] constant through TensorFlow's
   C API (libtensorflow, here Rill's). Prints "TF_Version 2.21.0" and "MatMul 22 28 49 64". */
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

/* A float constant named `name` with the given shape and values. */
static TF_Operation* Constant(TF_Graph* graph, const char* name, const int64_t* dims, int rank,
                              const float* values, TF_Status* status) {
  size_t bytes = sizeof(float);
  for (int i = 0; i < rank; ++i) bytes *= (size_t)dims[i];
  TF_Tensor* value = TF_AllocateTensor(TF_FLOAT, dims, rank, bytes);
  memcpy(TF_TensorData(value), values, bytes);
  TF_OperationDescription* desc = TF_NewOperation(graph, "Const", name);
  TF_SetAttrTensor(desc, "value", value, status);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_Operation* op = TF_GetCode(status) == TF_OK ? TF_FinishOperation(desc, status) : NULL;
  TF_DeleteTensor(value);
  return op;
}

int main(void) {
  printf("TF_Version %s\n", TF_Version());
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  const int64_t a_dims[2] = {2, 3}, b_dims[2] = {3, 2};
  const float a_values[6] = {1, 2, 3, 4, 5, 6}, b_values[6] = {1, 2, 3, 4, 5, 6};
  TF_Operation* a = Constant(graph, "a", a_dims, 2, a_values, status);
  TF_Operation* b = a ? Constant(graph, "b", b_dims, 2, b_values, status) : NULL;
  TF_Operation* matmul = NULL;
  if (b != NULL) {
    TF_OperationDescription* desc = TF_NewOperation(graph, "MatMul", "MatMul");
    TF_AddInput(desc, (TF_Output){a, 0});
    TF_AddInput(desc, (TF_Output){b, 0});
    matmul = TF_FinishOperation(desc, status);
  }
  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = matmul ? TF_NewSession(graph, options, status) : NULL;
  TF_Tensor* product = NULL;
  if (session != NULL) {
    TF_Output fetch = {matmul, 0};
    TF_SessionRun(session, NULL, NULL, NULL, 0, &fetch, &product, 1, NULL, 0, NULL, status);
  }
  int rc = 0;
  if (TF_GetCode(status) != TF_OK) {
    fprintf(stderr, "error: %s\n", TF_Message(status));
    rc = 1;
  } else {
    const float* p = (const float*)TF_TensorData(product);
    printf("MatMul %g %g %g %g\n", p[0], p[1], p[2], p[3]);
  }
  TF_DeleteTensor(product);
  if (session != NULL) {
    TF_CloseSession(session, status);
    TF_DeleteSession(session, status);
  }
  TF_DeleteSessionOptions(options);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
  return rc;
}
