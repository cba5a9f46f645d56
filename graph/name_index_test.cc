#include "graph/name_index.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

class NameIndexTest : public ::testing::Test {
 protected:
  // Ids are positions in `names_`.
  int Add(const std::string& name) {
    names_.push_back(name);
    return static_cast<int>(names_.size()) - 1;
  }
  std::vector<std::string> names_;
  std::function<absl::string_view(int)> fn_ = [this](int id) -> absl::string_view {
    return names_[id];
  };
};

TEST_F(NameIndexTest, InsertFindErase) {
  NameIndex index;
  EXPECT_EQ(index.Find("a", fn_), -1);
  const int a = Add("a");
  const int b = Add("b");
  EXPECT_EQ(index.Insert("a", a, fn_), std::make_pair(a, true));
  EXPECT_EQ(index.Insert("b", b, fn_), std::make_pair(b, true));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Find("a", fn_), a);
  EXPECT_EQ(index.Find("b", fn_), b);
  EXPECT_EQ(index.Find("c", fn_), -1);
  EXPECT_EQ(index.Find("", fn_), -1);
  // A name already there keeps its id.
  const int a2 = Add("a");
  EXPECT_EQ(index.Insert("a", a2, fn_), std::make_pair(a, false));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_TRUE(index.Erase("a", fn_));
  EXPECT_FALSE(index.Erase("a", fn_));
  EXPECT_EQ(index.Find("a", fn_), -1);
  EXPECT_EQ(index.Find("b", fn_), b);
  EXPECT_EQ(index.Insert("a", a2, fn_), std::make_pair(a2, true));
  EXPECT_EQ(index.Find("a", fn_), a2);
}

TEST_F(NameIndexTest, ManyNamesAndFilter) {
  NameIndex index;
  constexpr int kNames = 100000;
  index.Reserve(kNames);
  for (int i = 0; i < kNames; ++i) {
    const int id = Add(absl::StrCat("node/", i));
    ASSERT_TRUE(index.Insert(names_[id], id, fn_).second) << i;
  }
  EXPECT_EQ(index.size(), static_cast<size_t>(kNames));
  for (int i = 0; i < kNames; ++i) ASSERT_EQ(index.Find(absl::StrCat("node/", i), fn_), i);
  EXPECT_EQ(index.Find("node/100000", fn_), -1);
  // Keep the multiples of 3, reading no names (the others' names are gone).
  for (int i = 0; i < kNames; ++i) {
    if (i % 3 != 0) names_[i] = "<removed>";
  }
  index.Filter([](int id) { return id % 3 == 0; });
  EXPECT_EQ(index.size(), static_cast<size_t>((kNames + 2) / 3));
  for (int i = 0; i < kNames; ++i) {
    ASSERT_EQ(index.Find(absl::StrCat("node/", i), fn_), i % 3 == 0 ? i : -1) << i;
  }
}

// Erasing moves later entries of a probe run back into the hole: every name left must stay
// findable through many erasures and re-insertions, in a table grown without Reserve.
TEST_F(NameIndexTest, ErasuresKeepTheOtherNamesFindable) {
  NameIndex index;
  constexpr int kNames = 20000;
  for (int i = 0; i < kNames; ++i) {
    const int id = Add(absl::StrCat("n", i));
    ASSERT_TRUE(index.Insert(names_[id], id, fn_).second) << i;
  }
  std::vector<bool> present(kNames, true);
  // A fixed pseudo-random order of erasures (a multiplicative step coprime with kNames).
  for (int k = 0; k < kNames / 2; ++k) {
    const int i = static_cast<int>((static_cast<int64_t>(k) * 7919) % kNames);
    ASSERT_TRUE(index.Erase(names_[i], fn_)) << i;
    present[i] = false;
  }
  EXPECT_EQ(index.size(), static_cast<size_t>(kNames / 2));
  for (int i = 0; i < kNames; ++i) {
    ASSERT_EQ(index.Find(names_[i], fn_), present[i] ? i : -1) << i;
    ASSERT_EQ(index.Erase(names_[i], fn_), present[i]) << i;
  }
  EXPECT_EQ(index.size(), 0u);
  // Back in under new ids.
  for (int i = 0; i < kNames; ++i) {
    const int id = Add(names_[i]);
    ASSERT_EQ(index.Insert(names_[id], id, fn_), std::make_pair(id, true)) << i;
  }
  for (int i = 0; i < kNames; ++i) ASSERT_EQ(index.Find(names_[i], fn_), kNames + i) << i;
  // Prefetch is only a hint: it changes nothing, on an empty index too.
  index.Prefetch("n1");
  NameIndex().Prefetch("n1");
  EXPECT_EQ(index.Find("n1", fn_), kNames + 1);
}

TEST_F(NameIndexTest, CopyServesTheSameIds) {
  NameIndex index;
  for (const char* name : {"x", "y", "z"}) index.Insert(name, Add(name), fn_);
  const NameIndex copy = index;
  // Another source with the same names for the same ids.
  const std::vector<std::string> other = names_;
  auto other_of = [&](int id) -> absl::string_view { return other[id]; };
  EXPECT_EQ(copy.Find("x", other_of), 0);
  EXPECT_EQ(copy.Find("z", other_of), 2);
  EXPECT_EQ(copy.Find("w", other_of), -1);
  index.Erase("y", fn_);
  EXPECT_EQ(copy.Find("y", other_of), 1);
}

}  // namespace
}  // namespace rill
