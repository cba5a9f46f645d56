// ParseSingleSequenceExample: one tf.train.SequenceExample record (a scalar) to tensors, with the
// semantics and error texts of TensorFlow's kernel for it, which reads the record with the full
// protobuf parser rather than ParseSequenceExample's fast one, so they differ from that op's:
//   - keys come as scalar string inputs, and may name a feature twice (no kind conflicts);
//   - a context dense feature must hold exactly its size ("Name: n, Key: c, Index: 0.  Number of
//     float values != expected.  values size: 2 but output shape: [3]"), a missing one takes its
//     default or is "Name: n, Context feature 'c' is required but could not be found.";
//   - a feature-list dense feature gives [steps, shape...] (no lengths); a missing one fails
//     unless its key is in the feature_list_dense_missing_assumed_empty input (then no steps); a
//     step with no list set is a type mismatch there, and zero values for a sparse feature list;
//   - an unparsable record is "Could not parse example input, value: '...'".
// Outputs: context sparse indices [n, 1], values, shapes [1]; context dense values; feature-list
// sparse indices [n, 2] (step, index), values, shapes [2]; feature-list dense values.
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/parsing/example_parsing.h"
#include "proto/example.pb.h"

namespace rill {
namespace {

// The list names TensorFlow's value-count errors print.
const char* ValueName(DataType dt) {
  return dt == DT_STRING ? "bytes" : (dt == DT_FLOAT ? "float" : "int64");
}

// out = def, element by element (same number of elements, out's dtype).
void CopyDefault(const Tensor& def, Tensor* out) {
  auto copy = [&](auto s, auto o) {
    for (int64_t k = 0; k < out->NumElements(); ++k) o[k] = s[k];
  };
  switch (out->dtype()) {
    case DT_STRING:
      copy(def.flat<std::string>(), out->flat<std::string>());
      break;
    case DT_FLOAT:
      copy(def.flat<float>(), out->flat<float>());
      break;
    default:
      copy(def.flat<int64_t>(), out->flat<int64_t>());
      break;
  }
}

// A feature holding another number of values than its shape has; TensorFlow's bytes text
// differs in two places ("Key c", "Values size").
absl::Status CountError(const std::string& name, const std::string& key, int index, DataType dtype,
                        int64_t count, const PartialTensorShape& shape) {
  const bool bytes = dtype == DT_STRING;
  return absl::InvalidArgumentError(absl::StrCat(
      "Name: ", name, ", Key", bytes ? " " : ": ", key, ", Index: ", index, ".  Number of ",
      ValueName(dtype), " values != expected.  ", bytes ? "Values" : "values", " size: ", count,
      " but output shape: ", shape.DebugString()));
}

absl::Status TypeMismatch(const std::string& name, const std::string& where, DataType want) {
  return absl::InvalidArgumentError(
      absl::StrCat("Name: ", name, ", ", where,
                   ".  Data types don't match. Expected type: ", DataTypeString(want)));
}

class ParseSingleSequenceExampleOp final : public OpKernel {
 public:
  explicit ParseSingleSequenceExampleOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s =
        DenseSpecsFromAttrs(ctx, &context_dense_, "Tcontext_dense", "context_dense_shapes");
    if (s.ok()) {
      s = DenseSpecsFromAttrs(ctx, &list_dense_, "feature_list_dense_types",
                              "feature_list_dense_shapes");
    }
    for (const auto* fs : {&context_dense_, &list_dense_}) {
      for (const DenseFeatureSpec& f : *fs) {
        if (s.ok() && f.variable_length) {
          s = absl::InvalidArgumentError(
              absl::StrCat("Shape ", f.shape.DebugString(), " is not fully defined"));
        }
      }
    }
    if (s.ok()) s = ctx.GetAttr("context_sparse_types", &context_sparse_types_);
    if (s.ok()) s = ctx.GetAttr("feature_list_sparse_types", &list_sparse_types_);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int ncs = static_cast<int>(context_sparse_types_.size());
    const int ncd = static_cast<int>(context_dense_.size());
    const int nfs = static_cast<int>(list_sparse_types_.size());
    const int nfd = static_cast<int>(list_dense_.size());
    // Inputs: serialized, missing_assumed_empty, the four key lists, defaults, debug_name.
    const Tensor& serialized = ctx.input(0);
    const Tensor& missing = ctx.input(1);
    const int keys_at = 2, defaults_at = 2 + ncs + ncd + nfs + nfd;
    const Tensor& debug_name = ctx.input(defaults_at + ncd);
    if (serialized.NumElements() != 1 || debug_name.NumElements() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected serialized and debug_name to be scalars, got shapes: ",
          serialized.shape().DebugString(), " and ", debug_name.shape().DebugString()));
    }
    auto key = [&](int i) -> absl::StatusOr<std::string> {
      const Tensor& t = ctx.input(keys_at + i);
      if (t.NumElements() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected each key to be a scalar, got shape: ", t.shape().DebugString()));
      }
      return t.flat<std::string>()[0];
    };
    const std::string name = debug_name.flat<std::string>()[0];
    const std::string& record = serialized.flat<std::string>()[0];
    for (int d = 0; d < ncd; ++d) {
      const Tensor& def = ctx.input(defaults_at + d);
      if (def.NumElements() > 0 && !context_dense_[d].shape.IsCompatibleWith(def.shape())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "def_value[", d, "].shape() == ", def.shape().DebugString(),
            " != context_dense_shapes_[", d, "] == ", context_dense_[d].shape.DebugString()));
      }
    }
    SequenceExample ex;
    if (!ex.ParseFromString(record)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Could not parse example input, value: '", record, "'"));
    }
    const auto& context = ex.context().feature();
    const auto& lists = ex.feature_lists().feature_list();
    std::set<std::string> may_be_missing;
    for (const std::string& k : missing.flat<std::string>()) may_be_missing.insert(k);

    for (int s = 0; s < ncs; ++s) {
      RILL_ASSIGN_OR_RETURN(const std::string k, key(s));
      auto it = context.find(k);
      const Feature* f = it == context.end() ? nullptr : &it->second;
      if (f != nullptr && FeatureKindType(*f) != context_sparse_types_[s]) {
        return TypeMismatch(name, absl::StrCat("Context feature: ", k), context_sparse_types_[s]);
      }
      const int64_t count = f == nullptr ? 0 : FeatureValueCount(*f);
      RILL_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate_output(s, TensorShape({count, 1})));
      RILL_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate_output(ncs + s, TensorShape({count})));
      RILL_ASSIGN_OR_RETURN(Tensor * shape, ctx.allocate_output(2 * ncs + s, TensorShape({1})));
      for (int64_t j = 0; j < count; ++j) indices->flat<int64_t>()[j] = j;
      if (f != nullptr) CopyFeatureValues(*f, values, 0);
      shape->flat<int64_t>()[0] = count;
    }

    for (int d = 0; d < ncd; ++d) {
      const DenseFeatureSpec& spec = context_dense_[d];
      RILL_ASSIGN_OR_RETURN(const std::string k, key(ncs + d));
      RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(spec.shape.dims()));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(3 * ncs + d, shape));
      auto it = context.find(k);
      if (it == context.end()) {
        const Tensor& def = ctx.input(defaults_at + d);
        if (def.NumElements() == 0) {
          return absl::InvalidArgumentError(absl::StrCat("Name: ", name, ", Context feature '", k,
                                                         "' is required but could not be found."));
        }
        CopyDefault(def, out);
        continue;
      }
      const Feature& f = it->second;
      if (FeatureKindType(f) != spec.dtype) {
        return TypeMismatch(name, absl::StrCat("Context feature: ", k), spec.dtype);
      }
      if (FeatureValueCount(f) != spec.stride) {
        return CountError(name, k, 0, spec.dtype, FeatureValueCount(f), spec.shape);
      }
      CopyFeatureValues(f, out, 0);
    }

    const int first_list = 3 * ncs + ncd;
    for (int s = 0; s < nfs; ++s) {
      RILL_ASSIGN_OR_RETURN(const std::string k, key(ncs + ncd + s));
      auto it = lists.find(k);
      const FeatureList* l = it == lists.end() ? nullptr : &it->second;
      int64_t total = 0, longest = 0;
      const int steps = l == nullptr ? 0 : l->feature_size();
      for (int t = 0; t < steps; ++t) {
        const Feature& step = l->feature(t);
        const DataType got = FeatureKindType(step);
        if (got != DT_INVALID && got != list_sparse_types_[s]) {
          return TypeMismatch(name, absl::StrCat("Feature List: ", k, ", Index: ", t),
                              list_sparse_types_[s]);
        }
        total += FeatureValueCount(step);
        longest = std::max(longest, FeatureValueCount(step));
      }
      RILL_ASSIGN_OR_RETURN(Tensor * indices,
                            ctx.allocate_output(first_list + s, TensorShape({total, 2})));
      RILL_ASSIGN_OR_RETURN(Tensor * values,
                            ctx.allocate_output(first_list + nfs + s, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * shape,
                            ctx.allocate_output(first_list + 2 * nfs + s, TensorShape({2})));
      auto idx = indices->flat<int64_t>();
      int64_t at = 0;
      for (int t = 0; t < steps; ++t) {
        const Feature& step = l->feature(t);
        CopyFeatureValues(step, values, at);
        for (int64_t j = 0; j < FeatureValueCount(step); ++j, ++at) {
          idx[2 * at] = t;
          idx[2 * at + 1] = j;
        }
      }
      shape->flat<int64_t>()[0] = steps;
      shape->flat<int64_t>()[1] = longest;
    }

    for (int d = 0; d < nfd; ++d) {
      const DenseFeatureSpec& spec = list_dense_[d];
      RILL_ASSIGN_OR_RETURN(const std::string k, key(ncs + ncd + nfs + d));
      auto it = lists.find(k);
      if (it == lists.end() && may_be_missing.count(k) == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Name: ", name, ", Feature list '", k,
            "' is required but could not be found.  Did you mean to include it in "
            "feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"));
      }
      const FeatureList* l = it == lists.end() ? nullptr : &it->second;
      const int steps = l == nullptr ? 0 : l->feature_size();
      std::vector<int64_t> dims{steps};
      dims.insert(dims.end(), spec.shape.dims().begin(), spec.shape.dims().end());
      RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(first_list + 3 * nfs + d, shape));
      for (int t = 0; t < steps; ++t) {
        const Feature& step = l->feature(t);
        if (FeatureKindType(step) != spec.dtype) {
          return TypeMismatch(name, absl::StrCat("Feature list: ", k, ", Index: ", t), spec.dtype);
        }
        if (FeatureValueCount(step) != spec.stride) {
          return CountError(name, k, t, spec.dtype, FeatureValueCount(step), spec.shape);
        }
        CopyFeatureValues(step, out, t * spec.stride);
      }
    }
    return absl::OkStatus();
  }

 private:
  std::vector<DenseFeatureSpec> context_dense_, list_dense_;
  std::vector<DataType> context_sparse_types_, list_sparse_types_;
};

REGISTER_KERNEL(KernelDefBuilder("ParseSingleSequenceExample").Device(kDeviceCpu),
                ParseSingleSequenceExampleOp);

}  // namespace
}  // namespace rill
