// Partial evaluation of shape tensors for shape inference, as TensorFlow's shape refiner does for
// InferenceContext::MakeShapeFromShapeTensor: the int32/int64 value an output will have, with the
// elements that are not known until run time -1. A shape input built from the graph's shapes,
// such as
//
//   Reshape(t, Pack(StridedSlice(Shape(x), [0], [1], shrink_axis_mask=1), 4))
//
// with x of shape [?, 3], has the partial value [-1, 4]; Tile, Fill, BroadcastTo, random ops,
// ... then give their outputs dimensions that a constant-only evaluation leaves unknown.
//
// Producers evaluated: Const; Shape and ShapeN (the input's partial shape); Size and Rank of
// inputs whose shape is fully defined, resp. of known rank; Identity, StopGradient and integer
// Cast; Pack of scalars along axis 0; Concat and ConcatV2 of vectors; StridedSlice of a vector
// with constant begin, end and strides (no ellipsis or new axes); Range of known integer bounds
// (at most 1024 elements); Add, AddV2, Sub, Mul, FloorDiv, FloorMod, Maximum and Minimum of a
// scalar and a vector or of vectors of one length, element by element. Anything else is unknown. As
// in TensorFlow, -1 stands for "unknown", so a Pack of a literal -1 (Reshape's "infer this
// dimension") reads as an unknown dimension, which is what Reshape makes of it.
#ifndef RILL_GRAPH_SHAPE_VALUE_H_
#define RILL_GRAPH_SHAPE_VALUE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/partial_tensor_shape.h"
#include "ops/shape_inference.h"
#include "proto/node_def.pb.h"

namespace rill {

// The graph the evaluator walks back through. Nodes are the implementation's handles.
class ShapeValueGraph {
 public:
  virtual ~ShapeValueGraph() = default;
  virtual const NodeDef& Def(int node) const = 0;
  // The producer (node and output index) of data input `i` of `node`; false when not known.
  virtual bool Input(int node, int i, int* producer, int* output) const = 0;
  // The inferred shape of `output` of `node` (unknown when not inferred).
  virtual PartialTensorShape OutputShape(int node, int output) const = 0;
};

// The partial value of `output` of `node`, or nullopt when nothing is known of it. Walks back at
// most a few producers deep.
std::optional<PartialValue> EvaluatePartialValue(const ShapeValueGraph& graph, int node,
                                                 int output);

}  // namespace rill

#endif  // RILL_GRAPH_SHAPE_VALUE_H_
