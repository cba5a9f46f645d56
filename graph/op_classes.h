// Op classes: the one place that sorts op names into the kinds the passes and the executor treat
// specially (TensorFlow's Node::IsSend(), IsMerge(), ...). Every pass asks here instead of
// comparing op names itself, so a new op of a kind (a Ref* variant, a V2 placeholder) is taught
// to all of them at once.
//
//   OpClass c = ClassifyOp(node.op());
//   if (IsTransfer(c)) ...          // _Send, _Recv, _HostSend, _HostRecv
//   if (IsLoopControl(c)) ...       // Enter, Exit, NextIteration
//
// Node (graph/graph.h) caches its class at creation: node->op_class(). Pure functions;
// thread-safe.
#ifndef RILL_GRAPH_OP_CLASSES_H_
#define RILL_GRAPH_OP_CLASSES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace rill {

// One byte, so that a Node keeps its class beside its id (graph/graph.h).
enum class OpClass : uint8_t {
  kOther,
  kSend,         // _Send, _HostSend
  kRecv,         // _Recv, _HostRecv
  kArg,          // _Arg (a fed tensor or a function argument)
  kRetval,       // _Retval (a fetched tensor or a function result)
  kConst,        // Const
  kPlaceholder,  // Placeholder (fails when not fed)
  kPlaceholderWithDefault,
  kIdentity,         // Identity, StopGradient, PreventGradient: output = input
  kSwitch,           // Switch, RefSwitch, _SwitchN
  kMerge,            // Merge, RefMerge
  kEnter,            // Enter, RefEnter
  kExit,             // Exit, RefExit
  kNextIteration,    // NextIteration, RefNextIteration
  kLoopCond,         // LoopCond
  kControlTrigger,   // ControlTrigger
  kShapeMetadata,    // Shape, Size, Rank: read only their input's shape
  kFunctionalIf,     // If, StatelessIf
  kFunctionalWhile,  // While, StatelessWhile
  kFunctionCall,     // PartitionedCall, StatefulPartitionedCall
  kFunctionalCase,   // Case, StatelessCase
};

// The class of an op by its name; kOther for every op without a special role.
OpClass ClassifyOp(absl::string_view op);
// Every op name ClassifyOp maps to a class satisfying `pred`, sorted by name.
std::vector<std::string> OpsOfClass(bool (*pred)(OpClass));

inline bool IsSend(OpClass c) { return c == OpClass::kSend; }
inline bool IsRecv(OpClass c) { return c == OpClass::kRecv; }
// Moves a tensor between partitions; runs even when its input is dead, to pass deadness on.
inline bool IsTransfer(OpClass c) { return c == OpClass::kSend || c == OpClass::kRecv; }
inline bool IsArg(OpClass c) { return c == OpClass::kArg; }
inline bool IsRetval(OpClass c) { return c == OpClass::kRetval; }
inline bool IsConstant(OpClass c) { return c == OpClass::kConst; }
inline bool IsPlaceholder(OpClass c) { return c == OpClass::kPlaceholder; }
// Placeholder or PlaceholderWithDefault: a value the caller may feed.
inline bool IsAnyPlaceholder(OpClass c) {
  return c == OpClass::kPlaceholder || c == OpClass::kPlaceholderWithDefault;
}
inline bool IsIdentity(OpClass c) { return c == OpClass::kIdentity; }
inline bool IsSwitch(OpClass c) { return c == OpClass::kSwitch; }
inline bool IsMerge(OpClass c) { return c == OpClass::kMerge; }
inline bool IsEnter(OpClass c) { return c == OpClass::kEnter; }
inline bool IsExit(OpClass c) { return c == OpClass::kExit; }
inline bool IsNextIteration(OpClass c) { return c == OpClass::kNextIteration; }
inline bool IsLoopCond(OpClass c) { return c == OpClass::kLoopCond; }
inline bool IsControlTrigger(OpClass c) { return c == OpClass::kControlTrigger; }
inline bool IsShapeMetadata(OpClass c) { return c == OpClass::kShapeMetadata; }
// Enter, Exit and NextIteration: the ops that move a value between loop frames or iterations.
inline bool IsLoopControl(OpClass c) {
  return c == OpClass::kEnter || c == OpClass::kExit || c == OpClass::kNextIteration;
}
// TF1 control flow: Switch, Merge, Enter, Exit, NextIteration, LoopCond, ControlTrigger.
inline bool IsControlFlow(OpClass c) {
  return c == OpClass::kSwitch || c == OpClass::kMerge || IsLoopControl(c) ||
         c == OpClass::kLoopCond || c == OpClass::kControlTrigger;
}
// If, Case, While and function calls: replaced by function lowering before placement.
inline bool IsFunctional(OpClass c) {
  return c == OpClass::kFunctionalIf || c == OpClass::kFunctionalCase ||
         c == OpClass::kFunctionalWhile || c == OpClass::kFunctionCall;
}
// Ops whose output may be left unset without an error (it is then dead): Switch's untaken
// branch, a _Recv of a dead tensor.
inline bool MayLeaveOutputUnset(OpClass c) { return c == OpClass::kSwitch || c == OpClass::kRecv; }

}  // namespace rill

#endif  // RILL_GRAPH_OP_CLASSES_H_
