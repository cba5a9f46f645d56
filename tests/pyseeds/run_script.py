"""Runs a seed script's source in a fresh interpreter with stdout on a pseudo-terminal (so the
C library's stdout is line-buffered, as at a terminal) and stderr on a pipe; shared by the
recorder (record_tf.py) and the test (python/tests/test_seed_scripts.py)."""
import os
import pty
import re
import select
import subprocess
import tempfile

RILL_IMPORT = "import rill.compat.v1 as tf"
_EXC = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception)): ?(.*)$")


# Scripts that need tf.gradients (python/tests/test_gradients.py runs them).
GRADIENT_SCRIPTS = ("api_train.py", "device_function_gradients.py")


def is_seed_script(name):
    return name.endswith(".py") and name not in ("record_tf.py", "run_script.py",
                                                 "make_saved_model.py")


def run_source(src, python, env, timeout=300, cwd=None):
    """Runs src (in cwd, default this directory: scripts read data/ relative to it)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(src)
        path = f.name
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([python, path], stdout=slave, stderr=subprocess.PIPE, env=env,
                             stdin=subprocess.DEVNULL,
                             cwd=cwd or os.path.dirname(os.path.abspath(__file__)))
        os.close(slave)
        chunks = []
        err_chunks = []
        fds = [master, p.stderr.fileno()]
        while fds:
            ready, _, _ = select.select(fds, [], [], timeout)
            if not ready:
                p.kill()
                raise RuntimeError("script timed out after %ds" % timeout)
            for fd in ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    fds.remove(fd)
                elif fd == master:
                    chunks.append(data)
                else:
                    err_chunks.append(data)
        rc = p.wait(timeout=timeout)
    finally:
        os.close(master)
        os.unlink(path)
    stdout = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    stderr = b"".join(err_chunks).decode("utf-8", "replace")
    exception = None
    if rc != 0:
        lines = stderr.splitlines()
        for i, line in enumerate(lines):
            m = _EXC.match(line)
            if m:
                # The error text: TensorFlow's follows its "Node: 'name'" line; Rill's is the
                # exception line's message.
                detail = m.group(3)
                for j in range(i + 1, len(lines) - 1):
                    if lines[j].startswith("Node: '"):
                        detail = lines[j + 1]
                exception = {"class": m.group(1).rsplit(".", 1)[-1], "detail": detail}
    return {"stdout": stdout, "stderr": stderr, "returncode": rc, "exception": exception}
