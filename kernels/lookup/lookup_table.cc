#include "kernels/lookup/lookup_table.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"

namespace rill {

std::string LookupTable::DebugString() const {
  return absl::StrCat(is_mutable_ ? "MutableHashTable" : "HashTable", " ",
                      DataTypeString(key_dtype_), " -> ", DataTypeString(value_dtype_));
}

absl::Status LookupTable::CheckSignature(DataType keys, DataType values, bool outputs_value) const {
  if (keys == key_dtype_ && values == value_dtype_) return absl::OkStatus();
  const std::string out_have = outputs_value ? DataTypeString(values) : "";
  const std::string out_want = outputs_value ? DataTypeString(value_dtype_) : "";
  return absl::InvalidArgumentError(
      absl::StrCat("Signature mismatch, have: resource, ", DataTypeString(keys), ", ",
                   DataTypeString(values), "->", out_have, " expected: resource, ",
                   DataTypeString(key_dtype_), ", ", DataTypeString(value_dtype_), "->", out_want));
}

std::string LookupTable::ElementBytes(const Tensor& t, int64_t i) {
  if (t.dtype() == DT_STRING) return t.flat<std::string>()[i];
  const int size = DataTypeSize(t.dtype());
  return std::string(static_cast<const char*>(t.raw_data()) + i * size, size);
}

void LookupTable::SetElement(const std::string& bytes, int64_t i, Tensor* t) {
  if (t->dtype() == DT_STRING) {
    t->flat<std::string>()[i] = bytes;
    return;
  }
  std::memcpy(static_cast<char*>(t->raw_data()) + i * bytes.size(), bytes.data(), bytes.size());
}

std::string LookupTable::ElementText(DataType dtype, const std::string& bytes) {
  auto as = [&bytes](auto v) {
    std::memcpy(&v, bytes.data(), sizeof(v));
    return absl::StrCat(v);
  };
  switch (dtype) {
    case DT_STRING:
      return bytes;
    case DT_INT32:
      return as(int32_t{0});
    case DT_INT64:
      return as(int64_t{0});
    case DT_FLOAT:
      return as(0.0f);
    case DT_DOUBLE:
      return as(0.0);
    default:
      return absl::StrCat("(", DataTypeString(dtype), ")");
  }
}

absl::Status LookupTable::InsertLocked(const Tensor& keys, const Tensor& values, bool check_same) {
  for (int64_t i = 0; i < keys.NumElements(); ++i) {
    std::string key = ElementBytes(keys, i);
    std::string value = ElementBytes(values, i);
    auto it = index_.find(key);
    if (it == index_.end()) {
      index_.emplace(key, entries_.size());
      entries_.emplace_back(std::move(key), std::move(value));
    } else if (!check_same) {
      entries_[it->second].second = std::move(value);
    } else if (entries_[it->second].second != value) {
      return absl::FailedPreconditionError(absl::StrCat(
          "HashTable has different value for same key. Key ", ElementText(key_dtype_, key), " has ",
          ElementText(value_dtype_, entries_[it->second].second), " and trying to add value ",
          ElementText(value_dtype_, value)));
    }
  }
  return absl::OkStatus();
}

absl::Status LookupTable::Initialize(const Tensor& keys, const Tensor& values) {
  RILL_RETURN_IF_ERROR(CheckSignature(keys.dtype(), values.dtype(), false));
  if (keys.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Keys must be a vector, but received shape", keys.shape().DebugString()));
  }
  if (keys.NumElements() != values.NumElements()) {
    return absl::InvalidArgumentError(absl::StrCat("Keys and values must have the same size ",
                                                   keys.NumElements(), " vs ",
                                                   values.NumElements()));
  }
  if (keys.NumElements() == 0) {
    return absl::InvalidArgumentError("keys and values cannot be empty tensors.");
  }
  rill::MutexLock lock(&mu_);
  if (initialized_) {
    bool same = keys.NumElements() == static_cast<int64_t>(entries_.size());
    for (int64_t i = 0; same && i < keys.NumElements(); ++i) {
      auto it = index_.find(ElementBytes(keys, i));
      same = it != index_.end() && entries_[it->second].second == ElementBytes(values, i);
    }
    if (same) return absl::OkStatus();
    return absl::FailedPreconditionError("Table was already initialized with different data.");
  }
  absl::Status s = InsertLocked(keys, values, /*check_same=*/true);
  if (!s.ok()) {
    index_.clear();
    entries_.clear();
    return s;
  }
  initialized_ = true;
  return absl::OkStatus();
}

absl::Status LookupTable::Import(const Tensor& keys, const Tensor& values) {
  if (!is_mutable_) return Initialize(keys, values);
  RILL_RETURN_IF_ERROR(CheckSignature(keys.dtype(), values.dtype(), false));
  if (keys.shape() != values.shape()) {
    return absl::InvalidArgumentError(absl::StrCat("Expected shape ", keys.shape().DebugString(),
                                                   " for value, got ",
                                                   values.shape().DebugString()));
  }
  rill::MutexLock lock(&mu_);
  index_.clear();
  entries_.clear();
  return InsertLocked(keys, values, /*check_same=*/false);
}

absl::Status LookupTable::Insert(const Tensor& keys, const Tensor& values) {
  RILL_RETURN_IF_ERROR(CheckSignature(keys.dtype(), values.dtype(), false));
  if (!is_mutable_) {
    return absl::UnimplementedError(
        "Insert not supported by InitializableLookupTable implementations");
  }
  if (keys.shape() != values.shape()) {
    return absl::InvalidArgumentError(absl::StrCat("Expected shape ", keys.shape().DebugString(),
                                                   " for value, got ",
                                                   values.shape().DebugString()));
  }
  rill::MutexLock lock(&mu_);
  return InsertLocked(keys, values, /*check_same=*/false);
}

absl::Status LookupTable::Find(const Tensor& keys, const Tensor& default_value, Tensor* out) const {
  rill::MutexLock lock(&mu_);
  if (!is_mutable_ && !initialized_) {
    return absl::FailedPreconditionError("Table not initialized.");
  }
  // TensorFlow's CheckFindArguments: the default is one value (the table's scalar value shape)
  // or one per key.
  const bool per_key = default_value.shape() == keys.shape();
  if (default_value.shape().rank() != 0 && !per_key) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected shape [] or ", keys.shape().DebugString(),
                     " for default value, got ", default_value.shape().DebugString()));
  }
  // A MutableHashTable gives each absent key its own default when there is one per key; a
  // HashTable always gives the first (TensorFlow's MutableHashTableOfScalars and HashTable).
  const bool each_own = per_key && is_mutable_;
  const int64_t n = keys.NumElements();
  const std::string first = n > 0 ? ElementBytes(default_value, 0) : std::string();
  for (int64_t i = 0; i < n; ++i) {
    auto it = index_.find(ElementBytes(keys, i));
    if (it != index_.end()) {
      SetElement(entries_[it->second].second, i, out);
    } else {
      SetElement(each_own ? ElementBytes(default_value, i) : first, i, out);
    }
  }
  return absl::OkStatus();
}

int64_t LookupTable::Size() const {
  rill::MutexLock lock(&mu_);
  return static_cast<int64_t>(entries_.size());
}

absl::Status LookupTable::Export(Tensor* keys, Tensor* values) const {
  rill::MutexLock lock(&mu_);
  if (!is_mutable_ && !initialized_) return absl::AbortedError("HashTable is not initialized.");
  const int64_t n = static_cast<int64_t>(entries_.size());
  *keys = Tensor(key_dtype_, TensorShape({n}));
  *values = Tensor(value_dtype_, TensorShape({n}));
  for (int64_t i = 0; i < n; ++i) {
    SetElement(entries_[i].first, i, keys);
    SetElement(entries_[i].second, i, values);
  }
  return absl::OkStatus();
}

}  // namespace rill
