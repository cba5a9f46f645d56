// UnsortedSegmentJoin and StringNGrams on the CPU.
//
// UnsortedSegmentJoin(inputs, segment_ids, num_segments): output [num_segments] + inputs' dims
// after segment_ids' rank; each output string joins, in input order, the inputs whose id names
// it, with `separator` (as TensorFlow's kernel: a string joining an output still empty replaces
// it, so empty strings add no leading separator). Errors (TensorFlow's texts): segment_ids'
// shape not a prefix of the inputs'; an id negative or not below num_segments.
//
// StringNGrams(data, data_splits): for each row data[splits[i]:splits[i+1]] and each width w in
// ngram_widths, the row's w-grams joined with `separator`, the row padded on both sides with
// left_pad / right_pad to pad_width (-1: w - 1) tokens, at most w - 1; with
// preserve_short_sequences a non-empty row too short for any n-gram gives one n-gram of the
// whole row (padded with pad_width). Outputs the n-grams and their row splits. Errors: splits
// not starting at 0, decreasing, past the data, or not ending at its size; a width <= 0.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

template <typename Index>
std::vector<int64_t> IndexValues(const Tensor& t) {
  std::vector<int64_t> v(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) v[i] = t.flat<Index>()[i];
  return v;
}

std::vector<int64_t> AnyIndexValues(const Tensor& t) {
  return t.dtype() == DT_INT32 ? IndexValues<int32_t>(t) : IndexValues<int64_t>(t);
}

class UnsortedSegmentJoinOp final : public OpKernel {
 public:
  explicit UnsortedSegmentJoinOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("separator", &separator_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& inputs = ctx.input(0);
    const Tensor& ids_t = ctx.input(1);
    const Tensor& num_t = ctx.input(2);
    if (num_t.NumElements() != 1) {
      return absl::InvalidArgumentError("Number of segments cannot be empty.");
    }
    const int64_t num = AnyIndexValues(num_t)[0];
    if (num < 0) {
      return absl::InvalidArgumentError("Number of segments cannot be negative.");
    }
    const int ids_rank = ids_t.shape().rank();
    if (ids_rank > inputs.shape().rank()) {
      return absl::InvalidArgumentError("Invalid segment_id rank");
    }
    for (int i = 0; i < ids_rank; ++i) {
      if (ids_t.shape().dim(i) != inputs.shape().dim(i)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Segment dimension is ", ids_t.shape().dim(i),
                         " while input dimension is ", inputs.shape().dim(i), " in rank ", i));
      }
    }
    std::vector<int64_t> dims = {num};
    int64_t inner = 1;
    for (int i = ids_rank; i < inputs.shape().rank(); ++i) {
      dims.push_back(inputs.shape().dim(i));
      inner *= inputs.shape().dim(i);
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const std::vector<int64_t> ids = AnyIndexValues(ids_t);
    for (int64_t id : ids) {
      if (id < 0 || id >= num) {
        return absl::InvalidArgumentError(
            "segment_ids are not allowed to exceed num_segments or to have negative values.");
      }
    }
    std::string* y = out->flat<std::string>().data();
    const std::string* x = inputs.flat<std::string>().data();
    for (size_t i = 0; i < ids.size(); ++i) {
      for (int64_t j = 0; j < inner; ++j) {
        std::string& dst = y[ids[i] * inner + j];
        const std::string& src = x[i * inner + j];
        if (dst.empty()) {
          dst = src;
        } else {
          absl::StrAppend(&dst, separator_, src);
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  std::string separator_;
};

class StringNGramsOp final : public OpKernel {
 public:
  explicit StringNGramsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("separator", &separator_));
    ctx.SetStatus(ctx.GetAttr("left_pad", &left_pad_));
    ctx.SetStatus(ctx.GetAttr("right_pad", &right_pad_));
    ctx.SetStatus(ctx.GetAttr("pad_width", &pad_width_));
    ctx.SetStatus(ctx.GetAttr("preserve_short_sequences", &preserve_short_));
    ctx.SetStatus(GetNodeAttr(ctx.def(), "ngram_widths", &widths_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    for (int64_t w : widths_) {
      if (w <= 0) return absl::InvalidArgumentError("ngram_widths must contain positive values");
    }
    const Tensor& data = ctx.input(0);
    const Tensor& splits_t = ctx.input(1);
    const int64_t size = data.NumElements();
    const std::vector<int64_t> splits = AnyIndexValues(splits_t);
    if (!splits.empty()) {
      if (splits[0] != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("First split value must be 0, got ", splits[0]));
      }
      for (size_t i = 1; i < splits.size(); ++i) {
        if (splits[i] < splits[i - 1] || splits[i] > size) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Invalid split value ", splits[i], ", must be in [", splits[i - 1], ", ", size, "]"));
        }
      }
      if (splits.back() != size) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Last split value must be data size. Expected ", size, ", got ", splits.back()));
      }
    }
    const std::string* words = data.flat<std::string>().data();
    std::vector<std::string> ngrams;
    std::vector<int64_t> out_splits = {0};
    for (size_t r = 0; r + 1 < splits.size(); ++r) {
      const std::string* row = words + splits[r];
      const int64_t length = splits[r + 1] - splits[r];
      const size_t before = ngrams.size();
      for (int64_t w : widths_) MakeNgrams(row, NumNgrams(length, w), w, &ngrams);
      if (preserve_short_ && length > 0 && ngrams.size() == before) {
        MakeNgrams(row, 1, length + 2 * pad_width_, &ngrams);
      }
      out_splits.push_back(static_cast<int64_t>(ngrams.size()));
    }
    if (splits.empty()) out_splits.clear();
    RILL_ASSIGN_OR_RETURN(
        Tensor * out, ctx.allocate_output(0, TensorShape({static_cast<int64_t>(ngrams.size())})));
    for (size_t i = 0; i < ngrams.size(); ++i) out->flat<std::string>()[i] = std::move(ngrams[i]);
    RILL_ASSIGN_OR_RETURN(
        Tensor * out_splits_t,
        ctx.allocate_output(1, TensorShape({static_cast<int64_t>(out_splits.size())})));
    for (size_t i = 0; i < out_splits.size(); ++i) {
      if (splits_t.dtype() == DT_INT32) {
        out_splits_t->flat<int32_t>()[i] = static_cast<int32_t>(out_splits[i]);
      } else {
        out_splits_t->flat<int64_t>()[i] = out_splits[i];
      }
    }
    return absl::OkStatus();
  }

 private:
  int64_t PadWidth(int64_t width) const {
    return std::min(pad_width_ < 0 ? width - 1 : pad_width_, width - 1);
  }
  int64_t NumNgrams(int64_t length, int64_t width) const {
    return std::max<int64_t>(0, length + 2 * PadWidth(width) - width + 1);
  }

  // TensorFlow's CreateNgrams: the row's n-grams of `width` with their padding, in order.
  void MakeNgrams(const std::string* row, int64_t count, int64_t width,
                  std::vector<std::string>* out) const {
    const int64_t pad = PadWidth(width);
    for (int64_t k = 0; k < count; ++k) {
      const int64_t left = std::max<int64_t>(0, pad - k);
      const int64_t right = std::max<int64_t>(0, pad - (count - (k + 1)));
      const int64_t tokens = width - (left + right);
      const int64_t start = left > 0 ? 0 : k - pad;
      std::string g;
      for (int64_t n = 0; n < left; ++n) absl::StrAppend(&g, left_pad_, separator_);
      for (int64_t n = 0; n < tokens - 1; ++n) absl::StrAppend(&g, row[start + n], separator_);
      if (tokens > 0) {
        g += row[start + tokens - 1];
        for (int64_t n = 0; n < right; ++n) absl::StrAppend(&g, separator_, right_pad_);
      } else {
        for (int64_t n = 0; n < right - 1; ++n) absl::StrAppend(&g, right_pad_, separator_);
        g += right_pad_;
      }
      out->push_back(std::move(g));
    }
  }

  std::string separator_, left_pad_, right_pad_;
  int64_t pad_width_ = 0;
  bool preserve_short_ = false;
  std::vector<int64_t> widths_;
};

REGISTER_KERNEL(KernelDefBuilder("UnsortedSegmentJoin")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64})
                    .TypeConstraint("Tnumsegments", {DT_INT32, DT_INT64}),
                UnsortedSegmentJoinOp);
REGISTER_KERNEL(KernelDefBuilder("StringNGrams")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tsplits", {DT_INT32, DT_INT64}),
                StringNGramsOp);

}  // namespace
}  // namespace rill
