"""Prints TensorFlow's OpDef of each named op as Rill OpDefBuilder spec lines.

Signatures (argument names, type attrs, allowed dtypes, defaults) are facts Rill must match so
that graphs TensorFlow wrote import unchanged; this reads them from tensorflow-cpu's op registry
instead of retyping them. Usage:
  python3 tests/tfgen/dump_op_specs.py Sub Mul Div > /tmp/specs.txt
Shape functions and comments are written by hand in ops/*.cc.
"""
import sys

import numpy as np

from tensorflow.core.framework import types_pb2
from tensorflow.python.framework import op_def_registry


def type_name(dt):
    return types_pb2.DataType.Name(dt)[3:].lower()


def arg_spec(arg):
    if arg.number_attr:
        t = arg.type_attr or type_name(arg.type)
        body = f"{arg.number_attr} * {t}"
    elif arg.type_list_attr:
        body = arg.type_list_attr
    elif arg.type_attr:
        body = arg.type_attr
    else:
        body = type_name(arg.type)
    if arg.is_ref:
        body = f"Ref({body})"
    return f"{arg.name}: {body}"


def value_spec(attr_type, v):
    kind = v.WhichOneof("value")
    if kind == "type":
        return type_name(v.type)
    if kind == "b":
        return "true" if v.b else "false"
    if kind == "i":
        return str(v.i)
    if kind == "f":
        return str(np.float32(v.f))  # shortest float32 text: 0.2, not 0.20000000298023224
    if kind == "s":
        return '"' + v.s.decode() + '"'
    if kind == "shape":
        if v.shape.unknown_rank:
            return "<unknown>"
        return "[" + ",".join(str(d.size) for d in v.shape.dim) + "]"
    if kind == "list":
        lst = v.list
        if lst.type:
            return "[" + ", ".join(type_name(t) for t in lst.type) + "]"
        if lst.i:
            return "[" + ", ".join(str(i) for i in lst.i) + "]"
        if lst.s:
            return "[" + ", ".join('"' + s.decode() + '"' for s in lst.s) + "]"
        if lst.f:
            return "[" + ", ".join(str(np.float32(f)) for f in lst.f) + "]"
        return "[]"
    raise ValueError(f"unhandled default {v}")


def attr_spec(a):
    t = a.type
    if a.allowed_values.WhichOneof("value") == "list":
        lst = a.allowed_values.list
        if lst.type:
            t = "{" + ", ".join(type_name(x) for x in lst.type) + "}"
            if a.type == "list(type)":
                t = "list(" + t + ")"
        elif lst.s:
            t = "{" + ", ".join("'" + s.decode() + "'" for s in lst.s) + "}"
    spec = f"{a.name}: {t}"
    if a.has_minimum:
        spec += f" >= {a.minimum}"
    if a.HasField("default_value"):
        spec += " = " + value_spec(a.type, a.default_value)
    return spec


def main():
    for name in sys.argv[1:]:
        op = op_def_registry.get(name)
        if op is None:
            print(f"// {name}: not registered in this TensorFlow")
            continue
        print(f'REGISTER_OP("{name}")')
        for a in op.input_arg:
            print(f'    .Input("{arg_spec(a)}")')
        for a in op.output_arg:
            print(f'    .Output("{arg_spec(a)}")')
        for a in op.attr:
            print(f'    .Attr("{attr_spec(a)}")')
        if op.is_commutative:
            print("    .SetIsCommutative()")
        if op.is_stateful:
            print("    .SetIsStateful()")
        print("    ;")
        print()


if __name__ == "__main__":
    main()
