/* An empty graph: TF_GraphToGraphDef gives a GraphDef with no nodes that imports again, a
   session on it starts, and a run with nothing to fetch or run is InvalidArgument. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = TF_NewBuffer();
  TF_GraphToGraphDef(g, def, s);
  ExpectStatus("export", s, TF_OK, NULL);
  ExpectTrue("a buffer", def->data != NULL || def->length == 0);
  TF_Graph* g2 = TF_NewGraph();
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g2, def, opts, s);
  ExpectStatus("import of the empty GraphDef", s, TF_OK, NULL);
  size_t pos = 0;
  ExpectTrue("no operations", TF_GraphNextOperation(g2, &pos) == NULL);
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g2, o, s);
  ExpectStatus("session", s, TF_OK, NULL);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, NULL, s);
  ExpectStatus("empty run", s, TF_INVALID_ARGUMENT,
               "Must specify at least one target to fetch or execute.");
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(o);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g2);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
