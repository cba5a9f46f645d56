#include "core/bounded_file.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace rill {

absl::StatusOr<std::string> ReadBoundedFile(absl::string_view label, const std::string& path,
                                            uint64_t max_bytes, absl::string_view limit_reason) {
  const std::string who = label.empty() ? path : absl::StrCat(label, "=", path);
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(who, ": ", why));
  };
  std::error_code ec;
  uintmax_t expected = 0;  // a regular file's size, when known and within the bound
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!ec) {
    if (std::filesystem::is_directory(st)) return error("is a directory, not a file");
    if (std::filesystem::is_character_file(st) || std::filesystem::is_block_file(st)) {
      return error("is a device, not a file");
    }
    if (std::filesystem::is_regular_file(st)) {
      const uintmax_t size = std::filesystem::file_size(path, ec);
      if (!ec && size > max_bytes) {
        return error(
            absl::StrCat("is ", size, " bytes, more than ", max_bytes, " (", limit_reason, ")"));
      }
      if (!ec) expected = size;
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(who, ": cannot be read"));
  std::string bytes;
  // A regular file's bytes in one allocation of its size: grown by appends, a large GraphDef's
  // string would reach up to twice the file's size, which then counts in the process's peak.
  if (expected > 0) bytes.reserve(static_cast<size_t>(expected));
  char buf[1 << 16];
  while (in && bytes.size() <= max_bytes) {
    in.read(buf, sizeof(buf));
    bytes.append(buf, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return absl::NotFoundError(absl::StrCat(who, ": cannot be read"));
  if (bytes.size() > max_bytes) {
    return error(absl::StrCat("holds more than ", max_bytes, " bytes (", limit_reason, ")"));
  }
  return bytes;
}

}  // namespace rill
