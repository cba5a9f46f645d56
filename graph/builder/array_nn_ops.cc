#include "graph/builder/array_nn_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output Inputs(const Scope& scope, const char* op, std::initializer_list<Output> inputs) {
  OpBuilder b(scope, op);
  for (const Output& in : inputs) b.Input(in);
  return b.Finalize().output(0);
}

Output Pool3D(const Scope& scope, const char* op, const Input& input,
              const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
              absl::string_view padding) {
  return OpBuilder(scope, op)
      .Input(input)
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}

}  // namespace

Output SpaceToBatchND(const Scope& scope, const Output& input, const Output& block_shape,
                      const Output& paddings) {
  return Inputs(scope, "SpaceToBatchND", {input, block_shape, paddings});
}
Output BatchToSpaceND(const Scope& scope, const Output& input, const Output& block_shape,
                      const Output& crops) {
  return Inputs(scope, "BatchToSpaceND", {input, block_shape, crops});
}
Output SpaceToBatch(const Scope& scope, const Input& input, const Input& paddings,
                    int64_t block_size) {
  return OpBuilder(scope, "SpaceToBatch")
      .Input(input)
      .Input(paddings)
      .Attr("block_size", block_size)
      .Finalize()
      .output(0);
}
Output BatchToSpace(const Scope& scope, const Input& input, const Input& crops,
                    int64_t block_size) {
  return OpBuilder(scope, "BatchToSpace")
      .Input(input)
      .Input(crops)
      .Attr("block_size", block_size)
      .Finalize()
      .output(0);
}
Output DepthToSpace(const Scope& scope, const Input& input, int64_t block_size) {
  return OpBuilder(scope, "DepthToSpace")
      .Input(input)
      .Attr("block_size", block_size)
      .Finalize()
      .output(0);
}
Output SpaceToDepth(const Scope& scope, const Input& input, int64_t block_size) {
  return OpBuilder(scope, "SpaceToDepth")
      .Input(input)
      .Attr("block_size", block_size)
      .Finalize()
      .output(0);
}

Output Roll(const Scope& scope, const Output& input, const Output& shift, const Output& axis) {
  return Inputs(scope, "Roll", {input, shift, axis});
}
Output ReverseSequence(const Scope& scope, const Input& input, const Input& seq_lengths,
                       int64_t seq_dim, int64_t batch_dim) {
  return OpBuilder(scope, "ReverseSequence")
      .Input(input)
      .Input(seq_lengths)
      .Attr("seq_dim", seq_dim)
      .Attr("batch_dim", batch_dim)
      .Finalize()
      .output(0);
}

Output MatrixBandPart(const Scope& scope, const Output& input, const Output& num_lower,
                      const Output& num_upper) {
  return Inputs(scope, "MatrixBandPart", {input, num_lower, num_upper});
}
Output MatrixDiagV3(const Scope& scope, const Input& diagonal, const Input& k,
                    const Input& num_rows, const Input& num_cols, const Input& padding_value,
                    absl::string_view align) {
  return OpBuilder(scope, "MatrixDiagV3")
      .Input(diagonal)
      .Input(k)
      .Input(num_rows)
      .Input(num_cols)
      .Input(padding_value)
      .Attr("align", std::string(align))
      .Finalize()
      .output(0);
}
Output MatrixDiagPartV3(const Scope& scope, const Input& input, const Input& k,
                        const Input& padding_value, absl::string_view align) {
  return OpBuilder(scope, "MatrixDiagPartV3")
      .Input(input)
      .Input(k)
      .Input(padding_value)
      .Attr("align", std::string(align))
      .Finalize()
      .output(0);
}
Output MatrixSetDiagV3(const Scope& scope, const Input& input, const Input& diagonal,
                       const Input& k, absl::string_view align) {
  return OpBuilder(scope, "MatrixSetDiagV3")
      .Input(input)
      .Input(diagonal)
      .Input(k)
      .Attr("align", std::string(align))
      .Finalize()
      .output(0);
}
Output MatrixDiag(const Scope& scope, const Input& diagonal) {
  return OpBuilder(scope, "MatrixDiag").Input(diagonal).Finalize().output(0);
}
Output MatrixDiagPart(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "MatrixDiagPart").Input(input).Finalize().output(0);
}
Output MatrixSetDiag(const Scope& scope, const Input& input, const Input& diagonal) {
  return OpBuilder(scope, "MatrixSetDiag").Input(input).Input(diagonal).Finalize().output(0);
}
Output Diag(const Scope& scope, const Input& diagonal) {
  return OpBuilder(scope, "Diag").Input(diagonal).Finalize().output(0);
}
Output DiagPart(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "DiagPart").Input(input).Finalize().output(0);
}

Output Conv3D(const Scope& scope, const Input& input, const Input& filter,
              const std::vector<int64_t>& strides, absl::string_view padding) {
  return OpBuilder(scope, "Conv3D")
      .Input(input)
      .Input(filter)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}
Output Conv3DBackpropInputV2(const Scope& scope, const Input& input_sizes, const Input& filter,
                             const Input& out_backprop, const std::vector<int64_t>& strides,
                             absl::string_view padding) {
  return OpBuilder(scope, "Conv3DBackpropInputV2")
      .Input(input_sizes)
      .Input(filter)
      .Input(out_backprop)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Finalize()
      .output(0);
}
Output MaxPool3D(const Scope& scope, const Input& input, const std::vector<int64_t>& ksize,
                 const std::vector<int64_t>& strides, absl::string_view padding) {
  return Pool3D(scope, "MaxPool3D", input, ksize, strides, padding);
}
Output AvgPool3D(const Scope& scope, const Input& input, const std::vector<int64_t>& ksize,
                 const std::vector<int64_t>& strides, absl::string_view padding) {
  return Pool3D(scope, "AvgPool3D", input, ksize, strides, padding);
}

Output ScatterNd(const Scope& scope, const Output& indices, const Output& updates,
                 const Output& shape) {
  return Inputs(scope, "ScatterNd", {indices, updates, shape});
}
Output TensorScatterUpdate(const Scope& scope, const Output& tensor, const Output& indices,
                           const Output& updates) {
  return Inputs(scope, "TensorScatterUpdate", {tensor, indices, updates});
}
Output TensorScatterAdd(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates) {
  return Inputs(scope, "TensorScatterAdd", {tensor, indices, updates});
}
Output TensorScatterSub(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates) {
  return Inputs(scope, "TensorScatterSub", {tensor, indices, updates});
}
Output TensorScatterMax(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates) {
  return Inputs(scope, "TensorScatterMax", {tensor, indices, updates});
}
Output TensorScatterMin(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates) {
  return Inputs(scope, "TensorScatterMin", {tensor, indices, updates});
}

}  // namespace ops
}  // namespace rill
