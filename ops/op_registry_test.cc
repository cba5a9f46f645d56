#include "ops/op_registry.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(OpDefBuilderTest, ParsesArgsAttrsDefaultsAndMinimums) {
  RILL_ASSERT_OK_AND_ASSIGN(OpRegistration reg, OpDefBuilder("TestOp")
                                                    .Input("a: Ref(T)")
                                                    .Input("rest: N * T")
                                                    .Input("fixed: int32")
                                                    .Input("many: Tlist")
                                                    .Output("out: T")
                                                    .Attr("T: {float, int32}")
                                                    .Attr("N: int >= 2")
                                                    .Attr("Tlist: list(type) >= 0")
                                                    .Attr("flag: bool = true")
                                                    .Attr("label: string = \"x\"")
                                                    .Attr("shape: shape = { unknown_rank: true }")
                                                    .SetIsStateful()
                                                    .Finalize());
  const OpDef& d = reg.op_def;
  EXPECT_TRUE(d.is_stateful());
  EXPECT_TRUE(d.input_arg(0).is_ref());
  EXPECT_EQ(d.input_arg(0).type_attr(), "T");
  EXPECT_EQ(d.input_arg(1).number_attr(), "N");
  EXPECT_EQ(d.input_arg(2).type(), DT_INT32);
  EXPECT_EQ(d.input_arg(3).type_list_attr(), "Tlist");
  EXPECT_EQ(d.attr(0).allowed_values().list().type_size(), 2);
  EXPECT_TRUE(d.attr(1).has_minimum());
  EXPECT_EQ(d.attr(1).minimum(), 2);
  EXPECT_TRUE(d.attr(3).default_value().b());
  EXPECT_EQ(d.attr(4).default_value().s(), "x");
  EXPECT_TRUE(d.attr(5).default_value().shape().unknown_rank());
  EXPECT_NE(reg.shape_fn, nullptr);
}

TEST(OpDefBuilderTest, StringAttrWithAllowedValues) {
  RILL_ASSERT_OK_AND_ASSIGN(OpRegistration reg, OpDefBuilder("TestOp")
                                                    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
                                                    .Attr("pad: {'SAME'} = \"SAME\"")
                                                    .Finalize());
  const OpDef& d = reg.op_def;
  EXPECT_EQ(d.attr(0).type(), "string");
  ASSERT_EQ(d.attr(0).allowed_values().list().s_size(), 2);
  EXPECT_EQ(d.attr(0).allowed_values().list().s(1), "SYMMETRIC");
  EXPECT_EQ(d.attr(1).default_value().s(), "SAME");
  EXPECT_THAT(OpDefBuilder("Bad").Attr("mode: {'A', B}").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("allowed strings must be single-quoted")));
}

TEST(OpDefBuilderTest, TypeListWithAllowedTypes) {
  RILL_ASSERT_OK_AND_ASSIGN(OpRegistration reg,
                            OpDefBuilder("TestOp")
                                .Input("values: sparse_types")
                                .Attr("sparse_types: list({int64, string}) >= 0")
                                .Finalize());
  const OpDef& d = reg.op_def;
  EXPECT_EQ(d.attr(0).type(), "list(type)");
  EXPECT_TRUE(d.attr(0).has_minimum());
  EXPECT_THAT(d.attr(0).allowed_values().list().type(), ElementsAre(DT_INT64, DT_STRING));
  EXPECT_EQ(d.input_arg(0).type_list_attr(), "sparse_types");
  EXPECT_THAT(OpDefBuilder("Bad").Attr("x: list({int64, string}").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unclosed '{'")));
}

TEST(OpDefBuilderTest, ListIntDefaultsWithValues) {
  RILL_ASSERT_OK_AND_ASSIGN(OpRegistration reg, OpDefBuilder("TestOp")
                                                    .Attr("dilations: list(int) = [1, 2, 3, 4]")
                                                    .Attr("pads: list(int) = []")
                                                    .Finalize());
  EXPECT_THAT(reg.op_def.attr(0).default_value().list().i(), ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(reg.op_def.attr(1).default_value().list().i_size(), 0);
  EXPECT_THAT(OpDefBuilder("Bad").Attr("x: list(int) = [1, a]").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bad list(int) default")));
  EXPECT_THAT(OpDefBuilder("Bad").Attr("x: list(type) = [DT_FLOAT]").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("only list(int) defaults may have values")));
}

TEST(OpDefBuilderTest, MalformedSpecsNameOpAndSpec) {
  EXPECT_THAT(OpDefBuilder("Bad").Input("a: Q").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Op 'Bad': cannot parse spec 'a: Q': 'Q' is neither a dtype nor a "
                       "declared attr"));
  EXPECT_THAT(
      OpDefBuilder("Bad").Attr("T: matrix").Finalize(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unknown attr type 'matrix'")));
  EXPECT_THAT(OpDefBuilder("Bad").Attr("T: {float, flot}").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'flot'")));
  EXPECT_THAT(OpDefBuilder("Bad").Attr("b: bool = maybe").Finalize(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bad bool default")));
}

TEST(OpRegistryTest, DuplicateRegistrationFails) {
  OpRegistry registry;
  RILL_ASSERT_OK_AND_ASSIGN(OpRegistration reg, OpDefBuilder("Twice").Finalize());
  RILL_EXPECT_OK(registry.Register(reg));
  EXPECT_THAT(registry.Register(reg),
              StatusIs(absl::StatusCode::kAlreadyExists, "Op 'Twice' is registered twice"));
}

TEST(OpRegistryTest, UnknownOpUsesTensorFlowWording) {
  EXPECT_EQ(OpRegistry::Global()->LookUp("NoSuchOp"), nullptr);
  EXPECT_THAT(OpRegistry::Global()->LookUpOrError("NoSuchOp"),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("Op type not registered 'NoSuchOp' in binary running on")));
}

TEST(OpRegistryTest, GlobalHoldsShippedOpsAndHidesInternalOnes) {
  const OpRegistration* matmul = OpRegistry::Global()->LookUp("MatMul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->op_def.attr(0).name(), "transpose_a");
  std::vector<std::string> user = OpRegistry::Global()->ListOps(false);
  EXPECT_THAT(user, Contains("AddN"));
  EXPECT_THAT(user, Not(Contains("_Send")));
  EXPECT_THAT(OpRegistry::Global()->ListOps(true), Contains("_Send"));
}

// Shape functions feed import checks, the builder's shapes and summarize_graph: no op may be
// registered without one (an op whose output shape is never known says so with
// shape_fns::Unknown).
TEST(OpRegistryTest, EveryRegisteredOpHasAShapeFunction) {
  for (const std::string& op : OpRegistry::Global()->ListOps(/*include_internal=*/true)) {
    const OpRegistration* reg = OpRegistry::Global()->LookUp(op);
    ASSERT_NE(reg, nullptr) << op;
    EXPECT_TRUE(reg->has_shape_fn) << op << " has no SetShapeFn in its REGISTER_OP";
  }
}

}  // namespace
}  // namespace rill
