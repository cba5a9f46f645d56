#include "tests/distributed/cluster_fixture.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rill {
namespace testing {
namespace {

constexpr char kServer[] = "tools/rill_server/rill_server";

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// Waits up to `timeout_ms` for `pid` to exit; its status, or -1 if it did not.
int WaitExit(pid_t pid, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

}  // namespace

ClusterFixture::~ClusterFixture() {
  for (size_t i = 0; i < pids_.size(); ++i) Kill(static_cast<int>(i));
}

absl::Status ClusterFixture::Start(const std::vector<std::string>& task_jobs,
                                   const std::vector<std::string>& extra_flags) {
  extra_flags_ = extra_flags;
  std::map<std::string, int> next;
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> by_job;
  for (const std::string& job : task_jobs) {
    if (!next.count(job)) order.push_back(job);
    jobs_.push_back(job);
    task_index_.push_back(next[job]++);
    addresses_.push_back(absl::StrCat("127.0.0.1:", FreePort()));
    by_job[job].push_back(addresses_.back());
    pids_.push_back(-1);
    outputs_.emplace_back();
  }
  std::vector<std::string> specs;
  for (const std::string& job : order) {
    JobDef* j = cluster_.add_job();
    j->set_name(job);
    for (size_t t = 0; t < by_job[job].size(); ++t) {
      (*j->mutable_tasks())[static_cast<int>(t)] = by_job[job][t];
    }
    specs.push_back(absl::StrCat(job, "|", absl::StrJoin(by_job[job], ";")));
  }
  spec_ = absl::StrJoin(specs, ",");
  for (size_t i = 0; i < task_jobs.size(); ++i) {
    absl::Status s = Launch(static_cast<int>(i));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ClusterFixture::Launch(int i) {
  // The server's stdout goes to a file, read for "serving" here and by Output() later.
  const char* dir = std::getenv("TEST_TMPDIR");
  outputs_[i] = absl::StrCat(dir != nullptr ? dir : "/tmp", "/rill_server_", getpid(), "_",
                             addresses_[i].substr(addresses_[i].rfind(':') + 1), ".out");
  const int out = open(outputs_[i].c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) return absl::InternalError(absl::StrCat("cannot create ", outputs_[i]));
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    // The server dies with the test: a test that crashes cannot leave it running, holding the
    // test's stderr open (Bazel then waits for it until the test's timeout).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(out, STDOUT_FILENO);
    std::vector<std::string> args = {kServer,
                                     absl::StrCat("--cluster_spec=", spec_),
                                     absl::StrCat("--job_name=", jobs_[i]),
                                     absl::StrCat("--task_id=", task_index_[i]),
                                     "--inter_op_threads=2",
                                     "--intra_op_threads=1"};
    args.insert(args.end(), extra_flags_.begin(), extra_flags_.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(kServer, argv.data());
    _exit(127);
  }
  close(out);
  pids_[i] = pid;
  // The server prints "rill_server: serving ..." once it listens.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!absl::StrContains(Output(i), "serving") && std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      pids_[i] = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const std::string seen = Output(i);
  if (!absl::StrContains(seen, "serving")) {
    Kill(i);
    return absl::InternalError(absl::StrCat("rill_server task ", i, " did not start: ", seen));
  }
  return absl::OkStatus();
}

std::string ClusterFixture::Output(int i) const {
  std::ifstream in(outputs_[i]);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void ClusterFixture::Kill(int i) {
  if (pids_[i] <= 0) return;
  kill(pids_[i], SIGKILL);
  WaitExit(pids_[i], 5000);
  pids_[i] = -1;
}

absl::Status ClusterFixture::Stop(int i) {
  if (pids_[i] <= 0) return absl::OkStatus();
  kill(pids_[i], SIGTERM);
  int status = WaitExit(pids_[i], 10000);
  if (status == -1) {
    Kill(i);
    return absl::InternalError("rill_server did not exit within 10 s of SIGTERM");
  }
  pids_[i] = -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(absl::StrCat("rill_server exited with status ", status));
  }
  return absl::OkStatus();
}

absl::Status ClusterFixture::Restart(int i) {
  Kill(i);
  return Launch(i);
}

}  // namespace testing
}  // namespace rill
