"""Records what TensorFlow prints for each seed script of this directory (run by hand; needs
tensorflow-cpu): the script's `import rill.compat.v1 as tf` line becomes
`import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`, stdout is read through a
pseudo-terminal (line-buffered, so C-level placement lines and Python prints keep their order),
stderr separately. Writes expected/NAME.stdout and expected/NAME.json (exit status, and the
exception's class and first message line when the script fails).

    python3 tests/pyseeds/record_tf.py            # every script
    python3 tests/pyseeds/record_tf.py NAME.py    # one
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_script  # noqa: E402

TF_IMPORT = "import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()"


def main(argv):
    names = argv[1:] or sorted(f for f in os.listdir(HERE) if run_script.is_seed_script(f))
    os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
    for name in names:
        src = open(os.path.join(HERE, name)).read()
        if run_script.RILL_IMPORT not in src:
            raise SystemExit("%s: no '%s' line" % (name, run_script.RILL_IMPORT))
        src = src.replace(run_script.RILL_IMPORT, TF_IMPORT, 1)
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
        result = run_script.run_source(src, sys.executable, env)
        base = os.path.join(HERE, "expected", name[:-3])
        with open(base + ".stdout", "w") as f:
            f.write(result["stdout"])
        meta = {k: result[k] for k in ("returncode", "exception")}
        with open(base + ".json", "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
            f.write("\n")
        print("%s: exit %d, %d stdout lines" % (name, result["returncode"],
                                                len(result["stdout"].splitlines())))


if __name__ == "__main__":
    main(sys.argv)
