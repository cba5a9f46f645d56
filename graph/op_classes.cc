#include "graph/op_classes.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace rill {

namespace {

const absl::flat_hash_map<std::string, OpClass>& ClassTable() {
  static const auto* const kClasses = new absl::flat_hash_map<std::string, OpClass>{
      {"_Send", OpClass::kSend},
      {"_HostSend", OpClass::kSend},
      {"_Recv", OpClass::kRecv},
      {"_HostRecv", OpClass::kRecv},
      {"_Arg", OpClass::kArg},
      {"_Retval", OpClass::kRetval},
      {"Const", OpClass::kConst},
      {"Placeholder", OpClass::kPlaceholder},
      {"PlaceholderWithDefault", OpClass::kPlaceholderWithDefault},
      {"Identity", OpClass::kIdentity},
      {"StopGradient", OpClass::kIdentity},
      {"PreventGradient", OpClass::kIdentity},
      {"Switch", OpClass::kSwitch},
      {"RefSwitch", OpClass::kSwitch},
      {"_SwitchN", OpClass::kSwitch},
      {"Merge", OpClass::kMerge},
      {"RefMerge", OpClass::kMerge},
      {"Enter", OpClass::kEnter},
      {"RefEnter", OpClass::kEnter},
      {"Exit", OpClass::kExit},
      {"RefExit", OpClass::kExit},
      {"NextIteration", OpClass::kNextIteration},
      {"RefNextIteration", OpClass::kNextIteration},
      {"LoopCond", OpClass::kLoopCond},
      {"ControlTrigger", OpClass::kControlTrigger},
      {"Shape", OpClass::kShapeMetadata},
      {"Size", OpClass::kShapeMetadata},
      {"Rank", OpClass::kShapeMetadata},
      {"If", OpClass::kFunctionalIf},
      {"StatelessIf", OpClass::kFunctionalIf},
      {"Case", OpClass::kFunctionalCase},
      {"StatelessCase", OpClass::kFunctionalCase},
      {"While", OpClass::kFunctionalWhile},
      {"StatelessWhile", OpClass::kFunctionalWhile},
      {"PartitionedCall", OpClass::kFunctionCall},
      {"StatefulPartitionedCall", OpClass::kFunctionCall},
  };
  return *kClasses;
}

}  // namespace

OpClass ClassifyOp(absl::string_view op) {
  auto it = ClassTable().find(op);
  return it == ClassTable().end() ? OpClass::kOther : it->second;
}

std::vector<std::string> OpsOfClass(bool (*pred)(OpClass)) {
  std::vector<std::string> names;
  for (const auto& [name, op_class] : ClassTable()) {
    if (pred(op_class)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace rill
