#include "kernels/image/jpeg_codec.h"

// clang-format off: jpeglib.h needs <cstdio> and <csetjmp> first.
#include <jerror.h>
#include <jpeglib.h>

#include <csetjmp>
#include <cstdio>
// clang-format on

#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rill {
namespace jpeg_codec {
namespace {

// libjpeg's error manager with a place to jump back to and the fatal error's text.
struct ErrorManager {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void ErrorExit(j_common_ptr cinfo) {
  ErrorManager* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Warnings are counted by libjpeg; nothing is printed.
void SilentOutput(j_common_ptr) {}

void InitErrors(ErrorManager* err) {
  jpeg_std_error(&err->pub);
  err->pub.error_exit = ErrorExit;
  err->pub.output_message = SilentOutput;
  err->message[0] = '\0';
}

// A memory source with TensorFlow's end-of-data rules: an empty input is an error; when the data
// runs out, the stream ends at a fake EOI marker with try_recover_truncated and fails otherwise.
struct MemorySource {
  jpeg_source_mgr pub;
  const JOCTET* data;
  size_t size;
  bool try_recover_truncated;
  // The source's buffer state at the last fill call with bytes left, and how many calls in a row
  // found it unchanged.
  const JOCTET* last_fill_byte;
  size_t last_fill_size;
  int repeated_fills;
  int fake_eois;  // fake EOI markers handed out so far
};

const JOCTET kFakeEoi[2] = {0xFF, JPEG_EOI};
// Fill calls in one unchanged buffer state after which libjpeg is taken to be looping.
constexpr int kMaxRepeatedFills = 64;
// Fake EOIs after which the stream is taken to be unreadable (a truncated scan stops at the
// first marker, so one or two end any stream libjpeg can finish).
constexpr int kMaxFakeEois = 1024;

void InitSource(j_decompress_ptr cinfo) {
  MemorySource* src = reinterpret_cast<MemorySource*>(cinfo->src);
  src->pub.next_input_byte = src->data;
  src->pub.bytes_in_buffer = src->size;
}

boolean FillInput(j_decompress_ptr cinfo) {
  MemorySource* src = reinterpret_cast<MemorySource*>(cinfo->src);
  if (src->pub.bytes_in_buffer == 0 && src->pub.next_input_byte == src->data) {
    ERREXIT(cinfo, JERR_INPUT_EMPTY);
    return FALSE;
  }
  if (src->pub.bytes_in_buffer > 0 && src->try_recover_truncated) {
    // libjpeg asks for data when its own copy of the buffer state is empty; the source's copy
    // still shows the bytes after its last commit. TensorFlow hands those back (TRUE, nothing
    // changed), which libjpeg's entropy decoder reads again and finishes; where libjpeg instead
    // asks again in the same state (its marker reader on "\xff\xd8\xff": TensorFlow hangs
    // there), the stream ends at a fake EOI after kMaxRepeatedFills such calls.
    if (src->pub.next_input_byte != src->last_fill_byte ||
        src->pub.bytes_in_buffer != src->last_fill_size) {
      src->last_fill_byte = src->pub.next_input_byte;
      src->last_fill_size = src->pub.bytes_in_buffer;
      src->repeated_fills = 0;
      return TRUE;
    }
    if (++src->repeated_fills < kMaxRepeatedFills) return TRUE;
    src->pub.bytes_in_buffer = 0;
    src->pub.next_input_byte = nullptr;  // not kFakeEoi: the fake EOI below is handed out
  }
  if (src->pub.bytes_in_buffer > 0) return FALSE;
  if (src->pub.next_input_byte != kFakeEoi && src->try_recover_truncated &&
      ++src->fake_eois <= kMaxFakeEois) {
    WARNMS(cinfo, JWRN_JPEG_EOF);
    src->pub.next_input_byte = kFakeEoi;
    src->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  ERREXIT(cinfo, JERR_FILE_READ);
  return FALSE;
}

void SkipInput(j_decompress_ptr cinfo, long count) {  // NOLINT(runtime/int): libjpeg's type
  MemorySource* src = reinterpret_cast<MemorySource*>(cinfo->src);
  if (count < 0) return;
  if (static_cast<size_t>(count) > src->pub.bytes_in_buffer) {
    src->pub.bytes_in_buffer = 0;
    (void)FillInput(cinfo);
  } else {
    src->pub.bytes_in_buffer -= count;
    src->pub.next_input_byte += count;
  }
}

void TermSource(j_decompress_ptr) {}

void InitMemorySource(MemorySource* src, absl::string_view data, bool try_recover_truncated) {
  src->pub.init_source = InitSource;
  src->pub.fill_input_buffer = FillInput;
  src->pub.skip_input_data = SkipInput;
  src->pub.resync_to_restart = jpeg_resync_to_restart;
  src->pub.term_source = TermSource;
  src->pub.bytes_in_buffer = 0;
  src->pub.next_input_byte = nullptr;
  src->data = reinterpret_cast<const JOCTET*>(data.data());
  src->size = data.size();
  src->try_recover_truncated = try_recover_truncated;
  src->last_fill_byte = nullptr;
  src->last_fill_size = 0;
  src->repeated_fills = 0;
  src->fake_eois = 0;
}

// Everything DecodeLow reads and writes that must survive a longjmp (objects with destructors
// included): it lives in Decode's frame, which the jump never leaves.
struct DecodeState {
  absl::string_view data;
  const DecodeOptions* options = nullptr;
  const PixelAllocator* allocate = nullptr;
  absl::Status allocation;   // the allocator's failure
  std::string reason;        // why the data was refused
  std::vector<JSAMPLE> row;  // a CMYK or MCU-aligned scanline
  uint8_t* pixels = nullptr;
  int height = 0;
  int stride = 0;
  int rows_read = 0;
};

bool CropWindowFits(const DecodeOptions& o, JDIMENSION width, JDIMENSION height) {
  return o.crop_width > 0 && o.crop_height > 0 && o.crop_x >= 0 && o.crop_y >= 0 &&
         static_cast<int64_t>(o.crop_y) + o.crop_height <= static_cast<int64_t>(height) &&
         static_cast<int64_t>(o.crop_x) + o.crop_width <= static_cast<int64_t>(width);
}

// Decodes into st->pixels; false with st->reason or st->allocation set on failure. Only plain
// locals here (see the header comment).
bool DecodeLow(DecodeState* st) {
  const DecodeOptions& o = *st->options;
  jpeg_decompress_struct cinfo;
  ErrorManager err;
  MemorySource src;
  cinfo.err = &err.pub;
  InitErrors(&err);
  if (setjmp(err.jump)) {
    st->reason = err.message;
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  InitMemorySource(&src, st->data, o.try_recover_truncated);
  cinfo.src = &src.pub;
  jpeg_read_header(&cinfo, TRUE);

  int components = o.components == 0 ? std::min(cinfo.num_components, 3) : o.components;
  if (components == 1) {
    cinfo.out_color_space = JCS_GRAYSCALE;
  } else {
    cinfo.out_color_space =
        (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) ? JCS_CMYK
                                                                                   : JCS_RGB;
  }
  cinfo.do_fancy_upsampling = o.fancy_upscaling ? TRUE : FALSE;
  cinfo.scale_num = 1;
  cinfo.scale_denom = o.ratio;
  cinfo.dct_method = o.accurate_dct ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(&cinfo);
  const int64_t total =
      static_cast<int64_t>(cinfo.output_height) * cinfo.output_width * cinfo.num_components;
  if (cinfo.output_width <= 0 || cinfo.output_height <= 0) {
    st->reason =
        absl::StrCat("Invalid image size: ", cinfo.output_width, " x ", cinfo.output_height);
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  if (total >= (int64_t{1} << 29)) {
    st->reason = absl::StrCat("Image too large: ", cinfo.output_width, " x ", cinfo.output_height,
                              " x ", cinfo.num_components, " samples (the limit is 2^29)");
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_start_decompress(&cinfo);

  JDIMENSION out_width = cinfo.output_width;
  JDIMENSION out_height = cinfo.output_height;
  JDIMENSION skipped = 0;
  if (o.crop) {
    out_height = o.crop_height;
    out_width = o.crop_width;
    if (!CropWindowFits(o, cinfo.output_width, cinfo.output_height)) {
      st->reason =
          absl::StrCat("Invalid crop window: x=", o.crop_x, ", y=", o.crop_y, ", w=", o.crop_width,
                       ", h=", o.crop_height, " for image_width: ", cinfo.output_width,
                       " and image_height: ", cinfo.output_height);
      jpeg_destroy_decompress(&cinfo);
      return false;
    }
    JDIMENSION crop_x = o.crop_x;
    JDIMENSION crop_width = o.crop_width;
    jpeg_crop_scanline(&cinfo, &crop_x, &crop_width);
    skipped = jpeg_skip_scanlines(&cinfo, o.crop_y);
    if (skipped != static_cast<JDIMENSION>(o.crop_y)) {
      st->reason = "could not skip to the crop window's first row";
      jpeg_destroy_decompress(&cinfo);
      return false;
    }
  }
  const int stride = static_cast<int>(out_width) * components;
  st->height = static_cast<int>(out_height);
  st->stride = stride;
  {
    absl::StatusOr<uint8_t*> buffer =
        (*st->allocate)(static_cast<int>(out_height), static_cast<int>(out_width), components);
    if (!buffer.ok()) {
      st->allocation = buffer.status();
    } else {
      st->pixels = *buffer;
    }
  }
  if (st->pixels == nullptr) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  JSAMPLE* line = st->pixels;
  const bool realign = out_width != cinfo.output_width;
  const bool cmyk = cinfo.out_color_space == JCS_CMYK;
  if (cmyk) {
    st->row.resize(static_cast<size_t>(cinfo.output_width) * 4);
  } else if (realign) {
    st->row.resize(static_cast<size_t>(cinfo.output_width) * components);
  }
  JSAMPLE* row = st->row.data();
  st->rows_read = static_cast<int>(out_height);
  const JDIMENSION last_line = skipped + out_height;
  const int align_offset = (cinfo.output_width - out_width) * (cmyk ? 4 : components);
  bool truncated = false;
  while (cinfo.output_scanline < last_line) {
    int lines = 0;
    if (cmyk) {
      lines = jpeg_read_scanlines(&cinfo, &row, 1);
      if (lines > 0) {
        for (JDIMENSION i = 0; i < out_width; ++i) {
          const JSAMPLE* p = row + 4 * i + (realign ? align_offset : 0);
          const int c = p[0], m = p[1], y = p[2], k = p[3];
          if (cinfo.saw_Adobe_marker) {  // Adobe's inverted CMYK
            line[3 * i + 0] = static_cast<JSAMPLE>(k * c / 255);
            line[3 * i + 1] = static_cast<JSAMPLE>(k * m / 255);
            line[3 * i + 2] = static_cast<JSAMPLE>(k * y / 255);
          } else {
            line[3 * i + 0] = static_cast<JSAMPLE>((255 - k) * (255 - c) / 255);
            line[3 * i + 1] = static_cast<JSAMPLE>((255 - k) * (255 - m) / 255);
            line[3 * i + 2] = static_cast<JSAMPLE>((255 - k) * (255 - y) / 255);
          }
        }
      }
    } else if (realign) {
      lines = jpeg_read_scanlines(&cinfo, &row, 1);
      if (lines > 0) std::memcpy(line, row + align_offset, stride);
    } else {
      lines = jpeg_read_scanlines(&cinfo, &line, 1);
    }
    if (lines == 0) {  // the source suspended: the data ended inside the scan
      if (!o.try_recover_truncated) {
        st->rows_read = static_cast<int>(cinfo.output_scanline - skipped);
        truncated = true;
      } else {
        for (JDIMENSION y = cinfo.output_scanline; y < last_line; ++y) {
          if (y == 0) {
            std::memset(line, 0, stride);
          } else {
            std::memmove(line, line - stride, stride);
          }
          line += stride;
        }
        cinfo.output_scanline = last_line;
      }
      break;
    }
    line += stride;
  }
  if (o.crop && cinfo.output_scanline < cinfo.output_height) {
    jpeg_skip_scanlines(&cinfo, cinfo.output_height - o.crop_y - o.crop_height);
  }
  if (truncated) {
    jpeg_abort(reinterpret_cast<j_common_ptr>(&cinfo));
  } else {
    jpeg_finish_decompress(&cinfo);
  }
  jpeg_destroy_decompress(&cinfo);
  return true;
}

absl::Status Refused(absl::string_view reason) { return absl::DataLossError(reason); }

}  // namespace

absl::Status Decode(absl::string_view data, const DecodeOptions& options,
                    const PixelAllocator& allocate) {
  if (options.ratio != 1 && options.ratio != 2 && options.ratio != 4 && options.ratio != 8) {
    return Refused(absl::StrCat("ratio must be 1, 2, 4 or 8, got ", options.ratio));
  }
  if (options.components != 0 && options.components != 1 && options.components != 3) {
    return Refused(absl::StrCat("components must be 0, 1 or 3, got ", options.components));
  }
  if (data.empty()) return Refused("empty input");
  DecodeState st;
  st.data = data;
  st.options = &options;
  st.allocate = &allocate;
  if (!DecodeLow(&st)) {
    if (!st.allocation.ok()) return st.allocation;
    return Refused(st.reason);
  }
  const float fraction =
      st.height == 0 ? 1.0f : static_cast<float>(st.rows_read) / static_cast<float>(st.height);
  if (fraction < std::min(1.0f, options.min_acceptable_fraction)) {
    return Refused(absl::StrCat("Premature end of JPEG data: read ", st.rows_read, " of ",
                                st.height, " rows, less than acceptable_fraction"));
  }
  if (st.rows_read != st.height) {  // unread rows are black
    std::memset(st.pixels + static_cast<int64_t>(st.rows_read) * st.stride, 0,
                static_cast<size_t>(st.height - st.rows_read) * st.stride);
  }
  return absl::OkStatus();
}

namespace {

struct ShapeState {
  absl::string_view data;
  ImageShape shape;
  std::string reason;
};

bool ReadShapeLow(ShapeState* st) {
  jpeg_decompress_struct cinfo;
  ErrorManager err;
  MemorySource src;
  cinfo.err = &err.pub;
  InitErrors(&err);
  if (setjmp(err.jump)) {
    st->reason = err.message;
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  InitMemorySource(&src, st->data, false);
  cinfo.src = &src.pub;
  jpeg_read_header(&cinfo, TRUE);
  jpeg_start_decompress(&cinfo);  // sets the output dimensions and components
  st->shape.height = static_cast<int>(cinfo.output_height);
  st->shape.width = static_cast<int>(cinfo.output_width);
  st->shape.components = cinfo.output_components;
  jpeg_destroy_decompress(&cinfo);
  return true;
}

// A memory destination appending to a std::string in 64 KiB chunks.
struct StringDestination {
  jpeg_destination_mgr pub;
  std::string* out;
  std::vector<JOCTET>* buffer;
};

void InitDestination(j_compress_ptr cinfo) {
  StringDestination* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->pub.next_output_byte = dest->buffer->data();
  dest->pub.free_in_buffer = dest->buffer->size();
  dest->out->clear();
}

boolean EmptyOutput(j_compress_ptr cinfo) {
  StringDestination* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char*>(dest->buffer->data()), dest->buffer->size());
  dest->pub.next_output_byte = dest->buffer->data();
  dest->pub.free_in_buffer = dest->buffer->size();
  return TRUE;
}

void TermDestination(j_compress_ptr cinfo) {
  StringDestination* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char*>(dest->buffer->data()),
                    dest->buffer->size() - dest->pub.free_in_buffer);
}

struct EncodeState {
  const uint8_t* pixels = nullptr;
  int height = 0;
  int width = 0;
  const EncodeOptions* options = nullptr;
  std::string* out = nullptr;
  std::vector<JOCTET> buffer;
  std::vector<JOCTET> xmp;
  std::string reason;
};

bool EncodeLow(EncodeState* st) {
  const EncodeOptions& o = *st->options;
  jpeg_compress_struct cinfo;
  ErrorManager err;
  StringDestination dest;
  cinfo.err = &err.pub;
  InitErrors(&err);
  if (setjmp(err.jump)) {
    st->reason = err.message;
    jpeg_destroy_compress(&cinfo);
    return false;
  }
  jpeg_create_compress(&cinfo);
  dest.pub.init_destination = InitDestination;
  dest.pub.empty_output_buffer = EmptyOutput;
  dest.pub.term_destination = TermDestination;
  dest.out = st->out;
  dest.buffer = &st->buffer;
  cinfo.dest = &dest.pub;
  cinfo.image_width = st->width;
  cinfo.image_height = st->height;
  cinfo.input_components = o.components;
  cinfo.in_color_space = o.components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&cinfo);
  if (o.optimize_size) cinfo.optimize_coding = TRUE;
  cinfo.density_unit = static_cast<UINT8>(o.density_unit);
  cinfo.X_density = static_cast<UINT16>(o.x_density);
  cinfo.Y_density = static_cast<UINT16>(o.y_density);
  jpeg_set_quality(&cinfo, o.quality, TRUE);
  if (o.progressive) jpeg_simple_progression(&cinfo);
  if (!o.chroma_downsampling) {
    for (int i = 0; i < cinfo.num_components; ++i) {
      cinfo.comp_info[i].h_samp_factor = 1;
      cinfo.comp_info[i].v_samp_factor = 1;
    }
  }
  jpeg_start_compress(&cinfo, TRUE);
  if (!st->xmp.empty()) {
    jpeg_write_marker(&cinfo, JPEG_APP0 + 1, st->xmp.data(),
                      static_cast<unsigned int>(st->xmp.size()));
  }
  const size_t stride = static_cast<size_t>(st->width) * o.components;
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPLE*>(st->pixels + cinfo.next_scanline * stride);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return true;
}

}  // namespace

absl::StatusOr<ImageShape> ReadShape(absl::string_view data) {
  if (data.empty()) return Refused("empty input");
  ShapeState st;
  st.data = data;
  if (!ReadShapeLow(&st)) return Refused(st.reason);
  return st.shape;
}

absl::Status Encode(const uint8_t* pixels, int height, int width, const EncodeOptions& options,
                    std::string* out) {
  out->clear();
  if (width <= 0 || height <= 0) {
    return Refused(absl::StrCat("Invalid image size: ", width, " x ", height));
  }
  if (static_cast<int64_t>(width) * height >= (int64_t{1} << 29)) {
    return Refused(absl::StrCat("Image too large: ", width, " x ", height));
  }
  if (options.components != 1 && options.components != 3) {
    return Refused(absl::StrCat("components must be 1 or 3, got ", options.components));
  }
  EncodeState st;
  st.pixels = pixels;
  st.height = height;
  st.width = width;
  st.options = &options;
  st.out = out;
  st.buffer.resize(
      std::min<int64_t>(static_cast<int64_t>(width) * height * options.components, 1 << 16));
  if (!options.xmp_metadata.empty()) {
    // APP1 payload: the XMP namespace, NUL-terminated, then the packet.
    static constexpr char kNamespace[] = "http://ns.adobe.com/xap/1.0/";
    st.xmp.assign(kNamespace, kNamespace + sizeof(kNamespace));
    st.xmp.insert(st.xmp.end(), options.xmp_metadata.begin(), options.xmp_metadata.end());
  }
  if (!EncodeLow(&st)) {
    out->clear();
    return Refused(st.reason);
  }
  return absl::OkStatus();
}

}  // namespace jpeg_codec
}  // namespace rill
