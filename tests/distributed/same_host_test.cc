// The same-host RecvTensor path between two rill_server processes (distributed/shm_offer.h):
// tensors of every size cross through shared memory bit-identical (the servers' counters say so),
// strings and servers with the path off use the response, and no segment outlives its use: after
// a run, a cancelled run and a killed receiver, only the receiver's pool keeps its segments.
#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "distributed/grpc_session.h"
#include "distributed/shm_segments.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"
#include "session/session.h"
#include "tests/distributed/cluster_fixture.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Session> NewClusterSession(const testing::ClusterFixture& cluster,
                                           int64_t timeout_ms = 60000) {
  SessionOptions options;
  *options.config.mutable_cluster_def() = cluster.cluster();
  options.config.set_operation_timeout_in_ms(timeout_ms);
  options.target = absl::StrCat("grpc://", cluster.address(0));
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

// x (fed on task 0) -> a = Identity(x) on task 1 -> b = Identity(a) on task 0: x crosses to task 1
// and back, each way by RecvTensor.
GraphDef RoundTripGraph(DataType dtype) {
  GraphDef g;
  NodeDef x;
  x.set_name("x");
  x.set_op("Placeholder");
  SetAttr(&x, "dtype", dtype);
  *g.add_node() = x;
  for (const auto& [name, input, task] :
       std::vector<std::tuple<std::string, std::string, int>>{{"a", "x", 1}, {"b", "a", 0}}) {
    NodeDef n;
    n.set_name(name);
    n.set_op("Identity");
    n.add_input(input);
    n.set_device(absl::StrCat("/job:worker/task:", task));
    SetAttr(&n, "T", dtype);
    *g.add_node() = n;
  }
  return g;
}

// Fills `t` with bytes that differ from element to element (NaN payloads and -0 included).
void FillBytes(Tensor* t) {
  auto* p = static_cast<uint8_t*>(t->raw_data());
  for (size_t i = 0; i < t->TotalBytes(); ++i) p[i] = static_cast<uint8_t>(i * 131 + (i >> 8));
}

// Entries of /proc/<pid>/<what> (fd: links, maps: lines) naming a receive segment.
int Segments(pid_t pid, const std::string& what) {
  int n = 0;
  if (what == "maps") {
    std::ifstream maps(absl::StrCat("/proc/", pid, "/maps"));
    std::string line;
    while (std::getline(maps, line)) n += line.find("memfd:rill-recv") != std::string::npos;
    return n;
  }
  const std::string dir = absl::StrCat("/proc/", pid, "/fd");
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return -1;
  while (dirent* e = readdir(d)) {
    char target[256] = {0};
    const std::string path = absl::StrCat(dir, "/", e->d_name);
    if (readlink(path.c_str(), target, sizeof(target) - 1) > 0 &&
        std::strncmp(target, "/memfd:rill-recv", 16) == 0) {
      ++n;
    }
  }
  closedir(d);
  return n;
}

int DevShmEntries() {
  int n = 0;
  DIR* d = opendir("/dev/shm");
  if (d == nullptr) return 0;
  while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

TEST(SameHostTest, TensorsOfEverySizeCrossThroughSharedMemoryBitIdentical) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}, {"--same_host_min_bytes=0"}));
  const int shm_before = DevShmEntries();
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  struct Case {
    DataType dtype;
    int64_t n;
  };
  // 0 B, 1 B, 100 MB and in between; each crosses twice.
  const std::vector<Case> numeric = {
      {DT_FLOAT, 0}, {DT_UINT8, 1}, {DT_DOUBLE, 1000}, {DT_FLOAT, 25 * 1000 * 1000}};
  int graph = 0;
  for (const Case& c : numeric) {
    SCOPED_TRACE(absl::StrCat(DataTypeString(c.dtype), " x ", c.n));
    GraphDef g = RoundTripGraph(c.dtype);
    for (NodeDef& node : *g.mutable_node()) node.set_name(absl::StrCat(node.name(), graph));
    g.mutable_node(1)->set_input(0, absl::StrCat("x", graph));
    g.mutable_node(2)->set_input(0, absl::StrCat("a", graph));
    RILL_ASSERT_OK(graph == 0 ? session->Create(g) : session->Extend(g));
    Tensor x(c.dtype, TensorShape({c.n}));
    FillBytes(&x);
    std::vector<Tensor> out;
    RILL_ASSERT_OK(
        session->Run({{absl::StrCat("x", graph), x}}, {absl::StrCat("b", graph)}, {}, &out));
    ASSERT_EQ(out[0].dtype(), c.dtype);
    ASSERT_EQ(out[0].shape(), x.shape());
    EXPECT_EQ(std::memcmp(out[0].raw_data(), x.raw_data(), x.TotalBytes()), 0);
    ++graph;
  }
  // Strings are host objects: they go in the response.
  GraphDef g = RoundTripGraph(DT_STRING);
  for (NodeDef& node : *g.mutable_node()) node.set_name(node.name() + "s");
  g.mutable_node(1)->set_input(0, "xs");
  g.mutable_node(2)->set_input(0, "as");
  RILL_ASSERT_OK(session->Extend(g));
  Tensor s(DT_STRING, TensorShape({3}));
  s.flat<std::string>()[0] = "";
  s.flat<std::string>()[1] = std::string("a\0b", 3);
  s.flat<std::string>()[2] = std::string(100000, 'z');
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({{"xs", s}}, {"bs"}, {}, &out));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[0].flat<std::string>()[i], s.flat<std::string>()[i]);

  // Only the receivers' pools hold segments; the senders map them for the next tensor.
  for (int task : {0, 1}) {
    EXPECT_LE(Segments(cluster.pid(task), "fd"), distributed::ShmSegments::kMaxIdle);
  }
  EXPECT_EQ(DevShmEntries(), shm_before);  // nothing named in the file system
  RILL_ASSERT_OK(session->Close());
  for (int task : {0, 1}) {
    RILL_ASSERT_OK(cluster.Stop(task));
    EXPECT_THAT(cluster.Output(task),
                HasSubstr("same-host RecvTensor: sent 4 tensors through shared memory, received 4 "
                          "(0 read without mapping)"));
  }
}

TEST(SameHostTest, ServersWithThePathOffUseTheResponse) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}, {"--same_host_transfer=false"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(RoundTripGraph(DT_FLOAT)));
  Tensor x(DT_FLOAT, TensorShape({1000 * 1000}));
  FillBytes(&x);
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({{"x", x}}, {"b"}, {}, &out));
  EXPECT_EQ(std::memcmp(out[0].raw_data(), x.raw_data(), x.TotalBytes()), 0);
  for (int task : {0, 1}) EXPECT_EQ(Segments(cluster.pid(task), "fd"), 0);
  RILL_ASSERT_OK(session->Close());
  for (int task : {0, 1}) {
    RILL_ASSERT_OK(cluster.Stop(task));
    EXPECT_THAT(cluster.Output(task),
                HasSubstr("same-host RecvTensor: sent 0 tensors through shared memory, received 0 "
                          "(0 read without mapping)"));
  }
}

// A chain of [1000, 1000] products on task 1, summed on task 0, which waits for it by RecvTensor
// with a segment offered.
GraphDef SlowGraph(int n) {
  GraphDef g = RoundTripGraph(DT_FLOAT);
  g.mutable_node()->RemoveLast();
  for (int i = 1; i <= n; ++i) {
    NodeDef m;
    m.set_name(absl::StrCat("m", i));
    m.set_op("MatMul");
    m.add_input(i == 1 ? "a" : absl::StrCat("m", i - 1));
    m.add_input("a");
    m.set_device("/job:worker/task:1");
    SetAttr(&m, "T", DT_FLOAT);
    *g.add_node() = m;
  }
  NodeDef b;
  b.set_name("b");
  b.set_op("Identity");
  b.add_input(absl::StrCat("m", n));
  b.set_device("/job:worker/task:0");
  SetAttr(&b, "T", DT_FLOAT);
  *g.add_node() = b;
  return g;
}

TEST(SameHostTest, NoSegmentOutlivesACancelledRunOrAKilledReceiver) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  const int shm_before = DevShmEntries();
  std::unique_ptr<Session> session = NewClusterSession(cluster, /*timeout_ms=*/300);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(SlowGraph(200)));
  Tensor x(DT_FLOAT, TensorShape({1000, 1000}));
  FillBytes(&x);
  x.flat<float>()[0] = 0;  // finite values only
  for (float& v : x.flat<float>()) v = 1e-3f;
  std::vector<Tensor> out;
  // Task 1 received x through a segment of its pool; task 0's RecvTensor, waiting for the
  // products with a segment offered, is cancelled by the deadline.
  // Under heavy load the master sometimes reports the deadline's cancellation as Cancelled "Run
  // call was cancelled" (two_workers_test checks the deadline's own error); either way the
  // worker's RecvTensor was cancelled, which is what this test is about.
  const absl::Status timed_out = session->Run({{"x", x}}, {"b"}, {}, &out);
  EXPECT_THAT(timed_out.code(),
              ::testing::AnyOf(absl::StatusCode::kDeadlineExceeded, absl::StatusCode::kCancelled))
      << timed_out;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_LE(Segments(cluster.pid(1), "fd"), distributed::ShmSegments::kMaxIdle);
  EXPECT_EQ(Segments(cluster.pid(0), "fd"), 0);    // the cancelled call closed its segment
  EXPECT_EQ(Segments(cluster.pid(0), "maps"), 1);  // task 0 still maps task 1's segment of x

  // Task 1 dies: task 0 drops its mapping of task 1's segment at its next step's cleanup.
  cluster.Kill(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_THAT(session->Run({{"x", x}}, {"b"}, {}, &out),
              StatusIs(absl::StatusCode::kUnavailable, HasSubstr("task:1")));
  EXPECT_EQ(Segments(cluster.pid(0), "maps"), 0);
  EXPECT_EQ(Segments(cluster.pid(0), "fd"), 0);
  EXPECT_EQ(DevShmEntries(), shm_before);
}

}  // namespace
}  // namespace rill
