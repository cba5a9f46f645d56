// The TF_* functions the run path calls, looked up in the libtensorflow.so.2 that rill's ctypes
// layer already loaded (by its dlopen handle). The module links no copy of the library of its
// own, so sessions, operations and tensors are the ones the ctypes layer made.
#ifndef RILL_PYTHON_CSRC_TF_FUNCTIONS_H_
#define RILL_PYTHON_CSRC_TF_FUNCTIONS_H_

#include <string>

#include "tensorflow/c/c_api.h"

namespace rill_py {

struct TfFunctions {
  decltype(&TF_NewStatus) new_status = nullptr;
  decltype(&TF_DeleteStatus) delete_status = nullptr;
  decltype(&TF_GetCode) get_code = nullptr;
  decltype(&TF_Message) message = nullptr;
  decltype(&TF_NewTensor) new_tensor = nullptr;
  decltype(&TF_DeleteTensor) delete_tensor = nullptr;
  decltype(&TF_TensorMaybeMove) maybe_move = nullptr;
  decltype(&TF_NumDims) num_dims = nullptr;
  decltype(&TF_Dim) dim = nullptr;
  decltype(&TF_TensorData) data = nullptr;
  decltype(&TF_TensorByteSize) byte_size = nullptr;
  decltype(&TF_DataTypeSize) type_size = nullptr;
  decltype(&TF_SessionRun) session_run = nullptr;
};

// Resolves every function from the dlopen handle. On failure returns false and names the first
// missing symbol in *missing.
bool BindTfFunctions(void* handle, TfFunctions* fns, std::string* missing);

}  // namespace rill_py

#endif  // RILL_PYTHON_CSRC_TF_FUNCTIONS_H_
