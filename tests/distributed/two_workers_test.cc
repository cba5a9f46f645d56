// The Session as master over two rill_server processes on loopback (tools/rill_server): the seed
// towers on /job:worker/task:0 and task:1, feeds and fetches through RunGraph, a dead worker
// (exact error), recovery after a restart, 100 MB tensors across processes, graceful shutdown.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "distributed/grpc_session.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"
#include "session/session.h"
#include "tests/distributed/cluster_fixture.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

GraphDef ReadGraph(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text.str(), &g)) << path;
  return g;
}

std::unique_ptr<Session> NewClusterSession(const testing::ClusterFixture& cluster,
                                           int64_t timeout_ms = 20000) {
  SessionOptions options;
  *options.config.mutable_cluster_def() = cluster.cluster();
  options.config.set_operation_timeout_in_ms(timeout_ms);
  options.target = absl::StrCat("grpc://", cluster.address(0));
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

std::vector<float> Values(const Tensor& t) {
  auto f = t.flat<float>();
  return std::vector<float>(f.begin(), f.end());
}

NodeDef MakeNode(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& device) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  for (const std::string& i : inputs) n.add_input(i);
  n.set_device(device);
  SetAttr(&n, "T", DT_FLOAT);
  return n;
}

// x (fed, on the target task) -> y = x + x on task 1 -> z = y * y on task 0; fetch y and z.
// `scalar`: x is declared a scalar (else its shape is unknown).
GraphDef FeedGraph(bool scalar = false) {
  GraphDef g;
  NodeDef x;
  x.set_name("x");
  x.set_op("Placeholder");
  SetAttr(&x, "dtype", DT_FLOAT);
  if (scalar) {
    (*x.mutable_attr())["shape"].mutable_shape();
    g.mutable_versions()->set_producer(27);  // older graphs read an empty shape as unknown
  }
  *g.add_node() = x;
  *g.add_node() = MakeNode("y", "AddV2", {"x", "x"}, "/job:worker/task:1");
  *g.add_node() = MakeNode("z", "Mul", {"y", "y"}, "/job:worker/task:0");
  return g;
}

// A chain of `n` [2000, 2000] products on task 1 (8 GFLOP each: seconds on a small machine),
// summed into a scalar on task 0.
GraphDef SlowGraph(int n) {
  GraphDef g;
  NodeDef dims;
  dims.set_name("dims");
  dims.set_op("Const");
  dims.set_device("/job:worker/task:1");
  SetAttr(&dims, "dtype", DT_INT32);
  TensorProto* d = (*dims.mutable_attr())["value"].mutable_tensor();
  d->set_dtype(DT_INT32);
  d->mutable_tensor_shape()->add_dim()->set_size(2);
  d->add_int_val(2000);
  d->add_int_val(2000);
  *g.add_node() = dims;
  NodeDef one;
  one.set_name("one");
  one.set_op("Const");
  one.set_device("/job:worker/task:1");
  SetAttr(&one, "dtype", DT_FLOAT);
  TensorProto* o = (*one.mutable_attr())["value"].mutable_tensor();
  o->set_dtype(DT_FLOAT);
  o->add_float_val(0.001f);
  *g.add_node() = one;
  NodeDef fill = MakeNode("m0", "Fill", {"dims", "one"}, "/job:worker/task:1");
  SetAttr(&fill, "index_type", DT_INT32);
  *g.add_node() = fill;
  for (int i = 1; i <= n; ++i) {
    *g.add_node() = MakeNode(absl::StrCat("m", i), "MatMul", {absl::StrCat("m", i - 1), "m0"},
                             "/job:worker/task:1");
  }
  NodeDef axes;
  axes.set_name("axes");
  axes.set_op("Const");
  axes.set_device("/job:worker/task:0");
  SetAttr(&axes, "dtype", DT_INT32);
  TensorProto* a = (*axes.mutable_attr())["value"].mutable_tensor();
  a->set_dtype(DT_INT32);
  a->mutable_tensor_shape()->add_dim()->set_size(2);
  a->add_int_val(0);
  a->add_int_val(1);
  *g.add_node() = axes;
  NodeDef sum = MakeNode("total", "Sum", {absl::StrCat("m", n), "axes"}, "/job:worker/task:0");
  SetAttr(&sum, "Tidx", DT_INT32);
  *g.add_node() = sum;
  return g;
}

TEST(TwoWorkersTest, WorkerKilledMidRunIsUnavailableNamingIt) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(SlowGraph(40)));
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cluster.Kill(1);
  });
  std::vector<Tensor> out;
  const auto start = std::chrono::steady_clock::now();
  absl::Status s = session->Run({}, {"total"}, {}, &out);
  killer.join();
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kUnavailable,
                          HasSubstr("Task /job:worker/replica:0/task:1 (")));
  // The run ended with the worker, not after its 40 products.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(TwoWorkersTest, CloseCancelsARunInFlight) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(SlowGraph(40)));
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    RILL_EXPECT_OK(session->Close());
  });
  std::vector<Tensor> out;
  EXPECT_THAT(session->Run({}, {"total"}, {}, &out),
              StatusIs(absl::StatusCode::kCancelled, "Run call was cancelled"));
  closer.join();
  EXPECT_THAT(session->Run({}, {"total"}, {}, &out),
              StatusIs(absl::StatusCode::kCancelled, "Session has been closed."));
}

TEST(TwoWorkersTest, OperationTimeoutReachesTheWorkers) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster, /*timeout_ms=*/200);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(SlowGraph(40)));
  std::vector<Tensor> out;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(session->Run({}, {"total"}, {}, &out),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("raise operation_timeout_in_ms or restart it")));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  // The workers dropped the step: a short run right after works.
  RILL_ASSERT_OK(session->Extend(FeedGraph()));
  RILL_ASSERT_OK(session->Run({{"x", Tensor::Scalar<float>(1)}}, {"z"}, {}, &out));
  EXPECT_EQ(out[0].flat<float>()[0], 4.0f);
}

TEST(TwoWorkersTest, NewSessionWithATaskDownIsUnavailableNamingIt) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  cluster.Kill(1);
  SessionOptions options;
  *options.config.mutable_cluster_def() = cluster.cluster();
  options.target = absl::StrCat("grpc://", cluster.address(0));
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr(absl::StrCat("Task /job:worker/replica:0/task:1 (",
                                              cluster.address(1), ") is unavailable"))));
  options.target = "grpc://127.0.0.1:1";
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Session target grpc://127.0.0.1:1 is not a task of the cluster_def; give "
                       "the address of one of its tasks"));
}

// A cluster_def that gives a task the address of a server started as another task (a sparse
// index, two tasks on one address, a job the servers were not started in) is refused when the
// session starts, naming the task, the server's own device and what to change; addresses that
// cannot be dialed and a bad target are refused before any connection.
TEST(TwoWorkersTest, ClusterDefNamingAnotherTasksServerIsInvalidArgument) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  SessionOptions options;
  options.target = absl::StrCat("grpc://", cluster.address(0));
  JobDef* job = options.config.mutable_cluster_def()->add_job();
  job->set_name("worker");
  (*job->mutable_tasks())[0] = cluster.address(0);
  (*job->mutable_tasks())[5] = cluster.address(1);
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("Task /job:worker/replica:0/task:5 (", cluster.address(1),
                                    ") is served by a server of another task: its device is "
                                    "/job:worker/replica:0/task:1/device:CPU:0. Give each task of "
                                    "the cluster_def the address of the server started with its "
                                    "job and task index (rill_server --job_name=worker "
                                    "--task_id=5)")));
  job->mutable_tasks()->erase(5);
  (*job->mutable_tasks())[1] = cluster.address(0);
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Task /job:worker/replica:0/task:1 (" + cluster.address(0) +
                                 ") is served by a server of another task: its device is "
                                 "/job:worker/replica:0/task:0/device:CPU:0.")));
  (*job->mutable_tasks())[1] = "127.0.0.1:99999";
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Could not interpret \"127.0.0.1:99999\" as a host-port pair. "
                                 "(task 1 of job 'worker' in the cluster_def")));
  (*job->mutable_tasks())[1] = cluster.address(1);
  options.target = "grpc://";
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Could not interpret \"\" as a host-port pair. (the session "
                                 "target 'grpc://'")));
  options.target = absl::StrCat("grpc://", cluster.address(0));
  RILL_EXPECT_OK(Session::New(options).status());
}

// A grpc:// target without a cluster_def runs on whichever task its server was started as: the
// second worker's server is /job:worker/task:1, and unpinned nodes run there.
TEST(TwoWorkersTest, LoneTargetRunsOnTheTaskItsServerWasStartedAs) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  SessionOptions options;
  options.target = absl::StrCat("grpc://", cluster.address(1));
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  RILL_ASSERT_OK(session.status());
  const std::vector<DeviceAttributes> devices = (*session)->ListDevices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(devices[0].name(), "/job:worker/replica:0/task:1/device:CPU:0");
  GraphDef g;
  NodeDef x;
  x.set_name("x");
  x.set_op("Placeholder");
  SetAttr(&x, "dtype", DT_FLOAT);
  *g.add_node() = x;
  *g.add_node() = MakeNode("y", "AddV2", {"x", "x"}, "");
  RILL_ASSERT_OK((*session)->Create(g));
  std::vector<Tensor> out;
  RILL_ASSERT_OK((*session)->Run({{"x", Tensor::Scalar<float>(3)}}, {"y"}, {}, &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].flat<float>()[0], 6.0f);
}

TEST(TwoWorkersTest, SeedTowersGiveTheLocalResultWithFullNames) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  std::vector<std::string> devices;
  for (const DeviceAttributes& d : session->ListDevices()) devices.push_back(d.name());
  EXPECT_THAT(devices,
              ::testing::UnorderedElementsAre("/job:worker/replica:0/task:0/device:CPU:0",
                                              "/job:worker/replica:0/task:1/device:CPU:0"));
  RILL_ASSERT_OK(
      session->Create(ReadGraph("tests/distributed/testdata/multi_tower_workers.pbtxt")));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({}, {"AddN"}, {}, &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values(out[0]), (std::vector<float>{44, 56, 98, 128}));
  const std::string log = session->PlacementLog();
  EXPECT_THAT(log, HasSubstr("MatMul: (MatMul): /job:worker/replica:0/task:0/device:CPU:0"));
  EXPECT_THAT(log, HasSubstr("MatMul_1: (MatMul): /job:worker/replica:0/task:1/device:CPU:0"));
  EXPECT_THAT(log, HasSubstr("AddN: (AddN): /job:worker/replica:0/task:0/device:CPU:0"));
  // A second run reuses the registered partitions.
  RILL_ASSERT_OK(session->Run({}, {"AddN"}, {}, &out));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{44, 56, 98, 128}));
  RILL_ASSERT_OK(session->Close());
  RILL_EXPECT_OK(cluster.Stop(0));
  RILL_EXPECT_OK(cluster.Stop(1));
}

TEST(TwoWorkersTest, FeedsAndFetchesCrossTasks) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(FeedGraph(/*scalar=*/true)));
  for (float v : {1.0f, 3.0f}) {
    std::vector<Tensor> out;
    RILL_ASSERT_OK(session->Run({{"x", Tensor::Scalar<float>(v)}}, {"z", "y:0"}, {}, &out));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].flat<float>()[0], 4 * v * v);
    EXPECT_EQ(out[1].flat<float>()[0], 2 * v);
  }
  // A wrong feed type or shape is the local session's error.
  std::vector<Tensor> out;
  EXPECT_THAT(session->Run({{"x", Tensor::Scalar<int32_t>(1)}}, {"z"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expects arg[0] to be float but int32 is provided"));
  EXPECT_THAT(session->Run({{"x", Tensor(DT_FLOAT, TensorShape({2}))}}, {"z"}, {}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Cannot feed value of shape [2] for Tensor x:0, which has shape "
                                 "[]")));
}

TEST(TwoWorkersTest, DeadWorkerIsUnavailableNamingTheTaskAndTheSessionRecovers) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(FeedGraph()));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({{"x", Tensor::Scalar<float>(1)}}, {"z"}, {}, &out));

  cluster.Kill(1);
  absl::Status dead = session->Run({{"x", Tensor::Scalar<float>(1)}}, {"z"}, {}, &out);
  EXPECT_THAT(dead, StatusIs(absl::StatusCode::kUnavailable,
                             HasSubstr(absl::StrCat("Task /job:worker/replica:0/task:1 (",
                                                    cluster.address(1), ") is unavailable"))));
  EXPECT_THAT(dead.message(), HasSubstr("Start its server (rill_server --cluster_spec=... "
                                        "--job_name=worker --task_id=1)"));

  // Back on the same port: the next runs register again (a run inside gRPC's reconnect backoff
  // may still see Unavailable).
  RILL_ASSERT_OK(cluster.Restart(1));
  absl::Status s;
  for (int i = 0; i < 40; ++i) {
    s = session->Run({{"x", Tensor::Scalar<float>(2)}}, {"z"}, {}, &out);
    if (s.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  RILL_ASSERT_OK(s);
  EXPECT_EQ(out[0].flat<float>()[0], 16.0f);
}

TEST(TwoWorkersTest, RestartedWorkerIsAbortedThenReRegistered) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(FeedGraph()));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({{"x", Tensor::Scalar<float>(1)}}, {"z"}, {}, &out));
  RILL_ASSERT_OK(cluster.Restart(1));
  absl::Status s;
  // The restarted worker knows neither the session nor its graphs (Aborted), or a channel is
  // still reconnecting (Unavailable); either makes the session register again, and then it works.
  for (int i = 0; i < 40; ++i) {
    s = session->Run({{"x", Tensor::Scalar<float>(3)}}, {"z"}, {}, &out);
    if (s.ok()) break;
    if (s.code() == absl::StatusCode::kAborted) {
      EXPECT_THAT(s.message(), HasSubstr("restarted"));
      EXPECT_THAT(s.message(), HasSubstr("the session registers its graphs again on the next run"));
    } else {
      EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  RILL_ASSERT_OK(s);
  EXPECT_EQ(out[0].flat<float>()[0], 36.0f);
}

TEST(TwoWorkersTest, HundredMegabyteTensorsCrossProcesses) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  std::unique_ptr<Session> session = NewClusterSession(cluster, 60000);
  ASSERT_NE(session, nullptr);
  RILL_ASSERT_OK(session->Create(FeedGraph()));
  const int64_t n = 25 * 1000 * 1000;  // 100 MB of floats
  Tensor x(DT_FLOAT, TensorShape({n}));
  auto xf = x.flat<float>();
  for (int64_t i = 0; i < n; ++i) xf[i] = static_cast<float>(i % 1000);
  std::vector<Tensor> out;
  // x goes to task 0 in RunGraph, to task 1 by RecvTensor, y back to task 0 by RecvTensor and
  // both y and z back to this process in RunGraph's response.
  RILL_ASSERT_OK(session->Run({{"x", x}}, {"z", "y"}, {}, &out));
  ASSERT_EQ(out[0].NumElements(), n);
  auto z = out[0].flat<float>();
  auto y = out[1].flat<float>();
  for (int64_t i : {int64_t{0}, int64_t{999}, n - 1}) {
    const float v = static_cast<float>(i % 1000);
    EXPECT_EQ(y[i], 2 * v);
    EXPECT_EQ(z[i], 4 * v * v);
  }
}

}  // namespace
}  // namespace rill
