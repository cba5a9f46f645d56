"""Importing rill makes idle OpenMP workers sleep (OMP_WAIT_POLICY=PASSIVE) unless the user chose
a policy or a spin count: libgomp reads them once, when rill's library loads it."""
import os
import subprocess
import sys

PROG = "import os, rill._c; print(os.environ.get('OMP_WAIT_POLICY', '<unset>'))"


def _policy_after_import(**env_set):
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(env_set)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", PROG], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_passive_by_default():
    assert _policy_after_import() == "PASSIVE"


def test_the_users_choice_stands():
    assert _policy_after_import(OMP_WAIT_POLICY="ACTIVE") == "ACTIVE"
    assert _policy_after_import(GOMP_SPINCOUNT="10000") == "<unset>"
