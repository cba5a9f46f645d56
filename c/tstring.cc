// TF_TString: the 24-byte string element of TF_STRING tensors (layout in tf_tstring.h).
#include <cstdlib>
#include <cstring>

#include "tensorflow/c/tf_tstring.h"

namespace {

// The sizes stored in the first word carry the type in their low two bits.
size_t Packed(size_t size, TF_TString_Type type) { return (size << 2) | type; }
size_t Unpacked(size_t packed) { return packed >> 2; }
size_t RoundUp16(size_t n) { return (n + 15) & ~static_cast<size_t>(15); }

}  // namespace

extern "C" {

void TF_StringInit(TF_TString* t) {
  if (t != nullptr) std::memset(t, 0, sizeof(*t));
}

TF_TString_Type TF_StringGetType(const TF_TString* str) {
  if (str == nullptr) return TF_TSTR_SMALL;
  return static_cast<TF_TString_Type>(str->u.raw.raw[0] & TF_TSTR_TYPE_MASK);
}

size_t TF_StringGetSize(const TF_TString* str) {
  if (str == nullptr) return 0;
  switch (TF_StringGetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.size >> 2;
    case TF_TSTR_LARGE:
      return Unpacked(str->u.large.size);
    case TF_TSTR_OFFSET:
      return str->u.offset.size >> 2;
    case TF_TSTR_VIEW:
      return Unpacked(str->u.view.size);
    default:
      return 0;
  }
}

size_t TF_StringGetCapacity(const TF_TString* str) {
  switch (TF_StringGetType(str)) {
    case TF_TSTR_SMALL:
      return TF_TString_SmallCapacity;
    case TF_TSTR_LARGE:
      return str->u.large.cap;
    default:
      return 0;
  }
}

const char* TF_StringGetDataPointer(const TF_TString* str) {
  if (str == nullptr) return nullptr;
  switch (TF_StringGetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.str;
    case TF_TSTR_LARGE:
      return str->u.large.ptr;
    case TF_TSTR_OFFSET:
      return reinterpret_cast<const char*>(str) + str->u.offset.offset;
    case TF_TSTR_VIEW:
      return str->u.view.ptr;
    default:
      return nullptr;
  }
}

void TF_StringDealloc(TF_TString* str) {
  if (str == nullptr) return;
  if (TF_StringGetType(str) == TF_TSTR_LARGE && str->u.large.ptr != nullptr) {
    std::free(str->u.large.ptr);
    TF_StringInit(str);
  }
}

void TF_StringCopy(TF_TString* dst, const char* src, size_t size) {
  if (dst == nullptr) return;
  if (src == nullptr) size = 0;
  if (size <= TF_TString_SmallCapacity) {
    // Copied aside first: src may point into dst itself.
    char bytes[TF_TString_SmallCapacity];
    if (size > 0) std::memcpy(bytes, src, size);
    TF_StringDealloc(dst);
    TF_StringInit(dst);
    dst->u.smll.size = static_cast<uint8_t>(Packed(size, TF_TSTR_SMALL));
    if (size > 0) std::memcpy(dst->u.smll.str, bytes, size);
    dst->u.smll.str[size] = '\0';
    return;
  }
  const size_t cap = RoundUp16(size + 1) - 1;
  char* block = static_cast<char*>(std::malloc(cap + 1));
  std::memcpy(block, src, size);
  block[size] = '\0';
  TF_StringDealloc(dst);
  dst->u.large.size = Packed(size, TF_TSTR_LARGE);
  dst->u.large.cap = cap;
  dst->u.large.ptr = block;
}

void TF_StringAssignView(TF_TString* dst, const char* src, size_t size) {
  if (dst == nullptr) return;
  TF_StringDealloc(dst);
  dst->u.view.size = Packed(src == nullptr ? 0 : size, TF_TSTR_VIEW);
  dst->u.view.ptr = src;
}

}  // extern "C"
