// Opening a CUDA library (cuBLAS, cuDNN) with dlopen when it is first needed, so no Rill binary
// depends on it at start-up: the first of several sonames found on the usual library search path,
// typed lookups of its functions, and the file it came from for the one stderr line that names
// it. Header-only (used by the .cu files). Thread-compatible; callers load once (a function-local
// static).
//
//   std::string tried;
//   void* lib = OpenFirstLibrary({"libcudnn.so.9", "libcudnn.so"}, &tried);
//   bool ok = ResolveSymbol(lib, "libcudnn", "cudnnCreate", &api.create, &error) && ...;
#ifndef RILL_CORE_GPU_DYNAMIC_LIBRARY_H_
#define RILL_CORE_GPU_DYNAMIC_LIBRARY_H_

#include <dlfcn.h>
#include <link.h>

#include <initializer_list>
#include <string>

namespace rill {
namespace gpu_internal {

// The handle of the first of `names` that dlopen (RTLD_NOW | RTLD_LOCAL) opens, or null with
// each attempt's dlerror() in *tried, joined by "; ".
inline void* OpenFirstLibrary(std::initializer_list<const char*> names, std::string* tried) {
  for (const char* name : names) {
    void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) return lib;
    const char* why = dlerror();
    *tried += std::string(tried->empty() ? "" : "; ") + (why != nullptr ? why : name);
  }
  return nullptr;
}

// *fn = `symbol` of `lib`; false with "<library> has no <symbol>" in *error when it is missing.
template <typename F>
bool ResolveSymbol(void* lib, const char* library, const char* symbol, F* fn, std::string* error) {
  *fn = reinterpret_cast<F>(dlsym(lib, symbol));
  if (*fn == nullptr) *error = std::string(library) + " has no " + symbol;
  return *fn != nullptr;
}

// The path `lib` was loaded from ("" when the loader cannot say).
inline std::string LibraryPath(void* lib) {
  link_map* map = nullptr;
  return dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr ? map->l_name : "";
}

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_DYNAMIC_LIBRARY_H_
