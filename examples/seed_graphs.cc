#include "examples/seed_graphs.h"

#include <algorithm>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "google/protobuf/text_format.h"
#include "graph/builder/ops.h"

namespace rill {
namespace examples {
namespace {

// The seeds' two matrices: a = [[1,2,3],[4,5,6]] (2x3) and b = [[1,2],[3,4],[5,6]] (3x2).
// TF1 seeds write them flat with a shape, tf.constant([1.0, ..., 6.0], shape=[2, 3]); seed 000
// nests them. Both give the same Const.
Output MatrixA(const Scope& scope) { return ops::Const<float>(scope, {1, 2, 3, 4, 5, 6}, {2, 3}); }
Output MatrixB(const Scope& scope) { return ops::Const<float>(scope, {1, 2, 3, 4, 5, 6}, {3, 2}); }

// Seed 001, "Logging Device placement":
//   a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
//   b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
//   c = tf.matmul(a, b)
absl::StatusOr<GraphDef> MatMulGraph() {
  Scope root = Scope::NewRootScope();
  Output a = MatrixA(root.WithOpName("a"));
  Output b = MatrixB(root.WithOpName("b"));
  ops::MatMul(root, a, b);
  return root.ToGraphDef();
}

// Seed 001, "Manual device placement": a and b under tf.device('/cpu:0'), MatMul left unplaced.
absl::StatusOr<GraphDef> ManualPlacementGraph() {
  Scope root = Scope::NewRootScope();
  Scope cpu = root.WithDevice("/cpu:0");
  Output a = MatrixA(cpu.WithOpName("a"));
  Output b = MatrixB(cpu.WithOpName("b"));
  ops::MatMul(root, a, b);
  return root.ToGraphDef();
}

// Seed 003, "Using a single GPU on a multi-GPU system" (and the allow_soft_placement example):
// a, b and MatMul all under tf.device('/device:GPU:2').
absl::StatusOr<GraphDef> SoftPlacementGraph() {
  Scope root = Scope::NewRootScope();
  Scope gpu2 = root.WithDevice("/device:GPU:2");
  Output a = MatrixA(gpu2.WithOpName("a"));
  Output b = MatrixB(gpu2.WithOpName("b"));
  ops::MatMul(gpu2, a, b);
  return root.ToGraphDef();
}

// Seed 001, "Using multiple GPUs":
//   c = []
//   for d in ['/gpu:2', '/gpu:3']:
//     with tf.device(d):
//       a = tf.constant([...], shape=[2, 3]); b = tf.constant([...], shape=[3, 2])
//       c.append(tf.matmul(a, b))
//   with tf.device('/cpu:0'):
//     sum = tf.add_n(c)
absl::StatusOr<GraphDef> TowersGraph(const std::vector<std::string>& devices,
                                     const std::string& sum_device) {
  Scope root = Scope::NewRootScope();
  std::vector<Output> c;
  for (const std::string& d : devices) {
    Scope tower = root.WithDevice(d);
    Output a = MatrixA(tower);
    Output b = MatrixB(tower);
    c.push_back(ops::MatMul(tower, a, b));
  }
  ops::AddN(root.WithDevice(sum_device), c);
  return root.ToGraphDef();
}

// Seed 000, "Manual placement": one replica per device (there logical GPUs; here four CPU
// devices), the products summed on '/CPU:0': [[88, 112], [196, 256]].
//   for gpu in gpus:
//     with tf.device(gpu.name):
//       a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
//       b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
//       c.append(tf.matmul(a, b))
//   with tf.device('/CPU:0'):
//     matmul_sum = tf.add_n(c)
absl::StatusOr<GraphDef> FourReplicasCpuGraph() {
  Scope root = Scope::NewRootScope();
  std::vector<Output> c;
  for (int i = 0; i < 4; ++i) {
    Scope replica = root.WithDevice(absl::StrCat("/cpu:", i));
    Output a = ops::Const(replica, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    Output b = ops::Const(replica, {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
    c.push_back(ops::MatMul(replica, a, b));
  }
  ops::AddN(root.WithDevice("/CPU:0"), c);
  return root.ToGraphDef();
}

// Seed 004, "Custom Device Placement Functions": variables on the CPU, the rest on the GPU.
//   with tf.device(assign_to_device("/device:GPU:0")):
//     w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name='w')
//     a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
//     y = tf.matmul(a, w)
// w and its initializer land on /device:CPU:0 (the initializer by colocation with w), the
// initial value, a and MatMul on /device:GPU:0. After running w/Assign, MatMul gives
// [[22, 28], [49, 64]].
absl::StatusOr<GraphDef> DeviceFunctionGraph() {
  Scope root = Scope::NewRootScope();
  Scope scope = root.WithDeviceFunction(AssignToDevice("/device:GPU:0"));
  RefVariable w = MakeRefVariable(scope, "w", [](const Scope& s) {
    return ops::Const(s.WithOpName("initial_value"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  });
  Output a = MatrixA(scope.WithOpName("a"));
  ops::MatMul(scope, a, w.snapshot);
  return root.ToGraphDef();
}

// A TF1 training loop in miniature: run target "init" once, then "train" repeatedly, fetching w
// (w is [[1,2],[3,4]] times the number of train steps).
//   w = tf.Variable(tf.zeros([2, 2]), name='w')
//   init = tf.global_variables_initializer()        # NoOp "init" with control input ^w/Assign
//   train = tf.assign_add(w, tf.constant([[1.0, 2.0], [3.0, 4.0]]), name='train')
absl::StatusOr<GraphDef> TrainingLoopGraph() {
  Scope root = Scope::NewRootScope();
  Output zeros = ops::Const(root.WithOpName("zeros"), 0.f, {2, 2});
  RefVariable w = MakeRefVariable(root, "w", [&](const Scope&) { return zeros; });
  ops::NoOp(root.WithOpName("init").WithControlDependencies({w.initializer}));
  Output step = ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}});
  ops::AssignAdd(root.WithOpName("train"), w.variable, step);
  return root.ToGraphDef();
}

}  // namespace

DeviceFunction AssignToDevice(std::string device, std::string ps_device) {
  return [device = std::move(device), ps_device = std::move(ps_device)](const NodeDef& node) {
    static const char* const kPsOps[] = {"Variable", "VariableV2", "AutoReloadVariable"};
    for (const char* op : kPsOps) {
      if (node.op() == op) return ps_device;
    }
    return device;
  };
}

RefVariable MakeRefVariable(const Scope& scope, absl::string_view name,
                            const std::function<Output(const Scope&)>& initial_value) {
  RefVariable v;
  Scope vs = scope.NewSubScope(name);
  Output initial = initial_value(vs);
  if (!scope.ok()) return v;
  if (!initial.valid()) {
    scope.UpdateStatus(absl::InvalidArgumentError(
        absl::StrCat("Variable '", vs.name_scope(), "': the initial value is an invalid Output")));
    return v;
  }
  absl::StatusOr<PartialTensorShape> shape = scope.GetShape(initial);
  if (!shape.ok()) {
    scope.UpdateStatus(shape.status());
    return v;
  }
  v.variable = ops::Variable(scope.WithExactOpName(vs.name_scope()), *shape, initial.dtype());
  Scope colocated = vs.ColocateWith(v.variable);
  v.initializer = ops::Assign(colocated, v.variable, initial);
  v.snapshot = ops::Identity(colocated.WithOpName("read"), v.variable);
  return v;
}

const std::vector<SeedGraph>& SeedGraphs() {
  static const auto* const kGraphs = new std::vector<SeedGraph>{
      {"matmul", MatMulGraph},
      {"manual_placement", ManualPlacementGraph},
      {"soft_placement", SoftPlacementGraph},
      {"multi_tower_gpu",
       [] {
         return TowersGraph({"/gpu:2", "/gpu:3"}, "/cpu:0");
       }},
      {"multi_tower_cpu",
       [] {
         return TowersGraph({"/cpu:1", "/cpu:2"}, "/cpu:0");
       }},
      {"four_replicas_cpu", FourReplicasCpuGraph},
      {"device_function", DeviceFunctionGraph},
      {"training_loop", TrainingLoopGraph},
  };
  return *kGraphs;
}

std::string FormatGraphDef(const GraphDef& graph) {
  google::protobuf::TextFormat::Printer one_line;
  one_line.SetSingleLineMode(true);
  auto quoted = [](const std::string& s) { return absl::StrCat("\"", absl::CEscape(s), "\""); };
  std::string out;
  for (const NodeDef& node : graph.node()) {
    absl::StrAppend(&out, "node {\n  name: ", quoted(node.name()), "\n  op: ", quoted(node.op()),
                    "\n");
    for (const std::string& in : node.input()) absl::StrAppend(&out, "  input: ", quoted(in), "\n");
    if (!node.device().empty()) absl::StrAppend(&out, "  device: ", quoted(node.device()), "\n");
    std::vector<std::string> keys;
    for (const auto& [key, value] : node.attr()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    for (const std::string& key : keys) {
      std::string value;
      one_line.PrintToString(node.attr().at(key), &value);
      while (!value.empty() && value.back() == ' ') value.pop_back();
      absl::StrAppend(&out, "  attr { key: ", quoted(key), " value { ", value, " } }\n");
    }
    NodeDef rest = node;  // fields other than the five above, if any
    rest.clear_name();
    rest.clear_op();
    rest.clear_input();
    rest.clear_device();
    rest.clear_attr();
    std::string text;
    one_line.PrintToString(rest, &text);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    if (!text.empty()) absl::StrAppend(&out, "  ", text, "\n");
    out += "}\n";
  }
  GraphDef rest = graph;
  rest.clear_node();
  std::string text;
  google::protobuf::TextFormat::PrintToString(rest, &text);
  return out + text;
}

}  // namespace examples
}  // namespace rill
