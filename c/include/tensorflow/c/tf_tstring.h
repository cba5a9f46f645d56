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

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
