#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::vector<float> Ramp(int64_t n, float start, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

Tensor Unary(const char* op, const Tensor& x) {
  OpTester t(op);
  t.Attr("T", DT_FLOAT);
  t.Input(x);
  absl::StatusOr<std::vector<Tensor>> out = t.Run();
  EXPECT_THAT(out.status(), IsOk()) << op;
  return out.ok() ? (*out)[0] : Tensor();
}

Tensor Binary(const char* op, const Tensor& x, const Tensor& y) {
  OpTester t(op);
  t.Attr("T", DT_FLOAT);
  t.Input(x);
  t.Input(y);
  absl::StatusOr<std::vector<Tensor>> out = t.Run();
  EXPECT_THAT(out.status(), IsOk()) << op;
  return out.ok() ? (*out)[0] : Tensor();
}

// c' and h as the unfused Sigmoid, Tanh, Mul and AddV2 kernels compute them, for z [B, 4U] with
// gates in `order` and c.
void Expected(const std::vector<float>& z, const Tensor& c, int64_t batch, int64_t units,
              const std::vector<int64_t>& order, Tensor* c_out, Tensor* h) {
  auto gate = [&](int k) {
    std::vector<float> v;
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t u = 0; u < units; ++u) v.push_back(z[b * 4 * units + order[k] * units + u]);
    }
    return Tensor::FromVector<float>(v, TensorShape({batch, units}));
  };
  const Tensor fc = Binary("Mul", Unary("Sigmoid", gate(1)), c);
  const Tensor ig = Binary("Mul", Unary("Sigmoid", gate(0)), Unary("Tanh", gate(2)));
  *c_out = Binary("AddV2", fc, ig);
  *h = Binary("Mul", Unary("Sigmoid", gate(3)), Unary("Tanh", *c_out));
}

TEST(LstmCellOpTest, GatesAndStateAsTheUnfusedOpsRoundThem) {
  const int64_t batch = 3, units = 37;  // rows longer than a vector, not a multiple of one
  const std::vector<float> z = Ramp(batch * 4 * units, -6.f, 0.023f);
  const std::vector<float> c = Ramp(batch * units, 2.f, -0.041f);
  for (const std::vector<int64_t>& order :
       {std::vector<int64_t>{0, 1, 2, 3}, std::vector<int64_t>{2, 0, 3, 1}}) {
    OpTester t("_RillLstmCell");
    t.Attr("T", DT_FLOAT).Attr("gate_order", order);
    t.Input(Tensor::FromVector<float>(z, TensorShape({batch, 4 * units})));
    const Tensor ct = Tensor::FromVector<float>(c, TensorShape({batch, units}));
    t.Input(ct);
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    Tensor c_out, h;
    Expected(z, ct, batch, units, order, &c_out, &h);
    ExpectTensorEqual(out[0], c_out);
    ExpectTensorEqual(out[1], h);
  }
}

// Thousands of distinct c' in [0, 2], where a Tanh built another way (FMA or not) would differ in
// the last bit for a fifth of them.
TEST(LstmCellOpTest, CBroadcastsAsMulBroadcastsIt) {
  const int64_t batch = 8, units = 389;
  const std::vector<float> z = Ramp(batch * 4 * units, -3.f, 0.0023f);
  const std::vector<float> c = Ramp(units, 0.f, 2.f / units);
  OpTester t("_RillLstmCell");
  t.Attr("T", DT_FLOAT);
  t.Input(Tensor::FromVector<float>(z, TensorShape({batch, 4 * units})));
  const Tensor ct = Tensor::FromVector<float>(c, TensorShape({units}));
  t.Input(ct);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  Tensor c_out, h;
  Expected(z, ct, batch, units, {0, 1, 2, 3}, &c_out, &h);
  ExpectTensorEqual(out[0], c_out);
  ExpectTensorEqual(out[1], h);
}

TEST(LstmCellOpTest, ShapesTheUnfusedOpsRefuseGetTheirErrors) {
  OpTester split("_RillLstmCell");
  split.Attr("T", DT_FLOAT);
  split.Input(Tensor::FromVector<float>(Ramp(12, 0.f, 1.f), TensorShape({2, 6})));
  split.Input(Tensor::FromVector<float>(Ramp(2, 0.f, 1.f), TensorShape({2, 1})));
  EXPECT_THAT(split.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Number of ways to split should evenly divide the split "
                                 "dimension, but got split_dim 1 (size = 6) and num_split 4")));
  OpTester mul("_RillLstmCell");
  mul.Attr("T", DT_FLOAT);
  mul.Input(Tensor::FromVector<float>(Ramp(16, 0.f, 1.f), TensorShape({2, 8})));
  mul.Input(Tensor::FromVector<float>(Ramp(3, 0.f, 1.f), TensorShape({3})));
  EXPECT_THAT(mul.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("Incompatible shapes: [2,2] vs. [3]")));
}

TEST(LstmCellOpTest, ErrorsNameTheNodesOfTheUnfusedCell) {
  // _rill_error_nodes: the Split and the Mul of Sigmoid(f) and c.
  const std::vector<std::string> nodes = {"lstm/split", "lstm/mul_1"};
  auto run = [&](const TensorShape& z, const TensorShape& c) {
    OpTester t("_RillLstmCell");
    t.Attr("T", DT_FLOAT).Attr("_rill_error_nodes", nodes);
    t.Input(Tensor::FromVector<float>(Ramp(z.num_elements(), 0.f, 1.f), z));
    t.Input(Tensor::FromVector<float>(Ramp(c.num_elements(), 0.f, 1.f), c));
    return t.Run().status();
  };
  EXPECT_THAT(run(TensorShape({2, 6}), TensorShape({2, 1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Number of ways to split should evenly divide the split dimension, but got "
                       "split_dim 1 (size = 6) and num_split 4\n\t [[{{node lstm/split}}]]"));
  EXPECT_THAT(run(TensorShape({8}), TensorShape({2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The LSTM step's gate pre-activations must be a matrix [batch, 4 * units] "
                       "(the product of the step's input and kernel); got [8]\n\t [[{{node "
                       "lstm/split}}]]"));
  EXPECT_THAT(run(TensorShape({2, 8}), TensorShape({3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,2] vs. [3]\n\t [[{{node lstm/mul_1}}]]"));
  // _rill_error_operands_swapped [1]: the Mul takes c first (c * Sigmoid(f)), as its error says.
  OpTester t("_RillLstmCell");
  t.Attr("T", DT_FLOAT)
      .Attr("_rill_error_nodes", nodes)
      .Attr("_rill_error_operands_swapped", std::vector<int64_t>{1});
  t.Input(Tensor::FromVector<float>(Ramp(16, 0.f, 1.f), TensorShape({2, 8})));
  t.Input(Tensor::FromVector<float>(Ramp(3, 0.f, 1.f), TensorShape({3})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [3] vs. [2,2]\n\t [[{{node lstm/mul_1}}]]"));
}

}  // namespace
}  // namespace rill
