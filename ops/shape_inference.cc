#include "ops/shape_inference.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "ops/attr_value_util.h"

namespace rill {

absl::Status ShapeInferenceContext::WithRank(int i, int rank) const {
  const PartialTensorShape& s = inputs_[i];
  if (s.unknown_rank() || s.rank() == rank) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Shape must be rank ", rank, " but is rank ", s.rank(), " for node '", node_.name(), "' (op ",
      node_.op(), ", input ", i, " with shape ", s.DebugString(), ")"));
}

absl::Status ShapeInferenceContext::MergeDim(int64_t a, int64_t b, int64_t* out,
                                             absl::string_view what) const {
  if (a >= 0 && b >= 0 && a != b) {
    return absl::InvalidArgumentError(absl::StrCat("Dimensions must be equal, but are ", a, " and ",
                                                   b, " for node '", node_.name(), "' (op ",
                                                   node_.op(), ": ", what, ")"));
  }
  *out = a >= 0 ? a : b;
  return absl::OkStatus();
}

bool ShapeInferenceContext::ConstantIndexValues(int i, std::vector<int64_t>* values) const {
  const Tensor* t = input_tensor(i);
  if (t == nullptr) return false;
  values->clear();
  if (t->dtype() == DT_INT32) {
    for (int32_t v : t->flat<int32_t>()) values->push_back(v);
  } else if (t->dtype() == DT_INT64) {
    for (int64_t v : t->flat<int64_t>()) values->push_back(v);
  } else {
    return false;
  }
  return true;
}

bool ShapeInferenceContext::PartialIndexValues(int i, std::vector<int64_t>* values) const {
  const Tensor* t = input_tensor(i);
  if (t != nullptr) return t->shape().rank() == 1 && ConstantIndexValues(i, values);
  if (i >= static_cast<int>(input_values_.size()) || !input_values_[i] ||
      input_values_[i]->scalar) {
    return false;
  }
  *values = input_values_[i]->elements;
  return true;
}

bool ShapeInferenceContext::ScalarIndexValue(int i, int64_t* value) const {
  std::vector<int64_t> values;
  const Tensor* t = input_tensor(i);
  if (t != nullptr) {
    if (t->shape().rank() != 0 || !ConstantIndexValues(i, &values)) return false;
    *value = values[0];
    return true;
  }
  if (i >= static_cast<int>(input_values_.size()) || !input_values_[i] ||
      !input_values_[i]->scalar || input_values_[i]->elements.size() != 1 ||
      input_values_[i]->elements[0] == -1) {
    return false;
  }
  *value = input_values_[i]->elements[0];
  return true;
}

PartialTensorShape ShapeInferenceContext::ShapeFromShapeTensor(int i) const {
  const Tensor* t = input_tensor(i);
  std::vector<int64_t> dims;
  if (t != nullptr && t->shape().rank() == 0) {
    // A scalar -1 is TensorFlow's unknown rank; other scalars are the kernel's to refuse.
    return PartialTensorShape();
  }
  if (PartialIndexValues(i, &dims)) {
    for (int64_t d : dims) {
      if (d < -1) return PartialTensorShape();
    }
    return PartialTensorShape(std::move(dims));
  }
  const PartialTensorShape& s = inputs_[i];
  if (!s.unknown_rank() && s.rank() == 1 && s.dims()[0] >= 0) {
    return PartialTensorShape(std::vector<int64_t>(s.dims()[0], -1));
  }
  return PartialTensorShape();
}

std::optional<Tensor> ConstantIndexTensor(const NodeDef& producer) {
  constexpr int64_t kMaxElements = 1024;
  if (producer.op() != "Const") return std::nullopt;
  auto value = producer.attr().find("value");
  if (value == producer.attr().end() || !value->second.has_tensor()) return std::nullopt;
  const TensorProto& proto = value->second.tensor();
  if (proto.dtype() != DT_INT32 && proto.dtype() != DT_INT64) return std::nullopt;
  absl::StatusOr<Tensor> t = TensorFromProto(proto);
  if (!t.ok() || t->NumElements() > kMaxElements) return std::nullopt;
  return *std::move(t);
}

namespace shape_fns {

absl::Status Unknown(ShapeInferenceContext&) { return absl::OkStatus(); }
absl::Status NoOutputs(ShapeInferenceContext&) { return absl::OkStatus(); }

absl::Status Unchanged(ShapeInferenceContext& c) {
  if (c.num_inputs() > 0 && c.num_outputs() > 0) c.set_output(0, c.input(0));
  return absl::OkStatus();
}

absl::Status Scalar(ShapeInferenceContext& c) {
  for (int i = 0; i < c.num_outputs(); ++i)
    c.set_output(i, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

absl::StatusOr<PartialTensorShape> BroadcastPartial(const ShapeInferenceContext& c,
                                                    const PartialTensorShape& a,
                                                    const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return PartialTensorShape();
  const int rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> out(rank);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a.dims()[ia] : 1;
    const int64_t db = ib >= 0 ? b.dims()[ib] : 1;
    if (da == 1) {
      out[i] = db;
    } else if (db == 1) {
      out[i] = da;
    } else if (da < 0 || db < 0) {
      out[i] = da < 0 ? db : da;  // unknown vs n>1 -> n (or unknown if both unknown)
      if (da < 0 && db < 0) out[i] = -1;
    } else if (da == db) {
      out[i] = da;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("Incompatible shapes: ", a.DebugString(), " vs. ", b.DebugString(),
                       " for node '", c.node().name(), "' (op ", c.node().op(), ")"));
    }
  }
  return PartialTensorShape(std::move(out));
}

absl::Status BroadcastBinary(ShapeInferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out, BroadcastPartial(c, c.input(0), c.input(1)));
  c.set_output(0, std::move(out));
  return absl::OkStatus();
}

absl::Status FromShapeAttr(ShapeInferenceContext& c) {
  TensorShapeProto proto;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "shape", &proto));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape s, PartialTensorShape::FromProto(proto));
  c.set_output(0, std::move(s));
  return absl::OkStatus();
}

absl::StatusOr<PartialTensorShape> MergeShapes(const ShapeInferenceContext& c,
                                               const PartialTensorShape& a,
                                               const PartialTensorShape& b,
                                               absl::string_view what) {
  if (a.unknown_rank()) return b;
  if (b.unknown_rank()) return a;
  if (a.rank() != b.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("Shapes must be equal rank, but are ", a.rank(),
                                                   " and ", b.rank(), " for node '",
                                                   c.node().name(), "' (op ", c.node().op(), ")"));
  }
  std::vector<int64_t> dims = a.dims();
  for (int d = 0; d < b.rank(); ++d) {
    RILL_RETURN_IF_ERROR(c.MergeDim(dims[d], b.dims()[d], &dims[d], what));
  }
  return PartialTensorShape(std::move(dims));
}

absl::Status AllInputsMerged(ShapeInferenceContext& c) {
  PartialTensorShape merged;
  for (int i = 0; i < c.num_inputs(); ++i) {
    RILL_ASSIGN_OR_RETURN(merged, MergeShapes(c, merged, c.input(i), "inputs of AddN"));
  }
  c.set_output(0, std::move(merged));
  return absl::OkStatus();
}

}  // namespace shape_fns
}  // namespace rill
