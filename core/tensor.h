// Tensor: a dtype, a TensorShape and a reference-counted buffer from an Allocator. Copying a Tensor
// is cheap and shares the buffer (as TensorFlow's does); DeepCopy makes an independent one.
// Buffers are kTensorAlignment (64) byte aligned. DT_STRING tensors hold std::string elements,
// constructed and destroyed with the buffer.
//
//   RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(allocator, DT_FLOAT, TensorShape({2, 3})));
//   absl::Span<float> v = t.flat<float>();
//   Tensor same = t;                    // shares the buffer
//   Tensor s = Tensor::Scalar<int32_t>(7);
//
// A Tensor object is thread-compatible; the shared buffer's refcount is atomic, so copies may be
// made and dropped on different threads. Writing elements while another thread reads them is the
// caller's business (variables serialize with their own mutex).
#ifndef RILL_CORE_TENSOR_H_
#define RILL_CORE_TENSOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/allocator.h"
#include "core/tensor_shape.h"
#include "core/types.h"

namespace rill {

// Owns one allocation; the Tensor's shared_ptr keeps it alive. Destroys string elements.
class TensorBuffer {
 public:
  TensorBuffer(Allocator* allocator, DataType dtype, void* data, size_t bytes, int64_t elements);
  ~TensorBuffer();
  TensorBuffer(const TensorBuffer&) = delete;
  TensorBuffer& operator=(const TensorBuffer&) = delete;

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  Allocator* allocator() const { return allocator_; }

 private:
  Allocator* const allocator_;  // Not owned; outlives every buffer it made.
  const DataType dtype_;
  void* const data_;
  const size_t bytes_;
  const int64_t elements_;
};

class Tensor {
 public:
  // An empty tensor of dtype DT_INVALID (e.g. a not-yet-set output).
  Tensor() {}  // user-provided: value-initialization (Tensor()) does not zero the object first
  Tensor(const Tensor&) = default;
  Tensor& operator=(const Tensor&) = default;
  // A moved-from tensor is empty (DT_INVALID, no buffer), so !IsInitialized() tells a consumed
  // input slot from a filled one.
  Tensor(Tensor&& other) noexcept
      : dtype_(other.dtype_), shape_(other.shape_), buffer_(std::move(other.buffer_)) {
    other.dtype_ = DT_INVALID;
  }
  Tensor& operator=(Tensor&& other) noexcept {
    dtype_ = other.dtype_;
    shape_ = other.shape_;
    buffer_ = std::move(other.buffer_);
    if (&other != this) other.dtype_ = DT_INVALID;
    return *this;
  }
  // Host tensor from the default CPU allocator. CHECK-fails if the host is out of memory or
  // dtype has no storage; use Allocate() where failure must be reported.
  Tensor(DataType dtype, const TensorShape& shape);

  // ResourceExhausted when the allocator returns nothing (the message names the allocator, bytes,
  // shape and dtype); InvalidArgument for a dtype without storage. Elements are zero (or empty
  // strings).
  static absl::StatusOr<Tensor> Allocate(Allocator* allocator, DataType dtype,
                                         const TensorShape& shape);
  // As Allocate, but numeric elements are left unwritten (strings are still constructed empty):
  // for kernel outputs, which the kernel overwrites, so large outputs cost no extra pass. Builds
  // without NDEBUG (tests) fill them with the byte 0xA5 instead, so a kernel that leaves an
  // element unwritten gives a visibly wrong value rather than a lucky zero.
  static absl::StatusOr<Tensor> AllocateUninitialized(Allocator* allocator, DataType dtype,
                                                      const TensorShape& shape);

  template <typename T>
  static Tensor Scalar(T value) {
    Tensor t(DataTypeToEnum<T>::value, TensorShape());
    t.flat<T>()[0] = std::move(value);
    return t;
  }
  // A tensor of `shape` holding `values` in row-major order. `values.size()` must equal
  // shape.num_elements(): any other count is a programming error and ends the process with a
  // message giving both counts (as TensorFlow's test::AsTensor does), never a padded or truncated
  // tensor. Use TryFromVector where the count comes from input.
  template <typename T>
  static Tensor FromVector(const std::vector<T>& values, const TensorShape& shape) {
    if (static_cast<int64_t>(values.size()) != shape.num_elements()) {
      FailFromVectorCount(values.size(), shape);
    }
    return FromVectorUnchecked(values, shape);
  }
  // As FromVector, but a count that does not match the shape is InvalidArgument.
  template <typename T>
  static absl::StatusOr<Tensor> TryFromVector(const std::vector<T>& values,
                                              const TensorShape& shape) {
    if (static_cast<int64_t>(values.size()) != shape.num_elements()) {
      return FromVectorCountError(values.size(), shape);
    }
    return FromVectorUnchecked(values, shape);
  }

  DataType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  int64_t NumElements() const { return shape_.num_elements(); }
  // Bytes of element storage (sizeof(std::string) per element for strings).
  size_t TotalBytes() const;
  bool IsInitialized() const { return dtype_ != DT_INVALID; }
  // Drops this handle's share of the buffer: the tensor is empty (DT_INVALID) as a moved-from
  // one is. Cheaper than assigning Tensor(): the shape is left as it was, as after a move, so
  // test IsInitialized(), not NumElements(), to tell an empty tensor.
  void Clear() {
    buffer_.reset();
    dtype_ = DT_INVALID;
  }

  void* raw_data() const { return buffer_ ? buffer_->data() : nullptr; }
  // The elements as a span of T. T must be the C++ type of dtype() (DataTypeToEnum<T>::value ==
  // dtype()); this is checked in every build, as TensorFlow's Tensor::flat does: asking for
  // another type (reading a float tensor as int32, or any type of an empty tensor) ends the
  // process with a message naming both dtypes, instead of reinterpreting the bytes.
  template <typename T>
  absl::Span<T> flat() const {
    if (ABSL_PREDICT_FALSE(DataTypeToEnum<T>::value != dtype_)) {
      FailFlatType(DataTypeToEnum<T>::value);
    }
    return absl::Span<T>(static_cast<T*>(raw_data()), static_cast<size_t>(NumElements()));
  }

  // Same buffer, new shape. InvalidArgument when element counts differ.
  absl::StatusOr<Tensor> Reshaped(const TensorShape& shape) const;
  // A tensor with its own buffer (same allocator) holding the same values.
  absl::StatusOr<Tensor> DeepCopy() const;
  bool SharesBufferWith(const Tensor& other) const {
    return buffer_ != nullptr && buffer_ == other.buffer_;
  }
  Allocator* allocator() const { return buffer_ ? buffer_->allocator() : nullptr; }
  // How many Tensors hold this tensor's buffer (0 without one). A kernel may overwrite a buffer
  // in place when every holder is one of its own inputs.
  long BufferHolders() const { return buffer_.use_count(); }

  // "Tensor<type: float shape: [2,2] values: [1 2][3 4]>", first `max_entries` values.
  std::string DebugString(int max_entries = 6) const;
  // The values only, as TensorFlow summarizes them: "1 2 3" for vectors, "[1 2][3 4]" for matrices;
  // used by DebugString and tests.
  std::string SummarizeValues(int max_entries) const;
  // TensorFlow's print_v2 rendering (tf.print, tf.strings.format): numpy-like nested brackets,
  // "[1 2 3]", rows on new lines ("[[1 2]\n [3 4]]"), strings quoted, and any dimension longer
  // than 2 * summarize shown as its first and last `summarize` entries around "..." (summarize
  // < 0: everything). A scalar is its value alone.
  std::string SummarizeValuesV2(int summarize) const;

 private:
  template <typename T>
  static Tensor FromVectorUnchecked(const std::vector<T>& values, const TensorShape& shape) {
    Tensor t(DataTypeToEnum<T>::value, shape);
    auto out = t.flat<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
    return t;
  }
  static absl::Status FromVectorCountError(size_t count, const TensorShape& shape);
  [[noreturn]] static void FailFromVectorCount(size_t count, const TensorShape& shape);
  [[noreturn]] void FailFlatType(DataType requested) const;

  DataType dtype_ = DT_INVALID;
  TensorShape shape_;
  std::shared_ptr<TensorBuffer> buffer_;
};

}  // namespace rill

#endif  // RILL_CORE_TENSOR_H_
