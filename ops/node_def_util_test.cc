#include "ops/node_def_util.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

NodeDef Parse(const std::string& text) {
  NodeDef n;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &n)) << text;
  return n;
}

const OpDef& Op(const std::string& name) { return OpRegistry::Global()->LookUp(name)->op_def; }

TEST(NodeDefUtilTest, ParseInputNameForms) {
  RILL_ASSERT_OK_AND_ASSIGN(InputName a, ParseInputName("a"));
  EXPECT_EQ(a.node, "a");
  EXPECT_EQ(a.index, 0);
  RILL_ASSERT_OK_AND_ASSIGN(InputName b, ParseInputName("scope/b:3"));
  EXPECT_EQ(b.node, "scope/b");
  EXPECT_EQ(b.index, 3);
  RILL_ASSERT_OK_AND_ASSIGN(InputName c, ParseInputName("^c"));
  EXPECT_TRUE(c.is_control());
  EXPECT_THAT(ParseInputName("x:y"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Malformed input 'x:y'")));
  EXPECT_THAT(ParseInputName("^"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty node name")));
}

TEST(NodeDefUtilTest, DefaultsAreFilledThenNodeValidates) {
  NodeDef n = Parse(R"(name: "m" op: "MatMul" input: "a" input: "b"
                       attr { key: "T" value { type: DT_FLOAT } })");
  AddDefaultsToNodeDef(Op("MatMul"), &n);
  EXPECT_FALSE(n.attr().at("transpose_a").b());
  RILL_EXPECT_OK(ValidateNodeDef(n, Op("MatMul")));
}

TEST(NodeDefUtilTest, MissingAttrNamesNodeAndAttr) {
  NodeDef n = Parse(R"(name: "m" op: "MatMul" input: "a" input: "b")");
  AddDefaultsToNodeDef(Op("MatMul"), &n);
  EXPECT_THAT(ValidateNodeDef(n, Op("MatMul")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::AllOf(HasSubstr("NodeDef missing attr 'T' from Op<name=MatMul"),
                                        HasSubstr("{{node m}}"))));
}

TEST(NodeDefUtilTest, AttrChecksAloneIgnoreTheInputList) {
  // No inputs listed: ValidateNodeDef wants two, ValidateNodeDefAttrs checks only the attrs.
  NodeDef n = Parse(R"(name: "m" op: "MatMul" attr { key: "T" value { type: DT_FLOAT } })");
  AddDefaultsToNodeDef(Op("MatMul"), &n);
  RILL_EXPECT_OK(ValidateNodeDefAttrs(n, Op("MatMul")));
  EXPECT_THAT(ValidateNodeDef(n, Op("MatMul")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("NodeDef expected inputs 'float, float' do not match 0 inputs")));
  n.mutable_attr()->erase("T");
  EXPECT_THAT(ValidateNodeDefAttrs(n, Op("MatMul")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::AllOf(HasSubstr("NodeDef missing attr 'T' from Op<name=MatMul"),
                                        HasSubstr("{{node m}}"))));
}

TEST(NodeDefUtilTest, WrongAttrKindIsReported) {
  NodeDef n = Parse(R"(name: "m" op: "MatMul" input: "a" input: "b"
                       attr { key: "T" value { i: 3 } })");
  AddDefaultsToNodeDef(Op("MatMul"), &n);
  EXPECT_THAT(ValidateNodeDef(n, Op("MatMul")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("AttrValue had value with type 'int' when 'type' expected\n\t "
                                 "for attr 'T'")));
}

TEST(NodeDefUtilTest, TypeOutsideAllowedListIsReported) {
  NodeDef n = Parse(R"(name: "m" op: "MatMul" input: "a" input: "b"
                       attr { key: "T" value { type: DT_BOOL } })");
  AddDefaultsToNodeDef(Op("MatMul"), &n);
  EXPECT_THAT(ValidateNodeDef(n, Op("MatMul")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Value for attr 'T' of bool is not in the list of allowed "
                                 "values: bfloat16, half, float, double, int32, int64")));
}

// A type attr no op constrains (TensorArrayV3's dtype, IdentityN's T) still refuses codes that
// name no value type, with TensorFlow's texts.
TEST(NodeDefUtilTest, InvalidReferenceAndUnknownDtypeCodesAreReported) {
  struct Row {
    const char* attr;
    const char* message;
  };
  for (const Row& row : std::vector<Row>{
           {"type: 1000", "AttrValue has invalid DataType enum: 1000\n\t for attr 'dtype'"},
           {"type: -1", "AttrValue has invalid DataType enum: -1\n\t for attr 'dtype'"},
           {"type: DT_FLOAT_REF",
            "AttrValue must not have reference type value of float_ref\n\t for attr 'dtype'"},
           {"type: DT_INVALID", "AttrValue has invalid DataType\n\t for attr 'dtype'"}}) {
    NodeDef n = Parse(absl::StrCat(R"(name: "ta" op: "TensorArrayV3" input: "n"
                                      attr { key: "dtype" value { )",
                                   row.attr, " } }"));
    AddDefaultsToNodeDef(Op("TensorArrayV3"), &n);
    EXPECT_THAT(ValidateNodeDef(n, Op("TensorArrayV3")),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         ::testing::AllOf(HasSubstr(row.message), HasSubstr("{{node ta}}"))))
        << row.attr;
  }
  NodeDef n = Parse(R"(name: "n" op: "IdentityN" input: "a" input: "b"
                       attr { key: "T" value { list { type: DT_FLOAT type: DT_INVALID } } })");
  EXPECT_THAT(ValidateNodeDef(n, Op("IdentityN")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("AttrValue contains invalid DataType\n\t for attr 'T'")));
  n.mutable_attr()->at("T").mutable_list()->set_type(1, static_cast<DataType>(1000));
  EXPECT_THAT(ValidateNodeDef(n, Op("IdentityN")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("AttrValue has invalid DataType enum: 1000\n\t for attr 'T'")));
  n.mutable_attr()->at("T").mutable_list()->set_type(1, DT_RESOURCE);
  RILL_EXPECT_OK(ValidateNodeDefAttrs(n, Op("IdentityN")));
}

TEST(NodeDefUtilTest, UndeclaredAttrIsReportedButUnderscoreAttrsPass) {
  NodeDef n = Parse(R"(name: "i" op: "Identity" input: "a"
                       attr { key: "T" value { type: DT_FLOAT } }
                       attr { key: "_class" value { list { s: "loc:@a" } } })");
  RILL_EXPECT_OK(ValidateNodeDef(n, Op("Identity")));
  (*n.mutable_attr())["colour"].set_s("red");
  EXPECT_THAT(ValidateNodeDef(n, Op("Identity")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("NodeDef mentions attr 'colour' not in Op<name=Identity")));
}

TEST(NodeDefUtilTest, WrongInputCountIsReported) {
  NodeDef n = Parse(R"(name: "m" op: "MatMul" input: "a" input: "^c"
                       attr { key: "T" value { type: DT_FLOAT } })");
  AddDefaultsToNodeDef(Op("MatMul"), &n);
  EXPECT_THAT(ValidateNodeDef(n, Op("MatMul")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("NodeDef expected inputs 'float, float' do not match 1 inputs "
                                 "specified")));
}

TEST(NodeDefUtilTest, MinimumIsEnforced) {
  NodeDef n = Parse(R"(name: "s" op: "AddN"
                       attr { key: "T" value { type: DT_FLOAT } }
                       attr { key: "N" value { i: 0 } })");
  EXPECT_THAT(ValidateNodeDef(n, Op("AddN")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Value for attr 'N' of 0 must be at least minimum 1")));
}

TEST(NodeDefUtilTest, ListMinimumCountsEveryKindOfList) {
  // TensorFlow 2.21's text for a list(shape) attr below its minimum (an Iterator built by the C
  // API with TF_SetAttrShapeList of no shapes).
  NodeDef n = Parse(R"(name: "it" op: "Iterator"
                       attr { key: "shared_name" value { s: "" } }
                       attr { key: "container" value { s: "" } }
                       attr { key: "output_types" value { list { type: DT_INT32 } } }
                       attr { key: "output_shapes" value { list { } } })");
  EXPECT_THAT(ValidateNodeDef(n, Op("Iterator")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Length for attr 'output_shapes' of 0 must be at least minimum 1\n\t; "
                       "NodeDef: {{node it}}"));
  (*n.mutable_attr())["output_shapes"].mutable_list()->add_shape()->add_dim()->set_size(2);
  RILL_EXPECT_OK(ValidateNodeDef(n, Op("Iterator")));
}

TEST(NodeDefUtilTest, InOutTypesExpandNumberAttrsAndRefs) {
  NodeDef addn = Parse(R"(name: "s" op: "AddN" input: "a" input: "b" input: "c"
                          attr { key: "T" value { type: DT_INT32 } }
                          attr { key: "N" value { i: 3 } })");
  DataTypeVector in, out;
  RILL_ASSERT_OK(InOutTypesForNode(addn, Op("AddN"), &in, &out));
  EXPECT_THAT(in, ElementsAre(DT_INT32, DT_INT32, DT_INT32));
  EXPECT_THAT(out, ElementsAre(DT_INT32));
  NodeDef assign = Parse(R"(name: "as" op: "Assign" input: "v" input: "x"
                            attr { key: "T" value { type: DT_FLOAT } })");
  RILL_ASSERT_OK(InOutTypesForNode(assign, Op("Assign"), &in, &out));
  EXPECT_THAT(in, ElementsAre(DT_FLOAT_REF, DT_FLOAT));
  EXPECT_THAT(out, ElementsAre(DT_FLOAT_REF));
}

TEST(NodeDefUtilTest, SummariesReadLikeTensorFlows) {
  NodeDef n = Parse(R"(name: "m" op: "MatMul" input: "a" input: "b" device: "/cpu:0"
                       attr { key: "T" value { type: DT_FLOAT } })");
  EXPECT_EQ(SummarizeNodeDef(n), "{{node m}} = MatMul[T=DT_FLOAT](a, b), device=/cpu:0");
  EXPECT_THAT(SummarizeOpDef(Op("MatMul")),
              HasSubstr("Op<name=MatMul; signature=a:T, b:T -> product:T; attr=transpose_a:bool,"
                        "default=false"));
}

// Issue 26 item 7: a list length from the graph is bounded before anything is sized by it.
TEST(NodeDefUtilTest, ListLengthsPastTheBoundAreInvalidArgument) {
  DataTypeVector in, out;
  NodeDef unpack = Parse(R"(name: "u" op: "Unpack" input: "x"
                            attr { key: "T" value { type: DT_FLOAT } }
                            attr { key: "num" value { i: 1000000000 } })");
  EXPECT_THAT(InOutTypesForNode(unpack, Op("Unpack"), &in, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr 'num' of node 'u' is 1000000000: Rill allows at most "
                                 "1048576 tensors in one input or output list ('output' of "
                                 "Unpack)")));
  unpack.mutable_attr()->at("num").set_i(kMaxArgListLength);
  in.clear();
  out.clear();
  RILL_EXPECT_OK(InOutTypesForNode(unpack, Op("Unpack"), &in, &out));
  EXPECT_EQ(out.size(), static_cast<size_t>(kMaxArgListLength));
}

}  // namespace
}  // namespace rill
