#include "core/partial_tensor_shape.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rill {

absl::StatusOr<PartialTensorShape> PartialTensorShape::FromProto(const TensorShapeProto& proto) {
  if (proto.unknown_rank()) {
    if (proto.dim_size() > 0) {
      return absl::InvalidArgumentError("Shape with unknown_rank must not list dims");
    }
    return PartialTensorShape();
  }
  PartialTensorShape shape;
  shape.known_rank_ = true;
  for (const auto& d : proto.dim()) shape.dims_.push_back(d.size());
  if (shape.rank() > TensorShape::kMaxRank) {
    return absl::InvalidArgumentError(absl::StrCat("Shape ", shape.DebugString(),
                                                   " has too many dimensions (at most ",
                                                   TensorShape::kMaxRank, ")"));
  }
  for (int64_t d : shape.dims_) {
    if (d < -1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Shape has dimension ", d, "; dims must be >= 0, or -1 for unknown"));
    }
  }
  return shape;
}

bool PartialTensorShape::IsFullyDefined() const {
  if (!known_rank_) return false;
  for (int64_t d : dims_) {
    if (d < 0) return false;
  }
  return true;
}

bool PartialTensorShape::IsCompatibleWith(const TensorShape& shape) const {
  if (!known_rank_) return true;
  if (shape.rank() != rank()) return false;
  for (int i = 0; i < rank(); ++i) {
    if (dims_[i] >= 0 && dims_[i] != shape.dim(i)) return false;
  }
  return true;
}

void PartialTensorShape::AsProto(TensorShapeProto* proto) const {
  proto->Clear();
  if (!known_rank_) {
    proto->set_unknown_rank(true);
    return;
  }
  for (int64_t d : dims_) proto->add_dim()->set_size(d);
}

std::string PartialTensorShape::DebugString() const {
  if (!known_rank_) return "<unknown>";
  return absl::StrCat("[",
                      absl::StrJoin(dims_, ",",
                                    [](std::string* out, int64_t d) {
                                      absl::StrAppend(out, d < 0 ? "?" : absl::StrCat(d));
                                    }),
                      "]");
}

}  // namespace rill
