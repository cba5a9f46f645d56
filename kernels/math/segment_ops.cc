// Segment reductions on the CPU. Each reduces rows of `data` (slices along dim 0, or along the
// leading dims the ids cover) into output rows chosen by segment ids (int32 or int64):
//
//   SegmentSum/Mean/Max/Min/Prod(data, segment_ids): ids a vector as long as dim 0, sorted
//     (non-decreasing); the output has last id + 1 rows; rows no id names are 0 (1 for Prod).
//   UnsortedSegmentSum/Max/Min/Prod(data, segment_ids, num_segments): ids of any shape that
//     starts data's shape, in any order; the output is [num_segments] + the rest of data's shape;
//     negative ids are dropped; empty rows are 0, 1, the lowest or the highest value.
//   SparseSegmentSum/Mean/SqrtN(data, indices, segment_ids): row indices[k] of data goes to
//     segment segment_ids[k] (sorted); Mean divides by the count, SqrtN by its square root;
//     empty rows are 0. The *WithNumSegments forms take the row count as input 3.
//
// Integers wrap (Mean divides the wrapped sum, as TensorFlow does); half accumulates in float.
// SegmentSum/Mean/Prod and UnsortedSegmentSum/Prod also take complex64 and complex128.
// Max/Min take a NaN row element where the running value is not strictly greater (smaller), as
// TensorFlow's CPU kernels do. Errors are InvalidArgument with TensorFlow's texts: "segment ids
// are not increasing", "Segment id -1 out of range [0, 2), possibly because 'segment_ids' input is
// not sorted.", "segment ids must be >= 0", "segment_ids should be a vector.", "segment_ids should
// be the same size as dimension 0 of input.", "input must be at least rank 1", "segment_ids[1] = 5
// is out of range [0, 4)", "data.shape = [5,3] does not start with segment_ids.shape = [3]",
// "num_segments should be a scalar, not shape [1]", "Input num_segments == -1 must not be
// negative.", "Bad: indices[1] == 5 out of range [0, 5)", "indices should be a vector.",
// "segment_ids and indices should have same size.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using cwise_internal::Load;
using cwise_internal::Store;

// T's extreme finite values (half's are +-65504).
template <typename T>
T LowestOf() {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(0xfbff);
  } else {
    return std::numeric_limits<T>::lowest();
  }
}
template <typename T>
T HighestOf() {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(0x7bff);
  } else {
    return std::numeric_limits<T>::max();
  }
}

// Reducers over the compute type C: Init<T>() is the start value in storage type T (what an empty
// unsorted segment holds), Combine(acc, x) folds in one element.
struct SumReducer {
  template <typename T>
  static T Init() {
    return Store<T>(0);
  }
  template <typename C>
  static C Combine(C acc, C x) {
    return cwise_math::WrapAdd(acc, x);
  }
};
struct ProdReducer {
  template <typename T>
  static T Init() {
    return Store<T>(1);
  }
  template <typename C>
  static C Combine(C acc, C x) {
    return cwise_math::WrapMul(acc, x);
  }
};
struct MaxReducer {
  template <typename T>
  static T Init() {
    return LowestOf<T>();
  }
  template <typename C>
  static C Combine(C acc, C x) {
    return x < acc ? acc : x;
  }
};
struct MinReducer {
  template <typename T>
  static T Init() {
    return HighestOf<T>();
  }
  template <typename C>
  static C Combine(C acc, C x) {
    return acc < x ? acc : x;
  }
};

// How a sorted segment's combined value is finished: as is, divided by the row count, or by its
// square root.
enum class Finish { kNone, kMean, kSqrtN };

template <typename C>
C FinishValue(C acc, int64_t count, Finish finish) {
  if (finish == Finish::kNone) return acc;
  if constexpr (cwise_math::kIsInt<C>) {
    return static_cast<C>(acc / static_cast<C>(count));  // only Mean takes integers; count > 0
  } else {
    if (finish == Finish::kMean) return acc / static_cast<C>(count);
    return acc / std::sqrt(static_cast<C>(count));
  }
}

// Output rows last + 1 from sorted ids, checked the way TensorFlow walks them: at the end of each
// run of equal ids the next id must be larger, and the run's id must be in [0, rows).
absl::StatusOr<int64_t> SortedSegmentRows(const std::vector<int64_t>& ids) {
  const int64_t n = static_cast<int64_t>(ids.size());
  if (n == 0) return 0;
  if (ids[n - 1] < 0) return absl::InvalidArgumentError("segment ids must be >= 0");
  const int64_t rows = ids[n - 1] + 1;
  for (int64_t start = 0; start < n;) {
    int64_t end = start + 1;
    while (end < n && ids[end] == ids[start]) ++end;
    if (end < n && ids[end] < ids[start]) {
      return absl::InvalidArgumentError("segment ids are not increasing");
    }
    if (ids[start] < 0 || ids[start] >= rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("Segment id ", ids[start], " out of range [0, ", rows,
                       "), possibly because 'segment_ids' input is not sorted."));
    }
    start = end;
  }
  return rows;
}

// The output shape [rows] + dims[from:] of `shape`.
absl::StatusOr<TensorShape> SegmentOutputShape(int64_t rows, const TensorShape& shape, int from) {
  std::vector<int64_t> dims = {rows};
  for (int d = from; d < shape.rank(); ++d) dims.push_back(shape.dim(d));
  return TensorShape::FromDims(dims);
}

// Reduces data row picked[k] (row k when `picked` is null) into output row ids[k], for sorted ids
// already checked by SortedSegmentRows; rows no id names get `gap`.
template <typename R, typename T>
void SortedSegmentReduce(const T* data, const std::vector<int64_t>& ids,
                         const std::vector<int64_t>* picked, int64_t rows, int64_t inner,
                         Finish finish, T gap, T* out) {
  using C = typename CwiseComputeType<T>::type;
  const int64_t n = static_cast<int64_t>(ids.size());
  const C init = Load(R::template Init<T>());
  std::vector<C> acc(static_cast<size_t>(inner));
  int64_t next_row = 0;  // output rows before this one are written
  for (int64_t start = 0; start < n;) {
    int64_t end = start + 1;
    while (end < n && ids[end] == ids[start]) ++end;
    const int64_t row = ids[start];
    for (; next_row < row; ++next_row) {
      for (int64_t j = 0; j < inner; ++j) out[next_row * inner + j] = gap;
    }
    std::fill(acc.begin(), acc.end(), init);
    for (int64_t k = start; k < end; ++k) {
      const T* src = data + (picked ? (*picked)[k] : k) * inner;
      for (int64_t j = 0; j < inner; ++j) acc[j] = R::Combine(acc[j], Load(src[j]));
    }
    for (int64_t j = 0; j < inner; ++j) {
      out[row * inner + j] = Store<T>(FinishValue<C>(acc[j], end - start, finish));
    }
    next_row = row + 1;
    start = end;
  }
  for (; next_row < rows; ++next_row) {
    for (int64_t j = 0; j < inner; ++j) out[next_row * inner + j] = gap;
  }
}

template <typename R, Finish kFinish, typename... Ts>
class SegmentReductionOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& data = ctx.input(0);
    const Tensor& ids_t = ctx.input(1);
    if (data.shape().rank() < 1) {
      return absl::InvalidArgumentError("input must be at least rank 1");
    }
    if (ids_t.shape().rank() != 1) {
      return absl::InvalidArgumentError("segment_ids should be a vector.");
    }
    if (ids_t.NumElements() != data.shape().dim(0)) {
      return absl::InvalidArgumentError(
          "segment_ids should be the same size as dimension 0 of input.");
    }
    const std::vector<int64_t> ids = IndexValues(ids_t);
    RILL_ASSIGN_OR_RETURN(const int64_t rows, SortedSegmentRows(ids));
    RILL_ASSIGN_OR_RETURN(TensorShape shape, SegmentOutputShape(rows, data.shape(), 1));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t inner = rows > 0 ? shape.num_elements() / rows : 0;
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<Ts...>(*this, data.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T gap = std::is_same_v<R, ProdReducer> ? Store<T>(1) : Store<T>(0);
      SortedSegmentReduce<R, T>(data.flat<T>().data(), ids, nullptr, rows, inner, kFinish, gap,
                                out->flat<T>().data());
      return absl::OkStatus();
    });
  }
};

template <typename R, typename... Ts>
class UnsortedSegmentReductionOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& data = ctx.input(0);
    const Tensor& ids_t = ctx.input(1);
    const Tensor& num_t = ctx.input(2);
    if (num_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("num_segments should be a scalar, not shape ", num_t.shape().DebugString()));
    }
    const TensorShape& dshape = data.shape();
    const TensorShape& ishape = ids_t.shape();
    bool prefix = ishape.rank() <= dshape.rank();
    for (int d = 0; prefix && d < ishape.rank(); ++d) prefix = ishape.dim(d) == dshape.dim(d);
    if (!prefix) {
      return absl::InvalidArgumentError(
          absl::StrCat("data.shape = ", dshape.DebugString(),
                       " does not start with segment_ids.shape = ", ishape.DebugString()));
    }
    const int64_t num = IndexValues(num_t)[0];
    if (num < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input num_segments == ", num, " must not be negative."));
    }
    const std::vector<int64_t> ids = IndexValues(ids_t);
    for (size_t k = 0; k < ids.size(); ++k) {
      if (ids[k] >= num) {
        return absl::InvalidArgumentError(
            absl::StrCat("segment_ids[", k, "] = ", ids[k], " is out of range [0, ", num, ")"));
      }
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, SegmentOutputShape(num, dshape, ishape.rank()));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t inner = shape.num_elements() / num;
    return VisitKernelTypes<Ts...>(*this, data.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = typename CwiseComputeType<T>::type;
      T* z = out->flat<T>().data();
      const T* x = data.flat<T>().data();
      const int64_t n = out->NumElements();
      // Accumulates in C: in the output itself, or for half in a float copy stored once at the
      // end, so a half sum rounds once.
      std::vector<C> wide;
      C* acc;
      if constexpr (std::is_same_v<C, T>) {
        acc = z;
      } else {
        wide.resize(static_cast<size_t>(n));
        acc = wide.data();
      }
      std::fill(acc, acc + n, Load(R::template Init<T>()));
      for (size_t k = 0; k < ids.size(); ++k) {
        if (ids[k] < 0) continue;  // dropped, as in TensorFlow
        C* dst = acc + ids[k] * inner;
        const T* src = x + static_cast<int64_t>(k) * inner;
        for (int64_t j = 0; j < inner; ++j) dst[j] = R::Combine(dst[j], Load(src[j]));
      }
      if constexpr (!std::is_same_v<C, T>) {
        for (int64_t i = 0; i < n; ++i) z[i] = Store<T>(acc[i]);
      }
      return absl::OkStatus();
    });
  }
};

// kWithNum: the *WithNumSegments forms, whose input 3 (a scalar) gives the output's row count;
// ids must stay below it.
template <Finish kFinish, bool kWithNum, typename... Ts>
class SparseSegmentReductionOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& data = ctx.input(0);
    const Tensor& indices_t = ctx.input(1);
    const Tensor& ids_t = ctx.input(2);
    if (indices_t.shape().rank() != 1) {
      return absl::InvalidArgumentError("indices should be a vector.");
    }
    if (ids_t.shape().rank() != 1) {
      return absl::InvalidArgumentError("segment_ids should be a vector.");
    }
    if (indices_t.NumElements() != ids_t.NumElements()) {
      return absl::InvalidArgumentError("segment_ids and indices should have same size.");
    }
    if (data.shape().rank() < 1) {
      return absl::InvalidArgumentError("input must be at least rank 1");
    }
    const std::vector<int64_t> ids = IndexValues(ids_t);
    const std::vector<int64_t> indices = IndexValues(indices_t);
    RILL_ASSIGN_OR_RETURN(int64_t rows, SortedSegmentRows(ids));
    if constexpr (kWithNum) {
      const Tensor& num_t = ctx.input(3);
      if (num_t.shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "num_segments should be a scalar, not shape ", num_t.shape().DebugString()));
      }
      const int64_t num = IndexValues(num_t)[0];
      if (num < 0) return absl::InvalidArgumentError("segment ids must be >= 0");
      if (rows > num) return absl::InvalidArgumentError("segment ids must be < num_segments");
      rows = num;
    }
    const int64_t data_rows = data.shape().dim(0);
    for (size_t k = 0; k < indices.size(); ++k) {
      if (indices[k] < 0 || indices[k] >= data_rows) {
        return absl::InvalidArgumentError(absl::StrCat("Bad: indices[", k, "] == ", indices[k],
                                                       " out of range [0, ", data_rows, ")"));
      }
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, SegmentOutputShape(rows, data.shape(), 1));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t inner = shape.num_elements() / rows;
    return VisitKernelTypes<Ts...>(*this, data.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      SortedSegmentReduce<SumReducer, T>(data.flat<T>().data(), ids, &indices, rows, inner, kFinish,
                                         Store<T>(0), out->flat<T>().data());
      return absl::OkStatus();
    });
  }
};

#define RILL_SEGMENT_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t
#define RILL_SEGMENT_FLOATS half, float, double

const std::vector<DataType>& IndexTypes() {
  static const auto* types = new std::vector<DataType>{DT_INT32, DT_INT64};
  return *types;
}

#define REGISTER_SEGMENT(op, Reducer, finish, ...)                     \
  REGISTER_KERNEL(KernelDefBuilder(op)                                 \
                      .Device(kDeviceCpu)                              \
                      .TypeConstraint("T", DataTypesOf<__VA_ARGS__>()) \
                      .TypeConstraint("Tindices", IndexTypes()),       \
                  SegmentReductionOp<Reducer, finish, __VA_ARGS__>)

// Sum, Mean and Prod also take complex64 and complex128, as TensorFlow's CPU kernels do.
REGISTER_SEGMENT("SegmentSum", SumReducer, Finish::kNone, RILL_SEGMENT_TYPES, complex64,
                 complex128);
REGISTER_SEGMENT("SegmentMean", SumReducer, Finish::kMean, RILL_SEGMENT_TYPES, complex64,
                 complex128);
REGISTER_SEGMENT("SegmentProd", ProdReducer, Finish::kNone, RILL_SEGMENT_TYPES, complex64,
                 complex128);
REGISTER_SEGMENT("SegmentMax", MaxReducer, Finish::kNone, RILL_SEGMENT_TYPES);
REGISTER_SEGMENT("SegmentMin", MinReducer, Finish::kNone, RILL_SEGMENT_TYPES);

#define REGISTER_UNSORTED_SEGMENT(op, Reducer, ...)                    \
  REGISTER_KERNEL(KernelDefBuilder(op)                                 \
                      .Device(kDeviceCpu)                              \
                      .TypeConstraint("T", DataTypesOf<__VA_ARGS__>()) \
                      .TypeConstraint("Tindices", IndexTypes())        \
                      .TypeConstraint("Tnumsegments", IndexTypes()),   \
                  UnsortedSegmentReductionOp<Reducer, __VA_ARGS__>)

REGISTER_UNSORTED_SEGMENT("UnsortedSegmentSum", SumReducer, RILL_SEGMENT_TYPES, complex64,
                          complex128);
REGISTER_UNSORTED_SEGMENT("UnsortedSegmentProd", ProdReducer, RILL_SEGMENT_TYPES, complex64,
                          complex128);
REGISTER_UNSORTED_SEGMENT("UnsortedSegmentMax", MaxReducer, RILL_SEGMENT_TYPES);
REGISTER_UNSORTED_SEGMENT("UnsortedSegmentMin", MinReducer, RILL_SEGMENT_TYPES);

#define REGISTER_SPARSE_SEGMENT(op, finish, ...)                       \
  REGISTER_KERNEL(KernelDefBuilder(op)                                 \
                      .Device(kDeviceCpu)                              \
                      .TypeConstraint("T", DataTypesOf<__VA_ARGS__>()) \
                      .TypeConstraint("Tidx", IndexTypes())            \
                      .TypeConstraint("Tsegmentids", IndexTypes()),    \
                  SparseSegmentReductionOp<finish, false, __VA_ARGS__>)

REGISTER_SPARSE_SEGMENT("SparseSegmentSum", Finish::kNone, RILL_SEGMENT_TYPES);
REGISTER_SPARSE_SEGMENT("SparseSegmentMean", Finish::kMean, RILL_SEGMENT_FLOATS);
REGISTER_SPARSE_SEGMENT("SparseSegmentSqrtN", Finish::kSqrtN, RILL_SEGMENT_FLOATS);

#define REGISTER_SPARSE_SEGMENT_NUM(op, finish, ...)                   \
  REGISTER_KERNEL(KernelDefBuilder(op)                                 \
                      .Device(kDeviceCpu)                              \
                      .TypeConstraint("T", DataTypesOf<__VA_ARGS__>()) \
                      .TypeConstraint("Tidx", IndexTypes())            \
                      .TypeConstraint("Tnumsegments", IndexTypes())    \
                      .TypeConstraint("Tsegmentids", IndexTypes()),    \
                  SparseSegmentReductionOp<finish, true, __VA_ARGS__>)

REGISTER_SPARSE_SEGMENT_NUM("SparseSegmentSumWithNumSegments", Finish::kNone, RILL_SEGMENT_TYPES);
REGISTER_SPARSE_SEGMENT_NUM("SparseSegmentMeanWithNumSegments", Finish::kMean, RILL_SEGMENT_FLOATS);
REGISTER_SPARSE_SEGMENT_NUM("SparseSegmentSqrtNWithNumSegments", Finish::kSqrtN,
                            RILL_SEGMENT_FLOATS);

}  // namespace
}  // namespace rill
