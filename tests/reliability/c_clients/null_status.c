/* RILL_ONLY: TensorFlow dereferences the status argument, so these calls crash there; Rill's C
   API takes a NULL status as "report nowhere" and carries on. Build, run and tear down a graph
   passing NULL for every TF_Status*. */
#include "client_util.h"

int main(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = ScalarConst(g, "a", 3.0f, NULL);
  TF_Operation* b = Binary(g, "Mul", "b", a, a, NULL);
  ExpectTrue("built", a != NULL && b != NULL);
  TF_Operation* dup = ScalarConst(g, "a", 1.0f, NULL);
  ExpectTrue("a failing build gives NULL", dup == NULL);
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, NULL);
  ExpectTrue("session", sess != NULL);
  TF_Output fetch = {b, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &out, 1, NULL, 0, NULL, NULL);
  ExpectTrue("9", out != NULL && *(float*)TF_TensorData(out) == 9.0f);
  TF_DeleteTensor(out);
  out = NULL;
  TF_Output bad = {b, 7};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &bad, &out, 1, NULL, 0, NULL, NULL);
  ExpectTrue("a failing run gives no output", out == NULL);
  TF_Buffer* def = TF_NewBuffer();
  TF_GraphToGraphDef(g, def, NULL);
  ExpectTrue("exported", def->length > 0);
  TF_DeleteBuffer(def);
  TF_CloseSession(sess, NULL);
  TF_DeleteSession(sess, NULL);
  TF_DeleteSessionOptions(o);
  TF_DeleteGraph(g);
  return Finish();
}
