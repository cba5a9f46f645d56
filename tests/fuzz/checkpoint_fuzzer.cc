// Fuzz target: reading TensorFlow checkpoints (core/io/tensor_bundle.h). The input is a 4-byte
// little-endian length L, then L bytes of "P.index" and the rest as "P.data-00000-of-00001"; they
// are written to a private directory and opened with BundleReader, which must either fail with a
// status and a message or list keys whose every Lookup and Entry returns a tensor or a status
// (DataLoss for corrupt bytes), never crash or read out of bounds.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/io/tensor_bundle.h"
#include "google/protobuf/stubs/logging.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

const std::string& Prefix() {
  static const std::string* prefix = [] {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("rill_checkpoint_fuzz_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return new std::string((dir / "ckpt").string());
  }();
  return *prefix;
}

void WriteFile(const std::string& path, const char* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  google::protobuf::LogSilencer quiet;  // protobuf's parse-error log lines are expected here
  uint32_t index_len = 0;
  std::memcpy(&index_len, data, 4);
  index_len = static_cast<uint32_t>(std::min<size_t>(index_len, size - 4));
  const char* index = reinterpret_cast<const char*>(data + 4);
  const std::string& prefix = Prefix();
  WriteFile(rill::BundleIndexFilename(prefix), index, index_len);
  WriteFile(rill::BundleDataFilename(prefix, 0, 1), index + index_len, size - 4 - index_len);

  absl::StatusOr<std::unique_ptr<rill::BundleReader>> reader = rill::BundleReader::Open(prefix);
  if (!reader.ok()) {
    FUZZ_CHECK(!reader.status().message().empty());
    return 0;
  }
  for (const std::string& key : (*reader)->Keys()) {
    absl::StatusOr<rill::BundleEntryProto> entry = (*reader)->Entry(key);
    FUZZ_CHECK(entry.ok());
    absl::StatusOr<rill::Tensor> t = (*reader)->Lookup(key);
    if (!t.ok()) FUZZ_CHECK(!t.status().message().empty());
  }
  FUZZ_CHECK((*reader)->Lookup("no such key \x01").status().code() == absl::StatusCode::kNotFound);
  return 0;
}
