/* Resource variables built through the C API with values of another static shape or dtype:
   TensorFlow's AssignVariableOp shape function merges the VarHandleOp's shape attr (reached
   through Identity too) with the value's shape, so TF_FinishOperation refuses the assignment;
   a value of unknown shape is checked only by the kernel, and only with validate_shape. */
#include "client_util.h"

static TF_Operation* VarHandle(TF_Graph* g, const char* name, const int64_t* dims, int rank,
                               TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, rank);
  TF_SetAttrString(d, "shared_name", name, strlen(name));
  return TF_FinishOperation(d, s);
}

static TF_Operation* Assign(TF_Graph* g, const char* name, TF_Operation* var, TF_Operation* value,
                            TF_DataType type, int validate, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "AssignVariableOp", name);
  TF_Output v = {var, 0}, x = {value, 0};
  TF_AddInput(d, v);
  TF_AddInput(d, x);
  TF_SetAttrType(d, "dtype", type);
  TF_SetAttrBool(d, "validate_shape", (unsigned char)validate);
  return TF_FinishOperation(d, s);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  const int64_t two[1] = {2}, three[1] = {3};
  const float v3[3] = {1, 2, 3}, v2[2] = {1, 2};
  TF_Operation* v = VarHandle(g, "v", two, 1, s);
  TF_Tensor* t3 = FloatTensor(three, 1, v3);
  TF_Tensor* t2 = FloatTensor(two, 1, v2);
  TF_Operation* c3 = Const(g, "c3", t3, s);
  TF_Operation* c2 = Const(g, "c2", t2, s);
  ExpectStatus("setup", s, TF_OK, NULL);
  ExpectTrue("bad assign refused", Assign(g, "bad", v, c3, TF_FLOAT, 0, s) == NULL);
  ExpectStatus(
      "[3] into a [2] variable", s, TF_INVALID_ARGUMENT,
      "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].");
  TF_OperationDescription* d = TF_NewOperation(g, "Identity", "vi");
  TF_Output vo = {v, 0};
  TF_AddInput(d, vo);
  TF_Operation* vi = TF_FinishOperation(d, s);
  ExpectTrue("through Identity refused", Assign(g, "bad2", vi, c3, TF_FLOAT, 1, s) == NULL);
  ExpectStatus(
      "[3] through Identity", s, TF_INVALID_ARGUMENT,
      "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].");
  TF_Operation* scalar = ScalarConst(g, "scalar", 1.0f, s);
  ExpectTrue("scalar refused", Assign(g, "bad3", v, scalar, TF_FLOAT, 0, s) == NULL);
  ExpectStatus("a scalar into [2]", s, TF_INVALID_ARGUMENT,
               "Shapes must be equal rank, but are 1 and 0");
  TF_Operation* ok = Assign(g, "ok", v, c2, TF_FLOAT, 0, s);
  ExpectStatus("[2] into [2]", s, TF_OK, NULL);
  /* A placeholder of unknown shape passes the shape function; the kernel checks with
     validate_shape once the variable holds a value. */
  TF_Operation* p = Placeholder(g, "p", TF_FLOAT, s);
  TF_Operation* check = Assign(g, "check", v, p, TF_FLOAT, 1, s);
  ExpectStatus("unknown shape accepted when built", s, TF_OK, NULL);
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  TF_DeleteSessionOptions(o);
  const TF_Operation* targets[1] = {ok};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, targets, 1, NULL, s);
  ExpectStatus("initialize", s, TF_OK, NULL);
  TF_Output feed = {p, 0};
  targets[0] = check;
  TF_SessionRun(sess, NULL, &feed, &t3, 1, NULL, NULL, 0, targets, 1, NULL, s);
  ExpectStatus("validate_shape at run time", s, TF_INVALID_ARGUMENT,
               "Trying to assign to variable with tensor with wrong shape. Expected [2] got [3]");
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteTensor(t2);
  TF_DeleteTensor(t3);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
