#include "graph/shape_values.h"

#include <unordered_map>

#include "ops/attr_value_util.h"

namespace rill {
namespace {

// The Graph as the evaluator sees it: handles are positions in `nodes_`, added as the walk
// reaches them.
class GraphView final : public ShapeValueGraph {
 public:
  int Handle(const Node* node) const {
    auto [it, inserted] = handles_.emplace(node, static_cast<int>(nodes_.size()));
    if (inserted) nodes_.push_back(node);
    return it->second;
  }
  const NodeDef& Def(int node) const override { return nodes_[node]->def(); }
  bool Input(int node, int i, int* producer, int* output) const override {
    const Node* n = nodes_[node];
    if (i >= n->num_inputs()) return false;
    const Edge* e = n->input_edge(i);
    if (e == nullptr) return false;
    *producer = Handle(e->src());
    *output = e->src_output();
    return true;
  }
  PartialTensorShape OutputShape(int node, int output) const override {
    const std::vector<PartialTensorShape>& shapes = nodes_[node]->output_shapes();
    return output < static_cast<int>(shapes.size()) ? shapes[output] : PartialTensorShape();
  }

 private:
  mutable std::vector<const Node*> nodes_;
  mutable std::unordered_map<const Node*, int> handles_;
};

}  // namespace

std::vector<std::optional<PartialValue>> InputPartialValues(const Node& node) {
  std::vector<std::optional<PartialValue>> values;
  std::optional<GraphView> view;  // made for the first input worth a walk
  int self = 0;
  for (int i = 0; i < node.num_inputs(); ++i) {
    const DataType type = node.input_type(i);
    if (type != DT_INT32 && type != DT_INT64) continue;
    const Edge* e = node.input_edge(i);
    // Const inputs reach the shape function as tensors (ConstantIndexTensor).
    if (e == nullptr || e->src()->op() == "Const") continue;
    if (!view) {
      view.emplace();
      self = view->Handle(&node);
      values.resize(node.num_inputs());
    }
    int producer, output;
    if (!view->Input(self, i, &producer, &output)) continue;
    values[i] = EvaluatePartialValue(*view, producer, output);
  }
  return values;
}

std::vector<std::optional<HandleShape>> InputHandleShapes(const Node& node) {
  std::vector<std::optional<HandleShape>> handles;
  for (int i = 0; i < node.num_inputs(); ++i) {
    if (node.input_type(i) != DT_RESOURCE) continue;
    const Edge* e = node.input_edge(i);
    // Identity forwards what its input holds; a chain of them is walked without recursion, at
    // most once around any cycle (a graph whose Identities form one is refused elsewhere).
    for (int64_t steps = 0; e != nullptr && e->src()->op() == "Identity" && steps < 1'000'000;
         ++steps) {
      e = e->src()->input_edge(0);
    }
    if (e == nullptr || e->src()->op() != "VarHandleOp") continue;
    const NodeDef& def = e->src()->def();
    HandleShape handle;
    TensorShapeProto proto;
    if (!GetNodeAttr(def, "dtype", &handle.dtype).ok() || !GetNodeAttr(def, "shape", &proto).ok()) {
      continue;
    }
    absl::StatusOr<PartialTensorShape> shape = PartialTensorShape::FromProto(proto);
    if (!shape.ok()) continue;
    handle.shape = *std::move(shape);
    handles.resize(node.num_inputs());
    handles[i] = std::move(handle);
  }
  return handles;
}

}  // namespace rill
