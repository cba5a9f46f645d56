// Checkpoint kernels on the CPU (ops/io_ops.cc) over core/io/tensor_bundle.h. A Saver graph's
// restore op runs RestoreV2 then Assign; its save op runs SaveV2 (and, sharded, ShardedFilename
// and MergeV2Checkpoints). Errors name the tensor and the file (NotFound for a missing
// checkpoint or tensor, DataLoss for corrupt files, InvalidArgument "tensor_name = w; expected
// dtype float does not equal original dtype double" for a dtype mismatch). RestoreV2 reads a
// slice of a tensor saved whole ("3 4 0,2:-", TensorFlow's shape_and_slice spec); SaveV2 of a
// slice (partitioned variables) is Unimplemented after the spec is checked. Expensive (file I/O):
// they go to the inter-op pool.
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "core/io/tensor_bundle.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

absl::StatusOr<std::string> ScalarString(const Tensor& t, const char* what) {
  if (t.dtype() != DT_STRING || t.shape().rank() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be a scalar string, got ",
                                                   DataTypeString(t.dtype()), " ",
                                                   t.shape().DebugString()));
  }
  return t.flat<std::string>()[0];
}

// tensor_names and shape_and_slices: string vectors of `n` elements.
absl::Status CheckNamesAndSlices(const Tensor& names, const Tensor& slices, size_t n) {
  if (names.dtype() != DT_STRING || names.shape().rank() != 1 ||
      static_cast<size_t>(names.NumElements()) != n) {
    return absl::InvalidArgumentError(absl::StrCat("tensor_names must be a vector of ", n,
                                                   " strings (one per tensor), got shape ",
                                                   names.shape().DebugString()));
  }
  if (slices.dtype() != DT_STRING || slices.NumElements() != names.NumElements()) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape_and_slices must have as many elements as tensor_names (", n,
                     "), got shape ", slices.shape().DebugString()));
  }
  return absl::OkStatus();
}

// A shape_and_slice spec, TensorFlow's "<full dims...> <slice>": the slice is one
// "start,length" or "-" (the whole dim) per dim, joined by ':' ("4 3 0,2:-").
struct ShapeAndSlice {
  std::vector<int64_t> full;
  std::vector<std::pair<int64_t, int64_t>> slice;  // (start, length); length -1: the whole dim

  // TensorFlow's TensorSlice::DebugString: "0,2:-".
  std::string SliceText() const {
    std::string out;
    for (size_t d = 0; d < slice.size(); ++d) {
      if (d > 0) out += ":";
      out += slice[d].second < 0 ? std::string("-")
                                 : absl::StrCat(slice[d].first, ",", slice[d].second);
    }
    return out;
  }
};

// TensorFlow's ParseShapeAndSlice and TensorSlice::Parse, with their InvalidArgument texts.
absl::StatusOr<ShapeAndSlice> ParseShapeAndSlice(const std::string& spec) {
  std::vector<std::string> parts = absl::StrSplit(spec, ' ');
  if (parts.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Need least two elements in shape_and_slice specification: ", spec));
  }
  ShapeAndSlice out;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    int64_t dim = 0;
    if (!absl::SimpleAtoi(parts[i], &dim)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Non numerical dimension in shape_and_slice: ", spec));
    }
    out.full.push_back(dim);
  }
  const std::string& text = parts.back();
  const std::vector<std::string> extents = absl::StrSplit(text, ':');
  for (const std::string& extent : extents) {
    if (extent == "-") {
      out.slice.emplace_back(0, -1);
      continue;
    }
    std::vector<std::string> pair = absl::StrSplit(extent, ',');
    int64_t start = 0, length = 0;
    if (pair.size() != 2 || !absl::SimpleAtoi(pair[0], &start) ||
        !absl::SimpleAtoi(pair[1], &length)) {
      return absl::InvalidArgumentError(absl::StrCat("Expected a pair of numbers or '-' but got '",
                                                     extent, "': string = ", text));
    }
    if (start < 0 || length <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected non-negative start and positive length but got start = ", start,
                       ", length = ", length, ": string = ", text));
    }
    out.slice.emplace_back(start, length);
  }
  return out;
}

// The slice `spec` of the whole stored tensor `full` (named `name`), as TensorFlow's
// BundleReader::LookupSlice reads a tensor saved whole: its errors are "Mismatching ranks: shape =
// [3,4], slice = 0,1" and "Extent in dimension 0 out of bounds: shape = [3,4], slice = 2,2:-"
// (Internal, TensorSlice::SliceTensorShape's), and InvalidArgument "tensor_name = w; shape in
// shape_and_slice spec [4,4] does not match the shape stored in checkpoint: [3,4]".
absl::Status SliceOfWhole(OpKernelContext& ctx, int output, const std::string& name,
                          const ShapeAndSlice& spec, const Tensor& full) {
  RILL_ASSIGN_OR_RETURN(TensorShape spec_shape, TensorShape::FromDims(spec.full));
  if (spec.slice.size() != spec.full.size()) {
    return absl::InternalError(absl::StrCat("Mismatching ranks: shape = ", spec_shape.DebugString(),
                                            ", slice = ", spec.SliceText()));
  }
  std::vector<int64_t> start(spec.full.size()), dims(spec.full.size());
  for (size_t d = 0; d < spec.full.size(); ++d) {
    const auto [s, l] = spec.slice[d];
    start[d] = s;
    dims[d] = l < 0 ? spec.full[d] : l;
    if (l >= 0 && (s > spec.full[d] || l > spec.full[d] - s)) {
      return absl::InternalError(absl::StrCat("Extent in dimension ", d,
                                              " out of bounds: shape = ", spec_shape.DebugString(),
                                              ", slice = ", spec.SliceText()));
    }
  }
  if (spec_shape != full.shape()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tensor_name = ", name, "; shape in shape_and_slice spec ", spec_shape.DebugString(),
        " does not match the shape stored in checkpoint: ", full.shape().DebugString()));
  }
  RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(output, out_shape));
  const int rank = static_cast<int>(dims.size());
  const int64_t count = out_shape.num_elements();
  // Row-major strides of the stored tensor; the output is walked in order.
  std::vector<int64_t> stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * spec.full[d + 1];
  std::vector<int64_t> index(rank, 0);
  const bool strings = full.dtype() == DT_STRING;
  const size_t bytes = strings ? 0 : DataTypeSize(full.dtype());
  for (int64_t e = 0; e < count; ++e) {
    int64_t at = 0;
    for (int d = 0; d < rank; ++d) at += (start[d] + index[d]) * stride[d];
    if (strings) {
      out->flat<std::string>()[e] = full.flat<std::string>()[at];
    } else {
      std::memcpy(static_cast<char*>(out->raw_data()) + e * bytes,
                  static_cast<const char*>(full.raw_data()) + at * bytes, bytes);
    }
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
  return absl::OkStatus();
}

class RestoreV2Op final : public OpKernel {
 public:
  explicit RestoreV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtypes", &dtypes_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string prefix, ScalarString(ctx.input(0), "prefix"));
    const Tensor& names = ctx.input(1);
    const Tensor& slices = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckNamesAndSlices(names, slices, dtypes_.size()));
    std::vector<std::optional<ShapeAndSlice>> specs;
    for (size_t i = 0; i < dtypes_.size(); ++i) {
      const std::string& spec = slices.flat<std::string>()[i];
      if (spec.empty()) {
        specs.emplace_back();
      } else {
        RILL_ASSIGN_OR_RETURN(ShapeAndSlice parsed, ParseShapeAndSlice(spec));
        specs.emplace_back(std::move(parsed));
      }
    }
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<BundleReader> reader, BundleReader::Open(prefix));
    for (size_t i = 0; i < dtypes_.size(); ++i) {
      const std::string& name = names.flat<std::string>()[i];
      RILL_ASSIGN_OR_RETURN(BundleEntryProto entry, reader->Entry(name));
      if (entry.dtype() != dtypes_[i]) {
        return absl::InvalidArgumentError(
            absl::StrCat("tensor_name = ", name, "; expected dtype ", DataTypeString(dtypes_[i]),
                         " does not equal original dtype ", DataTypeString(entry.dtype()),
                         " (checkpoint ", prefix, ")"));
      }
      RILL_ASSIGN_OR_RETURN(Tensor t, reader->Lookup(name, ctx.device()->allocator()));
      if (specs[i].has_value()) {
        RILL_RETURN_IF_ERROR(SliceOfWhole(ctx, static_cast<int>(i), name, *specs[i], t));
      } else {
        ctx.set_output(static_cast<int>(i), std::move(t));
      }
    }
    return absl::OkStatus();
  }

 private:
  std::vector<DataType> dtypes_;
};

class SaveV2Op final : public OpKernel {
 public:
  explicit SaveV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string prefix, ScalarString(ctx.input(0), "prefix"));
    const size_t n = static_cast<size_t>(ctx.num_inputs() - 3);
    const Tensor& names = ctx.input(1);
    const Tensor& slices = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckNamesAndSlices(names, slices, n));
    for (size_t i = 0; i < n; ++i) {
      const std::string& spec = slices.flat<std::string>()[i];
      if (spec.empty()) continue;
      // A malformed spec gets TensorFlow's error; a well-formed one names what is missing.
      RILL_RETURN_IF_ERROR(ParseShapeAndSlice(spec).status());
      return absl::UnimplementedError(
          absl::StrCat("tensor ", names.flat<std::string>()[i], " has slice spec '", spec,
                       "': saving partitioned variables is not supported; save whole tensors"));
    }
    BundleWriter writer(prefix);
    for (size_t i = 0; i < n; ++i) {
      RILL_RETURN_IF_ERROR(
          writer.Add(names.flat<std::string>()[i], ctx.input(static_cast<int>(3 + i))));
    }
    return writer.Finish();
  }
};

class MergeV2CheckpointsOp final : public OpKernel {
 public:
  explicit MergeV2CheckpointsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("delete_old_dirs", &delete_old_);
    if (s.ok()) s = ctx.GetAttr("allow_missing_files", &allow_missing_);
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& prefixes = ctx.input(0);
    if (prefixes.dtype() != DT_STRING || prefixes.shape().rank() > 1) {
      return absl::InvalidArgumentError("checkpoint_prefixes must be a string scalar or vector");
    }
    RILL_ASSIGN_OR_RETURN(std::string destination,
                          ScalarString(ctx.input(1), "destination_prefix"));
    std::vector<std::string> list(prefixes.flat<std::string>().begin(),
                                  prefixes.flat<std::string>().end());
    return MergeBundles(list, destination, delete_old_, allow_missing_);
  }

 private:
  bool delete_old_ = true;
  bool allow_missing_ = false;
};

absl::StatusOr<int32_t> ScalarInt(const Tensor& t, const char* what) {
  if (t.dtype() != DT_INT32 || t.shape().rank() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be an int32 scalar"));
  }
  return t.flat<int32_t>()[0];
}

class ShardedFilenameOp final : public OpKernel {
 public:
  explicit ShardedFilenameOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string base, ScalarString(ctx.input(0), "basename"));
    RILL_ASSIGN_OR_RETURN(int32_t shard, ScalarInt(ctx.input(1), "shard"));
    RILL_ASSIGN_OR_RETURN(int32_t num, ScalarInt(ctx.input(2), "num_shards"));
    ctx.set_output(
        0, Tensor::Scalar<std::string>(absl::StrFormat("%s-%05d-of-%05d", base, shard, num)));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class ShardedFilespecOp final : public OpKernel {
 public:
  explicit ShardedFilespecOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string base, ScalarString(ctx.input(0), "basename"));
    RILL_ASSIGN_OR_RETURN(int32_t num, ScalarInt(ctx.input(1), "num_shards"));
    // "?" x 5 written out: "??" starts a trigraph in older C++.
    ctx.set_output(0, Tensor::Scalar<std::string>(absl::StrCat(base, "-", std::string(5, '?'),
                                                               absl::StrFormat("-of-%05d", num))));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("RestoreV2").Device(kDeviceCpu), RestoreV2Op);
REGISTER_KERNEL(KernelDefBuilder("SaveV2").Device(kDeviceCpu), SaveV2Op);
REGISTER_KERNEL(KernelDefBuilder("MergeV2Checkpoints").Device(kDeviceCpu), MergeV2CheckpointsOp);
REGISTER_KERNEL(KernelDefBuilder("ShardedFilename").Device(kDeviceCpu), ShardedFilenameOp);
REGISTER_KERNEL(KernelDefBuilder("ShardedFilespec").Device(kDeviceCpu), ShardedFilespecOp);

}  // namespace
}  // namespace rill
