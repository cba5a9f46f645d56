// TensorShape: the fully known shape of a Tensor (every dim >= 0). Construction validates dims and
// the element count (no negative dims, no int64 overflow), so a TensorShape in hand is always sane.
//
//   RILL_ASSIGN_OR_RETURN(TensorShape s, TensorShape::FromDims({2, 3}));
//   s.num_elements();   // 6
//   s.DebugString();    // "[2,3]"
//
// Value type; thread-compatible.
#ifndef RILL_CORE_TENSOR_SHAPE_H_
#define RILL_CORE_TENSOR_SHAPE_H_

#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "proto/tensor_shape.pb.h"

namespace rill {

class TensorShape {
 public:
  // A scalar (rank 0, one element).
  TensorShape() = default;
  // REQUIRES: every dim >= 0 and the product fits in int64 (CHECK-fails otherwise). Use FromDims for
  // untrusted input.
  TensorShape(std::initializer_list<int64_t> dims);

  // InvalidArgument for a negative dim or an element count that overflows int64.
  static absl::StatusOr<TensorShape> FromDims(absl::Span<const int64_t> dims);
  // InvalidArgument for unknown rank, unknown (-1) or negative dims, or overflow.
  static absl::StatusOr<TensorShape> FromProto(const TensorShapeProto& proto);

  int rank() const { return static_cast<int>(dims_.size()); }
  int64_t dim(int i) const { return dims_[i]; }
  absl::Span<const int64_t> dims() const { return dims_; }
  int64_t num_elements() const { return num_elements_; }

  void AsProto(TensorShapeProto* proto) const;
  // "[2,3]"; a scalar is "[]".
  std::string DebugString() const;

  bool operator==(const TensorShape& o) const { return dims_ == o.dims_; }
  bool operator!=(const TensorShape& o) const { return !(*this == o); }

 private:
  absl::InlinedVector<int64_t, 4> dims_;
  int64_t num_elements_ = 1;
};

}  // namespace rill

#endif  // RILL_CORE_TENSOR_SHAPE_H_
