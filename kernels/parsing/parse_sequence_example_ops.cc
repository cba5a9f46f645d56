// ParseSequenceExample and ParseSequenceExampleV2: tf.train.SequenceExample records (a context of
// features and feature lists, one feature per step) to tensors, with TensorFlow's semantics and
// error texts. `serialized` is a vector of records or a scalar (one record, no batch dimension
// in the outputs). Outputs, in order: context sparse indices, values and shapes;
// context dense values; (V2) context ragged values and row splits; feature-list sparse indices,
// values and shapes; feature-list dense values and lengths; (V2) feature-list ragged values,
// outer splits (steps per record) and inner splits (values per step).
//   - context dense features have fully defined shapes; a missing one takes its default, and is
//     required when the default is empty;
//   - a feature-list dense feature gives [steps, shape...] per record, padded to the longest
//     record with zeros (empty strings) and its lengths; a record without it fails unless the
//     key is in feature_list_dense_missing_assumed_empty (then it has no steps);
//   - a feature with no list set counts as missing (in a step: as a step with no values).
// The V1 op names its keys in attrs, V2 in string inputs (and which dense feature lists may be
// missing as a bool vector). Kernels are immutable after construction; Compute is thread-safe.
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

struct SequenceSpec {
  std::vector<SparseFeatureSpec> context_sparse;
  std::vector<DenseFeatureSpec> context_dense;
  std::vector<RaggedFeatureSpec> context_ragged;
  std::vector<SparseFeatureSpec> list_sparse;
  std::vector<DenseFeatureSpec> list_dense;
  std::vector<bool> list_dense_may_be_missing;  // one per list_dense
  std::vector<RaggedFeatureSpec> list_ragged;
  bool v2 = false;  // ragged outputs exist
};

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// TensorFlow's checks that no key is two kinds of feature: dense keys first, then sparse, then
// ragged ("Context feature k cannot be both dense and sparse", "... both ragged and sparse").
absl::Status CheckKinds(const char* what, const std::vector<DenseFeatureSpec>& dense,
                        const std::vector<SparseFeatureSpec>& sparse,
                        const std::vector<RaggedFeatureSpec>& ragged) {
  std::set<std::string> dense_keys, sparse_keys;
  for (const DenseFeatureSpec& d : dense) dense_keys.insert(d.key);
  for (const SparseFeatureSpec& s : sparse) {
    if (dense_keys.count(s.key) > 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " feature ", s.key, " cannot be both dense and sparse"));
    }
    sparse_keys.insert(s.key);
  }
  for (const RaggedFeatureSpec& r : ragged) {
    if (dense_keys.count(r.key) > 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " feature ", r.key, " cannot be both dense and sparse"));
    }
    if (sparse_keys.count(r.key) > 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " feature ", r.key, " cannot be both ragged and sparse"));
    }
  }
  return absl::OkStatus();
}

// The context feature `key` of `e`, or null when absent or holding no list.
const Feature* FindContext(const SequenceExample& e, const std::string& key) {
  const auto& map = e.context().feature();
  auto it = map.find(key);
  if (it == map.end() || it->second.kind_case() == Feature::KIND_NOT_SET) return nullptr;
  return &it->second;
}

const FeatureList* FindList(const SequenceExample& e, const std::string& key) {
  const auto& map = e.feature_lists().feature_list();
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

void SetSplits(const std::vector<int64_t>& ends, DataType dtype, Tensor* out) {
  if (dtype == DT_INT32) {
    auto o = out->flat<int32_t>();
    for (size_t k = 0; k < ends.size(); ++k) o[k] = static_cast<int32_t>(ends[k]);
  } else {
    auto o = out->flat<int64_t>();
    for (size_t k = 0; k < ends.size(); ++k) o[k] = ends[k];
  }
}

class Parser {
 public:
  Parser(OpKernelContext& ctx, const SequenceSpec& spec, absl::Span<const std::string> serialized,
         absl::Span<const std::string> names, bool scalar, absl::Span<const Tensor* const> defaults)
      : ctx_(ctx),
        spec_(spec),
        serialized_(serialized),
        names_(names),
        scalar_(scalar),
        defaults_(defaults),
        n_(static_cast<int64_t>(serialized.size())),
        batch_dims_(scalar ? std::vector<int64_t>{} : std::vector<int64_t>{n_}) {}

  absl::Status Run() {
    RILL_RETURN_IF_ERROR(
        CheckKinds("Context", spec_.context_dense, spec_.context_sparse, spec_.context_ragged));
    RILL_RETURN_IF_ERROR(
        CheckKinds("Sequence", spec_.list_dense, spec_.list_sparse, spec_.list_ragged));
    RILL_RETURN_IF_ERROR(CheckDefaults());
    records_.resize(n_);
    for (int64_t i = 0; i < n_; ++i) {
      // TensorFlow's scalar path refuses an empty record (a batch reads it as nothing set).
      if (!records_[i].ParseFromString(serialized_[i]) || (scalar_ && serialized_[i].empty())) {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid protocol message input, example id: ", Name(i)));
      }
    }
    RILL_RETURN_IF_ERROR(CheckTypes());
    RILL_RETURN_IF_ERROR(ContextSparse());
    RILL_RETURN_IF_ERROR(ContextDense());
    if (spec_.v2) RILL_RETURN_IF_ERROR(ContextRagged());
    RILL_RETURN_IF_ERROR(ListSparse());
    RILL_RETURN_IF_ERROR(ListDense());
    if (spec_.v2) RILL_RETURN_IF_ERROR(ListRagged());
    return absl::OkStatus();
  }

 private:
  std::string Name(int64_t i) const {
    return names_.empty() || names_[i].empty() ? "<unknown>" : names_[i];
  }

  absl::Status CheckDefaults() const {
    for (size_t d = 0; d < spec_.context_dense.size(); ++d) {
      const DenseFeatureSpec& f = spec_.context_dense[d];
      const Tensor& def = *defaults_[d];
      if (def.NumElements() > 0 && !f.shape.IsCompatibleWith(def.shape())) {
        return absl::InvalidArgumentError(
            absl::StrCat("default_value[", d, "].shape() == ", def.shape().DebugString(),
                         " != context_dense_shapes[", d, "] == ", f.shape.DebugString()));
      }
    }
    return absl::OkStatus();
  }

  // Record by record, as TensorFlow reads them: every context feature and every step of every
  // feature list must hold the list its spec names.
  absl::Status CheckTypes() const {
    for (int64_t i = 0; i < n_; ++i) {
      auto context = [&](const std::string& key, DataType want) -> absl::Status {
        const Feature* f = FindContext(records_[i], key);
        if (f != nullptr && FeatureKindType(*f) != want) {
          return absl::InvalidArgumentError(
              absl::StrCat("Name: ", Name(i), ", Context feature: ", key,
                           ".  Data types don't match. Expected type: ", DataTypeString(want)));
        }
        return absl::OkStatus();
      };
      auto list = [&](const std::string& key, DataType want) -> absl::Status {
        const FeatureList* l = FindList(records_[i], key);
        if (l == nullptr) return absl::OkStatus();
        for (int t = 0; t < l->feature_size(); ++t) {
          const DataType got = FeatureKindType(l->feature(t));
          if (got != DT_INVALID && got != want) {
            return absl::InvalidArgumentError(
                absl::StrCat("Name: ", Name(i), ", Feature list: ", key, ", Index: ", t,
                             ".  Data types don't match. Expected type: ", DataTypeString(want)));
          }
        }
        return absl::OkStatus();
      };
      for (const auto& f : spec_.context_dense) RILL_RETURN_IF_ERROR(context(f.key, f.dtype));
      for (const auto& f : spec_.context_sparse) RILL_RETURN_IF_ERROR(context(f.key, f.dtype));
      for (const auto& f : spec_.context_ragged) RILL_RETURN_IF_ERROR(context(f.key, f.dtype));
      for (const auto& f : spec_.list_dense) RILL_RETURN_IF_ERROR(list(f.key, f.dtype));
      for (const auto& f : spec_.list_sparse) RILL_RETURN_IF_ERROR(list(f.key, f.dtype));
      for (const auto& f : spec_.list_ragged) RILL_RETURN_IF_ERROR(list(f.key, f.dtype));
    }
    return absl::OkStatus();
  }

  int NumContextOutputs() const {
    return 3 * static_cast<int>(spec_.context_sparse.size()) +
           static_cast<int>(spec_.context_dense.size()) +
           (spec_.v2 ? 2 * static_cast<int>(spec_.context_ragged.size()) : 0);
  }

  absl::Status ContextSparse() {
    const int ns = static_cast<int>(spec_.context_sparse.size());
    for (int s = 0; s < ns; ++s) {
      const SparseFeatureSpec& f = spec_.context_sparse[s];
      int64_t total = 0, longest = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const Feature* found = FindContext(records_[i], f.key);
        const int64_t count = found == nullptr ? 0 : FeatureValueCount(*found);
        total += count;
        longest = std::max(longest, count);
      }
      const int64_t columns = static_cast<int64_t>(batch_dims_.size()) + 1;
      RILL_ASSIGN_OR_RETURN(Tensor * indices,
                            ctx_.allocate_output(s, TensorShape({total, columns})));
      RILL_ASSIGN_OR_RETURN(Tensor * values, ctx_.allocate_output(ns + s, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * shape,
                            ctx_.allocate_output(2 * ns + s, TensorShape({columns})));
      auto idx = indices->flat<int64_t>();
      int64_t at = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const Feature* found = FindContext(records_[i], f.key);
        if (found == nullptr) continue;
        CopyFeatureValues(*found, values, at);
        const int64_t count = FeatureValueCount(*found);
        for (int64_t j = 0; j < count; ++j, ++at) {
          if (!scalar_) idx[at * columns] = i;
          idx[at * columns + columns - 1] = j;
        }
      }
      auto sh = shape->flat<int64_t>();
      if (!scalar_) sh[0] = n_;
      sh[columns - 1] = longest;
    }
    return absl::OkStatus();
  }

  absl::Status ContextDense() {
    const int first = 3 * static_cast<int>(spec_.context_sparse.size());
    for (size_t d = 0; d < spec_.context_dense.size(); ++d) {
      const DenseFeatureSpec& f = spec_.context_dense[d];
      const Tensor& def = *defaults_[d];
      int64_t longest = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const Feature* found = FindContext(records_[i], f.key);
        if (found != nullptr) longest = std::max(longest, FeatureValueCount(*found));
      }
      // A required feature's longest count must be its size; one with a default is checked
      // record by record.
      if (def.NumElements() == 0 && longest != f.stride) {
        return absl::InvalidArgumentError(
            absl::StrCat("Inconsistent max number of elements for feature ", f.key, ": expected ",
                         f.stride, ", but found ", longest));
      }
      RILL_ASSIGN_OR_RETURN(TensorShape shape,
                            TensorShape::FromDims(Concat(batch_dims_, f.shape.dims())));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx_.allocate_output(first + static_cast<int>(d), shape));
      for (int64_t i = 0; i < n_; ++i) {
        const Feature* found = FindContext(records_[i], f.key);
        if (found == nullptr) {
          if (def.NumElements() == 0) {
            return absl::InvalidArgumentError(
                absl::StrCat("Feature: ", f.key, " (data type: ", DataTypeString(f.dtype),
                             ") is required but could not be found."));
          }
          CopyDefault(def, out, i * f.stride, f.stride);
          continue;
        }
        if (FeatureValueCount(*found) != f.stride) {
          return absl::InvalidArgumentError(
              absl::StrCat("Unexpected number of elements in example ", Name(i)));
        }
        CopyFeatureValues(*found, out, i * f.stride);
      }
    }
    return absl::OkStatus();
  }

  static void CopyDefault(const Tensor& def, Tensor* out, int64_t offset, int64_t n) {
    auto copy = [&](auto s, auto o) {
      for (int64_t k = 0; k < n; ++k) o[offset + k] = s[k];
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

  // Splits of `scalar_` records: TensorFlow leaves them unset; Rill writes 0.
  TensorShape RecordSplitsShape() const {
    return scalar_ ? TensorShape({}) : TensorShape({n_ + 1});
  }

  absl::Status ContextRagged() {
    const int nr = static_cast<int>(spec_.context_ragged.size());
    const int first = 3 * static_cast<int>(spec_.context_sparse.size()) +
                      static_cast<int>(spec_.context_dense.size());
    for (int r = 0; r < nr; ++r) {
      const RaggedFeatureSpec& f = spec_.context_ragged[r];
      int64_t total = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const Feature* found = FindContext(records_[i], f.key);
        if (found != nullptr) total += FeatureValueCount(*found);
      }
      RILL_ASSIGN_OR_RETURN(Tensor * values, ctx_.allocate_output(first + r, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * splits,
                            ctx_.allocate_output(first + nr + r, RecordSplitsShape()));
      std::vector<int64_t> ends(scalar_ ? 1 : n_ + 1, 0);
      int64_t at = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const Feature* found = FindContext(records_[i], f.key);
        if (found != nullptr) {
          CopyFeatureValues(*found, values, at);
          at += FeatureValueCount(*found);
        }
        if (!scalar_) ends[i + 1] = at;
      }
      SetSplits(ends, f.splits_dtype, splits);
    }
    return absl::OkStatus();
  }

  absl::Status ListSparse() {
    const int ns = static_cast<int>(spec_.list_sparse.size());
    const int first = NumContextOutputs();
    for (int s = 0; s < ns; ++s) {
      const SparseFeatureSpec& f = spec_.list_sparse[s];
      int64_t total = 0, longest = 0, steps = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const FeatureList* l = FindList(records_[i], f.key);
        if (l == nullptr) continue;
        steps = std::max<int64_t>(steps, l->feature_size());
        for (const Feature& step : l->feature()) {
          total += FeatureValueCount(step);
          longest = std::max(longest, FeatureValueCount(step));
        }
      }
      const int64_t columns = static_cast<int64_t>(batch_dims_.size()) + 2;
      RILL_ASSIGN_OR_RETURN(Tensor * indices,
                            ctx_.allocate_output(first + s, TensorShape({total, columns})));
      RILL_ASSIGN_OR_RETURN(Tensor * values,
                            ctx_.allocate_output(first + ns + s, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * shape,
                            ctx_.allocate_output(first + 2 * ns + s, TensorShape({columns})));
      auto idx = indices->flat<int64_t>();
      int64_t at = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const FeatureList* l = FindList(records_[i], f.key);
        if (l == nullptr) continue;
        for (int64_t t = 0; t < l->feature_size(); ++t) {
          const Feature& step = l->feature(static_cast<int>(t));
          CopyFeatureValues(step, values, at);
          const int64_t count = FeatureValueCount(step);
          for (int64_t j = 0; j < count; ++j, ++at) {
            if (!scalar_) idx[at * columns] = i;
            idx[at * columns + columns - 2] = t;
            idx[at * columns + columns - 1] = j;
          }
        }
      }
      auto sh = shape->flat<int64_t>();
      if (!scalar_) sh[0] = n_;
      sh[columns - 2] = steps;
      sh[columns - 1] = longest;
    }
    return absl::OkStatus();
  }

  absl::Status ListDense() {
    const int nd = static_cast<int>(spec_.list_dense.size());
    const int first = NumContextOutputs() + 3 * static_cast<int>(spec_.list_sparse.size());
    for (int d = 0; d < nd; ++d) {
      const DenseFeatureSpec& f = spec_.list_dense[d];
      std::vector<const FeatureList*> found(n_);
      int64_t steps = 0;
      for (int64_t i = 0; i < n_; ++i) {
        found[i] = FindList(records_[i], f.key);
        if (found[i] == nullptr) {
          if (!spec_.list_dense_may_be_missing[d]) {
            return absl::InvalidArgumentError(absl::StrCat(
                "Name: ", Name(i), ", Feature list '", f.key,
                "' is required but could not be found.  Did you mean to include it in "
                "feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"));
          }
          continue;
        }
        for (int t = 0; t < found[i]->feature_size(); ++t) {
          const int64_t count = FeatureValueCount(found[i]->feature(t));
          if (count != f.stride) {
            return absl::InvalidArgumentError(
                absl::StrCat("Name: ", Name(i), ", Key: ", f.key, ", Index: ", t,
                             ".  Number of values != expected.  values size: ", count,
                             " but output shape: ", f.shape.DebugString()));
          }
        }
        steps = std::max<int64_t>(steps, found[i]->feature_size());
      }
      std::vector<int64_t> dims = batch_dims_;
      dims.push_back(steps);
      RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(Concat(dims, f.shape.dims())));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx_.allocate_output(first + d, shape));
      RILL_ASSIGN_OR_RETURN(TensorShape lengths_shape, TensorShape::FromDims(batch_dims_));
      RILL_ASSIGN_OR_RETURN(Tensor * lengths, ctx_.allocate_output(first + nd + d, lengths_shape));
      // Padding: the dtype's zero ("" for strings), as allocated tensors hold.
      const int64_t per_record = steps * f.stride;
      for (int64_t i = 0; i < n_; ++i) {
        const int64_t len = found[i] == nullptr ? 0 : found[i]->feature_size();
        lengths->flat<int64_t>()[i] = len;
        for (int64_t t = 0; t < len; ++t) {
          CopyFeatureValues(found[i]->feature(static_cast<int>(t)), out,
                            i * per_record + t * f.stride);
        }
        ZeroFill(out, i * per_record + len * f.stride, (i + 1) * per_record);
      }
    }
    return absl::OkStatus();
  }

  static void ZeroFill(Tensor* out, int64_t begin, int64_t end) {
    switch (out->dtype()) {
      case DT_STRING:
        for (int64_t k = begin; k < end; ++k) out->flat<std::string>()[k].clear();
        break;
      case DT_FLOAT:
        std::fill(out->flat<float>().data() + begin, out->flat<float>().data() + end, 0.0f);
        break;
      default:
        std::fill(out->flat<int64_t>().data() + begin, out->flat<int64_t>().data() + end, 0);
        break;
    }
  }

  absl::Status ListRagged() {
    const int nr = static_cast<int>(spec_.list_ragged.size());
    const int first = NumContextOutputs() + 3 * static_cast<int>(spec_.list_sparse.size()) +
                      2 * static_cast<int>(spec_.list_dense.size());
    for (int r = 0; r < nr; ++r) {
      const RaggedFeatureSpec& f = spec_.list_ragged[r];
      int64_t total = 0, total_steps = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const FeatureList* l = FindList(records_[i], f.key);
        if (l == nullptr) continue;
        total_steps += l->feature_size();
        for (const Feature& step : l->feature()) total += FeatureValueCount(step);
      }
      RILL_ASSIGN_OR_RETURN(Tensor * values, ctx_.allocate_output(first + r, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * outer,
                            ctx_.allocate_output(first + nr + r, RecordSplitsShape()));
      RILL_ASSIGN_OR_RETURN(
          Tensor * inner, ctx_.allocate_output(first + 2 * nr + r, TensorShape({total_steps + 1})));
      std::vector<int64_t> outer_ends(scalar_ ? 1 : n_ + 1, 0), inner_ends{0};
      int64_t at = 0, step_at = 0;
      for (int64_t i = 0; i < n_; ++i) {
        const FeatureList* l = FindList(records_[i], f.key);
        if (l != nullptr) {
          for (const Feature& step : l->feature()) {
            CopyFeatureValues(step, values, at);
            at += FeatureValueCount(step);
            inner_ends.push_back(at);
          }
          step_at += l->feature_size();
        }
        if (!scalar_) outer_ends[i + 1] = step_at;
      }
      SetSplits(outer_ends, f.splits_dtype, outer);
      SetSplits(inner_ends, f.splits_dtype, inner);
    }
    return absl::OkStatus();
  }

  OpKernelContext& ctx_;
  const SequenceSpec& spec_;
  absl::Span<const std::string> serialized_;
  absl::Span<const std::string> names_;
  bool scalar_;
  absl::Span<const Tensor* const> defaults_;
  int64_t n_;
  std::vector<int64_t> batch_dims_;
  std::vector<SequenceExample> records_;
};

// Reads the dense specs of both kinds and the sparse and ragged types from the attrs (keys are
// filled by the caller).
absl::Status ReadTypes(const OpKernelConstruction& ctx, bool v2, SequenceSpec* spec) {
  RILL_RETURN_IF_ERROR(
      DenseSpecsFromAttrs(ctx, &spec->context_dense, "Tcontext_dense", "context_dense_shapes"));
  RILL_RETURN_IF_ERROR(DenseSpecsFromAttrs(ctx, &spec->list_dense, "feature_list_dense_types",
                                           "feature_list_dense_shapes"));
  for (const auto* fs : {&spec->context_dense, &spec->list_dense}) {
    for (const DenseFeatureSpec& f : *fs) {
      if (f.variable_length) {
        return absl::InvalidArgumentError(
            absl::StrCat("Shape ", f.shape.DebugString(), " is not fully defined"));
      }
    }
  }
  std::vector<DataType> types;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("context_sparse_types", &types));
  for (DataType t : types) spec->context_sparse.push_back({"", t});
  RILL_RETURN_IF_ERROR(ctx.GetAttr("feature_list_sparse_types", &types));
  for (DataType t : types) spec->list_sparse.push_back({"", t});
  int64_t count = 0;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("Ncontext_sparse", &count));
  if (count != static_cast<int64_t>(spec->context_sparse.size())) {
    return absl::InvalidArgumentError(absl::StrCat("len(context_sparse_types) != Ncontext_sparse: ",
                                                   spec->context_sparse.size(), " vs. ", count));
  }
  RILL_RETURN_IF_ERROR(ctx.GetAttr("Nfeature_list_sparse", &count));
  if (count != static_cast<int64_t>(spec->list_sparse.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "len(feature_list_sparse_types) != Nfeature_list_sparse: ", spec->list_sparse.size(),
        " vs. ", count));
  }
  RILL_RETURN_IF_ERROR(ctx.GetAttr("Nfeature_list_dense", &count));
  if (count != static_cast<int64_t>(spec->list_dense.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "len(feature_list_dense_types) != Nfeature_list_dense: ", spec->list_dense.size(), " vs. ",
        count));
  }
  spec->v2 = v2;
  if (!v2) return absl::OkStatus();
  for (const char* prefix : {"context", "feature_list"}) {
    std::vector<DataType> values, splits;
    RILL_RETURN_IF_ERROR(ctx.GetAttr(absl::StrCat(prefix, "_ragged_value_types"), &values));
    RILL_RETURN_IF_ERROR(ctx.GetAttr(absl::StrCat(prefix, "_ragged_split_types"), &splits));
    if (values.size() != splits.size()) {
      return absl::InvalidArgumentError(absl::StrCat(prefix, "_ragged_value_types and ", prefix,
                                                     "_ragged_split_types must have the same "
                                                     "length"));
    }
    auto& ragged = std::string(prefix) == "context" ? spec->context_ragged : spec->list_ragged;
    for (size_t r = 0; r < values.size(); ++r) ragged.push_back({"", values[r], splits[r]});
  }
  return absl::OkStatus();
}

// A scalar (one record, no batch dimension in the outputs) or a vector of records.
absl::Status CheckSerialized(const Tensor& serialized) {
  if (serialized.shape().rank() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected serialized to be a scalar or vector, got shape: ",
                     serialized.shape().DebugString()));
  }
  return absl::OkStatus();
}

absl::Status CheckNames(const Tensor& names, int64_t n) {
  if (names.NumElements() > 0 && names.NumElements() != n) {
    return absl::InvalidArgumentError(
        "example_names must be empty or have the correct number of elements");
  }
  return absl::OkStatus();
}

std::vector<const Tensor*> Inputs(const OpKernelContext& ctx, int first, int count) {
  std::vector<const Tensor*> out;
  for (int i = 0; i < count; ++i) out.push_back(&ctx.input(first + i));
  return out;
}

absl::Span<const std::string> Strings(const Tensor& t) {
  auto f = t.flat<std::string>();
  return absl::Span<const std::string>(f.data(), f.size());
}

class ParseSequenceExampleOp final : public OpKernel {
 public:
  explicit ParseSequenceExampleOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ReadTypes(ctx, /*v2=*/false, &spec_);
    std::vector<std::string> keys[4], missing_empty;
    const char* names[4] = {"context_sparse_keys", "context_dense_keys", "feature_list_sparse_keys",
                            "feature_list_dense_keys"};
    for (int k = 0; k < 4 && s.ok(); ++k) s = ctx.GetAttr(names[k], &keys[k]);
    if (s.ok()) s = ctx.GetAttr("feature_list_dense_missing_assumed_empty", &missing_empty);
    const size_t sizes[4] = {spec_.context_sparse.size(), spec_.context_dense.size(),
                             spec_.list_sparse.size(), spec_.list_dense.size()};
    for (int k = 0; k < 4 && s.ok(); ++k) {
      if (keys[k].size() != sizes[k]) {
        s = absl::InvalidArgumentError(
            absl::StrCat("len(", names[k], ") != ", sizes[k], ": ", keys[k].size()));
      }
    }
    ctx.SetStatus(s);
    if (!s.ok()) return;
    for (size_t i = 0; i < sizes[0]; ++i) spec_.context_sparse[i].key = keys[0][i];
    for (size_t i = 0; i < sizes[1]; ++i) spec_.context_dense[i].key = keys[1][i];
    for (size_t i = 0; i < sizes[2]; ++i) spec_.list_sparse[i].key = keys[2][i];
    for (size_t i = 0; i < sizes[3]; ++i) {
      spec_.list_dense[i].key = keys[3][i];
      spec_.list_dense_may_be_missing.push_back(
          std::find(missing_empty.begin(), missing_empty.end(), keys[3][i]) != missing_empty.end());
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& serialized = ctx.input(0);
    const Tensor& names = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckSerialized(serialized));
    RILL_RETURN_IF_ERROR(CheckNames(names, serialized.NumElements()));
    const std::vector<const Tensor*> defaults =
        Inputs(ctx, 2, static_cast<int>(spec_.context_dense.size()));
    return Parser(ctx, spec_, Strings(serialized), Strings(names), serialized.shape().rank() == 0,
                  defaults)
        .Run();
  }

 private:
  SequenceSpec spec_;
};

class ParseSequenceExampleV2Op final : public OpKernel {
 public:
  explicit ParseSequenceExampleV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ReadTypes(ctx, /*v2=*/true, &spec_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& serialized = ctx.input(0);
    const Tensor& names = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckSerialized(serialized));
    RILL_RETURN_IF_ERROR(CheckNames(names, serialized.NumElements()));
    SequenceSpec spec = spec_;
    RILL_RETURN_IF_ERROR(TakeKeys(ctx.input(2), "context_sparse_keys", spec.context_sparse));
    RILL_RETURN_IF_ERROR(TakeKeys(ctx.input(3), "context_dense_keys", spec.context_dense));
    RILL_RETURN_IF_ERROR(TakeKeys(ctx.input(4), "context_ragged_keys", spec.context_ragged));
    RILL_RETURN_IF_ERROR(TakeKeys(ctx.input(5), "feature_list_sparse_keys", spec.list_sparse));
    RILL_RETURN_IF_ERROR(TakeKeys(ctx.input(6), "feature_list_dense_keys", spec.list_dense));
    RILL_RETURN_IF_ERROR(TakeKeys(ctx.input(7), "feature_list_ragged_keys", spec.list_ragged));
    const Tensor& missing = ctx.input(8);
    if (missing.NumElements() != static_cast<int64_t>(spec.list_dense.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected len(feature_list_dense_missing_assumed_empty) == "
                       "len(feature_list_dense_keys) but got: ",
                       missing.NumElements(), " vs. ", spec.list_dense.size()));
    }
    for (int64_t i = 0; i < missing.NumElements(); ++i) {
      spec.list_dense_may_be_missing.push_back(missing.flat<bool>()[i]);
    }
    const std::vector<const Tensor*> defaults =
        Inputs(ctx, 9, static_cast<int>(spec.context_dense.size()));
    return Parser(ctx, spec, Strings(serialized), Strings(names), serialized.shape().rank() == 0,
                  defaults)
        .Run();
  }

 private:
  template <typename Spec>
  static absl::Status TakeKeys(const Tensor& keys, const char* what, std::vector<Spec>& specs) {
    auto k = keys.flat<std::string>();
    if (k.size() != specs.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected len(", what, ") == ", specs.size(), " but got: ", k.size()));
    }
    for (size_t i = 0; i < specs.size(); ++i) specs[i].key = k[i];
    return absl::OkStatus();
  }

  SequenceSpec spec_;  // keys filled per step from the key inputs
};

REGISTER_KERNEL(KernelDefBuilder("ParseSequenceExample").Device(kDeviceCpu),
                ParseSequenceExampleOp);
REGISTER_KERNEL(KernelDefBuilder("ParseSequenceExampleV2").Device(kDeviceCpu),
                ParseSequenceExampleV2Op);

}  // namespace
}  // namespace rill
