#include "python/csrc/tf_functions.h"

#include <dlfcn.h>

namespace rill_py {
namespace {

template <typename F>
bool Resolve(void* handle, const char* name, F* out, std::string* missing) {
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    *missing = name;
    return false;
  }
  *out = reinterpret_cast<F>(sym);
  return true;
}

}  // namespace

bool BindTfFunctions(void* handle, TfFunctions* fns, std::string* missing) {
  TfFunctions f;
  const bool ok = Resolve(handle, "TF_NewStatus", &f.new_status, missing) &&
                  Resolve(handle, "TF_DeleteStatus", &f.delete_status, missing) &&
                  Resolve(handle, "TF_GetCode", &f.get_code, missing) &&
                  Resolve(handle, "TF_Message", &f.message, missing) &&
                  Resolve(handle, "TF_NewTensor", &f.new_tensor, missing) &&
                  Resolve(handle, "TF_DeleteTensor", &f.delete_tensor, missing) &&
                  Resolve(handle, "TF_TensorMaybeMove", &f.maybe_move, missing) &&
                  Resolve(handle, "TF_NumDims", &f.num_dims, missing) &&
                  Resolve(handle, "TF_Dim", &f.dim, missing) &&
                  Resolve(handle, "TF_TensorData", &f.data, missing) &&
                  Resolve(handle, "TF_TensorByteSize", &f.byte_size, missing) &&
                  Resolve(handle, "TF_DataTypeSize", &f.type_size, missing) &&
                  Resolve(handle, "TF_SessionRun", &f.session_run, missing);
  if (ok) *fns = f;
  return ok;
}

}  // namespace rill_py
