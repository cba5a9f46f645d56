#include "core/io/table.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(TableTest, RoundTripsManyKeysAcrossBlocksAndRestarts) {
  TableBuilder b;
  std::vector<TableEntry> want;
  want.push_back({"", "header"});
  for (int i = 0; i < 3000; ++i) {
    // Keys share long prefixes (prefix compression) and values are big enough for many blocks.
    want.push_back({absl::StrCat("layer/", 10000 + i, "/kernel"), std::string(200, 'a' + i % 26)});
  }
  for (const TableEntry& e : want) b.Add(e.key, e.value);
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, b.Finish());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TableEntry> got, ReadTable(bytes, "t.index"));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].key, want[i].key);
    EXPECT_EQ(got[i].value, want[i].value);
  }
}

TEST(TableTest, KeysOutOfOrderAreRefused) {
  TableBuilder b;
  b.Add("b", "1");
  b.Add("a", "2");
  EXPECT_THAT(b.Finish().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                            HasSubstr("not added in increasing order")));
}

TEST(TableTest, CorruptionIsDataLossNamingTheFile) {
  TableBuilder b;
  b.Add("k", "value");
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, b.Finish());
  EXPECT_THAT(ReadTable(bytes.substr(0, 20), "x.index").status(),
              StatusIs(absl::StatusCode::kDataLoss,
                       "Corrupted table file x.index: file is too short (20 bytes) to be a "
                       "table"));
  std::string bad_magic = bytes;
  bad_magic.back() ^= 1;
  EXPECT_THAT(ReadTable(bad_magic, "x.index").status(),
              StatusIs(absl::StatusCode::kDataLoss, HasSubstr("bad magic number")));
  std::string flipped = bytes;
  flipped[3] ^= 0x20;  // inside the data block
  EXPECT_THAT(ReadTable(flipped, "x.index").status(),
              StatusIs(absl::StatusCode::kDataLoss,
                       "Corrupted table file x.index: checksum mismatch in the block at offset 0"));
}

}  // namespace
}  // namespace rill
