#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cancellation.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

std::vector<float> Ramp(int64_t n, float start, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

// Runs `op` on `inputs` with `attrs`; the outputs, or the error.
absl::StatusOr<std::vector<Tensor>> RunOp(
    const char* op, const std::vector<Tensor>& inputs,
    const std::vector<std::pair<const char*, AttrValue>>& attrs) {
  OpTester t(op);
  for (const auto& [name, value] : attrs) t.Attr(name, value);
  for (const Tensor& in : inputs) t.Input(in);
  return t.Run();
}

AttrValue Type(DataType d) {
  AttrValue v;
  v.set_type(d);
  return v;
}

AttrValue Int(int64_t i) {
  AttrValue v;
  v.set_i(i);
  return v;
}

AttrValue Bool(bool b) {
  AttrValue v;
  v.set_b(b);
  return v;
}

AttrValue Ints(const std::vector<int64_t>& is) {
  AttrValue v;
  for (int64_t i : is) v.mutable_list()->add_i(i);
  return v;
}

Tensor I32(int32_t v) { return Tensor::Scalar<int32_t>(v); }

// An LSTM over T steps of [B, D] inputs with U units: x [T, B, D] as a list, W [D, 4U], U [U, 4U],
// b [4U], h0 and c0 [B, U].
struct Problem {
  int64_t steps = 5, batch = 3, dim = 7, units = 11;
  Tensor x_list, es, out_list, h0, c0, w, u, b;
};

Problem Make() {
  Problem p;
  const int64_t g = 4 * p.units;
  Tensor x = Tensor::FromVector<float>(Ramp(p.steps * p.batch * p.dim, -2.f, 0.037f),
                                       TensorShape({p.steps, p.batch, p.dim}));
  p.es = Tensor::FromVector<int32_t>({static_cast<int32_t>(p.batch), static_cast<int32_t>(p.dim)},
                                     TensorShape({2}));
  p.x_list = (*RunOp("TensorListFromTensor", {x, p.es},
                     {{"element_dtype", Type(DT_FLOAT)}, {"shape_type", Type(DT_INT32)}}))[0];
  p.out_list = (*RunOp("TensorListReserve", {I32(-1), I32(static_cast<int32_t>(p.steps))},
                       {{"element_dtype", Type(DT_FLOAT)}, {"shape_type", Type(DT_INT32)}}))[0];
  p.h0 = Tensor::FromVector<float>(Ramp(p.batch * p.units, 0.3f, -0.01f),
                                   TensorShape({p.batch, p.units}));
  p.c0 = Tensor::FromVector<float>(Ramp(p.batch * p.units, -0.5f, 0.02f),
                                   TensorShape({p.batch, p.units}));
  p.w = Tensor::FromVector<float>(Ramp(p.dim * g, 0.41f, -0.0131f), TensorShape({p.dim, g}));
  p.u = Tensor::FromVector<float>(Ramp(p.units * g, -0.27f, 0.0093f), TensorShape({p.units, g}));
  p.b = Tensor::FromVector<float>(Ramp(g, 0.1f, -0.01f), TensorShape({g}));
  return p;
}

// The loop's steps from t0 while t < steps, node by node; returns {list, h, c}.
std::vector<Tensor> Unfused(const Problem& p, int32_t t0, const std::vector<int64_t>& order) {
  Tensor list = p.out_list, h = p.h0, c = p.c0;
  const auto f32 = std::pair<const char*, AttrValue>{"T", Type(DT_FLOAT)};
  for (int32_t t = t0; t < p.steps; ++t) {
    Tensor x = (*RunOp("TensorListGetItem", {p.x_list, I32(t), p.es},
                       {{"element_dtype", Type(DT_FLOAT)}}))[0];
    Tensor xw = (*RunOp("MatMul", {x, p.w}, {f32}))[0];
    Tensor hu = (*RunOp("MatMul", {h, p.u}, {f32}))[0];
    Tensor z = (*RunOp("BiasAdd", {(*RunOp("AddV2", {xw, hu}, {f32}))[0], p.b}, {f32}))[0];
    std::vector<Tensor> cell = *RunOp("_RillLstmCell", {z, c}, {f32, {"gate_order", Ints(order)}});
    c = cell[0];
    h = cell[1];
    list = (*RunOp("TensorListSetItem", {list, I32(t), h}, {{"element_dtype", Type(DT_FLOAT)}}))[0];
  }
  return {list, h, c};
}

absl::StatusOr<std::vector<Tensor>> Fused(const Problem& p, int32_t t0, int32_t max,
                                          const std::vector<int64_t>& order) {
  return RunOp("_RillLstmSequence",
               {I32(0), I32(t0), I32(max), I32(static_cast<int32_t>(p.steps)), p.x_list, p.es,
                p.out_list, p.h0, p.c0, p.w, p.u, p.b},
               {{"T", Type(DT_FLOAT)},
                {"num_counters", Int(2)},
                {"num_bounds", Int(2)},
                {"bound_counters", Ints({0, 1})},
                {"read_counter", Int(1)},
                {"write_counter", Int(1)},
                {"gate_order", Ints(order)}});
}

Tensor Stack(const Tensor& list) {
  return (*RunOp("TensorListStack", {list, I32(-1)}, {{"element_dtype", Type(DT_FLOAT)}}))[0];
}

TEST(LstmSequenceOpTest, StepsAsTheLoopsKernelsRunThem) {
  const Problem p = Make();
  for (const std::vector<int64_t>& order :
       {std::vector<int64_t>{0, 1, 2, 3}, std::vector<int64_t>{3, 2, 0, 1}}) {
    for (int32_t t0 : {0, 2}) {
      RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, Fused(p, t0, 100, order));
      const std::vector<Tensor> want = Unfused(p, t0, order);
      ASSERT_EQ(out.size(), 5u);
      ExpectTensorEqual(out[0], I32(static_cast<int32_t>(p.steps) - t0));
      ExpectTensorEqual(out[1], I32(static_cast<int32_t>(p.steps)));
      ExpectTensorEqual(Stack(out[2]), Stack(want[0]));
      ExpectTensorEqual(out[3], want[1]);
      ExpectTensorEqual(out[4], want[2]);
    }
  }
}

TEST(LstmSequenceOpTest, NoStepGivesTheInputsBack) {
  const Problem p = Make();
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, Fused(p, 0, 0, {0, 1, 2, 3}));
  ExpectTensorEqual(out[0], I32(0));
  ExpectTensorEqual(out[1], I32(0));
  ExpectTensorEqual(out[3], p.h0);
  ExpectTensorEqual(out[4], p.c0);
}

TEST(LstmSequenceOpTest, AStepsErrorIsItsKernelsError) {
  Problem p = Make();
  // Reads past the list's end: the GetItem's own error.
  p.steps = 9;
  const absl::Status want =
      RunOp("TensorListGetItem", {p.x_list, I32(5), p.es}, {{"element_dtype", Type(DT_FLOAT)}})
          .status();
  ASSERT_FALSE(want.ok());
  EXPECT_EQ(Fused(p, 0, 100, {0, 1, 2, 3}).status(), want);
  // An h the recurrent kernel cannot multiply: MatMul's error.
  Problem q = Make();
  q.h0 = Tensor::FromVector<float>(Ramp(6, 0.f, 1.f), TensorShape({3, 2}));
  const absl::Status mm = RunOp("MatMul", {q.h0, q.u}, {{"T", Type(DT_FLOAT)}}).status();
  ASSERT_FALSE(mm.ok());
  EXPECT_EQ(Fused(q, 0, 100, {0, 1, 2, 3}).status(), mm);
}

TEST(LstmSequenceOpTest, ErrorsNameTheLoopsNodes) {
  // _rill_error_nodes: GetItem, the two MatMuls, the sum, BiasAdd, SetItem, a Switch, then the
  // cell's Split and Mul of Sigmoid(f) and c.
  AttrValue nodes;
  for (const char* n : {"w/get", "w/mm_x", "w/mm_h", "w/sum", "w/bias", "w/set", "w/Switch",
                        "w/split", "w/mul_fc"}) {
    nodes.mutable_list()->add_s(n);
  }
  auto run = [&](const Problem& p, const Tensor& bound) {
    return RunOp("_RillLstmSequence",
                 {I32(0), bound, p.x_list, p.es, p.out_list, p.h0, p.c0, p.w, p.u, p.b},
                 {{"T", Type(DT_FLOAT)},
                  {"num_counters", Int(1)},
                  {"num_bounds", Int(1)},
                  {"bound_counters", Ints({0})},
                  {"read_counter", Int(0)},
                  {"write_counter", Int(0)},
                  {"_rill_error_nodes", nodes}})
        .status();
  };
  auto at = [](const absl::Status& s, const std::string& node) {
    return absl::Status(s.code(), absl::StrCat(s.message(), "\n\t [[{{node ", node, "}}]]"));
  };
  const Problem p = Make();
  const absl::Status past =
      RunOp("TensorListGetItem", {p.x_list, I32(5), p.es}, {{"element_dtype", Type(DT_FLOAT)}})
          .status();
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(run(p, I32(9)), at(past, "w/get"));
  Problem q = Make();
  q.h0 = Tensor::FromVector<float>(Ramp(6, 0.f, 1.f), TensorShape({3, 2}));
  const absl::Status mm = RunOp("MatMul", {q.h0, q.u}, {{"T", Type(DT_FLOAT)}}).status();
  ASSERT_FALSE(mm.ok());
  EXPECT_EQ(run(q, I32(5)), at(mm, "w/mm_h"));
  // A c of 2 rows for the step's 3: the cell's Mul of Sigmoid(f) and c.
  Problem r = Make();
  r.c0 = Tensor::FromVector<float>(Ramp(2 * r.units, 0.f, 0.1f), TensorShape({2, r.units}));
  EXPECT_THAT(run(r, I32(5)), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "Incompatible shapes: [3,11] vs. [2,11]\n\t [[{{node "
                                       "w/mul_fc}}]]"));
  EXPECT_THAT(run(p, Tensor::FromVector<int32_t>({1, 2}, TensorShape({2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The second input must be a scalar, but it has shape [2]\n\t [[{{node "
                       "w/Switch}}]]"));
}

TEST(LstmSequenceOpTest, ABoundThatIsNotAScalarGetsTheSwitchsErrorOrToBoolsTruth) {
  const Problem p = Make();
  EXPECT_THAT(
      RunOp("_RillLstmSequence",
            {I32(0), Tensor::FromVector<int32_t>({1, 2}, TensorShape({2})), p.x_list, p.es,
             p.out_list, p.h0, p.c0, p.w, p.u, p.b},
            {{"T", Type(DT_FLOAT)},
             {"num_counters", Int(1)},
             {"num_bounds", Int(1)},
             {"bound_counters", Ints({0})},
             {"read_counter", Int(0)}})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               ::testing::HasSubstr("The second input must be a scalar, but it has shape [2]")));
  // Through ToBool: an empty condition stops at once, a non-empty one never stops the loop (the
  // read past the list's end does).
  for (int64_t n : {0, 2}) {
    absl::StatusOr<std::vector<Tensor>> out =
        RunOp("_RillLstmSequence",
              {I32(0), Tensor::FromVector<int32_t>(std::vector<int32_t>(n, 1), TensorShape({n})),
               p.x_list, p.es, p.out_list, p.h0, p.c0, p.w, p.u, p.b},
              {{"T", Type(DT_FLOAT)},
               {"num_counters", Int(1)},
               {"num_bounds", Int(1)},
               {"bound_counters", Ints({0})},
               {"read_counter", Int(0)},
               {"write_counter", Int(0)},
               {"to_bool", Bool(true)}});
    if (n == 0) {
      ASSERT_THAT(out.status(), IsOk());
      ExpectTensorEqual((*out)[0], I32(0));
      ExpectTensorEqual((*out)[2], p.h0);
    } else {
      EXPECT_EQ(out.status(), RunOp("TensorListGetItem", {p.x_list, I32(5), p.es},
                                    {{"element_dtype", Type(DT_FLOAT)}})
                                  .status());
    }
  }
}

// Runs the kernel on `p`'s five steps from a context whose step has the cancellation manager `cm`.
absl::Status RunWithCancellation(const Problem& p, CancellationManager* cm) {
  OpTester t("_RillLstmSequence");
  t.Attr("T", Type(DT_FLOAT))
      .Attr("num_counters", Int(1))
      .Attr("num_bounds", Int(1))
      .Attr("bound_counters", Ints({0}))
      .Attr("read_counter", Int(0))
      .Attr("write_counter", Int(0));
  for (const Tensor& in : {I32(0), I32(static_cast<int32_t>(p.steps)), p.x_list, p.es, p.out_list,
                           p.h0, p.c0, p.w, p.u, p.b}) {
    t.Input(in);
  }
  RILL_RETURN_IF_ERROR(t.Init());
  std::vector<TensorValue> inputs = t.inputs();
  OpKernelContext::Params params;
  params.device = t.device();
  params.step_id = 1;
  params.kernel = &t.kernel();
  params.inputs = absl::MakeConstSpan(inputs);
  params.cancellation = cm;
  OpKernelContext ctx(&params, 4);
  return t.kernel().Compute(ctx);
}

TEST(LstmSequenceOpTest, ACancelledStepStopsBeforeTheNextStep) {
  const Problem p = Make();
  CancellationManager running;
  EXPECT_THAT(RunWithCancellation(p, &running), IsOk());
  CancellationManager timed_out;
  timed_out.StartCancel(absl::DeadlineExceededError("Timed out waiting for notification"));
  EXPECT_THAT(RunWithCancellation(p, &timed_out),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       ::testing::HasSubstr("Timed out waiting for notification")));
}

}  // namespace
}  // namespace rill
