"""tf.app.run and tf.app.flags: a TF1 script's flags parsed from its command line."""
import os
import subprocess
import sys

import conftest

PROG = """
import rill.compat.v1 as tf
tf.app.flags.DEFINE_string("name", "world", "who")
tf.app.flags.DEFINE_integer("steps", 3, "how many")
tf.flags.DEFINE_float("rate", 0.5, "rate")
tf.app.flags.DEFINE_boolean("fast", False, "go fast")
FLAGS = tf.app.flags.FLAGS

def main(argv):
    print(FLAGS.name, FLAGS.steps, FLAGS.rate, FLAGS.fast, argv[1:])
    return 0

if __name__ == "__main__":
    tf.app.run()
"""


def run(*args):
    env = {"PYTHONPATH": conftest.PYTHON_DIR}
    env.update({k: v for k, v in os.environ.items() if k.startswith("RILL_")})
    return subprocess.run([sys.executable, "-c", PROG] + list(args), capture_output=True,
                          text=True, env=env)


def test_defaults_and_values_from_the_command_line():
    assert run().stdout == "world 3 0.5 False []\n"
    r = run("--name=rill", "--steps", "7", "--fast", "extra")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "rill 7 0.5 True ['extra']\n"
    assert run("--nofast", "--rate=0.25").stdout == "world 3 0.25 False []\n"


def test_bad_flag_value_is_an_argparse_error():
    r = run("--steps=many")
    assert r.returncode == 2 and "invalid int value: 'many'" in r.stderr
