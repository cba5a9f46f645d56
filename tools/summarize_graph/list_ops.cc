#include "tools/summarize_graph/list_ops.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"

namespace rill {

std::string ListRegisteredOps() {
  std::map<std::string, std::set<std::string>> devices;  // op -> device types
  for (const KernelDef& def : KernelRegistry::Global()->ListKernels()) {
    devices[def.op].insert(def.device_type);
  }
  std::string out;
  for (const std::string& op : OpRegistry::Global()->ListOps(/*include_internal=*/false)) {
    std::vector<std::string> types(devices[op].begin(), devices[op].end());
    std::stable_partition(types.begin(), types.end(),
                          [](const std::string& t) { return t == "CPU"; });
    absl::StrAppend(&out, op, " ", types.empty() ? "-" : absl::StrJoin(types, ","), "\n");
  }
  return out;
}

}  // namespace rill
