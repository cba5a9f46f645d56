// The ops a _RillRecurrentSequence step may hold: no call frame, rendezvous, variables or loop
// frames; their CPU kernels read only their inputs, attrs and, for the TF1 TensorArray reads,
// writes and sizes, the step's TensorArrays (OpKernelContext::step_resources), which the loop's
// own nodes would reach the same way. The recurrent sequence fusion
// (graph/recurrent_sequence_fusion.h) fuses only frames of these (plus Identity and NoOp, which it
// looks through); the kernel (kernels/nn/recurrent_sequence_op.cc) refuses a step node of any
// other op, and runs a stateful one (its OpDef's is_stateful: the TensorArray ops) every step.
// Thread-safe.
#ifndef RILL_GRAPH_RECURRENT_STEP_OPS_H_
#define RILL_GRAPH_RECURRENT_STEP_OPS_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace rill {

inline bool IsRecurrentStepOp(absl::string_view op) {
  static const auto* kOps = new absl::flat_hash_set<std::string>{"Const",
                                                                 "Add",
                                                                 "AddV2",
                                                                 "Sub",
                                                                 "Mul",
                                                                 "RealDiv",
                                                                 "Maximum",
                                                                 "Minimum",
                                                                 "Neg",
                                                                 "Sigmoid",
                                                                 "Tanh",
                                                                 "Relu",
                                                                 "Relu6",
                                                                 "Elu",
                                                                 "Selu",
                                                                 "Softplus",
                                                                 "Softsign",
                                                                 "Exp",
                                                                 "Square",
                                                                 "Cast",
                                                                 "MatMul",
                                                                 "BiasAdd",
                                                                 "Less",
                                                                 "LessEqual",
                                                                 "Greater",
                                                                 "GreaterEqual",
                                                                 "Equal",
                                                                 "NotEqual",
                                                                 "LogicalAnd",
                                                                 "LogicalOr",
                                                                 "LogicalNot",
                                                                 "ToBool",
                                                                 "Split",
                                                                 "SplitV",
                                                                 "Squeeze",
                                                                 "StridedSlice",
                                                                 "Slice",
                                                                 "Tile",
                                                                 "Select",
                                                                 "SelectV2",
                                                                 "ConcatV2",
                                                                 "Pack",
                                                                 "Unpack",
                                                                 "Reshape",
                                                                 "ExpandDims",
                                                                 "ZerosLike",
                                                                 "OnesLike",
                                                                 "_RillGruCell",
                                                                 "_RillGruUpdate",
                                                                 "_RillLstmCell",
                                                                 "TensorListGetItem",
                                                                 "TensorListSetItem",
                                                                 "TensorArrayReadV3",
                                                                 "TensorArrayWriteV3",
                                                                 "TensorArraySizeV3"};
  return kOps->contains(op);
}

}  // namespace rill

#endif  // RILL_GRAPH_RECURRENT_STEP_OPS_H_
