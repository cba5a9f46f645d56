// Executor tests with test-only ops and kernels registered in a private registry, end to end
// through the public API: the three Process paths (async kernels, a simple partition's in-place
// inputs, a frame partition's moved inputs), inline vs pool execution and the start rules as seen
// from the kernels' threads, errors naming the node (a kernel's, an async kernel's, an output not
// produced, an uninitialized variable), dead _Recv semantics, Switch's untaken branch, a loop's
// forwarding nodes moved without their kernels, step stats, cancellation of a blocked kernel,
// concurrent steps, a one-thread runner (a start wholly on the caller, an async completion on
// another thread, a timeout ending a step waiting on an async kernel). The parts under
// session/executor/ have their own unit tests.
#include "session/executor.h"

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
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
REGISTER_OP("ExecTestBadAlloc").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestBlock").Output("out: int32");
REGISTER_OP("ExecTestAsyncDouble").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestRetval").Input("a: int32").Attr("index: int");
REGISTER_OP("ExecTestAsyncFail").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestNoOutput").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestBool").Output("out: bool").Attr("value: bool");
REGISTER_OP("ExecTestBoolPair").Output("out: bool");
REGISTER_OP("ExecTestLess").Input("a: int32").Input("b: int32").Output("out: bool");
REGISTER_OP("ExecTestCounted").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestWhere").Output("out: int32");
REGISTER_OP("ExecTestHeavy").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestHeavySource").Output("out: int32");
REGISTER_OP("ExecTestRefVar").Output("ref: Ref(int32)").Attr("initialized: bool");
REGISTER_OP("ExecTestRead").Input("ref: Ref(int32)").Output("out: int32");
REGISTER_OP("ExecTestAsyncWait").Input("a: int32").Output("out: int32");
REGISTER_OP("ExecTestSlowAdd").Input("a: int32").Input("b: int32").Output("out: int32");

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

// AddOp taking longer than a hand-off costs (cost_estimate.h's kHandOffMinNs), so that two of
// them ready together are split between threads; records that it ran and where.
class SlowAddOp final : public OpKernel {
 public:
  explicit SlowAddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override;
  bool IsExpensive() const override { return true; }
};

// A kernel whose own memory (not its outputs') cannot be had: what a string op building
// gigabytes of text meets under a memory limit.
class BadAllocOp final : public OpKernel {
 public:
  explicit BadAllocOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext&) const override { throw std::bad_alloc(); }
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

// Waits, as a _Recv whose value never comes, until the step is cancelled, then calls done with
// the cancellation's status on the cancelling thread.
class AsyncWaitOp final : public AsyncOpKernel {
 public:
  explicit AsyncWaitOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {}
  void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const override {
    CancellationManager* cm = ctx.cancellation();
    if (cm->RegisterCallback([cm, done] { done(cm->status()); }) == kInvalidCancellationToken) {
      done(cm->status());
    }
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

// Fails later, on another thread.
class AsyncFailOp final : public AsyncOpKernel {
 public:
  explicit AsyncFailOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {}
  void ComputeAsync(OpKernelContext&, DoneCallback done) const override {
    std::thread([done] { done(absl::UnavailableError("async broke")); }).detach();
  }
};

// Leaves its output unset: an error for an op that must produce it, a dead output for a _Recv.
class NoOutputOp final : public OpKernel {
 public:
  explicit NoOutputOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext&) const override { return absl::OkStatus(); }
  bool IsExpensive() const override { return false; }
};

class BoolOp final : public OpKernel {
 public:
  explicit BoolOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("value", &value_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, Tensor::Scalar<bool>(value_));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  bool value_ = false;
};

// Which nodes ran (by name), and on which threads.
struct Trace {
  rill::Mutex mu;
  std::multiset<std::string> ran ABSL_GUARDED_BY(mu);
  std::set<std::thread::id> threads ABSL_GUARDED_BY(mu);
  void Add(const std::string& node) {
    rill::MutexLock l(&mu);
    ran.insert(node);
    threads.insert(std::this_thread::get_id());
  }
  void Clear() {
    rill::MutexLock l(&mu);
    ran.clear();
    threads.clear();
  }
  size_t Count(const std::string& node) {
    rill::MutexLock l(&mu);
    return ran.count(node);
  }
  std::set<std::thread::id> Threads() {
    rill::MutexLock l(&mu);
    return threads;
  }
};
Trace& GlobalTrace() {
  static Trace* trace = new Trace();
  return *trace;
}

absl::Status SlowAddOp::Compute(OpKernelContext& ctx) const {
  GlobalTrace().Add(name());
  absl::SleepFor(absl::Microseconds(200));
  ctx.set_output(0, Tensor::Scalar<int32_t>(ctx.input(0).flat<int32_t>()[0] +
                                            ctx.input(1).flat<int32_t>()[0]));
  return absl::OkStatus();
}

// Passes its input on (cheap, or expensive for ExecTestHeavy) and records that it ran.
class TracedOp final : public OpKernel {
 public:
  TracedOp(OpKernelConstruction& ctx, bool expensive) : OpKernel(ctx), expensive_(expensive) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    GlobalTrace().Add(name());
    ctx.set_output(0, ctx.num_inputs() > 0 ? ctx.input(0) : Tensor::Scalar<int32_t>(1));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return expensive_; }

 private:
  const bool expensive_;
};

class BoolPairOp final : public OpKernel {
 public:
  explicit BoolPairOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, Tensor::FromVector<bool>({true, false}, TensorShape({2})));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class LessOp final : public OpKernel {
 public:
  explicit LessOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(
        0, Tensor::Scalar<bool>(ctx.input(0).flat<int32_t>()[0] < ctx.input(1).flat<int32_t>()[0]));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// A TF1 variable: its ref output is the kernel's own tensor, set when `initialized`.
class RefVarOp final : public OpKernel {
 public:
  explicit RefVarOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    bool initialized = false;
    ctx.SetStatus(ctx.GetAttr("initialized", &initialized));
    if (initialized) value_ = Tensor::Scalar<int32_t>(7);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output_ref(0, &mu_, &value_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  mutable rill::SharedMutex mu_;
  mutable Tensor value_;
};

class ReadOp final : public OpKernel {
 public:
  explicit ReadOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// TF1's Switch and Merge, on any type; they record that they ran (the executor moves their
// values itself in untraced steps). Switch refuses a predicate that is not a scalar, as
// TensorFlow's kernel does.
class SwitchOp final : public OpKernel {
 public:
  explicit SwitchOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    GlobalTrace().Add(name());
    if (ctx.input(1).shape().rank() != 0) {
      return absl::InvalidArgumentError("The second input must be a scalar");
    }
    ctx.set_output(ctx.input(1).flat<bool>()[0] ? 1 : 0, ctx.input(0));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class MergeOp final : public OpKernel {
 public:
  explicit MergeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    GlobalTrace().Add(name());
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      if (!ctx.has_input(i)) continue;
      ctx.set_output(0, ctx.input(i));
      ctx.set_output(1, Tensor::Scalar<int32_t>(i));
      return absl::OkStatus();
    }
    return absl::InternalError("Merge ran without a live input");
  }
  bool IsExpensive() const override { return false; }
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
    add("ExecTestSlowAdd", MakeFactory<SlowAddOp>());
    add("ExecTestFail", MakeFactory<FailOp>());
    add("ExecTestBadAlloc", MakeFactory<BadAllocOp>());
    add("ExecTestBlock", MakeFactory<BlockOp>());
    add("ExecTestAsyncDouble", MakeFactory<AsyncDoubleOp>());
    add("ExecTestRetval", MakeFactory<RetvalOp>());
    add("ExecTestAsyncFail", MakeFactory<AsyncFailOp>());
    add("ExecTestAsyncWait", MakeFactory<AsyncWaitOp>());
    add("ExecTestNoOutput", MakeFactory<NoOutputOp>());
    add("_Recv", MakeFactory<NoOutputOp>());
    add("ExecTestBool", MakeFactory<BoolOp>());
    add("ExecTestLess", MakeFactory<LessOp>());
    add("ExecTestBoolPair", MakeFactory<BoolPairOp>());
    add("ExecTestRefVar", MakeFactory<RefVarOp>());
    add("ExecTestRead", MakeFactory<ReadOp>());
    add("Switch", MakeFactory<SwitchOp>());
    add("Merge", MakeFactory<MergeOp>());
    auto traced = [](bool expensive) -> KernelFactory {
      return [expensive](OpKernelConstruction& ctx) -> absl::StatusOr<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(new TracedOp(ctx, expensive));
      };
    };
    add("ExecTestCounted", traced(false));
    // The forwarding ops' kernels: they pass input 0 on and record that they ran, so a test
    // sees whether the step ran them or moved the value itself.
    for (const char* op : {"Identity", "Enter", "Exit", "NextIteration", "LoopCond"}) {
      add(op, traced(false));
    }
    add("ExecTestWhere", traced(false));
    add("ExecTestHeavy", traced(true));
    add("ExecTestHeavySource", traced(true));
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
  ThreadPool one_{"exec_test_one", 1};

  // One step's arguments, with a call frame, rendezvous and cancellation of its own and a runner
  // of `threads` threads: none (0), the one-thread pool one_ (1) or the four-thread pool_ (4).
  struct StepArgs {
    VectorFrame frame;
    LocalRendezvous rendezvous;
    CancellationManager cm;
    Executor::Args args;
  };
  std::unique_ptr<StepArgs> NewStep(int threads) {
    auto step = std::make_unique<StepArgs>();
    step->args.rendezvous = &step->rendezvous;
    step->args.cancellation = &step->cm;
    step->args.call_frame = &step->frame;
    if (threads == 1) {
      step->args.runner = [this](std::function<void()> fn) { one_.Schedule(std::move(fn)); };
    } else if (threads == 4) {
      step->args.runner = [this](std::function<void()> fn) { pool_.Schedule(std::move(fn)); };
    }
    step->args.runner_threads = threads;
    return step;
  }

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
        std::unique_ptr<StepArgs> step = NewStep(4);
        if (ex->Run(step->args).ok() && step->frame.values[0].flat<int32_t>()[0] == 21) ++ok;
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

TEST_F(ExecutorTest, AKernelOutOfHostMemoryIsResourceExhaustedNamingTheNode) {
  VectorFrame frame;
  CancellationManager cm;
  EXPECT_THAT(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
      node { name: 'big' op: 'ExecTestBadAlloc' input: 'x' }
      node { name: 'ret' op: 'ExecTestRetval' input: 'big' attr { key: 'index' value { i: 0 } } }
    )",
                       &frame, &cm),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       "OOM in ExecTestBadAlloc: the kernel could not allocate the host memory it "
                       "needs\n\t [[{{node big}}]]"));
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

TEST_F(ExecutorTest, AnAsyncKernelsErrorNamesTheNode) {
  VectorFrame frame;
  EXPECT_THAT(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
      node { name: 'later' op: 'ExecTestAsyncFail' input: 'x' }
      node { name: 'ret' op: 'ExecTestRetval' input: 'later' attr { key: 'index' value { i: 0 } } }
    )",
                       &frame),
              StatusIs(absl::StatusCode::kUnavailable, "async broke\n\t [[{{node later}}]]"));
}

TEST_F(ExecutorTest, AnOutputNotProducedIsAnErrorNamingTheNode) {
  VectorFrame frame;
  EXPECT_THAT(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
      node { name: 'lazy' op: 'ExecTestNoOutput' input: 'x' }
      node { name: 'ret' op: 'ExecTestRetval' input: 'lazy' attr { key: 'index' value { i: 0 } } }
    )",
                       &frame),
              StatusIs(absl::StatusCode::kInternal,
                       "Node lazy did not produce output 0\n\t [[{{node lazy}}]]"));
  // Nobody consumes it: no error.
  RILL_EXPECT_OK(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
      node { name: 'lazy' op: 'ExecTestNoOutput' input: 'x' }
    )",
                          &frame));
}

constexpr char kRecvAttrs[] = R"(
    attr { key: 'tensor_type' value { type: DT_INT32 } }
    attr { key: 'tensor_name' value { s: 't' } }
    attr { key: 'send_device' value { s: '/job:localhost/replica:0/task:0/device:CPU:1' } }
    attr { key: 'send_device_incarnation' value { i: 1 } }
    attr { key: 'recv_device' value { s: '/job:localhost/replica:0/task:0/device:CPU:0' } })";

TEST_F(ExecutorTest, ADeadRecvKillsItsConsumersWithoutAnError) {
  // A _Recv may leave its output unset (the sender was dead): its consumers are dead and do not
  // run, in a simple partition as in one with control flow.
  for (const char* merge : {"", R"(node { name: 'm' op: 'Merge' input: 'recv' input: 'x'
                                        attr { key: 'T' value { type: DT_INT32 } }
                                        attr { key: 'N' value { i: 2 } } })"}) {
    GlobalTrace().Clear();
    VectorFrame frame;
    RILL_ASSERT_OK(RunGraph(absl::StrCat(R"(
        node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
        node { name: 'recv' op: '_Recv' )",
                                         kRecvAttrs, R"( }
        node { name: 'use' op: 'ExecTestCounted' input: 'recv' }
        node { name: 'ret' op: 'ExecTestRetval' input: 'use' attr { key: 'index' value { i: 0 } } }
      )",
                                         merge),
                            &frame));
    EXPECT_EQ(GlobalTrace().Count("use"), 0u) << merge;
    EXPECT_TRUE(frame.values.empty()) << merge;
  }
}

TEST_F(ExecutorTest, SwitchRunsOnlyTheTakenBranchAndMergeForwardsIt) {
  GlobalTrace().Clear();
  VectorFrame frame;
  RILL_ASSERT_OK(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 3 } } }
      node { name: 'p' op: 'ExecTestBool' attr { key: 'value' value { b: true } } }
      node { name: 'sw' op: 'Switch' input: 'x' input: 'p'
             attr { key: 'T' value { type: DT_INT32 } } }
      node { name: 'untaken' op: 'ExecTestCounted' input: 'sw:0' }
      node { name: 'taken' op: 'ExecTestCounted' input: 'sw:1' }
      node { name: 'm' op: 'Merge' input: 'untaken' input: 'taken'
             attr { key: 'T' value { type: DT_INT32 } } attr { key: 'N' value { i: 2 } } }
      node { name: 'ret' op: 'ExecTestRetval' input: 'm' attr { key: 'index' value { i: 0 } } }
      node { name: 'dead_ret' op: 'ExecTestRetval' input: 'untaken'
             attr { key: 'index' value { i: 1 } } }
      node { name: 'index_ret' op: 'ExecTestRetval' input: 'm:1'
             attr { key: 'index' value { i: 2 } } }
    )",
                          &frame));
  EXPECT_EQ(GlobalTrace().Count("untaken"), 0u);
  EXPECT_EQ(GlobalTrace().Count("taken"), 1u);
  EXPECT_EQ(GlobalTrace().Count("sw"), 0u);  // moved by the executor, not run
  EXPECT_EQ(GlobalTrace().Count("m"), 0u);
  EXPECT_EQ(frame.values.size(), 2u);  // the dead fetch is not set
  EXPECT_EQ(frame.values[0].flat<int32_t>()[0], 3);
  EXPECT_EQ(frame.values[2].flat<int32_t>()[0], 1);  // Merge's value_index: input 1 was live
}

TEST_F(ExecutorTest, ASwitchOnAPredicateThatIsNotAScalarRunsItsKernel) {
  GlobalTrace().Clear();
  VectorFrame frame;
  EXPECT_THAT(RunGraph(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 3 } } }
      node { name: 'p' op: 'ExecTestBoolPair' }
      node { name: 'sw' op: 'Switch' input: 'x' input: 'p'
             attr { key: 'T' value { type: DT_INT32 } } }
      node { name: 'ret' op: 'ExecTestRetval' input: 'sw:1'
             attr { key: 'index' value { i: 0 } } }
    )",
                       &frame),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("The second input must be a scalar\n\t [[{{node sw}}]]")));
  EXPECT_EQ(GlobalTrace().Count("sw"), 1u);
}

TEST_F(ExecutorTest, AnUninitializedVariableFailsNamingItsReader) {
  constexpr char kGraph[] = R"(
      node { name: 'v' op: 'ExecTestRefVar' attr { key: 'initialized' value { b: %s } } }
      node { name: 'read' op: 'ExecTestRead' input: 'v' }
      node { name: 'ret' op: 'ExecTestRetval' input: 'read' attr { key: 'index' value { i: 0 } } }
    )";
  VectorFrame frame;
  EXPECT_THAT(RunGraph(absl::StrFormat(kGraph, "false"), &frame),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "Attempting to use uninitialized value v\n\t [[{{node read}}]]"));
  RILL_ASSERT_OK(RunGraph(absl::StrFormat(kGraph, "true"), &frame));
  EXPECT_EQ(frame.values[0].flat<int32_t>()[0], 7);
}

TEST_F(ExecutorTest, StepStatsRecordEveryNodeThatRan) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Parse(kDiamond), cpu_.get(), Registry()));
  std::unique_ptr<StepArgs> step = NewStep(0);
  DeviceStepStats stats;
  step->args.stats = &stats;
  RILL_ASSERT_OK(ex->Run(step->args));
  std::set<std::string> names;
  for (const NodeExecStats& ns : stats.node_stats()) names.insert(ns.node_name());
  EXPECT_EQ(names, (std::set<std::string>{"x", "y", "sum", "twice", "total", "ret"}));
}

// A TF1 loop summing 0 + 1 + ... + 4 (i < 5: i += 1; acc += i), then Identity of a variable.
constexpr char kSumLoop[] = R"(
  node { name: 'zero' op: 'ExecTestScalar' attr { key: 'value' value { i: 0 } } }
  node { name: 'one' op: 'ExecTestScalar' attr { key: 'value' value { i: 1 } } }
  node { name: 'five' op: 'ExecTestScalar' attr { key: 'value' value { i: 5 } } }
  node { name: 'i_enter' op: 'Enter' input: 'zero' attr { key: 'T' value { type: DT_INT32 } }
         attr { key: 'frame_name' value { s: 'L' } } }
  node { name: 'acc_enter' op: 'Enter' input: 'zero' attr { key: 'T' value { type: DT_INT32 } }
         attr { key: 'frame_name' value { s: 'L' } } }
  node { name: 'one_enter' op: 'Enter' input: 'one' attr { key: 'T' value { type: DT_INT32 } }
         attr { key: 'frame_name' value { s: 'L' } } attr { key: 'is_constant' value { b: true } } }
  node { name: 'five_enter' op: 'Enter' input: 'five'
         attr { key: 'T' value { type: DT_INT32 } } attr { key: 'frame_name' value { s: 'L' } }
         attr { key: 'is_constant' value { b: true } } }
  node { name: 'i_merge' op: 'Merge' input: 'i_enter' input: 'i_next'
         attr { key: 'T' value { type: DT_INT32 } } attr { key: 'N' value { i: 2 } } }
  node { name: 'acc_merge' op: 'Merge' input: 'acc_enter' input: 'acc_next'
         attr { key: 'T' value { type: DT_INT32 } } attr { key: 'N' value { i: 2 } } }
  node { name: 'less' op: 'ExecTestLess' input: 'i_merge' input: 'five_enter' }
  node { name: 'cond' op: 'LoopCond' input: 'less' }
  node { name: 'i_switch' op: 'Switch' input: 'i_merge' input: 'cond'
         attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'acc_switch' op: 'Switch' input: 'acc_merge' input: 'cond'
         attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'i_body' op: 'Identity' input: 'i_switch:1' attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'i_add' op: 'ExecTestAdd' input: 'i_body' input: 'one_enter' }
  node { name: 'acc_add' op: 'ExecTestAdd' input: 'acc_switch:1' input: 'i_body' }
  node { name: 'i_next' op: 'NextIteration' input: 'i_add'
         attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'acc_next' op: 'NextIteration' input: 'acc_add'
         attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'acc_exit' op: 'Exit' input: 'acc_switch:0'
         attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'ret' op: 'ExecTestRetval' input: 'acc_exit' attr { key: 'index' value { i: 0 } } }
  node { name: 'v' op: 'ExecTestRefVar' attr { key: 'initialized' value { b: true } } }
  node { name: 'v_read' op: 'Identity' input: 'v' attr { key: 'T' value { type: DT_INT32 } } }
  node { name: 'ret_v' op: 'ExecTestRetval' input: 'v_read' attr { key: 'index' value { i: 1 } } }
)";

TEST_F(ExecutorTest, ForwardingNodesMoveTheirValueWithoutTheKernelUnlessTraced) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Parse(kSumLoop), cpu_.get(), Registry()));
  // Live runs of each forwarding node: the loop body's once per iteration, the condition's,
  // Merges' and Switches' once more (the last test), the rest once.
  const std::map<std::string, size_t> forwarding = {
      {"i_enter", 1}, {"acc_enter", 1}, {"one_enter", 1}, {"five_enter", 1}, {"cond", 6},
      {"i_merge", 6}, {"acc_merge", 6}, {"i_switch", 6},  {"acc_switch", 6}, {"i_body", 5},
      {"i_next", 5},  {"acc_next", 5},  {"acc_exit", 1},  {"v_read", 1}};
  for (const bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "untraced");
    GlobalTrace().Clear();
    std::unique_ptr<StepArgs> step = NewStep(4);
    DeviceStepStats stats;
    if (traced) step->args.stats = &stats;
    RILL_ASSERT_OK(ex->Run(step->args));
    EXPECT_EQ(step->frame.values[0].flat<int32_t>()[0], 0 + 1 + 2 + 3 + 4);
    EXPECT_EQ(step->frame.values[1].flat<int32_t>()[0], 7);  // the variable, read by Identity
    std::multiset<std::string> recorded;
    for (const NodeExecStats& ns : stats.node_stats()) recorded.insert(ns.node_name());
    for (const auto& [node, runs] : forwarding) {
      EXPECT_EQ(GlobalTrace().Count(node), traced ? runs : 0u) << node;
      EXPECT_EQ(recorded.count(node), traced ? runs : 0u) << node;
    }
  }
}

TEST_F(ExecutorTest, ALoopGivesTheSameValuesOnOneThreadWithoutFrameLocksAsOnMany) {
  // No runner and a one-thread runner run the step on one thread, without the frames' locks
  // (StepRunsOnOneThread); a four-thread runner runs it on several, with them. Each runs the loop
  // to the same sum, many steps in a row (freed iterations and root iterations reused). The
  // loop's two adds take longer than a hand-off and are ready together each iteration, so on
  // four threads one of them goes to the runner: both frames' rules are exercised.
  std::string text = kSumLoop;
  for (const char* add : {"name: 'i_add' op: 'ExecTestAdd'", "name: 'acc_add' op: 'ExecTestAdd'"}) {
    const std::string from = add;
    ASSERT_NE(text.find(from), std::string::npos) << add;
    text.replace(text.find(from), from.size(),
                 absl::StrReplaceAll(from, {{"ExecTestAdd", "ExecTestSlowAdd"}}));
  }
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Parse(text), cpu_.get(), Registry()));
  for (int threads : {0, 1, 4}) {
    SCOPED_TRACE(absl::StrCat(threads, " runner threads"));
    GlobalTrace().Clear();
    for (int step = 0; step < 20; ++step) {
      std::unique_ptr<StepArgs> args = NewStep(threads);
      RILL_ASSERT_OK(ex->Run(args->args));
      EXPECT_EQ(args->frame.values[0].flat<int32_t>()[0], 0 + 1 + 2 + 3 + 4);
      EXPECT_EQ(args->frame.values[1].flat<int32_t>()[0], 7);
    }
    EXPECT_EQ(GlobalTrace().Count("i_add"), 20u * 5);
    EXPECT_EQ(GlobalTrace().Count("acc_add"), 20u * 5);
    if (threads == 4) {
      EXPECT_GE(GlobalTrace().Threads().size(), 2u);  // handed off
    } else {
      EXPECT_EQ(GlobalTrace().Threads().size(), 1u);  // the caller's, or the runner's only one
    }
  }
}

TEST_F(ExecutorTest, CancellationStopsALoopRunningOnOneThread) {
  // A loop of a billion iterations on a one-thread runner (no frame locks): the step's
  // cancellation ends it with the cancellation's status.
  std::string text = kSumLoop;
  const std::string five = "name: 'five' op: 'ExecTestScalar' attr { key: 'value' value { i: 5 } }";
  ASSERT_NE(text.find(five), std::string::npos);
  text.replace(text.find(five), five.size(),
               "name: 'five' op: 'ExecTestScalar' attr { key: 'value' value { i: 1000000000 } }");
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Parse(text), cpu_.get(), Registry()));
  std::unique_ptr<StepArgs> step = NewStep(1);
  rill::Notification done;
  absl::Status status;
  ex->RunAsync(step->args, [&](absl::Status s) {
    status = std::move(s);
    done.Notify();
  });
  done.WaitForNotificationWithTimeout(absl::Milliseconds(20));  // the loop is under way
  step->cm.StartCancel(absl::DeadlineExceededError("Timed out waiting for notification"));
  done.WaitForNotification();
  EXPECT_THAT(status,
              StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"));
}

TEST_F(ExecutorTest, AnEmptyPartitionFinishesAtOnce) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Graph(), cpu_.get(), Registry()));
  EXPECT_EQ(ex->num_nodes(), 0);
  Executor::Args args;
  RILL_EXPECT_OK(ex->Run(args));
}

// Runs `text` with a runner that counts its closures and hands them to `pool`.
struct CountingRun {
  absl::Status status;
  int closures = 0;
};
CountingRun RunCounting(const std::string& text, Device* device, ThreadPool* pool,
                        int runner_threads, CallFrame* frame = nullptr) {
  CountingRun result;
  absl::StatusOr<std::unique_ptr<Executor>> ex = Executor::Create(Parse(text), device, Registry());
  if (!ex.ok()) {
    result.status = ex.status();
    return result;
  }
  std::atomic<int> closures{0};
  LocalRendezvous rendezvous;
  CancellationManager cm;
  Executor::Args args;
  args.rendezvous = &rendezvous;
  args.cancellation = &cm;
  args.runner = [&closures, pool](std::function<void()> fn) {
    ++closures;
    pool->Schedule(std::move(fn));
  };
  args.runner_threads = runner_threads;
  args.call_frame = frame;
  result.status = (*ex)->Run(args);
  result.closures = closures.load();
  return result;
}

TEST_F(ExecutorTest, CheapNodesRunOnTheThreadThatMadeThemReady) {
  GlobalTrace().Clear();
  const CountingRun run = RunCounting(R"(
      node { name: 'a' op: 'ExecTestWhere' }
      node { name: 'b' op: 'ExecTestCounted' input: 'a' }
      node { name: 'c' op: 'ExecTestCounted' input: 'b' }
    )",
                                      cpu_.get(), &pool_, 4);
  RILL_ASSERT_OK(run.status);
  EXPECT_EQ(run.closures, 0);
  EXPECT_EQ(GlobalTrace().Threads(), std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_F(ExecutorTest, AnExpensiveRootRunsOnTheRunner) {
  GlobalTrace().Clear();
  const CountingRun run = RunCounting(R"(
      node { name: 'h' op: 'ExecTestHeavySource' }
      node { name: 'c' op: 'ExecTestCounted' input: 'h' }
    )",
                                      cpu_.get(), &pool_, 4);
  RILL_ASSERT_OK(run.status);
  EXPECT_EQ(run.closures, 1);
  EXPECT_EQ(GlobalTrace().Threads().count(std::this_thread::get_id()), 0u);
}

constexpr char kFork[] = R"(
    node { name: 'h0' op: 'ExecTestHeavySource' }
    node { name: 'h1' op: 'ExecTestHeavy' input: 'h0' }
    node { name: 'h2' op: 'ExecTestHeavy' input: 'h0' }
  )";

TEST_F(ExecutorTest, TwoReadyExpensiveNodesShareTheRunner) {
  const CountingRun run = RunCounting(kFork, cpu_.get(), &pool_, 4);
  RILL_ASSERT_OK(run.status);
  EXPECT_EQ(run.closures, 2);  // the root, then h1 (its thread keeps h2)
}

TEST_F(ExecutorTest, OnASingleThreadRunnerReadyNodesRunInPlace) {
  const CountingRun run = RunCounting(kFork, cpu_.get(), &one_, 1);
  RILL_ASSERT_OK(run.status);
  EXPECT_EQ(run.closures, 1);  // the root only: h1 and h2 run where h0 ran
}

// `n` expensive nodes fed by one cheap root.
std::string Fan(int n) {
  std::string text = "node { name: 'root' op: 'ExecTestWhere' }\n";
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&text, "node { name: 'h", i, "' op: 'ExecTestHeavy' input: 'root' }\n");
  }
  return text;
}

TEST_F(ExecutorTest, OnAOneThreadRunnerACheapStartRunsWhollyOnTheCaller) {
  // Expensive nodes with expensive company, 40 of them (a wide start): no hand-off at all.
  GlobalTrace().Clear();
  const CountingRun run = RunCounting(Fan(40), cpu_.get(), &one_, 1);
  RILL_ASSERT_OK(run.status);
  EXPECT_EQ(run.closures, 0);
  EXPECT_EQ(GlobalTrace().Count("h39"), 1u);
  EXPECT_EQ(GlobalTrace().Threads(), std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_F(ExecutorTest, OnAOneThreadRunnerACompletionOnAnotherThreadFollowsTheUsualRules) {
  // The caller runs x and starts 'twice', whose completion comes on a thread of its own: there
  // h1 leaves for the runner (h2 is expensive company) and h2 stays; the value is the same.
  GlobalTrace().Clear();
  VectorFrame frame;
  const CountingRun run = RunCounting(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 3 } } }
      node { name: 'twice' op: 'ExecTestAsyncDouble' input: 'x' }
      node { name: 'h1' op: 'ExecTestHeavy' input: 'twice' }
      node { name: 'h2' op: 'ExecTestHeavy' input: 'twice' }
      node { name: 'sum' op: 'ExecTestAdd' input: 'h1' input: 'h2' }
      node { name: 'ret' op: 'ExecTestRetval' input: 'sum' attr { key: 'index' value { i: 0 } } }
    )",
                                      cpu_.get(), &one_, 1, &frame);
  RILL_ASSERT_OK(run.status);
  EXPECT_EQ(frame.values[0].flat<int32_t>()[0], 12);
  EXPECT_EQ(run.closures, 1);
  EXPECT_EQ(GlobalTrace().Count("h1"), 1u);
  EXPECT_EQ(GlobalTrace().Count("h2"), 1u);
  EXPECT_EQ(GlobalTrace().Threads().count(std::this_thread::get_id()), 0u);
}

TEST_F(ExecutorTest, OnAOneThreadRunnerAWaitingStepIsEndedByItsTimeout) {
  // The caller runs x and starts 'wait' inline, then RunAsync returns; the deadline's
  // cancellation completes 'wait' with its status and the step ends with it, h never running.
  GlobalTrace().Clear();
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex, Executor::Create(Parse(R"(
      node { name: 'x' op: 'ExecTestScalar' attr { key: 'value' value { i: 3 } } }
      node { name: 'wait' op: 'ExecTestAsyncWait' input: 'x' }
      node { name: 'h' op: 'ExecTestHeavy' input: 'wait' }
    )"),
                                                                           cpu_.get(), Registry()));
  LocalRendezvous rendezvous;
  CancellationManager cm;
  std::atomic<int> closures{0};
  Executor::Args args;
  args.rendezvous = &rendezvous;
  args.cancellation = &cm;
  args.runner = [&closures, this](std::function<void()> fn) {
    ++closures;
    one_.Schedule(std::move(fn));
  };
  args.runner_threads = 1;
  rill::Notification done;
  absl::Status status;
  ex->RunAsync(args, [&](absl::Status s) {
    status = std::move(s);
    done.Notify();
  });
  EXPECT_FALSE(done.HasBeenNotified());
  cm.StartCancel(absl::DeadlineExceededError("Timed out waiting for notification"));
  done.WaitForNotification();
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                               "Timed out waiting for notification\n\t [[{{node wait}}]]"));
  EXPECT_EQ(closures.load(), 0);
  EXPECT_EQ(GlobalTrace().Count("h"), 0u);
}

TEST_F(ExecutorTest, AWideStartRunsEvenItsCheapRootsOnTheRunner) {
  // 32 expensive nodes ready right after the roots: the whole step starts on the pool.
  GlobalTrace().Clear();
  RILL_ASSERT_OK(RunCounting(Fan(32), cpu_.get(), &pool_, 4).status);
  EXPECT_EQ(GlobalTrace().Threads().count(std::this_thread::get_id()), 0u);
  // With 31 the cheap root runs on the caller.
  GlobalTrace().Clear();
  RILL_ASSERT_OK(RunCounting(Fan(31), cpu_.get(), &pool_, 4).status);
  EXPECT_EQ(GlobalTrace().Count("root"), 1u);
  EXPECT_EQ(GlobalTrace().Threads().count(std::this_thread::get_id()), 1u);
}

TEST_F(ExecutorTest, ConcurrentStepsOfAWidePartitionAllFinish) {
  // Chunked dispatch and the root-iteration pool under concurrent steps.
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Executor> ex,
                            Executor::Create(Parse(Fan(100)), cpu_.get(), Registry()));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 30; ++i) {
        if (ex->Run(NewStep(4)->args).ok()) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 180);
}

}  // namespace
}  // namespace rill
