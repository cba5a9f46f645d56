/* A session used in the wrong order: closed twice, run after close, deleted without a close,
   two sessions on one graph with ops added between them, and an op added to a graph after a
   session ran it. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = ScalarConst(g, "a", 2.0f, s);
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  ExpectStatus("setup", s, TF_OK, NULL);
  TF_Output fa = {a, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fa, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("first run", s, TF_OK, NULL);
  TF_DeleteTensor(out);
  out = NULL;
  /* Ops added after the session ran are seen by its next run. */
  TF_Operation* b = Binary(g, "Mul", "b", a, a, s);
  TF_Output fb = {b, 0};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fb, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("op added after a run", s, TF_OK, NULL);
  ExpectTrue("4", out != NULL && *(float*)TF_TensorData(out) == 4.0f);
  TF_DeleteTensor(out);
  out = NULL;
  TF_Session* second = TF_NewSession(g, o, s);
  ExpectStatus("second session", s, TF_OK, NULL);
  TF_CloseSession(sess, s);
  ExpectStatus("close", s, TF_OK, NULL);
  TF_CloseSession(sess, s);
  ExpectStatus("close again", s, TF_OK, NULL);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fb, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("run after close", s, TF_CANCELLED, "Session has been closed.");
  ExpectTrue("no output", out == NULL);
  TF_DeleteSession(sess, s);
  ExpectStatus("delete", s, TF_OK, NULL);
  /* The other session is untouched; delete it without closing. */
  TF_SessionRun(second, NULL, NULL, NULL, 0, &fb, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("other session runs", s, TF_OK, NULL);
  TF_DeleteTensor(out);
  TF_DeleteSession(second, s);
  ExpectStatus("delete without close", s, TF_OK, NULL);
  TF_DeleteSessionOptions(o);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
