/* Operations named like one already in the graph, and inputs that do not exist: the errors
   TF_FinishOperation gives. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = ScalarConst(g, "a", 1.0f, s);
  ExpectStatus("a", s, TF_OK, NULL);
  TF_Operation* again = ScalarConst(g, "a", 2.0f, s);
  ExpectStatus("a again", s, TF_INVALID_ARGUMENT, "Duplicate node name in graph: 'a'");
  ExpectTrue("no second a", again == NULL);
  /* An input index past the producer's outputs. */
  TF_OperationDescription* d = TF_NewOperation(g, "Neg", "neg");
  TF_Output bad = {a, 4};
  TF_AddInput(d, bad);
  TF_Operation* neg = TF_FinishOperation(d, s);
  ExpectStatus("input a:4", s, TF_INVALID_ARGUMENT,
               "Attempt to add output 4 of a not in range [0, 1) to node with type Neg.");
  ExpectTrue("no neg", neg == NULL);
  /* Too few inputs. */
  d = TF_NewOperation(g, "AddV2", "add");
  TF_Output x = {a, 0};
  TF_AddInput(d, x);
  TF_Operation* add = TF_FinishOperation(d, s);
  ExpectStatus("one input of two", s, TF_INVALID_ARGUMENT,
               "1 inputs specified of 2 inputs in Op while building NodeDef 'add'");
  ExpectTrue("no add", add == NULL);
  /* An op type that is not registered. */
  d = TF_NewOperation(g, "NoSuchOp", "n");
  TF_Operation* n = TF_FinishOperation(d, s);
  ExpectStatus("unregistered op", s, TF_INVALID_ARGUMENT, "Op type not registered 'NoSuchOp'");
  ExpectTrue("no n", n == NULL);
  ExpectTrue("a is still there", TF_GraphOperationByName(g, "a") == a);
  ExpectTrue("no op named neg", TF_GraphOperationByName(g, "neg") == NULL);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
