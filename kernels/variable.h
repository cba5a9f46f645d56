// Var: the state behind a TF1 reference variable (VariableV2) or a resource variable
// (VarHandleOp), kept in its device's ResourceMgr for the session's life. The tensor is
// uninitialized (dtype DT_INVALID) until the first Assign; readers then fail with TensorFlow's
// FailedPrecondition "Attempting to use uninitialized value <name>". `mu` guards `tensor`: writers
// hold it exclusively (use_locking), readers shared.
#ifndef RILL_KERNELS_VARIABLE_H_
#define RILL_KERNELS_VARIABLE_H_

#include <string>

#include "absl/synchronization/mutex.h"
#include "core/resource_mgr.h"
#include "core/tensor.h"

namespace rill {

class Var final : public ResourceBase {
 public:
  explicit Var(DataType dtype) : dtype_(dtype) {}
  std::string DebugString() const override {
    return "Var<" + DataTypeString(dtype_) + ">";
  }
  DataType dtype() const { return dtype_; }

  absl::Mutex mu;
  Tensor tensor;  // guarded by mu

 private:
  const DataType dtype_;
};

}  // namespace rill

#endif  // RILL_KERNELS_VARIABLE_H_
