// Variant: the element type of DT_VARIANT tensors, which hold runtime objects rather than numbers
// (TensorFlow 2's TensorList, whose while loops pass lists of tensors around). A Variant is a
// shared handle to an immutable VariantValue: copying a Variant or a variant Tensor never copies
// the object, and an op that "modifies" one makes a new value (copy on write).
//
//   Tensor t(DT_VARIANT, TensorShape());
//   t.flat<Variant>()[0] = Variant(std::make_shared<const TensorList>(...));
//   const TensorList* list = t.flat<Variant>()[0].get<TensorList>();  // nullptr if not a list
//
// Thread safety: values are immutable, so variants may be read from many threads.
#ifndef RILL_CORE_VARIANT_H_
#define RILL_CORE_VARIANT_H_

#include <memory>
#include <string>
#include <utility>

#include "core/types.h"

namespace rill {

class VariantValue {
 public:
  virtual ~VariantValue() = default;
  // "TensorList": what error messages and summaries call the object.
  virtual std::string TypeName() const = 0;
  virtual std::string DebugString() const = 0;
};

class Variant {
 public:
  Variant() = default;
  explicit Variant(std::shared_ptr<const VariantValue> value) : value_(std::move(value)) {}

  bool empty() const { return value_ == nullptr; }
  // The value as a T, or nullptr when empty or of another type.
  template <typename T>
  const T* get() const {
    return dynamic_cast<const T*>(value_.get());
  }
  const std::shared_ptr<const VariantValue>& value() const { return value_; }
  // True when this is the only handle to its value (an op may then reuse it).
  bool unique() const { return value_.use_count() == 1; }
  std::string TypeName() const { return value_ ? value_->TypeName() : "empty"; }
  std::string DebugString() const { return value_ ? value_->DebugString() : "<empty variant>"; }

 private:
  std::shared_ptr<const VariantValue> value_;
};

template <>
struct DataTypeToEnum<Variant> {
  static constexpr DataType value = DT_VARIANT;
};

}  // namespace rill

#endif  // RILL_CORE_VARIANT_H_
