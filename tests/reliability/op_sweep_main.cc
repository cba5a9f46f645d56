// op_sweep: runs the every-op sweep (op_sweep.h) and reports each case that crashed, hung,
// aborted, ran out of its address space, broke a property, or failed with Internal/Unknown (a
// missed input check, usually). Cases run in a child process per op under an 8 GB address-space
// limit; a child that dies or stalls is reported at the case it was running and a new child
// goes on from the next case.
//
//   op_sweep [--ops=Conv2D,Fill] [--out=DIR] [--timeout_ms=2000] [--stall_seconds=60]
//            [--record=DIR] [--seed=N]
//
// --seed varies the seeded input mixtures and attr pairs (0, the default, is what CI runs).
// Built with --config=asan the address-space limit is left off (ASan's shadow is address space);
// run it with ASAN_OPTIONS=hard_rss_limit_mb=8000 for the same bound on memory.
// --record writes, for each case that ran and fetched x:0, DIR/<op>.<case>.graph.pb (the
// GraphDef), .label (its recipe) and .out.pb (x:0 as a TensorProto), for
// tests/tfgen/sweep_vs_tf.py to run the same graphs in TensorFlow and compare.
// Writes each reported case's GraphDef to DIR/<op>_<case>.pbtxt (session_runner --graph=...
// --target=x reproduces it). Exit status 0 when nothing crashed, hung or broke a property; 1
// otherwise; 2 for bad flags.
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/tensor_proto.h"
#include "google/protobuf/text_format.h"
#include "ops/op_registry.h"
#include "tests/reliability/op_sweep.h"

namespace rill {
namespace op_sweep {
namespace {

struct Flags {
  std::vector<std::string> ops;
  std::string out;
  std::string record;
  int timeout_ms = 2000;
  uint32_t seed = 0;
  int stall_seconds = 60;
};

bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (absl::StartsWith(a, "--ops=")) {
      flags->ops = absl::StrSplit(a.substr(6), ',', absl::SkipEmpty());
    } else if (absl::StartsWith(a, "--out=")) {
      flags->out = a.substr(6);
    } else if (absl::StartsWith(a, "--record=")) {
      flags->record = a.substr(9);
    } else if (absl::StartsWith(a, "--seed=")) {
      if (!absl::SimpleAtoi(a.substr(7), &flags->seed)) return false;
    } else if (absl::StartsWith(a, "--timeout_ms=")) {
      if (!absl::SimpleAtoi(a.substr(13), &flags->timeout_ms) || flags->timeout_ms < 1)
        return false;
    } else if (absl::StartsWith(a, "--stall_seconds=")) {
      if (!absl::SimpleAtoi(a.substr(16), &flags->stall_seconds) || flags->stall_seconds < 1) {
        return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

void WriteLine(int fd, const std::string& line) {
  std::string s = line + "\n";
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Writes case `i`'s graph and fetched output for the TensorFlow comparison.
void Record(const std::string& dir, const SweepCase& c, size_t i, const Tensor& output) {
  const std::string stem = absl::StrCat(dir, "/", c.op, ".", i);
  std::ofstream(stem + ".graph.pb", std::ios::binary) << c.graph.SerializeAsString();
  std::ofstream(stem + ".label") << c.label;
  TensorProto proto;
  TensorToProto(output, &proto, /*use_tensor_content=*/false);
  std::ofstream(stem + ".out.pb", std::ios::binary) << proto.SerializeAsString();
}

[[noreturn]] void Child(const std::vector<SweepCase>& cases, size_t start, int fd, int timeout_ms,
                        const std::string& record) {
#if !defined(__SANITIZE_ADDRESS__)
  rlimit limit{8ull << 30, 8ull << 30};
  setrlimit(RLIMIT_AS, &limit);
#endif  // ASan reserves terabytes of shadow address space: bound its RSS (hard_rss_limit_mb)
  for (size_t i = start; i < cases.size(); ++i) {
    WriteLine(fd, absl::StrCat("B ", i));
    const SweepResult r = RunSweepCase(cases[i], timeout_ms);
    if (!record.empty() && r.run.ok() && r.outputs.size() == 1 && r.defect.empty() &&
        r.outputs[0].dtype() != DT_VARIANT && r.outputs[0].dtype() != DT_RESOURCE) {
      Record(record, cases[i], i, r.outputs[0]);
    }
    const absl::Status& s = r.create.ok() ? r.run : r.create;
    std::string line = absl::StrCat("E ", i, " ", static_cast<int>(s.code()), " ",
                                    r.defect.empty() ? "-" : "DEFECT", " ", r.defect, " | ",
                                    s.message().substr(0, 300));
    for (char& ch : line) {
      if (ch == '\n') ch = ' ';
    }
    WriteLine(fd, line);
  }
  _exit(0);
}

struct Report {
  int cases = 0, ops = 0, skipped_ops = 0;
  std::map<std::string, int> codes;
  std::vector<std::string> failures;  // crashes, hangs, defects
  std::vector<std::string> notes;     // Internal/Unknown/DeadlineExceeded statuses
};

void Save(const Flags& flags, const SweepCase& c, size_t i) {
  if (flags.out.empty()) return;
  std::string text;
  google::protobuf::TextFormat::PrintToString(c.graph, &text);
  std::ofstream(absl::StrCat(flags.out, "/", c.op, "_", i, ".pbtxt")) << text;
}

void SweepOp(const Flags& flags, const std::string& op, Report* report) {
  std::string skipped;
  const std::vector<SweepCase> cases = SweepCasesForOp(op, &skipped, flags.seed);
  if (cases.empty()) {
    report->skipped_ops++;
    return;
  }
  report->ops++;
  size_t start = 0;
  while (start < cases.size()) {
    int fds[2];
    if (pipe(fds) != 0) return;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      Child(cases, start, fds[1], flags.timeout_ms, flags.record);
    }
    close(fds[1]);
    long current = -1;
    std::string buffer;
    bool stalled = false;
    while (true) {
      pollfd p{fds[0], POLLIN, 0};
      const int ready = poll(&p, 1, flags.stall_seconds * 1000);
      if (ready == 0) {
        stalled = true;
        kill(pid, SIGKILL);
        break;
      }
      char chunk[4096];
      const ssize_t n = read(fds[0], chunk, sizeof(chunk));
      if (n <= 0) break;
      buffer.append(chunk, static_cast<size_t>(n));
      size_t eol;
      while ((eol = buffer.find('\n')) != std::string::npos) {
        const std::string line = buffer.substr(0, eol);
        buffer.erase(0, eol + 1);
        std::vector<std::string> parts = absl::StrSplit(line, absl::MaxSplits(' ', 3));
        if (parts.size() < 2) continue;
        long i = 0;
        if (!absl::SimpleAtoi(parts[1], &i)) continue;
        if (parts[0] == "B") {
          current = i;
          continue;
        }
        current = -1;
        report->cases++;
        int code = 0;
        if (parts.size() > 2) absl::SimpleAtoi(parts[2], &code);
        const std::string code_name = absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
        report->codes[code_name]++;
        const std::string rest = parts.size() > 3 ? parts[3] : "";
        const std::string where = absl::StrCat(op, " #", i, " [", cases[i].label, "]");
        if (absl::StartsWith(rest, "DEFECT")) {
          report->failures.push_back(absl::StrCat("DEFECT ", where, ": ", rest.substr(7)));
          Save(flags, cases[i], i);
        } else if (code == static_cast<int>(absl::StatusCode::kInternal) ||
                   code == static_cast<int>(absl::StatusCode::kUnknown) ||
                   code == static_cast<int>(absl::StatusCode::kDeadlineExceeded)) {
          report->notes.push_back(absl::StrCat(code_name, " ", where, ": ", rest.substr(2)));
          Save(flags, cases[i], i);
        }
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (current < 0 && !stalled && WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    if (current < 0) current = static_cast<long>(start);  // died before its first case
    const std::string where =
        absl::StrCat(op, " #", current, " [", cases[static_cast<size_t>(current)].label, "]");
    report->failures.push_back(
        stalled ? absl::StrCat("HANG ", where, ": no progress for ", flags.stall_seconds, " s")
        : WIFSIGNALED(status) ? absl::StrCat("CRASH ", where, ": signal ", WTERMSIG(status), " (",
                                             strsignal(WTERMSIG(status)), ")")
                              : absl::StrCat("EXIT ", where, ": status ", WEXITSTATUS(status)));
    Save(flags, cases[static_cast<size_t>(current)], static_cast<size_t>(current));
    std::fprintf(stderr, "%s\n", report->failures.back().c_str());
    start = static_cast<size_t>(current) + 1;
  }
}

int Main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) {
    std::fprintf(stderr,
                 "usage: op_sweep [--ops=A,B] [--out=DIR] [--record=DIR] [--seed=N] "
                 "[--timeout_ms=N] [--stall_seconds=N]\n");
    return 2;
  }
  if (flags.ops.empty()) flags.ops = OpRegistry::Global()->ListOps(/*include_internal=*/false);
  signal(SIGPIPE, SIG_IGN);
  Report report;
  for (const std::string& op : flags.ops) SweepOp(flags, op, &report);
  for (const std::string& n : report.notes) std::printf("%s\n", n.c_str());
  for (const std::string& f : report.failures) std::printf("%s\n", f.c_str());
  std::printf("ops swept %d, skipped %d, cases %d;", report.ops, report.skipped_ops, report.cases);
  for (const auto& [code, count] : report.codes) std::printf(" %s %d", code.c_str(), count);
  std::printf("\nfailures %zu, notes %zu\n", report.failures.size(), report.notes.size());
  return report.failures.empty() ? 0 : 1;
}

}  // namespace
}  // namespace op_sweep
}  // namespace rill

int main(int argc, char** argv) { return rill::op_sweep::Main(argc, argv); }
