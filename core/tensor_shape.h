// TensorShape: the fully known shape of a Tensor (every dim >= 0). Construction validates dims and
// the element count (no negative dims, no int64 overflow), so a TensorShape in hand is always sane.
//
//   RILL_ASSIGN_OR_RETURN(TensorShape s, TensorShape::FromDims({2, 3}));
//   s.num_elements();   // 6
//   s.DebugString();    // "[2,3]"
//
// Value type; thread-compatible. Up to kInlineRank dims live inline, so copying a shape (done for
// every tensor handed between nodes) is a fixed-size copy with no allocation; larger ranks share
// one immutable heap array.
#ifndef RILL_CORE_TENSOR_SHAPE_H_
#define RILL_CORE_TENSOR_SHAPE_H_

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "proto/tensor_shape.pb.h"

namespace rill {

class TensorShape {
 public:
  // The highest rank a shape may have: TensorFlow's limit (TensorShape::MaxDimensions()). Every
  // TensorShape is made by FromDims (the other constructors call it, copies copy a valid shape),
  // so no tensor, feed or kernel output has a higher rank.
  static constexpr int kMaxRank = 254;

  // A scalar (rank 0, one element).
  TensorShape() {}  // user-provided: value-initialization does not zero inline_ first
  // Copies are a fixed-size copy; the heap array (rank > kInlineRank) is shared.
  TensorShape(const TensorShape& o) : rank_(o.rank_), num_elements_(o.num_elements_) {
    std::memcpy(inline_, o.inline_, sizeof(inline_));
    if (o.heap_ != nullptr) heap_ = o.heap_;
  }
  TensorShape& operator=(const TensorShape& o) {
    if (this == &o) return *this;  // memcpy of an array onto itself overlaps
    rank_ = o.rank_;
    num_elements_ = o.num_elements_;
    std::memcpy(inline_, o.inline_, sizeof(inline_));
    if (heap_ != nullptr || o.heap_ != nullptr) heap_ = o.heap_;
    return *this;
  }
  // REQUIRES: at most kMaxRank dims, every dim >= 0 and the product fits in int64 (ends the
  // process otherwise). Use FromDims for untrusted input.
  TensorShape(std::initializer_list<int64_t> dims);

  // InvalidArgument "Too many dimensions: ..." for more than kMaxRank (254) dims; InvalidArgument
  // for a negative dim or an element count that overflows int64.
  static absl::StatusOr<TensorShape> FromDims(absl::Span<const int64_t> dims);
  // InvalidArgument for unknown rank, unknown (-1) or negative dims, more than kMaxRank dims, or
  // overflow (FromDims).
  static absl::StatusOr<TensorShape> FromProto(const TensorShapeProto& proto);

  int rank() const { return rank_; }
  int64_t dim(int i) const { return data()[i]; }
  absl::Span<const int64_t> dims() const { return absl::MakeConstSpan(data(), rank_); }
  int64_t num_elements() const { return num_elements_; }

  void AsProto(TensorShapeProto* proto) const;
  // "[2,3]"; a scalar is "[]".
  std::string DebugString() const;

  bool operator==(const TensorShape& o) const {
    if (rank_ != o.rank_ || num_elements_ != o.num_elements_) return false;
    const int64_t* a = data();
    const int64_t* b = o.data();
    for (int i = 0; i < rank_; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  bool operator!=(const TensorShape& o) const { return !(*this == o); }

 private:
  static constexpr int kInlineRank = 5;
  const int64_t* data() const { return rank_ <= kInlineRank ? inline_ : heap_.get(); }

  int rank_ = 0;
  int64_t num_elements_ = 1;
  // Dims when rank_ <= kInlineRank; entries past rank_ are never read, so a scalar leaves them
  // unset (a default TensorShape, as in every empty Tensor and kernel output slot, is three
  // stores instead of a zeroed array).
  int64_t inline_[kInlineRank];
  std::shared_ptr<const int64_t[]> heap_;  // dims otherwise (immutable, shared by copies)
};

}  // namespace rill

#endif  // RILL_CORE_TENSOR_SHAPE_H_
