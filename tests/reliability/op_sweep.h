// The every-op sweep (issue 26): for each registered op with a CPU kernel, one-node graphs whose
// inputs are Consts of hostile values and whose attrs take hostile values, the way a careless or
// hostile user writes them. Each case is run the user's way (Session::Create, Run twice), and
// must end in a status with a message: never a crash, an abort, a hang or two different results
// of one deterministic graph.
//
// What the cases cover, for every dtype assignment a CPU kernel registers (up to four per op):
//   - inputs from a list of recipes: scalars, vectors, matrices, empty tensors ([0], [2,0]),
//     rank 4, NaN/inf/-0 and INT_MIN/INT_MAX, 2^40 (huge sizes), negatives, permutations, and
//     seeded mixtures of these per input (shape mismatches between inputs);
//   - each attr at its default (or a plain value when it has none), then one at a time at hostile
//     values: -1, 0 and 2^40 for ints; empty, zero, negative and huge lists; NaN and -1 for floats;
//     "" and an unknown string; invalid and huge shapes; flipped bools; a function that does not
//     exist.
// Ops that need a reference, resource or variant input (a variable, a queue, a list) are listed
// as skipped: other tests build their producers.
//
//   for (const SweepCase& c : SweepCasesForOp("Conv2D")) RunSweepCase(c);
//
// Pure functions of the registries; thread-safe.
#ifndef RILL_TESTS_RELIABILITY_OP_SWEEP_H_
#define RILL_TESTS_RELIABILITY_OP_SWEEP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "proto/graph.pb.h"

namespace rill {
namespace op_sweep {

struct SweepCase {
  std::string op;
  std::string label;          // "T=DT_FLOAT inputs=empty attrs=default": which recipe made it
  GraphDef graph;             // Const inputs "in_<arg>_<i>" feeding node "x"
  bool deterministic = true;  // two runs must give bit-identical outputs
};

// The cases for `op`; empty with the reason in `*skipped` for an op the sweep cannot feed (no CPU
// kernel, a reference, resource or variant input).
// `seed` varies the seeded input mixtures and attr pairs (0: the cases CI runs).
std::vector<SweepCase> SweepCasesForOp(const std::string& op, std::string* skipped,
                                       uint32_t seed = 0);

// What running a case gave.
struct SweepResult {
  absl::Status create;
  absl::Status run;    // the first Run (OK when Create failed)
  std::string defect;  // empty unless a property failed: "run 2 differs", "empty message", ...
  std::vector<Tensor> outputs;  // the first run's fetch (x:0) when it succeeded
};

// Creates a session for `c.graph` (operation_timeout_in_ms = `timeout_ms`) and runs node x
// twice, fetching its first output when it has one.
SweepResult RunSweepCase(const SweepCase& c, int timeout_ms);

}  // namespace op_sweep
}  // namespace rill

#endif  // RILL_TESTS_RELIABILITY_OP_SWEEP_H_
