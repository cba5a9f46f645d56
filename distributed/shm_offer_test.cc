#include "distributed/shm_offer.h"

#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

TEST(ShmOfferTest, FormatAndParseRoundTrip) {
  ShmOffer offer;
  offer.host = "0e9e1a52-5b0c-4f7e-9c1c-0123456789ab/pid:[4026531836]";
  offer.pid = 4242;
  offer.fd = 17;
  offer.inode = 123456789;
  offer.token = 0x00ab00cd00ef0012ULL;
  const std::string text = FormatShmOffer(offer);
  EXPECT_EQ(text,
            "1 0e9e1a52-5b0c-4f7e-9c1c-0123456789ab/pid:[4026531836] 4242 17 123456789 "
            "00ab00cd00ef0012");
  std::optional<ShmOffer> back = ParseShmOffer(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->host, offer.host);
  EXPECT_EQ(back->pid, 4242);
  EXPECT_EQ(back->fd, 17);
  EXPECT_EQ(back->inode, 123456789u);
  EXPECT_EQ(back->token, offer.token);
}

TEST(ShmOfferTest, ParseRefusesOtherText) {
  EXPECT_FALSE(ParseShmOffer("").has_value());
  EXPECT_FALSE(ParseShmOffer("2 host 1 2 3 0000000000000001").has_value());  // other version
  EXPECT_FALSE(ParseShmOffer("1 host 0 2 3 0000000000000001").has_value());  // pid 0
  EXPECT_FALSE(ParseShmOffer("1 host 1 -1 3 0000000000000001").has_value());
  EXPECT_FALSE(ParseShmOffer("1 host 1 2 3 01").has_value());  // short token
  EXPECT_FALSE(ParseShmOffer("1 host 1 2 3 000000000000000g").has_value());
  EXPECT_FALSE(ParseShmOffer("1 host 1 2 3 0000000000000001 extra").has_value());
}

TEST(ShmOfferTest, HostIdNamesBootAndPidNamespace) {
  const std::string& id = ShmHostId();
  ASSERT_FALSE(id.empty());  // Linux with /proc
  EXPECT_NE(id.find("/pid:["), std::string::npos) << id;
  EXPECT_EQ(id.find(' '), std::string::npos);
}

TEST(ShmOfferTest, EligibleTensorsAreNumericAndLargeEnough) {
  const ShmSettings saved = GetShmSettings();
  SetShmSettings({true, 8});
  EXPECT_TRUE(ShmEligible(Tensor(DT_FLOAT, TensorShape({2}))));    // 8 bytes
  EXPECT_FALSE(ShmEligible(Tensor(DT_FLOAT, TensorShape({1}))));   // 4 bytes
  EXPECT_FALSE(ShmEligible(Tensor(DT_STRING, TensorShape({4}))));  // host objects
  EXPECT_FALSE(ShmEligible(Tensor()));
  SetShmSettings({true, 0});
  EXPECT_TRUE(ShmEligible(Tensor(DT_FLOAT, TensorShape({0}))));
  SetShmSettings(saved);
  EXPECT_EQ(GetShmSettings().min_bytes, 256 * 1024);
}

}  // namespace
}  // namespace distributed
}  // namespace rill
