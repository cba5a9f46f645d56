// bfloat16 (DT_BFLOAT16): the top 16 bits of a float32, rounded to nearest even. Storage type;
// arithmetic converts to float. Trivially copyable; thread-compatible.
#ifndef RILL_CORE_BFLOAT16_H_
#define RILL_CORE_BFLOAT16_H_

#include <cstdint>
#include <cstring>

namespace rill {

struct bfloat16 {
  uint16_t bits = 0;

  bfloat16() = default;
  explicit bfloat16(float f) : bits(FromFloat(f)) {}
  static bfloat16 FromBits(uint16_t b) {
    bfloat16 v;
    v.bits = b;
    return v;
  }
  explicit operator float() const {
    uint32_t x = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
  bool operator==(const bfloat16& o) const { return bits == o.bits; }

  static uint16_t FromFloat(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // NaN
    const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + rounding) >> 16);
  }
};

}  // namespace rill

#endif  // RILL_CORE_BFLOAT16_H_
