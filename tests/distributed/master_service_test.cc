// rill_server's MasterService, as a TensorFlow client calls it (tf.compat.v1.Session on a grpc://
// target): CreateSession, ExtendSession with graph versions, RunStep with feeds across two
// worker processes, ListDevices, CloseSession; errors in the response body when asked.
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "distributed/grpc_status.h"
#include "distributed/protos/master_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"
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

void SetDeadline(grpc::ClientContext* ctx) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
}

TEST(MasterServiceTest, TensorFlowClientCallsRunAcrossTwoWorkers) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  auto stub = tensorflow::MasterService::NewStub(distributed::NewChannel(cluster.address(0)));

  // An empty session, then the graph by ExtendSession (as TensorFlow's Python client does).
  tensorflow::CreateSessionRequest create;
  tensorflow::CreateSessionResponse created;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->CreateSession(&ctx, create, &created)));
  }
  EXPECT_EQ(created.graph_version(), 0);
  tensorflow::ExtendSessionRequest extend;
  extend.set_session_handle(created.session_handle());
  *extend.mutable_graph_def() = ReadGraph("tests/distributed/testdata/multi_tower_workers.pbtxt");
  NodeDef* x = extend.mutable_graph_def()->add_node();
  x->set_name("x");
  x->set_op("Placeholder");
  SetAttr(x, "dtype", DT_FLOAT);
  NodeDef* plus = extend.mutable_graph_def()->add_node();
  plus->set_name("plus");
  plus->set_op("AddV2");
  plus->add_input("AddN");
  plus->add_input("x");
  SetAttr(plus, "T", DT_FLOAT);
  tensorflow::ExtendSessionResponse extended;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->ExtendSession(&ctx, extend, &extended)));
  }
  EXPECT_EQ(extended.new_graph_version(), 1);
  {
    // A stale version is TensorFlow's FailedPrecondition.
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    tensorflow::ExtendSessionResponse again;
    EXPECT_THAT(distributed::FromGrpcStatus(stub->ExtendSession(&ctx, extend, &again)),
                StatusIs(absl::StatusCode::kFailedPrecondition,
                         "Current version is 1 but caller expected 0."));
  }

  tensorflow::RunStepRequest run;
  run.set_session_handle(created.session_handle());
  tensorflow::NamedTensorProto* feed = run.add_feed();
  feed->set_name("x:0");
  TensorToProto(Tensor::Scalar<float>(1.0f), feed->mutable_tensor());
  run.add_fetch("plus:0");
  tensorflow::RunStepResponse ran;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->RunStep(&ctx, run, &ran)));
  }
  ASSERT_EQ(ran.tensor_size(), 1);
  EXPECT_EQ(ran.tensor(0).name(), "plus:0");
  RILL_ASSERT_OK_AND_ASSIGN(Tensor got, TensorFromProto(ran.tensor(0).tensor()));
  auto f = got.flat<float>();
  EXPECT_EQ(std::vector<float>(f.begin(), f.end()), (std::vector<float>{45, 57, 99, 129}));

  tensorflow::ListDevicesRequest list;
  list.set_session_handle(created.session_handle());
  tensorflow::ListDevicesResponse devices;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->ListDevices(&ctx, list, &devices)));
  }
  ASSERT_EQ(devices.local_device_size(), 1);
  EXPECT_EQ(devices.local_device(0).name(), "/job:worker/replica:0/task:0/device:CPU:0");
  ASSERT_EQ(devices.remote_device_size(), 1);
  EXPECT_EQ(devices.remote_device(0).name(), "/job:worker/replica:0/task:1/device:CPU:0");

  // Errors in the body when the client asks (TensorFlow's masters and clients do).
  run.set_store_errors_in_response_body(true);
  run.set_fetch(0, "nope:0");
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    tensorflow::RunStepResponse failed;
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->RunStep(&ctx, run, &failed)));
    EXPECT_EQ(failed.status_code(), static_cast<int>(absl::StatusCode::kNotFound));
    EXPECT_THAT(failed.status_error_message(), HasSubstr("nope"));
  }

  tensorflow::CloseSessionRequest close;
  close.set_session_handle(created.session_handle());
  tensorflow::CloseSessionResponse closed;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->CloseSession(&ctx, close, &closed)));
  }
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    tensorflow::RunStepResponse after;
    run.set_store_errors_in_response_body(false);
    EXPECT_THAT(distributed::FromGrpcStatus(stub->RunStep(&ctx, run, &after)),
                StatusIs(absl::StatusCode::kAborted,
                         absl::StrCat("Session ", created.session_handle(), " is not found.")));
  }
}

}  // namespace
}  // namespace rill
