#include "kernels/image/gif_codec.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace rill {
namespace gif_codec {
namespace {

// Returns from the enclosing function when `expr` is an Error other than kNone.
#define RILL_RETURN_IF_GIF_ERROR(expr) \
  do {                                 \
    const auto e_ = (expr);            \
    if (e_ != Error::kNone) return e_; \
  } while (0)

constexpr int kLzMaxCode = 4095;  // the largest code a 12-bit table holds
constexpr int kLzBits = 12;
constexpr int kNoSuchCode = 4098;  // an unused table entry

// giflib's D_GIF_ERR_* conditions, with its texts (GifErrorString).
enum class Error {
  kNone,
  kReadFailed,
  kNoScreenDesc,
  kNotGif,
  kNoImageDesc,
  kWrongRecord,
  kImageDefect,
  kEofTooSoon,
  kBadImageSize
};

const char* ErrorText(Error e) {
  switch (e) {
    case Error::kReadFailed:
      return "Failed to read from given file";
    case Error::kNotGif:
      return "Data is not in GIF format";
    case Error::kNoScreenDesc:
      return "No screen descriptor detected";
    case Error::kNoImageDesc:
      return "No Image Descriptor detected";
    case Error::kWrongRecord:
      return "Wrong record type detected";
    case Error::kImageDefect:
      return "Image is defective, decoding aborted";
    case Error::kEofTooSoon:
      return "Image EOF detected before image complete";
    case Error::kNone:
    case Error::kBadImageSize:  // giflib sets no error code for it
      break;
  }
  return "Unknown error";
}

struct ColorMap {
  int count = 0;  // 0: none
  std::vector<uint8_t> rgb;
};

struct Image {
  int left = 0, top = 0, width = 0, height = 0;
  bool interlace = false;
  ColorMap map;
  std::vector<uint8_t> raster;
  int transparent = -1;
};

// The file's records as giflib's DGifSlurp reads them.
class Slurper {
 public:
  explicit Slurper(absl::string_view data)
      : p_(reinterpret_cast<const uint8_t*>(data.data())), left_(data.size()) {}

  // DGifOpen: the header and the screen descriptor.
  Error Open() {
    uint8_t stamp[6];
    if (!Read(stamp, 6)) return Error::kReadFailed;
    if (std::memcmp(stamp, "GIF", 3) != 0) return Error::kNotGif;
    uint8_t desc[7];
    if (!Read(desc, 7)) return Error::kNoScreenDesc;
    if (desc[4] & 0x80) {
      if (!ReadMap(1 << ((desc[4] & 0x07) + 1), &global_)) return Error::kNoScreenDesc;
    }
    return Error::kNone;
  }

  // DGifSlurp: records until the trailer. The images read before an error stay in images().
  Error Slurp() {
    std::vector<int> gce;  // the first graphic control block since the last image, if any
    bool have_gce = false;
    for (;;) {
      uint8_t type;
      if (!Read(&type, 1)) return Error::kReadFailed;
      if (type == ';') break;
      if (type == '!') {
        uint8_t code;
        if (!Read(&code, 1)) return Error::kReadFailed;
        // DGifGetExtension reads the first sub-block, then DGifSlurp reads sub-blocks up to an
        // empty one, even when the first was empty. The first graphics block since the last
        // image is the image's graphic control block (DGifSavedExtensionToGCB; continuation
        // blocks have another function code); a length other than 4 gives no transparency.
        uint8_t block[256];
        if (!Read(block, 1)) return Error::kReadFailed;
        if (block[0] != 0) {
          if (!Read(block + 1, block[0])) return Error::kReadFailed;
          if (code == 0xf9 && !have_gce) {
            have_gce = true;
            gce.assign(block, block + 1 + block[0]);
          }
        }
        for (;;) {
          if (!Read(block, 1)) return Error::kReadFailed;
          if (block[0] == 0) break;
          if (!Read(block + 1, block[0])) return Error::kReadFailed;
        }
        continue;
      }
      if (type != ',') return Error::kWrongRecord;
      const size_t count = images_.size();
      const Error e = ReadImage();
      if (e != Error::kNone) {
        // TensorFlow drops the image that failed (its giflib uncounts it) and keeps the others.
        images_.resize(count);
        return e;
      }
      Image& image = images_.back();
      if (have_gce && gce.size() == 5 && (gce[1] & 0x01)) image.transparent = gce[4];
      have_gce = false;
      gce.clear();
    }
    if (images_.empty()) return Error::kNoImageDesc;
    return Error::kNone;
  }

  const ColorMap& global() const { return global_; }
  std::vector<Image>& images() { return images_; }

 private:
  bool Read(uint8_t* dst, size_t n) {
    const size_t got = std::min(n, left_);
    std::memcpy(dst, p_, got);
    p_ += got;
    left_ -= got;
    return got == n;
  }

  bool ReadMap(int count, ColorMap* map) {
    map->count = count;
    map->rgb.resize(3 * count);
    return Read(map->rgb.data(), map->rgb.size());
  }

  int Word(const uint8_t* b) { return b[0] | (b[1] << 8); }

  // DGifGetImageDesc, DGifSetupDecompress and the image's lines.
  Error ReadImage() {
    uint8_t desc[9];
    if (!Read(desc, 9)) return Error::kReadFailed;
    Image image;
    image.left = Word(desc);
    image.top = Word(desc + 2);
    image.width = Word(desc + 4);
    image.height = Word(desc + 6);
    image.interlace = (desc[8] & 0x40) != 0;
    if (desc[8] & 0x80) {
      if (!ReadMap(1 << ((desc[8] & 0x07) + 1), &image.map)) return Error::kReadFailed;
    }
    images_.push_back(std::move(image));
    Image& im = images_.back();
    uint8_t code_size;
    if (!Read(&code_size, 1)) return Error::kReadFailed;
    if (code_size > 8) return Error::kReadFailed;  // giflib's code for it
    SetupDecompress(code_size);
    if (im.width <= 0 || im.height <= 0) return Error::kBadImageSize;
    // Rows are decoded in the stream's order into a buffer that grows with them, so a header
    // claiming a huge image costs memory only for the rows its data holds; interlaced rows are
    // put in place once all are read. (giflib reads the whole image in one call; the decoder
    // keeps its state between calls, so the pixels are the same.)
    std::vector<uint8_t> rows;
    for (int k = 0; k < im.height; ++k) {
      rows.resize(static_cast<size_t>(k + 1) * im.width);
      RILL_RETURN_IF_GIF_ERROR(GetLine(&im, rows.data() + int64_t{k} * im.width, im.width));
    }
    if (!im.interlace) {
      im.raster = std::move(rows);
    } else {
      im.raster.resize(rows.size());
      static const int kOffset[] = {0, 4, 2, 1};
      static const int kJump[] = {8, 8, 4, 2};
      int k = 0;
      for (int pass = 0; pass < 4; ++pass) {
        for (int row = kOffset[pass]; row < im.height; row += kJump[pass], ++k) {
          std::memcpy(im.raster.data() + int64_t{row} * im.width,
                      rows.data() + int64_t{k} * im.width, im.width);
        }
      }
    }
    return Error::kNone;
  }

  void SetupDecompress(int code_size) {
    buf_[0] = 0;
    bits_per_pixel_ = code_size;
    clear_code_ = 1 << code_size;
    eof_code_ = clear_code_ + 1;
    running_code_ = eof_code_ + 1;
    running_bits_ = code_size + 1;
    max_code1_ = 1 << running_bits_;
    stack_ptr_ = 0;
    last_code_ = kNoSuchCode;
    shift_state_ = 0;
    shift_dword_ = 0;
    std::fill(std::begin(prefix_), std::end(prefix_), kNoSuchCode);
    pixel_count_ = 0;
  }

  // DGifGetLine: `len` pixels; after the image's last pixel, the rest of its data blocks are
  // skipped up to the empty block.
  Error GetLine(Image* im, uint8_t* line, int64_t len) {
    RILL_RETURN_IF_GIF_ERROR(DecompressLine(line, len));
    pixel_count_ += len;
    if (pixel_count_ == int64_t{im->width} * im->height) {
      for (;;) {
        uint8_t n;
        if (!Read(&n, 1)) return Error::kReadFailed;
        if (n == 0) break;
        uint8_t skip[255];
        if (!Read(skip, n)) return Error::kReadFailed;
      }
    }
    return Error::kNone;
  }

  // DGifBufferedInput: the next byte of the data sub-blocks.
  Error NextByte(uint8_t* byte) {
    if (buf_[0] == 0) {
      if (!Read(buf_, 1)) return Error::kReadFailed;
      if (buf_[0] == 0) return Error::kImageDefect;
      if (!Read(buf_ + 1, buf_[0])) return Error::kReadFailed;
      *byte = buf_[1];
      buf_[1] = 2;
      buf_[0]--;
    } else {
      *byte = buf_[buf_[1]++];
      buf_[0]--;
    }
    return Error::kNone;
  }

  // DGifDecompressInput: the next code, and the code size grown as the table fills.
  Error NextCode(int* code) {
    if (running_bits_ > kLzBits) return Error::kImageDefect;
    while (shift_state_ < running_bits_) {
      uint8_t byte;
      RILL_RETURN_IF_GIF_ERROR(NextByte(&byte));
      shift_dword_ |= static_cast<uint64_t>(byte) << shift_state_;
      shift_state_ += 8;
    }
    *code = static_cast<int>(shift_dword_ & ((1u << running_bits_) - 1));
    shift_dword_ >>= running_bits_;
    shift_state_ -= running_bits_;
    if (running_code_ < kLzMaxCode + 2 && ++running_code_ > max_code1_ && running_bits_ < kLzBits) {
      max_code1_ <<= 1;
      running_bits_++;
    }
    return Error::kNone;
  }

  // DGifGetPrefixChar: the first pixel of `code`'s string.
  int PrefixChar(int code) const {
    int i = 0;
    while (code > clear_code_ && i++ <= kLzMaxCode) {
      if (code > kLzMaxCode) return kNoSuchCode;
      code = prefix_[code];
    }
    return code;
  }

  // DGifDecompressLine.
  Error DecompressLine(uint8_t* line, int64_t len) {
    int64_t i = 0;
    if (stack_ptr_ > kLzMaxCode) return Error::kImageDefect;
    while (stack_ptr_ != 0 && i < len) line[i++] = stack_[--stack_ptr_];
    while (i < len) {
      int code;
      RILL_RETURN_IF_GIF_ERROR(NextCode(&code));
      if (code == eof_code_) return Error::kEofTooSoon;
      if (code == clear_code_) {
        std::fill(std::begin(prefix_), std::end(prefix_), kNoSuchCode);
        running_code_ = eof_code_ + 1;
        running_bits_ = bits_per_pixel_ + 1;
        max_code1_ = 1 << running_bits_;
        last_code_ = kNoSuchCode;
        continue;
      }
      const int entry = running_code_ - 2;
      if (code < clear_code_) {
        line[i++] = static_cast<uint8_t>(code);
      } else {
        int prefix;
        if (prefix_[code] == kNoSuchCode) {
          prefix = last_code_;
          const int first = PrefixChar(code == entry ? last_code_ : code);
          suffix_[entry] = static_cast<uint8_t>(first);
          stack_[stack_ptr_++] = static_cast<uint8_t>(first);
        } else {
          prefix = code;
        }
        while (stack_ptr_ < kLzMaxCode && prefix > clear_code_ && prefix <= kLzMaxCode) {
          stack_[stack_ptr_++] = suffix_[prefix];
          prefix = prefix_[prefix];
        }
        if (stack_ptr_ >= kLzMaxCode || prefix > kLzMaxCode) return Error::kImageDefect;
        stack_[stack_ptr_++] = static_cast<uint8_t>(prefix);
        while (stack_ptr_ != 0 && i < len) line[i++] = stack_[--stack_ptr_];
      }
      if (last_code_ != kNoSuchCode && entry < kLzMaxCode + 1 && prefix_[entry] == kNoSuchCode) {
        prefix_[entry] = last_code_;
        suffix_[entry] = static_cast<uint8_t>(PrefixChar(code == entry ? last_code_ : code));
      }
      last_code_ = code;
    }
    return Error::kNone;
  }

  const uint8_t* p_;
  size_t left_;
  ColorMap global_;
  std::vector<Image> images_;

  // LZW state (giflib's GifFilePrivateType).
  uint8_t buf_[256] = {0};
  int bits_per_pixel_ = 0, clear_code_ = 0, eof_code_ = 0, running_code_ = 0, running_bits_ = 0,
      max_code1_ = 0, stack_ptr_ = 0, last_code_ = kNoSuchCode, shift_state_ = 0;
  uint64_t shift_dword_ = 0;
  int64_t pixel_count_ = 0;
  int prefix_[kLzMaxCode + 1];
  uint8_t suffix_[kLzMaxCode + 1] = {0};
  uint8_t stack_[kLzMaxCode] = {0};
};

}  // namespace

#undef RILL_RETURN_IF_GIF_ERROR

absl::Status Decode(absl::string_view data, bool expand_animations, const Allocator& allocate) {
  Slurper gif(data);
  const Error open = gif.Open();
  if (open != Error::kNone) {
    return absl::InvalidArgumentError(absl::StrCat("failed to open gif file: ", ErrorText(open)));
  }
  const Error slurp = gif.Slurp();
  std::vector<Image>& images = gif.images();
  if (slurp != Error::kNone && images.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("failed to slurp gif file: ", ErrorText(slurp)));
  }
  int width = 0, height = 0;
  for (const Image& im : images) {
    width = std::max(width, im.width);
    height = std::max(height, im.height);
  }
  const int frames = expand_animations ? static_cast<int>(images.size()) : 1;
  RILL_ASSIGN_OR_RETURN(uint8_t * out, allocate(frames, height, width));
  const int64_t frame_bytes = int64_t{width} * height * 3;
  for (int k = 0; k < frames; ++k) {
    const Image& im = images[k];
    uint8_t* dst = out + k * frame_bytes;
    if (k > 0) std::memcpy(dst, dst - frame_bytes, frame_bytes);
    int left = im.left, top = im.top, right = im.left + im.width, bottom = im.top + im.height;
    if (im.left != 0 || im.top != 0 || im.width != width || im.height != height) {
      if (k == 0) std::memset(dst, 0, frame_bytes);
      left = std::max(left, 0);
      top = std::max(top, 0);
      right = std::min(right, width);
      bottom = std::min(bottom, height);
    }
    const ColorMap& map = im.map.count > 0 ? im.map : gif.global();
    if (map.count == 0) {
      return absl::InvalidArgumentError(absl::StrCat("missing color map for frame ", k));
    }
    for (int i = top; i < bottom; ++i) {
      uint8_t* row = dst + int64_t{i} * width * 3;
      for (int j = left; j < right; ++j) {
        const int index = im.raster[int64_t{i - im.top} * im.width + (j - im.left)];
        if (index == im.transparent) {
          if (k == 0) std::memset(row + j * 3, 0, 3);
          continue;
        }
        if (index >= map.count) {
          return absl::InvalidArgumentError(
              absl::StrCat("found color index ", index, " outside of color map range ", map.count));
        }
        std::memcpy(row + j * 3, map.rgb.data() + index * 3, 3);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace gif_codec
}  // namespace rill
