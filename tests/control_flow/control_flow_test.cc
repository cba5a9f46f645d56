// TF1 control flow end to end through a Session: graphs built with the builder's Cond and
// WhileLoop (the node patterns tf.cond and tf.while_loop write), run by the executor's deadness
// and frame machinery (session/executor.h).
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/allocator.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/builder/ops.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Session> NewSession(const GraphDef& graph, int cpus = 1, int inter_op = 0) {
  SessionOptions options;
  options.config.mutable_device_count()->insert({"CPU", cpus});
  if (inter_op > 0) options.config.set_inter_op_parallelism_threads(inter_op);
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
  EXPECT_THAT(s.status(), IsOk());
  EXPECT_THAT((*s)->Create(graph), IsOk());
  return *std::move(s);
}

Output Scalar(const Scope& s, int32_t v) { return ops::Const(s, v); }

// r = pred ? x * 2 : -x, with the then branch also asserting x > 0 (so it must not run when
// pred is false and x <= 0).
struct CondGraph {
  GraphDef graph;
  std::string out, index, then_value;
};
CondGraph BuildCond() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_INT32);
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  CondGraph g;
  Scope cond = root.NewSubScope("cond");
  std::vector<Output> outs = ops::Cond(
      cond, pred, {x},
      [&](const Scope& s, const std::vector<Output>& in) {
        Operation check =
            ops::Assert(s.WithOpName("positive"), ops::Greater(s, in[0], Scalar(s, 0)), {in[0]});
        Output twice =
            ops::Mul(s.WithOpName("twice").WithControlDependencies({check}), in[0], Scalar(s, 2));
        g.then_value = twice.TensorName();
        return std::vector<Output>{twice};
      },
      [&](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Neg(s, in[0])};
      });
  g.out = outs[0].TensorName();
  g.index = absl::StrCat(outs[0].node(), ":1");
  g.graph = *root.ToGraphDef();
  return g;
}

TEST(CondTest, MergeForwardsTheTakenBranchAndItsValueIndex) {
  CondGraph g = BuildCond();
  std::unique_ptr<Session> session = NewSession(g.graph);
  std::vector<Tensor> out;
  ASSERT_THAT(
      session->Run({{"x:0", Tensor::Scalar<int32_t>(5)}, {"pred:0", Tensor::Scalar<bool>(true)}},
                   {g.out, g.index}, {}, &out),
      IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 10);
  EXPECT_EQ(out[1].flat<int32_t>()[0], 1);
  ASSERT_THAT(
      session->Run({{"x:0", Tensor::Scalar<int32_t>(5)}, {"pred:0", Tensor::Scalar<bool>(false)}},
                   {g.out, g.index}, {}, &out),
      IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], -5);
  EXPECT_EQ(out[1].flat<int32_t>()[0], 0);
}

TEST(CondTest, DeadBranchDoesNotRun) {
  CondGraph g = BuildCond();
  std::unique_ptr<Session> session = NewSession(g.graph);
  std::vector<Tensor> out;
  // x = -3 would fail the then branch's Assert; the branch is dead, so it never runs.
  ASSERT_THAT(
      session->Run({{"x:0", Tensor::Scalar<int32_t>(-3)}, {"pred:0", Tensor::Scalar<bool>(false)}},
                   {g.out}, {}, &out),
      IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 3);
  // The same x with the branch taken: the Assert runs and fails the step.
  EXPECT_THAT(
      session->Run({{"x:0", Tensor::Scalar<int32_t>(-3)}, {"pred:0", Tensor::Scalar<bool>(true)}},
                   {g.out}, {}, &out),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("assertion failed")));
}

TEST(CondTest, FetchingADeadTensorIsTensorFlowsError) {
  CondGraph g = BuildCond();
  std::unique_ptr<Session> session = NewSession(g.graph);
  std::vector<Tensor> out;
  EXPECT_THAT(
      session->Run({{"x:0", Tensor::Scalar<int32_t>(4)}, {"pred:0", Tensor::Scalar<bool>(false)}},
                   {g.then_value}, {}, &out),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Retval[0] does not have value (fetch 'cond/then/twice:0' is "
                         "dead")));
  // The session stays usable.
  ASSERT_THAT(
      session->Run({{"x:0", Tensor::Scalar<int32_t>(4)}, {"pred:0", Tensor::Scalar<bool>(true)}},
                   {g.then_value}, {}, &out),
      IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 8);
}

TEST(CondTest, DeadnessCrossesDevicesThroughSendAndRecv) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_INT32);
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  Scope cond = root.NewSubScope("cond");
  std::vector<Output> outs = ops::Cond(
      cond, pred, {x},
      [&](const Scope& s, const std::vector<Output>& in) {
        // The taken-or-dead branch computes on CPU:1; the Merge is on CPU:0.
        return std::vector<Output>{ops::Mul(s.WithDevice("/cpu:1"), in[0], Scalar(s, 3))};
      },
      [&](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Identity(s, in[0])};
      });
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef(), /*cpus=*/2);
  std::vector<Tensor> out;
  for (bool p : {true, false, true}) {
    ASSERT_THAT(
        session->Run({{"x:0", Tensor::Scalar<int32_t>(7)}, {"pred:0", Tensor::Scalar<bool>(p)}},
                     {outs[0].TensorName()}, {}, &out),
        IsOk());
    EXPECT_EQ(out[0].flat<int32_t>()[0], p ? 21 : 7);
  }
}

TEST(MergeTest, WaitsForItsControlInputs) {
  // Merge(a, b) with a control input from c: ready only after c, even with a live input.
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"), 1);
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  ops::SwitchOutputs sw = ops::Switch(root, a, pred);
  Output c = ops::Identity(root.WithOpName("c"), Scalar(root.WithOpName("c_in"), 2));
  ops::MergeOutputs m =
      ops::Merge(root.WithControlDependencies({c}), {sw.output_false, sw.output_true});
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef());
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({{"pred:0", Tensor::Scalar<bool>(true)}},
                           {m.output.TensorName(), m.value_index.TensorName()}, {}, &out),
              IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 1);
  EXPECT_EQ(out[1].flat<int32_t>()[0], 1);
}

TEST(MergeTest, AllInputsDeadMakesTheMergeDead) {
  // Both Merge inputs come from the same untaken Switch output: the Merge is dead, and so is
  // its consumer; a fetch of it fails, a fetch of the live side succeeds.
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"), 1);
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  ops::SwitchOutputs sw = ops::Switch(root, a, pred);
  ops::MergeOutputs m = ops::Merge(root, {sw.output_true, sw.output_true});
  Output after = ops::Identity(root.WithOpName("after"), m.output);
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef());
  std::vector<Tensor> out;
  EXPECT_THAT(session->Run({{"pred:0", Tensor::Scalar<bool>(false)}}, {"after:0"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("does not have value")));
  ASSERT_THAT(session->Run({{"pred:0", Tensor::Scalar<bool>(true)}}, {"after:0"}, {}, &out),
              IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 1);
}

// while i < n: (i, acc) = (i + 1, acc + i)
struct SumLoop {
  GraphDef graph;
  std::string i, acc;
};
SumLoop BuildSumLoop(int64_t parallel_iterations = 10) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {Scalar(root, 0), Scalar(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s, v[0], Scalar(s, 1)), ops::Add(s, v[1], v[0])};
      },
      ops::WhileLoopAttrs().Invariants({n}).ParallelIterations(parallel_iterations));
  EXPECT_THAT(root.status(), IsOk());
  return {*root.ToGraphDef(), out[0].TensorName(), out[1].TensorName()};
}

TEST(WhileLoopTest, RunsToTheConditionAndReturnsTheExits) {
  for (int64_t parallel : {1, 2, 10}) {
    SumLoop loop = BuildSumLoop(parallel);
    std::unique_ptr<Session> session = NewSession(loop.graph);
    for (int n : {0, 1, 10, 1000}) {
      std::vector<Tensor> out;
      ASSERT_THAT(session->Run({{"n:0", Tensor::Scalar<int32_t>(n)}}, {loop.i, loop.acc}, {}, &out),
                  IsOk());
      EXPECT_EQ(out[0].flat<int32_t>()[0], n) << "parallel_iterations " << parallel;
      EXPECT_EQ(out[1].flat<int32_t>()[0], n * (n - 1) / 2) << "parallel_iterations " << parallel;
    }
  }
}

TEST(WhileLoopTest, ConcurrentStepsOnAThreadPoolAgree) {
  SumLoop loop = BuildSumLoop();
  std::unique_ptr<Session> session = NewSession(loop.graph, /*cpus=*/1, /*inter_op=*/4);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < 20; ++r) {
        const int n = 50 + t * 10 + r;
        std::vector<Tensor> out;
        absl::Status s = session->Run({{"n:0", Tensor::Scalar<int32_t>(n)}}, {loop.acc}, {}, &out);
        if (!s.ok() || out[0].flat<int32_t>()[0] != n * (n - 1) / 2) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(WhileLoopTest, NestedLoopsRunTheInnerLoopOncePerOuterIteration) {
  // for i in range(4): for j in range(3): count += i
  Scope root = Scope::NewRootScope();
  std::vector<Output> outer = ops::WhileLoop(
      root.NewSubScope("outer"), {Scalar(root, 0), Scalar(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], Scalar(s, 4)); },
      [](const Scope& s, const std::vector<Output>& v) {
        std::vector<Output> inner = ops::WhileLoop(
            s.NewSubScope("inner"), {Scalar(s, 0), v[1]},
            [](const Scope& t, const std::vector<Output>& w) {
              return ops::Less(t, w[0], Scalar(t, 3));
            },
            [](const Scope& t, const std::vector<Output>& w) {
              return std::vector<Output>{ops::Add(t, w[0], Scalar(t, 1)), ops::Add(t, w[1], w[2])};
            },
            ops::WhileLoopAttrs().Invariants({v[0]}));
        return std::vector<Output>{ops::Add(s, v[0], Scalar(s, 1)), inner[1]};
      });
  ASSERT_THAT(root.status(), IsOk());
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef(), 1, 2);
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({}, {outer[0].TensorName(), outer[1].TensorName()}, {}, &out), IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 4);
  EXPECT_EQ(out[1].flat<int32_t>()[0], 3 * (0 + 1 + 2 + 3));
}

TEST(WhileLoopTest, LoopInAnUntakenBranchIsDeadAndTheStepCompletes) {
  Scope root = Scope::NewRootScope();
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  Output x = Scalar(root.WithOpName("x"), 5);
  std::vector<Output> r = ops::Cond(
      root.NewSubScope("cond"), pred, {x},
      [](const Scope& s, const std::vector<Output>& in) {
        return ops::WhileLoop(
            s.NewSubScope("while"), {in[0]},
            [](const Scope& t, const std::vector<Output>& v) {
              return ops::Less(t, v[0], Scalar(t, 100));
            },
            [](const Scope& t, const std::vector<Output>& v) {
              return std::vector<Output>{ops::Mul(t, v[0], Scalar(t, 2))};
            });
      },
      [](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Neg(s, in[0])};
      });
  ASSERT_THAT(root.status(), IsOk());
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef());
  std::vector<Tensor> out;
  ASSERT_THAT(
      session->Run({{"pred:0", Tensor::Scalar<bool>(false)}}, {r[0].TensorName()}, {}, &out),
      IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], -5);
  ASSERT_THAT(session->Run({{"pred:0", Tensor::Scalar<bool>(true)}}, {r[0].TensorName()}, {}, &out),
              IsOk());
  EXPECT_EQ(out[0].flat<int32_t>()[0], 160);
}

TEST(WhileLoopTest, AnErrorInsideTheBodyFailsTheStepAndTheSessionStaysUsable) {
  // x = x * 2 until x >= limit; CheckNumerics fails once x overflows float to inf.
  Scope root = Scope::NewRootScope();
  Output limit = ops::Placeholder(root.WithOpName("limit"), DT_FLOAT);
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 1.f)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[1]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output y = ops::Mul(s, v[0], ops::Const(s, 1e10f));
        return std::vector<Output>{ops::CheckNumerics(s.WithOpName("check"), y, "overflow")};
      },
      ops::WhileLoopAttrs().Invariants({limit}));
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef());
  std::vector<Tensor> result;
  EXPECT_THAT(
      session->Run({{"limit:0", Tensor::Scalar<float>(1e38f)}}, {out[0].TensorName()}, {}, &result),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflow : Tensor had Inf values")));
  ASSERT_THAT(
      session->Run({{"limit:0", Tensor::Scalar<float>(1e25f)}}, {out[0].TensorName()}, {}, &result),
      IsOk());
  EXPECT_EQ(result[0].flat<float>()[0], 1e30f);
}

TEST(WhileLoopTest, MemoryPeakDoesNotGrowWithTheTripCount) {
  // Each iteration makes a fresh 64 KiB tensor; iterations are freed as they finish, so 10,000
  // iterations peak at the same bytes as 100.
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output x0 = ops::Const(root, 0.f, TensorShape({16384}));
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {Scalar(root, 0), x0},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s, v[0], Scalar(s, 1)),
                                   ops::Add(s, v[1], ops::Const(s, 1.f))};
      },
      ops::WhileLoopAttrs().Invariants({n}).ParallelIterations(1));
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef(), 1, 1);
  auto peak_of = [&](int trips) {
    std::vector<Tensor> result;
    EXPECT_THAT(
        session->Run({{"n:0", Tensor::Scalar<int32_t>(trips)}}, {out[1].TensorName()}, {}, &result),
        IsOk());  // warm: the executors are built and cached
    CpuAllocator::Default()->ResetPeak();
    const int64_t base = CpuAllocator::Default()->GetStats().bytes_in_use;
    EXPECT_THAT(
        session->Run({{"n:0", Tensor::Scalar<int32_t>(trips)}}, {out[1].TensorName()}, {}, &result),
        IsOk());
    EXPECT_EQ(result[0].flat<float>()[16383], static_cast<float>(trips));
    return CpuAllocator::Default()->GetStats().peak_bytes_in_use - base;
  };
  const int64_t peak_100 = peak_of(100);
  const int64_t peak_10000 = peak_of(10000);
  EXPECT_GT(peak_100, 16384 * 4);
  EXPECT_EQ(peak_10000, peak_100);
}

TEST(WhileLoopTest, TensorListsFlowThroughTheLoop) {
  // The tf.TensorArray pattern of TF2 loops: list = SetItem(list, i, x * i) for i < n; stack.
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output list =
      ops::TensorListReserve(root, ops::Const(root, std::vector<int32_t>{2}, {1}), n, DT_FLOAT);
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {Scalar(root, 0), list},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output scaled = ops::Mul(s, v[3], ops::Cast(s, v[0], DT_FLOAT));
        return std::vector<Output>{ops::Add(s, v[0], Scalar(s, 1)),
                                   ops::TensorListSetItem(s, v[1], v[0], scaled)};
      },
      ops::WhileLoopAttrs().Invariants({n, x}));
  Output stacked =
      ops::TensorListStack(root, out[1], ops::Const(root, std::vector<int32_t>{2}, {1}), DT_FLOAT);
  ASSERT_THAT(root.status(), IsOk());
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef(), 1, 2);
  std::vector<Tensor> result;
  ASSERT_THAT(session->Run({{"n:0", Tensor::Scalar<int32_t>(4)},
                            {"x:0", Tensor::FromVector<float>({1, -2}, TensorShape({2}))}},
                           {stacked.TensorName()}, {}, &result),
              IsOk());
  EXPECT_EQ(result[0].shape().DebugString(), "[4,2]");
  const std::vector<float> want = {0, 0, 1, -2, 2, -4, 3, -6};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(result[0].flat<float>()[i], want[i]) << i;
}

// A functional While (TF2's form, lowered by graph/function_lowering.h) over (x, step, z): while
// x < 10: x += step; step passed through unchanged (it enters as a loop constant); z = step * 2,
// a next value read from the constant alone, which must stop with the loop.
GraphDef StepLoop() {
  auto scalar_const = [](const std::string& name, float v) {
    return absl::StrCat("node_def { name: '", name,
                        "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
                        "'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: ",
                        v, " } } } }");
  };
  const std::string args =
      "input_arg { name: 'x' type: DT_FLOAT } input_arg { name: 'step' type: DT_FLOAT } "
      "input_arg { name: 'z' type: DT_FLOAT } ";
  const std::string f32 = "attr { key: 'T' value { type: DT_FLOAT } } ";
  const std::string placeholder =
      "op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }";
  const std::string text = absl::StrCat(
      "library { function { signature { name: 'below_ten' ", args,
      "output_arg { name: 'c' type: DT_BOOL } } ", scalar_const("ten", 10),
      "node_def { name: 'less' op: 'Less' input: 'x' input: 'ten:output:0' ", f32,
      "} ret { key: 'c' value: 'less:z:0' } } function { signature { name: 'body' ", args,
      "output_arg { name: 'x_next' type: DT_FLOAT } output_arg { name: 'step_next' type: "
      "DT_FLOAT } output_arg { name: 'z_next' type: DT_FLOAT } } ",
      scalar_const("two", 2), "node_def { name: 'add' op: 'AddV2' input: 'x' input: 'step' ", f32,
      "} node_def { name: 'keep' op: 'Identity' input: 'step' input: '^add' ", f32,
      "} node_def { name: 'twice' op: 'Mul' input: 'step' input: 'two:output:0' ", f32,
      "} ret { key: 'x_next' value: 'add:z:0' } ret { key: 'step_next' value: 'keep:output:0' } "
      "ret { key: 'z_next' value: 'twice:z:0' } } } node { name: 'x' ",
      placeholder, " } node { name: 'step' ", placeholder, " } node { name: 'z' ", placeholder,
      " } node { name: 'w' op: 'While' input: 'x' input: 'step' input: 'z' attr { key: 'T' value "
      "{ list { type: DT_FLOAT type: DT_FLOAT type: DT_FLOAT } } } attr { key: 'cond' value { "
      "func { name: 'below_ten' } } } attr { key: 'body' value { func { name: 'body' } } } }");
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

// A functional Case (tf.switch_case kept in the graph) pinned to CPU:1 over three branches of x:
// x * 2, x + 1, -x; x and the index are placeholders on CPU:0.
GraphDef ThreeWayCase() {
  const std::string f32 = "attr { key: 'T' value { type: DT_FLOAT } } ";
  auto fn = [&](const std::string& name, const std::string& body, const std::string& ret) {
    return absl::StrCat("function { signature { name: '", name,
                        "' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: "
                        "DT_FLOAT } } ",
                        body, " ret { key: 'y' value: '", ret, "' } } ");
  };
  auto scalar_const = [](const std::string& name, float v) {
    return absl::StrCat("node_def { name: '", name,
                        "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
                        "'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: ",
                        v, " } } } }");
  };
  const std::string text = absl::StrCat(
      "library { ",
      fn("twice",
         scalar_const("two", 2) +
             " node_def { name: 'mul' op: 'Mul' input: 'x' input: " + "'two:output:0' " + f32 + "}",
         "mul:z:0"),
      fn("inc",
         scalar_const("one", 1) + " node_def { name: 'add' op: 'AddV2' input: 'x' input: " +
             "'one:output:0' " + f32 + "}",
         "add:z:0"),
      fn("neg", "node_def { name: 'neg' op: 'Neg' input: 'x' " + f32 + "}", "neg:y:0"),
      "} node { name: 'x' op: 'Placeholder' device: '/device:CPU:0' attr { key: 'dtype' value { "
      "type: DT_FLOAT } } } node { name: 'i' op: 'Placeholder' device: '/device:CPU:0' attr { "
      "key: 'dtype' value { type: DT_INT32 } } } node { name: 'case' op: 'Case' input: 'i' "
      "input: 'x' device: '/device:CPU:1' attr { key: 'Tin' value { list { type: DT_FLOAT } } } "
      "attr { key: 'Tout' value { list { type: DT_FLOAT } } } attr { key: 'branches' value { "
      "list { func { name: 'twice' } func { name: 'inc' } func { name: 'neg' } } } } }");
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

// Each index runs its branch; an index out of range runs the last branch (TensorFlow's Case and
// _SwitchN have no error for it); a non-scalar index is _SwitchN's error. The lowered nodes keep
// the Case's device.
TEST(CaseTest, TheIndexPicksABranchAndOutOfRangeTakesTheLast) {
  std::unique_ptr<Session> session = NewSession(ThreeWayCase(), 2);
  const std::vector<std::pair<int32_t, float>> cases = {{0, 6},  {1, 4},   {2, -3},
                                                        {3, -3}, {-1, -3}, {1 << 30, -3}};
  for (const auto& [index, want] : cases) {
    std::vector<Tensor> out;
    ASSERT_THAT(session->Run({{"x:0", Tensor::Scalar<float>(3)}, {"i:0", Tensor::Scalar(index)}},
                             {"case:0"}, {}, &out),
                IsOk());
    EXPECT_EQ(out[0].flat<float>()[0], want) << "index " << index;
  }
  std::vector<Tensor> out;
  EXPECT_THAT(session->Run({{"x:0", Tensor::Scalar<float>(3)},
                            {"i:0", Tensor::FromVector<int32_t>({1}, TensorShape({1}))}},
                           {"case:0"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("The second input must be a scalar, but it has shape [1]")));
  const std::string log = session->PlacementLog();
  EXPECT_THAT(log, HasSubstr("case/branch_index: (_SwitchN): "
                             "/job:localhost/replica:0/task:0/device:CPU:1"));
  EXPECT_THAT(log, HasSubstr("case/branch_1/add: (AddV2): "
                             "/job:localhost/replica:0/task:0/device:CPU:1"));
  EXPECT_THAT(log, HasSubstr("case: (IdentityN): /job:localhost/replica:0/task:0/device:CPU:1"));
  EXPECT_THAT(log, HasSubstr("x: (Placeholder): /job:localhost/replica:0/task:0/device:CPU:0"));
}

TEST(WhileLoopTest, AFunctionalWhilesPassedThroughVariableIsALoopConstant) {
  for (int inter_op : {1, 2}) {
    std::unique_ptr<Session> session = NewSession(StepLoop(), 1, inter_op);
    // {x, step, z} -> {x, step, z} after the loop: four iterations, none, one.
    const std::vector<std::vector<float>> cases = {
        {0, 3, -1, 12, 3, 6}, {20, 3, -1, 20, 3, -1}, {9.5f, 0.25f, 7, 10, 0.25f, 0.5f}};
    for (const std::vector<float>& c : cases) {
      std::vector<Tensor> out;
      ASSERT_THAT(session->Run({{"x:0", Tensor::Scalar<float>(c[0])},
                                {"step:0", Tensor::Scalar<float>(c[1])},
                                {"z:0", Tensor::Scalar<float>(c[2])}},
                               {"w:0", "w:1", "w:2"}, {}, &out),
                  IsOk());
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(out[i].flat<float>()[0], c[3 + i]) << "x=" << c[0] << " output " << i;
      }
    }
  }
}

// A TF1 loop (as TensorFlow lowers a While: every value a loop variable) over (n, i, acc, m):
// while i < n: (n, i, acc, m) = (n, i + 1, acc + n, n * 2). The body returns n unchanged through
// an Identity with a control input, so the graph optimizer makes n a loop constant
// (graph/loop_invariants.h); m's next value is read from n alone and must stop with the loop.
TEST(WhileLoopTest, ATF1LoopsPassedThroughVariableIsALoopConstant) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output m0 = ops::Placeholder(root.WithOpName("m0"), DT_INT32);
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {n, Scalar(root, 0), Scalar(root, 0), m0},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[1], v[0]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output i = ops::Add(s, v[1], Scalar(s, 1));
        return std::vector<Output>{ops::Identity(s.WithControlDependencies({i}), v[0]), i,
                                   ops::Add(s, v[2], v[0]), ops::Mul(s, v[0], Scalar(s, 2))};
      });
  ASSERT_THAT(root.status(), IsOk());
  const GraphDef graph = *root.ToGraphDef();
  std::vector<std::string> fetches;
  for (const Output& o : out) fetches.push_back(o.TensorName());
  for (bool optimize : {true, false}) {
    for (int inter_op : {1, 2}) {
      SessionOptions options;
      options.config.set_inter_op_parallelism_threads(inter_op);
      if (!optimize) {
        options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
            OptimizerOptions::L0);
      }
      absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
      ASSERT_THAT(session.status(), IsOk());
      ASSERT_THAT((*session)->Create(graph), IsOk());
      for (int iterations : {0, 1, 4}) {
        std::vector<Tensor> got;
        ASSERT_THAT((*session)->Run({{"n:0", Tensor::Scalar<int32_t>(iterations)},
                                     {"m0:0", Tensor::Scalar<int32_t>(-5)}},
                                    fetches, {}, &got),
                    IsOk());
        const std::vector<int32_t> want = {iterations, iterations, iterations * iterations,
                                           iterations > 0 ? 2 * iterations : -5};
        for (int k = 0; k < 4; ++k) {
          EXPECT_EQ(got[k].flat<int32_t>()[0], want[k])
              << "optimize " << optimize << " inter_op " << inter_op << " iterations " << iterations
              << " output " << k;
        }
      }
    }
  }
}

// Consts of a loop's body and condition, some inside a conditional of the body, and a loop in a
// conditional's branch: the graph optimizer makes them loop constants
// (graph/loop_body_constants.h); every value and deadness must stay TensorFlow's, at 0, 1 and
// many iterations, with the branch taken or not.
//   r = pred ? (while i < n: (i, acc) = (i + 1, odd(i) ? acc + 3 : acc - 2); -> (i, acc)) : -n
TEST(WhileLoopTest, ALoopsConstantsKeepTheirValuesAndDeadness) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output pred = ops::Placeholder(root.WithOpName("pred"), DT_BOOL);
  std::vector<Output> r = ops::Cond(
      root.NewSubScope("branch"), pred, {n},
      [](const Scope& s, const std::vector<Output>& in) {
        std::vector<Output> loop = ops::WhileLoop(
            s.NewSubScope("while"), {Scalar(s, 0), Scalar(s, 1)},
            [](const Scope& t, const std::vector<Output>& v) {
              return ops::Less(t, v[0], ops::Minimum(t, v[2], Scalar(t, 50)));
            },
            [](const Scope& t, const std::vector<Output>& v) {
              Output odd = ops::Equal(t, ops::FloorMod(t, v[0], Scalar(t, 2)), Scalar(t, 1));
              std::vector<Output> acc = ops::Cond(
                  t.NewSubScope("step"), odd, {v[1]},
                  [](const Scope& u, const std::vector<Output>& w) {
                    return std::vector<Output>{ops::Add(u, w[0], Scalar(u, 3))};
                  },
                  [](const Scope& u, const std::vector<Output>& w) {
                    return std::vector<Output>{ops::Sub(u, w[0], Scalar(u, 2))};
                  });
              return std::vector<Output>{ops::Add(t, v[0], Scalar(t, 1)), acc[0]};
            },
            ops::WhileLoopAttrs().Invariants({in[0]}));
        return std::vector<Output>{ops::Add(s, ops::Mul(s, loop[0], Scalar(s, 1000)), loop[1])};
      },
      [](const Scope& s, const std::vector<Output>& in) {
        return std::vector<Output>{ops::Neg(s, in[0])};
      });
  ASSERT_THAT(root.status(), IsOk());
  const GraphDef graph = *root.ToGraphDef();
  for (bool optimize : {true, false}) {
    for (int inter_op : {1, 2}) {
      SessionOptions options;
      options.config.set_inter_op_parallelism_threads(inter_op);
      if (!optimize) {
        options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
            OptimizerOptions::L0);
      }
      absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
      ASSERT_THAT(session.status(), IsOk());
      ASSERT_THAT((*session)->Create(graph), IsOk());
      for (int iterations : {0, 1, 4, 60}) {
        for (bool taken : {true, false}) {
          std::vector<Tensor> got;
          ASSERT_THAT((*session)->Run({{"n:0", Tensor::Scalar<int32_t>(iterations)},
                                       {"pred:0", Tensor::Scalar<bool>(taken)}},
                                      {r[0].TensorName()}, {}, &got),
                      IsOk());
          int32_t acc = 1;
          const int steps = std::min(iterations, 50);
          for (int i = 0; i < steps; ++i) acc = i % 2 == 1 ? acc + 3 : acc - 2;
          EXPECT_EQ(got[0].flat<int32_t>()[0], taken ? steps * 1000 + acc : -iterations)
              << "optimize " << optimize << " inter_op " << inter_op << " iterations " << iterations
              << " taken " << taken;
        }
      }
    }
  }
}

TEST(ControlFlowImportTest, ExitOutsideALoopIsRejected) {
  Scope root = Scope::NewRootScope();
  ops::Exit(root.WithOpName("stray_exit"), Scalar(root, 1));
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef());
  std::vector<Tensor> out;
  EXPECT_THAT(session->Run({}, {"stray_exit:0"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Exit node stray_exit is not inside a while loop")));
}

TEST(ControlFlowImportTest, LoopSpanningDevicesIsUnimplementedAndSaysWhatToDo) {
  Scope root = Scope::NewRootScope();
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {Scalar(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], Scalar(s, 3)); },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s.WithDevice("/cpu:1"), v[0], Scalar(s, 1))};
      });
  std::unique_ptr<Session> session = NewSession(*root.ToGraphDef(), /*cpus=*/2);
  std::vector<Tensor> result;
  EXPECT_THAT(session->Run({}, {out[0].TensorName()}, {}, &result),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("loops whose body spans devices are not supported yet: place "
                                 "the whole loop on one device")));
}

}  // namespace
}  // namespace rill
