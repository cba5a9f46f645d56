// Partial values of a node's shape inputs in a Graph (graph/shape_value.h), for its shape function:
// what ImportGraphDef's shape inference and the C API's TF_FinishOperation pass on beside the
// Const values.
#ifndef RILL_GRAPH_SHAPE_VALUES_H_
#define RILL_GRAPH_SHAPE_VALUES_H_

#include <optional>
#include <vector>

#include "graph/graph.h"
#include "graph/shape_value.h"

namespace rill {

// One entry per input of `node` (none when no input has a value): the partial value of an
// int32/int64 data input not fed by a Const, nullopt for the others.
std::vector<std::optional<PartialValue>> InputPartialValues(const Node& node);

}  // namespace rill

#endif  // RILL_GRAPH_SHAPE_VALUES_H_
