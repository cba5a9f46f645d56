// RaggedTensorToTensor on the CPU: RaggedTensor.to_tensor(), the padding step of text models
// (TextVectorization's int sequences, tf.strings.split(...).to_tensor()). The ragged tensor is
// given as flat `values` ([nvals, inner...]) and its row partitions, outermost first: either
// FIRST_DIM_SIZE (a scalar row count) followed by VALUE_ROWIDS tensors, or ROW_SPLITS tensors.
// The output has rank ragged_rank + values' rank; `shape` fixes any of its dims (a dim of -1,
// or a scalar -1 for the whole shape, is computed: rows, then each ragged level's longest row,
// then the values' inner dims). Rows longer than the output are truncated, shorter ones padded
// with default_value (broadcast to the inner dims). Output positions follow TensorFlow's
// kernel: per level each element's flat output offset, or -1 once truncated.
// Errors (TensorFlow's texts): shape incompatible with the values' rank or inner dims; a row
// partition longer than the level above; a VALUE_ROWIDS row id out of range.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

constexpr int kShape = 0, kValues = 1, kDefault = 2, kFirstPartition = 3;

// TensorFlow's PartialTensorShape::DebugString: "[2,?,4]", "<unknown>".
std::string ShapeText(const std::vector<int64_t>& dims, bool unknown_rank) {
  if (unknown_rank) return "<unknown>";
  std::vector<std::string> parts;
  for (int64_t d : dims) parts.push_back(d < 0 ? "?" : std::to_string(d));
  return absl::StrCat("[", absl::StrJoin(parts, ","), "]");
}

class RaggedTensorToTensorOp final : public OpKernel {
 public:
  explicit RaggedTensorToTensorOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const AttrValue* types = FindNodeAttr(ctx.def(), "row_partition_types");
    if (types == nullptr || types->list().s_size() == 0) {
      ctx.SetStatus(absl::InvalidArgumentError("RaggedTensorToTensor needs row_partition_types"));
      return;
    }
    for (const std::string& t : types->list().s()) {
      if (t == "FIRST_DIM_SIZE") {
        types_.push_back(kFirstDimSize);
      } else if (t == "VALUE_ROWIDS") {
        types_.push_back(kValueRowIds);
      } else if (t == "ROW_SPLITS") {
        types_.push_back(kRowSplits);
      } else {
        ctx.SetStatus(absl::InvalidArgumentError(
            absl::StrCat("Unknown string for partition info type: ", t)));
        return;
      }
    }
    first_dim_size_ = types_[0] == kFirstDimSize;
    ragged_rank_ = static_cast<int>(types_.size()) - (first_dim_size_ ? 1 : 0);
    if (types_[0] == kValueRowIds) {
      ctx.SetStatus(absl::InvalidArgumentError("Cannot handle VALUE_ROWIDS in first dimension."));
    }
    for (size_t i = 1; i < types_.size(); ++i) {
      if (types_[i] == kFirstDimSize) {
        ctx.SetStatus(
            absl::InvalidArgumentError("Cannot have FIRST_DIM_SIZE after the first dimension"));
      }
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int num_partitions = ctx.num_inputs() - kFirstPartition;
    if (num_partitions != static_cast<int>(types_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("row_partition_types has ", types_.size(),
                                                     " entries but there are ", num_partitions,
                                                     " row partition tensors"));
    }
    const DataType index_type = ctx.input(kFirstPartition).dtype();
    if (index_type == DT_INT32) return ComputeWith<int32_t>(ctx);
    return ComputeWith<int64_t>(ctx);
  }

 private:
  enum PartitionType { kFirstDimSize, kValueRowIds, kRowSplits };

  // The partition of ragged level `level` (0 = the first ragged dimension).
  int PartitionInput(int level) const {
    return kFirstPartition + level + (first_dim_size_ ? 1 : 0);
  }
  PartitionType PartitionTypeOf(int level) const {
    return types_[level + (first_dim_size_ ? 1 : 0)];
  }

  template <typename Index>
  static std::vector<int64_t> Values(const Tensor& t) {
    std::vector<int64_t> v(t.NumElements());
    for (int64_t i = 0; i < t.NumElements(); ++i) v[i] = t.flat<Index>()[i];
    return v;
  }

  static std::vector<int64_t> ShapeValues(const Tensor& t) {
    return t.dtype() == DT_INT32 ? Values<int32_t>(t) : Values<int64_t>(t);
  }

  // The longest row of ragged level `level`.
  template <typename Index>
  int64_t MaxWidth(OpKernelContext& ctx, int level) const {
    const std::vector<int64_t> p = Values<Index>(ctx.input(PartitionInput(level)));
    int64_t width = 0;
    if (PartitionTypeOf(level) == kRowSplits) {
      for (size_t i = 0; i + 1 < p.size(); ++i) width = std::max(width, p[i + 1] - p[i]);
      return width;
    }
    if (p.empty()) return 0;
    size_t first_equal = 0;
    for (size_t i = 1; i < p.size(); ++i) {
      if (p[i] != p[first_equal]) {
        width = std::max<int64_t>(width, i - first_equal);
        first_equal = i;
      }
    }
    return std::max<int64_t>(width, p.size() - first_equal);
  }

  // The output shape: `shape`'s known dims, the rest computed.
  template <typename Index>
  absl::StatusOr<std::vector<int64_t>> OutputDims(OpKernelContext& ctx, int64_t first_dim) const {
    const Tensor& shape_t = ctx.input(kShape);
    const TensorShape& values_shape = ctx.input(kValues).shape();
    std::vector<int64_t> shape = ShapeValues(shape_t);
    const bool unknown_rank = shape_t.shape().rank() == 0 && !shape.empty() && shape[0] == -1;
    if (shape_t.shape().rank() > 1 || (shape_t.shape().rank() == 0 && !unknown_rank)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape must be a vector or the scalar -1, got shape ", shape_t.shape().DebugString()));
    }
    // -1 is "compute this dim"; anything below is no dim (TensorFlow's shape function refuses it).
    for (int64_t d : shape) {
      if (d < -1) {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid value in tensor used for shape: ", d));
      }
    }
    const int values_rank = values_shape.rank();
    const int rank = ragged_rank_ + values_rank;
    std::vector<int64_t> out = unknown_rank ? std::vector<int64_t>(rank, -1) : shape;
    if (static_cast<int>(out.size()) != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rt_input.shape and shape=", ShapeText(shape, unknown_rank),
          " are incompatible: rt_input.rank = ", rank, " but shape.rank = ", out.size()));
    }
    for (int i = 1; i < values_rank; ++i) {
      int64_t& dim = out[rank - values_rank + i];
      const int64_t value_dim = values_shape.dim(i);
      if (dim >= 0 && dim != value_dim) {
        return absl::InvalidArgumentError(
            absl::StrCat("rt_input.shape and shape=", ShapeText(shape, unknown_rank),
                         " are incompatible: rt_input.shape[", i + ragged_rank_, "] = ", value_dim,
                         " but shape[", i + ragged_rank_, "] = ", dim));
      }
      dim = value_dim;
    }
    if (out[0] < 0) out[0] = first_dim;
    for (int level = 0; level < ragged_rank_; ++level) {
      if (out[level + 1] < 0) out[level + 1] = MaxWidth<Index>(ctx, level);
    }
    return out;
  }

  // Each element of `level`'s output offset (in inner blocks), or -1, from its parents'.
  template <typename Index>
  absl::Status LevelOffsets(OpKernelContext& ctx, int level, const std::vector<int64_t>& parent,
                            int64_t multiplier, int64_t size, std::vector<int64_t>* out) const {
    const std::vector<int64_t> p = Values<Index>(ctx.input(PartitionInput(level)));
    out->clear();
    if (PartitionTypeOf(level) == kRowSplits) {
      if (!p.empty() && static_cast<int64_t>(p.size()) - 1 > static_cast<int64_t>(parent.size())) {
        return absl::InvalidArgumentError(
            absl::StrCat("Row partition size is greater than output size: ", p.size() - 1, " > ",
                         parent.size()));
      }
      for (size_t i = 0; i + 1 < p.size(); ++i) {
        const int64_t length = p[i + 1] - p[i];
        int64_t at = parent[i];
        const int64_t real = at == -1 ? 0 : std::min(size, length);
        for (int64_t j = 0; j < real; ++j, at += multiplier) out->push_back(at);
        for (int64_t j = std::max<int64_t>(real, 0); j < length; ++j) out->push_back(-1);
      }
      if (!p.empty() && static_cast<int64_t>(out->size()) != p.back()) {
        return absl::InvalidArgumentError("Invalid row split size.");
      }
      return absl::OkStatus();
    }
    if (p.empty()) return absl::OkStatus();
    const int64_t parents = parent.size();
    auto check = [&](int64_t id) -> absl::Status {
      if (id < 0 || id >= parents) {
        return absl::InvalidArgumentError(
            absl::StrCat("Got next_value_rowid=", id, " which is not less than ", parents));
      }
      return absl::OkStatus();
    };
    RILL_RETURN_IF_ERROR(check(p[0]));
    int64_t column = 0, row = p[0], at = parent[row];
    out->push_back(at);
    for (size_t i = 1; i < p.size(); ++i) {
      if (p[i] == row) {
        if (at >= 0) {
          ++column;
          at = column < size ? at + multiplier : -1;
        }
      } else {
        RILL_RETURN_IF_ERROR(check(p[i]));
        column = 0;
        row = p[i];
        at = parent[row];
      }
      out->push_back(at);
    }
    return absl::OkStatus();
  }

  template <typename Index>
  absl::Status ComputeWith(OpKernelContext& ctx) const {
    const Tensor& values = ctx.input(kValues);
    const Tensor& fill = ctx.input(kDefault);
    if (values.shape().rank() < 1) {
      return absl::InvalidArgumentError("values must have rank at least 1");
    }
    int64_t first_dim;
    if (first_dim_size_) {
      const Tensor& n = ctx.input(kFirstPartition);
      if (n.NumElements() != 1) {
        return absl::InvalidArgumentError("FIRST_DIM_SIZE must be a scalar");
      }
      first_dim = Values<Index>(n)[0];
    } else {
      first_dim = ctx.input(kFirstPartition).NumElements() - 1;
    }
    RILL_ASSIGN_OR_RETURN(const std::vector<int64_t> dims, OutputDims<Index>(ctx, first_dim));
    // The inner block (values' dims after the first) and default_value broadcast to it.
    const int values_rank = values.shape().rank();
    std::vector<int64_t> inner(values.shape().dims().begin() + 1, values.shape().dims().end());
    int64_t block = 1;
    for (int64_t d : inner) block *= d;
    const int fill_rank = fill.shape().rank();
    if (fill_rank > values_rank - 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "default_value.shape=", fill.shape().DebugString(), " and rt_input.flat_values.shape=",
          values.shape().DebugString(), " are incompatible: default_value.rank = ", fill_rank,
          "  must be less than rt_input.flat_values.rank = ", values_rank));
    }
    for (int i = 0; i < fill_rank; ++i) {
      const int64_t fd = fill.shape().dim(i);
      const int64_t vd = inner[inner.size() - fill_rank + i];
      if (fd != 1 && fd != vd) {
        return absl::InvalidArgumentError(absl::StrCat(
            "default_value.shape=", fill.shape().DebugString(),
            " and rt_input.flat_values.shape=", values.shape().DebugString(), " are incompatible"));
      }
    }
    Tensor fill_block(values.dtype(), TensorShape({block}));
    {
      const std::vector<int64_t> strides = RowMajorStrides(inner);
      for (int64_t e = 0; e < block; ++e) {
        int64_t src = 0, stride = 1;
        for (int i = fill_rank - 1; i >= 0; --i) {
          const int axis = static_cast<int>(inner.size()) - fill_rank + i;
          const int64_t coord = (e / strides[axis]) % inner[axis];
          if (fill.shape().dim(i) != 1) src += coord * stride;
          stride *= fill.shape().dim(i);
        }
        RILL_RETURN_IF_ERROR(CopyElements(fill, src, &fill_block, e, 1));
      }
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t blocks = block == 0 ? 0 : out->NumElements() / block;
    for (int64_t b = 0; b < blocks; ++b) {
      RILL_RETURN_IF_ERROR(CopyElements(fill_block, 0, out, b * block, block));
    }
    if (out->NumElements() == 0) return absl::OkStatus();
    std::vector<int64_t> multiplier(ragged_rank_ + 1, 1);
    for (int i = ragged_rank_ - 1; i >= 0; --i) multiplier[i] = multiplier[i + 1] * dims[i + 1];
    std::vector<int64_t> offsets, next;
    const int64_t rows = std::min(first_dim, dims[0]);
    for (int64_t i = 0; i < first_dim; ++i) offsets.push_back(i < rows ? i * multiplier[0] : -1);
    for (int level = 0; level < ragged_rank_; ++level) {
      RILL_RETURN_IF_ERROR(
          LevelOffsets<Index>(ctx, level, offsets, multiplier[level + 1], dims[level + 1], &next));
      offsets.swap(next);
    }
    if (static_cast<int64_t>(offsets.size()) != values.shape().dim(0)) {
      return absl::InvalidArgumentError(absl::StrCat("The row partitions describe ", offsets.size(),
                                                     " values but values has ",
                                                     values.shape().dim(0)));
    }
    for (size_t i = 0; i < offsets.size(); ++i) {
      if (offsets[i] >= 0) {
        RILL_RETURN_IF_ERROR(CopyElements(values, i * block, out, offsets[i] * block, block));
      }
    }
    return absl::OkStatus();
  }

  std::vector<PartitionType> types_;
  bool first_dim_size_ = false;
  int ragged_rank_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("RaggedTensorToTensor")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING})
                    .TypeConstraint("Tindex", {DT_INT32, DT_INT64})
                    .TypeConstraint("Tshape", {DT_INT32, DT_INT64}),
                RaggedTensorToTensorOp);

}  // namespace
}  // namespace rill
