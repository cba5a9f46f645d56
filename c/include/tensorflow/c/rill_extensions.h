/* Rill-only additions to the C API: functions TensorFlow's C API does not have, prefixed RILL_
   so that they never clash with TensorFlow's names. Exported from libtensorflow.so.2 beside the
   TF_ functions. */
#ifndef TENSORFLOW_C_RILL_EXTENSIONS_H_
#define TENSORFLOW_C_RILL_EXTENSIONS_H_

#include "tensorflow/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TF_AddGradientsWithPrefix with tf.gradients' options (what Rill's Python front end calls):
   - stop_gradients[0..nstop_gradients): tensors treated as constants (no gradient flows back
     through their operations); may be NULL when nstop_gradients is 0;
   - colocate_gradients_with_ops: each gradient operation is colocated with its forward operation;
   - unconnected_gradients_zero: an input `y` does not depend on gets zeros (1) or no gradient (0:
     its dy entry is {NULL, 0}, tf.gradients' None);
   - gate_gradients: an operation's input gradients are all computed before any is used.
   `prefix` NULL means "gradients" (made unique); `dx` NULL means ones. On error `status` says
   why (TF_NOT_FOUND for an op without a gradient function, naming it) and the graph is unchanged.
 */
TF_CAPI_EXPORT extern void RILL_AddGradientsWithOptions(
    TF_Graph* g, const char* prefix, TF_Output* y, int ny, TF_Output* x, int nx, TF_Output* dx,
    TF_Output* stop_gradients, int nstop_gradients, unsigned char colocate_gradients_with_ops,
    unsigned char unconnected_gradients_zero, unsigned char gate_gradients, TF_Status* status,
    TF_Output* dy);

/* Sets the device `oper` requests (as TF_SetDevice does before an operation is finished), for
   operations added by a call such as RILL_AddGradientsWithOptions that a front end places with
   its own device stack. "" clears it. A session that already ran the operation keeps the device
   it placed it on. TF_INVALID_ARGUMENT for a malformed device (naming the operation) or a null
   argument. */
TF_CAPI_EXPORT extern void RILL_SetOperationDevice(TF_Graph* g, TF_Operation* oper,
                                                   const char* device, TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_RILL_EXTENSIONS_H_ */
