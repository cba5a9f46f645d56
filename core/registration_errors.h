// Rill. What static registrations (REGISTER_OP, REGISTER_KERNEL) do with an error such as a
// duplicate name or a malformed spec.
//
// In the program's own code such an error is a programming error found at start-up: the process
// ends with a message naming what failed. While a library of custom ops is being loaded at run
// time (TF_LoadLibrary), the loader holds a RegistrationErrorCollector, and the library's
// registrations record their errors there instead, so that loading a bad library is an error
// status for the caller and the process goes on.
//
//   RegistrationErrorCollector collector;          // one at a time; blocks another loader
//   void* handle = dlopen(path, RTLD_NOW);         // the library's registrations run here
//   absl::Status s = collector.status();           // the first error, or OK
//
// Thread-safe: collectors are serialized by a process-wide mutex held for their lifetime.
#ifndef RILL_CORE_REGISTRATION_ERRORS_H_
#define RILL_CORE_REGISTRATION_ERRORS_H_

#include "absl/status/status.h"

namespace rill {

class RegistrationErrorCollector {
 public:
  RegistrationErrorCollector();
  ~RegistrationErrorCollector();
  RegistrationErrorCollector(const RegistrationErrorCollector&) = delete;
  RegistrationErrorCollector& operator=(const RegistrationErrorCollector&) = delete;

  // The first error reported while this collector was active, or OK.
  absl::Status status() const { return first_error_; }

 private:
  friend void ReportRegistrationError(const absl::Status& error, const char* what);
  absl::Status first_error_;
};

// Records `error` (of a registration of kind `what`: "op", "kernel") in the active collector, or,
// when there is none, prints "Fatal <what> registration error: ..." and aborts.
void ReportRegistrationError(const absl::Status& error, const char* what);

}  // namespace rill

#endif  // RILL_CORE_REGISTRATION_ERRORS_H_
