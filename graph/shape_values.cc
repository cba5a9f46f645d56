#include "graph/shape_values.h"

#include <unordered_map>

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

}  // namespace rill
