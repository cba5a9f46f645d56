// The structure of one TF1 loop frame (TensorFlow's lowering of a While, or Rill's), as the
// passes that replace a whole loop by one node (graph/recurrent_sequence_fusion.h) need it.
//
// A frame is the set of nodes reachable from its Enters (same frame_name), up to and including
// its Exits. MatchLoopFrame accepts it when it is a plain loop:
//   - exactly one LoopCond, on a CPU device, and every frame node on that same device;
//   - edges into the frame from outside only into Enters ("Enter" nodes with a data input), from
//     nodes that are never dead (graph/pass_queries.h's NeverDeadNodes: so the loop's deadness
//     is nobody's); no nested frame (an Enter of another frame reachable from this one's
//     Enters). Every node reachable from the Enters short of the Exits' readers is a frame node
//     (a reader of a body value, a fetch included, runs in the loop as in TensorFlow), so values
//     leave the frame through its Exits only;
//   - loop variables: a non-constant Enter and a NextIteration into a two-input Merge, read at
//     output 0 by one Switch on the LoopCond (and maybe by other frame nodes), the Merge's
//     output 1 unread; the Enter and the NextIteration read by that Merge alone;
//   - every Switch on the LoopCond, reading a variable's Merge or a constant Enter; a Switch's
//     output 0 read only by Exits ("Exit"), at most one per variable, and by nothing as data for
//     a constant Enter's Switch.
// Nothing is said about the other frame nodes (the condition and the body): the caller checks
// them. Reads only.
#ifndef RILL_GRAPH_LOOP_FRAME_H_
#define RILL_GRAPH_LOOP_FRAME_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "graph/graph.h"

namespace rill {

// One loop variable's control-flow nodes.
struct LoopVar {
  Node* enter = nullptr;
  Node* merge = nullptr;
  Node* sw = nullptr;
  Node* next = nullptr;  // the NextIteration
  Node* exit = nullptr;  // null when the loop's value is not read
};

struct LoopFrame {
  Node* loop_cond = nullptr;
  std::vector<Node*> nodes;  // every frame node, Enters and Exits included, Enters first
  std::vector<LoopVar> vars;
  absl::flat_hash_map<const Node*, int> var_of_merge;
  std::vector<Node*> waits;  // sources (outside the frame) of the Enters' control inputs
};

// The Enters of each frame, by frame_name.
using EntersByFrame = absl::flat_hash_map<std::string, std::vector<Node*>>;
EntersByFrame CollectEnters(Graph& graph);

// The frame of `loop_cond` as described above, or nullopt. `never_dead` is NeverDeadNodes's
// answer for the graph; frames of more than `max_nodes` nodes are refused.
std::optional<LoopFrame> MatchLoopFrame(Node* loop_cond, const EntersByFrame& enters,
                                        const std::vector<char>& never_dead, size_t max_nodes);

// Whether `enter` is an Enter with is_constant set (a value every iteration reads).
bool IsConstantEnter(const Node& enter);

}  // namespace rill

#endif  // RILL_GRAPH_LOOP_FRAME_H_
