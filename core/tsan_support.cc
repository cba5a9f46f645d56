// What ThreadSanitizer builds (`--config=tsan`, .bazelrc) need to see Rill's synchronization
// through libraries that Debian did not build with TSan. Linked into everything that uses
// core/mutex.h; in other builds it defines nothing but an unused hook.
//
// absl::Status shares one heap rep between copies. Status::Ref (an atomic increment) is inline,
// so TSan sees it, but Status::UnrefNonInlined (the acq_rel decrement and the delete it guards)
// lives in the uninstrumented libabsl_status: the last copy's delete on one thread then reads as
// racing with another thread's earlier increment, and the library tail-calls operator delete, so
// no suppression can even name it. In TSan builds this file defines UnrefNonInlined with the
// library's exact logic (absl 20220623, absl/status/status.cc); the executable's definition
// interposes the shared library's, and TSan sees the acquire/release it performs.
#include <cstdint>

#include "absl/status/status.h"

#if defined(RILL_TSAN)
namespace absl {
ABSL_NAMESPACE_BEGIN

void Status::UnrefNonInlined(uintptr_t rep) {
  status_internal::StatusRep* r = RepToPointer(rep);
  // As the library: when this is the only reference no other thread may touch r.
  if (r->ref.load(std::memory_order_acquire) == 1 ||
      r->ref.fetch_sub(1, std::memory_order_acq_rel) - 1 == 0) {
    delete r;
  }
}

ABSL_NAMESPACE_END
}  // namespace absl
#endif  // defined(RILL_TSAN)

// TSan's built-in suppressions hook (read from the executable; empty: Rill needs none).
extern "C" const char* __tsan_default_suppressions() { return ""; }
