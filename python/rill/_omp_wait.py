"""The OpenMP wait policy `import rill` gives libgomp before it loads Rill's library (Rill-only).

libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, when it is loaded. An idle worker that
spins a while before sleeping starts the next parallel region at once (faster 2-thread runs when
the cores are free) but takes the core another runnable thread needs when the machine is busy
(slower runs beside any other process); docs/performance.md, "OpenMP wait policy". The rule is
session_runner's (tools/session_runner/omp_wait_policy.h): a variable the user set is kept;
RILL_OMP_WAIT=spin or passive forces that policy; otherwise (unset, empty, `auto`, or another
value) a few samples of /proc/loadavg's runnable count over about 1 ms decide: spin
(GOMP_SPINCOUNT=SPIN_COUNT) when a team of one thread per usable CPU (Rill's default intra-op
count) fits in the idle cores, OMP_WAIT_POLICY=PASSIVE when it does not.
"""
import math
import os
import sys
import time

SPIN_COUNT = "30000"  # libgomp PAUSE iterations, about 0.7 ms here
SAMPLES = 8
SAMPLE_GAP_S = 0.000125

USER_SET, PASSIVE, SPIN = "user", "passive", "spin"


def choose(env, usable_cpus, team_threads, runnable):
    """The policy for an environment (a mapping), the usable CPUs, the team's threads and the
    runnable counts sampled from /proc/loadavg (each includes the sampling thread)."""
    if "OMP_WAIT_POLICY" in env or "GOMP_SPINCOUNT" in env:
        return USER_SET
    forced = env.get("RILL_OMP_WAIT", "").lower()
    if forced in (SPIN, PASSIVE):
        return forced
    if team_threads <= 1 or not runnable or team_threads > usable_cpus:
        return PASSIVE
    others = max(0.0, sum(runnable) / len(runnable) - 1.0)
    return SPIN if others + team_threads <= usable_cpus + 0.25 else PASSIVE


def runnable_tasks(loadavg):
    """The runnable count of /proc/loadavg's text ("0.5 0.4 0.4 3/229 1234" gives 3), or None."""
    fields = loadavg.split()
    if len(fields) < 4 or "/" not in fields[3]:
        return None
    running = fields[3].split("/")[0]
    return int(running) if running.isdigit() else None


def quota_from_cpu_max(text):
    """cgroup v2 cpu.max ("150000 100000" gives 1.5); None for "max" or bad text."""
    fields = text.split()
    if len(fields) < 2 or not fields[0].isdigit() or not fields[1].isdigit():
        return None
    quota, period = int(fields[0]), int(fields[1])
    return quota / period if quota > 0 and period > 0 else None


def quota_from_cfs(quota_us, period_us):
    """cgroup v1 cpu.cfs_quota_us and cpu.cfs_period_us; None for a quota of -1 or bad text."""
    q, p = quota_us.strip(), period_us.strip()
    if not q.isdigit() or not p.isdigit() or int(q) <= 0 or int(p) <= 0:
        return None
    return int(q) / int(p)


def cgroup_quota_files(proc_self_cgroup):
    """Files that may hold the CPU quota, from /proc/self/cgroup's text (as session_runner's
    CgroupQuotaFiles): v2 ".../cpu.max", v1 "/sys/fs/cgroup/<controllers>/.../cpu.cfs_quota_us"."""
    files = []
    for line in proc_self_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        controllers, path = parts[1], "" if parts[2] == "/" else parts[2]
        if not controllers:
            files.append("/sys/fs/cgroup" + path + "/cpu.max")
        elif "cpu" in controllers.split(","):
            files.append("/sys/fs/cgroup/" + controllers + path + "/cpu.cfs_quota_us")
    return files


def usable_cpus(affinity_cpus, quota_cpus):
    cpus = max(1, affinity_cpus)
    if quota_cpus is not None:
        cpus = min(cpus, max(1, int(math.floor(quota_cpus))))
    return cpus


def stat_shows_runnable(stat):
    """Whether a /proc/<pid>/task/<tid>/stat text shows a runnable thread: the state after the
    command name's last ')' is R."""
    close = stat.rfind(")")
    return close >= 0 and stat[close + 1:].lstrip(" ").startswith("R")


def _own_runnable_threads():
    """This process's runnable threads, the calling one included (0 when unreadable). Libraries
    loaded before rill may run threads that yield while they wait (OpenBLAS's): they are not
    other tasks."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 0
    return sum(1 for t in tids if stat_shows_runnable(_read("/proc/self/task/%s/stat" % t)))


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _quota():
    quotas = []
    for path in cgroup_quota_files(_read("/proc/self/cgroup")):
        if path.endswith("cpu.cfs_quota_us"):
            q = quota_from_cfs(_read(path), _read(path[:-len("cpu.cfs_quota_us")] +
                                                  "cpu.cfs_period_us"))
        else:
            q = quota_from_cpu_max(_read(path))
        if q is not None:
            quotas.append(q)
    return min(quotas) if quotas else None


def apply(environ=os.environ):
    """Sets the chosen policy in `environ` (before the library loads); returns the choice."""
    if "OMP_WAIT_POLICY" in environ or "GOMP_SPINCOUNT" in environ:
        return USER_SET
    try:
        affinity = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = os.cpu_count() or 1
    forced = environ.get("RILL_OMP_WAIT", "")
    if forced.lower() not in ("", "auto", SPIN, PASSIVE):
        sys.stderr.write("warning: RILL_OMP_WAIT=%s is not auto, spin or passive; using auto\n"
                         % forced)
    cpus = usable_cpus(affinity, _quota())
    team = cpus  # Rill's default intra-op count; the session's config is not known yet
    runnable = []
    if cpus >= 2 and forced.lower() not in (SPIN, PASSIVE):
        # Stops once the other tasks seen rule out a spin (a busy machine also wakes sleeps late).
        others_allowed, others_seen = (cpus + 0.25 - team) * SAMPLES, 0
        for s in range(SAMPLES):
            if others_seen > others_allowed:
                break
            if s:
                time.sleep(SAMPLE_GAP_S)
            r = runnable_tasks(_read("/proc/loadavg"))
            if r is not None:
                r = max(1, r - max(0, _own_runnable_threads() - 1))
                runnable.append(r)
                others_seen += r - 1
    choice = choose(environ, cpus, team, runnable)
    if choice == SPIN:
        environ["GOMP_SPINCOUNT"] = SPIN_COUNT
    elif choice == PASSIVE:
        environ["OMP_WAIT_POLICY"] = "PASSIVE"
    return choice
