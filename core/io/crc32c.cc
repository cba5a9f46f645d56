#include "core/io/crc32c.h"

#include <array>

namespace rill {
namespace crc32c {
namespace {

// Slicing-by-one table of the reflected Castagnoli polynomial 0x82f63b78.
std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    t[i] = c;
  }
  return t;
}

}  // namespace

uint32_t Extend(uint32_t crc, const char* data, size_t n) {
  static const std::array<uint32_t, 256> table = MakeTable();
  uint32_t c = ~crc;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return ~c;
}

}  // namespace crc32c
}  // namespace rill
