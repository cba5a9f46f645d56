#include "graph/builder/legacy_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output BatchMatrixDiag(const Scope& scope, const Input& diagonal) {
  return OpBuilder(scope, "BatchMatrixDiag").Input(diagonal).Finalize().output(0);
}
Output BatchMatrixDiagPart(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "BatchMatrixDiagPart").Input(input).Finalize().output(0);
}
Output BatchMatrixSetDiag(const Scope& scope, const Input& input, const Input& diagonal) {
  return OpBuilder(scope, "BatchMatrixSetDiag").Input(input).Input(diagonal).Finalize().output(0);
}
Output BatchMatrixBandPart(const Scope& scope, const Input& input, const Input& num_lower,
                           const Input& num_upper) {
  return OpBuilder(scope, "BatchMatrixBandPart")
      .Input(input)
      .Input(num_lower)
      .Input(num_upper)
      .Finalize()
      .output(0);
}
Output BiasAddV1(const Scope& scope, const Input& value, const Input& bias) {
  return OpBuilder(scope, "BiasAddV1").Input(value).Input(bias).Finalize().output(0);
}
Output InTopK(const Scope& scope, const Input& predictions, const Input& targets, int64_t k) {
  return OpBuilder(scope, "InTopK")
      .Input(predictions)
      .Input(targets)
      .Attr("k", k)
      .Finalize()
      .output(0);
}
Output BatchNormWithGlobalNormalization(const Scope& scope, const Input& t, const Input& m,
                                        const Input& v, const Input& beta, const Input& gamma,
                                        float variance_epsilon, bool scale_after_normalization) {
  return OpBuilder(scope, "BatchNormWithGlobalNormalization")
      .Input(t)
      .Input(m)
      .Input(v)
      .Input(beta)
      .Input(gamma)
      .Attr("variance_epsilon", variance_epsilon)
      .Attr("scale_after_normalization", scale_after_normalization)
      .Finalize()
      .output(0);
}
Output MatrixDiagV2(const Scope& scope, const Input& diagonal, const Input& k,
                    const Input& num_rows, const Input& num_cols, const Input& padding_value) {
  return OpBuilder(scope, "MatrixDiagV2")
      .Input(diagonal)
      .Input(k)
      .Input(num_rows)
      .Input(num_cols)
      .Input(padding_value)
      .Finalize()
      .output(0);
}
Output MatrixDiagPartV2(const Scope& scope, const Input& input, const Input& k,
                        const Input& padding_value) {
  return OpBuilder(scope, "MatrixDiagPartV2")
      .Input(input)
      .Input(k)
      .Input(padding_value)
      .Finalize()
      .output(0);
}
Output MatrixSetDiagV2(const Scope& scope, const Input& input, const Input& diagonal,
                       const Input& k) {
  return OpBuilder(scope, "MatrixSetDiagV2")
      .Input(input)
      .Input(diagonal)
      .Input(k)
      .Finalize()
      .output(0);
}

std::vector<Output> TopK(const Scope& scope, const Input& input, int64_t k, bool sorted) {
  Operation node =
      OpBuilder(scope, "TopK").Input(input).Attr("k", k).Attr("sorted", sorted).Finalize();
  return {node.output(0), node.output(1)};
}
Output PlaceholderV2(const Scope& scope, DataType dtype, const PartialTensorShape& shape) {
  return OpBuilder(scope, "PlaceholderV2")
      .Attr("dtype", dtype)
      .Attr("shape", shape)
      .Finalize()
      .output(0);
}
Output AccumulateNV2(const Scope& scope, absl::Span<const Output> inputs,
                     const PartialTensorShape& shape) {
  return OpBuilder(scope, "AccumulateNV2")
      .InputList(inputs)
      .Attr("shape", shape)
      .Finalize()
      .output(0);
}
Output ConjugateTranspose(const Scope& scope, const Input& x, const Input& perm) {
  return OpBuilder(scope, "ConjugateTranspose").Input(x).Input(perm).Finalize().output(0);
}
Output GuaranteeConst(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "GuaranteeConst").Input(input).Finalize().output(0);
}
Output DeepCopy(const Scope& scope, const Input& x) {
  return OpBuilder(scope, "DeepCopy").Input(x).Finalize().output(0);
}
Output DataFormatDimMap(const Scope& scope, const Input& x, absl::string_view src_format,
                        absl::string_view dst_format) {
  return OpBuilder(scope, "DataFormatDimMap")
      .Input(x)
      .Attr("src_format", src_format)
      .Attr("dst_format", dst_format)
      .Finalize()
      .output(0);
}
Output DataFormatVecPermute(const Scope& scope, const Input& x, absl::string_view src_format,
                            absl::string_view dst_format) {
  return OpBuilder(scope, "DataFormatVecPermute")
      .Input(x)
      .Attr("src_format", src_format)
      .Attr("dst_format", dst_format)
      .Finalize()
      .output(0);
}
Output InplaceAdd(const Scope& scope, const Input& x, const Input& i, const Input& v) {
  return OpBuilder(scope, "InplaceAdd").Input(x).Input(i).Input(v).Finalize().output(0);
}
Output InplaceSub(const Scope& scope, const Input& x, const Input& i, const Input& v) {
  return OpBuilder(scope, "InplaceSub").Input(x).Input(i).Input(v).Finalize().output(0);
}
Output InplaceUpdate(const Scope& scope, const Input& x, const Input& i, const Input& v) {
  return OpBuilder(scope, "InplaceUpdate").Input(x).Input(i).Input(v).Finalize().output(0);
}
std::vector<Output> ListDiff(const Scope& scope, const Input& x, const Input& y, DataType out_idx) {
  Operation node =
      OpBuilder(scope, "ListDiff").Input(x).Input(y).Attr("out_idx", out_idx).Finalize();
  return {node.output(0), node.output(1)};
}

Output NonMaxSuppression(const Scope& scope, const Input& boxes, const Input& scores,
                         const Input& max_output_size, float iou_threshold) {
  return OpBuilder(scope, "NonMaxSuppression")
      .Input(boxes)
      .Input(scores)
      .Input(max_output_size)
      .Attr("iou_threshold", iou_threshold)
      .Finalize()
      .output(0);
}

std::vector<Output> StringSplit(const Scope& scope, const Input& input, const Input& delimiter,
                                bool skip_empty) {
  Operation node = OpBuilder(scope, "StringSplit")
                       .Input(input)
                       .Input(delimiter)
                       .Attr("skip_empty", skip_empty)
                       .Finalize();
  return {node.output(0), node.output(1), node.output(2)};
}

Output SparseMatMul(const Scope& scope, const Input& a, const Input& b, bool transpose_a,
                    bool transpose_b, bool a_is_sparse, bool b_is_sparse) {
  return OpBuilder(scope, "SparseMatMul")
      .Input(a)
      .Input(b)
      .Attr("transpose_a", transpose_a)
      .Attr("transpose_b", transpose_b)
      .Attr("a_is_sparse", a_is_sparse)
      .Attr("b_is_sparse", b_is_sparse)
      .Finalize()
      .output(0);
}

Output TensorArrayV2(const Scope& scope, const Input& size, DataType dtype, bool dynamic_size,
                     bool clear_after_read) {
  return OpBuilder(scope, "TensorArrayV2")
      .Input(size)
      .Attr("dtype", dtype)
      .Attr("dynamic_size", dynamic_size)
      .Attr("clear_after_read", clear_after_read)
      .Finalize()
      .output(0);
}

Output TensorArrayWriteV2(const Scope& scope, const Input& handle, const Input& index,
                          const Input& value, const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayWriteV2")
      .Input(handle)
      .Input(index)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArrayReadV2(const Scope& scope, const Input& handle, const Input& index,
                         const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, "TensorArrayReadV2")
      .Input(handle)
      .Input(index)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArrayGatherV2(const Scope& scope, const Input& handle, const Input& indices,
                           const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, "TensorArrayGatherV2")
      .Input(handle)
      .Input(indices)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArrayScatterV2(const Scope& scope, const Input& handle, const Input& indices,
                            const Input& value, const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayScatterV2")
      .Input(handle)
      .Input(indices)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArraySplitV2(const Scope& scope, const Input& handle, const Input& value,
                          const Input& lengths, const Input& flow_in) {
  return OpBuilder(scope, "TensorArraySplitV2")
      .Input(handle)
      .Input(value)
      .Input(lengths)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

std::vector<Output> TensorArrayConcatV2(const Scope& scope, const Input& handle,
                                        const Input& flow_in, DataType dtype) {
  Operation op = OpBuilder(scope, "TensorArrayConcatV2")
                     .Input(handle)
                     .Input(flow_in)
                     .Attr("dtype", dtype)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

Output TensorArraySizeV2(const Scope& scope, const Input& handle, const Input& flow_in) {
  return OpBuilder(scope, "TensorArraySizeV2").Input(handle).Input(flow_in).Finalize().output(0);
}

Operation TensorArrayCloseV2(const Scope& scope, const Input& handle) {
  return OpBuilder(scope, "TensorArrayCloseV2").Input(handle).Finalize();
}

Output TensorArrayGradV2(const Scope& scope, const Input& handle, const Input& flow_in,
                         absl::string_view source) {
  return OpBuilder(scope, "TensorArrayGradV2")
      .Input(handle)
      .Input(flow_in)
      .Attr("source", source)
      .Finalize()
      .output(0);
}

Output TensorArray(const Scope& scope, const Input& size, DataType dtype, bool dynamic_size,
                   bool clear_after_read) {
  return OpBuilder(scope, "TensorArray")
      .Input(size)
      .Attr("dtype", dtype)
      .Attr("dynamic_size", dynamic_size)
      .Attr("clear_after_read", clear_after_read)
      .Finalize()
      .output(0);
}

Output TensorArrayWrite(const Scope& scope, const Input& handle, const Input& index,
                        const Input& value, const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayWrite")
      .Input(handle)
      .Input(index)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArrayRead(const Scope& scope, const Input& handle, const Input& index,
                       const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, "TensorArrayRead")
      .Input(handle)
      .Input(index)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArrayGather(const Scope& scope, const Input& handle, const Input& indices,
                         const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, "TensorArrayGather")
      .Input(handle)
      .Input(indices)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArrayScatter(const Scope& scope, const Input& handle, const Input& indices,
                          const Input& value, const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayScatter")
      .Input(handle)
      .Input(indices)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArrayPack(const Scope& scope, const Input& handle, const Input& flow_in,
                       DataType dtype) {
  return OpBuilder(scope, "TensorArrayPack")
      .Input(handle)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output TensorArrayUnpack(const Scope& scope, const Input& handle, const Input& value,
                         const Input& flow_in) {
  return OpBuilder(scope, "TensorArrayUnpack")
      .Input(handle)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

Output TensorArraySplit(const Scope& scope, const Input& handle, const Input& value,
                        const Input& lengths, const Input& flow_in) {
  return OpBuilder(scope, "TensorArraySplit")
      .Input(handle)
      .Input(value)
      .Input(lengths)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

std::vector<Output> TensorArrayConcat(const Scope& scope, const Input& handle, const Input& flow_in,
                                      DataType dtype) {
  Operation op = OpBuilder(scope, "TensorArrayConcat")
                     .Input(handle)
                     .Input(flow_in)
                     .Attr("dtype", dtype)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

Output TensorArraySize(const Scope& scope, const Input& handle, const Input& flow_in) {
  return OpBuilder(scope, "TensorArraySize").Input(handle).Input(flow_in).Finalize().output(0);
}

Operation TensorArrayClose(const Scope& scope, const Input& handle) {
  return OpBuilder(scope, "TensorArrayClose").Input(handle).Finalize();
}

Output TensorArrayGrad(const Scope& scope, const Input& handle, const Input& flow_in,
                       absl::string_view source) {
  return OpBuilder(scope, "TensorArrayGrad")
      .Input(handle)
      .Input(flow_in)
      .Attr("source", source)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
