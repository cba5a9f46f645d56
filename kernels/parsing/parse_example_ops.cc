// ParseExampleV2, ParseExample and ParseSingleExample: tf.train.Example records to dense, sparse
// and ragged tensors (example_parsing.h does the parsing). The three differ in where the keys
// come from (string tensors, one scalar input per key, or attrs) and in the rank of
// `serialized` they take (scalar or vector, vector, scalar).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/parsing/example_parsing.h"

namespace rill {
namespace {

absl::Status CheckNames(const Tensor& names, const Tensor& serialized) {
  if (names.NumElements() > 0 && names.shape() != serialized.shape()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected names have the same shape as serialized: name.shape=",
        names.shape().DebugString(), ", serialized.shape=", serialized.shape().DebugString()));
  }
  return absl::OkStatus();
}

ExampleBatch BatchOf(const Tensor& serialized, const Tensor& names) {
  ExampleBatch b;
  auto s = serialized.flat<std::string>();
  b.serialized = absl::Span<const std::string>(s.data(), s.size());
  auto n = names.flat<std::string>();
  b.names = absl::Span<const std::string>(n.data(), n.size());
  b.scalar = serialized.shape().rank() == 0;
  return b;
}

std::vector<const Tensor*> Inputs(const OpKernelContext& ctx, int first, int count) {
  std::vector<const Tensor*> out;
  for (int i = 0; i < count; ++i) out.push_back(&ctx.input(first + i));
  return out;
}

class ParseExampleV2Op final : public OpKernel {
 public:
  explicit ParseExampleV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    int64_t num_sparse = 0;
    std::vector<DataType> sparse_types, ragged_types, split_types;
    absl::Status s = ctx.GetAttr("num_sparse", &num_sparse);
    if (s.ok()) s = ctx.GetAttr("sparse_types", &sparse_types);
    if (s.ok()) s = ctx.GetAttr("ragged_value_types", &ragged_types);
    if (s.ok()) s = ctx.GetAttr("ragged_split_types", &split_types);
    if (s.ok()) s = DenseSpecsFromAttrs(ctx, &spec_.dense);
    if (s.ok() && static_cast<int64_t>(sparse_types.size()) != num_sparse) {
      s = absl::InvalidArgumentError(absl::StrCat(
          "len(sparse_types) != num_sparse: ", sparse_types.size(), " vs. ", num_sparse));
    }
    if (s.ok() && ragged_types.size() != split_types.size()) {
      s = absl::InvalidArgumentError(
          absl::StrCat("len(ragged_split_types) != len(ragged_value_types): ", split_types.size(),
                       " vs. ", ragged_types.size()));
    }
    ctx.SetStatus(s);
    if (!s.ok()) return;
    for (DataType t : sparse_types) spec_.sparse.push_back({"", t});
    for (size_t r = 0; r < ragged_types.size(); ++r) {
      spec_.ragged.push_back({"", ragged_types[r], split_types[r]});
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& serialized = ctx.input(0);
    const Tensor& names = ctx.input(1);
    if (serialized.shape().rank() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected serialized to be a scalar or vector, got shape: ",
                       serialized.shape().DebugString()));
    }
    RILL_RETURN_IF_ERROR(CheckNames(names, serialized));
    ExampleParserSpec spec = spec_;
    RILL_RETURN_IF_ERROR(
        TakeKeys(ctx.input(2), "Expected len(sparse_keys) == num_sparse", spec.sparse));
    RILL_RETURN_IF_ERROR(
        TakeKeys(ctx.input(3), "Expected len(dense_keys) == len(dense_types)", spec.dense));
    RILL_RETURN_IF_ERROR(TakeKeys(
        ctx.input(4), "Expected len(ragged_keys) == len(ragged_value_types)", spec.ragged));
    const std::vector<const Tensor*> defaults = Inputs(ctx, 5, static_cast<int>(spec.dense.size()));
    return ParseExamples(ctx, spec, BatchOf(serialized, names), defaults,
                         ExampleErrorStyle::kBatch);
  }

 private:
  template <typename Spec>
  static absl::Status TakeKeys(const Tensor& keys, const char* what, std::vector<Spec>& specs) {
    auto k = keys.flat<std::string>();
    if (k.size() != specs.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " but got: ", k.size(), " vs. ", specs.size()));
    }
    for (size_t i = 0; i < specs.size(); ++i) specs[i].key = k[i];
    return absl::OkStatus();
  }

  ExampleParserSpec spec_;  // keys filled per step from the key inputs
};

class ParseExampleOp final : public OpKernel {
 public:
  explicit ParseExampleOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::vector<DataType> sparse_types;
    absl::Status s = ctx.GetAttr("Nsparse", &num_sparse_);
    if (s.ok()) s = ctx.GetAttr("Ndense", &num_dense_);
    if (s.ok()) s = ctx.GetAttr("sparse_types", &sparse_types);
    if (s.ok()) s = DenseSpecsFromAttrs(ctx, &spec_.dense);
    if (s.ok() && static_cast<int64_t>(sparse_types.size()) != num_sparse_) {
      s = absl::InvalidArgumentError(absl::StrCat(
          "len(sparse_keys) != len(sparse_types): ", num_sparse_, " vs. ", sparse_types.size()));
    }
    if (s.ok() && static_cast<int64_t>(spec_.dense.size()) != num_dense_) {
      s = absl::InvalidArgumentError(absl::StrCat(
          "len(dense_keys) != len(dense_types): ", num_dense_, " vs. ", spec_.dense.size()));
    }
    ctx.SetStatus(s);
    if (!s.ok()) return;
    for (DataType t : sparse_types) spec_.sparse.push_back({"", t});
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& serialized = ctx.input(0);
    const Tensor& names = ctx.input(1);
    if (serialized.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected serialized to be a vector, got shape: ", serialized.shape().DebugString()));
    }
    RILL_RETURN_IF_ERROR(CheckNames(names, serialized));
    ExampleParserSpec spec = spec_;
    const int ns = static_cast<int>(num_sparse_), nd = static_cast<int>(num_dense_);
    for (int i = 0; i < ns; ++i) {
      RILL_ASSIGN_OR_RETURN(spec.sparse[i].key, Key(ctx.input(2 + i), "sparse_keys", i));
    }
    for (int i = 0; i < nd; ++i) {
      RILL_ASSIGN_OR_RETURN(spec.dense[i].key, Key(ctx.input(2 + ns + i), "dense_keys", i));
    }
    return ParseExamples(ctx, spec, BatchOf(serialized, names), Inputs(ctx, 2 + ns + nd, nd),
                         ExampleErrorStyle::kBatch);
  }

 private:
  static absl::StatusOr<std::string> Key(const Tensor& t, const char* what, int i) {
    if (t.NumElements() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected ", what, "[", i, "] to be a scalar, got shape: ", t.shape().DebugString()));
    }
    return t.flat<std::string>()[0];
  }

  int64_t num_sparse_ = 0, num_dense_ = 0;
  ExampleParserSpec spec_;
};

class ParseSingleExampleOp final : public OpKernel {
 public:
  explicit ParseSingleExampleOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    int64_t num_sparse = 0;
    std::vector<DataType> sparse_types;
    std::vector<std::string> sparse_keys, dense_keys;
    absl::Status s = ctx.GetAttr("num_sparse", &num_sparse);
    if (s.ok()) s = ctx.GetAttr("sparse_types", &sparse_types);
    if (s.ok()) s = ctx.GetAttr("sparse_keys", &sparse_keys);
    if (s.ok()) s = ctx.GetAttr("dense_keys", &dense_keys);
    if (s.ok()) s = DenseSpecsFromAttrs(ctx, &spec_.dense);
    if (s.ok() && (static_cast<int64_t>(sparse_keys.size()) != num_sparse ||
                   sparse_types.size() != sparse_keys.size())) {
      s = absl::InvalidArgumentError(
          absl::StrCat("len(sparse_keys) != len(sparse_types) or num_sparse: ", sparse_keys.size(),
                       " vs. ", sparse_types.size(), " vs. ", num_sparse));
    }
    if (s.ok() && dense_keys.size() != spec_.dense.size()) {
      s = absl::InvalidArgumentError(absl::StrCat(
          "len(dense_keys) != len(dense_types): ", dense_keys.size(), " vs. ", spec_.dense.size()));
    }
    ctx.SetStatus(s);
    if (!s.ok()) return;
    for (size_t i = 0; i < sparse_keys.size(); ++i) {
      spec_.sparse.push_back({sparse_keys[i], sparse_types[i]});
    }
    for (size_t i = 0; i < dense_keys.size(); ++i) spec_.dense[i].key = dense_keys[i];
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& serialized = ctx.input(0);
    if (serialized.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected serialized to be a scalar, got shape: ", serialized.shape().DebugString()));
    }
    ExampleBatch batch;
    auto s = serialized.flat<std::string>();
    batch.serialized = absl::Span<const std::string>(s.data(), s.size());
    batch.scalar = true;
    return ParseExamples(ctx, spec_, batch, Inputs(ctx, 1, static_cast<int>(spec_.dense.size())),
                         ExampleErrorStyle::kSingle);
  }

 private:
  ExampleParserSpec spec_;
};

REGISTER_KERNEL(KernelDefBuilder("ParseExampleV2").Device(kDeviceCpu), ParseExampleV2Op);
REGISTER_KERNEL(KernelDefBuilder("ParseExample").Device(kDeviceCpu), ParseExampleOp);
REGISTER_KERNEL(KernelDefBuilder("ParseSingleExample").Device(kDeviceCpu), ParseSingleExampleOp);

}  // namespace
}  // namespace rill
