// Instruction counts of Session::Run for issue 14's workloads 1 and 2, under callgrind (stable on
// noisy machines, unlike times): tools/bench/callgrind_counts.sh runs this binary under
// `valgrind --tool=callgrind --separate-threads=yes` and divides the calling thread's counts by
// the iterations. Each workload is warmed up, then its timed loop is bracketed by
// CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT(name), so each dump holds that loop alone.
//   run overhead: one Add on [2,2], fed and fetched, 2000 runs
//   per node: a chain of 1000 Adds on [2,2], 20 runs (per node = (chain - overhead) / 999)
// Outside valgrind the macros do nothing and the binary just runs.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "session/session.h"
#include "tools/bench/bench_graphs.h"
#include "valgrind/callgrind.h"

namespace rill {
namespace {

int Measure(const char* name, int nodes, int runs) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(1);
  options.config.set_intra_op_parallelism_threads(1);
  auto session = Session::New(options);
  if (!session.ok() || !(*session)->Create(AddChain(nodes)).ok()) return 1;
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}));
  const std::string fetch = absl::StrCat("add_", nodes - 1);
  std::vector<Tensor> out;
  for (int i = 0; i < 20; ++i) {
    if (!(*session)->Run({{"x", x}}, {fetch}, {}, &out).ok()) return 1;
  }
  CALLGRIND_ZERO_STATS;
  for (int i = 0; i < runs; ++i) (*session)->Run({{"x", x}}, {fetch}, {}, &out).IgnoreError();
  CALLGRIND_DUMP_STATS_AT(name);
  return 0;
}

}  // namespace
}  // namespace rill

int main() {
  if (rill::Measure("run_overhead_2000_runs", 1, 2000) != 0) return 1;
  return rill::Measure("add_chain_1000_20_runs", 1000, 20);
}
