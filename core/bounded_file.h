// Reading a file whose path comes from input (a flag, a SavedModel directory) without bound on
// nothing: a directory, a device (/dev/zero) or a file longer than `max_bytes` is
// InvalidArgument naming it and saying why; a pipe is read up to the bound. Errors start with
// "<label>=<path>: " (a flag's form, "--graph=g.pb: ...") or, with an empty label, "<path>: ".
//
//   RILL_ASSIGN_OR_RETURN(std::string bytes,
//                         ReadBoundedFile("--config", path, 16 << 20, "a config is small"));
#ifndef RILL_CORE_BOUNDED_FILE_H_
#define RILL_CORE_BOUNDED_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

// Protobuf's limit on one message's size (a GraphDef, a SavedModel).
inline constexpr uint64_t kMaxProtoBytes = (uint64_t{1} << 31) - 1;

// NotFound when the file cannot be opened or read.
absl::StatusOr<std::string> ReadBoundedFile(absl::string_view label, const std::string& path,
                                            uint64_t max_bytes, absl::string_view limit_reason);

}  // namespace rill

#endif  // RILL_CORE_BOUNDED_FILE_H_
