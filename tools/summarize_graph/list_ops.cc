#include "tools/summarize_graph/list_ops.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/op_classes.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"

namespace rill {

std::string ListRegisteredOps() {
  std::map<std::string, std::set<std::string>> devices;  // op -> device types
  for (const KernelDef& def : KernelRegistry::Global()->ListKernels()) {
    devices[def.op].insert(def.device_type);
  }
  // Functional ops have no kernels: the session lowers If and While to Switch / Merge / Enter /
  // Exit and inlines calls, so they run where those primitives do.
  std::vector<std::string> ops = OpRegistry::Global()->ListOps(/*include_internal=*/false);
  for (const std::string& op : OpsOfClass(IsFunctional)) {
    if (OpRegistry::Global()->LookUp(op) == nullptr) {
      ops.push_back(op);
      devices[op] = devices["Switch"];
    }
  }
  std::sort(ops.begin(), ops.end());
  std::string out;
  for (const std::string& op : ops) {
    std::vector<std::string> types(devices[op].begin(), devices[op].end());
    std::stable_partition(types.begin(), types.end(),
                          [](const std::string& t) { return t == "CPU"; });
    absl::StrAppend(&out, op, " ", types.empty() ? "-" : absl::StrJoin(types, ","), "\n");
  }
  return out;
}

}  // namespace rill
