// JPEG decoding and encoding over libjpeg-turbo, with TensorFlow's semantics (its DecodeJpeg,
// DecodeAndCropJpeg, ExtractJpegShape and EncodeJpeg kernels decode and encode with the same
// library): components 0 (the image's own, at most 3; CMYK converted to RGB), 1 or 3; ratio
// 1/2/4/8 as libjpeg's output scaling; fancy upsampling; the IFAST or ISLOW inverse DCT; a
// truncated stream either fails or, with try_recover_truncated, ends at a fake EOI marker.
//
// libjpeg reports fatal errors through error_exit: here it longjmps back into the function that
// called the library, which returns a Status, so bad bytes never abort the process. No C++ object
// with a destructor lives in a frame that a longjmp crosses.
#ifndef RILL_KERNELS_IMAGE_JPEG_CODEC_H_
#define RILL_KERNELS_IMAGE_JPEG_CODEC_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {
namespace jpeg_codec {

struct DecodeOptions {
  int components = 0;  // 0, 1 or 3
  int ratio = 1;       // 1, 2, 4 or 8: the output is the image scaled by 1/ratio
  bool fancy_upscaling = true;
  bool try_recover_truncated = false;
  float min_acceptable_fraction = 1.0f;
  bool accurate_dct = false;  // ISLOW; IFAST (TensorFlow's default) otherwise
  bool crop = false;
  int crop_y = 0, crop_x = 0, crop_height = 0, crop_width = 0;
};

// Returns the buffer for a [height, width, channels] uint8 image (rows contiguous), or the status
// that stops decoding (an allocator's ResourceExhausted).
using PixelAllocator = std::function<absl::StatusOr<uint8_t*>(int height, int width, int channels)>;

// Decodes `data` into the buffer `allocate` returns. Errors: the allocator's status, or
// DataLoss with libjpeg's reason (or the limit hit) for data TensorFlow refuses; callers turn the
// latter into their op's message.
absl::Status Decode(absl::string_view data, const DecodeOptions& options,
                    const PixelAllocator& allocate);

// The [height, width, components] libjpeg reports for `data` with its default output settings
// (TensorFlow's ExtractJpegShape); DataLoss with libjpeg's reason when the header is bad.
struct ImageShape {
  int height = 0;
  int width = 0;
  int components = 0;
};
absl::StatusOr<ImageShape> ReadShape(absl::string_view data);

struct EncodeOptions {
  int components = 3;  // 1 (grayscale) or 3 (RGB)
  int quality = 95;
  bool progressive = false;
  bool optimize_size = false;
  bool chroma_downsampling = true;
  int density_unit = 1;  // JFIF: 1 dots per inch, 2 dots per cm
  int x_density = 300;
  int y_density = 300;
  std::string xmp_metadata;  // written in an APP1 marker when not empty
};

// Encodes a [height, width, components] uint8 image; DataLoss with the reason on failure
// (including an empty image, which TensorFlow refuses).
absl::Status Encode(const uint8_t* pixels, int height, int width, const EncodeOptions& options,
                    std::string* out);

}  // namespace jpeg_codec
}  // namespace rill

#endif  // RILL_KERNELS_IMAGE_JPEG_CODEC_H_
