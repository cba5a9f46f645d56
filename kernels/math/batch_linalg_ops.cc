// The Batch* linear-algebra ops of old TF1 graphs (ops/batch_linalg_ops.cc) on the CPU: each
// builds the kernel of its modern op (BatchMatrixInverse -> MatrixInverse, ...) for the same
// node with the op renamed, and runs it, so both names give the same numbers and errors, and
// this file stays small (the heavy Eigen code compiles once, in linalg_ops.cc and its
// neighbours). float and double, as TensorFlow registers them.
//
// Immutable after construction; Compute is thread-safe when the modern kernel's is.
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// The modern name of each Batch* op.
const char* ModernName(const std::string& op) {
  if (op == "BatchMatrixDeterminant") return "MatrixDeterminant";
  if (op == "BatchMatrixInverse") return "MatrixInverse";
  if (op == "BatchMatrixSolve") return "MatrixSolve";
  if (op == "BatchMatrixTriangularSolve") return "MatrixTriangularSolve";
  if (op == "BatchCholesky") return "Cholesky";
  if (op == "BatchSelfAdjointEigV2") return "SelfAdjointEigV2";
  if (op == "BatchMatrixSolveLs") return "MatrixSolveLs";
  return nullptr;
}

class BatchLinalgOp final : public OpKernel {
 public:
  explicit BatchLinalgOp(OpKernelConstruction& ctx) : OpKernel(ctx), node_(ctx.def()) {
    const char* modern = ModernName(node_.op());
    const OpRegistration* reg = modern ? OpRegistry::Global()->LookUp(modern) : nullptr;
    if (reg == nullptr) {
      ctx.SetStatus(absl::InternalError(absl::StrCat("no modern op for ", node_.op())));
      return;
    }
    node_.set_op(modern);
    absl::StatusOr<std::unique_ptr<OpKernel>> kernel =
        KernelRegistry::Global()->CreateKernel(node_, reg->op_def, ctx.device());
    if (!kernel.ok()) {
      ctx.SetStatus(kernel.status());
      return;
    }
    modern_ = *std::move(kernel);
  }

  absl::Status Compute(OpKernelContext& ctx) const override { return modern_->Compute(ctx); }
  bool IsExpensive() const override { return modern_ == nullptr || modern_->IsExpensive(); }

 private:
  NodeDef node_;                      // the node with its modern op name
  std::unique_ptr<OpKernel> modern_;  // the modern op's kernel for it
};

#define RILL_BATCH_LINALG_KERNEL(name)                                                      \
  REGISTER_KERNEL(                                                                          \
      KernelDefBuilder(name).Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}), \
      BatchLinalgOp)

RILL_BATCH_LINALG_KERNEL("BatchMatrixDeterminant");
RILL_BATCH_LINALG_KERNEL("BatchMatrixInverse");
RILL_BATCH_LINALG_KERNEL("BatchMatrixSolve");
RILL_BATCH_LINALG_KERNEL("BatchMatrixTriangularSolve");
RILL_BATCH_LINALG_KERNEL("BatchCholesky");
RILL_BATCH_LINALG_KERNEL("BatchSelfAdjointEigV2");
RILL_BATCH_LINALG_KERNEL("BatchMatrixSolveLs");

}  // namespace
}  // namespace rill
