// Helpers that read configuration from environment variables (RILL_CPP_MIN_LOG_LEVEL and the
// like), with TensorFlow's ReadBoolFromEnvVar / ReadInt64FromEnvVar semantics:
//
//   RILL_ASSIGN_OR_RETURN(bool sync, ReadBoolFromEnv("RILL_SYNC_EXECUTION", false));
//
// Only an unset variable yields the default; a set but empty or malformed value is an error for
// the typed readers.
//
// Thread safety: these call getenv(), which is safe against other getenv() calls but not against a
// concurrent setenv()/unsetenv()/putenv() in another thread (a POSIX rule). Change the
// environment only while no other thread reads it (tests do it before starting threads).
#ifndef RILL_CORE_ENV_H_
#define RILL_CORE_ENV_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace rill {

// Returns the boolean value of environment variable `name`, or `default_value` if it is unset.
// Accepts "1", "true", "0", "false", ASCII case-insensitive ("TRUE", "False"). Any other value,
// the empty string included, gives InvalidArgument whose message names the variable and the
// value. `name` must be a non-null NUL-terminated string.
absl::StatusOr<bool> ReadBoolFromEnv(const char* name, bool default_value);

// Returns the int64 value of environment variable `name`, or `default_value` if it is unset.
// Accepts an optionally signed decimal integer; surrounding ASCII whitespace is ignored. Any other
// value (empty, trailing junk, out of int64 range) gives InvalidArgument whose message names the
// variable and the value.
absl::StatusOr<int64_t> ReadInt64FromEnv(const char* name, int64_t default_value);

// Returns the value of environment variable `name` verbatim (possibly empty), or `default_value`
// if it is unset. Never fails.
std::string ReadStringFromEnv(const char* name, const std::string& default_value);

}  // namespace rill

#endif  // RILL_CORE_ENV_H_
