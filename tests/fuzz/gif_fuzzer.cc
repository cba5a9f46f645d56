// Fuzz target: the GIF decoder (kernels/image/gif_codec.h: DecodeGif, and GIFs given to
// DecodeImage, DecodePng and DecodeJpeg). The input is a GIF file. Decode either gives the frames,
// every output byte written (decoding into a buffer filled with 0x00 and one filled with 0xff
// gives the same bytes), or fails with InvalidArgument and a message. Without expand_animations
// it gives the first of those frames; it fails only with the same error (a later frame's colour
// error leaves the first frame decodable). Outputs are capped at 64 MiB (ResourceExhausted, passed
// through as it is), as an op's allocator refuses a large image.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "kernels/image/gif_codec.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr int64_t kMaxBytes = int64_t{64} << 20;

struct Result {
  absl::Status status;
  int frames = 0, height = 0, width = 0;
  std::vector<uint8_t> pixels;
};

Result Decode(absl::string_view data, bool expand, uint8_t fill) {
  Result r;
  r.status = rill::gif_codec::Decode(
      data, expand, [&](int frames, int height, int width) -> absl::StatusOr<uint8_t*> {
        FUZZ_CHECK(frames >= 1 && height >= 1 && width >= 1);
        const int64_t bytes = int64_t{frames} * height * width * 3;
        if (bytes > kMaxBytes) return absl::ResourceExhaustedError("too large");
        r.frames = frames;
        r.height = height;
        r.width = width;
        r.pixels.assign(bytes, fill);
        return r.pixels.data();
      });
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const Result all = Decode(input, /*expand=*/true, 0x00);
  if (!all.status.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(all.status) || absl::IsResourceExhausted(all.status));
    FUZZ_CHECK(!all.status.message().empty());
  }
  const Result first = Decode(input, /*expand=*/false, 0x00);
  if (all.status.ok()) {
    const Result again = Decode(input, /*expand=*/true, 0xff);
    FUZZ_CHECK(again.status.ok() && again.pixels == all.pixels);
    FUZZ_CHECK(first.status.ok());
    FUZZ_CHECK(first.frames == 1 && first.height == all.height && first.width == all.width);
    FUZZ_CHECK(std::memcmp(first.pixels.data(), all.pixels.data(), first.pixels.size()) == 0);
  } else if (absl::IsInvalidArgument(all.status)) {
    FUZZ_CHECK(first.status.ok() || first.status == all.status);
  }
  return 0;
}
