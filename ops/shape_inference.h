// Shape inference for one node: the context an op's shape function reads (input shapes, the
// NodeDef's attrs, constant input values where known) and writes (output shapes). Shapes are
// PartialTensorShape: an unknown dimension or rank is never an error; only a contradiction
// between known dims is (InvalidArgument naming the node).
//
//   absl::Status MatMulShape(ShapeInferenceContext& c) {
//     ... c.input(0), c.GetAttr("transpose_a", &ta) ..., c.set_output(0, PartialTensorShape({m,
//     n}));
//   }
//
// Constant inputs: when input i comes from a Const node, input_tensor(i) is its value, so shape
// functions of ops whose output shape is given by a value (Reshape's shape, Fill's dims, a
// reduction's axes, Tile's multiples) can give it:
//
//   std::vector<int64_t> dims;
//   if (c.ConstantIndexValues(1, &dims)) ... dims are known ...
//
// Shape inputs that are not constants may still be partly known: the evaluator
// (graph/shape_value.h) follows Shape, Pack, StridedSlice, ConcatV2, ... back through the graph and
// gives each int input its partial value (-1 where unknown). ShapeFromShapeTensor(i) reads a shape
// input either way, as TensorFlow's InferenceContext::MakeShapeFromShapeTensor does.
//
// A context is used by one thread at a time.
#ifndef RILL_OPS_SHAPE_INFERENCE_H_
#define RILL_OPS_SHAPE_INFERENCE_H_

#include <functional>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor.h"
#include "proto/node_def.pb.h"

namespace rill {

// A partially known integer value of rank 0 (`scalar`, one element) or rank 1, -1 where unknown:
// what the evaluator (graph/shape_value.h) knows of a shape tensor.
struct PartialValue {
  bool scalar = false;
  std::vector<int64_t> elements;
};

// What a resource input is known to hold (TensorFlow's handle shapes and types): the dtype and
// shape attrs of the VarHandleOp it comes from, reached through Identity.
struct HandleShape {
  DataType dtype = DT_INVALID;
  PartialTensorShape shape;
};

class ShapeInferenceContext {
 public:
  // `node` must outlive the context. Outputs start as unknown shapes. `input_tensors` holds the
  // constant value of each input (nullptr where not constant; may be shorter than the inputs);
  // the tensors are borrowed and must outlive the context.
  ShapeInferenceContext(const NodeDef& node, std::vector<PartialTensorShape> input_shapes,
                        int num_outputs, std::vector<const Tensor*> input_tensors = {})
      : node_(node),
        inputs_(std::move(input_shapes)),
        input_tensors_(std::move(input_tensors)),
        outputs_(num_outputs) {}

  const NodeDef& node() const { return node_; }
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  const PartialTensorShape& input(int i) const { return inputs_[i]; }
  // The value of input i when it is a known constant, else nullptr.
  const Tensor* input_tensor(int i) const {
    return i < static_cast<int>(input_tensors_.size()) ? input_tensors_[i] : nullptr;
  }
  // True, with the elements in *values, when input i is a known int32/int64 constant.
  bool ConstantIndexValues(int i, std::vector<int64_t>* values) const;
  // The partial values of the inputs (nullopt where nothing is known; may be shorter than the
  // inputs), set by the code that runs the shape function.
  void set_input_values(std::vector<std::optional<PartialValue>> values) {
    input_values_ = std::move(values);
  }
  // What each resource input holds where known (nullopt elsewhere; may be shorter than the
  // inputs), set by the code that runs the shape function.
  void set_input_handle_shapes(std::vector<std::optional<HandleShape>> shapes) {
    input_handles_ = std::move(shapes);
  }
  // What resource input i holds, or nullptr when unknown.
  const HandleShape* input_handle_shape(int i) const {
    return i < static_cast<int>(input_handles_.size()) && input_handles_[i] ? &*input_handles_[i]
                                                                            : nullptr;
  }

  // True, with the elements in *values (-1 where unknown), when input i is a vector whose value
  // is known at least in part: a constant, or a partial value.
  bool PartialIndexValues(int i, std::vector<int64_t>* values) const;
  // True, with the value in *value, when input i is a known int32/int64 scalar: a constant, or a
  // partial value other than -1 (unknown) such as Size or Rank of an input of known shape.
  bool ScalarIndexValue(int i, int64_t* value) const;
  // Input i, a shape tensor, as a shape (TensorFlow's MakeShapeFromShapeTensor): a constant or
  // partially known vector gives its elements as dims (-1 unknown), a constant scalar -1 an
  // unknown rank, a vector of known length that many unknown dims. Values the kernel would refuse
  // (dims below -1, other scalars, higher ranks) give an unknown shape: the kernel reports them.
  PartialTensorShape ShapeFromShapeTensor(int i) const;
  const PartialTensorShape& output(int i) const { return outputs_[i]; }
  void set_output(int i, PartialTensorShape shape) { outputs_[i] = std::move(shape); }
  std::vector<PartialTensorShape> TakeOutputs() { return std::move(outputs_); }

  // InvalidArgument "Shape must be rank R but is rank S for node 'X'" when known and different.
  absl::Status WithRank(int input_index, int rank) const;
  // Merges two dims (-1 unknown); InvalidArgument when both known and different.
  absl::Status MergeDim(int64_t a, int64_t b, int64_t* out, absl::string_view what) const;

 private:
  const NodeDef& node_;  // Not owned.
  std::vector<PartialTensorShape> inputs_;
  std::vector<const Tensor*> input_tensors_;  // Not owned.
  std::vector<std::optional<PartialValue>> input_values_;
  std::vector<std::optional<HandleShape>> input_handles_;
  std::vector<PartialTensorShape> outputs_;
};

using ShapeFn = std::function<absl::Status(ShapeInferenceContext&)>;

// The value shape inference may use for an input fed by `producer`: a Const node's value when it
// is an int32/int64 tensor of at most 1024 elements (shapes, axes, multiples, paddings); nullopt
// otherwise (a value that does not parse is the kernel's to report).
std::optional<Tensor> ConstantIndexTensor(const NodeDef& producer);

// Common shape functions.
namespace shape_fns {
absl::Status Unknown(ShapeInferenceContext& c);          // every output unknown
absl::Status Unchanged(ShapeInferenceContext& c);        // output 0 = input 0
absl::Status Scalar(ShapeInferenceContext& c);           // every output a scalar
absl::Status NoOutputs(ShapeInferenceContext& c);        // nothing to infer
absl::Status BroadcastBinary(ShapeInferenceContext& c);  // numpy broadcasting of inputs 0 and 1
absl::Status FromShapeAttr(ShapeInferenceContext& c);    // output 0 = the `shape` attr
absl::Status AllInputsMerged(ShapeInferenceContext& c);  // AddN: all inputs merged into output 0
// The numpy broadcast of two partial shapes (unknown rank if either is); InvalidArgument
// "Incompatible shapes: [2] vs. [3] for node 'x' (op Add)" when known dims disagree.
// The two shapes merged (known dims win; unknown rank takes the other's); InvalidArgument
// naming the node where known ranks or dims differ (`what` names the operands).
absl::StatusOr<PartialTensorShape> MergeShapes(const ShapeInferenceContext& c,
                                               const PartialTensorShape& a,
                                               const PartialTensorShape& b, absl::string_view what);
absl::StatusOr<PartialTensorShape> BroadcastPartial(const ShapeInferenceContext& c,
                                                    const PartialTensorShape& a,
                                                    const PartialTensorShape& b);
}  // namespace shape_fns

}  // namespace rill

#endif  // RILL_OPS_SHAPE_INFERENCE_H_
