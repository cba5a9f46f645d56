#include "kernels/strings/unicode_codec.h"

#include <cctype>

namespace rill {
namespace unicode {
namespace {

constexpr int32_t kReplacement = 0xFFFD;

std::string NormalizedName(absl::string_view name) {
  std::string s;
  for (char ch : name) {
    if (ch == '-' || ch == '_' || ch == ' ') continue;
    s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  return s;
}

uint8_t Byte(absl::string_view in, size_t i) { return static_cast<uint8_t>(in[i]); }

Decoded DecodeUtf8(absl::string_view in) {
  const uint8_t lead = Byte(in, 0);
  if (lead < 0x80) return {lead, 1, false};
  int trail = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the range of the first trail byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    trail = 1;
  } else if (lead == 0xE0) {
    trail = 2, lo = 0xA0;
  } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
    trail = 2;
  } else if (lead == 0xED) {
    trail = 2, hi = 0x9F;
  } else if (lead == 0xF0) {
    trail = 3, lo = 0x90;
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    trail = 3;
  } else if (lead == 0xF4) {
    trail = 3, hi = 0x8F;
  } else {
    return {kReplacement, 1, true};
  }
  int32_t c = lead & (0x3F >> trail);
  size_t i = 1;
  for (int k = 0; k < trail; ++k, ++i) {
    if (i >= in.size()) return {kReplacement, static_cast<int>(i), true};
    const uint8_t b = Byte(in, i);
    const bool ok = k == 0 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return {kReplacement, static_cast<int>(i), true};
    c = (c << 6) | (b & 0x3F);
  }
  return {c, static_cast<int>(i), false};
}

uint32_t Unit16(absl::string_view in, size_t i, bool big_endian) {
  const uint32_t a = Byte(in, i), b = Byte(in, i + 1);
  return big_endian ? (a << 8) | b : (b << 8) | a;
}

Decoded DecodeUtf16(absl::string_view in, bool big_endian) {
  if (in.size() < 2) return {kReplacement, static_cast<int>(in.size()), true};
  const uint32_t u = Unit16(in, 0, big_endian);
  if (u < 0xD800 || u > 0xDFFF) return {static_cast<int32_t>(u), 2, false};
  if (u >= 0xDC00) return {kReplacement, 2, true};  // a lone low surrogate
  if (in.size() < 4) return {kReplacement, static_cast<int>(in.size()), true};
  const uint32_t low = Unit16(in, 2, big_endian);
  if (low < 0xDC00 || low > 0xDFFF) return {kReplacement, 2, true};
  return {static_cast<int32_t>(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)), 4, false};
}

Decoded DecodeUtf32(absl::string_view in, bool big_endian) {
  if (in.size() < 4) return {kReplacement, static_cast<int>(in.size()), true};
  uint32_t u = 0;
  for (int k = 0; k < 4; ++k) {
    u = (u << 8) | Byte(in, big_endian ? k : 3 - k);
  }
  if (!IsValidCodePoint(u)) return {kReplacement, 4, true};
  return {static_cast<int32_t>(u), 4, false};
}

}  // namespace

std::optional<InputEncoding> ParseInputEncoding(absl::string_view name) {
  const std::string n = NormalizedName(name);
  if (n == "utf8") return InputEncoding::kUtf8;
  if (n == "utf16be") return InputEncoding::kUtf16Be;
  if (n == "utf16le") return InputEncoding::kUtf16Le;
  if (n == "utf32be") return InputEncoding::kUtf32Be;
  if (n == "utf32le") return InputEncoding::kUtf32Le;
  if (n == "iso88591" || n == "latin1" || n == "l1") return InputEncoding::kLatin1;
  if (n == "usascii" || n == "ascii") return InputEncoding::kAscii;
  return std::nullopt;
}

std::optional<OutputEncoding> ParseOutputEncoding(absl::string_view name) {
  if (name == "UTF-8") return OutputEncoding::kUtf8;
  if (name == "UTF-16-BE") return OutputEncoding::kUtf16Be;
  if (name == "UTF-32-BE") return OutputEncoding::kUtf32Be;
  return std::nullopt;
}

Decoded DecodeOne(InputEncoding encoding, absl::string_view in) {
  switch (encoding) {
    case InputEncoding::kUtf8:
      return DecodeUtf8(in);
    case InputEncoding::kUtf16Be:
      return DecodeUtf16(in, true);
    case InputEncoding::kUtf16Le:
      return DecodeUtf16(in, false);
    case InputEncoding::kUtf32Be:
      return DecodeUtf32(in, true);
    case InputEncoding::kUtf32Le:
      return DecodeUtf32(in, false);
    case InputEncoding::kLatin1:
      return {Byte(in, 0), 1, false};
    case InputEncoding::kAscii:
      return Byte(in, 0) < 0x80 ? Decoded{Byte(in, 0), 1, false} : Decoded{kReplacement, 1, true};
  }
  return {kReplacement, 1, true};
}

void AppendEncoded(OutputEncoding encoding, int32_t c, std::string* out) {
  const uint32_t u = static_cast<uint32_t>(c);
  switch (encoding) {
    case OutputEncoding::kUtf8: {
      const uint32_t v = (u >= 0xD800 && u <= 0xDFFF) ? kReplacement : u;
      if (v < 0x80) {
        out->push_back(static_cast<char>(v));
      } else if (v < 0x800) {
        out->push_back(static_cast<char>(0xC0 | (v >> 6)));
        out->push_back(static_cast<char>(0x80 | (v & 0x3F)));
      } else if (v < 0x10000) {
        out->push_back(static_cast<char>(0xE0 | (v >> 12)));
        out->push_back(static_cast<char>(0x80 | ((v >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (v & 0x3F)));
      } else {
        out->push_back(static_cast<char>(0xF0 | (v >> 18)));
        out->push_back(static_cast<char>(0x80 | ((v >> 12) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | ((v >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (v & 0x3F)));
      }
      return;
    }
    case OutputEncoding::kUtf16Be: {
      auto unit = [out](uint32_t w) {
        out->push_back(static_cast<char>(w >> 8));
        out->push_back(static_cast<char>(w & 0xFF));
      };
      if (u < 0x10000) {
        unit(u);
      } else {
        unit(0xD800 + ((u - 0x10000) >> 10));
        unit(0xDC00 + ((u - 0x10000) & 0x3FF));
      }
      return;
    }
    case OutputEncoding::kUtf32Be:
      for (int shift = 24; shift >= 0; shift -= 8) {
        out->push_back(static_cast<char>((u >> shift) & 0xFF));
      }
      return;
  }
}

}  // namespace unicode
}  // namespace rill
