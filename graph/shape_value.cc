#include "graph/shape_value.h"

#include <algorithm>
#include <limits>
#include <string>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

// Deep enough for Concat(Pack(StridedSlice(Shape(Identity(x))))) chains; bounds the walk.
constexpr int kMaxDepth = 10;
// Values longer than this are not tracked (shapes, axes and multiples are short).
constexpr int64_t kMaxElements = 1024;

std::optional<PartialValue> Evaluate(const ShapeValueGraph& g, int node, int output, int depth);

// An int attr, 0 when the NodeDef lacks it (the masks' and Pack's axis default).
int64_t IntAttrOrZero(const NodeDef& def, absl::string_view name) {
  int64_t v = 0;
  return GetNodeAttr(def, name, &v).ok() ? v : 0;
}

std::optional<PartialValue> EvaluateInput(const ShapeValueGraph& g, int node, int i, int depth) {
  int producer, output;
  if (!g.Input(node, i, &producer, &output)) return std::nullopt;
  return Evaluate(g, producer, output, depth + 1);
}

std::optional<PartialValue> FromConst(const NodeDef& def) {
  auto value = def.attr().find("value");
  if (value == def.attr().end() || !value->second.has_tensor()) return std::nullopt;
  const TensorProto& proto = value->second.tensor();
  if (proto.dtype() != DT_INT32 && proto.dtype() != DT_INT64) return std::nullopt;
  absl::StatusOr<Tensor> t = TensorFromProto(proto);
  if (!t.ok() || t->shape().rank() > 1 || t->NumElements() > kMaxElements) return std::nullopt;
  PartialValue v;
  v.scalar = t->shape().rank() == 0;
  for (int64_t i = 0; i < t->NumElements(); ++i) {
    v.elements.push_back(t->dtype() == DT_INT32 ? t->flat<int32_t>()[i] : t->flat<int64_t>()[i]);
  }
  return v;
}

std::optional<PartialValue> ShapeOf(const ShapeValueGraph& g, int node, int i) {
  int producer, output;
  if (!g.Input(node, i, &producer, &output)) return std::nullopt;
  const PartialTensorShape s = g.OutputShape(producer, output);
  if (s.unknown_rank()) return std::nullopt;
  return PartialValue{false, s.dims()};
}

// The exact elements of a Const input (begin, end, strides), or nullopt.
std::optional<std::vector<int64_t>> ConstVector(const ShapeValueGraph& g, int node, int i) {
  int producer, output;
  if (!g.Input(node, i, &producer, &output)) return std::nullopt;
  const NodeDef& def = g.Def(producer);
  if (def.op() != "Const") return std::nullopt;
  std::optional<PartialValue> v = FromConst(def);
  if (!v || v->scalar) return std::nullopt;
  return v->elements;
}

// Python slicing of a vector of length n by one (begin, end, stride), as StridedSlice computes it.
std::optional<PartialValue> SliceVector(const PartialValue& in, int64_t begin, int64_t end,
                                        int64_t stride, bool begin_masked, bool end_masked,
                                        bool shrink) {
  const int64_t n = static_cast<int64_t>(in.elements.size());
  if (stride == 0) return std::nullopt;
  if (shrink) {
    const int64_t at = begin < 0 ? begin + n : begin;
    if (at < 0 || at >= n) return std::nullopt;  // the kernel reports it
    return PartialValue{true, {in.elements[at]}};
  }
  auto clamp = [&](int64_t v, bool masked, bool is_begin) -> int64_t {
    if (masked) {
      if (stride > 0) return is_begin ? 0 : n;
      return is_begin ? n - 1 : -1;
    }
    if (v < 0) v += n;
    return stride > 0 ? std::clamp<int64_t>(v, 0, n) : std::clamp<int64_t>(v, -1, n - 1);
  };
  const int64_t b = clamp(begin, begin_masked, true);
  const int64_t e = clamp(end, end_masked, false);
  PartialValue out;
  for (int64_t i = b; stride > 0 ? i < e : i > e; i += stride)
    out.elements.push_back(in.elements[i]);
  return out;
}

std::optional<PartialValue> StridedSliceValue(const ShapeValueGraph& g, int node, int depth) {
  const NodeDef& def = g.Def(node);
  if (IntAttrOrZero(def, "ellipsis_mask") != 0 || IntAttrOrZero(def, "new_axis_mask") != 0) {
    return std::nullopt;
  }
  const int64_t begin_mask = IntAttrOrZero(def, "begin_mask");
  const int64_t end_mask = IntAttrOrZero(def, "end_mask");
  const int64_t shrink_mask = IntAttrOrZero(def, "shrink_axis_mask");
  std::optional<std::vector<int64_t>> begin = ConstVector(g, node, 1);
  std::optional<std::vector<int64_t>> end = ConstVector(g, node, 2);
  std::optional<std::vector<int64_t>> strides = ConstVector(g, node, 3);
  if (!begin || !end || !strides || begin->size() != 1 || end->size() != 1 ||
      strides->size() != 1) {
    return std::nullopt;
  }
  std::optional<PartialValue> in = EvaluateInput(g, node, 0, depth);
  if (!in || in->scalar) return std::nullopt;
  return SliceVector(*in, (*begin)[0], (*end)[0], (*strides)[0], begin_mask & 1, end_mask & 1,
                     shrink_mask & 1);
}

// Pack of scalars along axis 0: each element known where its scalar is.
std::optional<PartialValue> PackValue(const ShapeValueGraph& g, int node, int depth) {
  const NodeDef& def = g.Def(node);
  int64_t n = 0;
  if (!GetNodeAttr(def, "N", &n).ok()) return std::nullopt;
  if (IntAttrOrZero(def, "axis") != 0 || n > kMaxElements) return std::nullopt;
  PartialValue out;
  for (int i = 0; i < n; ++i) {
    int producer, output;
    if (!g.Input(node, i, &producer, &output)) return std::nullopt;
    const PartialTensorShape s = g.OutputShape(producer, output);
    if (!s.unknown_rank() && s.rank() != 0) return std::nullopt;  // not a Pack of scalars
    std::optional<PartialValue> v = Evaluate(g, producer, output, depth + 1);
    out.elements.push_back(v && v->scalar ? v->elements[0] : -1);
  }
  return out;
}

// Concat of vectors: an input of unknown value but known length adds that many unknowns.
std::optional<PartialValue> ConcatValue(const ShapeValueGraph& g, int node, int first, int n,
                                        int depth) {
  PartialValue out;
  for (int i = first; i < first + n; ++i) {
    int producer, output;
    if (!g.Input(node, i, &producer, &output)) return std::nullopt;
    std::optional<PartialValue> v = Evaluate(g, producer, output, depth + 1);
    if (v && !v->scalar) {
      out.elements.insert(out.elements.end(), v->elements.begin(), v->elements.end());
      continue;
    }
    const PartialTensorShape s = g.OutputShape(producer, output);
    if (s.unknown_rank() || s.rank() != 1 || s.dims()[0] < 0) return std::nullopt;
    out.elements.insert(out.elements.end(), s.dims()[0], -1);
  }
  if (static_cast<int64_t>(out.elements.size()) > kMaxElements) return std::nullopt;
  return out;
}

// The value of scalar input i when known exactly: a Const's value, or a partial value other than
// -1 (which stands for unknown).
std::optional<int64_t> KnownScalar(const ShapeValueGraph& g, int node, int i, int depth) {
  int producer, output;
  if (!g.Input(node, i, &producer, &output)) return std::nullopt;
  std::optional<PartialValue> v = Evaluate(g, producer, output, depth + 1);
  if (!v || !v->scalar || v->elements.size() != 1) return std::nullopt;
  if (v->elements[0] == -1 && g.Def(producer).op() != "Const") return std::nullopt;
  return v->elements[0];
}

// Range of known integer start, limit and delta with at most kMaxElements elements.
std::optional<PartialValue> RangeValue(const ShapeValueGraph& g, int node, int depth) {
  const std::optional<int64_t> start = KnownScalar(g, node, 0, depth);
  const std::optional<int64_t> limit = KnownScalar(g, node, 1, depth);
  const std::optional<int64_t> delta = KnownScalar(g, node, 2, depth);
  if (!start || !limit || !delta || *delta == 0) return std::nullopt;
  if ((*delta > 0 && *start > *limit) || (*delta < 0 && *start < *limit)) return std::nullopt;
  const __int128 span = static_cast<__int128>(*limit) - *start;  // same sign as delta
  const __int128 count = (span + *delta + (*delta > 0 ? -1 : 1)) / *delta;
  if (count > kMaxElements) return std::nullopt;
  PartialValue out;
  for (__int128 i = 0; i < count; ++i) {
    out.elements.push_back(static_cast<int64_t>(*start + i * *delta));
  }
  return out;
}

// One element of an integer binary op on known operands; -1 (unknown) where the result does not
// fit int64 or the kernel refuses it (a zero divisor).
int64_t BinaryElement(const std::string& op, int64_t a, int64_t b) {
  __int128 r;
  if (op == "Add" || op == "AddV2") {
    r = static_cast<__int128>(a) + b;
  } else if (op == "Sub") {
    r = static_cast<__int128>(a) - b;
  } else if (op == "Mul") {
    r = static_cast<__int128>(a) * b;
  } else if (op == "Maximum") {
    r = std::max(a, b);
  } else if (op == "Minimum") {
    r = std::min(a, b);
  } else {  // FloorDiv, FloorMod
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return -1;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    r = op == "FloorDiv" ? q : a - static_cast<__int128>(q) * b;
  }
  if (r > std::numeric_limits<int64_t>::max() || r < std::numeric_limits<int64_t>::min()) {
    return -1;
  }
  return static_cast<int64_t>(r);
}

// An integer binary op of two partial values (scalar with scalar, scalar with vector, or vectors
// of one length): an element is known where both operands' are (-1 reads as unknown, so a literal
// -1 operand gives an unknown element).
std::optional<PartialValue> BinaryValue(const ShapeValueGraph& g, int node, int depth) {
  std::optional<PartialValue> a = EvaluateInput(g, node, 0, depth);
  if (!a) return std::nullopt;
  std::optional<PartialValue> b = EvaluateInput(g, node, 1, depth);
  if (!b) return std::nullopt;
  const size_t n = std::max(a->elements.size(), b->elements.size());
  if ((a->elements.size() != n && !a->scalar) || (b->elements.size() != n && !b->scalar)) {
    return std::nullopt;
  }
  const std::string& op = g.Def(node).op();
  PartialValue out;
  out.scalar = a->scalar && b->scalar;
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = a->scalar ? a->elements[0] : a->elements[i];
    const int64_t y = b->scalar ? b->elements[0] : b->elements[i];
    out.elements.push_back(x == -1 || y == -1 ? -1 : BinaryElement(op, x, y));
  }
  return out;
}

std::optional<PartialValue> Evaluate(const ShapeValueGraph& g, int node, int output, int depth) {
  if (depth > kMaxDepth) return std::nullopt;
  const NodeDef& def = g.Def(node);
  const std::string& op = def.op();
  if (op == "Const") return output == 0 ? FromConst(def) : std::nullopt;
  if (op == "Shape") return output == 0 ? ShapeOf(g, node, 0) : std::nullopt;
  if (op == "ShapeN") return ShapeOf(g, node, output);
  if (output != 0) return std::nullopt;
  if (op == "Size" || op == "Rank") {
    std::optional<PartialValue> dims = ShapeOf(g, node, 0);
    if (!dims) return std::nullopt;
    if (op == "Rank") return PartialValue{true, {static_cast<int64_t>(dims->elements.size())}};
    // The element count, unknown where it overflows int64 or an int32 out_type (the kernel
    // refuses those).
    int64_t n = 1;
    for (int64_t d : dims->elements) {
      if (d < 0 || __builtin_mul_overflow(n, d, &n)) return std::nullopt;
    }
    const auto out_type = def.attr().find("out_type");
    if (out_type != def.attr().end() && out_type->second.type() == DT_INT32 &&
        n > std::numeric_limits<int32_t>::max()) {
      return std::nullopt;
    }
    return PartialValue{true, {n}};
  }
  if (op == "Identity" || op == "StopGradient" || op == "Cast") {
    return EvaluateInput(g, node, 0, depth);
  }
  if (op == "Pack") return PackValue(g, node, depth);
  if (op == "Range") return RangeValue(g, node, depth);
  if (op == "Add" || op == "AddV2" || op == "Sub" || op == "Mul" || op == "FloorDiv" ||
      op == "FloorMod" || op == "Maximum" || op == "Minimum") {
    return BinaryValue(g, node, depth);
  }
  if (op == "StridedSlice") return StridedSliceValue(g, node, depth);
  if (op == "ConcatV2" || op == "Concat") {
    int64_t n = 0;
    if (!GetNodeAttr(def, "N", &n).ok()) return std::nullopt;
    return ConcatValue(g, node, op == "Concat" ? 1 : 0, static_cast<int>(n), depth);
  }
  return std::nullopt;
}

}  // namespace

std::optional<PartialValue> EvaluatePartialValue(const ShapeValueGraph& graph, int node,
                                                 int output) {
  return Evaluate(graph, node, output, 0);
}

}  // namespace rill
