// TF_LoadLibrary: loads a shared library of custom ops and kernels written with Rill's C++
// registration macros (REGISTER_OP, REGISTER_KERNEL; examples/custom_op). The library is built
// against Rill's headers and linked with libtensorflow.so.2, which exports Rill's C++ API for it.
//
// Errors (TensorFlow's codes): a file that cannot be opened or linked is NotFound with the
// dynamic loader's message; a library whose registrations fail (an op or kernel already
// registered, a malformed op spec) is that registration's error (AlreadyExists,
// InvalidArgument), and the process goes on; what registered before the error stays registered,
// as the library stays loaded. Loading the same file again returns a handle listing the same
// ops. Libraries are never unloaded (their code backs registered kernels); TF_DeleteLibraryHandle
// frees the handle only.
#include <dlfcn.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "c/c_api_internal.h"
#include "core/registration_errors.h"
#include "ops/op_registry.h"
#include "proto/op_def.pb.h"

struct TF_Library {
  std::string op_list;  // serialized OpList of the ops the library registered
};

namespace {

// Ops each loaded library registered, by dlopen handle (a second load of one file finds them
// here). Guarded by the RegistrationErrorCollector every load holds.
std::map<void*, std::string>& LoadedLibraries() {
  static auto* libraries = new std::map<void*, std::string>;
  return *libraries;
}

}  // namespace

extern "C" {

TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status) {
  if (library_filename == nullptr) {
    rill_c::SetStatus(status, absl::InvalidArgumentError("library_filename is null"));
    return nullptr;
  }
  rill::OpRegistry* registry = rill::OpRegistry::Global();
  rill::RegistrationErrorCollector collector;
  const std::vector<std::string> before = registry->ListOps(/*include_internal=*/true);
  dlerror();
  void* handle = dlopen(library_filename, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    rill_c::SetStatus(status, absl::NotFoundError(error != nullptr ? error : library_filename));
    return nullptr;
  }
  if (!collector.status().ok()) {
    rill_c::SetStatus(status, collector.status());
    return nullptr;
  }
  auto [it, first_load] = LoadedLibraries().try_emplace(handle);
  if (first_load) {
    const std::set<std::string> known(before.begin(), before.end());
    rill::OpList ops;
    for (const std::string& name : registry->ListOps(/*include_internal=*/true)) {
      if (known.count(name)) continue;
      *ops.add_op() = registry->LookUp(name)->op_def;
    }
    ops.SerializeToString(&it->second);
  }
  rill_c::SetStatus(status, absl::OkStatus());
  return new TF_Library{it->second};
}

TF_Buffer TF_GetOpList(TF_Library* lib_handle) {
  if (lib_handle == nullptr) return TF_Buffer{nullptr, 0, nullptr};
  return TF_Buffer{lib_handle->op_list.data(), lib_handle->op_list.size(), nullptr};
}

void TF_DeleteLibraryHandle(TF_Library* lib_handle) { delete lib_handle; }

}  // extern "C"
