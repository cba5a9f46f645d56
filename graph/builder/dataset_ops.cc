#include "graph/builder/dataset_ops.h"

#include "graph/builder/op_builder.h"
#include "proto/attr_value.pb.h"

namespace rill {
namespace ops {
namespace {

AttrValue ShapeList(const std::vector<PartialTensorShape>& shapes) {
  AttrValue v;
  AttrValue::ListValue* list = v.mutable_list();
  for (const PartialTensorShape& s : shapes) s.AsProto(list->add_shape());
  return v;
}

Output MakeIteratorResource(const Scope& scope, absl::string_view op, absl::string_view shared_name,
                            absl::string_view container, const std::vector<DataType>& output_types,
                            const std::vector<PartialTensorShape>& output_shapes) {
  return OpBuilder(scope, op)
      .Attr("shared_name", shared_name)
      .Attr("container", container)
      .Attr("output_types", output_types)
      .Attr("output_shapes", ShapeList(output_shapes))
      .Finalize()
      .output(0);
}

}  // namespace

Output TensorDataset(const Scope& scope, absl::Span<const Output> components,
                     const std::vector<PartialTensorShape>& output_shapes) {
  std::vector<DataType> types;
  for (const Output& c : components) types.push_back(c.dtype());
  return OpBuilder(scope, "TensorDataset")
      .InputList(components)
      .Attr("Toutput_types", types)
      .Attr("output_shapes", ShapeList(output_shapes))
      .Finalize()
      .output(0);
}

Output Iterator(const Scope& scope, absl::string_view shared_name, absl::string_view container,
                const std::vector<DataType>& output_types,
                const std::vector<PartialTensorShape>& output_shapes) {
  return MakeIteratorResource(scope, "Iterator", shared_name, container, output_types,
                              output_shapes);
}

Output IteratorV2(const Scope& scope, absl::string_view shared_name, absl::string_view container,
                  const std::vector<DataType>& output_types,
                  const std::vector<PartialTensorShape>& output_shapes) {
  return MakeIteratorResource(scope, "IteratorV2", shared_name, container, output_types,
                              output_shapes);
}

Operation MakeIterator(const Scope& scope, const Input& dataset, const Input& iterator) {
  return OpBuilder(scope, "MakeIterator").Input(dataset).Input(iterator).Finalize();
}

std::vector<Output> IteratorGetNext(const Scope& scope, const Input& iterator,
                                    const std::vector<DataType>& output_types,
                                    const std::vector<PartialTensorShape>& output_shapes) {
  Operation op = OpBuilder(scope, "IteratorGetNext")
                     .Input(iterator)
                     .Attr("output_types", output_types)
                     .Attr("output_shapes", ShapeList(output_shapes))
                     .Finalize();
  std::vector<Output> out;
  for (int i = 0; i < op.num_outputs(); ++i) out.push_back(op.output(i));
  return out;
}

Output TensorSummary(const Scope& scope, const Input& tensor, absl::string_view description,
                     const std::vector<std::string>& labels, absl::string_view display_name) {
  return OpBuilder(scope, "TensorSummary")
      .Input(tensor)
      .Attr("description", description)
      .Attr("labels", labels)
      .Attr("display_name", display_name)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
