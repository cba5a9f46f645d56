#include "tools/session_runner/omp_wait_policy.h"

#include <dirent.h>
#include <sched.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace rill {
namespace {

// The whole text of `path`, or "" when it cannot be read (small /proc and /sys files).
std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A non-negative integer at the start of `text` (after blanks); nullopt otherwise.
std::optional<long long> LeadingInteger(std::string_view text, std::string_view* rest) {
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const size_t start = i;
  long long value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (value > (1LL << 50)) return std::nullopt;
    value = value * 10 + (text[i] - '0');
    ++i;
  }
  if (i == start) return std::nullopt;
  if (rest != nullptr) *rest = text.substr(i);
  return value;
}

// This process's runnable threads, the calling one included (0 when /proc/self/task cannot be
// read).
int OwnRunnableThreads() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return 0;
  int runnable = 0;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    if (StatShowsRunnable(
            ReadSmallFile(std::string("/proc/self/task/") + entry->d_name + "/stat"))) {
      ++runnable;
    }
  }
  closedir(dir);
  return runnable;
}

}  // namespace

OmpWait ChooseOmpWait(const OmpWaitInputs& in, bool* unknown_rill_value) {
  if (unknown_rill_value != nullptr) *unknown_rill_value = false;
  if (in.omp_wait_policy != nullptr || in.gomp_spincount != nullptr) return OmpWait::kUserSet;
  const char* forced = in.rill_omp_wait;
  if (forced != nullptr && strcasecmp(forced, "spin") == 0) return OmpWait::kSpin;
  if (forced != nullptr && strcasecmp(forced, "passive") == 0) return OmpWait::kPassive;
  if (forced != nullptr && *forced != '\0' && strcasecmp(forced, "auto") != 0 &&
      unknown_rill_value != nullptr) {
    *unknown_rill_value = true;
  }
  if (in.team_threads <= 1 || in.runnable.empty() || in.team_threads > in.usable_cpus) {
    return OmpWait::kPassive;
  }
  double sum = 0;
  for (int r : in.runnable) sum += r;
  const double others = std::max(0.0, sum / in.runnable.size() - 1.0);
  return others + in.team_threads <= in.usable_cpus + 0.25 ? OmpWait::kSpin : OmpWait::kPassive;
}

std::optional<int> RunnableTasks(std::string_view loadavg) {
  // Three load averages, then "running/total".
  size_t i = 0;
  for (int field = 0; field < 3; ++field) {
    while (i < loadavg.size() && loadavg[i] == ' ') ++i;
    const size_t start = i;
    while (i < loadavg.size() && loadavg[i] != ' ') ++i;
    if (i == start) return std::nullopt;
  }
  std::string_view rest;
  std::optional<long long> running = LeadingInteger(loadavg.substr(i), &rest);
  if (!running || rest.empty() || rest[0] != '/' || *running > 1000000) return std::nullopt;
  return static_cast<int>(*running);
}

bool StatShowsRunnable(std::string_view stat) {
  const size_t close = stat.rfind(')');
  if (close == std::string_view::npos) return false;
  size_t i = close + 1;
  while (i < stat.size() && stat[i] == ' ') ++i;
  return i < stat.size() && stat[i] == 'R';
}

std::optional<double> QuotaFromCpuMax(std::string_view cpu_max) {
  std::string_view rest;
  std::optional<long long> quota = LeadingInteger(cpu_max, &rest);
  if (!quota) return std::nullopt;  // "max ..." or garbage: no quota
  std::optional<long long> period = LeadingInteger(rest, nullptr);
  if (!period || *period <= 0 || *quota <= 0) return std::nullopt;
  return static_cast<double>(*quota) / *period;
}

std::optional<double> QuotaFromCfs(std::string_view quota_us, std::string_view period_us) {
  std::optional<long long> quota = LeadingInteger(quota_us, nullptr);  // "-1": none
  std::optional<long long> period = LeadingInteger(period_us, nullptr);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return static_cast<double>(*quota) / *period;
}

std::vector<std::string> CgroupQuotaFiles(std::string_view proc_self_cgroup) {
  std::vector<std::string> files;
  while (!proc_self_cgroup.empty()) {
    const size_t eol = proc_self_cgroup.find('\n');
    std::string_view line = proc_self_cgroup.substr(0, eol);
    proc_self_cgroup =
        eol == std::string_view::npos ? std::string_view() : proc_self_cgroup.substr(eol + 1);
    // hierarchy-ID:controller-list:path
    const size_t first = line.find(':');
    if (first == std::string_view::npos) continue;
    const size_t second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    std::string_view controllers = line.substr(first + 1, second - first - 1);
    std::string path(line.substr(second + 1));
    if (path == "/") path.clear();
    if (controllers.empty()) {
      files.push_back("/sys/fs/cgroup" + path + "/cpu.max");
      continue;
    }
    bool has_cpu = false;
    std::string_view list = controllers;
    while (!list.empty()) {
      const size_t comma = list.find(',');
      if (list.substr(0, comma) == "cpu") has_cpu = true;
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    if (has_cpu) {
      files.push_back("/sys/fs/cgroup/" + std::string(controllers) + path + "/cpu.cfs_quota_us");
    }
  }
  return files;
}

int UsableCpus(int affinity_cpus, std::optional<double> quota_cpus) {
  int cpus = std::max(1, affinity_cpus);
  if (quota_cpus) cpus = std::min(cpus, std::max(1, static_cast<int>(std::floor(*quota_cpus))));
  return cpus;
}

OmpWaitInputs ReadOmpWaitInputs(int team_threads) {
  OmpWaitInputs in;
  in.omp_wait_policy = std::getenv("OMP_WAIT_POLICY");
  in.gomp_spincount = std::getenv("GOMP_SPINCOUNT");
  in.rill_omp_wait = std::getenv("RILL_OMP_WAIT");
  in.team_threads = team_threads;
  // Nothing below matters when the environment or a team of one decides.
  if (in.omp_wait_policy != nullptr || in.gomp_spincount != nullptr || team_threads <= 1) {
    return in;
  }
  cpu_set_t mask;
  int affinity = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) affinity = CPU_COUNT(&mask);
  std::optional<double> quota;
  for (const std::string& file : CgroupQuotaFiles(ReadSmallFile("/proc/self/cgroup"))) {
    std::optional<double> q;
    const std::string v1_suffix = "cpu.cfs_quota_us";
    if (file.size() > v1_suffix.size() &&
        file.compare(file.size() - v1_suffix.size(), v1_suffix.size(), v1_suffix) == 0) {
      const std::string dir = file.substr(0, file.size() - v1_suffix.size());
      q = QuotaFromCfs(ReadSmallFile(file), ReadSmallFile(dir + "cpu.cfs_period_us"));
    } else {
      q = QuotaFromCpuMax(ReadSmallFile(file));
    }
    if (q && (!quota || *q < *quota)) quota = q;
  }
  in.usable_cpus = UsableCpus(affinity, quota);
  if (team_threads > in.usable_cpus) return in;  // passive whatever the sample
  // Sampling stops once the other tasks seen exceed what all kSamples samples may hold for a
  // spin (ChooseOmpWait's mean then chooses passive already): a busy machine, where each sleep
  // also wakes late, costs a few samples.
  const double others_allowed = (in.usable_cpus + 0.25 - team_threads) * kSamples;
  double others_seen = 0;
  for (int s = 0; s < kSamples && others_seen <= others_allowed; ++s) {
    if (s > 0) {
      timespec gap{0, kSampleGapUs * 1000L};
      while (nanosleep(&gap, &gap) != 0 && errno == EINTR) {
      }
    }
    if (std::optional<int> r = RunnableTasks(ReadSmallFile("/proc/loadavg"))) {
      const int own_others = std::max(0, OwnRunnableThreads() - 1);
      const int sample = std::max(1, *r - own_others);
      in.runnable.push_back(sample);
      others_seen += sample - 1;
    }
  }
  return in;
}

void RerunWithOmpWaitPolicy(int team_threads, char** argv) {
  const OmpWaitInputs in = ReadOmpWaitInputs(team_threads);
  bool unknown = false;
  const OmpWait choice = ChooseOmpWait(in, &unknown);
  if (unknown) {
    std::fprintf(stderr, "warning: RILL_OMP_WAIT=%s is not auto, spin or passive; using auto\n",
                 in.rill_omp_wait);
  }
  if (choice == OmpWait::kUserSet) return;
  const char* name = choice == OmpWait::kSpin ? "GOMP_SPINCOUNT" : "OMP_WAIT_POLICY";
  if (setenv(name, choice == OmpWait::kSpin ? kSpinCount : "PASSIVE", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv(name);  // execv returned: it failed; run on as we are
}

}  // namespace rill
