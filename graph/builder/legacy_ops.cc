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

namespace {

// The TensorArray ops of TensorFlow 0.x (V1 names) and 0.12-1.0 (V2 names) share signatures; each
// helper builds the op named `op` of one signature.
Output MakeArray(const Scope& scope, absl::string_view op, const Input& size, DataType dtype,
                 bool dynamic_size, bool clear_after_read) {
  return OpBuilder(scope, op)
      .Input(size)
      .Attr("dtype", dtype)
      .Attr("dynamic_size", dynamic_size)
      .Attr("clear_after_read", clear_after_read)
      .Finalize()
      .output(0);
}

// Write (index) and Scatter (indices): handle, position, value, flow -> flow.
Output PutValues(const Scope& scope, absl::string_view op, const Input& handle,
                 const Input& position, const Input& value, const Input& flow_in) {
  return OpBuilder(scope, op)
      .Input(handle)
      .Input(position)
      .Input(value)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

// Read (index) and Gather (indices): handle, position, flow -> value of dtype.
Output GetValues(const Scope& scope, absl::string_view op, const Input& handle,
                 const Input& position, const Input& flow_in, DataType dtype) {
  return OpBuilder(scope, op)
      .Input(handle)
      .Input(position)
      .Input(flow_in)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output SplitValue(const Scope& scope, absl::string_view op, const Input& handle, const Input& value,
                  const Input& lengths, const Input& flow_in) {
  return OpBuilder(scope, op)
      .Input(handle)
      .Input(value)
      .Input(lengths)
      .Input(flow_in)
      .Finalize()
      .output(0);
}

std::vector<Output> ConcatValues(const Scope& scope, absl::string_view op, const Input& handle,
                                 const Input& flow_in, DataType dtype) {
  Operation made =
      OpBuilder(scope, op).Input(handle).Input(flow_in).Attr("dtype", dtype).Finalize();
  return {made.output(0), made.output(1)};
}

Output ArraySize(const Scope& scope, absl::string_view op, const Input& handle,
                 const Input& flow_in) {
  return OpBuilder(scope, op).Input(handle).Input(flow_in).Finalize().output(0);
}

Output GradArray(const Scope& scope, absl::string_view op, const Input& handle,
                 const Input& flow_in, absl::string_view source) {
  return OpBuilder(scope, op)
      .Input(handle)
      .Input(flow_in)
      .Attr("source", source)
      .Finalize()
      .output(0);
}

}  // namespace

Output TensorArrayV2(const Scope& scope, const Input& size, DataType dtype, bool dynamic_size,
                     bool clear_after_read) {
  return MakeArray(scope, "TensorArrayV2", size, dtype, dynamic_size, clear_after_read);
}

Output TensorArrayWriteV2(const Scope& scope, const Input& handle, const Input& index,
                          const Input& value, const Input& flow_in) {
  return PutValues(scope, "TensorArrayWriteV2", handle, index, value, flow_in);
}

Output TensorArrayReadV2(const Scope& scope, const Input& handle, const Input& index,
                         const Input& flow_in, DataType dtype) {
  return GetValues(scope, "TensorArrayReadV2", handle, index, flow_in, dtype);
}

Output TensorArrayGatherV2(const Scope& scope, const Input& handle, const Input& indices,
                           const Input& flow_in, DataType dtype) {
  return GetValues(scope, "TensorArrayGatherV2", handle, indices, flow_in, dtype);
}

Output TensorArrayScatterV2(const Scope& scope, const Input& handle, const Input& indices,
                            const Input& value, const Input& flow_in) {
  return PutValues(scope, "TensorArrayScatterV2", handle, indices, value, flow_in);
}

Output TensorArraySplitV2(const Scope& scope, const Input& handle, const Input& value,
                          const Input& lengths, const Input& flow_in) {
  return SplitValue(scope, "TensorArraySplitV2", handle, value, lengths, flow_in);
}

std::vector<Output> TensorArrayConcatV2(const Scope& scope, const Input& handle,
                                        const Input& flow_in, DataType dtype) {
  return ConcatValues(scope, "TensorArrayConcatV2", handle, flow_in, dtype);
}

Output TensorArraySizeV2(const Scope& scope, const Input& handle, const Input& flow_in) {
  return ArraySize(scope, "TensorArraySizeV2", handle, flow_in);
}

Operation TensorArrayCloseV2(const Scope& scope, const Input& handle) {
  return OpBuilder(scope, "TensorArrayCloseV2").Input(handle).Finalize();
}

Output TensorArrayGradV2(const Scope& scope, const Input& handle, const Input& flow_in,
                         absl::string_view source) {
  return GradArray(scope, "TensorArrayGradV2", handle, flow_in, source);
}

Output TensorArray(const Scope& scope, const Input& size, DataType dtype, bool dynamic_size,
                   bool clear_after_read) {
  return MakeArray(scope, "TensorArray", size, dtype, dynamic_size, clear_after_read);
}

Output TensorArrayWrite(const Scope& scope, const Input& handle, const Input& index,
                        const Input& value, const Input& flow_in) {
  return PutValues(scope, "TensorArrayWrite", handle, index, value, flow_in);
}

Output TensorArrayRead(const Scope& scope, const Input& handle, const Input& index,
                       const Input& flow_in, DataType dtype) {
  return GetValues(scope, "TensorArrayRead", handle, index, flow_in, dtype);
}

Output TensorArrayGather(const Scope& scope, const Input& handle, const Input& indices,
                         const Input& flow_in, DataType dtype) {
  return GetValues(scope, "TensorArrayGather", handle, indices, flow_in, dtype);
}

Output TensorArrayScatter(const Scope& scope, const Input& handle, const Input& indices,
                          const Input& value, const Input& flow_in) {
  return PutValues(scope, "TensorArrayScatter", handle, indices, value, flow_in);
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
  return SplitValue(scope, "TensorArraySplit", handle, value, lengths, flow_in);
}

std::vector<Output> TensorArrayConcat(const Scope& scope, const Input& handle, const Input& flow_in,
                                      DataType dtype) {
  return ConcatValues(scope, "TensorArrayConcat", handle, flow_in, dtype);
}

Output TensorArraySize(const Scope& scope, const Input& handle, const Input& flow_in) {
  return ArraySize(scope, "TensorArraySize", handle, flow_in);
}

Operation TensorArrayClose(const Scope& scope, const Input& handle) {
  return OpBuilder(scope, "TensorArrayClose").Input(handle).Finalize();
}

Output TensorArrayGrad(const Scope& scope, const Input& handle, const Input& flow_in,
                       absl::string_view source) {
  return GradArray(scope, "TensorArrayGrad", handle, flow_in, source);
}

}  // namespace ops
}  // namespace rill
