// IEEE 754 binary16 ("half", DT_HALF) as a storage type with float conversion (round to nearest
// even). Arithmetic is done by converting to float. Trivially copyable; thread-compatible.
#ifndef RILL_CORE_HALF_H_
#define RILL_CORE_HALF_H_

#include <cstdint>
#include <cstring>

namespace rill {

struct half {
  uint16_t bits = 0;

  half() = default;
  explicit half(float f) : bits(FromFloat(f)) {}
  static half FromBits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return ToFloat(bits); }
  bool operator==(const half& o) const { return bits == o.bits; }

  static uint16_t FromFloat(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or NaN
      return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
    }
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
    if (abs < 0x38800000u) {  // subnormal or zero in half
      if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
      const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
      const int shift = 113 - static_cast<int>(abs >> 23) + 13;
      uint32_t h = mant >> shift;
      const uint32_t rem = mant & ((1u << shift) - 1);
      const uint32_t halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
      return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = ((abs - 0x38000000u) >> 13);
    const uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }

  static float ToFloat(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t x;
    if (exp == 0x1f) {
      x = sign | 0x7f800000u | (mant << 13);
    } else if (exp == 0) {
      if (mant == 0) {
        x = sign;
      } else {  // subnormal: normalize
        int e = -1;
        do {
          ++e;
          mant <<= 1;
        } while ((mant & 0x400u) == 0);
        x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
      }
    } else {
      x = sign | ((exp + 112u) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
};

}  // namespace rill

#endif  // RILL_CORE_HALF_H_
