// TopKV2 on the CPU: the k largest entries of each last-dim row, values and their indices,
// sorted descending; equal values keep the lower index first (as TensorFlow). The `sorted` attr
// is honoured by always sorting. half compares as float.
// NaN compares neither greater nor less than anything, so the order is no strict weak order and
// where NaN lands depends on the algorithm: TensorFlow's CPU kernel sorts a whole row (k ==
// columns, as tf.sort and tf.argsort ask) with std::sort on "b < a" and then puts the indices of
// each run of equal neighbours in increasing order, and takes k < columns through its bounded
// heap (gtl::TopN: the first k + 1 indices made a heap, each later index replacing the bottom
// when it compares greater, sort_heap at the end) on "b < a, else a < b by index"; both are
// followed here step for step (SelectTopK) so a NaN lands where TensorFlow puts it. k == 1
// TensorFlow takes through Eigen's maximum reduction, whose NaN result depends on its vector lanes:
// followed for float (Top1AsEigen); half and double take the heap there, TensorFlow's wherever the
// row holds no NaN. Errors are InvalidArgument with TensorFlow's texts: "k must be 0-D, got shape
// [2]", "Need k >= 0, got -1", "input must be >= 1-D, got shape []", "input must have at least k
// columns. Had 3, needed 4".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_TOPK_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

// k == 1 for float as TensorFlow computes it: Eigen's maximum over the row (8-float vectors over
// the first cols / 8 * 8 elements, where a NaN never enters; the rest one by one as max(x, acc),
// which takes a NaN and drops it at the next number; the two combined as max(acc, vector max),
// so a NaN left at the end wins), then the first index holding that value, 0 when it is NaN.
inline int64_t Top1AsEigen(const float* row, int64_t cols) {
  constexpr int64_t kLanes = 8;
  const int64_t vectorized = cols / kLanes * kLanes;
  float vmax = -std::numeric_limits<float>::infinity();
  for (int64_t c = 0; c < vectorized; ++c) {
    if (row[c] > vmax) vmax = row[c];
  }
  float tail = -std::numeric_limits<float>::infinity();
  for (int64_t c = vectorized; c < cols; ++c) tail = row[c] < tail ? tail : row[c];
  const float max = tail < vmax ? vmax : tail;
  for (int64_t c = 0; c < cols; ++c) {
    if (row[c] == max) return c;
  }
  return 0;
}

// The indices of the k largest of row[0..cols) into `order` (resized to k), in TensorFlow's
// order (see the file comment).
template <typename T>
void SelectTopK(const T* row, int64_t cols, int64_t k, std::vector<int64_t>& order) {
  using cwise_internal::Load;
  order.clear();
  if constexpr (std::is_same_v<T, float>) {
    if (k == 1 && cols > 1) {
      order.push_back(Top1AsEigen(row, cols));
      return;
    }
  }
  if (k == cols) {
    order.resize(cols);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int64_t a, int64_t b) { return Load(row[b]) < Load(row[a]); });
    for (auto run_begin = order.begin(); run_begin != order.end();) {
      auto run_end = run_begin + 1;
      if (run_end == order.end()) break;
      if (Load(row[*run_begin]) == Load(row[*run_end])) {
        while (++run_end != order.end() && Load(row[*run_begin]) == Load(row[*run_end])) {
        }
        std::sort(run_begin, run_end);
      }
      run_begin = run_end;
    }
    return;
  }
  const auto greater = [&](int64_t a, int64_t b) {
    const auto va = Load(row[a]), vb = Load(row[b]);
    if (vb < va) return true;
    if (vb > va) return false;
    return a < b;
  };
  // Bounded heap of k under `greater` (its front the smallest kept): the first k + 1 indices
  // made a heap whose front is dropped; each later index that compares greater than the front
  // replaces it by pop_heap, a write to the freed last slot and push_heap. With NaN (no strict
  // weak order) this sequence is what gives TensorFlow 2.21's indices (600 of 600 random rows
  // with 10-60% NaN, 3-200 columns, 1 < k < columns).
  for (int64_t c = 0; c <= k; ++c) order.push_back(c);
  std::make_heap(order.begin(), order.end(), greater);
  std::pop_heap(order.begin(), order.end(), greater);
  order.pop_back();
  for (int64_t c = k + 1; c < cols; ++c) {
    if (greater(c, order.front())) {
      std::pop_heap(order.begin(), order.end(), greater);
      order.back() = c;
      std::push_heap(order.begin(), order.end(), greater);
    }
  }
  std::sort_heap(order.begin(), order.end(), greater);
}

// TopKV2, and TopK, its older form with k as an attr (TF1 graphs before GraphDef version 7).
class TopKOp final : public OpKernel {
 public:
  explicit TopKOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (ctx.def().op() == "TopK") ctx.SetStatus(ctx.GetAttr("k", &k_attr_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const bool k_input = ctx.num_inputs() > 1;
    if (k_input && ctx.input(1).shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("k must be 0-D, got shape ", ctx.input(1).shape().DebugString()));
    }
    const int64_t k = k_input ? IndexValues(ctx.input(1))[0] : k_attr_;
    if (k < 0) return absl::InvalidArgumentError(absl::StrCat("Need k >= 0, got ", k));
    const TensorShape& shape = in.shape();
    if (shape.rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be >= 1-D, got shape ", shape.DebugString()));
    }
    const int64_t cols = shape.dim(shape.rank() - 1);
    if (cols < k) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must have at least k columns. Had ", cols, ", needed ", k));
    }
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
    dims.back() = k;
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate_output(0, out_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate_output(1, out_shape));
    if (values->NumElements() == 0) return absl::OkStatus();
    const int64_t rows = in.NumElements() / cols;
    return VisitKernelTypes<RILL_TOPK_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      T* v = values->flat<T>().data();
      std::vector<int64_t> order;
      order.reserve(cols + 1);
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * cols;
        SelectTopK(row, cols, k, order);
        for (int64_t j = 0; j < k; ++j) {
          v[r * k + j] = row[order[j]];
          if (indices->dtype() == DT_INT32) {
            indices->flat<int32_t>()[r * k + j] = static_cast<int32_t>(order[j]);
          } else {
            indices->flat<int64_t>()[r * k + j] = order[j];
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t k_attr_ = 0;  // TopK's k
};

REGISTER_KERNEL(
    KernelDefBuilder("TopK").Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<RILL_TOPK_TYPES>()),
    TopKOp);
REGISTER_KERNEL(KernelDefBuilder("TopKV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_TOPK_TYPES>())
                    .TypeConstraint("Tk", {DT_INT32, DT_INT64})
                    .TypeConstraint("index_type", {DT_INT32, DT_INT64})
                    .HostMemory("k"),
                TopKOp);

}  // namespace
}  // namespace rill
