// GPU memory options end to end, on simulated GPUs (injected PhysicalGpus; the real-GPU run of
// the same options is in the GPU checks): what each option reserves when the session is created,
// the per-process rule across sessions, and memory staying reserved after a session closes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/gpu/cuda_probe.h"
#include "core/gpu/gpu_process_state.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "ops/op_registry.h"
#include "session/session.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGiB = int64_t{1} << 30;

// A test-only GPU kernel (Rill's real GPU kernels come with the GPU runtime): fills an output of
// `n` floats allocated from its device's allocator, so a run exercises GPU_0_bfc on a simulated
// GPU (host memory behind it).
REGISTER_OP("GpuMemoryTestFill").Output("out: float").Attr("n: int");
class GpuMemoryTestFillOp final : public OpKernel {
 public:
  explicit GpuMemoryTestFillOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    int64_t n = 0;
    for (const auto& [name, value] : def().attr()) {
      if (name == "n") n = value.i();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({n})));
    for (float& v : out->flat<float>()) v = 1.0f;
    return absl::OkStatus();
  }
};
REGISTER_KERNEL(KernelDefBuilder("GpuMemoryTestFill").Device(kDeviceGpu), GpuMemoryTestFillOp);
// The same kernel with its output declared in host memory (as a GPU Shape's): the executor must
// allocate it from the host allocator, not from GPU_0_bfc.
REGISTER_OP("GpuHostOutputTestFill").Output("out: float").Attr("n: int");
REGISTER_KERNEL(KernelDefBuilder("GpuHostOutputTestFill").Device(kDeviceGpu).HostMemory("out"),
                GpuMemoryTestFillOp);

SessionOptions Options(const std::string& config_text, int num_gpus,
                       GpuProcessState* state = nullptr) {
  SessionOptions options;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(config_text, &options.config));
  options.gpus.emplace();
  for (int i = 0; i < num_gpus; ++i) {
    PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.pci_bus_id = "0000:0" + std::to_string(i) + ":00.0";
    gpu.compute_major = 9;
    gpu.total_memory_bytes = 80 * kGiB;
    gpu.free_memory_bytes = 79 * kGiB;
    options.gpus->push_back(gpu);
  }
  options.gpu_process_state = state;
  return options;
}

// GPU:0's stats (devices are CPU:0 then GPUs).
AllocatorStats Gpu0Stats(const Session& session) {
  std::vector<DeviceMemoryStats> stats = session.MemoryStats();
  EXPECT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[1].device, "/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_EQ(stats[1].allocator, "GPU_0_bfc");
  return stats[1].stats;
}

TEST(GpuMemoryOptionsTest, DefaultGrowthAndFractionReserveWhatTheSeedsDescribe) {
  // Default: all free memory but the 1536 MiB TensorFlow leaves for compute capability 9,
  // reserved when the session is created.
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> by_default, Session::New(Options("", 1)));
  EXPECT_EQ(Gpu0Stats(*by_default).bytes_reserved, 79 * kGiB - 1536 * kMiB);
  EXPECT_EQ(Gpu0Stats(*by_default).bytes_limit, 79 * kGiB - 1536 * kMiB);
  // allow_growth: nothing until tensors need it.
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> growth,
                            Session::New(Options("gpu_options { allow_growth: true }", 1)));
  EXPECT_EQ(Gpu0Stats(*growth).bytes_reserved, 0);
  EXPECT_EQ(Gpu0Stats(*growth).bytes_limit, 79 * kGiB - 1536 * kMiB);
  // A fraction is of total memory: 0.4 x 80 GiB = 32 GiB.
  RILL_ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<Session> fraction,
      Session::New(Options("gpu_options { per_process_gpu_memory_fraction: 0.4 }", 1)));
  EXPECT_EQ(Gpu0Stats(*fraction).bytes_reserved, 32 * kGiB);
  EXPECT_EQ(fraction->ListDevices()[1].memory_limit(), 32 * kGiB);
  // The CPU device reports the process's host allocator.
  EXPECT_EQ(fraction->MemoryStats()[0].allocator, "cpu");
}

TEST(GpuMemoryOptionsTest, ForceAllowGrowthVariableOverridesTheConfig) {
  setenv("TF_FORCE_GPU_ALLOW_GROWTH", "true", 1);
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(Options("", 1));
  unsetenv("TF_FORCE_GPU_ALLOW_GROWTH");
  ASSERT_THAT(session, IsOk());
  EXPECT_EQ(Gpu0Stats(**session).bytes_reserved, 0);
}

TEST(GpuMemoryOptionsTest, FourVirtualGpusOnOneStandInForTheSeedsFour) {
  RILL_ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<Session> session,
      Session::New(Options("gpu_options { experimental { virtual_devices { memory_limit_mb: "
                           "[1024, 1024, 1024, 1024] } } }",
                           1)));
  std::vector<DeviceMemoryStats> stats = session->MemoryStats();
  ASSERT_EQ(stats.size(), 5u);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(stats[i].device,
              "/job:localhost/replica:0/task:0/device:GPU:" + std::to_string(i - 1));
    EXPECT_EQ(stats[i].allocator, "GPU_" + std::to_string(i - 1) + "_bfc");
    EXPECT_EQ(stats[i].stats.bytes_reserved, 1024 * kMiB);
  }
}

TEST(GpuMemoryOptionsTest, LaterSessionsMustAskForTheFirstSessionsOptions) {
  GpuProcessState process(GpuProcessState::Memory::kSimulated);
  const std::string fraction = "gpu_options { per_process_gpu_memory_fraction: 0.4 }";
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> first,
                            Session::New(Options(fraction, 1, &process)));
  // Same options: the allocator (and its reservation) is shared, nothing more is taken.
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> second,
                            Session::New(Options(fraction, 1, &process)));
  EXPECT_EQ(Gpu0Stats(*second).bytes_reserved, 32 * kGiB);
  // Different options: refused, naming both; the first sessions are unaffected.
  EXPECT_THAT(
      Session::New(Options("gpu_options { allow_growth: true }", 1, &process)),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("was set up by an earlier session with {memory: "
                         "per_process_gpu_memory_fraction 0.4, allow_growth: false}, but this "
                         "session asks for {memory: default, allow_growth: true}")));
  // A different visible_device_list maps GPU:0 to another GPU: TensorFlow's AlreadyExists.
  EXPECT_THAT(Session::New(Options("gpu_options { per_process_gpu_memory_fraction: 0.4 "
                                   "visible_device_list: '1' }",
                                   2, &process)),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("TensorFlow device (GPU:0) is being mapped to multiple CUDA "
                                 "devices (1 now, and 0 previously)")));
  // Closing and destroying sessions does not give GPU memory back (TensorFlow's behaviour).
  ASSERT_THAT(first->Close(), IsOk());
  first.reset();
  second.reset();
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> third,
                            Session::New(Options(fraction, 1, &process)));
  EXPECT_EQ(Gpu0Stats(*third).bytes_reserved, 32 * kGiB);
}

TEST(GpuMemoryOptionsTest, AFractionAboveWhatTheGpuHasFailsAtCreationAndSaysWhatToChange) {
  EXPECT_THAT(Session::New(Options("gpu_options { per_process_gpu_memory_fraction: 1.5 }", 1)),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("Could not reserve 122880.0 MiB of GPU memory for /device:GPU:0 "
                                 "(allocator GPU_0_bfc, limit from per_process_gpu_memory_fraction "
                                 "1.5)")));
}

// A session on one simulated GPU limited to 64 MiB, with `graph_text` created (null, and a test
// failure, when either step fails).
std::unique_ptr<Session> SessionOn64MiBGpu(const char* graph_text) {
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(
      Options("gpu_options { experimental { virtual_devices { memory_limit_mb: 64 } } }", 1));
  EXPECT_THAT(session.status(), IsOk());
  GraphDef graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(graph_text, &graph));
  if (!session.ok() || !(*session)->Create(graph).ok()) {
    ADD_FAILURE() << "could not create the session's graph";
    return nullptr;
  }
  return *std::move(session);
}

// An out-of-memory run on a GPU names the node, shape, dtype, device and allocator with its
// figures; a smaller run in the same session then succeeds, and the peak shows in MemoryStats.
TEST(GpuMemoryOptionsTest, OutOfMemoryOnAGpuIsResourceExhaustedAndTheSessionStaysUsable) {
  std::unique_ptr<Session> session = SessionOn64MiBGpu(R"(
    node { name: 'big' op: 'GpuMemoryTestFill' device: '/device:GPU:0'
           attr { key: 'n' value { i: 33554432 } } }
    node { name: 'small' op: 'GpuMemoryTestFill' device: '/device:GPU:0'
           attr { key: 'n' value { i: 1048576 } } })");
  ASSERT_NE(session, nullptr);
  std::vector<Tensor> out;
  EXPECT_THAT(
      session->Run({}, {}, {"big"}, &out),
      StatusIs(absl::StatusCode::kResourceExhausted,
               ::testing::AllOf(
                   HasSubstr("OOM when allocating tensor with shape[33554432] and type float on "
                             "/job:localhost/replica:0/task:0/device:GPU:0 by allocator "
                             "GPU_0_bfc (134217728 bytes) in node big (GpuMemoryTestFill)"),
                   HasSubstr("Limit: 67108864\nInUse: 0\nMaxInUse: 0"),
                   HasSubstr("LargestFreeBlock: 67108864"))));
  ASSERT_THAT(session->Run({}, {}, {"small"}, &out), IsOk());
  const AllocatorStats stats = Gpu0Stats(*session);
  EXPECT_EQ(stats.peak_bytes_in_use, 4 * kMiB);
  EXPECT_EQ(stats.bytes_in_use, 0);  // the output was not fetched: freed after the run
  EXPECT_EQ(stats.bytes_reserved, 64 * kMiB);
}

TEST(GpuMemoryOptionsTest, HostMemoryOutputsOfGpuKernelsComeFromTheHostAllocator) {
  std::unique_ptr<Session> session = SessionOn64MiBGpu(R"(
    node { name: 'host' op: 'GpuHostOutputTestFill' device: '/device:GPU:0'
           attr { key: 'n' value { i: 1048576 } } }
    node { name: 'device' op: 'GpuMemoryTestFill' device: '/device:GPU:0'
           attr { key: 'n' value { i: 1048576 } } })");
  ASSERT_NE(session, nullptr);
  std::vector<Tensor> out;
  CpuAllocator::Default()->ResetPeak();
  const int64_t host_in_use = CpuAllocator::Default()->GetStats().bytes_in_use;
  ASSERT_THAT(session->Run({}, {}, {"host"}, &out), IsOk());
  EXPECT_EQ(Gpu0Stats(*session).peak_bytes_in_use, 0);  // nothing from GPU_0_bfc
  EXPECT_GE(CpuAllocator::Default()->GetStats().peak_bytes_in_use, host_in_use + 4 * kMiB);
  ASSERT_THAT(session->Run({}, {}, {"device"}, &out), IsOk());
  EXPECT_EQ(Gpu0Stats(*session).peak_bytes_in_use, 4 * kMiB);
}

// On a real GPU (skipped without one): what each option reserves, measured by the driver
// (cudaMemGetInfo before and after the session is created). Each mode gets its own process
// state, destroyed afterwards, so the modes do not see each other's reservations.
TEST(GpuMemoryOptionsTest, OnARealGpuTheOptionsChangeWhatTheDriverReportsReserved) {
  std::string why;
  if (CudaDeviceCount(&why) == 0) GTEST_SKIP() << "skipped: no GPU found (" << why << ")";
  struct Mode {
    const char* name;
    const char* config;
  };
  for (const Mode& mode :
       {Mode{"default", ""}, Mode{"allow_growth", "gpu_options { allow_growth: true }"},
        Mode{"fraction 0.4", "gpu_options { per_process_gpu_memory_fraction: 0.4 }"}}) {
    int64_t free_before = 0, free_after = 0, total = 0;
    ASSERT_TRUE(QueryGpuMemory(0, &free_before, &total, &why)) << why;
    GpuProcessState state(GpuProcessState::Memory::kCuda);
    SessionOptions options;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(mode.config, &options.config));
    options.config.mutable_device_count()->insert({"GPU", 1});
    options.gpu_process_state = &state;
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(options));
    ASSERT_TRUE(QueryGpuMemory(0, &free_after, &total, &why)) << why;
    const AllocatorStats stats = session->MemoryStats()[1].stats;
    const int64_t taken = free_before - free_after;
    std::printf(
        "GPU memory, %s: total %lld MiB, free before %lld MiB, after %lld MiB, taken %lld "
        "MiB, GPU_0_bfc reserved %lld MiB of limit %lld MiB\n",
        mode.name, static_cast<long long>(total / kMiB), static_cast<long long>(free_before / kMiB),
        static_cast<long long>(free_after / kMiB), static_cast<long long>(taken / kMiB),
        static_cast<long long>(stats.bytes_reserved / kMiB),
        static_cast<long long>(stats.bytes_limit / kMiB));
    EXPECT_NEAR(static_cast<double>(taken), static_cast<double>(stats.bytes_reserved), 64.0 * kMiB);
    if (std::string(mode.name) == "allow_growth") {
      EXPECT_EQ(stats.bytes_reserved, 0);
    } else if (std::string(mode.name) == "fraction 0.4") {
      EXPECT_EQ(stats.bytes_reserved,
                static_cast<int64_t>(static_cast<double>(total) * 0.4) / 256 * 256);
    } else {
      EXPECT_GT(stats.bytes_reserved, total / 2);
    }
  }
}

}  // namespace
}  // namespace rill
