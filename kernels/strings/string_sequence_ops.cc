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
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/memory/host_memory.h"
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
    // Sized before anything is built: the n-gram count and each n-gram's bytes come from attrs
    // (widths and pad_width up to 2^63 - 1) and the data, so they are counted with saturation and
    // the output goes through the allocator; strings that would not fit the host's memory are
    // ResourceExhausted, never std::bad_alloc or a run that does not end.
    const std::string* words = data.flat<std::string>().data();
    struct Group {  // the n-grams of one row and width
      int64_t row, count, width;
    };
    std::vector<Group> groups;
    std::vector<int64_t> out_splits = {0};
    uint64_t total = 0;
    for (size_t r = 0; r + 1 < splits.size(); ++r) {
      const int64_t length = splits[r + 1] - splits[r];
      uint64_t row_count = 0;
      for (int64_t w : widths_) {
        const int64_t count = NumNgrams(length, w);
        if (count > 0) groups.push_back({splits[r], count, w});
        row_count = SatAdd(row_count, static_cast<uint64_t>(count));
      }
      if (preserve_short_ && length > 0 && row_count == 0) {
        // One n-gram of the whole row padded with pad_width on each side.
        int64_t width;
        if (pad_width_ >= 0) {
          const uint64_t w =
              SatAdd(static_cast<uint64_t>(length), SatMul(2, static_cast<uint64_t>(pad_width_)));
          if (w > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            return NgramsOom(1, std::numeric_limits<uint64_t>::max());
          }
          width = static_cast<int64_t>(w);
        } else {
          width = length + 2 * std::max<int64_t>(pad_width_, -(int64_t{1} << 61));
        }
        groups.push_back({splits[r], 1, width});
        row_count = 1;
      }
      total = SatAdd(total, row_count);
      if (total > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return NgramsOom(total, 0);
      }
      out_splits.push_back(static_cast<int64_t>(total));
    }
    if (splits.empty()) out_splits.clear();
    // The string objects alone past the host's memory: refused before their bytes are counted
    // (that count takes a step per n-gram).
    const uint64_t physical_bytes = PhysicalMemoryBytes();
    if (SatMul(total, sizeof(std::string)) > physical_bytes) return NgramsOom(total, 0);
    // Bytes of every n-gram, from prefix sums of the tokens' lengths.
    std::vector<uint64_t> prefix(size + 1, 0);
    for (int64_t i = 0; i < size; ++i) prefix[i + 1] = prefix[i] + words[i].size();
    uint64_t bytes = total * sizeof(std::string);
    for (const Group& grp : groups) {
      for (int64_t k = 0; k < grp.count; ++k) {
        bytes = SatAdd(bytes, NgramBytes(prefix, grp.row, grp.count, grp.width, k));
        if (bytes > physical_bytes) return NgramsOom(total, bytes);  // at least this much
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out,
                          ctx.allocate_output(0, TensorShape({static_cast<int64_t>(total)})));
    std::string* dst = out->flat<std::string>().data();
    try {
      for (const Group& grp : groups) {
        for (int64_t k = 0; k < grp.count; ++k) {
          *dst++ = MakeNgram(words + grp.row, grp.count, grp.width, k);
        }
      }
    } catch (const std::bad_alloc&) {
      return NgramsOom(total, bytes);
    }
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
  // How many `width`-grams a row of `length` tokens gives; saturates at 2^63 - 1 (a width and
  // pad_width near 2^63 would overflow length + 2 * pad - width + 1).
  int64_t NumNgrams(int64_t length, int64_t width) const {
    const uint64_t padded =
        SatAdd(static_cast<uint64_t>(length), SatMul(2, static_cast<uint64_t>(PadWidth(width))));
    const uint64_t need = static_cast<uint64_t>(width) - 1;
    if (padded <= need) return 0;
    return static_cast<int64_t>(
        std::min<uint64_t>(padded - need, std::numeric_limits<int64_t>::max()));
  }

  static uint64_t SatAdd(uint64_t a, uint64_t b) {
    return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                        : a + b;
  }
  static uint64_t SatMul(uint64_t a, uint64_t b) {
    return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
               ? std::numeric_limits<uint64_t>::max()
               : a * b;
  }

  // `bytes`: what the n-grams counted so far take (so at least that much in all); 0 when they
  // were not counted (their number alone is too many).
  absl::Status NgramsOom(uint64_t count, uint64_t bytes) const {
    const std::string size = bytes == 0 ? ""
                             : bytes == std::numeric_limits<uint64_t>::max()
                                 ? " taking more than 2^64 bytes"
                                 : absl::StrCat(" taking at least ", bytes, " bytes");
    return absl::ResourceExhaustedError(
        absl::StrCat("OOM when allocating StringNGrams's output: ", count, " n-grams", size,
                     " (ngram_widths and pad_width set how many tokens and pads each joins)"));
  }

  // Where n-gram k of `count` in a row of `width`-grams starts and how it is made: TensorFlow's
  // CreateNgrams (left pads, tokens, right pads).
  struct Layout {
    int64_t left, right, tokens, start;
  };
  Layout NgramLayout(int64_t count, int64_t width, int64_t k) const {
    const int64_t pad = PadWidth(width);
    Layout l;
    l.left = std::max<int64_t>(0, pad - k);
    l.right = std::max<int64_t>(0, pad - (count - (k + 1)));
    l.tokens = width - (l.left + l.right);
    l.start = l.left > 0 ? 0 : k - pad;
    return l;
  }

  // Bytes of n-gram k (saturating), `prefix` holding the data's cumulative token lengths.
  uint64_t NgramBytes(const std::vector<uint64_t>& prefix, int64_t row, int64_t count,
                      int64_t width, int64_t k) const {
    const Layout l = NgramLayout(count, width, k);
    const uint64_t sep = separator_.size();
    uint64_t b = SatMul(static_cast<uint64_t>(l.left), left_pad_.size() + sep);
    if (l.tokens > 0) {
      b = SatAdd(b, prefix[row + l.start + l.tokens] - prefix[row + l.start]);
      b = SatAdd(b, SatMul(static_cast<uint64_t>(l.tokens - 1), sep));
      b = SatAdd(b, SatMul(static_cast<uint64_t>(l.right), sep + right_pad_.size()));
    } else {
      const uint64_t pads = static_cast<uint64_t>(std::max<int64_t>(l.right - 1, 0));
      b = SatAdd(b, SatAdd(SatMul(pads, right_pad_.size() + sep), right_pad_.size()));
    }
    return b;
  }

  std::string MakeNgram(const std::string* row, int64_t count, int64_t width, int64_t k) const {
    const Layout l = NgramLayout(count, width, k);
    std::string g;
    for (int64_t n = 0; n < l.left; ++n) absl::StrAppend(&g, left_pad_, separator_);
    for (int64_t n = 0; n < l.tokens - 1; ++n) absl::StrAppend(&g, row[l.start + n], separator_);
    if (l.tokens > 0) {
      g += row[l.start + l.tokens - 1];
      for (int64_t n = 0; n < l.right; ++n) absl::StrAppend(&g, separator_, right_pad_);
    } else {
      for (int64_t n = 0; n < l.right - 1; ++n) absl::StrAppend(&g, right_pad_, separator_);
      g += right_pad_;
    }
    return g;
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
