/* Rill's libtensorflow-compatible C API: the export macro every declaration carries. */
#ifndef TENSORFLOW_C_C_API_MACROS_H_
#define TENSORFLOW_C_C_API_MACROS_H_

/* Symbols of the C API are the only ones libtensorflow.so exports (its version script hides the
   rest); the attribute also makes them visible when the library is built with
   -fvisibility=hidden. */
#if defined(SWIG)
#define TF_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TF_COMPILE_LIBRARY
#define TF_CAPI_EXPORT __declspec(dllexport)
#else
#define TF_CAPI_EXPORT __declspec(dllimport)
#endif
#else
#define TF_CAPI_EXPORT __attribute__((visibility("default")))
#endif

#endif /* TENSORFLOW_C_C_API_MACROS_H_ */
