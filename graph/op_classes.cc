#include "graph/op_classes.h"

#include <string>

#include "absl/container/flat_hash_map.h"

namespace rill {

OpClass ClassifyOp(absl::string_view op) {
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
      {"While", OpClass::kFunctionalWhile},
      {"StatelessWhile", OpClass::kFunctionalWhile},
      {"PartitionedCall", OpClass::kFunctionCall},
      {"StatefulPartitionedCall", OpClass::kFunctionCall},
  };
  auto it = kClasses->find(op);
  return it == kClasses->end() ? OpClass::kOther : it->second;
}

}  // namespace rill
