// Test ops, the private kernel registry and GraphDef text helpers of test_util.h.
#include "session/executor/test_util.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"

namespace rill {
namespace executor_internal {
namespace {

REGISTER_OP("PartTestSource").Output("out: int32").Attr("value: int = 0");
REGISTER_OP("PartTestBool").Output("out: bool").Attr("value: bool = false");
REGISTER_OP("PartTestUnary").Input("in: int32").Output("out: int32");
REGISTER_OP("PartTestBinary").Input("a: int32").Input("b: int32").Output("out: int32");
REGISTER_OP("PartTestLess").Input("a: int32").Input("b: int32").Output("out: bool");
REGISTER_OP("PartTestHeavy").Input("in: int32").Output("out: int32");
REGISTER_OP("PartTestHeavySource").Output("out: int32");
REGISTER_OP("PartTestTwoOut").Input("in: int32").Output("a: int32").Output("b: int32");
REGISTER_OP("PartTestSink").Input("in: int32");
REGISTER_OP("PartTestAsync").Input("in: int32").Output("out: int32");
REGISTER_OP("PartTestRefSource").Output("ref: Ref(int32)");
REGISTER_OP("PartTestRefReader").Input("ref: Ref(int32)").Output("out: int32");
REGISTER_OP("PartTestRefInit")
    .Input("ref: Ref(int32)")
    .Output("out: int32")
    .SetAllowsUninitializedInput();

class NoopKernel final : public OpKernel {
 public:
  NoopKernel(OpKernelConstruction& ctx, bool expensive) : OpKernel(ctx), expensive_(expensive) {}
  absl::Status Compute(OpKernelContext&) const override { return absl::OkStatus(); }
  bool IsExpensive() const override { return expensive_; }

 private:
  const bool expensive_;
};

class AsyncNoopKernel final : public AsyncOpKernel {
 public:
  explicit AsyncNoopKernel(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {}
  void ComputeAsync(OpKernelContext&, DoneCallback done) const override { done(absl::OkStatus()); }
};

}  // namespace

const KernelRegistry& PartTestKernels() {
  static const KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    auto add = [&](const char* op, KernelFactory f) {
      EXPECT_TRUE(r->Register(KernelDefBuilder(op).Device(kDeviceCpu).Build(), std::move(f)).ok())
          << op;
    };
    auto noop = [](bool expensive) -> KernelFactory {
      return [expensive](OpKernelConstruction& ctx) -> absl::StatusOr<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(new NoopKernel(ctx, expensive));
      };
    };
    for (const char* op : {"PartTestSource",
                           "PartTestBool",
                           "PartTestUnary",
                           "PartTestBinary",
                           "PartTestLess",
                           "PartTestTwoOut",
                           "PartTestSink",
                           "PartTestRefSource",
                           "PartTestRefReader",
                           "PartTestRefInit",
                           "Enter",
                           "Exit",
                           "Merge",
                           "Switch",
                           "NextIteration",
                           "LoopCond",
                           "ControlTrigger",
                           "Identity",
                           "NoOp",
                           "_Send",
                           "_Recv",
                           "_Retval"}) {
      add(op, noop(false));
    }
    add("PartTestHeavy", noop(true));
    add("PartTestHeavySource", noop(true));
    add("PartTestAsync",
        [](OpKernelConstruction& ctx) -> absl::StatusOr<std::unique_ptr<OpKernel>> {
          return std::unique_ptr<OpKernel>(new AsyncNoopKernel(ctx));
        });
    return r;
  }();
  return *registry;
}

std::string NodeText(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs, const std::string& attrs) {
  static const std::set<std::string>* typed = new std::set<std::string>{
      "Enter", "Exit", "Merge", "Switch", "NextIteration", "Identity", "_Send", "_Retval"};
  std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& input : inputs) absl::StrAppend(&text, " input: '", input, "'");
  if (typed->count(op) != 0) absl::StrAppend(&text, " attr { key: 'T' value { type: DT_INT32 } }");
  if (op == "Merge") {
    int data_inputs = 0;
    for (const std::string& input : inputs) data_inputs += input[0] != '^';
    absl::StrAppend(&text, " attr { key: 'N' value { i: ", data_inputs, " } }");
  }
  absl::StrAppend(&text, " ", attrs, " }\n");
  return text;
}

std::string EnterAttrs(const std::string& frame, bool is_constant, int parallel_iterations) {
  return absl::StrCat("attr { key: 'frame_name' value { s: '", frame, "' } }",
                      " attr { key: 'is_constant' value { b: ", is_constant ? "true" : "false",
                      " } }", " attr { key: 'parallel_iterations' value { i: ", parallel_iterations,
                      " } }");
}

std::string TransferAttrs(const std::string& tensor_name) {
  return absl::StrCat("attr { key: 'tensor_name' value { s: '", tensor_name, "' } }",
                      " attr { key: 'send_device' value { s: '/device:CPU:0' } }",
                      " attr { key: 'send_device_incarnation' value { i: 1 } }",
                      " attr { key: 'recv_device' value { s: '/device:CPU:0' } }");
}

std::string LoopText(const std::string& p, const std::string& frame, const std::string& init,
                     const std::string& limit, const std::string& step, int parallel_iterations) {
  const std::string enter = EnterAttrs(frame, false, parallel_iterations);
  const std::string invariant = EnterAttrs(frame, true, parallel_iterations);
  return absl::StrCat(NodeText(p + "/enter", "Enter", {init}, enter),
                      NodeText(p + "/limit_enter", "Enter", {limit}, invariant),
                      NodeText(p + "/step_enter", "Enter", {step}, invariant),
                      NodeText(p + "/merge", "Merge", {p + "/enter", p + "/next"}),
                      NodeText(p + "/less", "PartTestLess", {p + "/merge", p + "/limit_enter"}),
                      NodeText(p + "/cond", "LoopCond", {p + "/less"}),
                      NodeText(p + "/switch", "Switch", {p + "/merge", p + "/cond"}),
                      NodeText(p + "/body", "Identity", {p + "/switch:1"}),
                      NodeText(p + "/add", "PartTestBinary", {p + "/body", p + "/step_enter"}),
                      NodeText(p + "/next", "NextIteration", {p + "/add"}),
                      NodeText(p + "/exit", "Exit", {p + "/switch:0"}));
}

std::unique_ptr<Graph> ParseGraph(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(g);
  EXPECT_TRUE(graph.ok()) << graph.status() << "\n" << text;
  return graph.ok() ? *std::move(graph) : std::make_unique<Graph>();
}

Device* TestCpu() {
  static Device* cpu = NewCpuDevice("/job:localhost/replica:0/task:0/device:CPU:0").release();
  return cpu;
}

absl::StatusOr<NodeItems> BuildTestItems(const std::string& text) {
  return BuildNodeItems(*ParseGraph(text), TestCpu(), PartTestKernels());
}

int IndexOf(const NodeItems& items, const std::string& name) {
  for (size_t i = 0; i < items.nodes.size(); ++i) {
    if (items.nodes[i].kernel->name() == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace executor_internal
}  // namespace rill
