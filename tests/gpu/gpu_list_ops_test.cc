// The TensorList kernels on a real GPU against the CPU: pinned to GPU:0, Reserve, SetItem, Stack
// (unset elements read as zeros), GetItem, PushBack, PopBack, Length and ElementShape match the
// CPU, with TensorFlow's errors; a GPU read of a CPU-made list's element is refused. Their memory
// types (the handle, index and shapes on the host, the elements on the GPU) need only a CUDA
// build. GPU runs skip, saying why, without a GPU. The LSTM-style loop over lists is in
// kernels/control_flow/control_flow_ops_gpu_test.cc.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/gpu/cuda_probe.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "session/session.h"
#include "tests/gpu/gpu_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// `graph` with the nodes named in `pinned` on `device`, run, fetching `fetch`.
absl::StatusOr<std::vector<Tensor>> RunPinned(
    GraphDef graph, const std::vector<std::string>& pinned, const std::string& device,
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch) {
  for (NodeDef& n : *graph.mutable_node()) {
    for (const std::string& p : pinned) {
      if (n.name() == p) n.set_device(device);
    }
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(graph, &text);
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, gpu_test::SessionWith(text));
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session->Run(feeds, fetch, {}, &out));
  return out;
}

// Reserve(3) with element 1 set, then Stack (elements 0 and 2 unset: zeros), GetItem of an unset
// element (zeros), PushBack and PopBack, Length and ElementShape.
GraphDef ListOps() {
  Scope root = Scope::NewRootScope();
  Output v = ops::Placeholder(root.WithOpName("v"), DT_FLOAT);
  Output shape = ops::Const(root.WithOpName("shape"), {2, 3});
  Output l = ops::TensorListReserve(root.WithOpName("reserve"), shape,
                                    ops::Const(root.WithOpName("three"), 3), DT_FLOAT);
  l = ops::TensorListSetItem(root.WithOpName("set"), l, ops::Const(root.WithOpName("one"), 1), v);
  ops::TensorListStack(root.WithOpName("stack"), l, shape, DT_FLOAT, 3);
  ops::TensorListGetItem(root.WithOpName("get_unset"), l, ops::Const(root.WithOpName("two"), 2),
                         shape, DT_FLOAT);
  ops::TensorListGetItem(root.WithOpName("get_set"), l, ops::Const(root.WithOpName("i1"), 1), shape,
                         DT_FLOAT);
  Output pushed =
      ops::TensorListPushBack(root.WithOpName("push"), l, ops::Neg(root.WithOpName("neg"), v));
  ops::TensorListPopBackOutputs popped =
      ops::TensorListPopBack(root.WithOpName("pop"), pushed, shape, DT_FLOAT);
  ops::TensorListLength(root.WithOpName("length"), popped.output_handle);
  ops::TensorListElementShape(root.WithOpName("element_shape"), pushed, DT_INT32);
  ops::TensorListGetItem(root.WithOpName("get_out_of_range"), l,
                         ops::Const(root.WithOpName("five"), 5), shape, DT_FLOAT);
  GraphDef graph;
  EXPECT_THAT(root.ToGraphDef(&graph), IsOk());
  return graph;
}

const std::vector<std::string> kListOps = {
    "reserve", "set", "stack",  "get_unset",     "get_set",         "push",
    "neg",     "pop", "length", "element_shape", "get_out_of_range"};

TEST(GpuListOpsTest, HandlesAndShapesLiveOnTheHostAndElementsOnTheGpu) {
  if (!BuiltWithCuda()) GTEST_SKIP() << "skipped: built without CUDA (no GPU kernels)";
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(ListOps());
  ASSERT_THAT(graph.status(), IsOk());
  using Flags = std::pair<std::vector<bool>, std::vector<bool>>;
  auto memory = [&](const std::string& name) {
    const Node* n = (*graph)->FindNode(name);
    Flags f;
    EXPECT_NE(n, nullptr) << name;
    if (n == nullptr) return f;
    EXPECT_THAT(KernelRegistry::Global()->HostMemoryArgs(n->def(), *n->op_def(), "GPU", &f.first,
                                                         &f.second),
                IsOk());
    return f;
  };
  EXPECT_EQ(memory("reserve"), Flags({true, true}, {true}));     // (element_shape, n) -> handle
  EXPECT_EQ(memory("set"), Flags({true, true, false}, {true}));  // (handle, index, item)
  EXPECT_EQ(memory("stack"), Flags({true, true}, {false}));
  EXPECT_EQ(memory("get_set"), Flags({true, true, true}, {false}));
  EXPECT_EQ(memory("push"), Flags({true, false}, {true}));
  EXPECT_EQ(memory("pop"), Flags({true, true}, {true, false}));
  EXPECT_EQ(memory("length"), Flags({true}, {true}));
  EXPECT_EQ(memory("element_shape"), Flags({true}, {true}));
}

TEST(GpuListOpsTest, ListOpsOnTheGpuMatchTheCpu) {
  RILL_REQUIRE_GPU();
  const std::vector<std::pair<std::string, Tensor>> feeds = {
      {"v", gpu_test::Random(DT_FLOAT, TensorShape({2, 3}), 5)}};
  const std::vector<std::string> fetch = {"stack", "get_unset", "get_set",
                                          "pop:1", "length",    "element_shape"};
  absl::StatusOr<std::vector<Tensor>> gpu =
      RunPinned(ListOps(), kListOps, "/device:GPU:0", feeds, fetch);
  ASSERT_THAT(gpu.status(), IsOk());
  absl::StatusOr<std::vector<Tensor>> cpu =
      RunPinned(ListOps(), kListOps, "/device:CPU:0", feeds, fetch);
  ASSERT_THAT(cpu.status(), IsOk());
  for (size_t i = 0; i < fetch.size(); ++i) {
    SCOPED_TRACE(fetch[i]);
    ASSERT_EQ((*gpu)[i].shape(), (*cpu)[i].shape());
    if ((*cpu)[i].dtype() == DT_INT32) {
      for (int64_t j = 0; j < (*cpu)[i].NumElements(); ++j) {
        EXPECT_EQ((*gpu)[i].flat<int32_t>()[j], (*cpu)[i].flat<int32_t>()[j]);
      }
    } else {
      gpu_test::ExpectClose((*gpu)[i], (*cpu)[i]);
    }
  }
  EXPECT_EQ((*cpu)[4].flat<int32_t>()[0], 3);
  for (int64_t j = 0; j < 6; ++j) EXPECT_EQ((*gpu)[1].flat<float>()[j], 0.f);  // unset: zeros
  absl::StatusOr<std::vector<Tensor>> bad =
      RunPinned(ListOps(), kListOps, "/device:GPU:0", feeds, {"get_out_of_range"});
  EXPECT_THAT(bad.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("Trying to access element 5 in a list with 3 "
                                               "elements.")));
}

// A list made on the CPU holds host tensors: a GPU GetItem of one is refused (its element would
// be a host pointer in device memory), naming the node.
TEST(GpuListOpsTest, GpuReadOfACpuListsElementIsInvalidArgument) {
  RILL_REQUIRE_GPU();
  GraphDef graph = ListOps();
  for (NodeDef& n : *graph.mutable_node()) {
    if (n.name() == "reserve" || n.name() == "set") n.set_device("/device:CPU:0");
  }
  absl::StatusOr<std::vector<Tensor>> out =
      RunPinned(graph, {"get_set"}, "/device:GPU:0",
                {{"v", gpu_test::Random(DT_FLOAT, TensorShape({2, 3}), 5)}}, {"get_set"});
  EXPECT_THAT(out.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("TensorListGetItem node get_set on /job:localhost/replica:0/"
                                 "task:0/device:GPU:0 read element 1 of a list whose elements are "
                                 "in host memory: the list was made on another device")));
}

}  // namespace
}  // namespace rill
