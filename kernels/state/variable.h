// Var: the state behind a TF1 reference variable (VariableV2 / Variable) or a resource variable
// (VarHandleOp), kept in its device's ResourceMgr under (container, shared_name) for the
// session's life, so values survive across runs and failed runs.
//
//   RILL_ASSIGN_OR_RETURN(std::shared_ptr<Var> v, device->resource_manager()->LookupOrCreate<Var>(
//       kDefaultContainer, "w", [] { return std::make_shared<Var>(DT_FLOAT); }));
//   rill::ReaderMutexLock lock(v->mu());
//   if (v->is_initialized()) Use(*v->tensor());
//
// Initialization: a Var starts uninitialized, its tensor empty (dtype DT_INVALID); the first
// assignment makes it initialized and it never goes back. The "initialized flag" is exactly
// `tensor()->IsInitialized()`, because TF1 ref consumers (Assign, AssignAdd, the executor) reach a
// variable only through the (Tensor*, Mutex*) pair of a ref edge (TensorValue::ref / ref_mu):
// the executor checks a ref input with `TensorValue::Get().IsInitialized()` and reports
// FailedPrecondition "Attempting to use uninitialized value <producer>".
//
// Locking: mu() guards tensor(). Writers that replace or mutate the value hold it exclusively;
// readers (ref reads, ReadVariableOp) hold it shared while taking a handle to the tensor. A
// reader's handle shares the buffer:
//   - ref variables: Assign puts a fresh buffer in; AssignAdd/AssignSub update the buffer in place
//     (TensorFlow's TF1 semantics: with use_locking=false concurrent updates race, and an earlier
//     read that aliases the buffer sees later in-place updates, as in TensorFlow);
//   - resource variables: every update writes a fresh buffer (copy-on-write), so a ReadVariableOp
//     value is a stable snapshot.
// The Var's tensor() stays at one address for the Var's life (ref outputs point at it).
//
// Resource handles: Rill's Tensor cannot hold DT_RESOURCE yet. A VarHandleOp's output (DT_RESOURCE
// in the OpDef) is therefore a scalar DT_STRING tensor holding "<container>/<shared_name>"; the
// executor passes it along resource edges like any tensor, whatever the declared dtype.
// Containers may not contain '/' (VarHandleOp rejects them), so the first '/' splits the two.
// VarHandleOp does not create the Var: AssignVariableOp does (as in TensorFlow).
//
// Thread-safe as described above.
#ifndef RILL_KERNELS_STATE_VARIABLE_H_
#define RILL_KERNELS_STATE_VARIABLE_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/mutex.h"
#include "core/resource_mgr.h"
#include "core/tensor.h"

namespace rill {

// The container VariableV2 and VarHandleOp use when their `container` attr is empty (TensorFlow's
// ResourceMgr default container; it appears in TensorFlow's error messages).
inline constexpr char kDefaultContainer[] = "localhost";

class Var final : public ResourceBase {
 public:
  explicit Var(DataType dtype) : dtype_(dtype) {}
  Var(const Var&) = delete;
  Var& operator=(const Var&) = delete;

  // The dtype the variable was created with (its value's dtype once initialized).
  DataType dtype() const { return dtype_; }
  // The mutex guarding tensor(); never null, lives as long as the Var.
  rill::SharedMutex* mu() const ABSL_LOCK_RETURNED(mu_) { return &mu_; }
  // The value. Read or write it only while holding mu() (shared to read, exclusive to write).
  Tensor* tensor() { return &tensor_; }
  // REQUIRES: mu() held (shared is enough).
  bool is_initialized() const { return tensor_.IsInitialized(); }
  // A TF1 reference variable's `shape` attr when fully defined: TensorFlow's uninitialized
  // variable carries that shape, so a validating Assign compares its first value with it. Unset
  // for resource variables and partial shapes. Set once by the creator, before the Var is shared,
  // and never changed: read without mu().
  const std::optional<TensorShape>& declared_shape() const { return declared_shape_; }
  void set_declared_shape(TensorShape shape) { declared_shape_ = std::move(shape); }

  // "Var<float [2,3]>" or "Var<float uninitialized>". Takes mu() shared.
  std::string DebugString() const override;

 private:
  const DataType dtype_;
  std::optional<TensorShape> declared_shape_;
  mutable rill::SharedMutex mu_;
  Tensor tensor_;  // Guarded by mu_ (not annotated: ref edges hand out its address).
};

// A resource variable's address in its device's ResourceMgr.
struct ResourceHandle {
  std::string container;
  std::string name;
};

// The scalar DT_STRING tensor "<container>/<name>" standing for a DT_RESOURCE handle.
// REQUIRES: `container` has no '/'.
Tensor MakeResourceHandleTensor(const std::string& container, const std::string& name);
// Decodes a handle tensor. InvalidArgument when `t` is not a scalar string "<container>/<name>".
absl::StatusOr<ResourceHandle> ResourceHandleFromTensor(const Tensor& t);

// FailedPrecondition "Error while reading resource variable v from Container: localhost. This
// could mean that the variable was uninitialized." (TensorFlow's text), with `cause` appended when
// it is an error ("Not found: ...").
absl::Status UninitializedVariableError(const ResourceHandle& h, const absl::Status& cause);

// The Var a resource handle tensor names (its decoded handle in *handle); FailedPrecondition as
// UninitializedVariableError when no Var of that name exists yet. The Var may still be
// uninitialized (check is_initialized() under its mutex).
absl::StatusOr<std::shared_ptr<Var>> LookupResourceVar(ResourceMgr& resources,
                                                       const Tensor& handle_tensor,
                                                       ResourceHandle* handle);

// The current value of the resource variable a handle tensor names (sharing its buffer: resource
// updates write fresh buffers, so it stays as it is), for ops that read a variable without
// ReadVariableOp (ResourceGather, VariableShape). NotFound "Resource localhost/v does not exist."
// (TensorFlow's code) before the first AssignVariableOp; FailedPrecondition as
// UninitializedVariableError for a Var never assigned.
absl::StatusOr<Tensor> SnapshotResourceVar(ResourceMgr& resources, const Tensor& handle_tensor,
                                           ResourceHandle* handle);

// Elementwise update for AssignAdd/AssignSub and their resource forms.
enum class DenseUpdate { kAdd, kSub };
// Writes `lhs (+|-) rhs` into `out`, element by element; `out` may share lhs's buffer (in-place).
// Integers wrap on overflow; half and bfloat16 compute in float. REQUIRES: lhs, rhs and *out have
// the same dtype and shape. InvalidArgument for dtypes without arithmetic (bool, string).
absl::Status ApplyDenseUpdate(DenseUpdate op, const Tensor& lhs, const Tensor& rhs, Tensor* out);

// Copies the elements of `from` into `to` (memcpy, or string assignment for DT_STRING).
// REQUIRES: same dtype and element count.
void CopyTensorElements(const Tensor& from, Tensor* to);

}  // namespace rill

#endif  // RILL_KERNELS_STATE_VARIABLE_H_
