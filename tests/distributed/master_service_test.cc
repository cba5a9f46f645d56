// rill_server's MasterService, as a TensorFlow client calls it (tf.compat.v1.Session on a grpc://
// target): CreateSession, ExtendSession with graph versions, RunStep with feeds across two
// worker processes, ListDevices, CloseSession; errors in the response body when asked; partial
// runs (PartialRunSetup, RunStep with partial_run_handle).
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

NodeDef Op(const std::string& name, const std::string& op, const std::vector<std::string>& inputs,
           const std::string& device) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  for (const std::string& i : inputs) n.add_input(i);
  n.set_device(device);
  SetAttr(&n, op == "Placeholder" ? "dtype" : "T", DT_FLOAT);
  return n;
}

// sess.partial_run as TensorFlow's client sends it: PartialRunSetup, then RunStep calls with the
// handle, each with some of the feeds and fetches.
TEST(MasterServiceTest, PartialRunsAcrossTwoWorkers) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker", "worker"}));
  auto stub = tensorflow::MasterService::NewStub(distributed::NewChannel(cluster.address(0)));
  tensorflow::CreateSessionRequest create;
  GraphDef* g = create.mutable_graph_def();
  for (const char* p : {"a", "b", "c"}) *g->add_node() = Op(p, "Placeholder", {}, "");
  *g->add_node() = Op("r1", "AddV2", {"a", "b"}, "/job:worker/task:1");
  *g->add_node() = Op("r2", "Mul", {"r1", "c"}, "/job:worker/task:0");
  tensorflow::CreateSessionResponse created;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->CreateSession(&ctx, create, &created)));
  }
  tensorflow::PartialRunSetupRequest setup;
  setup.set_session_handle(created.session_handle());
  for (const char* f : {"a:0", "b:0", "c:0"}) setup.add_feed(f);
  for (const char* f : {"r1:0", "r2:0"}) setup.add_fetch(f);
  tensorflow::PartialRunSetupResponse handle;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    RILL_ASSERT_OK(distributed::FromGrpcStatus(stub->PartialRunSetup(&ctx, setup, &handle)));
  }
  EXPECT_EQ(handle.partial_run_handle(), "rill_partial_run_0");
  auto step = [&](const std::vector<std::pair<std::string, float>>& feeds, const std::string& fetch,
                  float* value) {
    tensorflow::RunStepRequest run;
    run.set_session_handle(created.session_handle());
    run.set_partial_run_handle(handle.partial_run_handle());
    for (const auto& [name, v] : feeds) {
      tensorflow::NamedTensorProto* f = run.add_feed();
      f->set_name(name);
      TensorToProto(Tensor::Scalar<float>(v), f->mutable_tensor());
    }
    run.add_fetch(fetch);
    tensorflow::RunStepResponse ran;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    absl::Status s = distributed::FromGrpcStatus(stub->RunStep(&ctx, run, &ran));
    if (s.ok()) {
      EXPECT_EQ(ran.tensor(0).name(), fetch);
      absl::StatusOr<Tensor> t = TensorFromProto(ran.tensor(0).tensor());
      *value = t.ok() ? t->flat<float>()[0] : -1;
    }
    return s;
  };
  float r1 = 0, r2 = 0;
  RILL_ASSERT_OK(step({{"a:0", 1}, {"b:0", 2}}, "r1:0", &r1));
  EXPECT_EQ(r1, 3.0f);
  EXPECT_THAT(step({{"a:0", 5}}, "r2:0", &r2),
              StatusIs(absl::StatusCode::kInvalidArgument, "The feed a:0 has already been fed."));
  EXPECT_THAT(step({}, "r1:0", &r2), StatusIs(absl::StatusCode::kInvalidArgument,
                                              "The tensor r1:0 has already been fetched."));
  RILL_ASSERT_OK(step({{"c:0", 10}}, "r2:0", &r2));
  EXPECT_EQ(r2, 30.0f);
  // Complete: the handle is gone.
  EXPECT_THAT(step({}, "r2:0", &r2), StatusIs(absl::StatusCode::kInvalidArgument,
                                              "Must run 'setup' before performing partial runs!"));
}

// A graph that does not import is refused by CreateSession itself (TensorFlow's master imports
// it there), not by the first RunStep; no session handle is given for it.
TEST(MasterServiceTest, CreateSessionRefusesAGraphThatDoesNotImport) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"worker"}));
  auto stub = tensorflow::MasterService::NewStub(distributed::NewChannel(cluster.address(0)));
  auto create = [&](const GraphDef& graph) {
    tensorflow::CreateSessionRequest req;
    *req.mutable_graph_def() = graph;
    tensorflow::CreateSessionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    absl::Status s = distributed::FromGrpcStatus(stub->CreateSession(&ctx, req, &resp));
    EXPECT_TRUE(resp.session_handle().empty()) << resp.session_handle();
    return s;
  };
  GraphDef unknown_op;
  unknown_op.add_node()->CopyFrom(Op("a", "NoSuchOp", {}, ""));
  // TensorFlow 2.21's master: NotFound "Op type not registered 'NoSuchOp' in binary running on
  // ...", InvalidArgument "Node 'y': Unknown input node 'nope'".
  EXPECT_THAT(create(unknown_op),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("Op type not registered 'NoSuchOp' in binary running on Rill.")));
  GraphDef missing_input;
  missing_input.add_node()->CopyFrom(Op("x", "Placeholder", {}, ""));
  missing_input.add_node()->CopyFrom(Op("y", "Neg", {"nope"}, ""));
  EXPECT_THAT(create(missing_input), StatusIs(absl::StatusCode::kInvalidArgument,
                                              HasSubstr("Node 'y': Unknown input node 'nope'")));
}

}  // namespace
}  // namespace rill
