// The seed note's "Colocate Gradient Operators" example in C++: a device function puts variables
// on the CPU and every other op on GPU:0; a = Variable(1.0), b = sin(a) under it, c = cos(b) on
// the CPU, then g = dc/da with colocate_gradients_with_ops, so each gradient op is placed with
// its forward op (b's on GPU:0, c's on the CPU). Prints each gradient op's requested device, the
// session's placement log (on stdout, as TensorFlow prints it; soft placement moves GPU:0 ops to
// the CPU on a machine without a GPU) and g + c.
// Usage: colocate_gradients [--no_colocate]
#include <algorithm>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "graph/builder/ops.h"
#include "graph/gradients/gradients.h"
#include "session/session.h"

namespace {

// The seed's assign_to_device: variable ops on `ps_device`, everything else on `device`.
rill::DeviceFunction AssignToDevice(std::string device, std::string ps_device = "/device:CPU:0") {
  return [device, ps_device](const rill::NodeDef& node) {
    static const char* const kPsOps[] = {"Variable", "VariableV2", "AutoReloadVariable"};
    for (const char* op : kPsOps) {
      if (node.op() == op) return ps_device;
    }
    return device;
  };
}

int Fail(const absl::Status& s) {
  std::cerr << s << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rill;
  const bool colocate = !(argc > 1 && std::strcmp(argv[1], "--no_colocate") == 0);
  Scope root = Scope::NewRootScope();
  Scope on_devices = root.WithDeviceFunction(AssignToDevice("/device:GPU:0"));
  Output a = ops::Variable(on_devices.WithOpName("a"), PartialTensorShape(std::vector<int64_t>{}),
                           DT_FLOAT);
  Output init = ops::Assign(on_devices.WithOpName("a/Assign"), a, ops::Const(root, 1.f));
  Output b = ops::Sin(on_devices.WithOpName("b"), a);
  Output c = ops::Cos(root.WithDevice("/CPU:0").WithOpName("c"), b);
  GradientOptions options;
  options.colocate_gradients_with_ops = colocate;
  std::vector<Output> g;
  if (absl::Status s = AddSymbolicGradients(root, {c}, {a}, {}, &g, options); !s.ok()) {
    return Fail(s);
  }
  Output sum = ops::AddV2(root.WithOpName("g_plus_c"), g[0], c);
  absl::StatusOr<GraphDef> graph = root.ToGraphDef();
  if (!graph.ok()) return Fail(graph.status());

  std::vector<std::string> requested;
  for (const NodeDef& node : graph->node()) {
    if (absl::StartsWith(node.name(), "gradients/")) {
      requested.push_back(node.name() + " requests \"" + node.device() + "\"");
    }
  }
  std::sort(requested.begin(), requested.end());
  for (const std::string& line : requested) std::cout << line << "\n";

  SessionOptions session_options;
  session_options.config.set_allow_soft_placement(true);
  session_options.config.set_log_device_placement(true);
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(session_options);
  if (!session.ok()) return Fail(session.status());
  if (absl::Status s = (*session)->Create(*graph); !s.ok()) return Fail(s);
  std::vector<Tensor> out;
  if (absl::Status s = (*session)->Run({}, {}, {init.node()}, &out); !s.ok()) return Fail(s);
  if (absl::Status s = (*session)->Run({}, {g[0].TensorName(), sum.TensorName()}, {}, &out);
      !s.ok()) {
    return Fail(s);
  }
  std::cout << "g = " << out[0].flat<float>()[0] << "\n";
  std::cout << "g + c = " << out[1].flat<float>()[0] << "\n";
  return (*session)->Close().ok() ? 0 : 1;
}
