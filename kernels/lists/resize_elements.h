// ResizeElements: grows a kernel's element vector (a TensorList's or TensorArray's) to a size that
// came from an input value, failing as ResourceExhausted instead of aborting the process.
#ifndef RILL_KERNELS_LISTS_RESIZE_ELEMENTS_H_
#define RILL_KERNELS_LISTS_RESIZE_ELEMENTS_H_

#include <cstdint>
#include <new>
#include <stdexcept>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/memory/host_memory.h"

namespace rill {

// Resizes `v` to `n` elements (n from an input value): ResourceExhausted "OOM when allocating
// <what> of <n> elements (<bytes> bytes each)", never std::bad_alloc or std::length_error, when
// the elements would not fit the host's physical memory (checked first, so an over-committed
// allocation is never touched) or the allocation fails.
template <typename T>
absl::Status ResizeElements(std::vector<T>* v, int64_t n, const char* what) {
  const absl::Status oom = absl::ResourceExhaustedError(absl::StrCat(
      "OOM when allocating ", what, " of ", n, " elements (", sizeof(T), " bytes each)"));
  if (n < 0 || static_cast<uint64_t>(n) > v->max_size() ||
      static_cast<uint64_t>(n) > PhysicalMemoryBytes() / sizeof(T)) {
    return oom;
  }
  try {
    v->resize(static_cast<size_t>(n));
  } catch (const std::bad_alloc&) {
    return oom;
  } catch (const std::length_error&) {
    return oom;
  }
  return absl::OkStatus();
}

}  // namespace rill

#endif  // RILL_KERNELS_LISTS_RESIZE_ELEMENTS_H_
