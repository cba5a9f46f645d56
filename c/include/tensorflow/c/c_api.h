/* Rill's libtensorflow-compatible C API: graphs, operations, sessions.
 *
 * Names, argument orders, enum values and struct layouts are those of TensorFlow's c_api.h, so a
 * program written against libtensorflow compiles and links against Rill's libtensorflow.so.
 *
 * Conventions:
 *  - Objects are opaque pointers created and destroyed through the API; every TF_Delete* accepts
 *    NULL.
 *  - A call with a TF_Status* argument sets it to TF_OK on success and to an error code and
 *    message otherwise (TensorFlow's codes, and its message texts where Rill produces the same
 *    error). Bad arguments (NULL pointers, out-of-range indexes, wrong types) are errors, never
 *    crashes.
 *  - unsigned char is used for booleans; int indexes arrays; size_t sizes memory.
 *  - Functions declared here that Rill does not serve yet set TF_UNIMPLEMENTED
 *    ("<function> is not implemented in Rill") and return NULL / 0.
 */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Library ------------------------------------------------------------------------------ */

/* The TensorFlow version this library stands in for, with a "-rill" suffix. */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* Decodes a serialized TensorProto into `to` (replacing its contents). */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to,
                                              TF_Status* status);

/* A string handed out by the API; not owned by the caller. */
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;

/* ---- Session options ------------------------------------------------------------------------ */

typedef struct TF_SessionOptions TF_SessionOptions;

TF_CAPI_EXPORT extern TF_SessionOptions* TF_NewSessionOptions(void);
/* "" or "local" run in process; Rill has no remote targets (TF_NewSession refuses others). */
TF_CAPI_EXPORT extern void TF_SetTarget(TF_SessionOptions* options, const char* target);
/* `proto` is a serialized ConfigProto; TF_INVALID_ARGUMENT when it does not parse. */
TF_CAPI_EXPORT extern void TF_SetConfig(TF_SessionOptions* options, const void* proto,
                                        size_t proto_len, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteSessionOptions(TF_SessionOptions*);

/* ---- Graphs and operations ------------------------------------------------------------------ */

/* A graph under construction. Calls on one graph may come from several threads. */
typedef struct TF_Graph TF_Graph;

TF_CAPI_EXPORT extern TF_Graph* TF_NewGraph(void);
/* The graph is freed once no session uses it any more. */
TF_CAPI_EXPORT extern void TF_DeleteGraph(TF_Graph*);

/* An operation being built; freed by TF_FinishOperation. */
typedef struct TF_OperationDescription TF_OperationDescription;

/* An operation of a graph; valid as long as the graph. */
typedef struct TF_Operation TF_Operation;

/* Input `index` of `oper`. */
typedef struct TF_Input {
  TF_Operation* oper;
  int index;
} TF_Input;

/* Output `index` of `oper`. */
typedef struct TF_Output {
  TF_Operation* oper;
  int index;
} TF_Output;

typedef struct TF_Function TF_Function;
typedef struct TF_FunctionOptions TF_FunctionOptions;

/* Merges dims[0, num_dims) (num_dims -1: unknown rank; dims -1: unknown) into the shape known
 * for `output`. TF_INVALID_ARGUMENT when the shapes contradict or `output` is not in `graph`. */
TF_CAPI_EXPORT extern void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output,
                                                  const int64_t* dims, const int num_dims,
                                                  TF_Status* status);
/* The rank known for `output`, -1 when unknown. */
TF_CAPI_EXPORT extern int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output,
                                                   TF_Status* status);
/* Writes the dims (-1 where unknown) into dims[0, num_dims); num_dims must be the rank. */
TF_CAPI_EXPORT extern void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims,
                                                  int num_dims, TF_Status* status);

/* As TF_NewOperation (Rill takes the graph's lock itself in both). */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph,
                                                                     const char* op_type,
                                                                     const char* oper_name);
/* Starts an operation of type `op_type` named `oper_name`; TF_FinishOperation adds it. */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                                               const char* oper_name);
TF_CAPI_EXPORT extern void TF_SetDevice(TF_OperationDescription* desc, const char* device);
/* Inputs are given in the order of the op's input arguments: one TF_AddInput per single-tensor
 * argument, one TF_AddInputList per list argument. Type and length attrs an input determines
 * (T, N, ...) are inferred when not set. */
TF_CAPI_EXPORT extern void TF_AddInput(TF_OperationDescription* desc, TF_Output input);
TF_CAPI_EXPORT extern void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs,
                                           int num_inputs);
TF_CAPI_EXPORT extern void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input);
/* Adds "loc:@<op name>" to the `_class` attr. */
TF_CAPI_EXPORT extern void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op);

TF_CAPI_EXPORT extern void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name,
                                            const void* value, size_t length);
TF_CAPI_EXPORT extern void TF_SetAttrStringList(TF_OperationDescription* desc,
                                                const char* attr_name, const void* const* values,
                                                const size_t* lengths, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name,
                                         int64_t value);
TF_CAPI_EXPORT extern void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name,
                                             const int64_t* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name,
                                           float value);
TF_CAPI_EXPORT extern void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name,
                                               const float* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name,
                                          unsigned char value);
TF_CAPI_EXPORT extern void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                                              const unsigned char* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name,
                                          TF_DataType value);
TF_CAPI_EXPORT extern void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                                              const TF_DataType* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrPlaceholder(TF_OperationDescription* desc,
                                                 const char* attr_name, const char* placeholder);
TF_CAPI_EXPORT extern void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name,
                                              const char* value, size_t length);
/* num_dims -1: unknown rank; a dim of -1: unknown. */
TF_CAPI_EXPORT extern void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name,
                                           const int64_t* dims, int num_dims);
TF_CAPI_EXPORT extern void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                                               const int64_t* const* dims, const int* num_dims,
                                               int num_shapes);
/* `proto` is a serialized TensorShapeProto. */
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc,
                                                      const char* attr_name, const void* proto,
                                                      size_t proto_len, TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc,
                                                          const char* attr_name,
                                                          const void* const* protos,
                                                          const size_t* proto_lens, int num_shapes,
                                                          TF_Status* status);
/* The value is copied; the caller keeps `value`. */
TF_CAPI_EXPORT extern void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name,
                                            TF_Tensor* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorList(TF_OperationDescription* desc,
                                                const char* attr_name, TF_Tensor* const* values,
                                                int num_values, TF_Status* status);
/* `proto` is a serialized AttrValue. */
TF_CAPI_EXPORT extern void TF_SetAttrValueProto(TF_OperationDescription* desc,
                                                const char* attr_name, const void* proto,
                                                size_t proto_len, TF_Status* status);

/* As TF_FinishOperation. */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc,
                                                             TF_Status* status);
/* Validates the description against the op's definition, runs its shape function and adds the
 * operation. On error the graph is unchanged and NULL is returned. Frees `desc` either way. */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperation(TF_OperationDescription* desc,
                                                       TF_Status* status);

/* Queries. Strings returned live as long as the graph. */
TF_CAPI_EXPORT extern const char* TF_OperationName(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationOpType(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationDevice(TF_Operation* oper);

TF_CAPI_EXPORT extern int TF_OperationNumOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationOutputType(TF_Output oper_out);
/* How many outputs the output argument `arg_name` stands for. */
TF_CAPI_EXPORT extern int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern int TF_OperationNumInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationInputType(TF_Input oper_in);
TF_CAPI_EXPORT extern int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name,
                                                      TF_Status* status);
/* The output feeding `oper_in` ({NULL, -1} when none). */
TF_CAPI_EXPORT extern TF_Output TF_OperationInput(TF_Input oper_in);
/* The producers of the first max_inputs inputs. */
TF_CAPI_EXPORT extern void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs,
                                                 int max_inputs);
TF_CAPI_EXPORT extern int TF_OperationOutputNumConsumers(TF_Output oper_out);
/* Writes up to max_consumers consumers; returns how many there are. */
TF_CAPI_EXPORT extern int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers,
                                                      int max_consumers);
TF_CAPI_EXPORT extern int TF_OperationNumControlInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlInputs(TF_Operation* oper,
                                                       TF_Operation** control_inputs,
                                                       int max_control_inputs);
TF_CAPI_EXPORT extern int TF_OperationNumControlOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlOutputs(TF_Operation* oper,
                                                        TF_Operation** control_outputs,
                                                        int max_control_outputs);

/* What an attr holds. total_size: bytes of a string (or of all strings of a list), the rank of
 * a shape (-1 unknown) or the sum of the ranks of a list of shapes; -1 otherwise. */
typedef struct TF_AttrMetadata {
  unsigned char is_list;
  int64_t list_size;
  TF_AttrType type;
  int64_t total_size;
} TF_AttrMetadata;

TF_CAPI_EXPORT extern TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper,
                                                                  const char* attr_name,
                                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name,
                                                     void* value, size_t max_length,
                                                     TF_Status* status);
/* values[i] point into storage[0, storage_size); fails when storage is too small. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name,
                                                         void** values, size_t* lengths,
                                                         int max_values, void* storage,
                                                         size_t storage_size, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name,
                                                  int64_t* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name,
                                                      int64_t* values, int max_values,
                                                      TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name,
                                                    float* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name,
                                                        float* values, int max_values,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name,
                                                   unsigned char* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name,
                                                       unsigned char* values, int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name,
                                                   TF_DataType* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name,
                                                       TF_DataType* values, int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name,
                                                    int64_t* value, int num_dims,
                                                    TF_Status* status);
/* dims[i] point into storage[0, storage_size); num_dims[i] is -1 for an unknown rank. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name,
                                                        int64_t** dims, int* num_dims,
                                                        int num_shapes, int64_t* storage,
                                                        int storage_size, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper,
                                                               const char* attr_name,
                                                               TF_Buffer* value, TF_Status* status);
/* values[i] are new buffers the caller deletes. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper,
                                                                   const char* attr_name,
                                                                   TF_Buffer** values,
                                                                   int max_values,
                                                                   TF_Status* status);
/* *value is a new tensor the caller deletes. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name,
                                                     TF_Tensor** value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name,
                                                         TF_Tensor** values, int max_values,
                                                         TF_Status* status);
/* The attr as a serialized AttrValue. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                                         TF_Buffer* output_attr_value,
                                                         TF_Status* status);
TF_CAPI_EXPORT extern int TF_OperationGetNumAttrs(TF_Operation* oper);
/* -1 when there is no attr i (attrs in name order). */
TF_CAPI_EXPORT extern int TF_OperationGetAttrNameLength(TF_Operation* oper, int i);
/* Writes the name of attr i (without a NUL) into output. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output,
                                                   TF_Status* status);

/* NULL when there is no such operation. */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name);
/* Iteration: size_t pos = 0; while ((op = TF_GraphNextOperation(g, &pos)) != NULL) ... */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos);
/* The graph as a serialized GraphDef. */
TF_CAPI_EXPORT extern void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def,
                                              TF_Status* status);
/* The serialized OpDef of a registered op. */
TF_CAPI_EXPORT extern void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name,
                                            TF_Buffer* output_op_def, TF_Status* status);
/* The graph's serialized VersionDef. */
TF_CAPI_EXPORT extern void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def,
                                            TF_Status* status);

/* ---- Importing GraphDefs -------------------------------------------------------------------- */

typedef struct TF_ImportGraphDefOptions TF_ImportGraphDefOptions;

TF_CAPI_EXPORT extern TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts);
/* Names of imported nodes become "<prefix>/<name>". */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts,
                                                             const char* prefix);
/* The device of imported nodes that request none. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* opts,
                                                                    const char* device);
/* Rename imported nodes whose names are taken ("x" -> "x_1") instead of failing. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* opts,
                                                                    unsigned char uniquify_names);
/* Rename a prefix that is taken instead of failing. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* opts,
                                                                     unsigned char uniquify_prefix);
/* Imported inputs naming src_name:src_index read `dst` (an output already in the graph). */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts,
                                                                   const char* src_name,
                                                                   int src_index, TF_Output dst);
/* Imported control inputs naming src_name become control inputs from `dst`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst);
/* Imported nodes without data inputs get a control input from `oper`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts,
                                                                   const char* oper_name,
                                                                   int index);
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOutputs(
    const TF_ImportGraphDefOptions* opts);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOperation(
    TF_ImportGraphDefOptions* opts, const char* oper_name);
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOperations(
    const TF_ImportGraphDefOptions* opts);

typedef struct TF_ImportGraphDefResults TF_ImportGraphDefResults;

/* The arrays belong to `results`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results,
                                                                 int* num_outputs,
                                                                 TF_Output** outputs);
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOperations(
    TF_ImportGraphDefResults* results, int* num_opers, TF_Operation*** opers);
/* Input mappings whose source no imported node used. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsMissingUnusedInputMappings(
    TF_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results);

/* Imports a serialized GraphDef into `graph`; NULL and the graph unchanged on error. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status);
/* num_return_outputs must equal TF_ImportGraphDefOptionsNumReturnOutputs(options). */
TF_CAPI_EXPORT extern void TF_GraphImportGraphDefWithReturnOutputs(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Output* return_outputs, int num_return_outputs, TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                                                  const TF_ImportGraphDefOptions* options,
                                                  TF_Status* status);

/* ---- Functions, control flow, gradients ----------------------------------------------------- */

TF_CAPI_EXPORT extern void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func,
                                                const TF_Function* grad, TF_Status* status);
TF_CAPI_EXPORT extern int TF_GraphNumFunctions(TF_Graph* g);
TF_CAPI_EXPORT extern int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func,
                                               TF_Status* status);
/* The operation as a serialized NodeDef. */
TF_CAPI_EXPORT extern void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def,
                                                 TF_Status* status);

typedef struct TF_WhileParams {
  const int ninputs;
  TF_Graph* const cond_graph;
  const TF_Output* const cond_inputs;
  TF_Output cond_output;
  TF_Graph* const body_graph;
  const TF_Output* const body_inputs;
  TF_Output* const body_outputs;
  const char* name;
} TF_WhileParams;

TF_CAPI_EXPORT extern TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs,
                                                 TF_Status* status);
TF_CAPI_EXPORT extern void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status,
                                          TF_Output* outputs);
TF_CAPI_EXPORT extern void TF_AbortWhile(const TF_WhileParams* params);

TF_CAPI_EXPORT extern void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx,
                                           TF_Output* dx, TF_Status* status, TF_Output* dy);
TF_CAPI_EXPORT extern void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y,
                                                     int ny, TF_Output* x, int nx, TF_Output* dx,
                                                     TF_Status* status, TF_Output* dy);

TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunction(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names, int ncontrol_outputs,
    const TF_Operation* const* control_outputs, const char* const* control_output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_FunctionName(TF_Function* func);
TF_CAPI_EXPORT extern void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name,
                                                        const void* proto, size_t proto_len,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                                        TF_Buffer* output_attr_value,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteFunction(TF_Function* func);

TF_CAPI_EXPORT extern unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output,
                                                           TF_Tensor** result, TF_Status* status);

/* ---- Sessions -------------------------------------------------------------------------------- */

typedef struct TF_Session TF_Session;

/* A session running `graph`, which stays alive as long as the session. Operations added to the
 * graph later are seen by later runs. */
TF_CAPI_EXPORT extern TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts,
                                                TF_Status* status);
/* Loads the SavedModel in export_dir whose MetaGraphDef has the tags `tags` into `graph` (which
 * must be empty) and a new session; meta_graph_def, when not NULL, receives the serialized
 * MetaGraphDef. */
TF_CAPI_EXPORT extern TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options, const char* export_dir,
    const char* const* tags, int tags_len, TF_Graph* graph, TF_Buffer* meta_graph_def,
    TF_Status* status);
TF_CAPI_EXPORT extern void TF_CloseSession(TF_Session*, TF_Status* status);
/* Frees the session (and the graph, if deleted and unused elsewhere). Null is allowed. */
TF_CAPI_EXPORT extern void TF_DeleteSession(TF_Session*, TF_Status* status);

/* Runs the graph, feeding inputs[i] with input_values[i] (the caller keeps them) and writing new
 * tensors for outputs[i] into output_values[i] (the caller deletes them; NULLs on error).
 * run_options (a serialized RunOptions) and run_metadata (receives a serialized RunMetadata) may
 * be NULL. May be called from several threads at once. */
TF_CAPI_EXPORT extern void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options,
                                         const TF_Output* inputs, TF_Tensor* const* input_values,
                                         int ninputs, const TF_Output* outputs,
                                         TF_Tensor** output_values, int noutputs,
                                         const TF_Operation* const* target_opers, int ntargets,
                                         TF_Buffer* run_metadata, TF_Status*);

TF_CAPI_EXPORT extern void TF_SessionPRunSetup(TF_Session*, const TF_Output* inputs, int ninputs,
                                               const TF_Output* outputs, int noutputs,
                                               const TF_Operation* const* target_opers,
                                               int ntargets, const char** handle, TF_Status*);
TF_CAPI_EXPORT extern void TF_SessionPRun(TF_Session*, const char* handle, const TF_Output* inputs,
                                          TF_Tensor* const* input_values, int ninputs,
                                          const TF_Output* outputs, TF_Tensor** output_values,
                                          int noutputs, const TF_Operation* const* target_opers,
                                          int ntargets, TF_Status*);
TF_CAPI_EXPORT extern void TF_DeletePRunHandle(const char* handle);

/* The session API from before TF_Graph (not served by Rill yet). */
typedef struct TF_DeprecatedSession TF_DeprecatedSession;

TF_CAPI_EXPORT extern TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions*,
                                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_CloseDeprecatedSession(TF_DeprecatedSession*, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteDeprecatedSession(TF_DeprecatedSession*, TF_Status* status);
TF_CAPI_EXPORT extern void TF_Reset(const TF_SessionOptions* opt, const char** containers,
                                    int ncontainers, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ExtendGraph(TF_DeprecatedSession*, const void* proto,
                                          size_t proto_len, TF_Status*);
TF_CAPI_EXPORT extern void TF_Run(TF_DeprecatedSession*, const TF_Buffer* run_options,
                                  const char** input_names, TF_Tensor** inputs, int ninputs,
                                  const char** output_names, TF_Tensor** outputs, int noutputs,
                                  const char** target_oper_names, int ntargets,
                                  TF_Buffer* run_metadata, TF_Status*);
TF_CAPI_EXPORT extern void TF_PRunSetup(TF_DeprecatedSession*, const char** input_names,
                                        int ninputs, const char** output_names, int noutputs,
                                        const char** target_oper_names, int ntargets,
                                        const char** handle, TF_Status*);
TF_CAPI_EXPORT extern void TF_PRun(TF_DeprecatedSession*, const char* handle,
                                   const char** input_names, TF_Tensor** inputs, int ninputs,
                                   const char** output_names, TF_Tensor** outputs, int noutputs,
                                   const char** target_oper_names, int ntargets, TF_Status*);

/* ---- Devices --------------------------------------------------------------------------------- */

typedef struct TF_DeviceList TF_DeviceList;

/* The session's devices; the caller deletes the list. */
TF_CAPI_EXPORT extern TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status);
TF_CAPI_EXPORT extern TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* session,
                                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteDeviceList(TF_DeviceList* list);
TF_CAPI_EXPORT extern int TF_DeviceListCount(const TF_DeviceList* list);
/* Full name ("/job:localhost/replica:0/task:0/device:CPU:0"); NULL and TF_INVALID_ARGUMENT
 * when index is out of range. */
TF_CAPI_EXPORT extern const char* TF_DeviceListName(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
/* "CPU", "GPU". */
TF_CAPI_EXPORT extern const char* TF_DeviceListType(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
/* -1 when index is out of range. */
TF_CAPI_EXPORT extern int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index,
                                                       TF_Status* status);
/* 0 when index is out of range. */
TF_CAPI_EXPORT extern uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index,
                                                        TF_Status* status);

/* ---- Op libraries and registries ------------------------------------------------------------ */

typedef struct TF_Library TF_Library;

TF_CAPI_EXPORT extern TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer TF_GetOpList(TF_Library* lib_handle);
TF_CAPI_EXPORT extern void TF_DeleteLibraryHandle(TF_Library* lib_handle);
/* Every registered op, as a serialized OpList; the caller deletes the buffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);

typedef struct TF_ApiDefMap TF_ApiDefMap;

TF_CAPI_EXPORT extern TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteApiDefMap(TF_ApiDefMap* apimap);
TF_CAPI_EXPORT extern void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text,
                                           size_t text_len, TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name,
                                                 size_t name_len, TF_Status* status);

TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status);
TF_CAPI_EXPORT extern void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst,
                                         TF_Status* status);

/* ---- In-process servers --------------------------------------------------------------------- */

typedef struct TF_Server TF_Server;

TF_CAPI_EXPORT extern TF_Server* TF_NewServer(const void* proto, size_t proto_len,
                                              TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerStart(TF_Server* server, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerStop(TF_Server* server, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerJoin(TF_Server* server, TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_ServerTarget(TF_Server* server);
TF_CAPI_EXPORT extern void TF_DeleteServer(TF_Server* server);

TF_CAPI_EXPORT extern void TF_RegisterLogListener(void (*listener)(const char*));
TF_CAPI_EXPORT extern void TF_RegisterFilesystemPlugin(const char* plugin_filename,
                                                       TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
