/* Rill's libtensorflow-compatible experimental C API: the part of TensorFlow's
 * tensorflow/c/c_api_experimental.h that client programs use to configure sessions and contexts
 * (TF_CreateConfig, TF_CreateRunOptions, the XLA switches), debug strings and a few helpers.
 *
 * Names and signatures are TensorFlow's. Rill has no XLA: the XLA switches are recorded (each
 * returns or reports the value last set, as TensorFlow's do) and compile nothing; a ConfigProto
 * asking for XLA runs without it.
 */
#ifndef TENSORFLOW_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_C_API_EXPERIMENTAL_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the ConfigProto's global JIT level to ON_1 (enable) or OFF. */
TF_CAPI_EXPORT extern void TF_EnableXLACompilation(TF_SessionOptions* options,
                                                   unsigned char enable);
/* Each returns the value before the call. */
TF_CAPI_EXPORT unsigned char TF_SetXlaEnableLazyCompilation(unsigned char enable);
TF_CAPI_EXPORT unsigned char TF_SetTfXlaCpuGlobalJit(unsigned char enable);
TF_CAPI_EXPORT void TF_SetXlaAutoJitMode(const char* mode);
TF_CAPI_EXPORT unsigned char TF_GetXlaAutoJitEnabled(void);
TF_CAPI_EXPORT void TF_SetXlaMinClusterSize(int size);
TF_CAPI_EXPORT extern unsigned char TF_GetXlaConstantFoldingDisabled(void);
TF_CAPI_EXPORT extern void TF_SetXlaConstantFoldingDisabled(unsigned char should_enable);

/* A serialized ConfigProto: global JIT level ON_1 or OFF, gpu_options.allow_growth, and
   device_count {"CPU": num_cpu_devices}. The caller deletes the buffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CreateConfig(unsigned char enable_xla_compilation,
                                                 unsigned char gpu_memory_allow_growth,
                                                 unsigned int num_cpu_devices);
/* A serialized RunOptions, with trace_level FULL_TRACE when enable_full_trace. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CreateRunOptions(unsigned char enable_full_trace);

/* The graph's GraphDef (or the function's FunctionDef) in text form, malloc'd: the caller frees
   it with free(). *len is its length. */
TF_CAPI_EXPORT extern const char* TF_GraphDebugString(TF_Graph* graph, size_t* len);
TF_CAPI_EXPORT extern char* TF_FunctionDebugString(TF_Function* func, size_t* len);

/* A handle to a scalar of `data_type` holding the `len` bytes at `data` (copied). */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewTensorHandleFromScalar(TF_DataType data_type,
                                                                      void* data, size_t len,
                                                                      TF_Status* status);

TF_CAPI_EXPORT extern void TF_MakeInternalErrorStatus(TF_Status* status, const char* errMsg);

/* 1 when the registered op is stateful, 0 when not; TF_NOT_FOUND for an unknown op. */
TF_CAPI_EXPORT extern int TF_OpIsStateful(const char* op_type, TF_Status* status);

/* Nothing to initialize in Rill; the arguments are left as they are. */
TF_CAPI_EXPORT extern void TF_InitMain(const char* usage, int* argc, char*** argv);

/* Accepted; Rill's import checks no colocation constraints. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetValidateColocationConstraints(
    TF_ImportGraphDefOptions* opts, unsigned char enable);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
