// Partial values of a node's shape inputs in a Graph (graph/shape_value.h) and what its resource
// inputs hold, for its shape function: what ImportGraphDef's shape inference and the C API's
// TF_FinishOperation pass on beside the Const values.
#ifndef RILL_GRAPH_SHAPE_VALUES_H_
#define RILL_GRAPH_SHAPE_VALUES_H_

#include <optional>
#include <vector>

#include "graph/graph.h"
#include "graph/shape_value.h"
#include "ops/shape_inference.h"

namespace rill {

// One entry per input of `node` (none when no input has a value): the partial value of an
// int32/int64 data input not fed by a Const, nullopt for the others.
std::vector<std::optional<PartialValue>> InputPartialValues(const Node& node);

// One entry per input of `node` (none when no input has one): for a resource input whose
// producer is a VarHandleOp, possibly through a chain of Identity nodes, that op's dtype and
// shape attrs (TensorFlow's handle shapes and types); nullopt for the others.
std::vector<std::optional<HandleShape>> InputHandleShapes(const Node& node);

}  // namespace rill

#endif  // RILL_GRAPH_SHAPE_VALUES_H_
