// Entry points of TensorFlow's c_api.h that Rill does not serve yet. They exist so that every
// program written against libtensorflow links; each sets TF_UNIMPLEMENTED ("<function> is not
// implemented in Rill") where it has a status, and returns NULL / 0 / an empty value. None
// aborts, and the deletion functions accept anything their constructors could have returned
// (only NULL).
#include <string>

#include "c/c_api_internal.h"
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

}  // extern "C"
