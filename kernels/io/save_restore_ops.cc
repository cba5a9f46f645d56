// Checkpoint kernels on the CPU (ops/io_ops.cc) over core/io/tensor_bundle.h. A Saver graph's
// restore op runs RestoreV2 then Assign; its save op runs SaveV2 (and, sharded, ShardedFilename
// and MergeV2Checkpoints). Errors name the tensor and the file (NotFound for a missing
// checkpoint or tensor, DataLoss for corrupt files, InvalidArgument "tensor_name = w; expected
// dtype float does not equal original dtype double" for a dtype mismatch, Unimplemented for
// slices of partitioned variables). Expensive (file I/O): they go to the inter-op pool.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
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

// tensor_names and shape_and_slices: string vectors of `n` elements; slices must be empty.
absl::StatusOr<std::vector<std::string>> TensorNames(const Tensor& names, const Tensor& slices,
                                                     size_t n) {
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
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    if (!slices.flat<std::string>()[i].empty()) {
      return absl::UnimplementedError(
          absl::StrCat("tensor ", names.flat<std::string>()[i], " has slice spec '",
                       slices.flat<std::string>()[i],
                       "': partitioned variables are not supported; save whole tensors"));
    }
    out.push_back(names.flat<std::string>()[i]);
  }
  return out;
}

class RestoreV2Op final : public OpKernel {
 public:
  explicit RestoreV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtypes", &dtypes_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string prefix, ScalarString(ctx.input(0), "prefix"));
    RILL_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          TensorNames(ctx.input(1), ctx.input(2), dtypes_.size()));
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<BundleReader> reader, BundleReader::Open(prefix));
    for (size_t i = 0; i < names.size(); ++i) {
      RILL_ASSIGN_OR_RETURN(BundleEntryProto entry, reader->Entry(names[i]));
      if (entry.dtype() != dtypes_[i]) {
        return absl::InvalidArgumentError(
            absl::StrCat("tensor_name = ", names[i], "; expected dtype ",
                         DataTypeString(dtypes_[i]), " does not equal original dtype ",
                         DataTypeString(entry.dtype()), " (checkpoint ", prefix, ")"));
      }
      RILL_ASSIGN_OR_RETURN(Tensor t, reader->Lookup(names[i], ctx.device()->allocator()));
      ctx.set_output(static_cast<int>(i), std::move(t));
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
    RILL_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          TensorNames(ctx.input(1), ctx.input(2), n));
    BundleWriter writer(prefix);
    for (size_t i = 0; i < n; ++i) {
      RILL_RETURN_IF_ERROR(writer.Add(names[i], ctx.input(static_cast<int>(3 + i))));
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
