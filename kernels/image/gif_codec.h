// GIF decoding as TensorFlow's DecodeGif does it. TensorFlow reads the file with giflib
// (DGifOpen + DGifSlurp) and then paints the frames onto a canvas; this decoder is written for
// Rill and follows both steps, so the same files give the same pixels and the same error texts:
//
// - the file: the header and logical screen descriptor (with its global colour table), then
//   records until the trailer: extensions (a graphic control extension before an image gives
//   that image's transparent index) and images (descriptor, optional local colour table, LZW
//   data in sub-blocks, interlaced rows reordered). The LZW decoder keeps giflib's rules for
//   code sizes, a full table and defective codes. Errors are giflib's texts behind TensorFlow's
//   "failed to open gif file: " (header and screen descriptor) or "failed to slurp gif file: ".
//   After a slurp error the images read before it are kept, as TensorFlow does (a missing
//   trailer, a truncated or defective later image, which is dropped); without any the error is
//   returned.
// - the canvas: as wide and high as the widest and highest frame (not the screen descriptor's
//   size); each frame starts from the previous one (the first from black), and its pixels are
//   painted where it lies on the canvas, except those of its transparent index. A colour index
//   outside the frame's colour table (local, else global) is an error, as is a frame with
//   neither table.
#ifndef RILL_KERNELS_IMAGE_GIF_CODEC_H_
#define RILL_KERNELS_IMAGE_GIF_CODEC_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {
namespace gif_codec {

// Gives the buffer for `frames` frames of height x width x 3 bytes (frames, rows, columns, RGB);
// an error it returns is returned by Decode as it is.
using Allocator = std::function<absl::StatusOr<uint8_t*>(int frames, int height, int width)>;

// Decodes `data`; with expand_animations false only the first frame is painted and allocated.
// A file TensorFlow refuses gives InvalidArgument with TensorFlow's reason (without its
// "Invalid GIF data (size N), " prefix, which the kernel adds).
absl::Status Decode(absl::string_view data, bool expand_animations, const Allocator& allocate);

}  // namespace gif_codec
}  // namespace rill

#endif  // RILL_KERNELS_IMAGE_GIF_CODEC_H_
