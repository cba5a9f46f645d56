/* The part of TensorFlow's tensorflow/c/eager/c_api_experimental.h that Rill's eager API serves:
 * programs that include it for handle and context queries compile and link against Rill.
 *
 * Names, signatures and errors are TensorFlow's (checked against TensorFlow 2.21's library). Rill's
 * eager handles live in host memory on its one CPU device and operations run synchronously, so:
 * a handle's device is "CPU" number 0 and its device pointer is its host buffer; waiting for
 * pending operations returns at once; the context id is 0 (TensorFlow's id of a local context);
 * TFRT is not part of Rill, and TFE_ContextOptionsSetTfrt is accepted and changes nothing. A null
 * handle is TF_INVALID_ARGUMENT "Invalid handle". The rest of TensorFlow's header (monitoring,
 * executors, custom devices, cancellation, remote contexts) is not declared.
 */
#ifndef TENSORFLOW_C_EAGER_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_EAGER_C_API_EXPERIMENTAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether to use TFRT: accepted and ignored (Rill has one runtime). */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetTfrt(TFE_ContextOptions*, bool use_tfrt);

/* The context's id: 0, TensorFlow's id of a context that no remote worker shares. */
TF_CAPI_EXPORT extern uint64_t TFE_GetContextId(TFE_Context* ctx);

/* Waits for the context's pending operations: none are pending (TFE_Execute is synchronous). */
TF_CAPI_EXPORT extern void TFE_ContextAsyncWait(TFE_Context* ctx, TF_Status* status);

/* The handle's buffer (valid until TFE_DeleteTensorHandle) and its size in bytes. */
TF_CAPI_EXPORT extern void* TFE_TensorHandleDevicePointer(TFE_TensorHandle*, TF_Status*);
TF_CAPI_EXPORT extern size_t TFE_TensorHandleDeviceMemorySize(TFE_TensorHandle*, TF_Status*);

/* The local host's address space, "/job:localhost/replica:0/task:0", into `buf`. */
TF_CAPI_EXPORT extern void TFE_HostAddressSpace(TFE_Context* ctx, TF_Buffer* buf);

/* The serialized FunctionDef of a function added to the context; TF_NOT_FOUND "Unable to find
   FunctionDef with name: NAME" otherwise. */
TF_CAPI_EXPORT extern void TFE_ContextGetFunctionDef(TFE_Context* ctx, const char* function_name,
                                                     TF_Buffer* buf, TF_Status* status);

/* The device type ("CPU") and id (0) of the device holding `h`; NULL and -1 for a null handle. */
TF_CAPI_EXPORT extern const char* TFE_TensorHandleDeviceType(TFE_TensorHandle* h,
                                                             TF_Status* status);
TF_CAPI_EXPORT extern int TFE_TensorHandleDeviceID(TFE_TensorHandle* h, TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_EAGER_C_API_EXPERIMENTAL_H_ */
