#include "tests/reliability/op_sweep.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/bfloat16.h"
#include "core/half.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"
#include "session/session.h"
#include "tests/fuzz/session_check.h"

namespace rill {
namespace op_sweep {
namespace {

constexpr double kHuge = 1099511627776.0;  // 2^40: a size no allocation may honour
constexpr int kMaxTypeAssignments = 4;
constexpr int kMixedInputCases = 24;
constexpr int kHostileAttrPairs = 12;

// An input tensor's shape and values (as doubles; strings derive from them), before conversion to
// the input's dtype.
struct Recipe {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// 0, 1, ..., n-1 with every third value negated: distinct, mixed-sign values.
std::vector<double> Ramp(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(i % 3 == 2 ? -i : i);
  return v;
}

const std::vector<Recipe>& Recipes() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  static const std::vector<Recipe> recipes = {
      {"scalar", {}, {1}},
      {"vector", {3}, {1, 2, 0}},
      {"matrix", {2, 3}, {1, -1, 0, 2, 3, -2}},
      {"empty", {0}, {}},
      {"empty2", {2, 0}, {}},
      {"rank4", {1, 2, 2, 1}, {1, 2, 3, 4}},
      {"special", {2, 2}, {nan, inf, -inf, -0.0}},
      {"extremes", {2}, {2147483647.0, -2147483648.0}},
      {"huge", {}, {kHuge}},
      {"huge_vector", {2}, {kHuge, 2}},
      {"negative", {2}, {-1, -5}},
      {"zero", {}, {0}},
      {"perm", {2}, {1, 0}},
      {"rank5", {1, 1, 1, 2, 1}, {3, 4}},
      {"rank3", {2, 3, 4}, Ramp(24)},
      {"large", {64, 33}, Ramp(64 * 33)},
      {"one", {1}, {2}},
      {"int64_huge", {2}, {4.6e18, -4.6e18}},
      {"tiny", {2}, {1e-40, -1e-310}},
  };
  return recipes;
}

template <typename Int>
Int ClampTo(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<Int>::lowest())) {
    return std::numeric_limits<Int>::lowest();
  }
  if (v >= static_cast<double>(std::numeric_limits<Int>::max())) {
    return std::numeric_limits<Int>::max();
  }
  return static_cast<Int>(v);
}

std::string StringOf(double v, size_t i) {
  if (std::isnan(v)) return "\xff\xfe";
  if (std::isinf(v)) return std::string(1000, 'a');
  if (v == 0) return "";
  return i % 2 == 0 ? "ab" : "c,d e";
}

// A TensorProto of `dtype` holding `r` (false for dtypes a Const cannot hold here).
bool MakeTensor(DataType dtype, const Recipe& r, TensorProto* t) {
  t->set_dtype(dtype);
  for (int64_t d : r.shape) t->mutable_tensor_shape()->add_dim()->set_size(d);
  for (size_t i = 0; i < r.values.size(); ++i) {
    const double v = r.values[i];
    switch (dtype) {
      case DT_FLOAT:
        t->add_float_val(static_cast<float>(v));
        break;
      case DT_DOUBLE:
        t->add_double_val(v);
        break;
      case DT_HALF:
        t->add_half_val(half(static_cast<float>(v)).bits);
        break;
      case DT_BFLOAT16:
        t->add_half_val(bfloat16(static_cast<float>(v)).bits);
        break;
      case DT_INT32:
        t->add_int_val(ClampTo<int32_t>(v));
        break;
      case DT_INT16:
        t->add_int_val(ClampTo<int16_t>(v));
        break;
      case DT_INT8:
        t->add_int_val(ClampTo<int8_t>(v));
        break;
      case DT_UINT8:
        t->add_int_val(ClampTo<uint8_t>(v));
        break;
      case DT_UINT16:
        t->add_int_val(ClampTo<uint16_t>(v));
        break;
      case DT_UINT32:
        t->add_uint32_val(ClampTo<uint32_t>(v));
        break;
      case DT_UINT64:
        t->add_uint64_val(ClampTo<uint64_t>(v));
        break;
      case DT_INT64:
        t->add_int64_val(ClampTo<int64_t>(v));
        break;
      case DT_BOOL:
        t->add_bool_val(v != 0);
        break;
      case DT_STRING:
        t->add_string_val(StringOf(v, i));
        break;
      case DT_COMPLEX64:
        t->add_scomplex_val(static_cast<float>(v));
        t->add_scomplex_val(static_cast<float>(-v));
        break;
      case DT_COMPLEX128:
        t->add_dcomplex_val(v);
        t->add_dcomplex_val(-v);
        break;
      default:
        return false;
    }
  }
  return true;
}

// The dtypes tried for a type attr no CPU kernel constrains.
std::vector<DataType> PlainTypes(const OpDef::AttrDef& attr) {
  std::vector<DataType> out;
  const std::vector<DataType> preferred = {DT_FLOAT, DT_INT32, DT_INT64, DT_STRING, DT_BOOL};
  if (attr.has_allowed_values()) {
    const auto& allowed = attr.allowed_values().list().type();
    for (DataType t : preferred) {
      if (std::find(allowed.begin(), allowed.end(), t) != allowed.end()) out.push_back(t);
    }
    if (out.empty() && !allowed.empty()) out.push_back(static_cast<DataType>(allowed[0]));
    return out;
  }
  if (attr.has_default_value() && attr.default_value().has_type()) {
    return {attr.default_value().type()};
  }
  return {DT_FLOAT, DT_INT32};
}

// Type assignments (attr -> dtype) taken from the op's CPU kernels: each kernel's constraints
// give up to two dtypes per attr, preferring float32 and int32.
std::vector<std::map<std::string, DataType>> TypeAssignments(const OpDef& op_def,
                                                             const std::vector<KernelDef>& cpu) {
  std::vector<std::string> type_attrs;
  for (const OpDef::AttrDef& a : op_def.attr()) {
    if (a.type() == "type") type_attrs.push_back(a.name());
  }
  std::vector<std::map<std::string, DataType>> out;
  std::set<std::map<std::string, DataType>> seen;
  for (int pick = 0; pick < 2; ++pick) {
    for (const KernelDef& k : cpu) {
      std::map<std::string, DataType> assignment;
      for (const std::string& name : type_attrs) {
        const OpDef::AttrDef* attr = nullptr;
        for (const OpDef::AttrDef& a : op_def.attr()) {
          if (a.name() == name) attr = &a;
        }
        auto it = k.type_constraints.find(name);
        std::vector<DataType> choices =
            it != k.type_constraints.end() ? it->second : PlainTypes(*attr);
        std::stable_sort(choices.begin(), choices.end(), [](DataType a, DataType b) {
          auto rank = [](DataType t) { return t == DT_FLOAT ? 0 : t == DT_INT32 ? 1 : 2; };
          return rank(a) < rank(b);
        });
        if (choices.empty()) continue;
        assignment[name] = choices[std::min<size_t>(pick, choices.size() - 1)];
      }
      if (seen.insert(assignment).second) out.push_back(assignment);
      if (static_cast<int>(out.size()) >= kMaxTypeAssignments) return out;
    }
  }
  return out;
}

// A plain value for an attr without a default.
bool PlainAttr(const OpDef::AttrDef& a, const std::map<std::string, DataType>& types,
               AttrValue* v) {
  const std::string& t = a.type();
  if (t == "type") {
    auto it = types.find(a.name());
    v->set_type(it != types.end() ? it->second : DT_FLOAT);
  } else if (t == "int") {
    v->set_i(a.has_minimum() ? std::max<int64_t>(a.minimum(), 1) : 1);
  } else if (t == "float") {
    v->set_f(1.0f);
  } else if (t == "bool") {
    v->set_b(false);
  } else if (t == "string") {
    v->set_s(a.has_allowed_values() && a.allowed_values().list().s_size() > 0
                 ? a.allowed_values().list().s(0)
                 : "a");
  } else if (t == "shape") {
    v->mutable_shape()->add_dim()->set_size(2);
  } else if (t == "list(int)") {
    for (int i = 0; i < 4; ++i) v->mutable_list()->add_i(1);
  } else if (t == "list(float)") {
    v->mutable_list()->add_f(1.0f);
  } else if (t == "list(string)") {
    v->mutable_list()->add_s("a");
  } else if (t == "list(type)") {
    v->mutable_list()->add_type(DT_FLOAT);
    v->mutable_list()->add_type(DT_INT32);
  } else if (t == "list(shape)") {
    v->mutable_list()->add_shape()->add_dim()->set_size(2);
  } else if (t == "tensor") {
    TensorProto* tp = v->mutable_tensor();
    tp->set_dtype(DT_FLOAT);
    tp->add_float_val(1.0f);
  } else if (t == "func") {
    v->mutable_func()->set_name("no_such_function");
  } else if (t == "list(func)") {
    v->mutable_list()->add_func()->set_name("no_such_function");
  } else {
    return false;
  }
  return true;
}

// Type codes no kernel takes: invalid, out of DataType's range, a reference, resource, variant.
constexpr int kHostileTypeCodes[] = {DT_INVALID, 1000, -1, DT_FLOAT_REF, DT_RESOURCE, DT_VARIANT};

// Hostile values of attr `a` (for a type attr, HostileTypes: the inputs cannot follow them).
std::vector<std::pair<std::string, AttrValue>> HostileAttrs(const OpDef::AttrDef& a) {
  std::vector<std::pair<std::string, AttrValue>> out;
  auto add = [&](const std::string& label, auto fill) {
    AttrValue v;
    fill(&v);
    out.emplace_back(label, v);
  };
  const std::string& t = a.type();
  if (t == "int") {
    for (int64_t i :
         {int64_t{-1}, int64_t{0}, int64_t{1} << 40, int64_t{1} << 31, -(int64_t{1} << 31),
          std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
      add(absl::StrCat(i), [i](AttrValue* v) { v->set_i(i); });
    }
  } else if (t == "float") {
    add("nan", [](AttrValue* v) { v->set_f(std::numeric_limits<float>::quiet_NaN()); });
    add("-1", [](AttrValue* v) { v->set_f(-1.0f); });
    add("inf", [](AttrValue* v) { v->set_f(std::numeric_limits<float>::infinity()); });
    add("-inf", [](AttrValue* v) { v->set_f(-std::numeric_limits<float>::infinity()); });
    add("3e38", [](AttrValue* v) { v->set_f(3e38f); });
  } else if (t == "bool") {
    const bool flipped = !(a.has_default_value() && a.default_value().b());
    add(flipped ? "true" : "false", [flipped](AttrValue* v) { v->set_b(flipped); });
  } else if (t == "string") {
    add("''", [](AttrValue* v) { v->set_s(""); });
    add("'bogus'", [](AttrValue* v) { v->set_s("bogus%n%s"); });
  } else if (t == "shape") {
    add("[-2]", [](AttrValue* v) { v->mutable_shape()->add_dim()->set_size(-2); });
    add("[2^40,2^40]", [](AttrValue* v) {
      v->mutable_shape()->add_dim()->set_size(int64_t{1} << 40);
      v->mutable_shape()->add_dim()->set_size(int64_t{1} << 40);
    });
    add("[0,2^63-1,2^63-1]", [](AttrValue* v) {
      v->mutable_shape()->add_dim()->set_size(0);
      v->mutable_shape()->add_dim()->set_size(std::numeric_limits<int64_t>::max());
      v->mutable_shape()->add_dim()->set_size(std::numeric_limits<int64_t>::max());
    });
    add("[-2^63]", [](AttrValue* v) {
      v->mutable_shape()->add_dim()->set_size(std::numeric_limits<int64_t>::min());
    });
  } else if (t == "list(int)") {
    add("[]", [](AttrValue* v) { v->mutable_list(); });
    add("[0,0,0,0]", [](AttrValue* v) {
      for (int i = 0; i < 4; ++i) v->mutable_list()->add_i(0);
    });
    add("[-1,-1,-1,-1]", [](AttrValue* v) {
      for (int i = 0; i < 4; ++i) v->mutable_list()->add_i(-1);
    });
    add("[1,2^40,1,1]", [](AttrValue* v) {
      v->mutable_list()->add_i(1);
      v->mutable_list()->add_i(int64_t{1} << 40);
      v->mutable_list()->add_i(1);
      v->mutable_list()->add_i(1);
    });
    for (int64_t i : {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
      add(absl::StrCat("[", i, " x4]"), [i](AttrValue* v) {
        for (int k = 0; k < 4; ++k) v->mutable_list()->add_i(i);
      });
    }
  } else if (t == "list(float)") {
    add("[]", [](AttrValue* v) { v->mutable_list(); });
    add("[nan,-1]", [](AttrValue* v) {
      v->mutable_list()->add_f(std::numeric_limits<float>::quiet_NaN());
      v->mutable_list()->add_f(-1.0f);
    });
  } else if (t == "list(type)") {
    add("[]", [](AttrValue* v) { v->mutable_list(); });
    for (int code : kHostileTypeCodes) {
      add(absl::StrCat("[", code, "]"),
          [code](AttrValue* v) { v->mutable_list()->add_type(static_cast<DataType>(code)); });
    }
  } else if (t == "list(string)") {
    add("[]", [](AttrValue* v) { v->mutable_list(); });
  } else if (t == "list(shape)") {
    add("[]", [](AttrValue* v) { v->mutable_list(); });
  }
  return out;
}

// Codes no kernel takes for type attr `a`; a case sets one on node x after its inputs were made
// for a valid assignment (an input of an invalid dtype cannot be made).
std::vector<std::pair<std::string, AttrValue>> HostileTypes(const OpDef::AttrDef& a) {
  std::vector<std::pair<std::string, AttrValue>> out;
  if (a.type() != "type") return out;
  for (int code : kHostileTypeCodes) {
    AttrValue v;
    v.set_type(static_cast<DataType>(code));
    out.emplace_back(absl::StrCat(code), v);
  }
  return out;
}

// The dtypes of input arg `arg` under `attrs`: empty for an arg the sweep cannot feed.
bool InputTypes(const OpDef::ArgDef& arg,
                const google::protobuf::Map<std::string, AttrValue>& attrs,
                std::vector<DataType>* types) {
  types->clear();
  if (!arg.type_list_attr().empty()) {
    auto it = attrs.find(arg.type_list_attr());
    if (it == attrs.end()) return false;
    for (int t : it->second.list().type()) types->push_back(static_cast<DataType>(t));
  } else {
    DataType t = arg.type();
    if (!arg.type_attr().empty()) {
      auto it = attrs.find(arg.type_attr());
      if (it == attrs.end()) return false;
      t = it->second.type();
    }
    int64_t n = 1;
    if (!arg.number_attr().empty()) {
      auto it = attrs.find(arg.number_attr());
      if (it == attrs.end()) return false;
      n = std::min<int64_t>(std::max<int64_t>(it->second.i(), 0), 8);
    }
    for (int64_t i = 0; i < n; ++i) types->push_back(t);
  }
  return true;
}

// The dtype a resource or variant input holds: the op's "dtype", "element_dtype" or "T" attr.
DataType HeldType(const google::protobuf::Map<std::string, AttrValue>& attrs) {
  for (const char* name : {"dtype", "element_dtype", "T"}) {
    auto it = attrs.find(name);
    if (it != attrs.end() && it->second.type() != DT_INVALID) return it->second.type();
  }
  return DT_FLOAT;
}

NodeDef* AddNode(GraphDef* graph, const std::string& name, const std::string& op) {
  NodeDef* n = graph->add_node();
  n->set_name(name);
  n->set_op(op);
  return n;
}

// Adds a Const `name` of `dtype` holding `r`; false when the dtype cannot be made.
bool AddConst(GraphDef* graph, const std::string& name, DataType dtype, const Recipe& r) {
  NodeDef* c = AddNode(graph, name, "Const");
  (*c->mutable_attr())["dtype"].set_type(dtype);
  return MakeTensor(dtype, r, (*c->mutable_attr())["value"].mutable_tensor());
}

// Adds the producer of one input of x named `name`: a Const of `r`; for a reference a VariableV2
// that `name`/assign sets to it; for a resource a VarHandleOp of `held` that `name`/assign sets;
// for a variant a TensorListFromTensor of it (an EmptyTensorList for a scalar recipe). The
// control inputs x must wait on go to `controls`.
bool AddInput(GraphDef* graph, const std::string& name, DataType type, bool is_ref, DataType held,
              const Recipe& r, std::vector<std::string>* controls) {
  if (type == DT_RESOURCE) {
    NodeDef* h = AddNode(graph, name, "VarHandleOp");
    (*h->mutable_attr())["dtype"].set_type(held);
    (*h->mutable_attr())["shape"].mutable_shape()->set_unknown_rank(true);
    (*h->mutable_attr())["shared_name"].set_s(name);
    if (!AddConst(graph, name + "/value", held, r)) return false;
    NodeDef* a = AddNode(graph, name + "/assign", "AssignVariableOp");
    a->add_input(name);
    a->add_input(name + "/value");
    (*a->mutable_attr())["dtype"].set_type(held);
    controls->push_back("^" + a->name());
    return true;
  }
  if (type == DT_VARIANT) {
    if (!AddConst(graph, name + "/element_shape", DT_INT32, Recipe{"unknown", {}, {-1}})) {
      return false;
    }
    NodeDef* list;
    if (r.shape.empty()) {
      if (!AddConst(graph, name + "/max", DT_INT32, Recipe{"none", {}, {-1}})) return false;
      list = AddNode(graph, name, "EmptyTensorList");
      list->add_input(name + "/element_shape");
      list->add_input(name + "/max");
    } else {
      if (!AddConst(graph, name + "/tensor", held, r)) return false;
      list = AddNode(graph, name, "TensorListFromTensor");
      list->add_input(name + "/tensor");
      list->add_input(name + "/element_shape");
    }
    (*list->mutable_attr())["element_dtype"].set_type(held);
    (*list->mutable_attr())["shape_type"].set_type(DT_INT32);
    return true;
  }
  if (!is_ref) return AddConst(graph, name, type, r);
  NodeDef* v = AddNode(graph, name, "VariableV2");
  (*v->mutable_attr())["dtype"].set_type(type);
  (*v->mutable_attr())["shape"].mutable_shape()->set_unknown_rank(true);
  if (!AddConst(graph, name + "/value", type, r)) return false;
  NodeDef* a = AddNode(graph, name + "/assign", "Assign");
  a->add_input(name);
  a->add_input(name + "/value");
  (*a->mutable_attr())["T"].set_type(type);
  (*a->mutable_attr())["validate_shape"].set_b(false);
  controls->push_back("^" + a->name());
  return true;
}

// Builds one case: node x of `op_def` with `attrs`, input i fed by recipe `recipe_of(i)`.
// False when an input cannot be made.
template <typename RecipeOf>
bool BuildCase(const OpDef& op_def, const google::protobuf::Map<std::string, AttrValue>& attrs,
               RecipeOf recipe_of, GraphDef* graph) {
  NodeDef x;
  x.set_name("x");
  x.set_op(op_def.name());
  *x.mutable_attr() = attrs;
  int flat = 0;
  std::vector<std::string> controls;
  for (const OpDef::ArgDef& arg : op_def.input_arg()) {
    std::vector<DataType> types;
    if (!InputTypes(arg, attrs, &types)) return false;
    for (size_t i = 0; i < types.size(); ++i, ++flat) {
      const std::string name = absl::StrCat("in_", arg.name(), "_", i);
      if (!AddInput(graph, name, types[i], arg.is_ref(), HeldType(attrs), recipe_of(flat),
                    &controls)) {
        return false;
      }
      x.add_input(name);
    }
  }
  for (const std::string& c : controls) x.add_input(c);
  *graph->add_node() = std::move(x);
  return true;
}

std::string TypesLabel(const std::map<std::string, DataType>& types) {
  std::vector<std::string> parts;
  for (const auto& [name, t] : types) parts.push_back(absl::StrCat(name, "=", DataTypeString(t)));
  return absl::StrJoin(parts, ",");
}

}  // namespace

std::vector<SweepCase> SweepCasesForOp(const std::string& op, std::string* skipped, uint32_t seed) {
  std::vector<SweepCase> cases;
  const OpRegistration* reg = OpRegistry::Global()->LookUp(op);
  if (reg == nullptr) {
    *skipped = "not registered";
    return cases;
  }
  const OpDef& op_def = reg->op_def;
  std::vector<KernelDef> cpu;
  for (const KernelDef& k : KernelRegistry::Global()->ListKernels()) {
    if (k.op == op && k.device_type == kDeviceCpu) cpu.push_back(k);
  }
  if (cpu.empty()) {
    *skipped = "no CPU kernel";
    return cases;
  }
  const auto& recipes = Recipes();
  // Seeded by the op's name with a fixed hash (absl::Hash is salted per process), so a case's
  // number names the same graph in every run.
  uint32_t hash = 2166136261u ^ seed;
  for (char ch : op) hash = (hash ^ static_cast<uint8_t>(ch)) * 16777619u;
  std::mt19937 rng(hash);
  for (const auto& types : TypeAssignments(op_def, cpu)) {
    google::protobuf::Map<std::string, AttrValue> base;
    bool plain = true;
    for (const OpDef::AttrDef& a : op_def.attr()) {
      auto t = types.find(a.name());
      if (t != types.end()) {
        base[a.name()].set_type(t->second);
      } else if (a.has_default_value()) {
        base[a.name()] = a.default_value();
      } else if (!PlainAttr(a, types, &base[a.name()])) {
        plain = false;
      }
    }
    if (!plain) continue;
    const std::string type_label = TypesLabel(types);
    auto add = [&](const std::string& label,
                   const google::protobuf::Map<std::string, AttrValue>& attrs, auto recipe_of) {
      SweepCase c;
      c.op = op;
      c.label = absl::StrCat(type_label, " ", label);
      c.deterministic = !op_def.is_stateful();
      if (BuildCase(op_def, attrs, recipe_of, &c.graph)) cases.push_back(std::move(c));
    };
    // Every input the same recipe.
    for (const Recipe& r : recipes) {
      add(absl::StrCat("inputs=", r.name), base, [&r](int) -> const Recipe& { return r; });
    }
    // Seeded mixtures: each input its own recipe.
    for (int m = 0; m < kMixedInputCases; ++m) {
      std::vector<int> picks;
      for (int i = 0; i < 16; ++i) picks.push_back(static_cast<int>(rng() % recipes.size()));
      std::vector<std::string> names;
      for (int i = 0; i < 4; ++i) names.push_back(recipes[picks[i]].name);
      add(absl::StrCat("inputs=", absl::StrJoin(names, "/")), base,
          [&recipes, picks](int i) -> const Recipe& { return recipes[picks[i % 16]]; });
    }
    // One attr at a time at a hostile value, on every recipe; then seeded pairs of hostile
    // attrs on seeded mixtures of inputs.
    std::vector<std::pair<std::string, std::pair<std::string, AttrValue>>> hostile;
    for (const OpDef::AttrDef& a : op_def.attr()) {
      for (auto& value : HostileAttrs(a)) hostile.emplace_back(a.name(), std::move(value));
    }
    for (const auto& [attr, labelled] : hostile) {
      google::protobuf::Map<std::string, AttrValue> attrs = base;
      attrs[attr] = labelled.second;
      for (const Recipe& r : recipes) {
        add(absl::StrCat("inputs=", r.name, " ", attr, "=", labelled.first), attrs,
            [&r](int) -> const Recipe& { return r; });
      }
    }
    for (const OpDef::AttrDef& a : op_def.attr()) {
      for (const auto& [label, value] : HostileTypes(a)) {
        for (const Recipe* r : {&recipes[0], &recipes[recipes.size() / 2]}) {
          SweepCase c;
          c.op = op;
          c.label = absl::StrCat(type_label, " inputs=", r->name, " ", a.name(), "=", label);
          c.deterministic = !op_def.is_stateful();
          if (!BuildCase(
                  op_def, base, [r](int) -> const Recipe& { return *r; }, &c.graph)) {
            continue;
          }
          (*c.graph.mutable_node(c.graph.node_size() - 1)->mutable_attr())[a.name()] = value;
          cases.push_back(std::move(c));
        }
      }
    }
    for (int m = 0; m < kHostileAttrPairs && hostile.size() > 1; ++m) {
      const auto& one = hostile[rng() % hostile.size()];
      const auto& two = hostile[rng() % hostile.size()];
      google::protobuf::Map<std::string, AttrValue> attrs = base;
      attrs[one.first] = one.second.second;
      attrs[two.first] = two.second.second;
      std::vector<int> picks;
      for (int i = 0; i < 16; ++i) picks.push_back(static_cast<int>(rng() % recipes.size()));
      add(absl::StrCat("inputs=", recipes[picks[0]].name, "/", recipes[picks[1]].name, "/... ",
                       one.first, "=", one.second.first, " ", two.first, "=", two.second.first),
          attrs, [&recipes, picks](int i) -> const Recipe& { return recipes[picks[i % 16]]; });
    }
  }
  if (cases.empty()) *skipped = "no dtype assignment the sweep can feed";
  return cases;
}

namespace {

// One session's Create and two Runs of a case.
struct SessionRuns {
  absl::Status create, run, again;
  std::string first, second;    // fingerprints of successful runs
  std::vector<Tensor> outputs;  // the first run's
};

SessionRuns CreateAndRunTwice(const SweepCase& c, const ConfigProto& config) {
  SessionRuns r;
  SessionOptions options;
  options.config = config;
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  if (!session.ok()) {
    r.create = session.status();
    return r;
  }
  r.create = (*session)->Create(c.graph);
  if (!r.create.ok()) return r;
  const OpRegistration* reg = OpRegistry::Global()->LookUp(c.op);
  const bool fetch_output = reg != nullptr && reg->op_def.output_arg_size() > 0 &&
                            reg->op_def.output_arg(0).number_attr().empty() &&
                            reg->op_def.output_arg(0).type_list_attr().empty();
  const std::vector<std::string> fetches =
      fetch_output ? std::vector<std::string>{"x:0"} : std::vector<std::string>{};
  const std::vector<std::string> targets =
      fetch_output ? std::vector<std::string>{} : std::vector<std::string>{"x"};
  std::vector<Tensor> out;
  r.run = (*session)->Run({}, fetches, targets, &r.outputs);
  if (r.run.ok()) r.first = fuzz::Fingerprint(r.outputs);
  r.again = (*session)->Run({}, fetches, targets, &out);
  if (r.again.ok()) r.second = fuzz::Fingerprint(out);
  return r;
}

std::string Defect(const SweepCase& c, const SessionRuns& r, const std::string& which) {
  if (!r.create.ok()) {
    return r.create.message().empty() ? which + "Create failed with an empty message" : "";
  }
  if (!r.run.ok() && r.run.message().empty()) return which + "Run failed with an empty message";
  if (!c.deterministic) return "";
  if (r.run.ok() != r.again.ok()) {
    return absl::StrCat(which, "run 1 ", r.run.ToString(), ", run 2 ", r.again.ToString());
  }
  if (r.first != r.second) {
    return absl::StrCat(which, "run 1 gave ", r.first, " run 2 gave ", r.second);
  }
  return "";
}

}  // namespace

SweepResult RunSweepCase(const SweepCase& c, int timeout_ms) {
  ConfigProto config;
  config.set_operation_timeout_in_ms(timeout_ms);
  const SessionRuns optimized = CreateAndRunTwice(c, config);
  SweepResult result;
  result.create = optimized.create;
  result.run = optimized.run;
  result.outputs = optimized.outputs;
  result.defect = Defect(c, optimized, "");
  if (!result.defect.empty()) return result;
  // The same graph with the graph optimizer off (no constant folding): the same codes and, for a
  // deterministic op, the same outputs.
  config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  const SessionRuns plain = CreateAndRunTwice(c, config);
  result.defect = Defect(c, plain, "optimizer off: ");
  if (!result.defect.empty()) return result;
  if (plain.create.code() != optimized.create.code() || plain.run.code() != optimized.run.code()) {
    result.defect =
        absl::StrCat("optimizer on: ", optimized.create.ToString(), " / ", optimized.run.ToString(),
                     "; off: ", plain.create.ToString(), " / ", plain.run.ToString());
  } else if (c.deterministic && plain.first != optimized.first) {
    result.defect = absl::StrCat("optimizer on gave ", optimized.first, " off gave ", plain.first);
  }
  return result;
}

}  // namespace op_sweep
}  // namespace rill
