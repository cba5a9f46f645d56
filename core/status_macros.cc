#include "core/status_macros.h"

#include <cctype>

#include "absl/strings/str_cat.h"

namespace rill {

absl::Status AnnotateStatus(const absl::Status& status, absl::string_view context) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(context, ": ", status.message()));
}

std::string StatusCodeName(absl::StatusCode code) {
  std::string out;
  bool cap = true;
  for (char c : absl::StatusCodeToString(code)) {
    if (c == '_') {
      cap = true;
      continue;
    }
    out += cap ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    cap = false;
  }
  return out;
}

}  // namespace rill
