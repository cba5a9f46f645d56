/* TF_SessionRun with counts that disagree with the arrays passed: feeds passed with ninputs 0,
   fetches passed with noutputs 0, targets passed with ntargets 0, and nothing to do at all. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = Placeholder(g, "x", TF_FLOAT, s);
  TF_Operation* one = ScalarConst(g, "one", 1.0f, s);
  TF_Operation* y = Binary(g, "AddV2", "y", x, one, s);
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, s);
  TF_DeleteSessionOptions(opts);
  ExpectStatus("setup", s, TF_OK, NULL);
  float v = 3;
  TF_Tensor* in = FloatTensor(NULL, 0, &v);
  TF_Output feed = {x, 0}, fetch = {y, 0};
  TF_Tensor* out = NULL;
  /* The feed array is there but ninputs says 0: x is not fed. */
  TF_SessionRun(sess, NULL, &feed, &in, 0, &fetch, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("ninputs 0 with a feed array", s, TF_INVALID_ARGUMENT,
               "You must feed a value for placeholder tensor 'x' with dtype float");
  ExpectTrue("no output on error", out == NULL);
  /* Fetch array there, noutputs 0, no targets: nothing to run. */
  TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch, &out, 0, NULL, 0, NULL, s);
  ExpectStatus("noutputs 0 and no targets", s, TF_INVALID_ARGUMENT,
               "Must specify at least one target to fetch or execute.");
  ExpectTrue("output untouched", out == NULL);
  /* A target array with ntargets 0 beside a fetch: only the fetch runs. */
  const TF_Operation* target = y;
  TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch, &out, 1, &target, 0, NULL, s);
  ExpectStatus("ntargets 0", s, TF_OK, NULL);
  ExpectTrue("value", out != NULL && *(float*)TF_TensorData(out) == 4.0f);
  TF_DeleteTensor(out);
  out = NULL;
  /* The same output fetched twice and the same tensor fed for one input. */
  TF_Output fetches[2] = {{y, 0}, {y, 0}};
  TF_Tensor* outs[2] = {NULL, NULL};
  TF_SessionRun(sess, NULL, &feed, &in, 1, fetches, outs, 2, NULL, 0, NULL, s);
  ExpectStatus("one output fetched twice", s, TF_OK, NULL);
  ExpectTrue("both values", outs[0] && outs[1] && *(float*)TF_TensorData(outs[0]) == 4.0f &&
                                *(float*)TF_TensorData(outs[1]) == 4.0f);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  /* One input fed twice. */
  TF_Output feeds2[2] = {{x, 0}, {x, 0}};
  TF_Tensor* ins2[2] = {in, in};
  TF_SessionRun(sess, NULL, feeds2, ins2, 2, &fetch, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("one input fed twice", s, TF_INVALID_ARGUMENT,
               "Endpoint \"x:0\" fed more than once.");
  TF_DeleteTensor(out);
  out = NULL;
  /* An output index past the op's outputs. */
  TF_Output bad = {y, 3};
  TF_SessionRun(sess, NULL, &feed, &in, 1, &bad, &out, 1, NULL, 0, NULL, s);
  ExpectStatus("fetch y:3", s, RILL_OR_TF(TF_INVALID_ARGUMENT, TF_OUT_OF_RANGE),
               RILL_OR_TF("FetchOutputs y:3: output index too large, must be < 1",
                          "Node 'y' (type: 'AddV2', num of outputs: 1) does not have output 3"));
  TF_DeleteTensor(in);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
