// CUDA kernels of the ops with bool results: Less, LessEqual, Greater, GreaterEqual, Equal,
// NotEqual (float, double, int64; NumPy broadcasting) and IsNan (float, double). Shapes are checked
// on the host with the CPU kernels' error ("Incompatible shapes: [2,3] vs. [4]"); Equal/NotEqual
// with incompatible_shape_error=false give the CPU kernel's scalar false/true for operands that do
// not broadcast. One launch each. int32 comparisons run the CPU kernels in host memory, as
// TensorFlow keeps int32 there.
//
// LogicalAnd, LogicalOr and LogicalNot on a GPU run the CPU kernels with their bools in host
// memory: the bools they combine are mostly int32 comparisons' (a while loop's condition, masks of
// token ids), which are on the host, and a loop's condition reaches LoopCond (host memory) with no
// copy, so a TF1 loop stays in the GPU's partition (Rill's executor runs no transfer inside a loop)
// and no iteration waits for the GPU. A GPU comparison's device bool reaches them through a copy.
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "kernels/gpu/broadcast_index.h"
#include "kernels/gpu/copy_launchers.h"
#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using gpu_kernels::CompareFn;

// The output shape of a broadcasting op over inputs 0 and 1, and the index when they differ.
// `incompatible` (0 or 1) answers operands that do not broadcast with that scalar (Equal and
// NotEqual with incompatible_shape_error=false); -1 keeps the error.
class BroadcastBoolGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;

 protected:
  // Returns the output (or null when already answered) and sets *index when broadcasting.
  absl::StatusOr<Tensor*> Prepare(OpKernelContext& ctx, int incompatible,
                                  gpu_kernels::BroadcastIndex* index, bool* broadcast) const {
    const TensorShape& a = ctx.input(0).shape();
    const TensorShape& b = ctx.input(1).shape();
    *broadcast = a != b;
    if (!*broadcast) return ctx.allocate_output(0, a);
    absl::StatusOr<TensorShape> shape = BroadcastShapes(a, b);
    if (!shape.ok()) {
      if (incompatible < 0) return shape.status();
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape()));
      const bool value = incompatible != 0;
      gpu_kernels::LaunchFillBytes(out->raw_data(), &value, 1, 1, stream());
      RILL_RETURN_IF_ERROR(Launched());
      return nullptr;
    }
    RILL_ASSIGN_OR_RETURN(*index, gpu_broadcast::MakeBroadcastIndex(a, b, *shape));
    return ctx.allocate_output(0, *shape);
  }
};

template <CompareFn kFn>
class CompareGpuOp final : public BroadcastBoolGpuOp {
 public:
  explicit CompareGpuOp(OpKernelConstruction& ctx) : BroadcastBoolGpuOp(ctx) {
    if (kFn == CompareFn::kEqual || kFn == CompareFn::kNotEqual) {
      bool error = true;
      ctx.SetStatus(ctx.GetAttr("incompatible_shape_error", &error));
      if (!error) incompatible_ = kFn == CompareFn::kEqual ? 0 : 1;
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    gpu_kernels::BroadcastIndex index;
    bool broadcast = false;
    RILL_ASSIGN_OR_RETURN(Tensor * out, Prepare(ctx, incompatible_, &index, &broadcast));
    if (out == nullptr || out->NumElements() == 0) return absl::OkStatus();
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    const int64_t n = out->NumElements();
    bool* z = out->flat<bool>().data();
    const gpu_kernels::BroadcastIndex* ix = broadcast ? &index : nullptr;
    if (x.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchCompare<double>(kFn, x.flat<double>().data(), y.flat<double>().data(), z,
                                         n, ix, stream());
    } else if (x.dtype() == DT_INT64) {
      gpu_kernels::LaunchCompare<int64_t>(kFn, x.flat<int64_t>().data(), y.flat<int64_t>().data(),
                                          z, n, ix, stream());
    } else {
      gpu_kernels::LaunchCompare<float>(kFn, x.flat<float>().data(), y.flat<float>().data(), z, n,
                                        ix, stream());
    }
    return Launched();
  }

 private:
  int incompatible_ = -1;
};

class IsNanGpuOp final : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    if (x.dtype() == DT_DOUBLE) {
      gpu_kernels::LaunchIsNan<double>(x.flat<double>().data(), out->flat<bool>().data(),
                                       x.NumElements(), stream());
    } else {
      gpu_kernels::LaunchIsNan<float>(x.flat<float>().data(), out->flat<bool>().data(),
                                      x.NumElements(), stream());
    }
    return Launched();
  }
};

const std::vector<DataType> kCompareTypes = {DT_FLOAT, DT_DOUBLE, DT_INT64};

#define RILL_GPU_COMPARE(op, fn)                                               \
  REGISTER_GPU_KERNEL(KernelDefBuilder(op).TypeConstraint("T", kCompareTypes), \
                      CompareGpuOp<CompareFn::fn>)
RILL_GPU_COMPARE("Less", kLess);
RILL_GPU_COMPARE("LessEqual", kLessEqual);
RILL_GPU_COMPARE("Greater", kGreater);
RILL_GPU_COMPARE("GreaterEqual", kGreaterEqual);
RILL_GPU_COMPARE("Equal", kEqual);
RILL_GPU_COMPARE("NotEqual", kNotEqual);
#undef RILL_GPU_COMPARE

struct LogicalAndFunctor : CwiseFunctorBase {
  bool operator()(bool x, bool y) const { return x && y; }
};
struct LogicalOrFunctor : CwiseFunctorBase {
  bool operator()(bool x, bool y) const { return x || y; }
};
struct LogicalNotFunctor : CwiseFunctorBase {
  bool operator()(bool x) const { return !x; }
};
REGISTER_GPU_KERNEL(KernelDefBuilder("LogicalAnd").HostMemory("x").HostMemory("y").HostMemory("z"),
                    BinaryOp<LogicalAndFunctor, bool>);
REGISTER_GPU_KERNEL(KernelDefBuilder("LogicalOr").HostMemory("x").HostMemory("y").HostMemory("z"),
                    BinaryOp<LogicalOrFunctor, bool>);
REGISTER_GPU_KERNEL(KernelDefBuilder("LogicalNot").HostMemory("x").HostMemory("y"),
                    UnaryOp<LogicalNotFunctor, bool>);
REGISTER_GPU_KERNEL(KernelDefBuilder("IsNan").TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                    IsNanGpuOp);

}  // namespace
}  // namespace rill
