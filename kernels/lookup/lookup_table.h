// LookupTable: the state of TensorFlow's HashTableV2 (initialized once, then read-only) and
// MutableHashTableV2 (inserts at any time): scalar values of value_dtype keyed by scalars of
// key_dtype, living in a device's ResourceMgr like variables (kernels/lookup/lookup_ops.cc).
//
//   LookupTable table(DT_STRING, DT_INT64, /*is_mutable=*/false);
//   RILL_RETURN_IF_ERROR(table.Initialize(keys, values));   // vectors of equal size
//   RILL_RETURN_IF_ERROR(table.Find(keys, default_value, &out));
//
// Errors are TensorFlow's texts (see each method). Thread-safe: every method takes the table's
// mutex.
#ifndef RILL_KERNELS_LOOKUP_LOOKUP_TABLE_H_
#define RILL_KERNELS_LOOKUP_LOOKUP_TABLE_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "core/mutex.h"
#include "core/resource_mgr.h"
#include "core/tensor.h"

namespace rill {

class LookupTable : public ResourceBase {
 public:
  LookupTable(DataType key_dtype, DataType value_dtype, bool is_mutable)
      : key_dtype_(key_dtype), value_dtype_(value_dtype), is_mutable_(is_mutable) {}

  DataType key_dtype() const { return key_dtype_; }
  DataType value_dtype() const { return value_dtype_; }
  bool is_mutable() const { return is_mutable_; }
  std::string DebugString() const override;

  // InvalidArgument "Signature mismatch, have: resource, int64, int64->int64 expected: resource,
  // string, int64->int64" unless keys/values have the table's dtypes (`outputs_value`: the op
  // outputs values, as LookupTableFindV2).
  absl::Status CheckSignature(DataType keys, DataType values, bool outputs_value) const;

  // HashTable: fills an uninitialized table; once initialized, OK for the same entries, else
  // FailedPrecondition "Table was already initialized with different data.". InvalidArgument "Keys
  // must be a vector, but received shape[1,1]", "Keys and values must have the same size 2 vs 1";
  // FailedPrecondition "HashTable has different value for same key. Key a has 1 and trying to add
  // value 2"; no entries: InvalidArgument "keys and values cannot be empty tensors.".
  absl::Status Initialize(const Tensor& keys, const Tensor& values);
  // LookupTableImportV2: Initialize for a HashTable; a MutableHashTable's contents replaced.
  absl::Status Import(const Tensor& keys, const Tensor& values);
  // MutableHashTable: adds or overwrites keys (any shape; values of the same shape),
  // InvalidArgument "Expected shape [2] for value, got [1]". A HashTable: Unimplemented.
  absl::Status Insert(const Tensor& keys, const Tensor& values);
  // The value of each key, the default for absent keys; *out has keys' shape. default_value is
  // a scalar or has keys' shape (InvalidArgument "Expected shape [] or [2] for default value, got
  // [3]"); a MutableHashTable takes an absent key's own default from one of keys' shape, a
  // HashTable the first. A HashTable never initialized: FailedPrecondition "Table not
  // initialized.".
  absl::Status Find(const Tensor& keys, const Tensor& default_value, Tensor* out) const;
  int64_t Size() const;
  // Keys and values, in insertion order, into vectors allocated here. A HashTable never
  // initialized: Aborted "HashTable is not initialized.".
  absl::Status Export(Tensor* keys, Tensor* values) const;

 private:
  // A scalar's bytes (strings: the string itself): the map key or stored value.
  static std::string ElementBytes(const Tensor& t, int64_t i);
  static void SetElement(const std::string& bytes, int64_t i, Tensor* t);
  static std::string ElementText(DataType dtype, const std::string& bytes);
  absl::Status InsertLocked(const Tensor& keys, const Tensor& values, bool check_same)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const DataType key_dtype_, value_dtype_;
  const bool is_mutable_;
  mutable rill::Mutex mu_;
  bool initialized_ ABSL_GUARDED_BY(mu_) = false;
  std::unordered_map<std::string, size_t> index_ ABSL_GUARDED_BY(mu_);  // key -> entry
  std::vector<std::pair<std::string, std::string>> entries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace rill

#endif  // RILL_KERNELS_LOOKUP_LOOKUP_TABLE_H_
