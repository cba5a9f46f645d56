// What a GraphDef must satisfy beyond its nodes before Rill imports it, as TensorFlow checks:
//   - versions: Rill reads graphs as TensorFlow 2.21's consumer version (kGraphDefVersion); a
//     graph whose min_consumer is above it, or that lists it in bad_consumers, or whose producer
//     is below kGraphDefVersionMinProducer, is refused with TensorFlow's texts;
//   - the function library: two different functions with one name, a function named like a
//     registered op, or two gradient functions for one function, are refused (TensorFlow's
//     FunctionLibraryDefinition texts);
//   - a node calling a library function passes as many data inputs as the function's signature
//     has (TensorFlow's "NodeDef expected inputs ... do not match ..." text).
// Each returns InvalidArgument; pure functions (the op check reads the op registry).
#ifndef RILL_GRAPH_GRAPH_DEF_VERSIONS_H_
#define RILL_GRAPH_GRAPH_DEF_VERSIONS_H_

#include "absl/status/status.h"
#include "proto/function.pb.h"
#include "proto/node_def.pb.h"
#include "proto/versions.pb.h"

namespace rill {

// TensorFlow 2.21's TF_GRAPH_DEF_VERSION and its minimums (facts of its versions.h).
inline constexpr int kGraphDefVersion = 2474;
inline constexpr int kGraphDefVersionMinConsumer = 0;
inline constexpr int kGraphDefVersionMinProducer = 0;

absl::Status CheckGraphDefVersions(const VersionDef& versions);

absl::Status CheckFunctionLibrary(const FunctionDefLibrary& library);

// `node` calls `function` (node.op() is the function's name).
absl::Status CheckFunctionCallInputs(const NodeDef& node, const FunctionDef& function);

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_DEF_VERSIONS_H_
