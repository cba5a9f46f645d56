"""pytest setup: rill is imported from python/ of this checkout (or the installed package when
RILL_TEST_INSTALLED=1); the native library from $RILL_LIBRARY or bazel-bin/c."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)
if os.environ.get("RILL_TEST_INSTALLED") != "1":
    sys.path.insert(0, PYTHON_DIR)
sys.path.insert(0, os.path.join(REPO, "tests", "pyseeds"))
