"""setup.py's build lays the package out as pip installs it: rill/lib/libtensorflow.so.2 and the
proto modules inside, so the built tree runs the seed MatMul with no environment settings."""
import os
import subprocess
import sys

import conftest


def test_built_package_runs_the_seed_matmul(tmp_path):
    env = dict(os.environ)
    lib = env.get("RILL_LIBRARY") or os.path.join(conftest.REPO, "bazel-bin", "c",
                                                   "libtensorflow.so.2")
    env["RILL_LIBRARY"] = lib
    build = tmp_path / "build"
    subprocess.check_call([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
                          cwd=conftest.PYTHON_DIR, env=env)
    assert (build / "rill" / "lib" / "libtensorflow.so.2").exists()
    assert (build / "rill" / "_proto" / "config_pb2.py").exists()
    clean = {k: v for k, v in os.environ.items()
             if k not in ("RILL_LIBRARY", "RILL_PROTO_DIR", "PYTHONPATH")}
    prog = ("import rill, rill.compat.v1 as tf\n"
            "assert rill.__file__.startswith(%r)\n"
            "a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')\n"
            "b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')\n"
            "print(tf.Session().run(tf.matmul(a, b)))\n" % str(build))
    out = subprocess.run([sys.executable, "-c", prog], cwd=str(build), env=clean,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "[[22. 28.]\n [49. 64.]]\n"


def test_metadata_from_pyproject():
    out = subprocess.run([sys.executable, "setup.py", "--name", "--version"],
                         cwd=conftest.PYTHON_DIR, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["rill", "0.1.0"]
