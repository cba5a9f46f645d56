"""setup.py's build lays the package out as pip installs it: rill/lib/libtensorflow.so.2, the
proto modules and (where this suite runs with it) rill._fastrun inside, so the built tree runs the
seed MatMul with no environment settings, on the compiled path where the suite has it."""
import os
import subprocess
import sys
import sysconfig

import conftest
from rill import _fast


def test_built_package_runs_the_seed_matmul(tmp_path):
    env = dict(os.environ)
    lib = env.get("RILL_LIBRARY") or os.path.join(conftest.REPO, "bazel-bin", "c",
                                                   "libtensorflow.so.2")
    env["RILL_LIBRARY"] = lib
    env.pop("RILL_FASTRUN", None)
    if _fast.module is not None:  # the module this suite runs on goes into the package
        env["RILL_FASTRUN"] = _fast.module.__file__
    build = tmp_path / "build"
    subprocess.check_call([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
                          cwd=conftest.PYTHON_DIR, env=env)
    assert (build / "rill" / "lib" / "libtensorflow.so.2").exists()
    assert (build / "rill" / "_proto" / "config_pb2.py").exists()
    mods = list((build / "rill").glob("_fastrun*.so"))
    assert [m.name for m in mods] == (
        ["_fastrun" + sysconfig.get_config_var("EXT_SUFFIX")] if _fast.module else [])
    clean = {k: v for k, v in os.environ.items()
             if k not in ("RILL_LIBRARY", "RILL_PROTO_DIR", "PYTHONPATH", "RILL_FASTRUN")}
    prog = ("import rill, rill.compat.v1 as tf, rill._fast\n"
            "assert rill.__file__.startswith(%r)\n"
            "assert rill._fast.module is None or rill._fast.module.__file__.startswith(%r)\n"
            "assert (rill._fast.module is None) == %r, rill._fast.reason\n"
            "a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')\n"
            "b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')\n"
            "print(tf.Session().run(tf.matmul(a, b)))\n" % (str(build), str(build),
                                                            _fast.module is None))
    out = subprocess.run([sys.executable, "-c", prog], cwd=str(build), env=clean,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "[[22. 28.]\n [49. 64.]]\n"


def test_metadata_from_pyproject():
    out = subprocess.run([sys.executable, "setup.py", "--name", "--version"],
                         cwd=conftest.PYTHON_DIR, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["rill", "0.1.0"]
