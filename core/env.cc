#include "core/env.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rill {

absl::StatusOr<bool> ReadBoolFromEnv(const char* name, bool default_value) {
  const char* value = std::getenv(name);
  if (value == nullptr) return default_value;
  const std::string lower = absl::AsciiStrToLower(value);
  if (lower == "1" || lower == "true") return true;
  if (lower == "0" || lower == "false") return false;
  return absl::InvalidArgumentError(
      absl::StrCat("Failed to parse the env-var ${", name, "} into bool: \"", value,
                   "\". Use the following values: 1, 0, true, false (case-insensitive)."));
}

absl::StatusOr<int64_t> ReadInt64FromEnv(const char* name, int64_t default_value) {
  const char* value = std::getenv(name);
  if (value == nullptr) return default_value;
  int64_t result;
  if (absl::SimpleAtoi(value, &result)) return result;
  return absl::InvalidArgumentError(
      absl::StrCat("Failed to parse the env-var ${", name, "} into int64: \"", value, "\"."));
}

std::string ReadStringFromEnv(const char* name, const std::string& default_value) {
  const char* value = std::getenv(name);
  if (value == nullptr) return default_value;
  return value;
}

}  // namespace rill
