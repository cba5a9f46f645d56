/* TF_TString: the 24-byte element of a TF_STRING tensor.
 *
 * The low two bits of the first byte give the representation:
 *   SMALL  (0): up to 22 bytes stored inline, byte 0 holds size << 2, then the bytes and a NUL;
 *   LARGE  (1): a heap block from malloc: {size << 2 | 1, capacity, pointer};
 *   OFFSET (2): {size << 2 | 2, offset, count} (32-bit fields), bytes at (char*)this + offset;
 *   VIEW   (3): {size << 2 | 3, pointer} to bytes the string does not own.
 * (Sizes are shifted as shown on little-endian hosts, the only ones Rill builds for.) A
 * zero-filled TF_TString is an empty SMALL string, so memset(0) initializes an array of them.
 * Only LARGE strings own memory; TF_StringDealloc frees it, and a TF_STRING tensor made by
 * TF_AllocateTensor deallocates each element when it is deleted. */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TF_TString_Type {
  TF_TSTR_SMALL = 0x00,
  TF_TSTR_LARGE = 0x01,
  TF_TSTR_OFFSET = 0x02,
  TF_TSTR_VIEW = 0x03,
  TF_TSTR_TYPE_MASK = 0x03
} TF_TString_Type;

typedef struct TF_TString_Large {
  size_t size;
  size_t cap;
  char* ptr;
} TF_TString_Large;

typedef struct TF_TString_Offset {
  uint32_t size;
  uint32_t offset;
  uint32_t count;
} TF_TString_Offset;

typedef struct TF_TString_View {
  size_t size;
  const char* ptr;
} TF_TString_View;

typedef struct TF_TString_Raw {
  uint8_t raw[24];
} TF_TString_Raw;

/* 24 bytes, less the size byte and the NUL. */
enum { TF_TString_SmallCapacity = 22 };

typedef struct TF_TString_Small {
  uint8_t size;
  char str[TF_TString_SmallCapacity + 1];
} TF_TString_Small;

typedef struct TF_TString {
  union {
    TF_TString_Small smll;
    TF_TString_Large large;
    TF_TString_Offset offset;
    TF_TString_View view;
    TF_TString_Raw raw;
  } u;
} TF_TString;

/* An empty string (all 24 bytes zero). Does not free what `t` held. */
TF_CAPI_EXPORT extern void TF_StringInit(TF_TString* t);
/* Makes `dst` an owned copy of src[0, size) (SMALL or LARGE), freeing what it owned. */
TF_CAPI_EXPORT extern void TF_StringCopy(TF_TString* dst, const char* src, size_t size);
/* Makes `dst` a VIEW of src[0, size), freeing what it owned; src must outlive the use of dst. */
TF_CAPI_EXPORT extern void TF_StringAssignView(TF_TString* dst, const char* src, size_t size);
TF_CAPI_EXPORT extern const char* TF_StringGetDataPointer(const TF_TString* tstr);
TF_CAPI_EXPORT extern TF_TString_Type TF_StringGetType(const TF_TString* str);
TF_CAPI_EXPORT extern size_t TF_StringGetSize(const TF_TString* tstr);
/* Bytes the string can hold without reallocating (22 for SMALL, 0 for VIEW and OFFSET). */
TF_CAPI_EXPORT extern size_t TF_StringGetCapacity(const TF_TString* str);
/* Frees a LARGE string's block and leaves `tstr` empty; other kinds are left as they are. */
TF_CAPI_EXPORT extern void TF_StringDealloc(TF_TString* tstr);

/* TensorFlow's TF_TString_* functions (its ctstring.h), which programs written for TensorFlow's
   C API call on the elements of TF_STRING tensors: inline, on the layout above and the exported
   functions. Owned strings grow as TF_StringCopy makes them (SMALL up to 22 bytes, else a LARGE
   block of 16-byte-rounded capacity); a VIEW or OFFSET string written to becomes owned. A NULL
   string is left alone (the functions returning bytes return NULL), as is a NULL source with a
   length, and a size past SIZE_MAX / 8 (TensorFlow's crash on these). */
static inline void TF_TString_Init(TF_TString* str) { TF_StringInit(str); }
static inline void TF_TString_Dealloc(TF_TString* str) { TF_StringDealloc(str); }
static inline TF_TString_Type TF_TString_GetType(const TF_TString* str) {
  return TF_StringGetType(str);
}
static inline size_t TF_TString_GetSize(const TF_TString* str) { return TF_StringGetSize(str); }
static inline size_t TF_TString_GetCapacity(const TF_TString* str) {
  return TF_StringGetCapacity(str);
}
static inline const char* TF_TString_GetDataPointer(const TF_TString* str) {
  return TF_StringGetDataPointer(str);
}
static inline void TF_TString_Copy(TF_TString* dst, const char* src, size_t size) {
  TF_StringCopy(dst, src, size);
}
static inline void TF_TString_AssignView(TF_TString* dst, const char* src, size_t size) {
  TF_StringAssignView(dst, src, size);
}

/* Makes `str` an owned string of `new_size` bytes whose first `keep` (at most new_size and its
   size) are its current ones, with room for at least `min_cap` (>= new_size); returns its bytes,
   NUL-terminated at new_size. NULL for a NULL `str` or a capacity no string can have (sizes are
   stored shifted left by 2). */
static inline char* TF_TString_RillOwn(TF_TString* str, size_t keep, size_t new_size,
                                       size_t min_cap) {
  const TF_TString_Type type = TF_StringGetType(str);
  if (str == NULL || min_cap > ((size_t)-1 >> 3)) return NULL;
  if (keep > new_size) keep = new_size;
  if (keep > TF_StringGetSize(str)) keep = TF_StringGetSize(str);
  if (min_cap < new_size) min_cap = new_size;
  const char* old = TF_StringGetDataPointer(str);
  if (type != TF_TSTR_LARGE && min_cap <= TF_TString_SmallCapacity) {
    char bytes[TF_TString_SmallCapacity];
    if (keep > 0) memcpy(bytes, old, keep);
    memset(str, 0, sizeof(*str));
    str->u.smll.size = (uint8_t)(new_size << 2);
    if (keep > 0) memcpy(str->u.smll.str, bytes, keep);
    str->u.smll.str[new_size] = '\0';
    return str->u.smll.str;
  }
  if (type == TF_TSTR_LARGE && str->u.large.cap >= min_cap) {
    str->u.large.size = (new_size << 2) | TF_TSTR_LARGE;
    str->u.large.ptr[new_size] = '\0';
    return str->u.large.ptr;
  }
  {
    const size_t cap = ((min_cap + 1 + 15) & ~(size_t)15) - 1;
    char* block = (char*)malloc(cap + 1);
    if (block == NULL) return NULL;
    if (keep > 0) memcpy(block, old, keep);
    block[new_size] = '\0';
    if (type == TF_TSTR_LARGE) free(str->u.large.ptr);
    str->u.large.size = (new_size << 2) | TF_TSTR_LARGE;
    str->u.large.cap = cap;
    str->u.large.ptr = block;
    return block;
  }
}

static inline char* TF_TString_ResizeUninitialized(TF_TString* str, size_t new_size) {
  const size_t size = TF_StringGetSize(str);
  return TF_TString_RillOwn(str, size < new_size ? size : new_size, new_size, new_size);
}
static inline char* TF_TString_Resize(TF_TString* str, size_t new_size, char c) {
  const size_t size = TF_StringGetSize(str);
  char* bytes = TF_TString_ResizeUninitialized(str, new_size);
  if (bytes != NULL && new_size > size) memset(bytes + size, c, new_size - size);
  return bytes;
}
static inline char* TF_TString_Reserve(TF_TString* str, size_t new_cap) {
  const size_t size = TF_StringGetSize(str);
  return TF_TString_RillOwn(str, size, size, new_cap > size ? new_cap : size);
}
static inline char* TF_TString_ReserveAmortized(TF_TString* str, size_t new_cap) {
  const size_t cap = TF_StringGetCapacity(str);
  return TF_TString_Reserve(str, new_cap > cap && new_cap < 2 * cap ? 2 * cap : new_cap);
}
static inline char* TF_TString_GetMutableDataPointer(TF_TString* str) {
  const TF_TString_Type type = TF_StringGetType(str);
  if (str == NULL) return NULL;
  if (type == TF_TSTR_SMALL) return str->u.smll.str;
  if (type == TF_TSTR_LARGE) return str->u.large.ptr;
  return TF_TString_ResizeUninitialized(str, TF_StringGetSize(str));
}
/* A VIEW stays a view of the same bytes; other strings are copied. */
static inline void TF_TString_Assign(TF_TString* dst, const TF_TString* src) {
  if (dst == src) return;
  if (TF_StringGetType(src) == TF_TSTR_VIEW) {
    TF_StringAssignView(dst, TF_StringGetDataPointer(src), TF_StringGetSize(src));
  } else {
    TF_StringCopy(dst, TF_StringGetDataPointer(src), TF_StringGetSize(src));
  }
}
/* `src` is left empty; an OFFSET string (relative to where it lies) is copied. */
static inline void TF_TString_Move(TF_TString* dst, TF_TString* src) {
  if (dst == src || dst == NULL || src == NULL) return;
  if (TF_StringGetType(src) == TF_TSTR_OFFSET) {
    TF_StringCopy(dst, TF_StringGetDataPointer(src), TF_StringGetSize(src));
  } else {
    TF_StringDealloc(dst);
    memcpy(dst, src, sizeof(*dst));
  }
  memset(src, 0, sizeof(*src));
}
static inline void TF_TString_AppendN(TF_TString* dst, const char* src, size_t size) {
  const size_t old_size = TF_StringGetSize(dst);
  const size_t cap = TF_StringGetCapacity(dst);
  const size_t new_size = old_size + size;
  char* bytes;
  if (size == 0 || src == NULL || size > ((size_t)-1 >> 3) - old_size) return;
  bytes = TF_TString_RillOwn(dst, old_size, new_size,
                             new_size > cap && new_size < 2 * cap ? 2 * cap : new_size);
  if (bytes != NULL) memcpy(bytes + old_size, src, size);
}
static inline void TF_TString_Append(TF_TString* dst, const TF_TString* src) {
  TF_TString_AppendN(dst, TF_StringGetDataPointer(src), TF_StringGetSize(src));
}

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
