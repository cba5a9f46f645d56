/* TF_SetAttr* of the wrong kind for the attr: the error comes from TF_FinishOperation
   (InvalidArgument naming the kinds), and the graph stays usable. */
#include "client_util.h"

static void Expect(const char* label, TF_Graph* g, const char* op, const char* name,
                   void (*set)(TF_OperationDescription*), const char* part) {
  TF_Status* s = TF_NewStatus();
  TF_OperationDescription* d = TF_NewOperation(g, op, name);
  set(d);
  TF_Operation* o = TF_FinishOperation(d, s);
  ExpectStatus(label, s, TF_INVALID_ARGUMENT, part);
  ExpectTrue("no operation", o == NULL);
  TF_DeleteStatus(s);
}

static void IntForType(TF_OperationDescription* d) { TF_SetAttrInt(d, "dtype", 1); }
static void FloatForBool(TF_OperationDescription* d) {
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrFloat(d, "shape", 1.5f);
}
static void StringForType(TF_OperationDescription* d) { TF_SetAttrString(d, "dtype", "float", 5); }
static void UnknownAttr(TF_OperationDescription* d) {
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrInt(d, "no_such_attr", 3);
}
static void TypeListForType(TF_OperationDescription* d) {
  TF_DataType types[2] = {TF_FLOAT, TF_INT32};
  TF_SetAttrTypeList(d, "dtype", types, 2);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  Expect("int for a type attr", g, "Placeholder", "p1", IntForType,
         "AttrValue had value with type 'int' when 'type' expected");
  Expect("float for a shape attr", g, "Placeholder", "p2", FloatForBool,
         "AttrValue had value with type 'float' when 'shape' expected");
  Expect("string for a type attr", g, "Placeholder", "p3", StringForType,
         "AttrValue had value with type 'string' when 'type' expected");
  /* An attr the op does not declare: TensorFlow's TF_FinishOperation keeps it (its GraphDef
     import refuses the same NodeDef); Rill refuses it when the operation is built, with the
     import's text. */
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", "p4");
  UnknownAttr(d);
  TF_Operation* p4 = TF_FinishOperation(d, s);
  if (TF_GetCode(s) == TF_OK) {
    ExpectTrue("unknown attr kept (TensorFlow)", p4 != NULL);
  } else {
    ExpectStatus("unknown attr refused (Rill)", s, TF_INVALID_ARGUMENT,
                 "NodeDef mentions attr 'no_such_attr' not in Op<name=Placeholder;");
  }
  Expect("type list for a type attr", g, "Placeholder", "p5", TypeListForType,
         "AttrValue had value with type 'list(type)' when 'type' expected");
  /* The graph is still usable, and a failed name may be used again. */
  TF_Operation* p = Placeholder(g, "p1", TF_FLOAT, s);
  ExpectStatus("a failed op's name is free", s, TF_OK, NULL);
  ExpectTrue("operation made", p != NULL);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
