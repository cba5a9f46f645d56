"""Builds the rill package: the native library (bazel build //c:libtensorflow.so.2 in the
repository above this directory, or $RILL_LIBRARY when set) goes to rill/lib/, the proto modules
(protoc over ../proto/*.proto) to rill/_proto/, and the compiled run path (bazel build
//python:rill/_fastrun.so, or $RILL_FASTRUN when set) to rill/_fastrun<this Python's extension
suffix> when it loads in the Python running the build. Without it (no compiler or pybind11, a
library from $RILL_LIBRARY and no $RILL_FASTRUN, another Python) the package runs on ctypes.
Metadata is in pyproject.toml.

    pip install ./python                          # from the repository root
    pip install --no-build-isolation ./python     # offline: setuptools and wheel already present
    pip wheel --no-build-isolation -w dist ./python
"""
import glob
import os
import shutil
import subprocess
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # wheel absent: sdists and plain installs still work
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def native_library():
    lib = os.environ.get("RILL_LIBRARY")
    if lib:
        return lib
    subprocess.check_call(["bazel", "build", "//c:libtensorflow.so.2"], cwd=ROOT)
    return os.path.join(ROOT, "bazel-bin", "c", "libtensorflow.so.2")


def fastrun_module():
    """The path of the compiled run path's module, or None where the package goes without it."""
    mod = os.environ.get("RILL_FASTRUN")
    if mod:
        return mod
    if os.environ.get("RILL_LIBRARY"):
        return None
    try:
        subprocess.check_call(["bazel", "build", "//python:rill/_fastrun.so"], cwd=ROOT)
    except (OSError, subprocess.CalledProcessError) as e:
        print("setup.py: rill._fastrun not built (%s); the package runs on ctypes" % e,
              file=sys.stderr)
        return None
    return os.path.join(ROOT, "bazel-bin", "python", "rill", "_fastrun.so")


def loads_here(mod):
    """True when this Python can load the module (pybind11 refuses another Python version)."""
    code = ("import importlib.machinery as m, importlib.util as u\n"
            "l = m.ExtensionFileLoader('rill._fastrun', %r)\n"
            "l.exec_module(u.module_from_spec(u.spec_from_file_location('rill._fastrun', %r, "
            "loader=l)))" % (mod, mod))
    return subprocess.call([sys.executable, "-c", code]) == 0


class BuildWithNative(build_py):
    def run(self):
        super().run()
        pkg = os.path.join(self.build_lib, "rill")
        os.makedirs(os.path.join(pkg, "lib"), exist_ok=True)
        dst = os.path.join(pkg, "lib", "libtensorflow.so.2")
        if os.path.exists(dst):
            os.chmod(dst, 0o755)
            os.remove(dst)
        shutil.copyfile(native_library(), dst)
        os.chmod(dst, 0o755)
        for old in glob.glob(os.path.join(pkg, "_fastrun*.so")):
            os.chmod(old, 0o755)
            os.remove(old)
        mod = fastrun_module()
        if mod and loads_here(mod):
            dst = os.path.join(pkg, "_fastrun" + sysconfig.get_config_var("EXT_SUFFIX"))
            shutil.copyfile(mod, dst)
            os.chmod(dst, 0o755)
        elif mod:
            print("setup.py: %s does not load in %s; the package runs on ctypes" % (
                mod, sys.executable), file=sys.stderr)
        subprocess.check_call([os.path.join(HERE, "tools", "gen_protos.sh"),
                               os.path.join(pkg, "_proto")])


cmdclass = {"build_py": BuildWithNative}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """The wheel carries a native library: tagged for this platform, any Python 3 (the
        compiled run path, built for one Python version, is used where it loads; other
        versions run on ctypes)."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel

setup(cmdclass=cmdclass)
