#include "kernels/math_lib/einsum_spec.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(EinsumSpecTest, AttentionLabelsAreBatchContractAndFree) {
  RILL_ASSERT_OK_AND_ASSIGN(EinsumEquation eq, ParseEinsumEquation("BTNH,BSNH->BNTS", 2));
  RILL_ASSERT_OK_AND_ASSIGN(
      EinsumLabels l, EinsumLabelsOf(eq, {TensorShape({2, 5, 4, 8}), TensorShape({2, 6, 4, 8})}));
  EXPECT_EQ(l.batch, "BN");
  EXPECT_EQ(l.contract, "H");
  EXPECT_EQ(l.free_x, "T");
  EXPECT_EQ(l.free_y, "S");
  EXPECT_EQ(l.output, "BNTS");
  EXPECT_EQ(l.out_shape, TensorShape({2, 4, 5, 6}));
}

TEST(EinsumSpecTest, EllipsisExpandsAndBroadcasts) {
  RILL_ASSERT_OK_AND_ASSIGN(EinsumEquation eq, ParseEinsumEquation("...ij,...jk->...ik", 2));
  RILL_ASSERT_OK_AND_ASSIGN(
      EinsumLabels l, EinsumLabelsOf(eq, {TensorShape({3, 1, 2, 4}), TensorShape({5, 4, 6})}));
  EXPECT_EQ(l.out_shape, TensorShape({3, 5, 2, 6}));
  EXPECT_EQ(l.contract, "j");
}

TEST(EinsumSpecTest, ErrorsAreTensorFlowsTexts) {
  EXPECT_THAT(ParseEinsumEquation("ij,jk", 2).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expecting exactly one '->' in einsum equation: ij,jk"));
  EXPECT_THAT(ParseEinsumEquation("ii->i", 1).status(),
              StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("(a diagonal)")));
  RILL_ASSERT_OK_AND_ASSIGN(EinsumEquation eq, ParseEinsumEquation("ij,jk->ik", 2));
  EXPECT_THAT(EinsumLabelsOf(eq, {TensorShape({2, 3}), TensorShape({4, 5})}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected dimension 3 at axis 0 of the input shaped [4,5] but got "
                       "dimension 4"));
}

TEST(EinsumSpecTest, DiagonalsParseWhenAllowedAndDropRepeatedLetters) {
  RILL_ASSERT_OK_AND_ASSIGN(EinsumEquation eq,
                            ParseEinsumEquation("i...ji,jj->...i", 2, /*allow_diagonals=*/true));
  EinsumSubscripts a = EinsumWithoutDiagonals(eq.inputs[0]);
  EXPECT_EQ(a.labels, "ij");
  EXPECT_EQ(a.ellipsis_at, 1);
  EinsumSubscripts b = EinsumWithoutDiagonals(eq.inputs[1]);
  EXPECT_EQ(b.labels, "j");
  EXPECT_EQ(b.ellipsis_at, -1);
}

}  // namespace
}  // namespace rill
