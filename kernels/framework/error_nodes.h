// The user's nodes a fused kernel names in its errors. A graph rewrite that replaces several
// nodes by one (the atrous fold, the LSTM / GRU cell and sequence fusions) lists, in the fused
// node's attr _rill_error_nodes (ErrorNodes::kAttr; graph/pass_edits.h's kErrorNodesAttr), the
// names of the replaced nodes whose errors the kernel reproduces, in an order each fused op
// documents; the kernel reports such an error with the node that gave it in the unfused graph, as
// the executor would have named it, so a user sees a node of their own graph (the executor leaves
// messages that already name a node alone). Attr _rill_error_operands_swapped (ErrorNodes::
// kSwappedAttr; list(int), graph/pass_edits.h's kErrorOperandsSwappedAttr) lists the entries whose
// node takes its two operands in the other order than the fused kernel's check names them, so the
// kernel gives the node's own text ("Incompatible shapes: [2,5] vs. [3,5]", not "[3,5] vs. [2,5]").
//
//   ErrorNodes nodes(ctx);                       // at construction
//   return nodes.At(1, BroadcastError(...));     // "... [[{{node lstm/mul_1}}]]"
//   nodes.Swapped(1) ? BroadcastShapes(b, a) : BroadcastShapes(a, b)  // the node's own order
//
// Immutable after construction; thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_ERROR_NODES_H_
#define RILL_KERNELS_FRAMEWORK_ERROR_NODES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

// `s` with the executor's "\n\t [[{{node NAME}}]]" (session/executor/node_items.h WithNode).
inline absl::Status AtNode(const absl::Status& s, absl::string_view node) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(s.message(), "\n\t [[{{node ", node, "}}]]"));
}

class ErrorNodes {
 public:
  static constexpr char kAttr[] = "_rill_error_nodes";
  static constexpr char kSwappedAttr[] = "_rill_error_operands_swapped";

  ErrorNodes() = default;
  explicit ErrorNodes(std::vector<std::string> names) : names_(std::move(names)) {}
  // Reads _rill_error_nodes and _rill_error_operands_swapped (none when absent).
  explicit ErrorNodes(const OpKernelConstruction& ctx) {
    (void)ctx.GetAttr(kAttr, &names_);
    (void)ctx.GetAttr(kSwappedAttr, &swapped_);
  }

  // Whether the node at `index` takes its two operands in the other order than the kernel's
  // check passes them (its operand shapes then go into its error the other way round).
  bool Swapped(int64_t index) const {
    for (int64_t i : swapped_) {
      if (i == index) return true;
    }
    return false;
  }

  // `s` naming the node at `index` of the list; `s` unchanged when it is OK or names a node
  // already (a nested fused kernel's), or when the list has no such entry (the executor then
  // names the fused node).
  absl::Status At(size_t index, const absl::Status& s) const {
    if (s.ok() || index >= names_.size() || names_[index].empty() ||
        absl::StrContains(s.message(), "{{node ")) {
      return s;
    }
    return AtNode(s, names_[index]);
  }
  template <typename T>
  absl::StatusOr<T> At(size_t index, absl::StatusOr<T> s) const {
    if (s.ok()) return s;
    return At(index, s.status());
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::vector<int64_t> swapped_;  // entries of names_ whose node's operands are swapped
};

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_ERROR_NODES_H_
