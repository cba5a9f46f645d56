// The Worker without gRPC: registration, a step with send/recv keys, TensorFlow's errors for an
// unknown graph handle, a restarted device (incarnation) and a partition for another task.
#include "distributed/worker.h"

#include "absl/strings/str_cat.h"
#include "core/rendezvous.h"
#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "distributed/cluster_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace distributed {
namespace {

using ::testing::HasSubstr;

constexpr char kDevice[] = "/job:worker/replica:0/task:0/device:CPU:0";

std::unique_ptr<Worker> NewWorker() {
  WorkerOptions options;
  options.cluster = *ParseClusterSpec("worker|127.0.0.1:1;127.0.0.1:2");
  options.inter_op_threads = 1;
  options.intra_op_threads = 1;
  absl::StatusOr<std::unique_ptr<Worker>> w = Worker::Create(options);
  EXPECT_TRUE(w.ok()) << w.status();
  return std::move(*w);
}

// _Recv x (client-terminated) -> y = x + x -> _Send y (client-terminated).
GraphDef DoubleGraph(uint64_t incarnation, const std::string& device = kDevice) {
  GraphDef g;
  NodeDef* recv = g.add_node();
  recv->set_name("x");
  recv->set_op("_Recv");
  recv->set_device(device);
  SetAttr(recv, "tensor_type", DT_FLOAT);
  SetAttr(recv, "tensor_name", "x:0");
  SetAttr(recv, "send_device", kDevice);
  SetAttr(recv, "send_device_incarnation", static_cast<int64_t>(incarnation));
  SetAttr(recv, "recv_device", kDevice);
  SetAttr(recv, "client_terminated", true);
  NodeDef* add = g.add_node();
  add->set_name("y");
  add->set_op("AddV2");
  add->add_input("x");
  add->add_input("x");
  add->set_device(device);
  SetAttr(add, "T", DT_FLOAT);
  NodeDef* send = g.add_node();
  send->set_name("send_y");
  send->set_op("_Send");
  send->add_input("y");
  send->set_device(device);
  SetAttr(send, "T", DT_FLOAT);
  SetAttr(send, "tensor_name", "y:0");
  SetAttr(send, "send_device", kDevice);
  SetAttr(send, "send_device_incarnation", static_cast<int64_t>(incarnation));
  SetAttr(send, "recv_device", kDevice);
  SetAttr(send, "client_terminated", true);
  return g;
}

TEST(WorkerTest, StatusNamesTheTasksDevice) {
  std::unique_ptr<Worker> w = NewWorker();
  tensorflow::GetStatusResponse resp;
  RILL_ASSERT_OK(w->GetStatus({}, &resp));
  ASSERT_EQ(resp.device_attributes_size(), 1);
  EXPECT_EQ(resp.device_attributes(0).name(), kDevice);
  EXPECT_EQ(resp.device_attributes(0).incarnation(), w->incarnation());
}

TEST(WorkerTest, RunsARegisteredGraphWithSendAndRecvKeys) {
  std::unique_ptr<Worker> w = NewWorker();
  tensorflow::RegisterGraphRequest reg;
  *reg.mutable_graph_def() = DoubleGraph(w->incarnation());
  tensorflow::RegisterGraphResponse handle;
  RILL_ASSERT_OK(w->RegisterGraph(reg, &handle));
  tensorflow::RunGraphRequest run;
  run.set_graph_handle(handle.graph_handle());
  run.set_step_id(42);
  tensorflow::NamedTensorProto* send = run.add_send();
  send->set_name(CreateRendezvousKey(kDevice, w->incarnation(), kDevice, "x:0"));
  TensorToProto(Tensor::Scalar<float>(1.5f), send->mutable_tensor());
  run.add_recv_key(CreateRendezvousKey(kDevice, w->incarnation(), kDevice, "y:0"));
  tensorflow::RunGraphResponse resp;
  RILL_ASSERT_OK(w->RunGraph(run, &resp, absl::Now() + absl::Seconds(10), nullptr));
  ASSERT_EQ(resp.recv_size(), 1);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor y, TensorFromProto(resp.recv(0).tensor()));
  EXPECT_EQ(y.flat<float>()[0], 3.0f);
  // A key the graph never sends is an error at once, not a wait.
  run.set_step_id(43);
  run.add_recv_key(CreateRendezvousKey(kDevice, w->incarnation(), kDevice, "nope:0"));
  resp.Clear();
  EXPECT_THAT(
      w->RunGraph(run, &resp, absl::InfiniteFuture(), nullptr),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("nothing was sent for recv_key")));
  tensorflow::CleanupGraphRequest cleanup;
  cleanup.set_step_id(42);
  tensorflow::CleanupGraphResponse cleaned;
  RILL_EXPECT_OK(w->CleanupGraph(cleanup, &cleaned));
}

TEST(WorkerTest, TensorFlowsErrorsForARestartedWorker) {
  std::unique_ptr<Worker> w = NewWorker();
  tensorflow::RunGraphRequest run;
  run.set_graph_handle("graph_7");
  tensorflow::RunGraphResponse resp;
  EXPECT_THAT(w->RunGraph(run, &resp, absl::Now() + absl::Seconds(1), nullptr),
              StatusIs(absl::StatusCode::kAborted,
                       "Graph handle is not found: graph_7. Possibly, this worker just "
                       "restarted."));
  tensorflow::RecvTensorRequest recv;
  recv.set_rendezvous_key(CreateRendezvousKey(kDevice, w->incarnation() + 1, kDevice, "y:0"));
  tensorflow::RecvTensorResponse got;
  EXPECT_THAT(w->RecvTensor(recv, &got, absl::Now() + absl::Seconds(1), nullptr),
              StatusIs(absl::StatusCode::kAborted,
                       HasSubstr("RecvTensor expects a different device incarnation: ")));
  tensorflow::RegisterGraphRequest reg;
  reg.set_session_handle("gone");
  reg.set_create_worker_session_called(true);
  tensorflow::RegisterGraphResponse handle;
  EXPECT_THAT(w->RegisterGraph(reg, &handle),
              StatusIs(absl::StatusCode::kAborted,
                       "Session gone is not found. Possibly, this worker "
                       "(\"/job:worker/replica:0/task:0\") just restarted."));
}

TEST(WorkerTest, RefusesAPartitionForAnotherTaskAndTimesOutAWaitingRecv) {
  std::unique_ptr<Worker> w = NewWorker();
  tensorflow::RegisterGraphRequest reg;
  *reg.mutable_graph_def() =
      DoubleGraph(w->incarnation(), "/job:worker/replica:0/task:1/device:CPU:0");
  tensorflow::RegisterGraphResponse handle;
  EXPECT_THAT(w->RegisterGraph(reg, &handle),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Node x is placed on '/job:worker/replica:0/task:1/device:CPU:0',"
                                 " which is not a device of this worker")));
  tensorflow::RecvTensorRequest recv;
  recv.set_step_id(3);
  recv.set_rendezvous_key(CreateRendezvousKey(kDevice, w->incarnation(), kDevice, "never"));
  tensorflow::RecvTensorResponse got;
  EXPECT_THAT(
      w->RecvTensor(recv, &got, absl::Now() + absl::Milliseconds(100), nullptr),
      StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr(";never;0:0 passed its deadline")));
}

// A CreateWorkerSession naming another job or task reached the wrong server (the master's cluster
// gives this server's address to that task): refused, naming both tasks. One naming this task,
// or no task (no ServerDef), is accepted.
TEST(WorkerTest, RefusesACreateWorkerSessionForAnotherTask) {
  std::unique_ptr<Worker> worker = NewWorker();
  auto create = [&](const std::string& handle, const std::string& job, int task) {
    tensorflow::CreateWorkerSessionRequest req;
    req.set_session_handle(handle);
    req.mutable_server_def()->set_job_name(job);
    req.mutable_server_def()->set_task_index(task);
    tensorflow::CreateWorkerSessionResponse resp;
    return worker->CreateWorkerSession(req, &resp);
  };
  EXPECT_THAT(create("a", "ps", 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "CreateWorkerSession for task /job:ps/replica:0/task:0 reached the server "
                       "of task /job:worker/replica:0/task:0. Give that task the address of the "
                       "server started with its job and task index (rill_server --job_name=ps "
                       "--task_id=0) in the master's cluster"));
  EXPECT_THAT(create("b", "worker", 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("CreateWorkerSession for task /job:worker/replica:0/task:1 "
                                 "reached the server of task /job:worker/replica:0/task:0.")));
  EXPECT_THAT(create("c", "worker", -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("task /job:worker/replica:0/task:-1 reached")));
  RILL_EXPECT_OK(create("d", "worker", 0));
  RILL_EXPECT_OK(create("e", "", 0));
}

}  // namespace
}  // namespace distributed
}  // namespace rill
