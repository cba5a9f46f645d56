// Builder wrappers for op names TF1 graphs carry from before their current forms (TensorFlow's
// C++ API names): the BatchMatrix* names of the matrix ops, BiasAddV1, InTopK and TopK with k an
// attr, PlaceholderV2, the 2015 BatchNormWithGlobalNormalization and the V2 matrix diagonal ops
// (LEFT_LEFT packing); and ops graph rewrites leave: AccumulateNV2, ConjugateTranspose,
// GuaranteeConst, DeepCopy, DataFormatDimMap / DataFormatVecPermute, Inplace{Add,Sub,Update} and
// ListDiff. New graphs should use MatrixDiag, BiasAdd, InTopKV2, TopKV2, Placeholder,
// FusedBatchNormV3 and MatrixDiagV3. Included by graph/builder/ops.h.
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_LEGACY_OPS_H_
#define RILL_GRAPH_BUILDER_LEGACY_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "core/types.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output BatchMatrixDiag(const Scope& scope, const Input& diagonal);
Output BatchMatrixDiagPart(const Scope& scope, const Input& input);
Output BatchMatrixSetDiag(const Scope& scope, const Input& input, const Input& diagonal);
// num_lower, num_upper: int64 scalars.
Output BatchMatrixBandPart(const Scope& scope, const Input& input, const Input& num_lower,
                           const Input& num_upper);
Output BiasAddV1(const Scope& scope, const Input& value, const Input& bias);
Output InTopK(const Scope& scope, const Input& predictions, const Input& targets, int64_t k);
Output BatchNormWithGlobalNormalization(const Scope& scope, const Input& t, const Input& m,
                                        const Input& v, const Input& beta, const Input& gamma,
                                        float variance_epsilon, bool scale_after_normalization);
Output MatrixDiagV2(const Scope& scope, const Input& diagonal, const Input& k,
                    const Input& num_rows, const Input& num_cols, const Input& padding_value);
Output MatrixDiagPartV2(const Scope& scope, const Input& input, const Input& k,
                        const Input& padding_value);
Output MatrixSetDiagV2(const Scope& scope, const Input& input, const Input& diagonal,
                       const Input& k);

// values, indices (int32).
std::vector<Output> TopK(const Scope& scope, const Input& input, int64_t k, bool sorted = true);
Output PlaceholderV2(const Scope& scope, DataType dtype, const PartialTensorShape& shape);
Output AccumulateNV2(const Scope& scope, absl::Span<const Output> inputs,
                     const PartialTensorShape& shape);
Output ConjugateTranspose(const Scope& scope, const Input& x, const Input& perm);
Output GuaranteeConst(const Scope& scope, const Input& input);
Output DeepCopy(const Scope& scope, const Input& x);
Output DataFormatDimMap(const Scope& scope, const Input& x, absl::string_view src_format = "NHWC",
                        absl::string_view dst_format = "NCHW");
Output DataFormatVecPermute(const Scope& scope, const Input& x,
                            absl::string_view src_format = "NHWC",
                            absl::string_view dst_format = "NCHW");
Output InplaceAdd(const Scope& scope, const Input& x, const Input& i, const Input& v);
Output InplaceSub(const Scope& scope, const Input& x, const Input& i, const Input& v);
Output InplaceUpdate(const Scope& scope, const Input& x, const Input& i, const Input& v);
// out, idx (out_idx).
std::vector<Output> ListDiff(const Scope& scope, const Input& x, const Input& y,
                             DataType out_idx = DT_INT32);

// Indices of the boxes kept (NonMaxSuppressionV2 with iou_threshold an attr).
Output NonMaxSuppression(const Scope& scope, const Input& boxes, const Input& scores,
                         const Input& max_output_size, float iou_threshold = 0.5f);

// indices, values, shape of the pieces (tf.compat.v1.string_split: any byte of delimiter splits).
std::vector<Output> StringSplit(const Scope& scope, const Input& input, const Input& delimiter,
                                bool skip_empty = true);

// TF1's tf.matmul(a_is_sparse= / b_is_sparse=) and float x bfloat16 products: float out.
Output SparseMatMul(const Scope& scope, const Input& a, const Input& b, bool transpose_a = false,
                    bool transpose_b = false, bool a_is_sparse = false, bool b_is_sparse = false);

// The TensorArray names of TensorFlow 0.12-1.0 graphs: the handle is a string vector [container,
// name]; TensorArrayV2 and TensorArrayGradV2 output no flow (start the flow at a float 0).
Output TensorArrayV2(const Scope& scope, const Input& size, DataType dtype,
                     bool dynamic_size = false, bool clear_after_read = true);
Output TensorArrayWriteV2(const Scope& scope, const Input& handle, const Input& index,
                          const Input& value, const Input& flow_in);
Output TensorArrayReadV2(const Scope& scope, const Input& handle, const Input& index,
                         const Input& flow_in, DataType dtype);
Output TensorArrayGatherV2(const Scope& scope, const Input& handle, const Input& indices,
                           const Input& flow_in, DataType dtype);
Output TensorArrayScatterV2(const Scope& scope, const Input& handle, const Input& indices,
                            const Input& value, const Input& flow_in);
Output TensorArraySplitV2(const Scope& scope, const Input& handle, const Input& value,
                          const Input& lengths, const Input& flow_in);
// value (elements joined along dim 0), lengths (each element's dim 0).
std::vector<Output> TensorArrayConcatV2(const Scope& scope, const Input& handle,
                                        const Input& flow_in, DataType dtype);
Output TensorArraySizeV2(const Scope& scope, const Input& handle, const Input& flow_in);
Operation TensorArrayCloseV2(const Scope& scope, const Input& handle);
Output TensorArrayGradV2(const Scope& scope, const Input& handle, const Input& flow_in,
                         absl::string_view source);

// The TensorArray names of TensorFlow 0.x graphs (GraphDef producer versions below 16): the
// handle is a ref to the string vector [container, name]; TensorArray and TensorArrayGrad output
// no flow (start the flow at a float 0). Pack / Unpack read / write every element.
Output TensorArray(const Scope& scope, const Input& size, DataType dtype, bool dynamic_size = false,
                   bool clear_after_read = true);
Output TensorArrayWrite(const Scope& scope, const Input& handle, const Input& index,
                        const Input& value, const Input& flow_in);
Output TensorArrayRead(const Scope& scope, const Input& handle, const Input& index,
                       const Input& flow_in, DataType dtype);
Output TensorArrayGather(const Scope& scope, const Input& handle, const Input& indices,
                         const Input& flow_in, DataType dtype);
Output TensorArrayScatter(const Scope& scope, const Input& handle, const Input& indices,
                          const Input& value, const Input& flow_in);
Output TensorArrayPack(const Scope& scope, const Input& handle, const Input& flow_in,
                       DataType dtype);
Output TensorArrayUnpack(const Scope& scope, const Input& handle, const Input& value,
                         const Input& flow_in);
Output TensorArraySplit(const Scope& scope, const Input& handle, const Input& value,
                        const Input& lengths, const Input& flow_in);
// value (elements joined along dim 0), lengths (each element's dim 0).
std::vector<Output> TensorArrayConcat(const Scope& scope, const Input& handle, const Input& flow_in,
                                      DataType dtype);
Output TensorArraySize(const Scope& scope, const Input& handle, const Input& flow_in);
Operation TensorArrayClose(const Scope& scope, const Input& handle);
// `handle` is a plain string vector here (TensorFlow's signature); the output is a ref.
Output TensorArrayGrad(const Scope& scope, const Input& handle, const Input& flow_in,
                       absl::string_view source);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_LEGACY_OPS_H_
