"""Importing rill chooses libgomp's wait policy before it loads the library (rill/_omp_wait.py):
the user's OMP_WAIT_POLICY or GOMP_SPINCOUNT stands, RILL_OMP_WAIT forces spin or passive, and
otherwise idle OpenMP workers spin only when a team fits in the idle cores."""
import os
import subprocess
import sys

from rill import _omp_wait

PROG = ("import os, rill._c; print(os.environ.get('OMP_WAIT_POLICY', '<unset>'), "
        "os.environ.get('GOMP_SPINCOUNT', '<unset>'))")


def _policy_after_import(**env_set):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "RILL_OMP_WAIT")}
    env.update(env_set)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", PROG], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip(), out.stderr


def test_the_users_choice_stands():
    assert _policy_after_import(OMP_WAIT_POLICY="ACTIVE") == ("ACTIVE <unset>", "")
    assert _policy_after_import(GOMP_SPINCOUNT="10000") == ("<unset> 10000", "")
    assert _policy_after_import(GOMP_SPINCOUNT="10000", RILL_OMP_WAIT="passive") == (
        "<unset> 10000", "")


def test_rill_omp_wait_forces_either_policy():
    assert _policy_after_import(RILL_OMP_WAIT="passive") == ("PASSIVE <unset>", "")
    assert _policy_after_import(RILL_OMP_WAIT="SPIN") == ("<unset> 30000", "")


def test_auto_sets_one_of_the_two():
    got, err = _policy_after_import(RILL_OMP_WAIT="sometimes")
    assert got in ("PASSIVE <unset>", "<unset> 30000")
    assert err == "warning: RILL_OMP_WAIT=sometimes is not auto, spin or passive; using auto\n"


def test_choose_spins_only_when_the_team_fits_the_idle_cores():
    choose = _omp_wait.choose
    assert choose({}, 2, 2, [1] * 8) == "spin"
    assert choose({}, 2, 2, [2] * 8) == "passive"  # one busy process beside
    assert choose({}, 2, 2, [1, 2, 1, 2, 1, 1, 1, 1]) == "spin"  # a quarter core of slack
    assert choose({}, 2, 2, [1, 2, 1, 2, 2, 1, 1, 1]) == "passive"
    assert choose({}, 2, 2, [0, 1, 1, 1]) == "spin"
    assert choose({}, 8, 2, [7] * 4) == "spin"
    assert choose({}, 8, 2, [8] * 4) == "passive"
    assert choose({}, 8, 8, [2] * 4) == "passive"
    assert choose({}, 2, 1, [1] * 8) == "passive"  # no team
    assert choose({}, 2, 3, [1] * 8) == "passive"  # more threads than CPUs
    assert choose({}, 2, 2, []) == "passive"  # no sample
    assert choose({"RILL_OMP_WAIT": "auto"}, 2, 2, [1] * 8) == "spin"
    assert choose({"RILL_OMP_WAIT": "spin"}, 2, 2, [3] * 8) == "spin"
    assert choose({"RILL_OMP_WAIT": "passive"}, 2, 2, [1] * 8) == "passive"
    assert choose({"OMP_WAIT_POLICY": ""}, 2, 2, [1] * 8) == "user"
    assert choose({"GOMP_SPINCOUNT": "5", "RILL_OMP_WAIT": "spin"}, 2, 2, [1] * 8) == "user"


def test_proc_and_cgroup_parsing():
    assert _omp_wait.runnable_tasks("2.04 1.63 1.65 2/229 13002\n") == 2
    assert _omp_wait.runnable_tasks("2.04 1.63 1.65") is None
    assert _omp_wait.runnable_tasks("2.04 1.63 1.65 x/229 1") is None
    assert _omp_wait.stat_shows_runnable("1522 (python3) R 1 1522 0")
    assert not _omp_wait.stat_shows_runnable("1523 (python3) S 1 1522 0")
    assert _omp_wait.stat_shows_runnable("7 (a) S (b)) R 1 7")
    assert not _omp_wait.stat_shows_runnable("7 (R) S 1 7")
    assert not _omp_wait.stat_shows_runnable("")
    assert _omp_wait.quota_from_cpu_max("150000 100000\n") == 1.5
    assert _omp_wait.quota_from_cpu_max("max 100000\n") is None
    assert _omp_wait.quota_from_cfs("-1\n", "100000\n") is None
    assert _omp_wait.quota_from_cfs("200000\n", "100000\n") == 2.0
    assert _omp_wait.cgroup_quota_files("0::/user.slice/app\n") == [
        "/sys/fs/cgroup/user.slice/app/cpu.max"]
    assert _omp_wait.cgroup_quota_files(
        "4:memory:/a\n2:cpu,cpuacct:/docker/x\n1:name=systemd:/\n0::/\n") == [
        "/sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu.max"]
    assert _omp_wait.usable_cpus(8, 1.5) == 1
    assert _omp_wait.usable_cpus(2, None) == 2
    assert _omp_wait.usable_cpus(0, None) == 1


def test_apply_sets_the_choice_in_the_mapping():
    env = {"RILL_OMP_WAIT": "spin"}
    assert _omp_wait.apply(env) == "spin"
    assert env["GOMP_SPINCOUNT"] == "30000"
    env = {"RILL_OMP_WAIT": "passive"}
    assert _omp_wait.apply(env) == "passive"
    assert env["OMP_WAIT_POLICY"] == "PASSIVE"
    env = {"OMP_WAIT_POLICY": "ACTIVE"}
    assert _omp_wait.apply(env) == "user"
    assert env == {"OMP_WAIT_POLICY": "ACTIVE"}
