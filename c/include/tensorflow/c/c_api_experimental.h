/* Rill's libtensorflow-compatible experimental C API (TensorFlow 2.21's
 * tensorflow/c/c_api_experimental.h). Served: what client programs use to configure sessions and
 * contexts (TF_CreateConfig, TF_CreateRunOptions, the XLA switches), debug strings, scalar
 * handles, TF_OpIsStateful, shape-and-type lists and TF_GetNumberAttrForOpListInput. The rest is
 * declared so that programs link, and sets TF_UNIMPLEMENTED.
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

/* ---- Shape and type lists (TFE_InferShapes' arguments) ------------------------------------- */

typedef struct TF_ShapeAndType {
  int num_dims; /* -1: unknown rank */
  int64_t* dims;
  TF_DataType dtype;
} TF_ShapeAndType;

typedef struct TF_ShapeAndTypeList {
  int num_items;
  TF_ShapeAndType* items;
} TF_ShapeAndTypeList;

/* `num_shapes` items of unknown rank and type TF_FLOAT; the caller deletes the list. A list
   whose items cannot be allocated has no items (num_items 0). */
TF_CAPI_EXPORT extern TF_ShapeAndTypeList* TF_NewShapeAndTypeList(int num_shapes);
/* Item `index` gets rank `num_dims` (-1 or less: unknown) and `dims`. There is no status: a
   positive num_dims with null dims, a rank over TensorFlow's limit of 254 or an index out of
   range leaves the item of unknown rank (an index out of range: the list unchanged). */
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetShape(TF_ShapeAndTypeList* shape_list, int index,
                                                       const int64_t* dims, int num_dims);
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetUnknownShape(TF_ShapeAndTypeList* shape_list,
                                                              int index);
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetDtype(TF_ShapeAndTypeList* shape_list, int index,
                                                       TF_DataType dtype);
TF_CAPI_EXPORT extern void TF_DeleteShapeAndTypeList(TF_ShapeAndTypeList* shape_list);
TF_CAPI_EXPORT extern void TF_DeleteShapeAndTypeListArray(TF_ShapeAndTypeList** shape_list_array,
                                                          int num_items);

/* The name of the number attr of input `input_index` of the registered op (owned by the
   library); TF_INVALID_ARGUMENT for an index out of range, TF_NOT_FOUND when the input is not a
   list with a number attr. */
TF_CAPI_EXPORT extern const char* TF_GetNumberAttrForOpListInput(const char* op_name,
                                                                 int input_index,
                                                                 TF_Status* status);

/* ---- Declared so that programs link; each sets TF_UNIMPLEMENTED ("<function> is not
   implemented in Rill") where it has a status and returns NULL / 0 / -1. ------------------- */

typedef struct TF_CheckpointReader TF_CheckpointReader;
TF_CAPI_EXPORT extern TF_CheckpointReader* TF_NewCheckpointReader(const char* filename,
                                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteCheckpointReader(TF_CheckpointReader* reader);
TF_CAPI_EXPORT extern int TF_CheckpointReaderHasTensor(TF_CheckpointReader* reader,
                                                       const char* name);
TF_CAPI_EXPORT extern const char* TF_CheckpointReaderGetVariable(TF_CheckpointReader* reader,
                                                                 int index);
TF_CAPI_EXPORT extern int TF_CheckpointReaderSize(TF_CheckpointReader* reader);
TF_CAPI_EXPORT extern TF_DataType TF_CheckpointReaderGetVariableDataType(
    TF_CheckpointReader* reader, const char* name);
TF_CAPI_EXPORT extern void TF_CheckpointReaderGetVariableShape(TF_CheckpointReader* reader,
                                                               const char* name, int64_t* dims,
                                                               int num_dims, TF_Status* status);
TF_CAPI_EXPORT extern int TF_CheckpointReaderGetVariableNumDims(TF_CheckpointReader* reader,
                                                                const char* name);
TF_CAPI_EXPORT extern TF_Tensor* TF_CheckpointReaderGetTensor(TF_CheckpointReader* reader,
                                                              const char* name, TF_Status* status);

typedef struct TF_AttrBuilder TF_AttrBuilder;
TF_CAPI_EXPORT extern TF_AttrBuilder* TF_NewAttrBuilder(const char* op_name);
TF_CAPI_EXPORT extern void TF_DeleteAttrBuilder(TF_AttrBuilder* builder);
TF_CAPI_EXPORT extern void TF_AttrBuilderSetType(TF_AttrBuilder* builder, const char* attr_name,
                                                 TF_DataType value);
TF_CAPI_EXPORT extern void TF_AttrBuilderSetTypeList(TF_AttrBuilder* builder, const char* attr_name,
                                                     const TF_DataType* values, int num_values);
TF_CAPI_EXPORT extern void TF_AttrBuilderCheckCanRunOnDevice(TF_AttrBuilder* builder,
                                                             const char* device_type,
                                                             TF_Status* status);

TF_CAPI_EXPORT extern TF_Tensor* TF_DequeueNamedTensor(TF_Session* session, int tensor_id,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_EnqueueNamedTensor(TF_Session* session, int tensor_id,
                                                 TF_Tensor* tensor, TF_Status* status);
/* -1 (no port is picked; the process goes on). */
TF_CAPI_EXPORT int TF_PickUnusedPortOrDie(void);
TF_CAPI_EXPORT extern void TFE_EnableCollectiveOps(TFE_Context* ctx, const void* proto,
                                                   size_t proto_len, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbortCollectiveOps(TFE_Context* ctx, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_CollectiveOpsCheckPeerHealth(TFE_Context* ctx, const char* task,
                                                            int64_t timeout_in_ms,
                                                            TF_Status* status);
TF_CAPI_EXPORT extern void TFE_InferShapes(TFE_Op* op, TF_ShapeAndTypeList* input_shapes,
                                           TF_Tensor** input_tensors,
                                           TF_ShapeAndTypeList* input_tensor_as_shapes,
                                           TF_ShapeAndTypeList** input_resource_shapes_and_types,
                                           TF_ShapeAndTypeList** output_shapes,
                                           TF_ShapeAndTypeList*** output_resource_shapes_and_types,
                                           TF_Status* status);
TF_CAPI_EXPORT extern TF_Library* TF_LoadPluggableDeviceLibrary(const char* library_filename,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeletePluggableDeviceLibraryHandle(TF_Library* lib_handle);
TF_CAPI_EXPORT extern void TF_GraphRemoveFunction(TF_Graph* g, const char* func_name,
                                                  TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
