// Entry points of TensorFlow's c_api.h that Rill does not serve yet. They exist so that every
// program written against libtensorflow links; each sets TF_UNIMPLEMENTED ("<function> is not
// implemented in Rill") where it has a status, and returns NULL / 0 / an empty value. None
// aborts, and the deletion functions accept anything their constructors could have returned
// (only NULL).
#include <string>

#include "c/c_api_internal.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"

namespace {

void Unimplemented(TF_Status* status, const char* function) {
  if (status == nullptr) return;
  status->code = TF_UNIMPLEMENTED;
  status->message = std::string(function) + " is not implemented in Rill";
}

}  // namespace

#define RILL_UNIMPLEMENTED(status) Unimplemented(status, __func__)

extern "C" {

// In-process servers.
TF_Server* TF_NewServer(const void*, size_t, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return nullptr;
}
void TF_ServerStart(TF_Server*, TF_Status* status) { RILL_UNIMPLEMENTED(status); }
void TF_ServerStop(TF_Server*, TF_Status* status) { RILL_UNIMPLEMENTED(status); }
void TF_ServerJoin(TF_Server*, TF_Status* status) { RILL_UNIMPLEMENTED(status); }
const char* TF_ServerTarget(TF_Server*) { return nullptr; }
void TF_DeleteServer(TF_Server*) {}
void TF_RegisterLogListener(void (*)(const char*)) {}
void TF_RegisterFilesystemPlugin(const char*, TF_Status* status) { RILL_UNIMPLEMENTED(status); }

// The eager API's remote contexts, run metadata and argument lengths (tensorflow/c/eager/c_api.h;
// the rest of it is served by eager_context.cc and eager_execute.cc).
void TFE_ContextSetServerDef(TFE_Context*, int, const void*, size_t, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
void TFE_ContextEnableRunMetadata(TFE_Context*) {}
void TFE_ContextDisableRunMetadata(TFE_Context*) {}
void TFE_ContextExportRunMetadata(TFE_Context*, TF_Buffer*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
int TFE_OpGetInputLength(TFE_Op*, const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return -1;
}
int TFE_OpGetOutputLength(TFE_Op*, const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return -1;
}

// c_api_experimental.h's checkpoint reader, attribute builder, named-tensor queues, collectives,
// shape inference of eager ops and pluggable devices.
TF_CheckpointReader* TF_NewCheckpointReader(const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return nullptr;
}
void TF_DeleteCheckpointReader(TF_CheckpointReader*) {}
int TF_CheckpointReaderHasTensor(TF_CheckpointReader*, const char*) { return 0; }
const char* TF_CheckpointReaderGetVariable(TF_CheckpointReader*, int) { return nullptr; }
int TF_CheckpointReaderSize(TF_CheckpointReader*) { return 0; }
TF_DataType TF_CheckpointReaderGetVariableDataType(TF_CheckpointReader*, const char*) {
  return static_cast<TF_DataType>(0);
}
void TF_CheckpointReaderGetVariableShape(TF_CheckpointReader*, const char*, int64_t*, int,
                                         TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
int TF_CheckpointReaderGetVariableNumDims(TF_CheckpointReader*, const char*) { return -1; }
TF_Tensor* TF_CheckpointReaderGetTensor(TF_CheckpointReader*, const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return nullptr;
}
TF_AttrBuilder* TF_NewAttrBuilder(const char*) { return nullptr; }
void TF_DeleteAttrBuilder(TF_AttrBuilder*) {}
void TF_AttrBuilderSetType(TF_AttrBuilder*, const char*, TF_DataType) {}
void TF_AttrBuilderSetTypeList(TF_AttrBuilder*, const char*, const TF_DataType*, int) {}
void TF_AttrBuilderCheckCanRunOnDevice(TF_AttrBuilder*, const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
TF_Tensor* TF_DequeueNamedTensor(TF_Session*, int, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return nullptr;
}
void TF_EnqueueNamedTensor(TF_Session*, int, TF_Tensor*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
int TF_PickUnusedPortOrDie(void) { return -1; }
void TFE_EnableCollectiveOps(TFE_Context*, const void*, size_t, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
void TFE_AbortCollectiveOps(TFE_Context*, TF_Status* status) { RILL_UNIMPLEMENTED(status); }
void TFE_CollectiveOpsCheckPeerHealth(TFE_Context*, const char*, int64_t, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}
void TFE_InferShapes(TFE_Op*, TF_ShapeAndTypeList*, TF_Tensor**, TF_ShapeAndTypeList*,
                     TF_ShapeAndTypeList**, TF_ShapeAndTypeList** output_shapes,
                     TF_ShapeAndTypeList*** output_resource_shapes_and_types, TF_Status* status) {
  if (output_shapes != nullptr) *output_shapes = nullptr;
  if (output_resource_shapes_and_types != nullptr) *output_resource_shapes_and_types = nullptr;
  RILL_UNIMPLEMENTED(status);
}
TF_Library* TF_LoadPluggableDeviceLibrary(const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
  return nullptr;
}
void TF_DeletePluggableDeviceLibraryHandle(TF_Library*) {}
void TF_GraphRemoveFunction(TF_Graph*, const char*, TF_Status* status) {
  RILL_UNIMPLEMENTED(status);
}

}  // extern "C"
