"""Builds the rill package: the native library (bazel build //c:libtensorflow.so.2 in the
repository above this directory, or $RILL_LIBRARY when set) goes to rill/lib/, the proto modules
(protoc over ../proto/*.proto) to rill/_proto/. Metadata is in pyproject.toml.

    pip install ./python                          # from the repository root
    pip install --no-build-isolation ./python     # offline: setuptools and wheel already present
    pip wheel --no-build-isolation -w dist ./python
"""
import os
import shutil
import subprocess

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
        subprocess.check_call([os.path.join(HERE, "tools", "gen_protos.sh"),
                               os.path.join(pkg, "_proto")])


cmdclass = {"build_py": BuildWithNative}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """The wheel carries a native library: tagged for this platform, any Python 3."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel

setup(cmdclass=cmdclass)
