// Decoding and encoding of Unicode text as TensorFlow's Unicode ops do it through ICU
// converters: one code point (or one replacement) per step, with the bytes it consumed.
//
// Malformed input is replaced as ICU's converters replace it: in UTF-8 each maximal subpart of
// an ill-formed sequence (the longest prefix of a well-formed sequence, or one byte) is one
// error; in UTF-16 an unpaired surrogate's code unit and a trailing odd byte; in UTF-32 a unit
// past U+10FFFF, a surrogate, or a truncated unit; in US-ASCII a byte above 0x7F.
//
// Rill decodes the encodings serving graphs name (UTF-8, UTF-16BE/LE, UTF-32BE/LE, ISO-8859-1,
// US-ASCII), not every converter ICU has. Pure functions; thread-safe.
#ifndef RILL_KERNELS_STRINGS_UNICODE_CODEC_H_
#define RILL_KERNELS_STRINGS_UNICODE_CODEC_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace rill {
namespace unicode {

enum class InputEncoding { kUtf8, kUtf16Be, kUtf16Le, kUtf32Be, kUtf32Le, kLatin1, kAscii };
enum class OutputEncoding { kUtf8, kUtf16Be, kUtf32Be };

// An ICU converter name matched as ICU matches names (case, '-', '_' and spaces ignored):
// "UTF-8", "utf8", "UTF-16BE", "UTF-16-BE", "ISO-8859-1", "latin1", "US-ASCII", "ascii", ...
// nullopt for any other name.
std::optional<InputEncoding> ParseInputEncoding(absl::string_view name);
// The names the ops' output_encoding attr allows: "UTF-8", "UTF-16-BE", "UTF-32-BE".
std::optional<OutputEncoding> ParseOutputEncoding(absl::string_view name);

// One decoding step at the start of `in` (non-empty): the code point (U+FFFD on an error), the
// bytes consumed (>= 1) and whether the bytes were malformed.
struct Decoded {
  int32_t code_point;
  int length;
  bool malformed;
};
Decoded DecodeOne(InputEncoding encoding, absl::string_view in);

// A code point the encoders take: 0..U+10FFFF and not a surrogate.
inline bool IsValidCodePoint(int64_t c) {
  return c >= 0 && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

// Appends `c` (0..U+10FFFF) to `out`. As ICU's UnicodeString does: UTF-8 writes a surrogate
// code point as U+FFFD, UTF-16 and UTF-32 write it as it is.
void AppendEncoded(OutputEncoding encoding, int32_t c, std::string* out);

}  // namespace unicode
}  // namespace rill

#endif  // RILL_KERNELS_STRINGS_UNICODE_CODEC_H_
