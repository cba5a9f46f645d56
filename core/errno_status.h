// IOError: an errno value as an absl::Status, with the code TensorFlow gives it. Used wherever
// Rill reports a failed system call on a file (the C API's TF_SetStatusFromIOError, the file ops,
// .npy files, graph files), so one errno gets one code everywhere.
#ifndef RILL_CORE_ERRNO_STATUS_H_
#define RILL_CORE_ERRNO_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace rill {

// The code TensorFlow's errors::IOError gives `error` (an errno value): kOk for 0, kUnknown for
// values it does not list (EIO among them).
absl::StatusCode ErrnoToCode(int error);

// TensorFlow's errors::IOError: code ErrnoToCode(error), message "<context>; <strerror(error)>".
// OK when `error` is 0.
absl::Status IOError(absl::string_view context, int error);

}  // namespace rill

#endif  // RILL_CORE_ERRNO_STATUS_H_
