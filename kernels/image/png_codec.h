// PNG decoding and encoding over libpng, with TensorFlow's conversions (its DecodePng, DecodeImage
// and EncodePng kernels use the same library): any PNG (gray, gray+alpha, RGB, RGBA, palette with
// or without tRNS, 1 to 16 bits, interlaced) to 1, 2, 3 or 4 channels of 8 or 16 bits. Gray to
// RGB replicates; RGB to gray is libpng's rgb_to_gray with the 0.299/0.587 weights; alpha is added
// opaque or stripped; 8-bit data asked for as 16 bits is v * 257; 16-bit data asked for as 8 bits
// keeps the high byte.
//
// libpng reports errors by longjmp to the png_jmpbuf set in the function that called it; those
// functions hold no object with a destructor.
#ifndef RILL_KERNELS_IMAGE_PNG_CODEC_H_
#define RILL_KERNELS_IMAGE_PNG_CODEC_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace rill {
namespace png_codec {

// Two steps, as the caller allocates the output between them:
//   PngDecoder d;
//   if (!d.Init(data, channels, bits)) ...;    // header read, conversions set
//   ... allocate d.height() x d.width() x d.channels() ...
//   if (!d.Finish(pixels, row_bytes)) ...;     // pixels written
class PngDecoder {
 public:
  PngDecoder() = default;
  PngDecoder(const PngDecoder&) = delete;
  PngDecoder& operator=(const PngDecoder&) = delete;
  ~PngDecoder();

  // channels: 0 (the image's own; a palette gives 3, or 4 with tRNS), 1, 2, 3 or 4; bits: 8 or 16.
  bool Init(absl::string_view data, int channels, int bits);
  // Writes the image, rows `row_bytes` apart (at least width * channels * bits / 8).
  bool Finish(uint8_t* pixels, int64_t row_bytes);

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  int channels() const { return channels_; }
  // libpng's message for the last failure.
  const std::string& error() const { return error_; }

  // For libpng's callbacks.
  struct Reader {
    const uint8_t* data = nullptr;
    size_t left = 0;
    char message[256] = {0};
  };

 private:
  void Free();

  void* png_ = nullptr;   // png_structp
  void* info_ = nullptr;  // png_infop
  Reader reader_;
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  int bit_depth_ = 0;
  int channels_ = 0;
  int passes_ = 1;
  bool synthesize_16_ = false;
  std::string error_;
};

// Encodes `height` rows of `width` pixels of `channels` (1 to 4) samples of `bits` (8 or 16,
// native byte order) each, rows `row_bytes` apart; compression -1 (zlib's default) to 9. False for
// an empty image or a libpng error.
bool EncodePng(const void* pixels, int width, int height, int64_t row_bytes, int channels, int bits,
               int compression, std::string* out);

}  // namespace png_codec
}  // namespace rill

#endif  // RILL_KERNELS_IMAGE_PNG_CODEC_H_
