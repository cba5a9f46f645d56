"""Gradient conformance case specs, one module per op family (math, array, nn, ...).

Each module <family>_cases.py defines cases(add); its suites go to tests/gradients/data/<family>/
and are replayed by //tests/gradients:<family>_gradient_test against graph/gradients/<family>_grad.cc. add(op, what, inputs, build, rtol=1e-5, atol=1e-6) records one
case named "<op>/<dtype of the first input>/<what>": `inputs` is a list of (name, numpy array)
for the differentiable operands, which become Placeholders of that shape and dtype; `build`
receives those Placeholders and returns the op's output tensor(s) whose gradients are taken
(build the op with tf.raw_ops.<Op>(..., name="out"); make other operands tf.constant). Use
rand(shape, name, kind) for deterministic values.
"""
import collections
import zlib

import numpy as np

Spec = collections.namedtuple("Spec", "name op inputs build rtol atol family")


def seed_of(*parts):
    return zlib.crc32("/".join(str(p) for p in parts).encode()) & 0x7FFFFFFF


def rand(shape, seed, kind="any", dtype=np.float32):
    """Deterministic values: any (normal), positive (0.5..2), nonzero (|v| in 0.5..2), unit (-0.9..0.9)."""
    rng = np.random.RandomState(seed_of(seed))
    if kind == "positive":
        v = rng.uniform(0.5, 2.0, shape)
    elif kind == "nonzero":
        v = rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    elif kind == "unit":
        v = rng.uniform(-0.9, 0.9, shape)
    else:
        v = rng.standard_normal(shape)
    return np.asarray(v).astype(dtype)


def all_specs():
    import importlib  # pylint: disable=import-outside-toplevel
    import pkgutil  # pylint: disable=import-outside-toplevel
    modules = [importlib.import_module("grad_cases." + m.name)
               for m in pkgutil.iter_modules(__path__) if m.name.endswith("_cases")]
    specs = []
    names = set()

    family = [None]

    def add(op, what, inputs, build, rtol=1e-5, atol=1e-6):
        dtype = np.dtype(inputs[0][1].dtype).name if inputs else "none"
        name = "%s/%s/%s" % (op, dtype, what)
        assert name not in names, "duplicate case " + name
        names.add(name)
        specs.append(Spec(name, op, inputs, build, rtol, atol, family[0]))

    for m in modules:
        # A module may name its family (FAMILY) when it is not the module's name.
        family[0] = getattr(m, "FAMILY", m.__name__.split(".")[-1][:-len("_cases")])
        m.cases(add)
    return specs
