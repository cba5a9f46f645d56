/* Operations of one graph used with another: a fetch, a feed and a target of another graph's
   session, and an input from another graph in TF_AddInput. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g1 = TF_NewGraph();
  TF_Graph* g2 = TF_NewGraph();
  TF_Operation* a1 = ScalarConst(g1, "a", 1.0f, s);
  TF_Operation* only2 = ScalarConst(g2, "only_in_g2", 2.0f, s);
  TF_Operation* p2 = Placeholder(g2, "p2", TF_FLOAT, s);
  ExpectStatus("setup", s, TF_OK, NULL);
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g1, o, s);
  TF_DeleteSessionOptions(o);
  TF_Output fetch = {only2, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("fetch from another graph", s, RILL_OR_TF(TF_NOT_FOUND, TF_INVALID_ARGUMENT),
               RILL_OR_TF("FetchOutputs node only_in_g2:0: not found",
                          "Tensor only_in_g2:0, specified in either feed_devices or fetch_devices "
                          "was not found in the Graph"));
  ExpectTrue("no output", out == NULL);
  const TF_Operation* target = only2;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, &target, 1, NULL, s);
  ExpectStatus("target from another graph", s, TF_NOT_FOUND,
               "PruneForTargets: Some target nodes not found: only_in_g2");
  float v = 5;
  TF_Tensor* in = FloatTensor(NULL, 0, &v);
  TF_Output feed = {p2, 0}, fetch1 = {a1, 0};
  TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch1, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("feed from another graph", s, RILL_OR_TF(TF_NOT_FOUND, TF_INVALID_ARGUMENT),
               RILL_OR_TF("FeedInputs: unable to find feed output p2:0",
                          "Tensor p2:0, specified in either feed_devices or fetch_devices was not "
                          "found in the Graph"));
  TF_DeleteTensor(in);
  TF_DeleteTensor(out);
  out = NULL;
  /* The session still runs its own graph. */
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch1, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("own fetch", s, TF_OK, NULL);
  ExpectTrue("1", out != NULL && *(float*)TF_TensorData(out) == 1.0f);
  TF_DeleteTensor(out);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteGraph(g1);
  TF_DeleteGraph(g2);
  TF_DeleteStatus(s);
  return Finish();
}
