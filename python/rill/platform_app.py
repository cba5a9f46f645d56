"""tf.app.run and tf.app.flags / tf.flags (TF1's flag definitions), over argparse.

Flags are parsed from sys.argv the first time one is read (or by app.run); unknown arguments
are left for the program (app.run passes them to main)."""
import argparse
import sys


class _FlagValues(object):
    def __init__(self):
        object.__setattr__(self, "_defs", {})
        object.__setattr__(self, "_values", None)
        object.__setattr__(self, "_rest", None)

    def _define(self, name, default, help, kind):
        self._defs[name] = (default, help, kind)
        if self._values is not None:
            self._values[name] = default

    def _parse(self, argv):
        p = argparse.ArgumentParser(prog=argv[0] if argv else None, add_help=True)
        for name, (default, help, kind) in self._defs.items():
            if kind is bool:
                p.add_argument("--" + name, default=default, type=_parse_bool, help=help)
                p.add_argument("--no" + name, dest=name, action="store_false")
            else:
                p.add_argument("--" + name, default=default, type=kind, help=help)
        bools = {"--" + n for n, d in self._defs.items() if d[2] is bool}
        args = [a + "=true" if a in bools else a for a in argv[1:]]  # a bare --flag is True
        ns, rest = p.parse_known_args(args)
        object.__setattr__(self, "_values", vars(ns))
        object.__setattr__(self, "_rest", [argv[0]] + rest if argv else rest)
        return self._rest

    def __call__(self, argv):
        return self._parse(argv)

    def __getattr__(self, name):
        if name not in self._defs:
            raise AttributeError(name)
        if self._values is None:
            self._parse(sys.argv)
        return self._values[name]

    def __setattr__(self, name, value):
        if self._values is None:
            self._parse(sys.argv)
        self._values[name] = value

    def __contains__(self, name):
        return name in self._defs


def _parse_bool(s):
    if isinstance(s, bool):
        return s
    if s.lower() in ("true", "t", "1", "yes"):
        return True
    if s.lower() in ("false", "f", "0", "no"):
        return False
    raise argparse.ArgumentTypeError("expected a boolean, got %r" % s)


FLAGS = _FlagValues()


def DEFINE_string(name, default, help=None):  # noqa: N802 (TensorFlow's names)
    FLAGS._define(name, default, help, str)


def DEFINE_integer(name, default, help=None):  # noqa: N802
    FLAGS._define(name, default, help, int)


def DEFINE_float(name, default, help=None):  # noqa: N802
    FLAGS._define(name, default, help, float)


def DEFINE_boolean(name, default, help=None):  # noqa: N802
    FLAGS._define(name, default, help, bool)


DEFINE_bool = DEFINE_boolean


class _Flags(object):
    FLAGS = FLAGS
    DEFINE_string = staticmethod(DEFINE_string)
    DEFINE_integer = staticmethod(DEFINE_integer)
    DEFINE_float = staticmethod(DEFINE_float)
    DEFINE_boolean = staticmethod(DEFINE_boolean)
    DEFINE_bool = staticmethod(DEFINE_boolean)


flags = _Flags()


def run(main=None, argv=None):
    """Parses the flags from argv (default sys.argv), calls main with what remains, exits with
    its return value."""
    rest = FLAGS._parse(sys.argv if argv is None else argv)
    if main is None:
        main = sys.modules["__main__"].main
    sys.exit(main(rest))
