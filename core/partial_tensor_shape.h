// PartialTensorShape: a shape that may be partly unknown, as in op declarations and Placeholder's
// `shape` attr: unknown rank, or known rank with some dims -1 (unknown). Used by shape inference
// and feed checks; an unknown dimension is never an error.
//
//   PartialTensorShape p = PartialTensorShape::FromProto(proto);   // e.g. [?,3]
//   p.IsCompatibleWith(TensorShape({8, 3}));                        // true
//
// Value type; thread-compatible.
#ifndef RILL_CORE_PARTIAL_TENSOR_SHAPE_H_
#define RILL_CORE_PARTIAL_TENSOR_SHAPE_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor_shape.h"
#include "proto/tensor_shape.pb.h"

namespace rill {

class PartialTensorShape {
 public:
  // Unknown rank.
  PartialTensorShape() = default;
  // Known rank; -1 marks an unknown dim. REQUIRES: each dim >= -1.
  explicit PartialTensorShape(std::vector<int64_t> dims)
      : known_rank_(true), dims_(std::move(dims)) {}
  // Known rank from a brace list: PartialTensorShape({}) is a scalar, PartialTensorShape({-1, 3})
  // a matrix of 3 columns. (Without it `{}` could also mean the default, unknown-rank shape.)
  explicit PartialTensorShape(std::initializer_list<int64_t> dims)
      : known_rank_(true), dims_(dims) {}
  // InvalidArgument for dims < -1, dims given together with unknown_rank, or more than
  // TensorShape::kMaxRank (254) dims ("Shape [...] has too many dimensions", TensorFlow's text).
  static absl::StatusOr<PartialTensorShape> FromProto(const TensorShapeProto& proto);

  bool unknown_rank() const { return !known_rank_; }
  int rank() const { return known_rank_ ? static_cast<int>(dims_.size()) : -1; }
  const std::vector<int64_t>& dims() const { return dims_; }
  bool IsFullyDefined() const;

  // True when `shape` could be this shape: same rank (or unknown rank) and equal known dims.
  bool IsCompatibleWith(const TensorShape& shape) const;
  void AsProto(TensorShapeProto* proto) const;
  // "<unknown>", or "[?,3]".
  std::string DebugString() const;

 private:
  bool known_rank_ = false;
  std::vector<int64_t> dims_;
};

}  // namespace rill

#endif  // RILL_CORE_PARTIAL_TENSOR_SHAPE_H_
