#include "ops/attr_value_util.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(AttrValueUtilTest, TypeNamesAndEmptyListMatchesAnyList) {
  AttrValue v;
  EXPECT_EQ(AttrValueTypeName(v), "");
  v.set_i(3);
  EXPECT_EQ(AttrValueTypeName(v), "int");
  v.mutable_list();
  EXPECT_EQ(AttrValueTypeName(v), "list(?)");
  EXPECT_TRUE(AttrValueHasType(v, "list(type)"));
  EXPECT_FALSE(AttrValueHasType(v, "type"));
  v.mutable_list()->add_type(DT_FLOAT);
  EXPECT_EQ(AttrValueTypeName(v), "list(type)");
  EXPECT_EQ(SummarizeAttrValue(v), "[DT_FLOAT]");
}

TEST(AttrValueUtilTest, GettersCheckPresenceAndKind) {
  NodeDef n;
  n.set_name("node1");
  SetAttr(&n, "T", DT_INT64);
  SetAttr(&n, "N", 4);
  SetAttr(&n, "flag", true);
  SetAttr(&n, "names", std::vector<std::string>{"a", "b"});
  DataType t;
  RILL_ASSERT_OK(GetNodeAttr(n, "T", &t));
  EXPECT_EQ(t, DT_INT64);
  int64_t count;
  RILL_ASSERT_OK(GetNodeAttr(n, "N", &count));
  EXPECT_EQ(count, 4);
  std::vector<std::string> names;
  RILL_ASSERT_OK(GetNodeAttr(n, "names", &names));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  EXPECT_THAT(GetNodeAttr(n, "missing", &t),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "No attr named 'missing' in NodeDef: {{node node1}}"));
  EXPECT_THAT(GetNodeAttr(n, "flag", &t),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("AttrValue had value with type 'bool' when 'type' expected")));
  SetAttr(&n, "big", int64_t{1} << 40);
  int32_t small;
  EXPECT_THAT(GetNodeAttr(n, "big", &small),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("out of range for int32")));
}

TEST(AttrValueUtilTest, CheckInt32AttrIsTensorFlowsRangeError) {
  RILL_EXPECT_OK(CheckInt32Attr("first_n", -2147483648));
  RILL_EXPECT_OK(CheckInt32Attr("first_n", 2147483647));
  EXPECT_THAT(CheckInt32Attr("summarize", int64_t{1} << 40),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Attr summarize has value 1099511627776 out of range for an int32"));
}

}  // namespace
}  // namespace rill
