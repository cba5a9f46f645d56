// Fuzz target: session_runner's feeds and printed outputs. The input is a .npy file
// (tools/npy/npy.h). ParseNpy either fails with InvalidArgument, Unimplemented or
// ResourceExhausted and a message, or gives a tensor of rank <= 254 that SerializeNpy writes back
// to bytes ParseNpy reads as the same dtype, shape and values. ReadNpy of the same bytes in a file
// must agree with ParseNpy, and a parsed tensor is printed as session_runner prints a fetch
// (FormatLikeNumpy), which must end, whatever its shape.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/tensor.h"
#include "tests/fuzz/fuzz_check.h"
#include "tools/npy/npy.h"
#include "tools/session_runner/numpy_format.h"

namespace {

bool SameTensor(const rill::Tensor& a, const rill::Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == rill::DT_STRING) {
    absl::Span<const std::string> x = a.flat<std::string>();
    absl::Span<const std::string> y = b.flat<std::string>();
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  return a.TotalBytes() == b.TotalBytes() &&
         (a.TotalBytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.TotalBytes()) == 0);
}

bool ExpectedCode(absl::StatusCode code) {
  return code == absl::StatusCode::kInvalidArgument || code == absl::StatusCode::kUnimplemented ||
         code == absl::StatusCode::kResourceExhausted;
}

const std::string& Path() {
  static const std::string* path = [] {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("rill_npy_fuzz_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return new std::string((dir / "feed.npy").string());
  }();
  return *path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<rill::Tensor> parsed = rill::ParseNpy(bytes);
  {
    std::ofstream out(Path(), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  absl::StatusOr<rill::Tensor> read = rill::ReadNpy(Path());
  FUZZ_CHECK(read.status().code() == parsed.status().code());
  if (!parsed.ok()) {
    FUZZ_CHECK(ExpectedCode(parsed.status().code()));
    FUZZ_CHECK(!parsed.status().message().empty());
    FUZZ_CHECK(!read.status().message().empty());
    return 0;
  }
  FUZZ_CHECK(SameTensor(*parsed, *read));
  FUZZ_CHECK(parsed->shape().rank() <= rill::kNpyMaxRank);
  FUZZ_CHECK(!rill::FormatLikeNumpy(*parsed).empty());

  absl::StatusOr<std::string> written = rill::SerializeNpy(*parsed);
  // SerializeNpy refuses only dtypes numpy cannot hold, and ParseNpy never makes one.
  FUZZ_CHECK(written.ok());
  absl::StatusOr<rill::Tensor> again = rill::ParseNpy(*written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(SameTensor(*parsed, *again));
  return 0;
}
