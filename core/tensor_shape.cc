#include "core/tensor_shape.h"

#include <cstdlib>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rill {

TensorShape::TensorShape(std::initializer_list<int64_t> dims) {
  absl::StatusOr<TensorShape> s = FromDims(absl::MakeConstSpan(dims.begin(), dims.size()));
  if (!s.ok()) {
    std::fprintf(stderr, "TensorShape: %s\n", s.status().ToString().c_str());
    std::abort();
  }
  *this = *std::move(s);
}

absl::StatusOr<TensorShape> TensorShape::FromDims(absl::Span<const int64_t> dims) {
  // TensorFlow's kernels refuse a higher rank with "Too many dimensions".
  if (dims.size() > static_cast<size_t>(kMaxRank)) {
    return absl::InvalidArgumentError(absl::StrCat("Too many dimensions: a shape of rank ",
                                                   dims.size(), " is past TensorFlow's limit of ",
                                                   kMaxRank));
  }
  TensorShape shape;
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimension ", d, " must be >= 0 in shape [", absl::StrJoin(dims, ","), "]"));
    }
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) {
      return absl::InvalidArgumentError(absl::StrCat("Shape [", absl::StrJoin(dims, ","),
                                                     "] has too many elements (overflows int64)"));
    }
    n *= d;
  }
  shape.rank_ = static_cast<int>(dims.size());
  shape.num_elements_ = n;
  if (shape.rank_ <= kInlineRank) {
    for (int i = 0; i < shape.rank_; ++i) shape.inline_[i] = dims[i];
  } else {
    std::shared_ptr<int64_t[]> heap(new int64_t[dims.size()]);
    for (size_t i = 0; i < dims.size(); ++i) heap[i] = dims[i];
    shape.heap_ = std::move(heap);
  }
  return shape;
}

absl::StatusOr<TensorShape> TensorShape::FromProto(const TensorShapeProto& proto) {
  if (proto.unknown_rank()) {
    return absl::InvalidArgumentError("Shape has unknown rank; a tensor needs a known shape");
  }
  absl::InlinedVector<int64_t, 4> dims;
  for (const auto& d : proto.dim()) dims.push_back(d.size());
  return FromDims(dims);
}

void TensorShape::AsProto(TensorShapeProto* proto) const {
  proto->Clear();
  for (int64_t d : dims()) proto->add_dim()->set_size(d);
}

std::string TensorShape::DebugString() const {
  return absl::StrCat("[", absl::StrJoin(dims(), ","), "]");
}

}  // namespace rill
