// TF1 TensorArray kernels on the CPU (ops/tensor_array_ops.cc): TensorArrayV3 and its Write, Read,
// Gather, Scatter, Concat, Split, Size, Close and Grad ops, and the V2 and V1 names of older graphs
// (the same kernels; their handles are TensorFlow's string vectors [container, name], which V1's
// TensorArray and TensorArrayGrad output as refs to a tensor the array holds; V1's Pack and
// Unpack are Gather and Scatter over every index). A TensorArray is
// a resource of the step (OpKernelContext::step_resources, dropped when the run ends), addressed by
// a handle tensor "_tensor_arrays/<node>:<n>" (Rill's resource handles are scalar strings,
// kernels/state/variable.h). Elements are written once and, with clear_after_read, read once; an
// unwritten element reads as zeros when the element shape is fully known (only with
// identical_element_shapes does the first write fix it, as in TensorFlow). The flow tensors only
// order the ops; they carry 0. Errors are TensorFlow's texts (InvalidArgument): "Tried to write
// to index 3 but array is not resizeable and size is: 3", "Could not write to TensorArray index
// 0 because it has already been written to.", "Could not read index 0 twice because it was
// cleared after a previous read (perhaps try setting clear_after_read = false?)", "TensorArray
// dtype is float but Op is trying to write dtype int32.", and after TensorArrayCloseV3 "TensorArray
// <name> has already been closed." for every op but another Close. Thread-safe: each array has a
// mutex.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/partial_tensor_shape.h"
#include "core/resource_mgr.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/lists/resize_elements.h"
#include "kernels/lists/step_resource.h"

namespace rill {
namespace {

constexpr char kContainer[] = "_tensor_arrays";

class TensorArray final : public ResourceBase {
 public:
  struct Element {
    Tensor value;
    bool written = false;
    bool cleared = false;
  };
  TensorArray(DataType dtype, PartialTensorShape element_shape, int64_t size, bool dynamic_size,
              bool clear_after_read, bool identical_shapes, bool aggregate_writes = false)
      : dtype_(dtype),
        aggregate_writes_(aggregate_writes),
        dynamic_size_(dynamic_size),
        clear_after_read_(clear_after_read),
        identical_shapes_(identical_shapes),
        element_shape_(std::move(element_shape)),
        size_(size) {}

  // Makes the array's `size` initial elements (from the constructor): ResourceExhausted when the
  // host cannot hold them. Call once, before the array is shared.
  absl::Status Init() {
    rill::MutexLock lock(&mu_);
    return ResizeElements(&elements_, size_, "a TensorArray");
  }

  std::string DebugString() const override { return "TensorArray"; }

  absl::Status Write(int64_t index, const Tensor& value) {
    rill::MutexLock lock(&mu_);
    if (value.dtype() != dtype_) {
      return absl::InvalidArgumentError(
          absl::StrCat("TensorArray dtype is ", DataTypeString(dtype_),
                       " but Op is trying to write dtype ", DataTypeString(value.dtype()), "."));
    }
    const int64_t size = static_cast<int64_t>(elements_.size());
    if (index < 0 || (index >= size && !dynamic_size_)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tried to write to index ", index, " but array is not resizeable and size is: ", size));
    }
    if (index >= size) RILL_RETURN_IF_ERROR(ResizeElements(&elements_, index + 1, "a TensorArray"));
    Element& e = elements_[index];
    if (e.written && aggregate_writes_ && !e.cleared) return AddInto(index, &e.value, value);
    if (e.written) {
      return absl::InvalidArgumentError(absl::StrCat("Could not write to TensorArray index ", index,
                                                     " because it has already been ",
                                                     e.cleared ? "read." : "written to."));
    }
    if (!element_shape_.IsCompatibleWith(value.shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Could not write to TensorArray index ", index,
                       " because the value shape is ", value.shape().DebugString(),
                       " which is incompatible with the TensorArray's inferred "
                       "element shape: ",
                       element_shape_.DebugString(), " (consider setting infer_shape=False)."));
    }
    if (identical_shapes_ && !element_shape_.IsFullyDefined()) {  // TensorFlow's rule
      element_shape_ = PartialTensorShape(
          std::vector<int64_t>(value.shape().dims().begin(), value.shape().dims().end()));
    }
    e.value = value;
    e.written = true;
    return absl::OkStatus();
  }

  absl::StatusOr<Tensor> Read(OpKernelContext& ctx, int64_t index, DataType dtype) {
    rill::MutexLock lock(&mu_);
    if (dtype != dtype_) {
      return absl::InvalidArgumentError(
          absl::StrCat("TensorArray dtype is ", DataTypeString(dtype_), " but Op requested dtype ",
                       DataTypeString(dtype), "."));
    }
    const int64_t size = static_cast<int64_t>(elements_.size());
    if (index < 0 || index >= size) {
      return absl::InvalidArgumentError(
          absl::StrCat("Tried to read from index ", index, " but array size is: ", size));
    }
    Element& e = elements_[index];
    if (e.cleared) {
      return absl::InvalidArgumentError(
          absl::StrCat("Could not read index ", index,
                       " twice because it was cleared after a previous read "
                       "(perhaps try setting clear_after_read = false?)"));
    }
    Tensor out;
    if (e.written) {
      out = e.value;
    } else {
      if (!element_shape_.IsFullyDefined()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Could not read from TensorArray index ", index,
            ".  Furthermore, the element shape is not fully defined: ",
            element_shape_.DebugString(),
            ".  It is possible you are working with a resizeable TensorArray and stop_gradients "
            "is not allowing the gradients to be written.  If you set the full element_shape "
            "property on the forward TensorArray, the proper all-zeros tensor will be returned "
            "instead of incurring this error."));
      }
      RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(element_shape_.dims()));
      RILL_ASSIGN_OR_RETURN(out, Tensor::Allocate(ctx.device()->allocator(), dtype_, shape));
    }
    if (clear_after_read_ && e.written) {
      e.value = Tensor();
      e.cleared = true;
    }
    return out;
  }

  int64_t Size() {
    rill::MutexLock lock(&mu_);
    return static_cast<int64_t>(elements_.size());
  }
  PartialTensorShape ElementShape() {
    rill::MutexLock lock(&mu_);
    return element_shape_;
  }
  DataType dtype() const { return dtype_; }

  // TensorArrayCloseV3: drops the elements; every later use of the array except another Close is
  // refused (TensorFlow's ClearAndMarkClosed).
  void Close() {
    rill::MutexLock lock(&mu_);
    closed_ = true;
    elements_.clear();
  }
  bool closed() {
    rill::MutexLock lock(&mu_);
    return closed_;
  }
  bool dynamic_size() const { return dynamic_size_; }

  // The V1 ops' ref handle: a string vector [container, name] this array holds for as long as it
  // lives (the step), set once before the array is shared and never written after.
  void SetRefHandle(Tensor handle) { ref_handle_ = std::move(handle); }
  Tensor* ref_handle() { return &ref_handle_; }
  rill::SharedMutex* ref_handle_mu() { return &ref_handle_mu_; }

 private:
  // A gradient array's second write to an element adds to it (a fresh tensor: the first value
  // may be shared with its writer).
  absl::Status AddInto(int64_t index, Tensor* sum, const Tensor& value) {
    if (sum->shape() != value.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Could not aggregate to TensorArray index ", index, " because the existing shape is ",
          sum->shape().DebugString(), " but the new input shape is ", value.shape().DebugString()));
    }
    Tensor out = Tensor(sum->dtype(), sum->shape());
    auto add = [&](auto tag) {
      using T = decltype(tag);
      const T* a = sum->flat<T>().data();
      const T* b = value.flat<T>().data();
      T* o = out.flat<T>().data();
      for (int64_t i = 0; i < value.NumElements(); ++i) o[i] = a[i] + b[i];
    };
    if (dtype_ == DT_FLOAT) {
      add(float());
    } else if (dtype_ == DT_DOUBLE) {
      add(double());
    } else {
      return absl::UnimplementedError(absl::StrCat("Gradient TensorArrays of dtype ",
                                                   DataTypeString(dtype_),
                                                   " do not add up writes; use float or double"));
    }
    *sum = std::move(out);
    return absl::OkStatus();
  }

  const DataType dtype_;
  const bool aggregate_writes_;
  const bool dynamic_size_;
  const bool clear_after_read_;
  const bool identical_shapes_;
  rill::Mutex mu_;
  PartialTensorShape element_shape_ ABSL_GUARDED_BY(mu_);
  std::vector<Element> elements_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  const int64_t size_;  // the initial size, made by Init()
  Tensor ref_handle_;
  rill::SharedMutex ref_handle_mu_;
};

// The address input 0 names: the V3 ops' resource handle (a scalar string "<container>/<name>")
// or the V2 ops' string vector [container, name].
absl::StatusOr<ResourceHandle> ArrayHandle(const Tensor& t) {
  if (t.dtype() == DT_STRING && t.shape().rank() == 1 && t.NumElements() == 2) {
    return ResourceHandle{t.flat<std::string>()[0], t.flat<std::string>()[1]};
  }
  return ResourceHandleFromTensor(t);
}

// The handle output of TensorArrayV3 / TensorArrayGradV3 (a resource), or of their V2 and V1
// forms (TensorFlow's string vector [container, name]).
Tensor ArrayHandleTensor(bool string_handle, const std::string& name) {
  if (!string_handle) return MakeResourceHandleTensor(kContainer, name);
  Tensor t(DT_STRING, TensorShape({2}));
  t.flat<std::string>()[0] = kContainer;
  t.flat<std::string>()[1] = name;
  return t;
}

// Whether `op` is one of the V2 or V1 names, whose handles are string vectors and whose creation
// ops output no flow.
bool IsStringHandle(const std::string& op) { return !absl::EndsWith(op, "V3"); }
// Whether `op` is a V1 creation op, whose handle output is a ref.
bool IsRefHandle(const std::string& op) { return op == "TensorArray" || op == "TensorArrayGrad"; }

// Sets output 0 of a creation op: `ta`'s handle as `op`'s version spells it.
void SetHandleOutput(OpKernelContext& ctx, const std::string& op, TensorArray* ta,
                     const std::string& name) {
  if (IsRefHandle(op)) {
    ctx.set_output_ref(0, ta->ref_handle_mu(), ta->ref_handle());
  } else {
    ctx.set_output(0, ArrayHandleTensor(IsStringHandle(op), name));
  }
}

// The array behind input 0 (NotFound as step_resource.h's LookupStepResource words it).
absl::StatusOr<std::shared_ptr<TensorArray>> FindArray(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(ResourceMgr * step, StepResources(ctx));
  RILL_ASSIGN_OR_RETURN(ResourceHandle h, ArrayHandle(ctx.input(0)));
  absl::StatusOr<std::shared_ptr<TensorArray>> found =
      step->Lookup<TensorArray>(h.container, h.name);
  if (!found.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "TensorArray ", h.name,
        " does not exist in this step (TensorArrays live for one run; it may have been closed, "
        "or its handle fed from another run)"));
  }
  return found;
}

// The array behind input 0, which must not have been closed (TensorFlow's LockedReturnIfClosed:
// InvalidArgument "TensorArray <name> has already been closed.").
absl::StatusOr<std::shared_ptr<TensorArray>> LookupArray(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, FindArray(ctx));
  if (ta->closed()) {
    RILL_ASSIGN_OR_RETURN(ResourceHandle h, ArrayHandle(ctx.input(0)));
    return absl::InvalidArgumentError(
        absl::StrCat("TensorArray ", h.name, " has already been closed."));
  }
  return ta;
}

absl::StatusOr<std::vector<int64_t>> Indices(const Tensor& t) {
  if (t.dtype() != DT_INT32 || t.shape().rank() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices must be an int32 scalar or vector, got ", t.shape().DebugString()));
  }
  std::vector<int64_t> out;
  for (int32_t i : t.flat<int32_t>()) out.push_back(i);
  return out;
}

class TensorArrayOp final : public OpKernel {
 public:
  explicit TensorArrayOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    TensorShapeProto shape;
    absl::Status s = ctx.GetAttr("dtype", &dtype_);
    if (s.ok()) s = ctx.GetAttr("element_shape", &shape);
    if (s.ok()) s = ctx.GetAttr("dynamic_size", &dynamic_size_);
    if (s.ok()) s = ctx.GetAttr("clear_after_read", &clear_after_read_);
    if (s.ok() && !string_handle_) {
      s = ctx.GetAttr("identical_element_shapes", &identical_shapes_);
    }
    if (s.ok()) {
      absl::StatusOr<PartialTensorShape> p = PartialTensorShape::FromProto(shape);
      if (p.ok()) element_shape_ = *std::move(p);
      s = p.status();
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& size = ctx.input(0);
    if (size.dtype() != DT_INT32 || size.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "TensorArray size must be scalar, but had shape: ", size.shape().DebugString()));
    }
    const int32_t n = size.flat<int32_t>()[0];
    if (n < 0) {
      return absl::InvalidArgumentError(absl::StrCat("Size should be >= 0."));
    }
    static std::atomic<int64_t> counter{0};
    const std::string array_name = absl::StrCat(name(), ":", counter.fetch_add(1));
    auto ta = std::make_shared<TensorArray>(dtype_, element_shape_, n, dynamic_size_,
                                            clear_after_read_, identical_shapes_);
    RILL_RETURN_IF_ERROR(ta->Init());
    ta->SetRefHandle(ArrayHandleTensor(true, array_name));
    RILL_RETURN_IF_ERROR(CreateStepResource(ctx, kContainer, array_name, ta).status());
    SetHandleOutput(ctx, type_string(), ta.get(), array_name);
    if (!string_handle_) ctx.set_output(1, Tensor::Scalar<float>(0.f));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  const bool string_handle_ = IsStringHandle(type_string());
  DataType dtype_ = DT_INVALID;
  PartialTensorShape element_shape_;
  bool dynamic_size_ = false;
  bool clear_after_read_ = true;
  bool identical_shapes_ = false;
};

class WriteOp final : public OpKernel {
 public:
  explicit WriteOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    RILL_ASSIGN_OR_RETURN(std::vector<int64_t> index, Indices(ctx.input(1)));
    if (index.size() != 1 || ctx.input(1).shape().rank() != 0) {
      return absl::InvalidArgumentError("TensorArray index must be scalar");
    }
    RILL_RETURN_IF_ERROR(ta->Write(index[0], ctx.input(2)));
    ctx.set_output(0, ctx.input(3));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class ReadOp final : public OpKernel {
 public:
  explicit ReadOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    RILL_ASSIGN_OR_RETURN(std::vector<int64_t> index, Indices(ctx.input(1)));
    if (index.size() != 1 || ctx.input(1).shape().rank() != 0) {
      return absl::InvalidArgumentError("TensorArray index must be scalar");
    }
    RILL_ASSIGN_OR_RETURN(Tensor value, ta->Read(ctx, index[0], dtype_));
    ctx.set_output(0, std::move(value));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
};

// Stacks the elements at `indices` (TensorArrayGatherV3 and, with every index, Stack), or every
// element (V1's TensorArrayPack, which has no indices input).
class GatherOp final : public OpKernel {
 public:
  explicit GatherOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    TensorShapeProto shape;
    absl::Status s = ctx.GetAttr("dtype", &dtype_);
    if (s.ok()) s = ctx.GetAttr("element_shape", &shape);
    if (s.ok()) {
      absl::StatusOr<PartialTensorShape> p = PartialTensorShape::FromProto(shape);
      if (p.ok()) element_shape_ = *std::move(p);
      s = p.status();
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    std::vector<int64_t> indices;
    if (pack_) {
      indices.resize(ta->Size());
      for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<int64_t>(i);
    } else {
      RILL_ASSIGN_OR_RETURN(indices, Indices(ctx.input(1)));
    }
    std::vector<Tensor> values;
    for (int64_t i : indices) {
      RILL_ASSIGN_OR_RETURN(Tensor v, ta->Read(ctx, i, dtype_));
      if (!values.empty() && v.shape().dims() != values[0].shape().dims()) {
        return absl::InvalidArgumentError(
            absl::StrCat("TensorArray has inconsistent shapes.  Index 0 has shape: ",
                         values[0].shape().DebugString(), " but index ", values.size(),
                         " has shape: ", v.shape().DebugString()));
      }
      values.push_back(std::move(v));
    }
    std::vector<int64_t> dims{static_cast<int64_t>(indices.size())};
    if (values.empty()) {
      PartialTensorShape shape =
          element_shape_.unknown_rank() ? ta->ElementShape() : element_shape_;
      if (!shape.IsFullyDefined()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "TensorArray has size zero, but element shape ", shape.DebugString(),
            " is not fully defined. Currently only static shapes are supported when packing "
            "zero-size TensorArrays."));
      }
      dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
    } else {
      dims.insert(dims.end(), values[0].shape().dims().begin(), values[0].shape().dims().end());
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    for (size_t k = 0; k < values.size(); ++k) {
      const int64_t per = values[k].NumElements();
      RILL_RETURN_IF_ERROR(CopyElements(values[k], 0, out, static_cast<int64_t>(k) * per, per));
    }
    return absl::OkStatus();
  }

 private:
  const bool pack_ = type_string() == "TensorArrayPack";
  DataType dtype_ = DT_INVALID;
  PartialTensorShape element_shape_;
};

// TensorArrayConcatV3: elements 0..size-1 (each at least a vector, equal past dim 0) joined along
// dim 0, and their dim-0 lengths. An empty array gives [0] + element_shape_except0, which must be
// fully defined.
class ConcatOp final : public OpKernel {
 public:
  explicit ConcatOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    TensorShapeProto shape;
    absl::Status s = ctx.GetAttr("dtype", &dtype_);
    if (s.ok()) s = ctx.GetAttr("element_shape_except0", &shape);
    if (s.ok()) {
      absl::StatusOr<PartialTensorShape> p = PartialTensorShape::FromProto(shape);
      if (p.ok()) except0_ = *std::move(p);
      s = p.status();
    }
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    const int64_t size = ta->Size();
    if (size == 0) {
      if (!except0_.IsFullyDefined()) {
        return absl::UnimplementedError(absl::StrCat(
            "TensorArray has size zero, but element_shape_except0 ", except0_.DebugString(),
            " is not fully defined. Currently only static shapes are supported when "
            "concatenating zero-size TensorArrays."));
      }
      std::vector<int64_t> dims = {0};
      dims.insert(dims.end(), except0_.dims().begin(), except0_.dims().end());
      RILL_ASSIGN_OR_RETURN(TensorShape empty, TensorShape::FromDims(dims));
      RILL_RETURN_IF_ERROR(ctx.allocate_output(0, empty).status());
      return ctx.allocate_output(1, TensorShape({0})).status();
    }
    std::vector<Tensor> values;
    int64_t rows = 0;
    for (int64_t i = 0; i < size; ++i) {
      RILL_ASSIGN_OR_RETURN(Tensor v, ta->Read(ctx, i, dtype_));
      const auto dims = v.shape().dims();
      if (dims.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Concat saw a scalar shape at index ", i,
                         " but requires at least vectors.  Did you mean to call pack?"));
      }
      if (i > 0 && !std::equal(dims.begin() + 1, dims.end(), values[0].shape().dims().begin() + 1,
                               values[0].shape().dims().end())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "TensorArray has inconsistent shapes.  Index 0 has (excepting dimension 0) shape: ",
            Except0(values[0].shape()), " but index ", i,
            " has (excepting dimension 0) shape: ", Except0(v.shape())));
      }
      rows += dims[0];
      values.push_back(std::move(v));
    }
    std::vector<int64_t> dims(values[0].shape().dims().begin(), values[0].shape().dims().end());
    dims[0] = rows;
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * lengths, ctx.allocate_output(1, TensorShape({size})));
    int64_t at = 0;
    for (int64_t k = 0; k < size; ++k) {
      const int64_t n = values[k].NumElements();
      lengths->flat<int64_t>()[k] = values[k].shape().dim(0);
      RILL_RETURN_IF_ERROR(CopyElements(values[k], 0, out, at, n));
      at += n;
    }
    return absl::OkStatus();
  }

 private:
  // "[d1,d2,...]": a shape without its first dim, as TensorFlow prints it.
  static std::string Except0(const TensorShape& shape) {
    std::vector<int64_t> dims(shape.dims().begin() + 1, shape.dims().end());
    return PartialTensorShape(std::move(dims)).DebugString();
  }

  DataType dtype_ = DT_INVALID;
  PartialTensorShape except0_;
};

// Writes value's rows to `indices` (TensorArrayScatterV3), or to 0, 1, ... (V1's
// TensorArrayUnpack, which has no indices input).
class ScatterOp final : public OpKernel {
 public:
  explicit ScatterOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    const int value_input = unpack_ ? 1 : 2;
    const Tensor& value = ctx.input(value_input);
    std::vector<int64_t> indices;
    if (unpack_) {
      if (value.shape().rank() < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input value for unpack must be at least a vector but received shape: ",
                         value.shape().DebugString()));
      }
      // Every row has its element: a dynamic array grows to the rows, none may be left over.
      const int64_t rows = value.shape().dim(0);
      const int64_t size = ta->dynamic_size() ? std::max(ta->Size(), rows) : ta->Size();
      if (rows != size) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input value must have first dimension equal to the array size (", rows,
                         " vs. ", size, ")"));
      }
      indices.resize(rows);
      for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<int64_t>(i);
    } else {
      RILL_ASSIGN_OR_RETURN(indices, Indices(ctx.input(1)));
    }
    if (value.shape().rank() < 1 ||
        value.shape().dims()[0] != static_cast<int64_t>(indices.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected len(indices) == values.shape[0], but saw: ", indices.size(),
                       " vs. ", value.shape().rank() < 1 ? 0 : value.shape().dims()[0]));
    }
    std::vector<int64_t> dims(value.shape().dims().begin() + 1, value.shape().dims().end());
    RILL_ASSIGN_OR_RETURN(TensorShape element, TensorShape::FromDims(dims));
    const int64_t per = element.num_elements();
    for (size_t k = 0; k < indices.size(); ++k) {
      RILL_ASSIGN_OR_RETURN(Tensor piece, ctx.allocate_temp(value.dtype(), element));
      RILL_RETURN_IF_ERROR(CopyElements(value, static_cast<int64_t>(k) * per, &piece, 0, per));
      RILL_RETURN_IF_ERROR(ta->Write(indices[k], piece));
    }
    ctx.set_output(0, ctx.input(value_input + 1));
    return absl::OkStatus();
  }

 private:
  const bool unpack_ = type_string() == "TensorArrayUnpack";
};

// TensorArraySplitV3(handle, value, lengths, flow_in): element i is rows
// [lengths[0] + ... + lengths[i-1], ... + lengths[i]) of value (value's shape with dim 0 set to
// lengths[i]); the array must have one element per length (a dynamic array grows to fit).
class SplitOp final : public OpKernel {
 public:
  explicit SplitOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    const Tensor& value = ctx.input(1);
    const Tensor& lengths = ctx.input(2);
    if (lengths.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected lengths to be a vector, received shape: ", lengths.shape().DebugString()));
    }
    if (value.shape().rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected value to be at least a vector, but received shape: ",
                       value.shape().DebugString()));
    }
    const int64_t n = lengths.NumElements();
    const int64_t* len = lengths.flat<int64_t>().data();
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (len[i] < 0 || len[i] > value.shape().dims()[0]) {
        total = -1;  // reported by the sum check below, as TensorFlow's does for a bad length
        break;
      }
      total += len[i];
    }
    if (total != value.shape().dims()[0]) {
      int64_t sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += len[i];
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected sum of lengths to be equal to values.shape[0], but sum of lengths is ", sum,
          " and value's shape is: ", value.shape().DebugString()));
    }
    const int64_t size = ta->Size();
    if (size != n && !(ta->dynamic_size() && size < n)) {
      return absl::InvalidArgumentError(
          absl::StrCat("TensorArray's size is not equal to the size of lengths (", size, " vs. ", n,
                       "), and the TensorArray is not marked as dynamically resizeable"));
    }
    std::vector<int64_t> dims(value.shape().dims().begin(), value.shape().dims().end());
    const int64_t per_row = total == 0 ? 0 : value.NumElements() / total;
    int64_t row = 0;
    for (int64_t i = 0; i < n; ++i) {
      dims[0] = len[i];
      RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
      RILL_ASSIGN_OR_RETURN(Tensor piece, ctx.allocate_temp(value.dtype(), shape));
      RILL_RETURN_IF_ERROR(CopyElements(value, row * per_row, &piece, 0, len[i] * per_row));
      RILL_RETURN_IF_ERROR(ta->Write(i, piece));
      row += len[i];
    }
    ctx.set_output(0, ctx.input(3));
    return absl::OkStatus();
  }
};

class SizeOp final : public OpKernel {
 public:
  explicit SizeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, LookupArray(ctx));
    ctx.set_output(0, Tensor::Scalar<int32_t>(static_cast<int32_t>(ta->Size())));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class CloseOp final : public OpKernel {
 public:
  explicit CloseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  // Marks the array closed and drops its elements; the array itself goes with the step's
  // resources. Closing a closed array again is allowed, as in TensorFlow.
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> ta, FindArray(ctx));
    ta->Close();
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// TensorArrayGradV3: the gradient array of input 0's array for `source`, made once per step with
// the forward array's current size and element shape (so unwritten gradients read as zeros).
class GradOp final : public OpKernel {
 public:
  explicit GradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("source", &source_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> forward, LookupArray(ctx));
    RILL_ASSIGN_OR_RETURN(ResourceHandle h, ArrayHandle(ctx.input(0)));
    RILL_ASSIGN_OR_RETURN(ResourceMgr * step, StepResources(ctx));
    const std::string name = absl::StrCat(h.name, "@", source_);
    absl::Status init = absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<TensorArray> grad,
                          step->LookupOrCreate<TensorArray>(kContainer, name, [&] {
                            auto ta = std::make_shared<TensorArray>(
                                forward->dtype(), forward->ElementShape(), forward->Size(),
                                /*dynamic_size=*/false, /*clear_after_read=*/true,
                                /*identical_shapes=*/false, /*aggregate_writes=*/true);
                            init = ta->Init();
                            ta->SetRefHandle(ArrayHandleTensor(true, name));
                            return ta;
                          }));
    RILL_RETURN_IF_ERROR(init);
    SetHandleOutput(ctx, type_string(), grad.get(), name);
    if (!IsStringHandle(type_string())) ctx.set_output(1, ctx.input(1));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string source_;
};

REGISTER_KERNEL(KernelDefBuilder("TensorArrayV3").Device(kDeviceCpu), TensorArrayOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayGradV3").Device(kDeviceCpu), GradOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayWriteV3").Device(kDeviceCpu), WriteOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayReadV3").Device(kDeviceCpu), ReadOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayGatherV3").Device(kDeviceCpu), GatherOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayScatterV3").Device(kDeviceCpu), ScatterOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayConcatV3").Device(kDeviceCpu), ConcatOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArraySplitV3").Device(kDeviceCpu), SplitOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArraySizeV3").Device(kDeviceCpu), SizeOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayCloseV3").Device(kDeviceCpu), CloseOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayV2").Device(kDeviceCpu), TensorArrayOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayGradV2").Device(kDeviceCpu), GradOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayWriteV2").Device(kDeviceCpu), WriteOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayReadV2").Device(kDeviceCpu), ReadOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayGatherV2").Device(kDeviceCpu), GatherOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayScatterV2").Device(kDeviceCpu), ScatterOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayConcatV2").Device(kDeviceCpu), ConcatOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArraySplitV2").Device(kDeviceCpu), SplitOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArraySizeV2").Device(kDeviceCpu), SizeOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayCloseV2").Device(kDeviceCpu), CloseOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArray").Device(kDeviceCpu), TensorArrayOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayGrad").Device(kDeviceCpu), GradOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayWrite").Device(kDeviceCpu), WriteOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayRead").Device(kDeviceCpu), ReadOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayGather").Device(kDeviceCpu), GatherOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayPack").Device(kDeviceCpu), GatherOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayScatter").Device(kDeviceCpu), ScatterOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayUnpack").Device(kDeviceCpu), ScatterOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayConcat").Device(kDeviceCpu), ConcatOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArraySplit").Device(kDeviceCpu), SplitOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArraySize").Device(kDeviceCpu), SizeOp);
REGISTER_KERNEL(KernelDefBuilder("TensorArrayClose").Device(kDeviceCpu), CloseOp);

}  // namespace
}  // namespace rill
