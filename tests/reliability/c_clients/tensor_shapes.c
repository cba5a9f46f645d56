/* Tensors and shapes a careless caller makes: TF_AllocateTensor with a length that disagrees
   with the dims, shape attrs of unknown rank and unknown dims, TF_GraphGetTensorShape with a
   short buffer, TF_GraphSetTensorShape that contradicts the inferred shape. */
#include "client_util.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  const int64_t dims[2] = {2, 2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 2, 4 * sizeof(float));
  ExpectTrue("allocate", t != NULL && TF_TensorByteSize(t) == 16);
  TF_DeleteTensor(t);
  const int64_t empty[3] = {4, 0, 7};
  t = TF_AllocateTensor(TF_FLOAT, empty, 3, 0);
  ExpectTrue("zero-element tensor",
             t != NULL && TF_TensorElementCount(t) == 0 && TF_NumDims(t) == 3 && TF_Dim(t, 2) == 7);
  TF_DeleteTensor(t);

  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", "x");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", NULL, -1); /* unknown rank */
  TF_Operation* x = TF_FinishOperation(d, s);
  ExpectStatus("unknown-rank placeholder", s, TF_OK, NULL);
  TF_Output xo = {x, 0};
  ExpectTrue("rank -1", TF_GraphGetTensorNumDims(g, xo, s) == -1);
  const int64_t set[2] = {-1, 3};
  TF_GraphSetTensorShape(g, xo, set, 2, s);
  ExpectStatus("set [?,3]", s, TF_OK, NULL);
  int64_t got[2] = {0, 0};
  TF_GraphGetTensorShape(g, xo, got, 2, s);
  ExpectStatus("get", s, TF_OK, NULL);
  ExpectTrue("[-1,3]", got[0] == -1 && got[1] == 3);
  TF_GraphGetTensorShape(g, xo, got, 1, s);
  ExpectStatus("get into a short buffer", s, TF_INVALID_ARGUMENT,
               "Expected rank is 1 but actual rank is 2");
  const int64_t contra[2] = {2, 4};
  TF_GraphSetTensorShape(g, xo, contra, 2, s);
  ExpectStatus("set [2,4] over [?,3]", s, TF_INVALID_ARGUMENT,
               "Dimension 1 in both shapes must be equal, but are 3 and 4");
  const int64_t rank3[3] = {1, 2, 3};
  TF_GraphSetTensorShape(g, xo, rank3, 3, s);
  ExpectStatus("set rank 3 over rank 2", s, TF_INVALID_ARGUMENT,
               "Shapes must be equal rank, but are 2 and 3");
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return Finish();
}
