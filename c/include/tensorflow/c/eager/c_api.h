/* Rill's libtensorflow-compatible eager C API (TensorFlow's tensorflow/c/eager/c_api.h): run one
 * operation at a time on tensor handles, as cppflow 2 and other wrappers do.
 *
 * Names, argument orders and enum values are TensorFlow's. Rill serves the eager API on top of its
 * graph sessions: TFE_Execute runs the operation on the CPU in a one-operation graph, built and
 * kept by the context for each signature (operation, attributes, input types and list lengths,
 * device), so only the first call of a signature builds a session.
 *
 * Served: context options (a serialized ConfigProto, async and placement policy accepted; Rill
 * executes synchronously), contexts, TFE_ContextListDevices, TFE_ContextClearCaches, tensor
 * handles (created from a TF_Tensor whose buffer they share; TFE_TensorHandleResolve returns a
 * TF_Tensor sharing it too, as TensorFlow's CPU handles do), operations with every TFE_OpSetAttr*
 * (a function attr set from a TFE_Op takes its name), TFE_Execute, and the library functions
 * TFE_ContextAddFunction{,Def} add.
 * Other declared functions set TF_UNIMPLEMENTED ("<function> is not implemented in Rill").
 * A resource lives in the session that made it, so an operation with a resource or variant
 * output (VarHandleOp, the TensorList ops ...) is refused with TF_UNIMPLEMENTED: variables are
 * not served eagerly.
 */
#ifndef TENSORFLOW_C_EAGER_C_API_H_
#define TENSORFLOW_C_EAGER_C_API_H_

#include "tensorflow/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Context options ------------------------------------------------------------------------ */

typedef struct TFE_ContextOptions TFE_ContextOptions;

TF_CAPI_EXPORT extern TFE_ContextOptions* TFE_NewContextOptions(void);
/* `proto` is a serialized ConfigProto (the sessions' configuration); TF_INVALID_ARGUMENT when it
   does not parse. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetConfig(TFE_ContextOptions* options,
                                                       const void* proto, size_t proto_len,
                                                       TF_Status* status);

typedef enum TFE_ContextDevicePlacementPolicy {
  TFE_DEVICE_PLACEMENT_EXPLICIT = 0,
  TFE_DEVICE_PLACEMENT_WARN = 1,
  TFE_DEVICE_PLACEMENT_SILENT = 2,
  TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32 = 3,
} TFE_ContextDevicePlacementPolicy;

/* Accepted; Rill runs every operation before TFE_Execute returns. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetAsync(TFE_ContextOptions*, unsigned char enable);
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetDevicePlacementPolicy(
    TFE_ContextOptions*, TFE_ContextDevicePlacementPolicy);
TF_CAPI_EXPORT extern void TFE_DeleteContextOptions(TFE_ContextOptions*);

/* ---- Contexts ------------------------------------------------------------------------------- */

typedef struct TFE_Context TFE_Context;

TF_CAPI_EXPORT extern TFE_Context* TFE_NewContext(const TFE_ContextOptions* opts,
                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TFE_DeleteContext(TFE_Context* ctx);
TF_CAPI_EXPORT extern TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx, TF_Status* status);
/* Drops the kept one-operation sessions. */
TF_CAPI_EXPORT extern void TFE_ContextClearCaches(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextSetThreadLocalDevicePlacementPolicy(
    TFE_Context* ctx, TFE_ContextDevicePlacementPolicy policy);
TF_CAPI_EXPORT extern TFE_ContextDevicePlacementPolicy TFE_ContextGetDevicePlacementPolicy(
    TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextSetServerDef(TFE_Context* ctx, int keep_alive_secs,
                                                   const void* proto, size_t proto_len,
                                                   TF_Status* status);

/* ---- Tensor handles ------------------------------------------------------------------------- */

typedef struct TFE_TensorHandle TFE_TensorHandle;

/* A handle sharing `t`'s buffer; the caller still owns `t`. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_DeleteTensorHandle(TFE_TensorHandle* h);
TF_CAPI_EXPORT extern TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h);
TF_CAPI_EXPORT extern int TFE_TensorHandleNumDims(TFE_TensorHandle* h, TF_Status* status);
TF_CAPI_EXPORT extern int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h, TF_Status* status);
TF_CAPI_EXPORT extern int64_t TFE_TensorHandleDim(TFE_TensorHandle* h, int dim_index,
                                                  TF_Status* status);
/* "/job:localhost/replica:0/task:0/device:CPU:0"; owned by the handle. */
TF_CAPI_EXPORT extern const char* TFE_TensorHandleDeviceName(TFE_TensorHandle* h,
                                                             TF_Status* status);
TF_CAPI_EXPORT extern const char* TFE_TensorHandleBackingDeviceName(TFE_TensorHandle* h,
                                                                    TF_Status* status);
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(TFE_TensorHandle* h,
                                                                          TF_Status* status);
/* A TF_Tensor sharing the handle's buffer; the caller deletes it with TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h, TF_Status* status);
/* The CPU device (by any of its names) shares the buffer; other devices are TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleCopyToDevice(TFE_TensorHandle* h,
                                                                     TFE_Context* ctx,
                                                                     const char* device_name,
                                                                     TF_Status* status);

typedef struct TFE_TensorDebugInfo TFE_TensorDebugInfo;

TF_CAPI_EXPORT extern TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(TFE_TensorHandle* h,
                                                                           TF_Status* status);
TF_CAPI_EXPORT extern void TFE_DeleteTensorDebugInfo(TFE_TensorDebugInfo* debug_info);
TF_CAPI_EXPORT extern int TFE_TensorDebugInfoOnDeviceNumDims(TFE_TensorDebugInfo* debug_info);
TF_CAPI_EXPORT extern int64_t TFE_TensorDebugInfoOnDeviceDim(TFE_TensorDebugInfo* debug_info,
                                                             int dim_index);

/* ---- Operations ----------------------------------------------------------------------------- */

typedef struct TFE_Op TFE_Op;

/* TF_NOT_FOUND ("Op type not registered ...") for a name that is neither an op nor a function
   the context has. */
TF_CAPI_EXPORT extern TFE_Op* TFE_NewOp(TFE_Context* ctx, const char* op_or_function_name,
                                        TF_Status* status);
TF_CAPI_EXPORT extern void TFE_DeleteOp(TFE_Op* op);
TF_CAPI_EXPORT extern const char* TFE_OpGetName(const TFE_Op* op, TF_Status* status);
TF_CAPI_EXPORT extern TFE_Context* TFE_OpGetContext(const TFE_Op* op, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status);
TF_CAPI_EXPORT extern const char* TFE_OpGetDevice(const TFE_Op* op, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs,
                                              TF_Status* status);
TF_CAPI_EXPORT extern int TFE_OpGetFlatInputCount(const TFE_Op* op, TF_Status* status);
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op, int index,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern TF_AttrType TFE_OpGetAttrType(TFE_Op* op, const char* attr_name,
                                                    unsigned char* is_list, TF_Status* status);
TF_CAPI_EXPORT extern TF_AttrType TFE_OpNameGetAttrType(TFE_Context* ctx,
                                                        const char* op_or_function_name,
                                                        const char* attr_name,
                                                        unsigned char* is_list, TF_Status* status);

TF_CAPI_EXPORT extern void TFE_OpSetAttrString(TFE_Op* op, const char* attr_name, const void* value,
                                               size_t length);
TF_CAPI_EXPORT extern void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name, float value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name,
                                             unsigned char value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value);
/* num_dims -1: unknown rank; a dimension -1: unknown size. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name,
                                              const int64_t* dims, const int num_dims,
                                              TF_Status* out_status);
/* The function attrs: TFE_OpSetAttrFunctionName is served; the TFE_Op forms are recorded as the
   op's name without its attributes. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrFunction(TFE_Op* op, const char* attr_name,
                                                 const TFE_Op* value);
TF_CAPI_EXPORT void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name, const char* data,
                                              size_t length);
TF_CAPI_EXPORT extern void TFE_OpSetAttrTensor(TFE_Op* op, const char* attr_name, TF_Tensor* tensor,
                                               TF_Status* status);
TF_CAPI_EXPORT extern void TFE_OpSetAttrStringList(TFE_Op* op, const char* attr_name,
                                                   const void* const* values, const size_t* lengths,
                                                   int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrIntList(TFE_Op* op, const char* attr_name,
                                                const int64_t* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFloatList(TFE_Op* op, const char* attr_name,
                                                  const float* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrBoolList(TFE_Op* op, const char* attr_name,
                                                 const unsigned char* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrTypeList(TFE_Op* op, const char* attr_name,
                                                 const TF_DataType* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrShapeList(TFE_Op* op, const char* attr_name,
                                                  const int64_t** dims, const int* num_dims,
                                                  int num_values, TF_Status* out_status);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFunctionList(TFE_Op* op, const char* attr_name,
                                                     const TFE_Op** value, int num_values);

TF_CAPI_EXPORT extern int TFE_OpGetInputLength(TFE_Op* op, const char* input_name,
                                               TF_Status* status);
TF_CAPI_EXPORT extern int TFE_OpGetOutputLength(TFE_Op* op, const char* output_name,
                                                TF_Status* status);

/* Runs `op` on its inputs. On entry *num_retvals is the room in `retvals`; on return, the number
   of outputs, each a new handle the caller deletes. `op` may be executed again. */
TF_CAPI_EXPORT extern void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals,
                                       TF_Status* status);

/* ---- Functions and run metadata ------------------------------------------------------------- */

TF_CAPI_EXPORT extern void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function,
                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextAddFunctionDef(TFE_Context* ctx,
                                                     const char* serialized_function_def,
                                                     size_t size, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name);
TF_CAPI_EXPORT extern void TFE_ContextEnableRunMetadata(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextDisableRunMetadata(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextExportRunMetadata(TFE_Context* ctx, TF_Buffer* buf,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextStartStep(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextEndStep(TFE_Context* ctx);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_EAGER_C_API_H_ */
