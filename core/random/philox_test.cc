#include "core/random/philox.h"

#include "core/random/distributions.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

// The known-answer vectors of Random123 (philox4x32, 10 rounds): (counter, key) -> block. The key
// is the generator's seed_lo, counter words 2-3 its seed_hi, words 0-1 reached by Skip.
TEST(PhiloxTest, KnownAnswerVectors) {
  PhiloxRandom zeros(0, 0);
  EXPECT_EQ(zeros(), (PhiloxRandom::ResultType{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  PhiloxRandom ones(~uint64_t{0}, ~uint64_t{0});
  ones.Skip(~uint64_t{0});
  EXPECT_EQ(ones(), (PhiloxRandom::ResultType{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  PhiloxRandom pi(0x299f31d0a4093822ull, 0x0370734413198a2eull);
  pi.Skip(0x85a308d3243f6a88ull);
  EXPECT_EQ(pi(), (PhiloxRandom::ResultType{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(PhiloxTest, SkipIsRepeatedCallsWithCarry) {
  PhiloxRandom a(7, 9), b(7, 9);
  for (int i = 0; i < 5; ++i) a();
  b.Skip(5);
  EXPECT_EQ(a(), b());
  // A skip that carries from the low counter word into the next gives the same block as two
  // skips that do the same.
  PhiloxRandom c(1, 2), d(1, 2);
  c.Skip(0xffffffffull);
  c.Skip(2);
  d.Skip(0x100000001ull);
  EXPECT_EQ(c(), d());
}

TEST(PhiloxTest, SingleSampleAdapterWalksBlocksInOrder) {
  PhiloxRandom gen(3, 4), ref(3, 4);
  SingleSampleAdapter samples(&gen);
  const PhiloxRandom::ResultType b0 = ref(), b1 = ref();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(samples(), b0[i]);
  EXPECT_EQ(samples(), b1[0]);
}

TEST(DistributionsTest, UniformConversionsCoverZeroToOne) {
  EXPECT_EQ(random::Uint32ToFloat(0), 0.0f);
  EXPECT_EQ(random::Uint32ToFloat(0xffffffff), 1.0f - 1.0f / (1 << 23));
  EXPECT_EQ(random::Uint64ToDouble(0, 0), 0.0);
  EXPECT_EQ(random::Uint64ToDouble(0xfffff, 0xffffffff), 1.0 - 1.0 / (1ull << 52));
  EXPECT_EQ(static_cast<float>(random::Uint16ToHalf(0x3ff)), 1.0f - 1.0f / 1024);
  float f0, f1;
  random::BoxMullerFloat(0, 0, &f0, &f1);  // u1 clamped to 1e-7: finite
  EXPECT_EQ(f0, 0.0f);
  EXPECT_GT(f1, 5.6f);
}

}  // namespace
}  // namespace rill
