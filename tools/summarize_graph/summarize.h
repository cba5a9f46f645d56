// SummarizeGraph: a human-readable overview of a GraphDef, as TensorFlow's summarize_graph tool
// prints: node count, op histogram, likely inputs and outputs, devices, constants, functions and
// ops not in Rill's op registry. Pure function; thread-safe (reads the op registry).
//
//   std::cout << SummarizeGraph(graph);
#ifndef RILL_TOOLS_SUMMARIZE_GRAPH_SUMMARIZE_H_
#define RILL_TOOLS_SUMMARIZE_GRAPH_SUMMARIZE_H_

#include <string>

#include "proto/graph.pb.h"

namespace rill {

// Lines, each ending in '\n':
//   nodes: <N>
//   ops: <N> types                     then "  <op> <count>" sorted by count desc, then name
//   inputs: <N>                        then "  <name> (<dtype>, <shape>)" per Placeholder
//   outputs: <N>                       then "  <name> (<op>)" per node no other node consumes
//   devices: <N>                       then "  <device> <count>" sorted by name (requested only)
//   constants: <N> Const nodes, <B> bytes
//   functions: <N>                     then "  <name>" per library function, in library order
//   unknown ops: none | <op> (<k> node[s]), ...   sorted by name; nodes of the graph and of
//                                      its function bodies whose op is not registered, leaving
//                                      out functional ops the session lowers (If, While,
//                                      PartitionedCall, ...) and calls of library functions
std::string SummarizeGraph(const GraphDef& graph);

}  // namespace rill

#endif  // RILL_TOOLS_SUMMARIZE_GRAPH_SUMMARIZE_H_
