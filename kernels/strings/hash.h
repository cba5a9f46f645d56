// The string hashes TensorFlow's ops use, bit for bit:
//   Fingerprint64(s, n)        FarmHash Fingerprint64 (farmhashna::Hash64): StringToHashBucketFast,
//                              Fingerprint ("farmhash64").
//   Hash64(s, n)               TensorFlow's Hash64 (MurmurHash64A with seed 0xDECAFCAFFE):
//                              StringToHashBucket.
//   SipHash24(k0, k1, s, n)    SipHash-2-4 keyed by (k0, k1): StringToHashBucketStrong.
// Little-endian hosts (x86-64, AArch64). Pure functions; thread-safe.
#ifndef RILL_KERNELS_STRINGS_HASH_H_
#define RILL_KERNELS_STRINGS_HASH_H_

#include <cstddef>
#include <cstdint>

namespace rill {
namespace strings_hash {

uint64_t Fingerprint64(const char* s, size_t len);
uint64_t Hash64(const char* s, size_t len);
uint64_t SipHash24(uint64_t k0, uint64_t k1, const char* s, size_t len);

}  // namespace strings_hash
}  // namespace rill

#endif  // RILL_KERNELS_STRINGS_HASH_H_
