#include "kernels/strings/hash.h"

#include <string>

#include "gtest/gtest.h"

namespace rill {
namespace {

// Expected values: TensorFlow 2.21's StringToHashBucket / StringToHashBucketStrong (key [1, 2])
// with num_buckets 2^62, and FarmHash's Fingerprint64 of "".
TEST(StringsHashTest, MatchesTensorFlow) {
  const std::string in[] = {"", "a", "hello world", "abcdefghijk"};
  const uint64_t hash64[] = {105434511174508091u, 2996632905371535868u, 936430787915428847u,
                             165494240574850572u};
  const uint64_t sip[] = {443797209252341627u, 546566331822570742u, 1015233985318741638u,
                          3995744027899252462u};
  constexpr uint64_t kBuckets = uint64_t{1} << 62;
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(strings_hash::Hash64(in[i].data(), in[i].size()) % kBuckets, hash64[i]) << in[i];
    EXPECT_EQ(strings_hash::SipHash24(1, 2, in[i].data(), in[i].size()) % kBuckets, sip[i])
        << in[i];
  }
  EXPECT_EQ(strings_hash::Fingerprint64("", 0), 0x9ae16a3b2f90404fu);
}

}  // namespace
}  // namespace rill
