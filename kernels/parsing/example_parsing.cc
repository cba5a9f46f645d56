#include "kernels/parsing/example_parsing.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "proto/example.pb.h"

namespace rill {

DataType FeatureKindType(const Feature& f) {
  switch (f.kind_case()) {
    case Feature::kBytesList:
      return DT_STRING;
    case Feature::kFloatList:
      return DT_FLOAT;
    case Feature::kInt64List:
      return DT_INT64;
    default:
      return DT_INVALID;
  }
}

int64_t FeatureValueCount(const Feature& f) {
  switch (f.kind_case()) {
    case Feature::kBytesList:
      return f.bytes_list().value_size();
    case Feature::kFloatList:
      return f.float_list().value_size();
    case Feature::kInt64List:
      return f.int64_list().value_size();
    default:
      return 0;
  }
}

void CopyFeatureValues(const Feature& f, Tensor* out, int64_t offset) {
  switch (f.kind_case()) {
    case Feature::kBytesList: {
      auto o = out->flat<std::string>();
      for (const std::string& v : f.bytes_list().value()) o[offset++] = v;
      break;
    }
    case Feature::kFloatList: {
      auto o = out->flat<float>();
      for (float v : f.float_list().value()) o[offset++] = v;
      break;
    }
    case Feature::kInt64List: {
      auto o = out->flat<int64_t>();
      for (int64_t v : f.int64_list().value()) o[offset++] = v;
      break;
    }
    default:
      break;
  }
}

namespace {

DataType KindType(const Feature& f) { return FeatureKindType(f); }
int64_t ValueCount(const Feature& f) { return FeatureValueCount(f); }
void CopyValues(const Feature& f, Tensor* out, int64_t offset) {
  CopyFeatureValues(f, out, offset);
}

// out[offset + k] = src[k] for k < n, or src[0] for every k when `repeat_first`.
void CopyDefault(const Tensor& src, bool repeat_first, Tensor* out, int64_t offset, int64_t n) {
  auto copy = [&](auto s, auto o) {
    for (int64_t k = 0; k < n; ++k) o[offset + k] = s[repeat_first ? 0 : k];
  };
  switch (out->dtype()) {
    case DT_STRING:
      copy(src.flat<std::string>(), out->flat<std::string>());
      break;
    case DT_FLOAT:
      copy(src.flat<float>(), out->flat<float>());
      break;
    default:
      copy(src.flat<int64_t>(), out->flat<int64_t>());
      break;
  }
}

// The value-count errors name strings "bytes", as the lists do.
const char* ValueName(DataType dt) {
  return dt == DT_STRING ? "bytes" : (dt == DT_FLOAT ? "float" : "int64");
}

const char* ListName(DataType dt) {
  return dt == DT_STRING ? "bytes_list" : (dt == DT_FLOAT ? "float_list" : "int64_list");
}

class Messages {
 public:
  Messages(const ExampleBatch& batch, ExampleErrorStyle style) : batch_(batch), style_(style) {}

  absl::Status TypeMismatch(int64_t i, const std::string& key, DataType want, DataType got,
                            bool dense) const {
    const std::string what = dense ? absl::StrCat("Data type: ", DataTypeString(got),
                                                  " but expected type: ", DataTypeString(want))
                                   : absl::StrCat("Expected type: ", DataTypeString(want),
                                                  ", Actual type: ", DataTypeString(got));
    return absl::InvalidArgumentError(
        absl::StrCat(Where(i, key), "  Data types don't match. ", what));
  }
  absl::Status Count(int64_t i, const DenseFeatureSpec& d, int64_t count) const {
    if (style_ == ExampleErrorStyle::kSingle) {
      const bool bytes_over = d.dtype == DT_STRING && count > d.stride;
      return absl::InvalidArgumentError(absl::StrCat(
          Where(i, d.key), "  Can't parse serialized Example: ",
          bytes_over ? "Parsing bytes_list failed."
                     : absl::StrCat("Some ", ListName(d.dtype), " slice was not parsed.")));
    }
    return absl::InvalidArgumentError(absl::StrCat(Where(i, d.key), "  Number of ",
                                                   ValueName(d.dtype),
                                                   " values != expected.  Values size: ", count,
                                                   " but output shape: ", d.shape.DebugString()));
  }
  absl::Status Stride(int64_t i, const DenseFeatureSpec& d, int64_t count) const {
    if (style_ == ExampleErrorStyle::kSingle) {
      return absl::InvalidArgumentError(absl::StrCat("Error while parsing feature with key ", d.key,
                                                     ": number of elements should be divisible by ",
                                                     d.stride, ", found ", count, " instead"));
    }
    return absl::InvalidArgumentError(
        absl::StrCat(Where(i, d.key), "  Number of ", ValueName(d.dtype),
                     " values is not a multiple of stride length. Saw ", count,
                     " values but output shape is: ", d.shape.DebugString()));
  }
  absl::Status Required(int64_t i, const DenseFeatureSpec& d) const {
    const std::string name =
        style_ == ExampleErrorStyle::kSingle ? "" : absl::StrCat("Name: ", Name(i), ", ");
    return absl::InvalidArgumentError(absl::StrCat(name, "Feature: ", d.key,
                                                   " (data type: ", DataTypeString(d.dtype),
                                                   ") is required but could not be found."));
  }

 private:
  std::string Name(int64_t i) const { return batch_.names.empty() ? "<unknown>" : batch_.names[i]; }
  std::string Where(int64_t i, const std::string& key) const {
    if (style_ == ExampleErrorStyle::kSingle) return absl::StrCat("Key: ", key, ".");
    return absl::StrCat("Name: ", Name(i), ", Key: ", key, ", Index: ", i, ".");
  }

  const ExampleBatch& batch_;
  ExampleErrorStyle style_;
};

// The feature `key` of `e`, or null when absent or holding no list.
const Feature* Find(const Example& e, const std::string& key) {
  const auto& map = e.features().feature();
  auto it = map.find(key);
  if (it == map.end() || it->second.kind_case() == Feature::KIND_NOT_SET) return nullptr;
  return &it->second;
}

absl::Status CheckDefaults(const ExampleParserSpec& spec,
                           absl::Span<const Tensor* const> defaults) {
  for (size_t d = 0; d < spec.dense.size(); ++d) {
    const DenseFeatureSpec& f = spec.dense[d];
    const Tensor& def = *defaults[d];
    if (f.variable_length) {
      if (def.NumElements() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "dense_shape[", d, "] is a variable length shape: ", f.shape.DebugString(),
            ", therefore def_value[", d,
            "] must contain a single element (the padding element).  But its shape is: ",
            def.shape().DebugString()));
      }
    } else if (def.NumElements() > 0 && !f.shape.IsCompatibleWith(def.shape())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "def_value[", d, "].shape() == ", def.shape().DebugString(),
          " is not compatible with dense_shapes_[", d, "] == ", f.shape.DebugString()));
    }
  }
  return absl::OkStatus();
}

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

absl::Status DenseSpecsFromAttrs(const OpKernelConstruction& ctx,
                                 std::vector<DenseFeatureSpec>* dense, const char* types_attr,
                                 const char* shapes_attr) {
  std::vector<DataType> types;
  RILL_RETURN_IF_ERROR(ctx.GetAttr(types_attr, &types));
  const AttrValue* shapes = FindNodeAttr(ctx.def(), shapes_attr);
  const int shape_count = shapes == nullptr ? 0 : shapes->list().shape_size();
  if (shape_count != static_cast<int>(types.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("len(dense_shapes) != len(Tdense): ", shape_count, " vs. ", types.size()));
  }
  dense->resize(types.size());
  for (int d = 0; d < shape_count; ++d) {
    DenseFeatureSpec& f = (*dense)[d];
    f.dtype = types[d];
    RILL_ASSIGN_OR_RETURN(f.shape, PartialTensorShape::FromProto(shapes->list().shape(d)));
    bool inner_known = !f.shape.unknown_rank();
    f.stride = 1;
    for (int k = 0; inner_known && k < f.shape.rank(); ++k) {
      const int64_t dim = f.shape.dims()[k];
      if (dim < 0) {
        if (k == 0) {
          f.variable_length = true;
          continue;
        }
        inner_known = false;
        break;
      }
      if (dim > 0 && f.stride > (int64_t{1} << 62) / dim) {
        return absl::InvalidArgumentError(
            absl::StrCat("dense_shapes[", d, "] has too many elements: ", f.shape.DebugString()));
      }
      f.stride *= dim;
    }
    if (!inner_known) {
      return absl::InvalidArgumentError(
          absl::StrCat("dense_shapes[", d,
                       "] has unknown rank or unknown inner dimensions: ", f.shape.DebugString()));
    }
  }
  return absl::OkStatus();
}

absl::Status ParseExamples(OpKernelContext& ctx, const ExampleParserSpec& spec,
                           const ExampleBatch& batch,
                           absl::Span<const Tensor* const> dense_defaults,
                           ExampleErrorStyle style) {
  RILL_RETURN_IF_ERROR(CheckDefaults(spec, dense_defaults));
  const Messages msg(batch, style);
  const int64_t n = static_cast<int64_t>(batch.serialized.size());
  std::vector<Example> examples(n);
  for (int64_t i = 0; i < n; ++i) {
    if (!examples[i].ParseFromString(batch.serialized[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("Could not parse example input, value: '", batch.serialized[i], "'"));
    }
  }
  const std::vector<int64_t> batch_dims =
      batch.scalar ? std::vector<int64_t>{} : std::vector<int64_t>{n};
  const int ns = static_cast<int>(spec.sparse.size());
  const int nd = static_cast<int>(spec.dense.size());
  const int nr = static_cast<int>(spec.ragged.size());

  for (int s = 0; s < ns; ++s) {
    const SparseFeatureSpec& f = spec.sparse[s];
    std::vector<const Feature*> found(n);
    int64_t total = 0, longest = 0;
    for (int64_t i = 0; i < n; ++i) {
      found[i] = Find(examples[i], f.key);
      if (found[i] == nullptr) continue;
      if (KindType(*found[i]) != f.dtype) {
        return msg.TypeMismatch(i, f.key, f.dtype, KindType(*found[i]), /*dense=*/false);
      }
      const int64_t count = ValueCount(*found[i]);
      total += count;
      longest = std::max(longest, count);
    }
    const int64_t columns = static_cast<int64_t>(batch_dims.size()) + 1;
    RILL_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate_output(s, TensorShape({total, columns})));
    RILL_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate_output(ns + s, TensorShape({total})));
    RILL_ASSIGN_OR_RETURN(Tensor * shape, ctx.allocate_output(2 * ns + s, TensorShape({columns})));
    auto idx = indices->flat<int64_t>();
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (found[i] == nullptr) continue;
      CopyValues(*found[i], values, at);
      const int64_t count = ValueCount(*found[i]);
      for (int64_t j = 0; j < count; ++j, ++at) {
        if (!batch.scalar) idx[at * columns] = i;
        idx[at * columns + columns - 1] = j;
      }
    }
    auto sh = shape->flat<int64_t>();
    if (!batch.scalar) sh[0] = n;
    sh[columns - 1] = longest;
  }

  for (int d = 0; d < nd; ++d) {
    const DenseFeatureSpec& f = spec.dense[d];
    const Tensor& def = *dense_defaults[d];
    const int o = 3 * ns + d;
    std::vector<const Feature*> found(n);
    for (int64_t i = 0; i < n; ++i) {
      found[i] = Find(examples[i], f.key);
      if (found[i] == nullptr) {
        if (!f.variable_length && def.NumElements() == 0) return msg.Required(i, f);
        continue;
      }
      if (KindType(*found[i]) != f.dtype) {
        return msg.TypeMismatch(i, f.key, f.dtype, KindType(*found[i]), /*dense=*/true);
      }
    }
    if (!f.variable_length) {
      RILL_ASSIGN_OR_RETURN(TensorShape shape,
                            TensorShape::FromDims(Concat(batch_dims, f.shape.dims())));
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(o, shape));
      for (int64_t i = 0; i < n; ++i) {
        if (found[i] == nullptr) {
          CopyDefault(def, /*repeat_first=*/false, out, i * f.stride, f.stride);
          continue;
        }
        const int64_t count = ValueCount(*found[i]);
        if (count != f.stride) return msg.Count(i, f, count);
        CopyValues(*found[i], out, i * f.stride);
      }
      continue;
    }
    int64_t rows = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t count = found[i] == nullptr ? 0 : ValueCount(*found[i]);
      if (f.stride == 0 ? count != 0 : count % f.stride != 0) return msg.Stride(i, f, count);
      if (f.stride > 0) rows = std::max(rows, count / f.stride);
    }
    std::vector<int64_t> inner(f.shape.dims().begin() + 1, f.shape.dims().end());
    std::vector<int64_t> dims = batch_dims;
    dims.push_back(rows);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(Concat(dims, inner)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(o, shape));
    const int64_t per_record = rows * f.stride;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t count = found[i] == nullptr ? 0 : ValueCount(*found[i]);
      if (count > 0) CopyValues(*found[i], out, i * per_record);
      CopyDefault(def, /*repeat_first=*/true, out, i * per_record + count, per_record - count);
    }
  }

  for (int r = 0; r < nr; ++r) {
    const RaggedFeatureSpec& f = spec.ragged[r];
    std::vector<const Feature*> found(n);
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      found[i] = Find(examples[i], f.key);
      if (found[i] == nullptr) continue;
      if (KindType(*found[i]) != f.dtype) {
        return msg.TypeMismatch(i, f.key, f.dtype, KindType(*found[i]), /*dense=*/false);
      }
      total += ValueCount(*found[i]);
    }
    RILL_ASSIGN_OR_RETURN(Tensor * values,
                          ctx.allocate_output(3 * ns + nd + r, TensorShape({total})));
    RILL_ASSIGN_OR_RETURN(
        Tensor * splits,
        ctx.allocate_output(3 * ns + nd + nr + r, TensorShape({batch.scalar ? 0 : n + 1})));
    std::vector<int64_t> ends(batch.scalar ? 0 : n + 1, 0);
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (found[i] != nullptr) {
        CopyValues(*found[i], values, at);
        at += ValueCount(*found[i]);
      }
      if (!batch.scalar) ends[i + 1] = at;
    }
    if (f.splits_dtype == DT_INT32) {
      auto o = splits->flat<int32_t>();
      for (size_t k = 0; k < ends.size(); ++k) o[k] = static_cast<int32_t>(ends[k]);
    } else {
      auto o = splits->flat<int64_t>();
      for (size_t k = 0; k < ends.size(); ++k) o[k] = ends[k];
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
