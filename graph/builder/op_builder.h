// Rill. OpBuilder: adds one node of any registered op to a Scope's graph. Every ops:: wrapper is a
// few lines over it; use it directly for an op without a wrapper.
//
//   Operation op = OpBuilder(scope, "MatMul")
//                      .Input(a)
//                      .Input(b)
//                      .Attr("transpose_a", true)
//                      .Finalize();
//   Output product = op.output(0);
//
// Finalize names the node (the scope's op name, else `default_name`, else the op type), fills the
// type attrs the inputs determine (a "T" bound by an input arg, a list arg's "N", a type-list
// attr) unless set explicitly, then the op registry's attr defaults; validates the NodeDef; checks
// every input against the dtype the op expects (a ref output may feed a non-ref input, never the
// reverse); applies the scope's device requests, colocation and control dependencies; runs the
// op's shape function; and appends the node to the graph.
//
// Errors are recorded in the scope's shared status, not returned; Finalize then returns an invalid
// Operation. Each message names the node, e.g.
//   NotFound "Node 'X' (Foo): Op type not registered 'Foo' in binary running on Rill. ..."
//   InvalidArgument "Node 'MatMul' (MatMul): NodeDef expected inputs 'float, float' do not match 1
//     inputs specified; ..."
//   InvalidArgument "Input 1 of node MatMul was passed int32 from b:0 incompatible with expected
//     float."
//   InvalidArgument "Node 'X' (Identity): NodeDef mentions attr 'foo' not in Op<name=Identity; ..."
// When the scope already holds an error, Finalize does nothing and returns an invalid Operation.
//
// An OpBuilder is used once, by one thread. The Scope it is given is copied.
#ifndef RILL_GRAPH_BUILDER_OP_BUILDER_H_
#define RILL_GRAPH_BUILDER_OP_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor_shape.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"
#include "proto/attr_value.pb.h"
#include "proto/node_def.pb.h"
#include "proto/tensor.pb.h"

namespace rill {

class OpBuilder {
 public:
  // `default_name` is the op name used when the scope has none; "" means `op_type`.
  OpBuilder(const Scope& scope, absl::string_view op_type, absl::string_view default_name = "");

  // The next input arg of the op, in OpDef order: a single tensor ...
  OpBuilder& Input(const Output& input);
  // ... given as an Output or a literal, which becomes a Const node first (graph/builder/input.h).
  OpBuilder& Input(const ::rill::Input& input);
  // ... or a list arg ("inputs: N * T", "input: T" with T a list(type)).
  OpBuilder& InputList(absl::Span<const Output> inputs);

  // Sets an attr (replacing an earlier value).
  OpBuilder& Attr(absl::string_view name, const AttrValue& value);
  OpBuilder& Attr(absl::string_view name, bool value);
  OpBuilder& Attr(absl::string_view name, int value);
  OpBuilder& Attr(absl::string_view name, int64_t value);
  OpBuilder& Attr(absl::string_view name, float value);
  OpBuilder& Attr(absl::string_view name, DataType value);
  OpBuilder& Attr(absl::string_view name, absl::string_view value);
  OpBuilder& Attr(absl::string_view name, const char* value);
  OpBuilder& Attr(absl::string_view name, const std::string& value);
  OpBuilder& Attr(absl::string_view name, const PartialTensorShape& value);
  OpBuilder& Attr(absl::string_view name, const TensorShape& value);
  OpBuilder& Attr(absl::string_view name, const TensorProto& value);
  OpBuilder& Attr(absl::string_view name, const std::vector<DataType>& value);
  OpBuilder& Attr(absl::string_view name, const std::vector<std::string>& value);
  OpBuilder& Attr(absl::string_view name, const std::vector<int64_t>& value);

  // Makes Finalize record `status` (naming the node) instead of building, unless an earlier
  // error was given. For wrappers whose arguments failed to convert (a ragged Const initializer).
  OpBuilder& Fail(const absl::Status& status);

  // Builds the node; see the file comment. Returns the node, or an invalid Operation when the
  // graph has an error (this node's or an earlier one).
  Operation Finalize();

 private:
  friend class Scope;
  Scope scope_;
  std::string op_type_;
  std::string default_name_;
  std::vector<std::vector<Output>> inputs_;  // one entry per input arg
  NodeDef attrs_;                            // only `attr` is used
  absl::Status error_;
};

}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_OP_BUILDER_H_
