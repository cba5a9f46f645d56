/* Helpers for the C API client programs of tests/reliability/c_clients: small graphs built through
   TensorFlow's C API, and checks that print one line each ("ok LABEL" or "FAIL LABEL: ...") and
   count failures. Each program's expectations are TensorFlow 2.21's behaviour (its pip package's
   libtensorflow_cc.so.2 runs them too: run_clients.sh --tf). Single-threaded unless a program
   says otherwise. */
#ifndef RILL_TESTS_RELIABILITY_C_CLIENTS_CLIENT_UTIL_H_
#define RILL_TESTS_RELIABILITY_C_CLIENTS_CLIENT_UTIL_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

static int client_failures = 0;

/* Where Rill keeps the runtime spec's text and TensorFlow 2.21 reports another (a run feeding or
   fetching a tensor of no node, or past its node's outputs), a check names both: run_clients.sh
   --tf defines CLIENTS_AGAINST_TENSORFLOW. */
#ifdef CLIENTS_AGAINST_TENSORFLOW
#define RILL_OR_TF(rill, tf) (tf)
#else
#define RILL_OR_TF(rill, tf) (rill)
#endif

/* The status holds `code` and its message contains `part` (NULL: any message). */
static inline void ExpectStatus(const char* label, const TF_Status* s, TF_Code code,
                                const char* part) {
  const char* message = TF_Message(s);
  if (TF_GetCode(s) != code || (part != NULL && strstr(message, part) == NULL)) {
    printf("FAIL %s: got code %d '%s', want code %d containing '%s'\n", label, (int)TF_GetCode(s),
           message, (int)code, part ? part : "");
    ++client_failures;
  } else {
    printf("ok %s: %d %s\n", label, (int)code, message);
  }
}

static inline void ExpectTrue(const char* label, int condition) {
  if (!condition) {
    printf("FAIL %s\n", label);
    ++client_failures;
  } else {
    printf("ok %s\n", label);
  }
}

/* A float tensor of the given shape holding `values`. */
static inline TF_Tensor* FloatTensor(const int64_t* dims, int rank, const float* values) {
  size_t n = 1;
  for (int i = 0; i < rank; ++i) n *= (size_t)dims[i];
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, rank, n * sizeof(float));
  if (n > 0) memcpy(TF_TensorData(t), values, n * sizeof(float));
  return t;
}

static inline TF_Operation* Const(TF_Graph* g, const char* name, TF_Tensor* value, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", value, s);
  if (TF_GetCode(s) != TF_OK) return NULL;
  TF_SetAttrType(d, "dtype", TF_TensorType(value));
  return TF_FinishOperation(d, s);
}

static inline TF_Operation* ScalarConst(TF_Graph* g, const char* name, float v, TF_Status* s) {
  TF_Tensor* t = FloatTensor(NULL, 0, &v);
  TF_Operation* op = Const(g, name, t, s);
  TF_DeleteTensor(t);
  return op;
}

static inline TF_Operation* Placeholder(TF_Graph* g, const char* name, TF_DataType type,
                                        TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", type);
  return TF_FinishOperation(d, s);
}

static inline TF_Operation* Binary(TF_Graph* g, const char* op, const char* name, TF_Operation* a,
                                   TF_Operation* b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, op, name);
  TF_Output x = {a, 0}, y = {b, 0};
  TF_AddInput(d, x);
  TF_AddInput(d, y);
  return TF_FinishOperation(d, s);
}

/* Ends the program: 0 when every check passed. */
static inline int Finish(void) {
  printf("%s: %d failure(s)\n", client_failures ? "FAILED" : "PASSED", client_failures);
  return client_failures ? 1 : 0;
}

#endif /* RILL_TESTS_RELIABILITY_C_CLIENTS_CLIENT_UTIL_H_ */
