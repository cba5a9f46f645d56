/* Feeds a careless caller gets wrong: another dtype, a shape the placeholder's shape attr
   refuses, a string tensor for a float, and a feed of a Const's output (allowed). */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", "x");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  const int64_t shape[2] = {-1, 2};
  TF_SetAttrShape(d, "shape", shape, 2);
  TF_Operation* x = TF_FinishOperation(d, s);
  TF_Operation* c = ScalarConst(g, "c", 10.0f, s);
  TF_Operation* y = Binary(g, "AddV2", "y", x, c, s);
  ExpectStatus("setup", s, TF_OK, NULL);
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  TF_DeleteSessionOptions(o);
  TF_Output feed = {x, 0}, fetch = {y, 0};
  TF_Tensor* out = NULL;

  const int64_t dims[2] = {1, 2};
  TF_Tensor* ints = TF_AllocateTensor(TF_INT32, dims, 2, 2 * sizeof(int32_t));
  memset(TF_TensorData(ints), 0, 2 * sizeof(int32_t));
  TF_SessionRun(sess, NULL, &feed, &ints, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("int32 for float", s, TF_INVALID_ARGUMENT,
               "Expects arg[0] to be float but int32 is provided");
  TF_DeleteTensor(ints);

  const int64_t three[2] = {1, 3};
  const float v3[3] = {1, 2, 3};
  TF_Tensor* wide = FloatTensor(three, 2, v3);
  TF_SessionRun(sess, NULL, &feed, &wide, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("shape [1,3] for [?,2]", s, TF_OK, NULL);
  TF_DeleteTensor(out);
  out = NULL;
  TF_DeleteTensor(wide);

  /* Feeding a Const's output replaces its value. */
  const float v2[2] = {1, 2};
  TF_Tensor* ok = FloatTensor(dims, 2, v2);
  float ten = 100;
  TF_Tensor* cval = FloatTensor(NULL, 0, &ten);
  TF_Output feeds[2] = {{x, 0}, {c, 0}};
  TF_Tensor* ins[2] = {ok, cval};
  TF_SessionRun(sess, NULL, feeds, ins, 2, &fetch, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("feed a Const", s, TF_OK, NULL);
  ExpectTrue("101 102", out != NULL && ((float*)TF_TensorData(out))[0] == 101.0f &&
                            ((float*)TF_TensorData(out))[1] == 102.0f);
  TF_DeleteTensor(out);
  TF_DeleteTensor(ok);
  TF_DeleteTensor(cval);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
