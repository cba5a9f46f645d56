// TF_Tensor: creation (owned, external, wrapped storage), queries, and conversion to and from
// rill::Tensor for runs and attrs.
#include <cstdlib>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c/c_api_internal.h"
#include "core/allocator.h"
#include "core/tensor_proto.h"
#include "core/types.h"

namespace rill_c {
namespace {

constexpr size_t kAlignment = 64;

// TensorFlow's limit on a shape's rank (TensorShape::MaxDimensions()).
constexpr int kMaxRank = 254;

// Element count of dims[0, num_dims); nullopt-like -1 for a null array with dims, a rank above
// kMaxRank, a negative dim or an overflow.
int64_t CheckedElementCount(const int64_t* dims, int num_dims) {
  if (num_dims < 0 || num_dims > kMaxRank || (num_dims > 0 && dims == nullptr)) return -1;
  int64_t n = 1;
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) return -1;
    if (dims[i] != 0 && n > std::numeric_limits<int64_t>::max() / dims[i]) return -1;
    n *= dims[i];
  }
  return n;
}

// Bytes a tensor of `elements` elements of `dtype` needs; -1 for a type without a fixed size
// (TF_STRING counts TF_TString elements) or an overflow.
int64_t NeededBytes(TF_DataType dtype, int64_t elements) {
  const int64_t size =
      dtype == TF_STRING ? static_cast<int64_t>(sizeof(TF_TString)) : TF_DataTypeSize(dtype);
  if (size == 0) return -1;
  if (elements > std::numeric_limits<int64_t>::max() / size) return -1;
  return elements * size;
}

// TF_RESOURCE and TF_VARIANT have no element size (TF_DataTypeSize is 0): TensorFlow's
// TF_NewTensor and TF_AllocateTensor make such tensors of whatever length they are given (a
// serialized handle, a program's own bytes), and only a run reading them checks their content
// (ToRillTensor refuses to feed them).
bool OpaqueType(TF_DataType dtype) { return dtype == TF_RESOURCE || dtype == TF_VARIANT; }

}  // namespace

std::shared_ptr<TensorStorage> TensorStorage::Owned(size_t len, TF_DataType dtype,
                                                    int64_t elements) {
  std::shared_ptr<TensorStorage> s(new TensorStorage);
  s->kind_ = Kind::kOwned;
  const size_t rounded = len == 0 ? kAlignment : (len + kAlignment - 1) / kAlignment * kAlignment;
  s->data_ = std::aligned_alloc(kAlignment, rounded);
  if (s->data_ == nullptr) return nullptr;
  std::memset(s->data_, 0, rounded);
  s->len_ = len;
  if (dtype == TF_STRING) s->owned_strings_ = elements;
  return s;
}

std::shared_ptr<TensorStorage> TensorStorage::External(void* data, size_t len,
                                                       void (*deallocator)(void*, size_t, void*),
                                                       void* arg) {
  std::shared_ptr<TensorStorage> s(new TensorStorage);
  s->kind_ = Kind::kExternal;
  s->data_ = data;
  s->len_ = len;
  s->deallocator_ = deallocator;
  s->deallocator_arg_ = arg;
  return s;
}

std::shared_ptr<TensorStorage> TensorStorage::Wrapped(rill::Tensor tensor) {
  std::shared_ptr<TensorStorage> s(new TensorStorage);
  s->kind_ = Kind::kWrapped;
  s->data_ = tensor.raw_data();
  s->len_ = tensor.TotalBytes();
  s->wrapped_ = std::move(tensor);
  return s;
}

TensorStorage::~TensorStorage() {
  switch (kind_) {
    case Kind::kOwned: {
      TF_TString* strings = static_cast<TF_TString*>(data_);
      for (int64_t i = 0; i < owned_strings_; ++i) TF_StringDealloc(&strings[i]);
      std::free(data_);
      break;
    }
    case Kind::kExternal:
      if (deallocator_ != nullptr) deallocator_(data_, len_, deallocator_arg_);
      break;
    case Kind::kWrapped:
      break;
  }
}

absl::StatusOr<rill::Tensor> ToRillTensor(const TF_Tensor* t) {
  if (t == nullptr) return absl::InvalidArgumentError("The tensor is null");
  const rill::DataType dt = static_cast<rill::DataType>(t->dtype);
  if (!rill::IsSupportedDataType(dt) || dt == rill::DT_RESOURCE || dt == rill::DT_VARIANT) {
    return absl::InvalidArgumentError(
        absl::StrCat("Rill cannot feed a tensor of type ", rill::DataTypeString(dt)));
  }
  absl::StatusOr<rill::TensorShape> shape = rill::TensorShape::FromDims(t->dims);
  if (!shape.ok()) return shape.status();
  const int64_t needed = NeededBytes(t->dtype, shape->num_elements());
  // A caller's one-element TF_STRING buffer holds its TF_TString whatever length it was given
  // with: TensorFlow does not check a string tensor's length (TF_DataTypeSize(TF_STRING) is 0),
  // and programs pass the string's size for a scalar (TF_TString_GetSize). Several elements must
  // fit the length (reading past it would read memory the caller did not hand over).
  const bool callers_strings = t->dtype == TF_STRING && t->storage != nullptr &&
                               !t->storage->owned() && t->storage->data() != nullptr &&
                               shape->num_elements() <= 1;
  if (needed < 0 || t->storage == nullptr ||
      (!callers_strings && t->storage->len() < static_cast<size_t>(needed))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Malformed TF_Tensor: it holds ", t->storage == nullptr ? 0 : t->storage->len(),
        " bytes but a ", rill::DataTypeString(dt), " tensor of shape [",
        absl::StrJoin(t->dims, ","), "] needs ", needed));
  }
  absl::StatusOr<rill::Tensor> out =
      rill::Tensor::AllocateUninitialized(rill::CpuAllocator::Default(), dt, *shape);
  if (!out.ok()) return out.status();
  if (t->dtype == TF_STRING) {
    const TF_TString* in = static_cast<const TF_TString*>(t->storage->data());
    absl::Span<std::string> strings = out->flat<std::string>();
    for (size_t i = 0; i < strings.size(); ++i) {
      strings[i].assign(TF_StringGetDataPointer(&in[i]), TF_StringGetSize(&in[i]));
    }
  } else if (t->dtype == TF_BOOL) {
    // A caller's byte other than 0 and 1 would make every later read of the bool undefined:
    // nonzero reads as true (numpy's reading of such bytes).
    const uint8_t* in = static_cast<const uint8_t*>(t->storage->data());
    bool* dst = static_cast<bool*>(out->raw_data());
    for (int64_t i = 0; i < needed; ++i) dst[i] = in[i] != 0;
  } else if (needed > 0) {
    std::memcpy(out->raw_data(), t->storage->data(), static_cast<size_t>(needed));
  }
  return out;
}

TF_Tensor* FromRillTensor(const rill::Tensor& tensor) {
  TF_Tensor* t = new TF_Tensor;
  t->dtype = static_cast<TF_DataType>(rill::BaseType(tensor.dtype()));
  t->dims.assign(tensor.shape().dims().begin(), tensor.shape().dims().end());
  if (t->dtype == TF_STRING) {
    const int64_t n = tensor.NumElements();
    t->storage = TensorStorage::Owned(n * sizeof(TF_TString), TF_STRING, n);
    TF_TString* out = static_cast<TF_TString*>(t->storage->data());
    absl::Span<std::string> strings = tensor.flat<std::string>();
    for (int64_t i = 0; i < n; ++i) TF_StringCopy(&out[i], strings[i].data(), strings[i].size());
  } else {
    t->storage = TensorStorage::Wrapped(tensor);
  }
  return t;
}

}  // namespace rill_c

using rill_c::TensorStorage;

extern "C" {

TF_Tensor* TF_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims, void* data,
                        size_t len, void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  const int64_t elements = rill_c::CheckedElementCount(dims, num_dims);
  const int64_t needed = elements < 0                ? -1
                         : rill_c::OpaqueType(dtype) ? 0
                                                     : rill_c::NeededBytes(dtype, elements);
  // TF_STRING: the `data` of one element holds its TF_TString whatever `len` says (TensorFlow
  // checks the length of fixed-size types only, and programs pass a scalar string's size); more
  // elements must fit `len`, and a null `data` with elements is refused.
  const bool short_len = dtype == TF_STRING && elements <= 1 ? data == nullptr && needed > 0
                                                             : len < static_cast<size_t>(needed);
  if (needed < 0 || short_len || (data == nullptr && len > 0)) {
    if (deallocator != nullptr) deallocator(data, len, deallocator_arg);
    return nullptr;
  }
  TF_Tensor* t = new TF_Tensor;
  t->dtype = dtype;
  t->dims.assign(dims, dims + num_dims);
  t->storage = TensorStorage::External(data, len, deallocator, deallocator_arg);
  return t;
}

TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims, int num_dims, size_t len) {
  const int64_t elements = rill_c::CheckedElementCount(dims, num_dims);
  const int64_t needed = elements < 0                ? -1
                         : rill_c::OpaqueType(dtype) ? 0
                                                     : rill_c::NeededBytes(dtype, elements);
  if (needed < 0 || len < static_cast<size_t>(needed)) return nullptr;
  std::shared_ptr<TensorStorage> storage = TensorStorage::Owned(len, dtype, elements);
  if (storage == nullptr) return nullptr;
  TF_Tensor* t = new TF_Tensor;
  t->dtype = dtype;
  t->dims.assign(dims, dims + num_dims);
  t->storage = std::move(storage);
  return t;
}

TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor) {
  if (tensor == nullptr || tensor->storage == nullptr || !tensor->storage->Movable() ||
      tensor->storage.use_count() != 1) {
    return nullptr;
  }
  TF_Tensor* moved = new TF_Tensor(std::move(*tensor));
  delete tensor;
  return moved;
}

void TF_DeleteTensor(TF_Tensor* t) { delete t; }

TF_DataType TF_TensorType(const TF_Tensor* t) {
  return t == nullptr ? static_cast<TF_DataType>(0) : t->dtype;
}

void TF_SetShape(TF_Tensor* t, const int64_t* dims, int num_dims) {
  if (t == nullptr || num_dims < 0 || (num_dims > 0 && dims == nullptr)) return;
  t->dims.assign(dims, dims + num_dims);
}

int TF_NumDims(const TF_Tensor* t) { return t == nullptr ? 0 : static_cast<int>(t->dims.size()); }

int64_t TF_Dim(const TF_Tensor* t, int dim_index) {
  if (t == nullptr || dim_index < 0 || dim_index >= static_cast<int>(t->dims.size())) return 0;
  return t->dims[dim_index];
}

size_t TF_TensorByteSize(const TF_Tensor* t) {
  return t == nullptr || t->storage == nullptr ? 0 : t->storage->len();
}

void* TF_TensorData(const TF_Tensor* t) {
  return t == nullptr || t->storage == nullptr ? nullptr : t->storage->data();
}

int64_t TF_TensorElementCount(const TF_Tensor* t) {
  if (t == nullptr) return 0;
  int64_t n = 1;
  for (int64_t d : t->dims) n *= d;
  return n;
}

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type, TF_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, TF_Status* status) {
  if (from == nullptr || to == nullptr) {
    rill_c::SetStatus(status, absl::InvalidArgumentError("The tensor is null"));
    return;
  }
  const size_t from_size = TF_DataTypeSize(from->dtype);
  const size_t to_size = TF_DataTypeSize(type);
  const int64_t elements = rill_c::CheckedElementCount(new_dims, num_new_dims);
  if (from_size == 0 || to_size == 0 || elements < 0) {
    rill_c::SetStatus(
        status, absl::InvalidArgumentError("Bitcast needs fixed-size types and a valid shape"));
    return;
  }
  const int64_t from_bytes = TF_TensorElementCount(from) * static_cast<int64_t>(from_size);
  const int64_t to_bytes = elements * static_cast<int64_t>(to_size);
  if (from_bytes != to_bytes) {
    rill_c::SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                                  "Cannot bitcast ", from_bytes, " bytes into a shape and type ",
                                  "of ", to_bytes, " bytes")));
    return;
  }
  to->dtype = type;
  to->dims.assign(new_dims, new_dims + num_new_dims);
  to->storage = from->storage;
  rill_c::SetOk(status);
}

bool TF_TensorIsAligned(const TF_Tensor* t) {
  return reinterpret_cast<uintptr_t>(TF_TensorData(t)) % rill_c::kAlignment == 0;
}

void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to, TF_Status* status) {
  if (from == nullptr || to == nullptr) {
    rill_c::SetStatus(status, absl::InvalidArgumentError("The buffer or the tensor is null"));
    return;
  }
  rill::TensorProto proto;
  if (!rill_c::ParseFromBytes(from->data, from->length, &proto)) {
    rill_c::SetStatus(status, absl::InvalidArgumentError("Unparseable TensorProto"));
    return;
  }
  absl::StatusOr<rill::Tensor> tensor = rill::TensorFromProto(proto);
  if (!tensor.ok()) {
    rill_c::SetStatus(status, tensor.status());
    return;
  }
  TF_Tensor* made = rill_c::FromRillTensor(*tensor);
  *to = std::move(*made);
  delete made;
  rill_c::SetOk(status);
}

}  // extern "C"
