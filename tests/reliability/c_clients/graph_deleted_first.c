/* TF_DeleteGraph while a session still uses the graph: TensorFlow defers the deletion until the
   last session on it is deleted, so the session keeps running. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = Placeholder(g, "x", TF_FLOAT, s);
  TF_Operation* two = ScalarConst(g, "two", 2.0f, s);
  TF_Operation* y = Binary(g, "Mul", "y", x, two, s);
  ExpectStatus("build", s, TF_OK, NULL);
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, s);
  TF_DeleteSessionOptions(opts);
  ExpectStatus("new session", s, TF_OK, NULL);
  TF_DeleteGraph(g); /* deferred: the session holds it */
  for (int i = 0; i < 3; ++i) {
    float v = (float)i + 0.5f;
    TF_Tensor* in = FloatTensor(NULL, 0, &v);
    TF_Output feed = {x, 0}, fetch = {y, 0};
    TF_Tensor* out = NULL;
    TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch, &out, 1, NULL, 0, NULL, s);
    ExpectStatus("run after TF_DeleteGraph", s, TF_OK, NULL);
    ExpectTrue("value", out != NULL && *(float*)TF_TensorData(out) == 2 * v);
    TF_DeleteTensor(in);
    TF_DeleteTensor(out);
  }
  TF_CloseSession(sess, s);
  ExpectStatus("close", s, TF_OK, NULL);
  TF_DeleteSession(sess, s); /* frees the graph too */
  ExpectStatus("delete session", s, TF_OK, NULL);
  TF_DeleteStatus(s);
  return Finish();
}
