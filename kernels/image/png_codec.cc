#include "kernels/image/png_codec.h"

#include <png.h>
#include <zlib.h>

#include <cstring>

namespace rill {
namespace png_codec {
namespace {

void OnError(png_structp png, png_const_charp message) {
  auto* reader = static_cast<PngDecoder::Reader*>(png_get_error_ptr(png));
  if (reader != nullptr) {
    std::strncpy(reader->message, message, sizeof(reader->message) - 1);
  }
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

void ReadFromMemory(png_structp png, png_bytep out, png_size_t length) {
  auto* reader = static_cast<PngDecoder::Reader*>(png_get_io_ptr(png));
  if (reader->left < length) png_error(png, "More bytes requested to read than available");
  std::memcpy(out, reader->data, length);
  reader->data += length;
  reader->left -= length;
}

void WriteToString(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}

void FlushNothing(png_structp) {}

// Widens each row's first `samples` bytes to 16 bits (v * 257), in place from the end.
void Widen8To16(uint8_t* pixels, int64_t row_bytes, uint32_t height, int64_t samples) {
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t* row = pixels + y * row_bytes;
    uint16_t* wide = reinterpret_cast<uint16_t*>(row);
    for (int64_t i = samples; i-- > 0;) wide[i] = static_cast<uint16_t>(row[i] * 257);
  }
}

}  // namespace

PngDecoder::~PngDecoder() { Free(); }

void PngDecoder::Free() {
  if (png_ != nullptr) {
    png_structp png = static_cast<png_structp>(png_);
    png_infop info = static_cast<png_infop>(info_);
    png_destroy_read_struct(&png, info != nullptr ? &info : nullptr, nullptr);
  }
  png_ = nullptr;
  info_ = nullptr;
}

bool PngDecoder::Init(absl::string_view data, int channels, int bits) {
  reader_.data = reinterpret_cast<const uint8_t*>(data.data());
  reader_.left = data.size();
  reader_.message[0] = '\0';
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader_, OnError, OnWarning);
  if (png == nullptr) {
    error_ = "png_create_read_struct failed";
    return false;
  }
  png_ = png;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    error_ = "png_create_info_struct failed";
    Free();
    return false;
  }
  info_ = info;
  if (setjmp(png_jmpbuf(png))) {
    error_ = reader_.message;
    Free();
    return false;
  }
  png_set_read_fn(png, &reader_, ReadFromMemory);
  png_read_info(png, info);
  int color_type = 0;
  png_get_IHDR(png, info, &width_, &height_, &bit_depth_, &color_type, nullptr, nullptr, nullptr);
  if (width_ == 0 || height_ == 0) {
    error_ = "invalid dimensions";
    Free();
    return false;
  }
  const bool has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  channels_ = channels;
  if (channels_ == 0) {
    channels_ =
        color_type == PNG_COLOR_TYPE_PALETTE ? (has_trns ? 4 : 3) : png_get_channels(png, info);
  }
  const bool has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0;
  if (channels_ % 2 == 0) {  // alpha wanted
    if (!has_alpha) {
      if (has_trns) {
        png_set_tRNS_to_alpha(png);
      } else {
        png_set_add_alpha(png, (1u << bit_depth_) - 1, PNG_FILLER_AFTER);
      }
    }
  } else if (has_alpha || has_trns) {
    png_set_strip_alpha(png);
  }
  if (bit_depth_ > 8 && bits <= 8) png_set_strip_16(png);
  synthesize_16_ = bit_depth_ <= 8 && bits == 16;
  png_set_packing(png);
  passes_ = png_set_interlace_handling(png);
  if (bits > 8) png_set_swap(png);  // PNG is big-endian; samples are native (little-endian)
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  const bool want_gray = channels_ < 3;
  const bool is_gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
  if (is_gray && bit_depth_ < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (want_gray) {
    if (!is_gray) png_set_rgb_to_gray(png, 1, 0.299, 0.587);
  } else if (is_gray) {
    png_set_gray_to_rgb(png);
  }
  png_read_update_info(png, info);
  return true;
}

bool PngDecoder::Finish(uint8_t* pixels, int64_t row_bytes) {
  png_structp png = static_cast<png_structp>(png_);
  png_infop info = static_cast<png_infop>(info_);
  if (png == nullptr) return false;
  if (setjmp(png_jmpbuf(png))) {
    error_ = reader_.message;
    Free();
    return false;
  }
  for (int pass = 0; pass < passes_; ++pass) {
    uint8_t* row = pixels;
    for (uint32_t y = 0; y < height_; ++y, row += row_bytes) png_read_row(png, row, nullptr);
  }
  png_read_end(png, info);
  Free();
  if (synthesize_16_) {
    Widen8To16(pixels, row_bytes, height_, static_cast<int64_t>(width_) * channels_);
  }
  return true;
}

bool EncodePng(const void* pixels, int width, int height, int64_t row_bytes, int channels, int bits,
               int compression, std::string* out) {
  out->clear();
  if (width == 0 || height == 0) return false;
  int color_type = 0;
  switch (channels) {
    case 1:
      color_type = PNG_COLOR_TYPE_GRAY;
      break;
    case 2:
      color_type = PNG_COLOR_TYPE_GRAY_ALPHA;
      break;
    case 3:
      color_type = PNG_COLOR_TYPE_RGB;
      break;
    case 4:
      color_type = PNG_COLOR_TYPE_RGB_ALPHA;
      break;
    default:
      return false;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, OnError, OnWarning);
  if (png == nullptr) return false;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    out->clear();
    return false;
  }
  png_set_write_fn(png, out, WriteToString, FlushNothing);
  png_set_compression_level(png, compression < 0 ? Z_DEFAULT_COMPRESSION : compression);
  png_set_compression_mem_level(png, MAX_MEM_LEVEL);
  png_set_IHDR(png, info, width, height, bits, color_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (bits > 8) png_set_swap(png);
  const uint8_t* row = static_cast<const uint8_t*>(pixels);
  for (int y = 0; y < height; ++y, row += row_bytes) {
    png_write_row(png, const_cast<png_bytep>(row));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace png_codec
}  // namespace rill
