/* TF_Buffer: a block of bytes (usually a serialized protocol buffer) and how to free it. */
#ifndef TENSORFLOW_C_TF_BUFFER_H_
#define TENSORFLOW_C_TF_BUFFER_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `data_deallocator`, when not null, is called with (data, length) by TF_DeleteBuffer; the C API
   sets it on the buffers it fills. */
typedef struct TF_Buffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
} TF_Buffer;

/* A buffer holding its own copy of proto[0, proto_len). */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len);
/* An empty buffer, for calls that write a result into it. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBuffer(void);
/* Frees the data through data_deallocator (if set) and the buffer. Null is allowed. */
TF_CAPI_EXPORT extern void TF_DeleteBuffer(TF_Buffer*);
/* A copy of the struct (the data is not copied). */
TF_CAPI_EXPORT extern TF_Buffer TF_GetBuffer(TF_Buffer* buffer);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_BUFFER_H_ */
