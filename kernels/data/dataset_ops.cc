// tf.data kernels on the CPU (TensorFlow's semantics and texts; the state is
// kernels/data/dataset.h):
//   TensorDataset: a DT_VARIANT scalar holding its components as one element; InvalidArgument
//     when output_shapes has another count or a shape the components' cannot be.
//   Iterator, IteratorV2: the handle "<container or localhost>/<name>" of an IteratorResource,
//     created on first run; name: shared_name, else one private to the node ("_" + node name).
//     A shared name already holding an iterator of other types or shapes: InvalidArgument.
//   MakeIterator: (re)starts the iterator on the dataset (types and shapes checked).
//   IteratorGetNext: the next element; OutOfRange "End of sequence" after the last; its
//     output_types and output_shapes checked against the element taken.
// Thread safety: kernels hold only attrs; iterators lock themselves.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/data/dataset.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/state/variable.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

// The list(shape) attr `name`; InvalidArgument for a shape that does not parse.
absl::Status GetShapeListAttr(OpKernelConstruction& ctx, const char* name,
                              std::vector<PartialTensorShape>* out) {
  const AttrValue* attr = FindNodeAttr(ctx.def(), name);
  if (attr == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("No attr named '", name, "' in NodeDef"));
  }
  for (const TensorShapeProto& proto : attr->list().shape()) {
    RILL_ASSIGN_OR_RETURN(PartialTensorShape s, PartialTensorShape::FromProto(proto));
    out->push_back(std::move(s));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<IteratorResource>> IteratorOf(OpKernelContext& ctx, int input) {
  RILL_ASSIGN_OR_RETURN(ResourceHandle h, ResourceHandleFromTensor(ctx.input(input)));
  return ctx.device()->resource_manager()->Lookup<IteratorResource>(h.container, h.name);
}

class TensorDatasetOp final : public OpKernel {
 public:
  explicit TensorDatasetOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(GetShapeListAttr(ctx, "output_shapes", &output_shapes_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    std::vector<Tensor> components;
    for (int i = 0; i < ctx.num_inputs(); ++i) components.push_back(ctx.input(i));
    // TensorFlow's sense: the components' shapes are expected, the attr's got.
    RILL_RETURN_IF_ERROR(VerifyShapesCompatible(ShapesOf(components), output_shapes_));
    Tensor out(DT_VARIANT, TensorShape());
    out.flat<Variant>()[0] =
        Variant(std::make_shared<const TensorDataset>(std::move(components), output_shapes_));
    ctx.set_output(0, std::move(out));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::vector<PartialTensorShape> output_shapes_;
};

class IteratorHandleOp final : public OpKernel {
 public:
  explicit IteratorHandleOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string container;
    ctx.SetStatus(ctx.GetAttr("container", &container));
    ctx.SetStatus(ctx.GetAttr("shared_name", &name_));
    ctx.SetStatus(ctx.GetAttr("output_types", &output_types_));
    ctx.SetStatus(GetShapeListAttr(ctx, "output_shapes", &output_shapes_));
    container_ = container.empty() ? kDefaultContainer : container;
    if (name_.empty()) name_ = absl::StrCat("_", ctx.def().name());
    if (container_.find('/') != std::string::npos) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat(ctx.def().op(), " node ", ctx.def().name(), ": container '", container_,
                       "' contains '/', which Rill's resource handles cannot hold")));
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const std::vector<DataType>& types = output_types_;
    const std::vector<PartialTensorShape>& shapes = output_shapes_;
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<IteratorResource> iterator,
                          ctx.device()->resource_manager()->LookupOrCreate<IteratorResource>(
                              container_, name_, [&types, &shapes] {
                                return std::make_shared<IteratorResource>(types, shapes);
                              }));
    RILL_RETURN_IF_ERROR(VerifyTypesMatch(output_types_, iterator->output_types()));
    RILL_RETURN_IF_ERROR(VerifyShapesCompatible(output_shapes_, iterator->output_shapes()));
    ctx.set_output(0, MakeResourceHandleTensor(container_, name_));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string container_, name_;
  std::vector<DataType> output_types_;
  std::vector<PartialTensorShape> output_shapes_;
};

class MakeIteratorOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorDataset> dataset,
                          DatasetFromTensor(ctx.input(0)));
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<IteratorResource> iterator, IteratorOf(ctx, 1));
    return iterator->SetDataset(std::move(dataset));
  }
  bool IsExpensive() const override { return false; }
};

class IteratorGetNextOp final : public OpKernel {
 public:
  explicit IteratorGetNextOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("output_types", &output_types_));
    ctx.SetStatus(GetShapeListAttr(ctx, "output_shapes", &output_shapes_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<IteratorResource> iterator, IteratorOf(ctx, 0));
    // As in TensorFlow, the element is taken before it is checked against this op's attrs.
    RILL_ASSIGN_OR_RETURN(std::vector<Tensor> components, iterator->GetNext());
    std::vector<DataType> types;
    for (const Tensor& t : components) types.push_back(t.dtype());
    RILL_RETURN_IF_ERROR(VerifyTypesMatch(output_types_, types));
    RILL_RETURN_IF_ERROR(VerifyShapesCompatible(output_shapes_, ShapesOf(components)));
    for (size_t i = 0; i < components.size(); ++i) {
      ctx.set_output(static_cast<int>(i), std::move(components[i]));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::vector<DataType> output_types_;
  std::vector<PartialTensorShape> output_shapes_;
};

REGISTER_KERNEL(KernelDefBuilder("TensorDataset").Device(kDeviceCpu), TensorDatasetOp);
REGISTER_KERNEL(KernelDefBuilder("Iterator").Device(kDeviceCpu), IteratorHandleOp);
REGISTER_KERNEL(KernelDefBuilder("IteratorV2").Device(kDeviceCpu), IteratorHandleOp);
REGISTER_KERNEL(KernelDefBuilder("MakeIterator").Device(kDeviceCpu), MakeIteratorOp);
REGISTER_KERNEL(KernelDefBuilder("IteratorGetNext").Device(kDeviceCpu), IteratorGetNextOp);

}  // namespace
}  // namespace rill
