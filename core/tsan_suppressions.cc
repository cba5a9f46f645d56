// ThreadSanitizer's built-in suppressions for Rill (used by `--config=tsan`, .bazelrc; TSan asks
// for them through this weak hook, so no TSAN_OPTIONS path is needed; in other builds nothing
// calls it). Each entry is a false report caused by a library Rill links that Debian did not build
// with TSan, so its atomics' acquire/release edges are invisible; none of them is Rill's code.
//
// absl::Status shares one heap rep between copies: Status::Ref is inline (instrumented), but
// Unref's acq_rel decrement and the delete it guards live in the uninstrumented libabsl_status, so
// the last copy's delete reads as racing with an earlier copy's refcount update on another thread.
extern "C" const char* __tsan_default_suppressions() {
  return "race:absl::*::Status::Unref\n"
         "race:absl::*::Status::UnrefNonInlined\n";
}
