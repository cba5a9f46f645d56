// Status helpers Abseil 20220623 lacks: return early on error, unwrap a StatusOr or return.
//
//   RILL_RETURN_IF_ERROR(ParseThing(x));
//   RILL_ASSIGN_OR_RETURN(Tensor t, MakeTensor(proto));
//
// Both evaluate their argument once. Thread-compatible (they only touch locals).
#ifndef RILL_CORE_STATUS_MACROS_H_
#define RILL_CORE_STATUS_MACROS_H_

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define RILL_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::absl::Status rill_status_ = (expr);        \
    if (!rill_status_.ok()) return rill_status_; \
  } while (0)

#define RILL_STATUS_CONCAT_INNER_(a, b) a##b
#define RILL_STATUS_CONCAT_(a, b) RILL_STATUS_CONCAT_INNER_(a, b)

#define RILL_ASSIGN_OR_RETURN(lhs, rexpr) \
  RILL_ASSIGN_OR_RETURN_IMPL_(RILL_STATUS_CONCAT_(rill_statusor_, __LINE__), lhs, rexpr)

#define RILL_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                \
  if (!statusor.ok()) return statusor.status();           \
  lhs = std::move(statusor).value()

namespace rill {

// Returns `status` with `context` prepended to its message ("context: message"), same code.
// An OK status is returned unchanged.
absl::Status AnnotateStatus(const absl::Status& status, absl::string_view context);

// TensorFlow's name for a code, as its error classes and command-line tools print it:
// kInvalidArgument -> "InvalidArgument".
std::string StatusCodeName(absl::StatusCode code);

}  // namespace rill

#endif  // RILL_CORE_STATUS_MACROS_H_
