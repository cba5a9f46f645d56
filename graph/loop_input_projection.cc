#include "graph/loop_input_projection.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/pass_queries.h"

namespace rill {
namespace {

// Hops followed back from the MatMul to W's Const, and from the GetItem to its list's Enter.
constexpr int kMaxHops = 16;

bool BoolAttr(const Node& n, const char* name) {
  const AttrValue* a = NodeAttrOrNull(n, name);
  return a != nullptr && a->b();
}

bool TypeAttrIs(const Node& n, const char* name, DataType type) {
  const AttrValue* a = NodeAttrOrNull(n, name);
  return a != nullptr && a->type() == type;
}

std::string FrameName(const Node& enter) {
  const AttrValue* a = NodeAttrOrNull(enter, "frame_name");
  return a == nullptr ? "" : a->s();
}

// Whether an Exit's outputs are read by control edges alone.
bool ReadByControlAlone(const Node& n) { return DataOutEdges(n).empty(); }

// One MatMul to rewrite.
struct Projection {
  Node* matmul;
  Node* get_item;
  Node* enter;     // the constant Enter of the list
  Node* list;      // the TensorListFromTensor
  Node* weights;   // W's Const
  Node* w_reader;  // the node feeding the MatMul's input 1
  bool transpose_b;
};

class Rewriter {
 public:
  explicit Rewriter(Graph* graph) : graph_(graph) {}

  absl::StatusOr<int> Run() {
    bool any = false;
    for (const Node* n : graph_->op_nodes()) {
      if (n->op() == "TensorListGetItem") {
        any = true;
        break;
      }
    }
    if (!any) return 0;
    absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(*graph_);
    if (!order.ok()) return 0;  // a cycle: the session reports it later
    never_dead_ = NeverDeadNodes(*graph_, *order);
    std::vector<Projection> found;
    for (Node* n : *order) {
      Projection p;
      if (Match(n, &p)) found.push_back(p);
    }
    for (const Projection& p : found) {
      const absl::Status s = Rewrite(p);
      if (!s.ok()) {
        return absl::InternalError(absl::StrCat("HoistLoopInputProjections: MatMul '",
                                                p.matmul->name(), "': ", s.message()));
      }
    }
    if (!found.empty()) graph_->FixupSourceAndSinkEdges();
    return static_cast<int>(found.size());
  }

 private:
  bool Match(Node* mm, Projection* p) {
    if (mm->op() != "MatMul" || !TypeAttrIs(*mm, "T", DT_FLOAT) || BoolAttr(*mm, "transpose_a") ||
        !AssignedToCpu(*mm)) {
      return false;
    }
    const std::string& device = mm->assigned_device_name();
    for (const Edge* e : mm->in_edges()) {
      if (e->IsControlEdge() && IsSwitch(e->src()->op_class())) return false;
    }
    // x_t: a GetItem read by this MatMul alone.
    const Edge* x = mm->input_edge(0);
    if (x == nullptr || x->src_output() != 0) return false;
    Node* get = x->src();
    if (get->op() != "TensorListGetItem" || !TypeAttrIs(*get, "element_dtype", DT_FLOAT) ||
        get->assigned_device_name() != device || DataOutEdges(*get).size() != 1) {
      return false;
    }
    // W: Identity nodes and one constant Enter back to a root Const.
    const Edge* w = mm->input_edge(1);
    if (w == nullptr) return false;
    Node* w_reader = w->src();
    Node* w_enter = nullptr;
    for (int hops = 0; w != nullptr && w->src_output() == 0; ++hops) {
      Node* src = w->src();
      if (hops == kMaxHops || src->assigned_device_name() != device) return false;
      const OpClass c = src->op_class();
      if (IsConstant(c)) break;
      if (IsEnter(c)) {
        if (w_enter != nullptr || src->op() != "Enter" || !BoolAttr(*src, "is_constant")) {
          return false;
        }
        w_enter = src;
      } else if (!IsIdentity(c)) {
        return false;
      }
      w = src->input_edge(0);
    }
    if (w == nullptr || w->src_output() != 0 || w_enter == nullptr) return false;
    Node* weights = w->src();
    if (weights->op() != "Const" || !never_dead_[weights->id()] ||
        !TypeAttrIs(*weights, "dtype", DT_FLOAT)) {
      return false;
    }
    const AttrValue* value = NodeAttrOrNull(*weights, "value");
    if (value == nullptr) return false;
    const TensorShapeProto& ws = value->tensor().tensor_shape();
    if (ws.dim_size() != 2 || ws.unknown_rank()) return false;
    const bool transpose_b = BoolAttr(*mm, "transpose_b");
    const int64_t inner = transpose_b ? ws.dim(1).size() : ws.dim(0).size();
    // The list: Identity nodes and at most one Switch:1 back to a constant Enter.
    Node* next = get;
    const Edge* l = get->input_edge(0);
    bool switched = false;
    for (int hops = 0;; ++hops) {
      if (l == nullptr || hops == kMaxHops) return false;
      Node* src = l->src();
      if (src->assigned_device_name() != device) return false;
      const OpClass c = src->op_class();
      // src feeds `next` alone with data (a Switch's false output may feed unread Exits).
      for (const Edge* e : DataOutEdges(*src)) {
        if (e->dst() == next && e->src_output() == l->src_output()) continue;
        if (IsSwitch(c) && e->src_output() == 0 && IsExit(e->dst()->op_class()) &&
            ReadByControlAlone(*e->dst())) {
          continue;
        }
        return false;
      }
      if (IsEnter(c)) {
        if (src->op() != "Enter" || !BoolAttr(*src, "is_constant") || l->src_output() != 0) {
          return false;
        }
        break;
      }
      if (IsSwitch(c)) {
        const Node* pred = src->input_node(1);
        if (switched || src->op() != "Switch" || l->src_output() != 1 || pred == nullptr ||
            !IsLoopCond(pred->op_class())) {
          return false;
        }
        switched = true;
      } else if (!IsIdentity(c) || l->src_output() != 0) {
        return false;
      }
      next = src;
      l = src->input_edge(0);
    }
    Node* enter = l->src();
    if (FrameName(*enter) != FrameName(*w_enter)) return false;
    const Edge* from = enter->input_edge(0);
    if (from == nullptr || from->src_output() != 0) return false;
    Node* list = from->src();
    if (list->op() != "TensorListFromTensor" || !never_dead_[list->id()] ||
        !TypeAttrIs(*list, "element_dtype", DT_FLOAT) || list->assigned_device_name() != device) {
      return false;
    }
    // TensorListFromTensor's element_shape: a Const [b, D] with D == W's inner dim.
    const Node* es = list->input_node(1);
    if (es == nullptr || es->op() != "Const") return false;
    const AttrValue* es_value = NodeAttrOrNull(*es, "value");
    if (es_value == nullptr) return false;
    absl::StatusOr<Tensor> shape = TensorFromProto(es_value->tensor());
    if (!shape.ok() || shape->shape().rank() != 1 || shape->NumElements() != 2) return false;
    int64_t last;
    if (shape->dtype() == DT_INT32) {
      last = shape->flat<int32_t>()[1];
    } else if (shape->dtype() == DT_INT64) {
      last = shape->flat<int64_t>()[1];
    } else {
      return false;
    }
    if (last != inner || inner < 0) return false;
    *p = Projection{mm, get, enter, list, weights, w_reader, transpose_b};
    return true;
  }

  std::string UniqueName(const std::string& base) {
    std::string name = base;
    for (int i = 1; graph_->FindNode(name) != nullptr; ++i) name = absl::StrCat(base, "_", i);
    return name;
  }

  absl::StatusOr<Node*> Add(NodeDef def, const Node& like) {
    def.set_device(like.requested_device());
    RILL_ASSIGN_OR_RETURN(Node * n, graph_->AddNode(std::move(def)));
    n->set_assigned_device_name(like.assigned_device_name());
    return n;
  }

  absl::Status Rewrite(const Projection& p) {
    const Edge* x = p.list->input_edge(0);
    if (x == nullptr) return absl::InternalError("the list has no input");
    const std::string base = absl::StrCat(p.matmul->name(), "/input_projection");
    // The product of every step's rows, before the loop.
    NodeDef product;
    product.set_name(UniqueName(base));
    product.set_op("BatchMatMulV2");
    (*product.mutable_attr())["T"].set_type(DT_FLOAT);
    (*product.mutable_attr())["adj_x"].set_b(false);
    (*product.mutable_attr())["adj_y"].set_b(p.transpose_b);
    RILL_ASSIGN_OR_RETURN(Node * bmm, Add(std::move(product), *p.list));
    RILL_RETURN_IF_ERROR(graph_->AddEdge(x->src(), x->src_output(), bmm, 0).status());
    RILL_RETURN_IF_ERROR(graph_->AddEdge(p.weights, 0, bmm, 1).status());
    graph_->AddControlEdge(p.list, bmm);
    // Its rows as a list of any element shape.
    NodeDef shape;
    shape.set_name(UniqueName(absl::StrCat(base, "/element_shape")));
    shape.set_op("Const");
    (*shape.mutable_attr())["dtype"].set_type(DT_INT32);
    TensorProto& unknown = *(*shape.mutable_attr())["value"].mutable_tensor();
    unknown.set_dtype(DT_INT32);
    unknown.add_int_val(-1);
    RILL_ASSIGN_OR_RETURN(Node * es, Add(std::move(shape), *p.list));
    NodeDef rows;
    rows.set_name(UniqueName(absl::StrCat(base, "/list")));
    rows.set_op("TensorListFromTensor");
    (*rows.mutable_attr())["element_dtype"].set_type(DT_FLOAT);
    (*rows.mutable_attr())["shape_type"].set_type(DT_INT32);
    RILL_ASSIGN_OR_RETURN(Node * list, Add(std::move(rows), *p.list));
    RILL_RETURN_IF_ERROR(graph_->AddEdge(bmm, 0, list, 0).status());
    RILL_RETURN_IF_ERROR(graph_->AddEdge(es, 0, list, 1).status());
    // The loop's Enter reads the new list.
    graph_->RemoveEdge(p.enter->input_edge(0));
    RILL_RETURN_IF_ERROR(graph_->AddEdge(list, 0, p.enter, 0).status());
    // The GetItem waits on what the MatMul waited on.
    std::vector<Node*> waits;
    for (const Edge* e : p.matmul->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) waits.push_back(e->src());
    }
    if (!IsEnter(p.w_reader->op_class())) waits.push_back(p.w_reader);
    for (Node* w : waits) {
      bool reads = false;
      for (const Edge* e : p.get_item->in_edges()) reads |= e->src() == w;
      if (!reads) graph_->AddControlEdge(w, p.get_item);
    }
    // The MatMul's readers read the GetItem.
    RILL_RETURN_IF_ERROR(MoveOutEdges(graph_, p.matmul, p.get_item, 0));
    graph_->RemoveNode(p.matmul);
    return absl::OkStatus();
  }

  Graph* graph_;
  std::vector<char> never_dead_;  // by node id
};

}  // namespace

absl::StatusOr<int> HoistLoopInputProjections(Graph* graph) { return Rewriter(graph).Run(); }

}  // namespace rill
