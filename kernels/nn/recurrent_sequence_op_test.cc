#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cancellation.h"
#include "core/resource_mgr.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

AttrValue Types(const std::vector<DataType>& ts) {
  AttrValue v;
  v.mutable_list();
  for (DataType t : ts) v.mutable_list()->add_type(t);
  return v;
}

AttrValue Strings(const std::vector<std::string>& ss) {
  AttrValue v;
  v.mutable_list();
  for (const std::string& s : ss) v.mutable_list()->add_s(s);
  return v;
}

AttrValue TypeAttr(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}

std::string Node(const std::string& op, const std::vector<std::string>& inputs,
                 const std::vector<std::pair<std::string, AttrValue>>& attrs) {
  NodeDef def;
  def.set_name(absl::StrCat("loop/", op));
  def.set_op(op);
  for (const std::string& in : inputs) def.add_input(in);
  for (const auto& [k, v] : attrs) (*def.mutable_attr())[k] = v;
  return def.SerializeAsString();
}

// A recurrent loop: variables i (int32) and h [1, 2] (float); constants n (int32) and U [2, 2].
// Condition: Less(i, n). Body: h' = Tanh(MatMul(h, U)), i' = AddV2(i, Const 1).
struct Loop {
  std::vector<std::string> step;
  std::vector<std::string> next = {"s:4:0", "s:2:0"};
  std::string cond = "s:0:0";
  int num_cond = 1;
};

Loop Make() {
  AttrValue one;
  TensorToProto(Tensor::Scalar<int32_t>(1), one.mutable_tensor());
  Loop l;
  l.step = {
      Node("Less", {"v:0", "c:0"}, {{"T", TypeAttr(DT_INT32)}}),
      Node("MatMul", {"v:1", "c:1"}, {{"T", TypeAttr(DT_FLOAT)}}),
      Node("Tanh", {"s:1:0"}, {{"T", TypeAttr(DT_FLOAT)}}),
      Node("Const", {}, {{"dtype", TypeAttr(DT_INT32)}, {"value", one}}),
      Node("AddV2", {"v:0", "s:3:0"}, {{"T", TypeAttr(DT_INT32)}}),
  };
  return l;
}

constexpr char kNodeName[] = "gru/sequence";

absl::StatusOr<std::vector<Tensor>> RunLoop(const Loop& l, int32_t i0, const Tensor& h0,
                                            const Tensor& n, const Tensor& u,
                                            CancellationManager* cm = nullptr) {
  OpTester t("_RillRecurrentSequence", kNodeName);
  t.Attr("Tvars", Types({DT_INT32, DT_FLOAT}))
      .Attr("Tconsts", Types({n.dtype(), DT_FLOAT}))
      .Attr("step", Strings(l.step))
      .Attr("cond", l.cond)
      .Attr("next", Strings(l.next));
  AttrValue nc;
  nc.set_i(l.num_cond);
  t.Attr("num_cond", nc);
  for (const Tensor& in : {Tensor::Scalar<int32_t>(i0), h0, n, u}) t.Input(in);
  if (cm == nullptr) return t.Run();
  RILL_RETURN_IF_ERROR(t.Init());
  std::vector<TensorValue> inputs = t.inputs();
  OpKernelContext::Params params;
  params.device = t.device();
  params.step_id = 1;
  params.kernel = &t.kernel();
  params.inputs = absl::MakeConstSpan(inputs);
  params.cancellation = cm;
  OpKernelContext ctx(&params, 2);
  RILL_RETURN_IF_ERROR(t.kernel().Compute(ctx));
  return std::vector<Tensor>{ctx.outputs()[0].tensor, ctx.outputs()[1].tensor};
}

Tensor F(const std::vector<float>& v, const TensorShape& s) {
  return Tensor::FromVector<float>(v, s);
}

// The loop by hand: h' = tanh(h U) with the same float operations (two products and a sum per
// element, as a [1, 2] x [2, 2] MatMul rounds them).
std::vector<float> ByHand(std::vector<float> h, const std::vector<float>& u, int steps) {
  for (int s = 0; s < steps; ++s) {
    const float a = std::tanh(h[0] * u[0] + h[1] * u[2]);
    const float b = std::tanh(h[0] * u[1] + h[1] * u[3]);
    h = {a, b};
  }
  return h;
}

TEST(RecurrentSequenceOpTest, RunsTheStepUntilTheConditionFails) {
  const std::vector<float> u = {0.5f, -0.25f, 0.75f, 1.f};
  const Tensor ut = F(u, TensorShape({2, 2}));
  for (int32_t n : {0, 1, 3}) {
    SCOPED_TRACE(n);
    auto out =
        RunLoop(Make(), 0, F({0.5f, -1.f}, TensorShape({1, 2})), Tensor::Scalar<int32_t>(n), ut);
    ASSERT_THAT(out.status(), IsOk());
    ExpectTensorEqual((*out)[0], Tensor::Scalar<int32_t>(n));
    const std::vector<float> want = ByHand({0.5f, -1.f}, u, n);
    // Tanh's own kernel may round differently from std::tanh: compare to the kernels.
    Tensor h = F({0.5f, -1.f}, TensorShape({1, 2}));
    for (int s = 0; s < n; ++s) {
      OpTester mm("MatMul");
      mm.Attr("T", DT_FLOAT).Input(h).Input(ut);
      auto p = mm.Run();
      ASSERT_THAT(p.status(), IsOk());
      OpTester th("Tanh");
      th.Attr("T", DT_FLOAT).Input((*p)[0]);
      auto q = th.Run();
      ASSERT_THAT(q.status(), IsOk());
      h = (*q)[0];
    }
    ExpectTensorEqual((*out)[1], h);
    for (int k = 0; k < 2; ++k) EXPECT_NEAR((*out)[1].flat<float>()[k], want[k], 1e-6);
  }
}

TEST(RecurrentSequenceOpTest, NonFiniteValuesGoThroughAsTheKernelsGiveThem) {
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  auto out =
      RunLoop(Make(), 0, F({NAN, INFINITY}, TensorShape({1, 2})), Tensor::Scalar<int32_t>(2), ut);
  ASSERT_THAT(out.status(), IsOk());
  EXPECT_TRUE(std::isnan((*out)[1].flat<float>()[0]));
  EXPECT_TRUE(std::isnan((*out)[1].flat<float>()[1]));
  // inf * 0.75 + 1 * -inf... : an infinite h gives tanh's +-1 where the product is infinite.
  auto inf =
      RunLoop(Make(), 0, F({INFINITY, 0.f}, TensorShape({1, 2})), Tensor::Scalar<int32_t>(1), ut);
  ASSERT_THAT(inf.status(), IsOk());
  ExpectTensorEqual((*inf)[1], F({1.f, -1.f}, TensorShape({1, 2})));
}

TEST(RecurrentSequenceOpTest, AStepsErrorIsItsKernelsError) {
  // An h of 3 columns for U's 2 rows: MatMul's error, in the first step only.
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  const Tensor h3 = F({1.f, 2.f, 3.f}, TensorShape({1, 3}));
  OpTester mm("MatMul");
  mm.Attr("T", DT_FLOAT).Input(h3).Input(ut);
  const absl::Status want = mm.Run().status();
  ASSERT_FALSE(want.ok());
  // Named after the loop's node, as the executor names it.
  EXPECT_EQ(
      RunLoop(Make(), 0, h3, Tensor::Scalar<int32_t>(2), ut).status(),
      absl::Status(want.code(), absl::StrCat(want.message(), "\n\t [[{{node loop/MatMul}}]]")));
  // No step: no error, the inputs come back.
  auto none = RunLoop(Make(), 5, h3, Tensor::Scalar<int32_t>(2), ut);
  ASSERT_THAT(none.status(), IsOk());
  ExpectTensorEqual((*none)[1], h3);
}

TEST(RecurrentSequenceOpTest, AStepNodeOfConstantsRunsInTheFirstStepWithItsError) {
  // Squeeze of U [2, 2] at dim 0: an error whenever the body runs, none without a step.
  Loop l = Make();
  AttrValue dims;
  dims.mutable_list()->add_i(0);
  l.step.push_back(Node("Squeeze", {"c:1"}, {{"T", TypeAttr(DT_FLOAT)}, {"squeeze_dims", dims}}));
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  const Tensor h = F({1.f, 2.f}, TensorShape({1, 2}));
  OpTester sq("Squeeze");
  sq.Attr("T", DT_FLOAT).Attr("squeeze_dims", dims).Input(ut);
  const absl::Status want = sq.Run().status();
  ASSERT_FALSE(want.ok());
  EXPECT_EQ(
      RunLoop(l, 0, h, Tensor::Scalar<int32_t>(3), ut).status(),
      absl::Status(want.code(), absl::StrCat(want.message(), "\n\t [[{{node loop/Squeeze}}]]")));
  EXPECT_THAT(RunLoop(l, 0, h, Tensor::Scalar<int32_t>(0), ut).status(), IsOk());
}

// A stateful step node (a TensorArray read) reading only constants still runs every step, as the
// loop's own node would: the second read of an element cleared after its first read is the
// TensorArray's error, naming the node.
TEST(RecurrentSequenceOpTest, AStatefulStepNodeOfConstantsRunsEveryStep) {
  AttrValue one;
  TensorToProto(Tensor::Scalar<int32_t>(1), one.mutable_tensor());
  const std::vector<std::string> step = {
      Node("Less", {"v:0", "c:0"}, {{"T", TypeAttr(DT_INT32)}}),
      Node("TensorArrayReadV3", {"c:1", "c:2", "c:3"}, {{"dtype", TypeAttr(DT_FLOAT)}}),
      Node("Const", {}, {{"dtype", TypeAttr(DT_INT32)}, {"value", one}}),
      Node("AddV2", {"v:0", "s:2:0"}, {{"T", TypeAttr(DT_INT32)}}),
  };
  // n steps over a fresh array of one written element (cleared after a read, the default).
  auto run = [&](int32_t n) -> absl::StatusOr<std::vector<Tensor>> {
    ResourceMgr step_resources;
    OpTester make("TensorArrayV3", "ta");
    make.Attr("dtype", DT_FLOAT).Input(Tensor::Scalar<int32_t>(1));
    make.SetStepResources(&step_resources);
    RILL_ASSIGN_OR_RETURN(std::vector<Tensor> ta, make.Run());
    OpTester write("TensorArrayWriteV3", "write", make.device());
    write.Attr("T", DT_FLOAT)
        .Input(ta[0])
        .Input(Tensor::Scalar<int32_t>(0))
        .Input(F({2.5f, -1.f}, TensorShape({2})))
        .Input(ta[1]);
    write.SetStepResources(&step_resources);
    RILL_ASSIGN_OR_RETURN(std::vector<Tensor> flow, write.Run());
    OpTester t("_RillRecurrentSequence", kNodeName, make.device());
    t.Attr("Tvars", Types({DT_INT32}))
        .Attr("Tconsts", Types({DT_INT32, DT_RESOURCE, DT_INT32, DT_FLOAT}))
        .Attr("step", Strings(step))
        .Attr("cond", "s:0:0")
        .Attr("next", Strings({"s:3:0"}));
    AttrValue nc;
    nc.set_i(1);
    t.Attr("num_cond", nc);
    for (const Tensor& in : {Tensor::Scalar<int32_t>(0), Tensor::Scalar<int32_t>(n), ta[0],
                             Tensor::Scalar<int32_t>(0), flow[0]}) {
      t.Input(in);
    }
    t.SetStepResources(&step_resources);
    return t.Run();
  };
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, run(1));
  ExpectTensorEqual(out[0], Tensor::Scalar<int32_t>(1));
  EXPECT_THAT(run(2).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("Could not read index 0 twice because it was cleared after "
                                       "a previous read"),
                             ::testing::EndsWith("[[{{node loop/TensorArrayReadV3}}]]"))));
}

TEST(RecurrentSequenceOpTest, AConditionThatIsNotAScalarGetsTheSwitchsError) {
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  EXPECT_THAT(RunLoop(Make(), 0, F({1.f, 2.f}, TensorShape({1, 2})),
                      Tensor::FromVector<int32_t>({1, 2}, TensorShape({2})), ut)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The second input must be a scalar, but it has shape [2]"));
}

TEST(RecurrentSequenceOpTest, ACancelledStepStopsBeforeTheNextTest) {
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  const Tensor h = F({1.f, 2.f}, TensorShape({1, 2}));
  CancellationManager running;
  auto ok = RunLoop(Make(), 0, h, Tensor::Scalar<int32_t>(3), ut, &running);
  ASSERT_THAT(ok.status(), IsOk());
  ExpectTensorEqual((*ok)[0], Tensor::Scalar<int32_t>(3));
  CancellationManager timed_out;
  timed_out.StartCancel(absl::DeadlineExceededError("Timed out waiting for notification"));
  EXPECT_THAT(RunLoop(Make(), 0, h, Tensor::Scalar<int32_t>(3), ut, &timed_out).status(),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("Timed out waiting for notification")));
}

TEST(RecurrentSequenceOpTest, MalformedStepsAreRefused) {
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  const Tensor h = F({1.f, 2.f}, TensorShape({1, 2}));
  struct Case {
    const char* what;
    Loop loop;
  };
  std::vector<Case> cases(5, {"", Make()});
  cases[0].what = "a read of a later step node";
  cases[0].loop.step[2] = Node("Tanh", {"s:3:0"}, {{"T", TypeAttr(DT_FLOAT)}});
  cases[1].what = "a variable out of range";
  cases[1].loop.step[1] = Node("MatMul", {"v:2", "c:1"}, {{"T", TypeAttr(DT_FLOAT)}});
  cases[2].what = "an output the node does not have";
  cases[2].loop.next[1] = "s:2:1";
  cases[3].what = "a condition read from the body";
  cases[3].loop.cond = "s:2:0";
  cases[4].what = "not one next value per variable";
  cases[4].loop.next.pop_back();
  for (const Case& c : cases) {
    EXPECT_THAT(RunLoop(c.loop, 0, h, Tensor::Scalar<int32_t>(1), ut).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_))
        << c.what;
  }
}

// Attrs a user graph could write by hand (the pass never makes them): refused at construction with
// the node and what is wrong, before any step kernel runs.
TEST(RecurrentSequenceOpTest, AttrsThePassWouldNotMakeAreRefused) {
  const Tensor ut = F({0.5f, -0.25f, 0.75f, 1.f}, TensorShape({2, 2}));
  const Tensor h = F({1.f, 2.f}, TensorShape({1, 2}));
  AttrValue index;
  index.set_i(0);
  struct Case {
    Loop loop;
    std::string message;
  };
  std::vector<Case> cases(6, {Make(), ""});
  // A float MatMul reading the int32 variable i.
  cases[0].loop.step[1] = Node("MatMul", {"v:0", "c:1"}, {{"T", TypeAttr(DT_FLOAT)}});
  cases[0].message = "step node 'loop/MatMul' input 0 ('v:0') is int32; its kernel expects float";
  // A step output of another dtype: the float Tanh read by the int32 AddV2.
  cases[1].loop.step[4] = Node("AddV2", {"v:0", "s:2:0"}, {{"T", TypeAttr(DT_INT32)}});
  cases[1].message = "step node 'loop/AddV2' input 1 ('s:2:0') is float; its kernel expects int32";
  // The int32 variable i's next value the float Tanh: the int32 output would hold floats.
  cases[2].loop.next[0] = "s:2:0";
  cases[2].message = "next value 0 ('s:2:0') is float; variable 0 is int32";
  // A step node that is not a step op: a _Retval would write into the session's fetches.
  cases[3].loop.step.push_back(
      Node("_Retval", {"v:0"}, {{"T", TypeAttr(DT_INT32)}, {"index", index}}));
  cases[3].message = "step node 'loop/_Retval' is a _Retval, not an op a recurrent step may hold";
  // A condition that is not a bool: the int32 variable.
  cases[4].loop.cond = "v:0";
  cases[4].message = "the condition 'v:0' is int32; it must be a bool";
  // A step node with an input its kernel does not take.
  cases[5].loop.step[2] = Node("Tanh", {"s:1:0", "s:1:0"}, {{"T", TypeAttr(DT_FLOAT)}});
  cases[5].message =
      "step node 'loop/Tanh': NodeDef expected inputs 'float' do not match 2 inputs specified";
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    EXPECT_THAT(RunLoop(c.loop, 0, h, Tensor::Scalar<int32_t>(1), ut).status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr(absl::StrCat("_RillRecurrentSequence node ", kNodeName, ": ",
                                                c.message))));
  }
}

}  // namespace
}  // namespace rill
