/* TF_Tensor: a dense array with an element type and a shape.
 *
 * Numeric tensors hold their elements in row-major order. TF_STRING tensors hold one TF_TString
 * (tf_tstring.h) per element, so their byte size is 24 * the element count. */
#ifndef TENSORFLOW_C_TF_TENSOR_H_
#define TENSORFLOW_C_TF_TENSOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The end of MEMBER within TYPE: the struct_size of a versioned struct that ends with MEMBER. */
#ifndef TF_OFFSET_OF_END
#define TF_OFFSET_OF_END(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof(((TYPE*)0)->MEMBER))
#endif

/* Where a tensor's memory should live (used by kernel plugins). */
typedef struct TF_AllocatorAttributes {
  size_t struct_size;
  unsigned char on_host; /* 1: host memory */
} TF_AllocatorAttributes;

#define TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE TF_OFFSET_OF_END(TF_AllocatorAttributes, on_host)

typedef struct TF_Tensor TF_Tensor;

/* A tensor over the caller's bytes data[0, len). `deallocator(data, len, deallocator_arg)` is
 * called exactly once, when the last holder of the bytes lets go (TF_DeleteTensor, or the end of
 * a run that read the tensor). Returns NULL, after calling the deallocator, when `len` is smaller
 * than the shape and type need, a dimension is negative, or the type has no fixed size and is not
 * TF_STRING. */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensor(
    TF_DataType, const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg), void* deallocator_arg);

/* A tensor with its own zero-filled, 64-byte-aligned memory of `len` bytes (NULL when `len` is
 * smaller than the shape and type need). For TF_STRING every element starts as an empty string. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTensor(TF_DataType, const int64_t* dims, int num_dims,
                                                   size_t len);

/* When `tensor` is the only holder of memory it owns, deletes it and returns a tensor with the
 * same memory; otherwise returns NULL and leaves `tensor` as it was. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor);

/* Null is allowed. */
TF_CAPI_EXPORT extern void TF_DeleteTensor(TF_Tensor*);

TF_CAPI_EXPORT extern TF_DataType TF_TensorType(const TF_Tensor*);

/* Sets the dims; the caller keeps the element count consistent with the data. */
TF_CAPI_EXPORT extern void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims);

TF_CAPI_EXPORT extern int TF_NumDims(const TF_Tensor*);

/* 0 when dim_index is out of range. */
TF_CAPI_EXPORT extern int64_t TF_Dim(const TF_Tensor* tensor, int dim_index);

TF_CAPI_EXPORT extern size_t TF_TensorByteSize(const TF_Tensor*);

TF_CAPI_EXPORT extern void* TF_TensorData(const TF_Tensor*);

TF_CAPI_EXPORT extern int64_t TF_TensorElementCount(const TF_Tensor* tensor);

/* Makes `to` share the memory of `from` with type `type` and shape new_dims, which must occupy
 * the same number of bytes (TF_INVALID_ARGUMENT otherwise, or for a type without a fixed
 * size). */
TF_CAPI_EXPORT extern void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type,
                                                TF_Tensor* to, const int64_t* new_dims,
                                                int num_new_dims, TF_Status* status);

/* Whether the data is 64-byte aligned. */
TF_CAPI_EXPORT extern bool TF_TensorIsAligned(const TF_Tensor*);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TENSOR_H_ */
