// Paths the TensorFlow-recorded conformance cases do not cover: inputs TensorFlow's kernels do not
// check (a seq_len_max outside [0, time], where TensorFlow aborts; LSTMBlockCell and GRUBlockCell
// inputs of the wrong rank; LSTMBlockCell's peephole weights), and the zero steps after
// seq_len_max.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Filled(std::initializer_list<int64_t> dims, float v) {
  TensorShape shape(dims);
  std::vector<float> values(static_cast<size_t>(shape.num_elements()), v);
  return Tensor::FromVector<float>(values, shape);
}

// BlockLSTM over x [3, 1, 2] with cell 1: w [3, 4] and b [4] all 0.5.
OpTester& BlockLstm(OpTester& t, int64_t seq_len_max) {
  t.Attr("T", DT_FLOAT).Attr("forget_bias", 1.0f).Attr("cell_clip", 0.0f);
  t.Attr("use_peephole", false);
  t.Input(Tensor::Scalar<int64_t>(seq_len_max)).Input(Filled({3, 1, 2}, 1.0f));
  t.Input(Filled({1, 1}, 0.0f)).Input(Filled({1, 1}, 0.0f)).Input(Filled({3, 4}, 0.5f));
  for (int i = 0; i < 3; ++i) t.Input(Filled({1}, 0.0f));
  t.Input(Filled({4}, 0.5f));
  return t;
}

TEST(BlockRnnOpsTest, SeqLenMaxOutsideTheTimeDimensionIsRefused) {
  for (int64_t len : {-1, 4}) {
    OpTester t("BlockLSTM");
    EXPECT_THAT(BlockLstm(t, len).Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("seq_len_max must be in [0, 3] (the time dimension of x)")))
        << len;
  }
}

TEST(BlockRnnOpsTest, StepsFromSeqLenMaxOnAreZero) {
  OpTester t("BlockLSTM");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, BlockLstm(t, 2).Run());
  ASSERT_EQ(out.size(), 7u);
  for (const Tensor& o : out) {
    ASSERT_EQ(o.shape(), TensorShape({3, 1, 1}));
    EXPECT_NE(o.flat<float>()[0], 0.0f);
    EXPECT_EQ(o.flat<float>()[2], 0.0f);
  }
  // Step 0: z = [1, 1, 0] * 0.5 + 0.5 = 1.5 in every gate; i = o = sigmoid(1.5),
  // f = sigmoid(2.5), ci = tanh(1.5), cs = i * ci, h = o * tanh(cs).
  const float s = 1.0f / (1.0f + std::exp(-1.5f));
  const float cs = s * std::tanh(1.5f);
  EXPECT_NEAR(out[1].flat<float>()[0], cs, 1e-6f);
  EXPECT_NEAR(out[6].flat<float>()[0], s * std::tanh(cs), 1e-6f);
}

TEST(BlockRnnOpsTest, LstmBlockCellRefusesInputsOfTheWrongRank) {
  OpTester t("LSTMBlockCell");
  t.Attr("T", DT_FLOAT).Attr("forget_bias", 1.0f).Attr("cell_clip", 3.0f);
  t.Attr("use_peephole", false);
  t.Input(Filled({1, 2}, 1.0f)).Input(Filled({1}, 0.0f)).Input(Filled({1, 1}, 0.0f));
  t.Input(Filled({3, 4}, 0.5f));
  for (int i = 0; i < 3; ++i) t.Input(Filled({1}, 0.0f));
  t.Input(Filled({4}, 0.5f));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cs_prev must be 2D")));
}

TEST(BlockRnnOpsTest, LstmBlockCellChecksPeepholeWeightsOnlyWhenUsed) {
  for (bool peephole : {false, true}) {
    OpTester t("LSTMBlockCell");
    t.Attr("T", DT_FLOAT).Attr("forget_bias", 1.0f).Attr("cell_clip", 3.0f);
    t.Attr("use_peephole", peephole);
    t.Input(Filled({1, 2}, 1.0f)).Input(Filled({1, 1}, 0.0f)).Input(Filled({1, 1}, 0.0f));
    t.Input(Filled({3, 4}, 0.5f));
    t.Input(Filled({2}, 0.0f)).Input(Filled({1}, 0.0f)).Input(Filled({1}, 0.0f));
    t.Input(Filled({4}, 0.5f));
    auto out = t.Run();
    if (peephole) {
      EXPECT_THAT(out.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("wci.dim_size(0) != cell_size: 2 vs. 1")));
    } else {
      EXPECT_TRUE(out.ok()) << out.status();
    }
  }
}

TEST(BlockRnnOpsTest, GruBlockCellRefusesInputsOfTheWrongRank) {
  OpTester t("GRUBlockCell");
  t.Attr("T", DT_FLOAT);
  t.Input(Filled({2}, 1.0f)).Input(Filled({1, 1}, 0.0f)).Input(Filled({3, 2}, 0.5f));
  t.Input(Filled({3, 1}, 0.5f)).Input(Filled({2}, 0.0f)).Input(Filled({1}, 0.0f));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("x must be 2D")));
  OpTester s("GRUBlockCell");
  s.Attr("T", DT_FLOAT);
  s.Input(Filled({1, 2}, 1.0f)).Input(Filled({1, 1}, 0.0f)).Input(Filled({3, 2}, 0.5f));
  s.Input(Filled({3, 1}, 0.5f)).Input(Tensor::Scalar<float>(0.0f)).Input(Filled({1}, 0.0f));
  EXPECT_THAT(s.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("b_ru.dim_size(0) != cell_size * 2")));
}

}  // namespace
}  // namespace rill
