// session_runner's OpenMP wait policy (Rill-only). Rill's intra-op work runs on libgomp teams.
// An idle worker that spins a while before it sleeps starts the next parallel region at once
// (1.1-2x faster 2-thread runs when the cores are free), but when another runnable thread wants
// its core it takes the time the working threads need (1.4-2x slower beside one busy process;
// docs/performance.md, "OpenMP wait policy"). So the policy is chosen at start from how many
// cores are idle: spin (GOMP_SPINCOUNT=kSpinCount) when the team's threads fit in the idle usable
// cores, sleep at once (OMP_WAIT_POLICY=PASSIVE) otherwise. libgomp reads both variables once,
// when it loads, before main runs, so session_runner sets the chosen one and runs itself again,
// as `import rill` sets it before loading the library (python/rill/_omp_wait.py, the same rule).
//
// Precedence: OMP_WAIT_POLICY or GOMP_SPINCOUNT in the caller's environment is kept as it is;
// else RILL_OMP_WAIT=spin or passive forces that policy; else (unset, empty or `auto`) the
// sample decides.
#ifndef RILL_TOOLS_SESSION_RUNNER_OMP_WAIT_POLICY_H_
#define RILL_TOOLS_SESSION_RUNNER_OMP_WAIT_POLICY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rill {

// libgomp spin iterations (a PAUSE each, about 23 ns on this project's machines: ~0.7 ms) an
// idle worker spins before sleeping when the policy is to spin.
inline constexpr const char* kSpinCount = "30000";

enum class OmpWait {
  kUserSet,  // the environment already names a policy: leave it
  kPassive,  // OMP_WAIT_POLICY=PASSIVE
  kSpin,     // GOMP_SPINCOUNT=kSpinCount
};

// Everything the choice depends on, read by ReadOmpWaitInputs or written by a test.
struct OmpWaitInputs {
  const char* omp_wait_policy = nullptr;  // getenv("OMP_WAIT_POLICY")
  const char* gomp_spincount = nullptr;   // getenv("GOMP_SPINCOUNT")
  const char* rill_omp_wait = nullptr;    // getenv("RILL_OMP_WAIT"): auto, spin or passive
  int usable_cpus = 1;                    // UsableCpus of the affinity mask and cgroup quota
  int team_threads = 1;                   // threads of one intra-op team (the caller included)
  // Each sample: /proc/loadavg's runnable count less this process's own runnable threads other
  // than the sampling one (libraries start threads at load, OpenBLAS's server threads yield in a
  // loop while they wait, so they count as runnable), so it includes the sampling thread.
  std::vector<int> runnable;
};

// The choice for `in`: kUserSet when either OpenMP variable is set (an empty value counts);
// RILL_OMP_WAIT=spin / passive (any case) forces kSpin / kPassive. Otherwise (RILL_OMP_WAIT unset,
// empty, `auto`, or another value, which *unknown_rill_value reports when not null) kSpin only
// when a team of team_threads >= 2 fits: team_threads <= usable_cpus and, counting the other
// runnable tasks as the samples' mean minus one (the sampling thread itself), other + team_threads
// <= usable_cpus + 0.25 (a quarter of a core of slack for a short task seen once); kPassive when
// it does not, when team_threads <= 1 (no team opens) or when there are no samples.
OmpWait ChooseOmpWait(const OmpWaitInputs& in, bool* unknown_rill_value = nullptr);

// The runnable-task count of /proc/loadavg's contents ("0.52 0.48 0.40 3/229 1234" gives 3),
// nullopt when the text has no such fourth field.
std::optional<int> RunnableTasks(std::string_view loadavg);

// Whether a /proc/<pid>/task/<tid>/stat text shows a runnable thread: the state field after the
// command name's closing parenthesis is R ("1522 (sr new) R 1 ..." is; the name may hold spaces
// and parentheses, so the last ')' ends it).
bool StatShowsRunnable(std::string_view stat);

// The cgroup quota in CPUs from cgroup v2's cpu.max contents ("150000 100000" gives 1.5),
// nullopt for "max ..." or unparsable text.
std::optional<double> QuotaFromCpuMax(std::string_view cpu_max);

// The cgroup quota in CPUs from cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us contents,
// nullopt for a quota of -1 (none) or unparsable text.
std::optional<double> QuotaFromCfs(std::string_view quota_us, std::string_view period_us);

// The files that may hold this process's CPU quota, from /proc/self/cgroup's contents: for a
// v2 line "0::/a/b", /sys/fs/cgroup/a/b/cpu.max; for a v1 line naming the cpu controller
// ("4:cpu,cpuacct:/a"), /sys/fs/cgroup/cpu,cpuacct/a/cpu.cfs_quota_us (and the period beside it;
// the caller derives it). Empty when no line names a CPU controller.
std::vector<std::string> CgroupQuotaFiles(std::string_view proc_self_cgroup);

// The CPUs the process may use: the affinity mask's count, lowered to the quota's whole CPUs
// (at least 1) when a quota is set.
int UsableCpus(int affinity_cpus, std::optional<double> quota_cpus);

// Reads the inputs for this process: the three variables, sched_getaffinity, the cgroup quota,
// and up to kSamples samples of /proc/loadavg kSampleGapUs apart (about 1 ms in all; fewer once
// the other tasks seen rule out a spin).
inline constexpr int kSamples = 8;
inline constexpr int kSampleGapUs = 125;
OmpWaitInputs ReadOmpWaitInputs(int team_threads);

// Chooses the policy for this process with teams of `team_threads` threads and, unless the
// choice is kUserSet, sets it in the environment and executes /proc/self/exe with `argv` (same
// arguments, open files and environment otherwise): returns only if that fails (the variable is
// removed again, and the run goes on with libgomp's default policy) or nothing was to be set.
// Call first thing in main, before any thread starts.
void RerunWithOmpWaitPolicy(int team_threads, char** argv);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_OMP_WAIT_POLICY_H_
