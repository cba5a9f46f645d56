#include "python/csrc/numpy_abi.h"

#include <initializer_list>

namespace rill_py {
namespace {

// Slots in numpy's _ARRAY_API table.
constexpr int kArrayTypeSlot = 2;
constexpr int kDescrTypeSlot = 3;
constexpr int kScalarSlot = 60;
constexpr int kNewFromDescrSlot = 94;
constexpr int kSetBaseObjectSlot = 282;

PyObject* ImportArrayApiCapsule() {
  for (const char* name : {"numpy._core._multiarray_umath", "numpy.core._multiarray_umath"}) {
    PyObject* module = PyImport_ImportModule(name);
    if (module == nullptr) {
      PyErr_Clear();
      continue;
    }
    PyObject* capsule = PyObject_GetAttrString(module, "_ARRAY_API");
    Py_DECREF(module);
    if (capsule != nullptr && PyCapsule_CheckExact(capsule)) return capsule;
    Py_XDECREF(capsule);
    PyErr_Clear();
  }
  PyErr_SetString(PyExc_ImportError, "rill._fastrun: numpy's C API (_ARRAY_API) is not available");
  return nullptr;
}

}  // namespace

bool LoadNumpyApi(NumpyApi* api) {
  PyObject* capsule = ImportArrayApiCapsule();
  if (capsule == nullptr) return false;
  void** table = static_cast<void**>(PyCapsule_GetPointer(capsule, nullptr));
  Py_DECREF(capsule);
  if (table == nullptr) return false;
  api->array_type = static_cast<PyTypeObject*>(table[kArrayTypeSlot]);
  api->descr_type = static_cast<PyTypeObject*>(table[kDescrTypeSlot]);
  api->scalar = reinterpret_cast<decltype(api->scalar)>(table[kScalarSlot]);
  api->new_from_descr = reinterpret_cast<decltype(api->new_from_descr)>(table[kNewFromDescrSlot]);
  api->set_base_object =
      reinterpret_cast<decltype(api->set_base_object)>(table[kSetBaseObjectSlot]);
  return true;
}

bool NativeByteOrder(PyObject* descr) {
  const char order = Descr(descr)->byteorder;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return order == '=' || order == '|' || order == '>';
#else
  return order == '=' || order == '|' || order == '<';
#endif
}

}  // namespace rill_py
