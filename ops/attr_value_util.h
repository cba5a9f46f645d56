// Reading, typing and printing AttrValues and NodeDef attrs.
//
//   int64_t n; RILL_RETURN_IF_ERROR(GetNodeAttr(node, "N", &n));
//   AttrValueTypeName(value)        // "int", "list(type)", ...
//   SummarizeAttrValue(value)       // "DT_FLOAT", "[1, 2]", "true"
//
// GetNodeAttr fails with InvalidArgument `No attr named 'x' in NodeDef:` (TensorFlow's words plus
// the node name) when missing, and `AttrValue had value with type '<got>' when '<want>' expected`
// when the value has the wrong kind. Pure functions; thread-safe.
#ifndef RILL_OPS_ATTR_VALUE_UTIL_H_
#define RILL_OPS_ATTR_VALUE_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/attr_value.pb.h"
#include "proto/node_def.pb.h"
#include "proto/tensor_shape.pb.h"

namespace rill {

// The OpDef spelling of the kind a value holds: "string", "int", "float", "bool", "type",
// "shape", "tensor", "func", "placeholder", "list(int)", ...; "list(?)" for an empty list (which
// matches any list kind) and "" for an unset value.
std::string AttrValueTypeName(const AttrValue& value);
// True if `value` holds the kind named by `type` (an OpDef attr type such as "list(type)").
bool AttrValueHasType(const AttrValue& value, absl::string_view type);
// Short human form of a value for error messages and logs.
std::string SummarizeAttrValue(const AttrValue& value);

// Typed getters. `out` is written only on success.
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, std::string* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, int64_t* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, int32_t* out);
// InvalidArgument "Attr <name> has value <v> out of range for an int32" (TensorFlow's text) when an
// int attr TensorFlow reads as int32 (masks, window sizes, counts) does not fit one.
absl::Status CheckInt32Attr(absl::string_view name, int64_t v);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, float* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, bool* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, DataType* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, TensorShapeProto* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, std::vector<DataType>* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name,
                         std::vector<std::string>* out);
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, std::vector<int64_t>* out);
// Returns the attr or nullptr; never fails.
const AttrValue* FindNodeAttr(const NodeDef& node, absl::string_view name);

// Setters used by builders and rewrites.
void SetAttr(NodeDef* node, absl::string_view name, const std::string& v);
void SetAttr(NodeDef* node, absl::string_view name, const char* v);
void SetAttr(NodeDef* node, absl::string_view name, int64_t v);
void SetAttr(NodeDef* node, absl::string_view name, int v);
void SetAttr(NodeDef* node, absl::string_view name, float v);
void SetAttr(NodeDef* node, absl::string_view name, bool v);
void SetAttr(NodeDef* node, absl::string_view name, DataType v);
void SetAttr(NodeDef* node, absl::string_view name, const std::vector<DataType>& v);
void SetAttr(NodeDef* node, absl::string_view name, const std::vector<std::string>& v);
void SetAttr(NodeDef* node, absl::string_view name, const std::vector<int64_t>& v);  // list(int)
void SetAttr(NodeDef* node, absl::string_view name, const TensorShapeProto& v);

}  // namespace rill

#endif  // RILL_OPS_ATTR_VALUE_UTIL_H_
