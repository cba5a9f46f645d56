// The error text of input_slots.h's uninitialized-input check, out of line: built only when a
// step fails. Stateless; thread-safe.
#include "session/executor/input_slots.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace rill {
namespace executor_internal {

absl::Status MissingInputError(const std::vector<NodeItem>& nodes, const NodeItem& item, int input,
                               const TensorValue& v) {
  const NodeItem& producer = nodes[item.input_src[input]];
  const std::string& src = producer.kernel->name();
  bool from_variable = v.is_ref() || item.input_is_ref[input];
  for (DataType type : producer.kernel->output_types()) from_variable |= IsRefType(type);
  const absl::Status s =
      from_variable
          ? absl::FailedPreconditionError(
                absl::StrCat("Attempting to use uninitialized value ", src))
          : absl::InternalError(absl::StrCat("Input ", input, " of node ", item.kernel->name(),
                                             " from ", src, " has no value"));
  return WithNode(s, item.kernel->name());
}

}  // namespace executor_internal
}  // namespace rill
