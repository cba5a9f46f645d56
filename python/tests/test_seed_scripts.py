"""Each seed script in tests/pyseeds/ runs on Rill and prints what TensorFlow printed for it
(tests/pyseeds/expected/, recorded by record_tf.py): stdout line for line, the exit status, and
for a failing script the error class and TensorFlow's error text."""
import json
import os
import sys

import pytest

import conftest
import run_script

SEEDS = os.path.join(conftest.REPO, "tests", "pyseeds")
# Scripts that need tf.gradients are tested in test_gradients.py.
NAMES = sorted(f for f in os.listdir(SEEDS) if run_script.is_seed_script(f)
               and f not in run_script.GRADIENT_SCRIPTS)


def run_seed(name):
    src = open(os.path.join(SEEDS, name)).read()
    env = dict(os.environ)
    if os.environ.get("RILL_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = conftest.PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    return run_script.run_source(src, sys.executable, env)


def expected(name):
    base = os.path.join(SEEDS, "expected", name[:-3])
    with open(base + ".stdout") as f:
        out = f.read()
    with open(base + ".json") as f:
        meta = json.load(f)
    return out, meta


def without_device_mapping(stdout):
    """stdout without a "Device mapping:" block (both TensorFlow and Rill log it to stderr;
    test_device_mapping_on_stderr below checks Rill does)."""
    lines = stdout.splitlines(True)
    out = []
    skipping = False
    for line in lines:
        if line.startswith("Device mapping:"):
            skipping = not line.startswith("Device mapping: no known devices.")
            continue
        if skipping and " -> " in line:
            continue
        skipping = False
        out.append(line)
    return "".join(out)


def test_every_seed_script_has_a_recording():
    assert NAMES
    for n in NAMES + list(run_script.GRADIENT_SCRIPTS):
        assert os.path.exists(os.path.join(SEEDS, "expected", n[:-3] + ".stdout")), n


@pytest.mark.parametrize("name", NAMES)
def test_seed_script_prints_what_tensorflow_prints(name):
    want_out, meta = expected(name)
    got = run_seed(name)
    assert got["returncode"] == meta["returncode"], got["stderr"]
    assert without_device_mapping(got["stdout"]) == want_out, got["stderr"]
    if meta["exception"]:
        assert got["exception"]["class"] == meta["exception"]["class"]
        assert got["exception"]["detail"].startswith(meta["exception"]["detail"]), got["stderr"]


def test_device_mapping_on_stderr():
    got = run_seed("matmul_log_placement.py")
    assert "Device mapping" not in got["stdout"]
    assert "Device mapping" in got["stderr"]
