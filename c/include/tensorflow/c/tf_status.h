/* TF_Status: the outcome of a call, an error code and a message. Calls that take a TF_Status*
   set it to TF_OK on success and to an error otherwise. */
#ifndef TENSORFLOW_C_TF_STATUS_H_
#define TENSORFLOW_C_TF_STATUS_H_

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_Status TF_Status;

/* Error codes, numbered as in error_codes.proto (and absl::StatusCode). */
typedef enum TF_Code {
  TF_OK = 0,
  TF_CANCELLED = 1,
  TF_UNKNOWN = 2,
  TF_INVALID_ARGUMENT = 3,
  TF_DEADLINE_EXCEEDED = 4,
  TF_NOT_FOUND = 5,
  TF_ALREADY_EXISTS = 6,
  TF_PERMISSION_DENIED = 7,
  TF_UNAUTHENTICATED = 16,
  TF_RESOURCE_EXHAUSTED = 8,
  TF_FAILED_PRECONDITION = 9,
  TF_ABORTED = 10,
  TF_OUT_OF_RANGE = 11,
  TF_UNIMPLEMENTED = 12,
  TF_INTERNAL = 13,
  TF_UNAVAILABLE = 14,
  TF_DATA_LOSS = 15
} TF_Code;

/* A new status, TF_OK with an empty message. */
TF_CAPI_EXPORT extern TF_Status* TF_NewStatus(void);
/* Null is allowed. */
TF_CAPI_EXPORT extern void TF_DeleteStatus(TF_Status*);
/* Replaces code and message (msg may be null: empty). TF_OK always keeps an empty message. */
TF_CAPI_EXPORT extern void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg);
/* Accepted for compatibility; Rill keeps no payloads. */
TF_CAPI_EXPORT extern void TF_SetPayload(TF_Status* s, const char* key, const char* value);
/* Sets the code an errno value maps to, with `context` and strerror's text as the message. */
TF_CAPI_EXPORT extern void TF_SetStatusFromIOError(TF_Status* s, int error_code,
                                                   const char* context);
TF_CAPI_EXPORT extern TF_Code TF_GetCode(const TF_Status* s);
/* Valid until the status next changes; "" when the code is TF_OK. */
TF_CAPI_EXPORT extern const char* TF_Message(const TF_Status* s);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_STATUS_H_ */
