// Dtype lists for kernel registrations' type constraints, so a kernel registers exactly the
// dtypes its OpDef allows that Rill can store (never quantized, float8, int4, variant):
//
//   REGISTER_KERNEL(KernelDefBuilder("Const").Device(kDeviceCpu)
//                       .TypeConstraint("dtype", StorableTypes()), ConstOp);
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_TYPE_LISTS_H_
#define RILL_KERNELS_FRAMEWORK_TYPE_LISTS_H_

#include <vector>

#include "core/types.h"

namespace rill {

// Every dtype a Rill Tensor can hold (core/types.h IsSupportedDataType), in enum order: float,
// double, int32, uint8, int16, int8, string, complex64, int64, bool, bfloat16, uint16, complex128,
// half, uint32, uint64.
inline std::vector<DataType> StorableTypes() {
  std::vector<DataType> out;
  for (int t = DT_FLOAT; t <= DT_UINT64; ++t) {
    if (t == DT_VARIANT) continue;  // objects, not values: only PassThroughTypes move them
    if (DataType_IsValid(t) && IsSupportedDataType(static_cast<DataType>(t))) {
      out.push_back(static_cast<DataType>(t));
    }
  }
  return out;
}

// StorableTypes() plus DT_RESOURCE, for kernels that only pass a tensor along (Identity,
// _Send/_Recv, _Arg/_Retval): Rill's resource handles are scalar string tensors
// (kernels/state/variable.h), which these kernels never look inside.
inline std::vector<DataType> PassThroughTypes() {
  std::vector<DataType> out = StorableTypes();
  out.push_back(DT_RESOURCE);
  out.push_back(DT_VARIANT);
  return out;
}

// TensorFlow's `numbertype` minus the quantized dtypes: the storable types except string and
// bool.
inline std::vector<DataType> NumberTypes() {
  std::vector<DataType> out;
  for (DataType t : StorableTypes()) {
    if (t != DT_STRING && t != DT_BOOL) out.push_back(t);
  }
  return out;
}

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_TYPE_LISTS_H_
