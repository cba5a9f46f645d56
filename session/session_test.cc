// Session behaviour: variables across runs and failed runs, concurrent AssignAdd with use_locking,
// TensorFlow's feed/fetch errors, timeouts and Close on a kernel that blocks until cancelled.
#include "session/session.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"
#include "session/heap_trim.h"

namespace rill {
namespace allocator_internal {
int64_t LargeBlockCacheKeptBytesForTesting();  // core/allocator.cc
}  // namespace allocator_internal
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A kernel that blocks until its step is cancelled (timeout or Close).
REGISTER_OP("SessionTestBlock").Output("out: float").SetIsStateful();
class BlockOp final : public OpKernel {
 public:
  explicit BlockOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    rill::Notification cancelled;
    if (ctx.cancellation()->RegisterCallback([&] { cancelled.Notify(); }) ==
        kInvalidCancellationToken) {
      return ctx.cancellation()->status();
    }
    cancelled.WaitForNotification();
    return ctx.cancellation()->status();
  }
};
REGISTER_KERNEL(KernelDefBuilder("SessionTestBlock").Device(kDeviceCpu), BlockOp);

// A kernel that outputs the name of the thread running it (pools name their threads
// "rill_<pool name>", core/thread_pool.h). It sleeps 1 ms so that, as an expensive root, the
// executor always hands it to the step's inter-op pool rather than running it on the caller.
REGISTER_OP("SessionTestThreadName").Output("out: string").SetIsStateful();
class ThreadNameOp final : public OpKernel {
 public:
  explicit ThreadNameOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof(name));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({})));
    out->flat<std::string>()[0] = name;
    return absl::OkStatus();
  }
};
REGISTER_KERNEL(KernelDefBuilder("SessionTestThreadName").Device(kDeviceCpu), ThreadNameOp);

// A cheap kernel (the executor runs it inline, on the thread that calls Run when it is a root)
// that takes 300 ms.
REGISTER_OP("SessionTestSlowInline").Output("out: float").SetIsStateful();
class SlowInlineOp final : public OpKernel {
 public:
  explicit SlowInlineOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  bool IsExpensive() const override { return false; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({})));
    out->flat<float>()[0] = 1;
    return absl::OkStatus();
  }
};
REGISTER_KERNEL(KernelDefBuilder("SessionTestSlowInline").Device(kDeviceCpu), SlowInlineOp);

// A cheap kernel (run inline on the thread that calls Run when it is a root) that polls its
// step's cancellation until cancelled, as a fused loop does between steps; it gives up after 20 s.
// g_polling_op_saw_cancel records whether the cancellation reached it.
std::atomic<bool> g_polling_op_saw_cancel{false};
REGISTER_OP("SessionTestPollUntilCancelled").Output("out: float").SetIsStateful();
class PollUntilCancelledOp final : public OpKernel {
 public:
  explicit PollUntilCancelledOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  bool IsExpensive() const override { return false; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int i = 0; i < 20000; ++i) {
      if (ctx.cancellation()->IsCancelled()) {
        g_polling_op_saw_cancel = true;
        return ctx.cancellation()->status();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return absl::InternalError("SessionTestPollUntilCancelled was never cancelled");
  }
};
REGISTER_KERNEL(KernelDefBuilder("SessionTestPollUntilCancelled").Device(kDeviceCpu),
                PollUntilCancelledOp);

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

// A TF1 counter: v = VariableV2 [] float, init = Assign(v, 0), inc = AssignAdd(v, 1, use_locking).
constexpr char kCounter[] = R"(
  node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'shape' value { shape {} } } }
  node { name: 'zero' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 0 } } } }
  node { name: 'one' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
  node { name: 'init' op: 'Assign' input: 'v' input: 'zero' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'inc' op: 'AssignAdd' input: 'v' input: 'one' attr { key: 'T' value { type: DT_FLOAT } }
         attr { key: 'use_locking' value { b: true } } }
  node { name: 'read' op: 'Identity' input: 'v' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'read_after_inc' op: 'Identity' input: 'v' input: '^inc'
         attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'shape' value { shape { dim { size: -1 } dim { size: 2 } } } } }
  node { name: 'y' op: 'Identity' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
  node { name: 'block' op: 'SessionTestBlock' }
)";

std::unique_ptr<Session> NewCounterSession(ConfigProto config = ConfigProto()) {
  SessionOptions options;
  options.config = config;
  auto s = Session::New(options);
  EXPECT_THAT(s, IsOk());
  EXPECT_THAT((*s)->Create(Parse(kCounter)), IsOk());
  return std::move(s).value();
}

float ReadV(Session& s) {
  std::vector<Tensor> out;
  EXPECT_THAT(s.Run({}, {"read"}, {}, &out), IsOk());
  return out.empty() ? -1 : out[0].flat<float>()[0];
}

TEST(SessionTest, UninitializedVariableFailsWithTensorFlowsText) {
  auto s = NewCounterSession();
  std::vector<Tensor> out;
  EXPECT_THAT(s->Run({}, {"read"}, {}, &out),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Attempting to use uninitialized value v")));
}

TEST(SessionTest, VariablesPersistAcrossRunsAndFailedRuns) {
  auto s = NewCounterSession();
  std::vector<Tensor> out;
  RILL_ASSERT_OK(s->Run({}, {}, {"init"}, &out));
  RILL_ASSERT_OK(s->Run({}, {}, {"inc"}, &out));
  RILL_ASSERT_OK(s->Run({}, {}, {"inc"}, &out));
  EXPECT_THAT(s->Run({}, {"y"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("You must feed a value for placeholder tensor 'x' with dtype "
                                 "float and shape [?,2]")));
  EXPECT_EQ(ReadV(*s), 2.0f);
}

TEST(SessionTest, FetchingTheVariableItselfReturnsACopy) {
  auto s = NewCounterSession();
  std::vector<Tensor> out, fetched;
  RILL_ASSERT_OK(s->Run({}, {}, {"init"}, &out));
  RILL_ASSERT_OK(s->Run({}, {"v"}, {}, &fetched));
  RILL_ASSERT_OK(s->Run({}, {}, {"inc"}, &out));  // AssignAdd updates the variable in place
  EXPECT_EQ(fetched[0].flat<float>()[0], 0.0f);
  EXPECT_EQ(ReadV(*s), 1.0f);
}

// TensorFlow reads a variable when its reader runs: a read ordered after an update by a control
// edge sees the updated value in the same run.
TEST(SessionTest, AReadAfterAnUpdateInTheSameRunSeesTheUpdate) {
  auto s = NewCounterSession();
  std::vector<Tensor> out;
  RILL_ASSERT_OK(s->Run({}, {}, {"init"}, &out));
  RILL_ASSERT_OK(s->Run({}, {"read_after_inc"}, {}, &out));
  EXPECT_EQ(out[0].flat<float>()[0], 1.0f);
  RILL_ASSERT_OK(s->Run({}, {"read_after_inc"}, {}, &out));
  EXPECT_EQ(out[0].flat<float>()[0], 2.0f);
}

TEST(SessionTest, ConcurrentAssignAddWithLockingIsExact) {
  auto s = NewCounterSession();
  std::vector<Tensor> out;
  RILL_ASSERT_OK(s->Run({}, {}, {"init"}, &out));
  constexpr int kThreads = 8, kRuns = 500;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      std::vector<Tensor> o;
      for (int i = 0; i < kRuns; ++i) failures += !s->Run({}, {}, {"inc"}, &o).ok();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(ReadV(*s), static_cast<float>(kThreads * kRuns));
}

TEST(SessionTest, FeedAndFetchErrorsUseTensorFlowsTexts) {
  auto s = NewCounterSession();
  std::vector<Tensor> out;
  Tensor x = Tensor::FromVector<float>({1, 2}, TensorShape({1, 2}));
  EXPECT_THAT(s->Run({{"x", x}}, {"x:0"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument, "x:0 is both fed and fetched."));
  EXPECT_THAT(s->Run({{"x", x}, {"x:0", x}}, {"y"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument, "Endpoint \"x:0\" fed more than once."));
  EXPECT_THAT(s->Run({}, {"nope"}, {}, &out),
              StatusIs(absl::StatusCode::kNotFound, "FetchOutputs node nope:0: not found"));
  EXPECT_THAT(s->Run({{"q", x}}, {"y"}, {}, &out),
              StatusIs(absl::StatusCode::kNotFound, "FeedInputs: unable to find feed output q:0"));
  EXPECT_THAT(s->Run({}, {}, {"t1", "t2"}, &out),
              StatusIs(absl::StatusCode::kNotFound,
                       "PruneForTargets: Some target nodes not found: t1 t2 "));
  EXPECT_THAT(s->Run({}, {}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Must specify at least one target to fetch or execute."));
  EXPECT_THAT(s->Run({{"x", Tensor::Scalar<int32_t>(1)}}, {"y"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expects arg[0] to be float but int32 is provided"));
  EXPECT_THAT(
      s->Run({{"x", Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))}}, {"y"}, {}, &out),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Cannot feed value of shape [3] for Tensor x:0, which has shape "
                         "[?,2]")));
  // After all these failures the session still runs.
  RILL_ASSERT_OK(s->Run({{"x", x}}, {"y", "y:0"}, {}, &out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_THAT(out[1].flat<float>(), ElementsAre(1, 2));
}

TEST(SessionTest, FeedShapeCheckCanBeTurnedOff) {
  SessionOptions options;
  options.check_feed_shapes = false;
  auto s = Session::New(options);
  RILL_ASSERT_OK(s.status());
  RILL_ASSERT_OK((*s)->Create(Parse(kCounter)));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(
      (*s)->Run({{"x", Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))}}, {"y"}, {}, &out));
  EXPECT_EQ(out[0].shape(), TensorShape({3}));
}

TEST(SessionTest, TimeoutIsDeadlineExceededAndSessionStaysUsable) {
  auto s = NewCounterSession();
  RunOptions opts;
  opts.set_timeout_in_ms(50);
  std::vector<Tensor> out;
  auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(s->Run(opts, {}, {"block"}, {}, &out, nullptr),
              StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  RILL_ASSERT_OK(s->Run({}, {}, {"init"}, &out));
  EXPECT_EQ(ReadV(*s), 0.0f);
}

// outputs may be null, as in TensorFlow: the fetch runs (here it raises the counter) and its value
// is dropped.
TEST(SessionTest, RunWithoutAnOutputsVectorDropsTheFetchedValues) {
  auto s = NewCounterSession();
  std::vector<Tensor> out;
  RILL_ASSERT_OK(s->Run({}, {}, {"init"}, &out));
  RILL_ASSERT_OK(s->Run({}, {"inc"}, {}, nullptr));
  RILL_ASSERT_OK(s->Run(RunOptions(), {}, {"inc"}, {}, nullptr, nullptr));
  EXPECT_EQ(ReadV(*s), 2.0f);
}

TEST(SessionTest, OperationTimeoutFromConfig) {
  ConfigProto config;
  config.set_operation_timeout_in_ms(30);
  auto s = NewCounterSession(config);
  std::vector<Tensor> out;
  EXPECT_THAT(s->Run({}, {"block"}, {}, &out),
              StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"));
}

// A step still running at the deadline is DeadlineExceeded even when its kernel ignores the
// cancellation and finishes before Run looks at the clock again (TensorFlow's wait times out
// too); the next run without a deadline, whose kernel runs on the calling thread, gives the value.
TEST(SessionTest, TimeoutCoversKernelsRunInlineOnTheCaller) {
  auto s = Session::New(SessionOptions());
  RILL_ASSERT_OK(s.status());
  RILL_ASSERT_OK((*s)->Create(Parse("node { name: 'slow' op: 'SessionTestSlowInline' }")));
  RunOptions opts;
  opts.set_timeout_in_ms(20);
  std::vector<Tensor> out;
  EXPECT_THAT((*s)->Run(opts, {}, {"slow"}, {}, &out, nullptr),
              StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"));
  RILL_ASSERT_OK((*s)->Run({}, {"slow"}, {}, &out));
  EXPECT_EQ(out[0].flat<float>()[0], 1.0f);
}

// A kernel ready when the step starts, which runs until its step is cancelled, is cancelled at the
// deadline (at 1 and 4 inter-op threads): Run does not run it on the calling thread, which must
// stay free to cancel the step. The session stays usable.
TEST(SessionTest, TimeoutCancelsAKernelReadyAtTheStepsStart) {
  for (int threads : {1, 4}) {
    SessionOptions options;
    options.config.set_inter_op_parallelism_threads(threads);
    auto s = Session::New(options);
    RILL_ASSERT_OK(s.status());
    RILL_ASSERT_OK(
        (*s)->Create(Parse("node { name: 'poll' op: 'SessionTestPollUntilCancelled' }")));
    g_polling_op_saw_cancel = false;
    RunOptions opts;
    opts.set_timeout_in_ms(50);
    std::vector<Tensor> out;
    EXPECT_THAT((*s)->Run(opts, {}, {"poll"}, {}, &out, nullptr),
                StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"))
        << threads << " threads";
    EXPECT_TRUE(g_polling_op_saw_cancel) << threads << " threads";
    g_polling_op_saw_cancel = false;
    EXPECT_THAT(
        (*s)->Run(opts, {}, {"poll"}, {}, &out, nullptr),
        StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"));
    EXPECT_TRUE(g_polling_op_saw_cancel) << threads << " threads, second run";
  }
}

TEST(SessionTest, CloseCancelsRunsInFlightAndRefusesLaterOnes) {
  auto s = NewCounterSession();
  absl::Status result;
  std::thread runner([&] {
    std::vector<Tensor> out;
    result = s->Run({}, {"block"}, {}, &out);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  RILL_ASSERT_OK(s->Close());
  runner.join();
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kCancelled, "Run call was cancelled"));
  std::vector<Tensor> out;
  EXPECT_THAT(s->Run({}, {"read"}, {}, &out),
              StatusIs(absl::StatusCode::kCancelled, "Session has been closed."));
}

// A step's large buffers (Neg's 256 KiB output, freed once Sum has read it) are kept by
// CpuAllocator for reuse; closing or destroying the session gives them back (session/heap_trim.h).
TEST(SessionTest, CloseAndDestructionReleaseTheAllocatorsKeptBlocks) {
  using allocator_internal::LargeBlockCacheKeptBytesForTesting;
  const GraphDef graph = Parse(R"(
    node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node { name: 'neg' op: 'Neg' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'axis' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
           attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
    node { name: 'sum' op: 'Sum' input: 'neg' input: 'axis' attr { key: 'T' value { type: DT_FLOAT } }
           attr { key: 'Tidx' value { type: DT_INT32 } } })");
  Tensor x(DT_FLOAT, TensorShape({65536}));
  for (int64_t i = 0; i < x.NumElements(); ++i) x.flat<float>()[i] = 1.0f;
  for (const bool close : {true, false}) {
    SCOPED_TRACE(close ? "Close" : "destructor");
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> s, Session::New(SessionOptions()));
    RILL_ASSERT_OK(s->Create(graph));
    std::vector<Tensor> out;
    RILL_ASSERT_OK(s->Run({{"x:0", x}}, {"sum:0"}, {}, &out));
    EXPECT_EQ(out[0].flat<float>()[0], -65536.0f);
#if !defined(__SANITIZE_ADDRESS__)  // the cache is off under AddressSanitizer
    EXPECT_GE(LargeBlockCacheKeptBytesForTesting(), int64_t{256} << 10);
#endif
    if (close) {
      RILL_ASSERT_OK(s->Close());
    } else {
      s.reset();
    }
    EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  }
}

TEST(SessionTest, SecondCreateIsAlreadyExistsAndCpuCountZeroFails) {
  auto s = NewCounterSession();
  EXPECT_THAT(s->Create(Parse(kCounter)),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       "A Graph has already been created for this session."));
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = 0;
  EXPECT_THAT(Session::New(options), StatusIs(absl::StatusCode::kNotFound,
                                              "No CPU devices are available in this process"));
}

TEST(SessionTest, UnknownOpFailsOnlyRunsThatNeedIt) {
  SessionOptions options;
  auto s = Session::New(options);
  RILL_ASSERT_OK(s.status());
  RILL_ASSERT_OK((*s)->Create(
      Parse(std::string(kCounter) + "node { name: 'save' op: 'SaveV2Unknown' input: 'v' }")));
  std::vector<Tensor> out;
  RILL_ASSERT_OK((*s)->Run({}, {}, {"init"}, &out));
  EXPECT_THAT(
      (*s)->Run({}, {}, {"save"}, &out),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("Op type not registered 'SaveV2Unknown'")));
}

TEST(SessionTest, ControlEdgesOfAFedPlaceholderWaitForTheFeed) {
  // 'after' waits on x by a control edge; feeding x must not run the Placeholder (which would
  // fail unfed), as in TensorFlow.
  SessionOptions options;
  auto s = Session::New(options);
  RILL_ASSERT_OK(s.status());
  RILL_ASSERT_OK((*s)->Create(Parse(std::string(kCounter) + R"(
    node { name: 'after' op: 'Identity' input: 'zero' input: '^x'
           attr { key: 'T' value { type: DT_FLOAT } } })")));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(
      (*s)->Run({{"x:0", Tensor(DT_FLOAT, TensorShape({1, 2}))}}, {"after:0"}, {}, &out));
  EXPECT_EQ(out[0].flat<float>()[0], 0.f);
  EXPECT_THAT((*s)->Run({}, {"after:0"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("You must feed a value for placeholder tensor 'x'")));
}

// Two fake GPUs: ListDevices reports them with TensorFlow's attributes, and since Rill registers
// no GPU kernel yet, an unpinned MatMul stays on CPU:0 and says why; a GPU request fails with
// TensorFlow's "no supported kernel for GPU devices" unless soft placement is on.
TEST(SessionTest, InjectedGpusAreListedButNodesWithoutGpuKernelsStayOnCpu) {
  SessionOptions options;
  options.gpus.emplace();
  for (int i = 0; i < 2; ++i) {
    PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.pci_bus_id = "0000:0" + std::to_string(i) + ":00.0";
    gpu.compute_major = 9;
    gpu.total_memory_bytes = int64_t{80} << 30;
    gpu.free_memory_bytes = int64_t{80} << 30;
    options.gpus->push_back(gpu);
  }
  options.config.mutable_gpu_options()->set_per_process_gpu_memory_fraction(0.5);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(options));
  std::vector<std::string> names;
  for (const DeviceAttributes& d : session->ListDevices()) names.push_back(d.name());
  EXPECT_THAT(names, ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0",
                                 "/job:localhost/replica:0/task:0/device:GPU:0",
                                 "/job:localhost/replica:0/task:0/device:GPU:1"));
  EXPECT_EQ(session->ListDevices()[2].memory_limit(), int64_t{40} << 30);
  EXPECT_EQ(session->ListDevices()[2].physical_device_desc(),
            "device: 1, name: NVIDIA H100 80GB HBM3, pci bus id: 0000:01:00.0, compute "
            "capability: 9.0");

  constexpr char kMatMul[] = R"(
    node { name: 'a' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
           attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 }
           dim { size: 1 } } float_val: 3 } } } }
    node { name: 'm' op: 'MatMul' input: 'a' input: 'a' DEVICE
           attr { key: 'T' value { type: DT_FLOAT } } })";
  auto graph = [&](const std::string& device) {
    std::string text = kMatMul;
    text.replace(text.find("DEVICE"), 6, device);
    return Parse(text);
  };
  ASSERT_THAT(session->Create(graph("")), IsOk());
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({}, {"m:0"}, {}, &out), IsOk());
  EXPECT_EQ(out[0].flat<float>()[0], 9.0f);
  EXPECT_THAT(session->ExplainPlacement(),
              HasSubstr("m (MatMul) -> /job:localhost/replica:0/task:0/device:CPU:0: default: "
                        "highest-priority device with a kernel (GPU > CPU); no GPU kernel for "
                        "these types"));

  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> strict, Session::New(options));
  EXPECT_THAT(strict->Create(graph("device: '/device:GPU:1'")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Cannot assign a device for operation m: Could not satisfy "
                                 "explicit device specification '/device:GPU:1' because no "
                                 "supported kernel for GPU devices is available.")));
  options.config.set_allow_soft_placement(true);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> soft, Session::New(options));
  ASSERT_THAT(soft->Create(graph("device: '/device:GPU:1'")), IsOk());
  EXPECT_THAT(soft->PlacementLog(),
              HasSubstr("m: (MatMul): /job:localhost/replica:0/task:0/device:CPU:0"));
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

// FULL_TRACE step stats say what each node allocated: its outputs (dtype, shape, bytes,
// allocator) and, per allocator, the bytes it made and the allocator's bytes in use afterwards.
// A node that forwards its input's buffer (Reshape) allocates nothing.
TEST(SessionTest, FullTraceRecordsEachNodesAllocations) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(SessionOptions()));
  ASSERT_THAT(session->Create(Parse(R"(
    node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node { name: 'sum' op: 'Add' input: 'x' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'flat' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
           attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } }
           int_val: 6 } } } }
    node { name: 'same' op: 'Reshape' input: 'sum' input: 'flat'
           attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tshape' value { type: DT_INT32 } } })")),
              IsOk());
  RunOptions run_options;
  run_options.set_trace_level(RunOptions::FULL_TRACE);
  RunMetadata metadata;
  std::vector<Tensor> out;
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  ASSERT_THAT(session->Run(run_options, {{"x:0", x}}, {"same:0"}, {}, &out, &metadata), IsOk());
  const NodeExecStats* sum = nullptr;
  const NodeExecStats* same = nullptr;
  for (const DeviceStepStats& dev : metadata.step_stats().dev_stats()) {
    EXPECT_EQ(dev.device(), "/job:localhost/replica:0/task:0/device:CPU:0");
    for (const NodeExecStats& ns : dev.node_stats()) {
      if (ns.node_name() == "sum") sum = &ns;
      if (ns.node_name() == "same") same = &ns;
    }
  }
  ASSERT_NE(sum, nullptr);
  ASSERT_NE(same, nullptr);
  ASSERT_EQ(sum->output_size(), 1);
  const TensorDescription& td = sum->output(0).tensor_description();
  EXPECT_EQ(sum->output(0).slot(), 0);
  EXPECT_EQ(td.dtype(), DT_FLOAT);
  ASSERT_EQ(td.shape().dim_size(), 2);
  EXPECT_EQ(td.shape().dim(1).size(), 3);
  EXPECT_EQ(td.allocation_description().requested_bytes(), 24);
  EXPECT_EQ(td.allocation_description().allocator_name(), "cpu");
  ASSERT_EQ(sum->memory_size(), 1);
  EXPECT_EQ(sum->memory(0).allocator_name(), "cpu");
  EXPECT_EQ(sum->memory(0).total_bytes(), 24);
  EXPECT_GE(sum->memory(0).allocator_bytes_in_use(), 24);
  ASSERT_EQ(same->memory_size(), 1);
  EXPECT_EQ(same->memory(0).total_bytes(), 0);
  EXPECT_EQ(same->output(0).tensor_description().allocation_description().ptr(),
            td.allocation_description().ptr());
}

// Partition graphs come back by default; experimental.disable_output_partition_graphs keeps none
// (the executors hold what they run) and refuses a Run asking for them with TensorFlow's text,
// before the step runs.
TEST(SessionTest, PartitionGraphsAreKeptUnlessDisabled) {
  for (bool disabled : {false, true}) {
    SCOPED_TRACE(disabled ? "disabled" : "kept");
    ConfigProto config;
    config.mutable_experimental()->set_disable_output_partition_graphs(disabled);
    std::unique_ptr<Session> s = NewCounterSession(config);
    std::vector<Tensor> out;
    ASSERT_THAT(s->Run({}, {}, {"init"}, &out), IsOk());
    RunOptions run_options;
    run_options.set_output_partition_graphs(true);
    RunMetadata metadata;
    const absl::Status status = s->Run(run_options, {}, {"read_after_inc"}, {}, &out, &metadata);
    if (!disabled) {
      ASSERT_THAT(status, IsOk());
      ASSERT_EQ(metadata.partition_graphs_size(), 1);
      bool has_one = false;
      for (const NodeDef& n : metadata.partition_graphs(0).node()) has_one |= n.name() == "one";
      EXPECT_TRUE(has_one);
      EXPECT_EQ(ReadV(*s), 1.f);
      continue;
    }
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument,
                                 "RunOptions.output_partition_graphs() is not supported when "
                                 "disable_output_partition_graphs is true."));
    EXPECT_EQ(ReadV(*s), 0.f);  // refused before the step ran
    ASSERT_THAT(s->Run({}, {"read_after_inc"}, {}, &out), IsOk());
    EXPECT_EQ(out[0].flat<float>()[0], 1.f);
    ASSERT_THAT(s->Run({}, {"read_after_inc"}, {}, &out), IsOk());
    EXPECT_EQ(out[0].flat<float>()[0], 2.f);
  }
}

// Device filters must parse as device names and a session_metadata version must not be negative,
// as TensorFlow's DeviceFactory::AddDevices and DirectSession check them (their texts).
TEST(SessionTest, DeviceFiltersAndSessionMetadataAreChecked) {
  for (const char* good : {"", "/device:CPU:0", "/job:localhost/replica:0/task:0", "GPU:0"}) {
    SessionOptions options;
    options.config.add_device_filters(good);
    EXPECT_THAT(Session::New(options).status(), IsOk()) << good;
  }
  SessionOptions options;
  options.config.add_device_filters("/device:CPU:0");
  options.config.add_device_filters("/job:localhost/replica:x/task:-1");
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Invalid device filter: /job:localhost/replica:x/task:-1"));
  SessionOptions metadata;
  metadata.config.mutable_experimental()->mutable_session_metadata()->set_name("m");
  metadata.config.mutable_experimental()->mutable_session_metadata()->set_version(-5);
  EXPECT_THAT(Session::New(metadata).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Session version shouldn't be negative: name: \"m\" version: -5"));
  metadata.config.mutable_experimental()->mutable_session_metadata()->set_version(0);
  EXPECT_THAT(Session::New(metadata).status(), IsOk());
}

// ConfigProto.experimental.executor_type names one of TensorFlow's executor factories; any
// other is TensorFlow's NotFound.
TEST(SessionTest, UnknownExecutorTypeIsNotFound) {
  for (const char* known : {"", "DEFAULT", "SINGLE_THREADED_EXECUTOR"}) {
    ConfigProto config;
    config.mutable_experimental()->set_executor_type(known);
    std::unique_ptr<Session> s = NewCounterSession(config);
    std::vector<Tensor> out;
    ASSERT_THAT(s->Run({}, {}, {"init"}, &out), IsOk());
    EXPECT_EQ(ReadV(*s), 0.f);
  }
  SessionOptions options;
  options.config.mutable_experimental()->set_executor_type("FANCY");
  EXPECT_THAT(Session::New(options),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("No executor factory registered for the given executor type: "
                                 "FANCY Registered factories are {")));
}

// session_inter_op_thread_pool makes one pool per entry; RunOptions.inter_op_thread_pool picks
// one per step (-1 is the first), checked by the name of the thread that ran a kernel; an index
// past them is TensorFlow's InvalidArgument.
TEST(SessionTest, SessionInterOpThreadPoolsArePickedPerStep) {
  ConfigProto config;
  config.add_session_inter_op_thread_pool()->set_num_threads(1);
  ThreadPoolOptionProto* shared = config.add_session_inter_op_thread_pool();
  shared->set_num_threads(2);
  shared->set_global_name("session_test_shared_pool");
  std::unique_ptr<Session> s = NewCounterSession(config);
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({}, {}, {"init"}, &out), IsOk());
  for (int pool : {-1, 0, 1}) {
    RunOptions run_options;
    run_options.set_inter_op_thread_pool(pool);
    ASSERT_THAT(s->Run(run_options, {}, {"read_after_inc"}, {}, &out, nullptr), IsOk());
  }
  EXPECT_EQ(out[0].flat<float>()[0], 3.f);
  // Which pool ran the step: entry i's own pool names its threads "rill_inter_op_<i>", a pool
  // with a global_name after that name (truncated to Linux's 15 characters).
  SessionOptions options;
  options.config = config;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> who, Session::New(options));
  ASSERT_THAT(who->Create(Parse("node { name: 'who' op: 'SessionTestThreadName' }")), IsOk());
  for (const auto& [pool, thread] : std::vector<std::pair<int, std::string>>{
           {-1, "rill_inter_op_0"}, {0, "rill_inter_op_0"}, {1, "rill_session_te"}}) {
    for (int step = 0; step < 3; ++step) {
      RunOptions run_options;
      run_options.set_inter_op_thread_pool(pool);
      ASSERT_THAT(who->Run(run_options, {}, {"who"}, {}, &out, nullptr), IsOk());
      EXPECT_EQ(out[0].flat<std::string>()[0], thread) << "pool " << pool << ", step " << step;
    }
  }
  for (int pool : {2, -2}) {
    RunOptions run_options;
    run_options.set_inter_op_thread_pool(pool);
    EXPECT_THAT(s->Run(run_options, {}, {"read_after_inc"}, {}, &out, nullptr),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr(absl::StrCat("Invalid inter_op_thread_pool: ", pool))));
  }
  EXPECT_EQ(ReadV(*s), 3.f);  // refused before the step ran
  std::unique_ptr<Session> one_pool = NewCounterSession();
  RunOptions run_options;
  run_options.set_inter_op_thread_pool(1);
  EXPECT_THAT(one_pool->Run(run_options, {}, {"read"}, {}, &out, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid inter_op_thread_pool: 1 (this session has 1 inter-op "
                                 "pool")));
  SessionOptions too_big;
  too_big.config.add_session_inter_op_thread_pool()->set_num_threads(5000);
  EXPECT_THAT(Session::New(too_big),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("session_inter_op_thread_pool num_threads is 5000")));
}

// The heap is trimmed for the first signature built after Create or Extend, not at every new
// signature (malloc_trim locks every arena; session/heap_trim.h).
TEST(SessionTest, HeapIsTrimmedOncePerCreateOrExtend) {
  std::unique_ptr<Session> s = NewCounterSession();
  const int64_t created = HeapTrimCount();
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({}, {}, {"init"}, &out), IsOk());
  EXPECT_EQ(HeapTrimCount(), created + 1);
  ASSERT_THAT(s->Run({}, {"read"}, {}, &out), IsOk());
  ASSERT_THAT(s->Run({}, {"read_after_inc"}, {}, &out), IsOk());
  ASSERT_THAT(s->Run({}, {}, {"init"}, &out), IsOk());
  EXPECT_EQ(HeapTrimCount(), created + 1);
  ASSERT_THAT(s->Extend(Parse("node { name: 'read2' op: 'Identity' input: 'v' "
                              "attr { key: 'T' value { type: DT_FLOAT } } }")),
              IsOk());
  ASSERT_THAT(s->Run({}, {"read2"}, {}, &out), IsOk());
  ASSERT_THAT(s->Run({}, {"read"}, {}, &out), IsOk());
  EXPECT_EQ(HeapTrimCount(), created + 2);
}

TEST(SessionTest, MemoryStatsListEveryDeviceWithItsAllocator) {
  SessionOptions options;
  options.config.mutable_device_count()->insert({"CPU", 2});
  options.gpus.emplace();  // no GPU
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(options));
  std::vector<DeviceMemoryStats> stats = session->MemoryStats();
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[1].device, "/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_EQ(stats[1].allocator, "cpu");
  EXPECT_GE(stats[1].stats.num_allocs, 0);
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

// Elementwise kernels write in place into an input only their own slots hold: a chain of 50
// Negs allocates (almost) nothing, while a fed tensor, a tensor with another consumer and a
// variable are never overwritten.
TEST(SessionTest, InPlaceElementwiseNeverTouchesSharedTensors) {
  std::string text = R"(
    node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }
           attr { key: 'shape' value { shape { dim { size: 2 } } } } }
    node { name: 'init' op: 'Assign' input: 'v' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'twice' op: 'Add' input: 'x' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'plus_v' op: 'Add' input: 'v' input: 'twice' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'neg_0' op: 'Neg' input: 'twice' attr { key: 'T' value { type: DT_FLOAT } } })";
  for (int i = 1; i < 50; ++i) {
    text += "node { name: 'neg_" + std::to_string(i) + "' op: 'Neg' input: 'neg_" +
            std::to_string(i - 1) + "' attr { key: 'T' value { type: DT_FLOAT } } }\n";
  }
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(SessionOptions()));
  ASSERT_THAT(session->Create(Parse(text)), IsOk());
  const Tensor x = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({{"x:0", x}}, {}, {"init"}, &out), IsOk());
  // 'twice' feeds neg_0, plus_v and a fetch: none of them may change it.
  ASSERT_THAT(session->Run({{"x:0", x}}, {"twice:0", "plus_v:0", "neg_49:0", "v:0"}, {}, &out),
              IsOk());
  EXPECT_THAT(out[0].flat<float>(), ElementsAre(2, 4));
  EXPECT_THAT(out[1].flat<float>(), ElementsAre(3, 6));
  EXPECT_THAT(out[2].flat<float>(), ElementsAre(2, 4));  // 50 negations
  EXPECT_THAT(out[3].flat<float>(), ElementsAre(1, 2));  // the variable kept its value
  EXPECT_THAT(x.flat<float>(), ElementsAre(1, 2));       // and the feed its own
  // Only neg_49 fetched: the 50 Negs reuse one buffer.
  const int64_t before = CpuAllocator::Default()->GetStats().num_allocs;
  ASSERT_THAT(session->Run({{"x:0", x}}, {"neg_49:0"}, {}, &out), IsOk());
  const int64_t allocations = CpuAllocator::Default()->GetStats().num_allocs - before;
  EXPECT_THAT(out[0].flat<float>(), ElementsAre(2, 4));
  EXPECT_LT(allocations, 10) << "the Neg chain should run in place";
}

// AddN may sum into its first input's buffer, but not when that tensor is also a later input:
// its passes would read what an earlier pass overwrote, and the sum would come out wrong.
TEST(SessionTest, AddNOfARepeatedTensorHeldOnlyByItIsExact) {
  std::string text = R"(
    node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node { name: 'y' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node { name: 'n' op: 'Neg' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'three' op: 'AddN' input: 'n' input: 'n' input: 'n'
           attr { key: 'N' value { i: 3 } } attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'm' op: 'Neg' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'mixed' op: 'AddN' input: 'm' input: 'y' input: 'm' input: 'y' input: 'y'
           input: 'm' attr { key: 'N' value { i: 6 } } attr { key: 'T' value { type: DT_FLOAT } } })";
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(SessionOptions()));
  ASSERT_THAT(session->Create(Parse(text)), IsOk());
  const Tensor x = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  const Tensor y = Tensor::FromVector<float>({10, 20, 30}, TensorShape({3}));
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({{"x:0", x}, {"y:0", y}}, {"three:0"}, {}, &out), IsOk());
  EXPECT_THAT(out[0].flat<float>(), ElementsAre(-3, -6, -9));
  ASSERT_THAT(session->Run({{"x:0", x}, {"y:0", y}}, {"mixed:0"}, {}, &out), IsOk());
  EXPECT_THAT(out[0].flat<float>(), ElementsAre(27, 54, 81));  // 3 * -x + 3 * y
}

}  // namespace
}  // namespace rill
