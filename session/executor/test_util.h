// Test support for the executor parts' unit tests: test ops ("PartTest*") with do-nothing kernels
// in a private registry (next to do-nothing kernels for the real control-flow, transfer and
// runtime ops the tests use), and a one-line way to write a node of a GraphDef.
//
// Kernels never run here: the parts' tests drive the propagators and the dispatcher themselves,
// and only read what BuildNodeItems made of each node (expensive, async, op class).
// Thread-safe (the registry is built once).
#ifndef RILL_SESSION_EXECUTOR_TEST_UTIL_H_
#define RILL_SESSION_EXECUTOR_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device.h"
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"
#include "session/executor/node_items.h"

namespace rill {
namespace executor_internal {

// Ops (all int32 unless said otherwise; none has shape requirements):
//   PartTestSource   () -> out           attr value: int (the value tests give it), cheap
//   PartTestBool     () -> out: bool     attr value: bool, cheap
//   PartTestUnary    (in) -> out         cheap
//   PartTestBinary   (a, b) -> out       cheap (tests add a and b)
//   PartTestLess     (a, b) -> out: bool cheap
//   PartTestHeavy    (in) -> out         expensive
//   PartTestHeavySource () -> out        expensive
//   PartTestTwoOut   (in) -> (a, b)      cheap
//   PartTestSink     (in) -> ()          cheap
//   PartTestAsync    (in) -> out         async
//   PartTestRefSource () -> ref: Ref(int32)
//   PartTestRefReader (ref: Ref(int32)) -> out
//   PartTestRefInit  (ref: Ref(int32)) -> out, allows uninitialized input
// and do-nothing kernels for Enter, Exit, Merge, Switch, NextIteration, LoopCond,
// ControlTrigger, Identity, NoOp, _Send, _Recv, _Retval.
const KernelRegistry& PartTestKernels();

// "node { name: '<name>' op: '<op>' input: ... <attrs> }", where `attrs` is text-format attr
// entries ("attr { key: 'T' value { type: DT_INT32 } }"), and T: DT_INT32 is added for the ops
// that take T (Enter, Exit, Merge, Switch, NextIteration, Identity, _Send, _Retval).
std::string NodeText(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs = {}, const std::string& attrs = "");
// Enter's attrs: frame_name, is_constant, parallel_iterations.
std::string EnterAttrs(const std::string& frame, bool is_constant = false,
                       int parallel_iterations = 10);
// _Recv's (and _Send's) rendezvous attrs.
std::string TransferAttrs(const std::string& tensor_name);

// A while loop `for (i = <init>; i < <limit>; i += <step>)` in frame `frame`, its nodes named
// <p>/enter, <p>/limit_enter and <p>/step_enter (constant), <p>/merge, <p>/less, <p>/cond,
// <p>/switch, <p>/body (Identity of i in the loop), <p>/add, <p>/next and <p>/exit (the final i,
// in the enclosing frame). `init`, `limit` and `step` name nodes of the enclosing frame.
std::string LoopText(const std::string& p, const std::string& frame, const std::string& init,
                     const std::string& limit, const std::string& step,
                     int parallel_iterations = 10);

// The Graph a text GraphDef describes (imported, as the session's passes hand executors Graphs).
// Fails the test (and returns an empty Graph) when the text does not parse or import.
std::unique_ptr<Graph> ParseGraph(const std::string& text);

// The CPU device every test builds its kernels on.
Device* TestCpu();

// BuildNodeItems(ParseGraph(text), TestCpu(), PartTestKernels()).
absl::StatusOr<NodeItems> BuildTestItems(const std::string& text);

// The executor index of the node named `name` (its kernel's name); -1 when there is none.
int IndexOf(const NodeItems& items, const std::string& name);

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_TEST_UTIL_H_
