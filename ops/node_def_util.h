// Checking a NodeDef against its OpDef, filling attr defaults, and computing the dtypes of a
// node's inputs and outputs. Messages use TensorFlow's key phrases and name the node and attr.
//
//   AddDefaultsToNodeDef(op_def, &node);
//   RILL_RETURN_IF_ERROR(ValidateNodeDef(node, op_def));
//   DataTypeVector in, out;
//   RILL_RETURN_IF_ERROR(InOutTypesForNode(node, op_def, &in, &out));
//
// Errors (all InvalidArgument): a missing attr ("NodeDef missing attr 'T' from Op<...>"), an attr
// of the wrong kind ("AttrValue had value with type ..."), a value outside allowed_values ("Value
// for attr 'T' of int32 is not in the list of allowed values: float, double"), a value below an
// int/list minimum, an attr the op does not declare ("NodeDef mentions attr 'x' not in Op<...>",
// names starting with '_' are allowed), and a data-input count that does not match ("NodeDef
// expected inputs 'float, float' do not match 1 inputs specified"). Pure functions; thread-safe.
#ifndef RILL_OPS_NODE_DEF_UTIL_H_
#define RILL_OPS_NODE_DEF_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/types.pb.h"

namespace rill {

using DataTypeVector = std::vector<DataType>;

// One entry of NodeDef.input: "name" (output 0), "name:3", or "^name" (control).
struct InputName {
  std::string node;
  int index = 0;  // -1 for a control input
  bool is_control() const { return index < 0; }
};
// InvalidArgument for an empty name or a malformed ":index".
absl::StatusOr<InputName> ParseInputName(absl::string_view input);

// "Op<name=MatMul; signature=a:T, b:T -> product:T; attr=T:type,allowed=[DT_FLOAT]>".
std::string SummarizeOpDef(const OpDef& op_def);
// "{{node MatMul}} = MatMul[T=DT_FLOAT](a, b)" style one-line summary.
std::string SummarizeNodeDef(const NodeDef& node);

// Adds every attr of `op_def` that has a default and is absent from `node`.
void AddDefaultsToNodeDef(const OpDef& op_def, NodeDef* node);
// ValidateNodeDefAttrs, then the dtypes the attrs imply (InOutTypesForNode's errors), then the
// input list: control inputs after data inputs, and as many data inputs as the op takes.
absl::Status ValidateNodeDef(const NodeDef& node, const OpDef& op_def);
// The attr checks of ValidateNodeDef alone: every attr known to `op_def` (names starting with
// '_' aside) with a value it allows, and every attr of `op_def` present. For nodes whose inputs
// are not a NodeDef input list (Graph::AddNode: edges).
absl::Status ValidateNodeDefAttrs(const NodeDef& node, const OpDef& op_def);
// The most tensors one input or output list may hold (a number attr such as Unpack's `num`).
inline constexpr int64_t kMaxArgListLength = int64_t{1} << 20;

// Dtypes of the data inputs and outputs (ref args as ref dtypes). REQUIRES: attrs present;
// InvalidArgument otherwise, and for a list longer than kMaxArgListLength.
absl::Status InOutTypesForNode(const NodeDef& node, const OpDef& op_def, DataTypeVector* inputs,
                               DataTypeVector* outputs);
// Number of data (non-control) inputs listed in `node`.
int NumDataInputs(const NodeDef& node);

}  // namespace rill

#endif  // RILL_OPS_NODE_DEF_UTIL_H_
