// CRC-32C (Castagnoli), as TensorFlow's checkpoints and tables use it, and its "mask" (a
// rotation plus a constant, so a CRC stored next to the data it covers does not checksum to
// itself). Pure functions; thread-safe.
#ifndef RILL_CORE_IO_CRC32C_H_
#define RILL_CORE_IO_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace rill {
namespace crc32c {

// The CRC of data[0, n) continuing from `crc` (the CRC of what came before; 0 at the start).
uint32_t Extend(uint32_t crc, const char* data, size_t n);
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }
inline uint32_t Unmask(uint32_t masked) {
  const uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

}  // namespace crc32c
}  // namespace rill

#endif  // RILL_CORE_IO_CRC32C_H_
