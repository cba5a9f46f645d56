#include "kernels/strings/hash.h"

#include <cstring>
#include <utility>

namespace rill {
namespace strings_hash {
namespace {

constexpr uint64_t k0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t k1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t k2 = 0x9ae16a3b2f90404fULL;

uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian hosts (x86-64, AArch64)
}
uint64_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t Rot(uint64_t v, int s) { return s == 0 ? v : (v >> s) | (v << (64 - s)); }
uint64_t ShiftMix(uint64_t v) { return v ^ (v >> 47); }

uint64_t Mix16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

uint64_t Upto16(const char* s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = k2 + len * 2;
    const uint64_t a = Load64(s) + k2;
    const uint64_t b = Load64(s + len - 8);
    const uint64_t c = Rot(b, 37) * mul + a;
    const uint64_t d = (Rot(a, 25) + b) * mul;
    return Mix16(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = k2 + len * 2;
    const uint64_t a = Load32(s);
    return Mix16(len + (a << 3), Load32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint8_t a = static_cast<uint8_t>(s[0]);
    const uint8_t b = static_cast<uint8_t>(s[len >> 1]);
    const uint8_t c = static_cast<uint8_t>(s[len - 1]);
    const uint32_t y = static_cast<uint32_t>(a) + (static_cast<uint32_t>(b) << 8);
    const uint32_t z = static_cast<uint32_t>(len) + (static_cast<uint32_t>(c) << 2);
    return ShiftMix(y * k2 ^ z * k0) * k2;
  }
  return k2;
}

uint64_t Upto32(const char* s, size_t len) {
  const uint64_t mul = k2 + len * 2;
  const uint64_t a = Load64(s) * k1;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + len - 8) * mul;
  const uint64_t d = Load64(s + len - 16) * k2;
  return Mix16(Rot(a + b, 43) + Rot(c, 30) + d, a + Rot(b + k2, 18) + c, mul);
}

uint64_t Upto64(const char* s, size_t len) {
  const uint64_t mul = k2 + len * 2;
  const uint64_t a = Load64(s) * k2;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + len - 8) * mul;
  const uint64_t d = Load64(s + len - 16) * k2;
  const uint64_t y = Rot(a + b, 43) + Rot(c, 30) + d;
  const uint64_t z = Mix16(y, a + Rot(b + k2, 18) + c, mul);
  const uint64_t e = Load64(s + 16) * mul;
  const uint64_t f = Load64(s + 24);
  const uint64_t g = (y + Load64(s + len - 32)) * mul;
  const uint64_t h = (z + Load64(s + len - 24)) * mul;
  return Mix16(Rot(e + f, 43) + Rot(g, 30) + h, e + Rot(f + a, 18) + g, mul);
}

// 16 bytes of state from 32 input bytes and two seeds.
std::pair<uint64_t, uint64_t> Weak32(const char* s, uint64_t a, uint64_t b) {
  const uint64_t w = Load64(s), x = Load64(s + 8), y = Load64(s + 16), z = Load64(s + 24);
  a += w;
  b = Rot(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += Rot(a, 44);
  return {a + z, b + c};
}

}  // namespace

uint64_t Fingerprint64(const char* s, size_t len) {
  if (len <= 16) return Upto16(s, len);
  if (len <= 32) return Upto32(s, len);
  if (len <= 64) return Upto64(s, len);
  constexpr uint64_t kSeed = 81;
  uint64_t x = kSeed;
  uint64_t y = kSeed * k1 + 113;
  uint64_t z = ShiftMix(y * k2 + 113) * k2;
  std::pair<uint64_t, uint64_t> v = {0, 0}, w = {0, 0};
  x = x * k2 + Load64(s);
  const char* end = s + ((len - 1) / 64) * 64;
  const char* last64 = end + ((len - 1) & 63) - 63;
  do {
    x = Rot(x + y + v.first + Load64(s + 8), 37) * k1;
    y = Rot(y + v.second + Load64(s + 48), 42) * k1;
    x ^= w.second;
    y += v.first + Load64(s + 40);
    z = Rot(z + w.first, 33) * k1;
    v = Weak32(s, v.second * k1, x + w.first);
    w = Weak32(s + 32, z + w.second, y + Load64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  const uint64_t mul = k1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((len - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = Rot(x + y + v.first + Load64(s + 8), 37) * mul;
  y = Rot(y + v.second + Load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + Load64(s + 40);
  z = Rot(z + w.first, 33) * mul;
  v = Weak32(s, v.second * mul, x + w.first);
  w = Weak32(s + 32, z + w.second, y + Load64(s + 16));
  std::swap(z, x);
  return Mix16(Mix16(v.first, w.first, mul) + ShiftMix(y) * k0 + z,
               Mix16(v.second, w.second, mul) + x, mul);
}

uint64_t Hash64(const char* s, size_t len) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  constexpr int kShift = 47;
  uint64_t h = 0xDECAFCAFFEULL ^ (len * kMul);
  for (; len >= 8; s += 8, len -= 8) {
    uint64_t k = Load64(s) * kMul;
    k ^= k >> kShift;
    h = (h ^ (k * kMul)) * kMul;
  }
  if (len > 0) {
    for (size_t i = len; i-- > 0;)
      h ^= static_cast<uint64_t>(static_cast<uint8_t>(s[i])) << (8 * i);
    h *= kMul;
  }
  h ^= h >> kShift;
  h *= kMul;
  h ^= h >> kShift;
  return h;
}

namespace {
void SipRound(uint64_t v[4]) {
  v[0] += v[1];
  v[1] = Rot(v[1], 64 - 13) ^ v[0];
  v[0] = Rot(v[0], 64 - 32);
  v[2] += v[3];
  v[3] = Rot(v[3], 64 - 16) ^ v[2];
  v[0] += v[3];
  v[3] = Rot(v[3], 64 - 21) ^ v[0];
  v[2] += v[1];
  v[1] = Rot(v[1], 64 - 17) ^ v[2];
  v[2] = Rot(v[2], 64 - 32);
}
}  // namespace

uint64_t SipHash24(uint64_t k0, uint64_t k1, const char* s, size_t len) {
  uint64_t v[4] = {k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
                   k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL};
  auto absorb = [&v](uint64_t m) {
    v[3] ^= m;
    SipRound(v);
    SipRound(v);
    v[0] ^= m;
  };
  const size_t full = len & ~size_t{7};
  for (size_t i = 0; i < full; i += 8) absorb(Load64(s + i));
  uint64_t last = static_cast<uint64_t>(len & 0xff) << 56;
  for (size_t i = full; i < len; ++i) {
    last |= static_cast<uint64_t>(static_cast<uint8_t>(s[i])) << (8 * (i - full));
  }
  absorb(last);
  v[2] ^= 0xff;
  for (int i = 0; i < 4; ++i) SipRound(v);
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

}  // namespace strings_hash
}  // namespace rill
