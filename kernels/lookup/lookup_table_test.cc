#include "kernels/lookup/lookup_table.h"

#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Keys(std::vector<std::string> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<std::string>(v, TensorShape({n}));
}
Tensor Values(std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int64_t>(v, TensorShape({n}));
}
Tensor Default() { return Tensor::FromVector<int64_t>({-1}, TensorShape({})); }

TEST(LookupTableTest, HashTableIsInitializedOnceThenFindsWithDefaults) {
  LookupTable t(DT_STRING, DT_INT64, /*is_mutable=*/false);
  Tensor out(DT_INT64, TensorShape({3}));
  EXPECT_THAT(t.Find(Keys({"a", "c", "b"}), Default(), &out),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("Table not initialized.")));
  RILL_ASSERT_OK(t.Initialize(Keys({"a", "b"}), Values({1, 2})));
  RILL_ASSERT_OK(t.Initialize(Keys({"b", "a"}), Values({2, 1})));  // the same entries: a no-op
  EXPECT_THAT(t.Initialize(Keys({"z"}), Values({9})),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Table was already initialized with different data.")));
  RILL_ASSERT_OK(t.Find(Keys({"a", "c", "b"}), Default(), &out));
  EXPECT_EQ(std::vector<int64_t>(out.flat<int64_t>().begin(), out.flat<int64_t>().end()),
            (std::vector<int64_t>{1, -1, 2}));
  EXPECT_EQ(t.Size(), 2);
  EXPECT_THAT(t.Insert(Keys({"x"}), Values({1})),
              StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("Insert not supported")));
}

TEST(LookupTableTest, InitializeErrorsAreTensorFlows) {
  LookupTable t(DT_STRING, DT_INT64, false);
  EXPECT_THAT(t.Initialize(Keys({"a", "a"}), Values({1, 2})),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("HashTable has different value for same key. Key a has 1 and "
                                 "trying to add value 2")));
  EXPECT_EQ(t.Size(), 0);
  EXPECT_THAT(t.Initialize(Keys({"a", "b"}), Values({1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Keys and values must have the same size 2 vs 1")));
  EXPECT_THAT(t.Initialize(Values({1}), Values({1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Signature mismatch, have: resource, int64, int64-> expected: "
                                 "resource, string, int64->")));
}

TEST(LookupTableTest, MutableTableInsertsOverwritesExportsAndImports) {
  LookupTable t(DT_STRING, DT_INT64, /*is_mutable=*/true);
  RILL_ASSERT_OK(t.Insert(Keys({"a", "b"}), Values({1, 2})));
  RILL_ASSERT_OK(t.Insert(Keys({"b"}), Values({5})));
  Tensor keys, values;
  RILL_ASSERT_OK(t.Export(&keys, &values));
  EXPECT_EQ(keys.flat<std::string>()[1], "b");
  EXPECT_EQ(values.flat<int64_t>()[1], 5);
  EXPECT_THAT(t.Insert(Keys({"a", "b"}), Values({1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected shape [2] for value, got [1]")));
  RILL_ASSERT_OK(t.Import(Keys({"z"}), Values({9})));
  EXPECT_EQ(t.Size(), 1);
}

// TensorFlow 2.21 (crafted_round7's hash_default_vector*, mutable_default_vector*): keys [a, q]
// with default [-1, -2] find [1 -1] in a HashTable, [1 -2] in a MutableHashTable; a default of
// three values is "Expected shape [] or [2] for default value, got [3]" in both.
TEST(LookupTableTest, DefaultIsOneValueOrOnePerKey) {
  const Tensor per_key = Values({-1, -2});
  for (bool is_mutable : {false, true}) {
    LookupTable t(DT_STRING, DT_INT64, is_mutable);
    RILL_ASSERT_OK(t.Import(Keys({"a", "b"}), Values({1, 2})));
    Tensor out(DT_INT64, TensorShape({2}));
    RILL_ASSERT_OK(t.Find(Keys({"a", "q"}), per_key, &out));
    EXPECT_EQ(out.flat<int64_t>()[0], 1);
    EXPECT_EQ(out.flat<int64_t>()[1], is_mutable ? -2 : -1);
    EXPECT_THAT(t.Find(Keys({"a", "q"}), Values({-1, -2, -3}), &out),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("Expected shape [] or [2] for default value, got [3]")));
    Tensor none(DT_INT64, TensorShape({0}));
    EXPECT_THAT(t.Find(Keys({"a", "q"}), Values({}), &out),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("Expected shape [] or [2] for default value, got [0]")));
    RILL_ASSERT_OK(t.Find(Keys({}), Values({}), &none));
  }
}

// TensorFlow 2.21: InitializeTableV2 and LookupTableImportV2 of no entries into a HashTable are
// "keys and values cannot be empty tensors."; exporting a HashTable never initialized is Aborted
// "HashTable is not initialized." (a MutableHashTable exports nothing).
TEST(LookupTableTest, EmptyInitializationAndUninitializedExport) {
  LookupTable t(DT_STRING, DT_INT64, /*is_mutable=*/false);
  Tensor keys, values;
  EXPECT_THAT(t.Export(&keys, &values),
              StatusIs(absl::StatusCode::kAborted, "HashTable is not initialized."));
  for (bool import : {false, true}) {
    EXPECT_THAT(
        import ? t.Import(Keys({}), Values({})) : t.Initialize(Keys({}), Values({})),
        StatusIs(absl::StatusCode::kInvalidArgument, "keys and values cannot be empty tensors."));
  }
  LookupTable m(DT_STRING, DT_INT64, /*is_mutable=*/true);
  RILL_ASSERT_OK(m.Import(Keys({}), Values({})));
  RILL_ASSERT_OK(m.Export(&keys, &values));
  EXPECT_EQ(keys.NumElements(), 0);
}

}  // namespace
}  // namespace rill
