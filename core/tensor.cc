#include "core/tensor.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "core/variant.h"

namespace rill {

TensorBuffer::TensorBuffer(Allocator* allocator, DataType dtype, void* data, size_t bytes,
                           int64_t elements)
    : allocator_(allocator), dtype_(dtype), data_(data), bytes_(bytes), elements_(elements) {}

TensorBuffer::~TensorBuffer() {
  if (BaseType(dtype_) == DT_STRING) {
    auto* s = static_cast<std::string*>(data_);
    for (int64_t i = 0; i < elements_; ++i) s[i].~basic_string();
  } else if (BaseType(dtype_) == DT_VARIANT) {
    auto* v = static_cast<Variant*>(data_);
    for (int64_t i = 0; i < elements_; ++i) v[i].~Variant();
  }
  allocator_->DeallocateRaw(data_, bytes_);
}

Tensor::Tensor(DataType dtype, const TensorShape& shape) {
  absl::StatusOr<Tensor> t = Allocate(CpuAllocator::Default(), dtype, shape);
  if (!t.ok()) {
    std::fprintf(stderr, "Tensor: %s\n", t.status().ToString().c_str());
    std::abort();
  }
  *this = *std::move(t);
}

absl::Status Tensor::FromVectorCountError(size_t count, const TensorShape& shape) {
  return absl::InvalidArgumentError(absl::StrCat("Tensor::FromVector: ", count,
                                                 " values given for shape ", shape.DebugString(),
                                                 ", which holds ", shape.num_elements()));
}

void Tensor::FailFromVectorCount(size_t count, const TensorShape& shape) {
  std::fprintf(stderr, "%s\n", FromVectorCountError(count, shape).ToString().c_str());
  std::abort();
}

void Tensor::FailFlatType(DataType requested) const {
  const std::string held =
      dtype_ == DT_INVALID ? std::string("no value (empty or moved from)") : DataTypeString(dtype_);
  std::fprintf(stderr,
               "Tensor::flat: the tensor holds %s, not %s; read it with the C++ type of its "
               "dtype (shape %s)\n",
               held.c_str(), DataTypeString(requested).c_str(), shape_.DebugString().c_str());
  std::abort();
}

static size_t ElementBytes(DataType dtype) {
  switch (BaseType(dtype)) {
    case DT_STRING:
      return sizeof(std::string);
    case DT_VARIANT:
      return sizeof(Variant);
    default:
      return DataTypeSize(dtype);
  }
}

// Strings and variants are objects: constructed and destroyed with the buffer, never memset.
static bool HoldsObjects(DataType dtype) {
  return BaseType(dtype) == DT_STRING || BaseType(dtype) == DT_VARIANT;
}

absl::StatusOr<Tensor> Tensor::Allocate(Allocator* allocator, DataType dtype,
                                        const TensorShape& shape) {
  RILL_ASSIGN_OR_RETURN(Tensor t, AllocateUninitialized(allocator, dtype, shape));
  if (!HoldsObjects(t.dtype_) && t.TotalBytes() > 0) {
    std::memset(t.raw_data(), 0, t.TotalBytes());
  }
  return t;
}

absl::StatusOr<Tensor> Tensor::AllocateUninitialized(Allocator* allocator, DataType dtype,
                                                     const TensorShape& shape) {
  dtype = BaseType(dtype);
  if (!IsStorableDataType(dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot allocate a tensor of dtype ", DataTypeString(dtype)));
  }
  const size_t elem = ElementBytes(dtype);
  const int64_t n = shape.num_elements();
  if (n > 0 && static_cast<uint64_t>(n) > SIZE_MAX / elem) {
    return absl::InvalidArgumentError(
        absl::StrCat("Tensor of shape ", shape.DebugString(), " is too large"));
  }
  const size_t bytes = static_cast<size_t>(n) * elem;
  void* data = allocator->AllocateRaw(kTensorAlignment, bytes);
  if (data == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "OOM when allocating tensor with shape", shape.DebugString(), " and type ",
        DataTypeString(dtype), " on allocator ", allocator->Name(), " (", bytes, " bytes)"));
  }
  if (dtype == DT_STRING) {
    auto* s = static_cast<std::string*>(data);
    for (int64_t i = 0; i < n; ++i) new (&s[i]) std::string();
  } else if (dtype == DT_VARIANT) {
    auto* v = static_cast<Variant*>(data);
    for (int64_t i = 0; i < n; ++i) new (&v[i]) Variant();
  } else {
#ifndef NDEBUG
    std::memset(data, 0xA5, bytes);
#endif
  }
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = shape;
  // The header (with the shared count) comes from the recycled host blocks, not malloc.
  t.buffer_ = std::allocate_shared<TensorBuffer>(HostBlockAllocator<TensorBuffer>(), allocator,
                                                 dtype, data, bytes, n);
  return t;
}

size_t Tensor::TotalBytes() const {
  return static_cast<size_t>(NumElements()) * ElementBytes(dtype_);
}

absl::StatusOr<Tensor> Tensor::Reshaped(const TensorShape& shape) const {
  if (shape.num_elements() != NumElements()) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot reshape a tensor with ", NumElements(),
                                                   " elements to shape ", shape.DebugString(), " (",
                                                   shape.num_elements(), " elements)"));
  }
  Tensor t = *this;
  t.shape_ = shape;
  return t;
}

absl::StatusOr<Tensor> Tensor::DeepCopy() const {
  if (!IsInitialized()) return Tensor();
  RILL_ASSIGN_OR_RETURN(Tensor t, Allocate(allocator(), dtype_, shape_));
  if (dtype_ == DT_STRING) {
    auto src = flat<std::string>();
    auto dst = t.flat<std::string>();
    for (size_t i = 0; i < src.size(); ++i) dst[i] = src[i];
  } else if (dtype_ == DT_VARIANT) {
    // Variant values are immutable: the copy shares them.
    auto src = flat<Variant>();
    auto dst = t.flat<Variant>();
    for (size_t i = 0; i < src.size(); ++i) dst[i] = src[i];
  } else if (TotalBytes() > 0) {
    std::memcpy(t.raw_data(), raw_data(), TotalBytes());
  }
  return t;
}

namespace {

// A float or double as TensorFlow's printing writes it: the shortest of %.{6,9}g (float) or
// %.{15,17}g (double) that reads back as the same value (0.952202678, not absl's six digits).
template <typename F>
std::string RoundTripString(F v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  constexpr bool kFloat = std::is_same_v<F, float>;
  constexpr int kShort = kFloat ? 6 : 15;
  constexpr int kLong = kFloat ? 9 : 17;
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.*g", kShort, static_cast<double>(v));
  const bool same = kFloat ? std::strtof(buffer, nullptr) == static_cast<float>(v)
                           : std::strtod(buffer, nullptr) == static_cast<double>(v);
  if (!same) std::snprintf(buffer, sizeof(buffer), "%.*g", kLong, static_cast<double>(v));
  return buffer;
}

// An element as Print and Assert write it: strings with C escapes for quotes, backslashes and
// control bytes, UTF-8 kept as it is (TensorFlow's Utf8SafeCEscape), without quotes.
template <typename T>
std::string ElementString(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::Utf8SafeCEscape(v);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return RoundTripString(v);
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return RoundTripString(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return absl::StrCat("(", RoundTripString(v.real()), ",", RoundTripString(v.imag()), ")");
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    return absl::StrCat(static_cast<int>(v));
  } else {
    return absl::StrCat(v);
  }
}

}  // namespace

namespace {

// An element as print_v2 writes it: as ElementString, strings also in double quotes.
template <typename T>
std::string ElementStringV2(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("\"", ElementString(v), "\"");
  } else {
    return ElementString(v);
  }
}

// Renders dims [d, rank) of `t` starting at element `offset` (print_v2 style).
template <typename T>
void AppendV2(absl::Span<const T> v, const TensorShape& shape, int d, int64_t offset, int summarize,
              std::string* out) {
  const int rank = shape.rank();
  const int64_t n = shape.dim(d);
  int64_t stride = 1;
  for (int k = d + 1; k < rank; ++k) stride *= shape.dim(k);
  const bool elide = summarize >= 0 && n > 2 * static_cast<int64_t>(summarize);
  const std::string sep =
      d + 1 == rank ? " " : std::string(rank - d - 1, '\n') + std::string(d + 1, ' ');
  *out += "[";
  for (int64_t i = 0; i < n; ++i) {
    if (elide && i == summarize) {
      *out += "...";
      i = n - summarize;
      if (i == n) break;  // summarize 0: no element on either side
      *out += sep;
    }
    if (d + 1 == rank) {
      *out += ElementStringV2(v[offset + i]);
    } else {
      AppendV2(v, shape, d + 1, offset + i * stride, summarize, out);
    }
    if (i + 1 < n) *out += sep;
  }
  *out += "]";
}

}  // namespace

std::string Tensor::SummarizeValuesV2(int summarize) const {
  std::string out;
  if (!IsInitialized()) return out;
  // A quantized element prints as its integer, as in TensorFlow.
  absl::Status s = VisitDataType(QuantizedStorageType(dtype_), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const absl::Span<const T> v(static_cast<const T*>(raw_data()), NumElements());
    if (shape_.rank() == 0) {
      out = ElementStringV2(v[0]);
    } else {
      AppendV2<T>(absl::Span<const T>(v.data(), v.size()), shape_, 0, 0, summarize, &out);
    }
    return absl::OkStatus();
  });
  (void)s;  // every storable dtype is visited
  return out;
}

std::string Tensor::SummarizeValues(int max_entries) const {
  std::string out;
  if (!IsInitialized()) return out;
  const int64_t n = NumElements();
  const int64_t limit = std::min<int64_t>(n, max_entries);
  absl::Status s = VisitDataType(QuantizedStorageType(dtype_), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const absl::Span<const T> v(static_cast<const T*>(raw_data()), NumElements());
    const int rank = shape_.rank();
    for (int64_t i = 0; i < limit; ++i) {
      // Open a bracket for every dimension starting at this index (rank > 1 only, like TF).
      if (rank > 1) {
        int64_t stride = 1;
        for (int d = rank - 1; d > 0; --d) {
          stride *= shape_.dim(d);
          if (i % stride == 0) out += "[";
        }
      }
      if (!out.empty() && out.back() != '[') out += " ";
      out += ElementString(v[i]);
      if (rank > 1) {
        int64_t stride = 1;
        for (int d = rank - 1; d > 0; --d) {
          stride *= shape_.dim(d);
          if ((i + 1) % stride == 0) out += "]";
        }
      }
    }
    return absl::OkStatus();
  });
  if (limit < n) out += "...";
  return out;
}

std::string Tensor::DebugString(int max_entries) const {
  return absl::StrCat("Tensor<type: ", DataTypeString(dtype_), " shape: ", shape_.DebugString(),
                      " values: ", SummarizeValues(max_entries), ">");
}

}  // namespace rill
