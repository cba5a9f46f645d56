"""tf.graph_util: freezing (variables to constants) and subgraph extraction over GraphDefs."""
from rill._proto import graph_pb2, node_def_pb2
from rill.framework import dtypes, tensor_util

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _node_name(n):
    n = n[1:] if n.startswith("^") else n
    return n.split(":")[0]


def extract_sub_graph(graph_def, dest_nodes):
    """The nodes of graph_def that dest_nodes depend on (data and control), in graph order."""
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be a list.")
    by_name = {n.name: n for n in graph_def.node}
    for d in dest_nodes:
        if d not in by_name:
            raise AssertionError("%s is not in graph" % d)
    keep = set()
    stack = list(dest_nodes)
    while stack:
        n = stack.pop()
        if n in keep:
            continue
        keep.add(n)
        stack.extend(_node_name(i) for i in by_name[n].input)
    out = graph_pb2.GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    for n in graph_def.node:
        if n.name in keep:
            out.node.add().CopyFrom(n)
    return out


def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """input_graph_def cut to output_node_names with every variable it reads replaced by a Const
    holding the variable's value in sess (ReadVariableOp of a resource becomes an Identity)."""
    sub = extract_sub_graph(input_graph_def, output_node_names)
    variables = [n for n in sub.node if n.op in _VARIABLE_OPS and
                 (variable_names_whitelist is None or n.name in variable_names_whitelist) and
                 (variable_names_blacklist is None or n.name not in variable_names_blacklist)]
    names = []
    for n in variables:
        if n.op == "VarHandleOp":
            readers = [r for r in sub.node if r.op == "ReadVariableOp" and
                       _node_name(r.input[0]) == n.name]
            names.append(readers[0].name + ":0" if readers else None)
        else:
            names.append(n.name + ":0")
    fetch = [x for x in names if x is not None]
    values = dict(zip(fetch, sess.run(fetch))) if fetch else {}
    frozen = {}
    for n, tname in zip(variables, names):
        if tname is not None:
            frozen[n.name] = values[tname]
    out = graph_pb2.GraphDef()
    out.versions.CopyFrom(sub.versions)
    out.library.CopyFrom(sub.library)
    for n in sub.node:
        new = node_def_pb2.NodeDef()
        if n.name in frozen:
            value = frozen[n.name]
            dt = n.attr["dtype"].type
            new.op = "Const"
            new.name = n.name
            new.attr["dtype"].type = dt
            new.attr["value"].tensor.CopyFrom(
                tensor_util.make_tensor_proto(value, dtype=dtypes.as_dtype(dt)))
            if n.device:
                new.device = n.device
        elif n.op == "ReadVariableOp" and _node_name(n.input[0]) in frozen:
            new.CopyFrom(n)
            new.op = "Identity"
            new.attr["T"].type = n.attr["dtype"].type
            del new.attr["dtype"]
        elif n.op in ("Assign", "AssignVariableOp") and _node_name(n.input[0]) in frozen:
            continue
        else:
            new.CopyFrom(n)
        out.node.add().CopyFrom(new)
    return out


def remove_training_nodes(input_graph, protected_nodes=None):
    return input_graph
