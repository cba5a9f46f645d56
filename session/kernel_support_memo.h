// The placer's per-node question "which device types have a kernel for this NodeDef", answered
// once per distinct (op, type attrs) instead of once per node: a graph's nodes mostly repeat a few
// ops with the same dtypes (100,000 Float Consts, a chain of Float Identities), and each lookup in
// the kernel registry searches its table by op name and reads the NodeDef's type attrs.
//
// The key holds the op and, for every attr (in name order), its name, its kind and, for a type or
// a list, its dtypes: everything a kernel's type constraints can read (KernelRegistry's matching,
// and the test fakes, read only the op and type-valued attrs). Other values (a Const's tensor, a
// shape, the node's name and device) are not part of it, so an implementation of
// KernelAvailability whose answer depended on them must not be used through this memo.
//
// Not thread-safe; one per placement. Borrows `kernels`, which must outlive it.
#ifndef RILL_SESSION_KERNEL_SUPPORT_MEMO_H_
#define RILL_SESSION_KERNEL_SUPPORT_MEMO_H_

#include <deque>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "kernels/framework/kernel_registry.h"
#include "proto/node_def.pb.h"

namespace rill {

class KernelSupportMemo {
 public:
  KernelSupportMemo(const KernelAvailability& kernels, std::vector<std::string> device_types)
      : kernels_(kernels), device_types_(std::move(device_types)) {}

  // kernels.SupportedDeviceTypes(node, device_types), asked the first time a node with this
  // node's op and type attrs comes. The reference is valid until the memo is destroyed.
  const std::vector<std::string>& SupportedDeviceTypes(const NodeDef& node);

  // How many times the memo asked `kernels` (distinct keys seen).
  int lookups() const { return static_cast<int>(answers_.size()); }

  // The key of `node` (op, then each attr's name, kind and dtypes), written into `key`.
  static void KeyOf(const NodeDef& node, std::string* key);

 private:
  const KernelAvailability& kernels_;
  const std::vector<std::string> device_types_;
  std::string key_;       // reused between calls: no allocation per node once it has grown
  std::string last_key_;  // the key of the previous call, whose answer is answers_[last_]
  int last_ = -1;
  absl::flat_hash_map<std::string, int> index_;   // key -> answers_ index
  std::deque<std::vector<std::string>> answers_;  // a deque: answers stay where they are
};

}  // namespace rill

#endif  // RILL_SESSION_KERNEL_SUPPORT_MEMO_H_
