#include "core/io/crc32c.h"

#include <string>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(Crc32cTest, KnownAnswers) {
  // RFC 3720 (iSCSI) test vectors.
  std::string zeros(32, '\0');
  EXPECT_EQ(crc32c::Value(zeros.data(), zeros.size()), 0x8a9136aau);
  std::string ones(32, '\xff');
  EXPECT_EQ(crc32c::Value(ones.data(), ones.size()), 0x62a8ab43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(crc32c::Value(ascending.data(), ascending.size()), 0x46dd794eu);
  EXPECT_EQ(crc32c::Value("123456789", 9), 0xe3069283u);
}

TEST(Crc32cTest, ExtendEqualsValueOfTheConcatenation) {
  const std::string a = "hello ", b = "world";
  EXPECT_EQ(crc32c::Extend(crc32c::Value(a.data(), a.size()), b.data(), b.size()),
            crc32c::Value("hello world", 11));
}

TEST(Crc32cTest, MaskRoundTripsAndChangesTheValue) {
  const uint32_t crc = crc32c::Value("foo", 3);
  EXPECT_NE(crc32c::Mask(crc), crc);
  EXPECT_EQ(crc32c::Unmask(crc32c::Mask(crc)), crc);
  EXPECT_EQ(crc32c::Unmask(crc32c::Mask(crc32c::Mask(crc))), crc32c::Mask(crc));
}

}  // namespace
}  // namespace rill
