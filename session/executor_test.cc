// Executor tests with test-only ops and kernels registered in a private registry: scheduling
// order, inline vs pool execution, async kernels, error propagation naming the node, cancellation
// of a blocked kernel, concurrent steps.
#include "session/executor.h"

#include <atomic>
#include <thread>

#include "absl/time/clock.h"
#include "core/mutex.h"
#include "core/status_matchers.h"
#include "core/thread_pool.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"
#include "session/local_rendezvous.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

REGISTER_OP("ExecTestScalar").Output("out: int32").Attr("value: int");
REGISTER_OP("ExecTestAdd").Input("a: int32").Input("b: int32").Output("out: int32");
REGISTER_OP("ExecTestFail").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestBlock").Output("out: int32");
REGISTER_OP("ExecTestAsyncDouble").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestRetval").Input("a: int32").Attr("index: int");

class ScalarOp final : public OpKernel {
 public:
  explicit ScalarOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("value", &value_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, Tensor::Scalar<int32_t>(static_cast<int32_t>(value_)));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  int64_t value_ = 0;
};

class AddOp final : public OpKernel {
 public:
  explicit AddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, Tensor::Scalar<int32_t>(ctx.input(0).flat<int32_t>()[0] +
                                              ctx.input(1).flat<int32_t>()[0]));
    return absl::OkStatus();
  }
};

class FailOp final : public OpKernel {
 public:
  explicit FailOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext&) const override {
    return absl::InvalidArgumentError("bad value");
  }
};

// Blocks until the step is cancelled.
class BlockOp final : public OpKernel {
 public:
  explicit BlockOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    rill::Notification cancelled;
    CancellationToken t = ctx.cancellation()->RegisterCallback([&] { cancelled.Notify(); });
    if (t == kInvalidCancellationToken) return ctx.cancellation()->status();
    cancelled.WaitForNotification();
    return ctx.cancellation()->status();
  }
};

// Doubles its input on another thread, then calls done.
class AsyncDoubleOp final : public AsyncOpKernel {
 public:
  explicit AsyncDoubleOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {}
  void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const override {
    int32_t v = ctx.input(0).flat<int32_t>()[0];
    OpKernelContext* c = &ctx;
    std::thread([c, v, done] {
      c->set_output(0, Tensor::Scalar<int32_t>(2 * v));
      done(absl::OkStatus());
    }).detach();
  }
};

class RetvalOp final : public OpKernel {
 public:
  explicit RetvalOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("index", &index_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    return ctx.call_frame()->SetRetval(static_cast<int>(index_), ctx.input(0));
  }

 private:
  int64_t index_ = 0;
};

class VectorFrame final : public CallFrame {
 public:
  absl::StatusOr<Tensor> GetArg(int) const override { return absl::InvalidArgumentError("none"); }
  absl::Status SetRetval(int index, const Tensor& v) override {
    rill::MutexLock l(&mu);
    values[index] = v;
    return absl::OkStatus();
  }
  rill::Mutex mu;
  std::map<int, Tensor> values;
};

const KernelRegistry& Registry() {
  static KernelRegistry* r = [] {
    auto* reg = new KernelRegistry();
    using kernel_registry_internal::MakeFactory;
    auto add = [&](const char* op, KernelFactory f) {
      EXPECT_THAT(reg->Register(KernelDefBuilder(op).Device(kDeviceCpu).Build(), std::move(f)),
                  IsOk());
    };
    add("ExecTestScalar", MakeFactory<ScalarOp>());
    add("ExecTestAdd", MakeFactory<AddOp>());
    add("ExecTestFail", MakeFactory<FailOp>());
    add("ExecTestBlock", MakeFactory<BlockOp>());
    add("ExecTestAsyncDouble", MakeFactory<AsyncDoubleOp>());
    add("ExecTestRetval", MakeFactory<RetvalOp>());
    return reg;
  }();
  return *r;
}

// The partition a text GraphDef describes (imported: tests write GraphDefs, executors run Graphs).
Graph Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(g);
  EXPECT_TRUE(graph.ok()) << graph.status();
  return graph.ok() ? **graph : Graph();
}

class ExecutorTest : public ::testing::Test {
 protected:
  std::unique_ptr<Device> cpu_ = NewCpuDevice("/job:localhost/replica:0/task:0/device:CPU:0");
  ThreadPool pool_{"exec_test", 4};

  absl::Status RunGraph(const std::string& text, VectorFrame* frame,
                        CancellationManager* cm = nullptr) {
    absl::StatusOr<std::unique_ptr<Executor>> ex =
        Executor::Create(Parse(text), cpu_.get(), Registry());
    if (!ex.ok()) return ex.status();
    LocalRendezvous rendezvous;
    CancellationManager local;
    Executor::Args args;
    args.rendezvous = &rendezvous;
    args.cancellation = cm ? cm : &local;
    args.call_frame = frame;
    args.runner = [this](std::function<void()> fn) { pool_.Schedule(std::move(fn)); };
    return (*ex)->Run(args);
  }
};

constexpr char kDiamond[] = R"(
  node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 3 } } }
  node { name: 'y' op: 'ExecTestScalar' attr { key: 'value' value { i: 4 } } }
  node { name: 'sum' op: 'ExecTestAdd' input: 'x' input: 'y' }
  node { name: 'twice' op: 'ExecTestAsyncDouble' input: 'sum' }
  node { name: 'total' op: 'ExecTestAdd' input: 'twice' input: 'sum' }
  node { name: 'ret' op: 'ExecTestRetval' input: 'total' attr { key: 'index' value { i: 0 } } }
)";

TEST_F(ExecutorTest, RunsDiamondWithAsyncKernel) {
  VectorFrame frame;
  RILL_ASSERT_OK(RunGraph(kDiamond, &frame));
  EXPECT_EQ(frame.values[0].flat<int32_t>()[0], 21);  // (3+4)*2 + (3+4)
}

TEST_F(ExecutorTest, ManyConcurrentStepsOnOneExecutor) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Parse(kDiamond), cpu_.get(), Registry()));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) {
        VectorFrame frame;
        LocalRendezvous r;
        CancellationManager cm;
        Executor::Args args;
        args.rendezvous = &r;
        args.cancellation = &cm;
        args.call_frame = &frame;
        args.runner = [this](std::function<void()> fn) { pool_.Schedule(std::move(fn)); };
        if (ex->Run(args).ok() && frame.values[0].flat<int32_t>()[0] == 21) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 800);
}

TEST_F(ExecutorTest, FirstErrorNamesTheNodeAndCancelsBlockedKernels) {
  VectorFrame frame;
  CancellationManager cm;
  EXPECT_THAT(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
      node { name: 'bad' op: 'ExecTestFail' input: 'x' }
      node { name: 'wait' op: 'ExecTestBlock' }
      node { name: 'ret' op: 'ExecTestRetval' input: 'wait' attr { key: 'index' value { i: 0 } } }
    )",
                       &frame, &cm),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad value\n\t [[{{node bad}}]]"));
  EXPECT_TRUE(cm.IsCancelled());
}

TEST_F(ExecutorTest, ExternalCancellationEndsABlockedStep) {
  VectorFrame frame;
  CancellationManager cm;
  std::thread canceller([&] {
    absl::SleepFor(absl::Milliseconds(20));
    cm.StartCancel(absl::DeadlineExceededError("Timed out waiting for notification"));
  });
  EXPECT_THAT(RunGraph("node { name: 'wait' op: 'ExecTestBlock' }", &frame, &cm),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("Timed out waiting for notification")));
  canceller.join();
}

TEST_F(ExecutorTest, CreateRejectsUnknownOpsAndMissingInputs) {
  EXPECT_THAT(
      Executor::Create(Parse("node { name: 'q' op: 'NoSuchOp' }"), cpu_.get(), Registry()),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("Op type not registered 'NoSuchOp'")));
  // Import refuses a missing input node; a Graph being rewritten may still lack an edge.
  Graph unconnected;
  NodeDef add;
  add.set_name("s");
  add.set_op("ExecTestAdd");
  RILL_ASSERT_OK(unconnected.AddNode(add).status());
  EXPECT_THAT(Executor::Create(unconnected, cpu_.get(), Registry()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incomplete graph, input 0 of s is not connected"));
}

}  // namespace
}  // namespace rill
