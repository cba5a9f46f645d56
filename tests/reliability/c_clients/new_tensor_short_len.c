/* TF_NewTensor with a deallocator and a length smaller than the dims require: TensorFlow returns
   NULL and has already called the deallocator once (the buffer is released with the tensor it
   could not make), so the caller must not free the data again. A longer length is accepted. */
#include "client_util.h"

static int deallocations = 0;
static void Deallocate(void* data, size_t len, void* arg) {
  (void)len;
  (void)arg;
  ++deallocations;
  free(data);
}

int main(void) {
  const int64_t dims[2] = {2, 3};
  float* data = (float*)malloc(6 * sizeof(float));
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 2, data, 8, Deallocate, NULL);
  ExpectTrue("short length gives NULL", t == NULL);
  ExpectTrue("deallocator called once", deallocations == 1);

  deallocations = 0;
  data = (float*)malloc(8 * sizeof(float));
  t = TF_NewTensor(TF_FLOAT, dims, 2, data, 8 * sizeof(float), Deallocate, NULL);
  ExpectTrue("longer length accepted", t != NULL);
  ExpectTrue("element count", t != NULL && TF_TensorElementCount(t) == 6);
  /* TensorFlow copies data that is not 64-byte aligned and releases it at once; either way the
     deallocator has run exactly once when the tensor is gone. */
  TF_DeleteTensor(t);
  ExpectTrue("deallocated once in all", deallocations == 1);

  /* A zero-element shape with a NULL buffer and length 0. */
  deallocations = 0;
  const int64_t empty[2] = {0, 3};
  t = TF_NewTensor(TF_FLOAT, empty, 2, NULL, 0, Deallocate, NULL);
  ExpectTrue("empty tensor", t != NULL && TF_TensorElementCount(t) == 0);
  TF_DeleteTensor(t);
  return Finish();
}
