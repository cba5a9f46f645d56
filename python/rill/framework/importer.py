"""tf.import_graph_def over TF_GraphImportGraphDefWithResults."""
from rill import _c
from rill.framework import ops


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None,
                     op_dict=None, producer_op_list=None):
    g = ops.get_default_graph()
    if name is None:
        prefix = g.unique_name("import")
    elif name == "":
        prefix = ""
    else:
        prefix = g.unique_name(name)
    opts = _c.TF_NewImportGraphDefOptions()
    try:
        if prefix:
            _c.TF_ImportGraphDefOptionsSetPrefix(opts, prefix.encode())
        for k, v in (input_map or {}).items():
            t = ops.convert_to_tensor(v)
            src, idx = (k.rsplit(":", 1) + ["0"])[:2] if ":" in k else (k, "0")
            if src.startswith("^"):
                raise ValueError("control input mappings are not supported: %s" % k)
            _c.TF_ImportGraphDefOptionsAddInputMapping(opts, src.encode(), int(idx), t._as_tf_output())
        kinds = []
        for r in return_elements or []:
            if ":" in r:
                n, i = r.rsplit(":", 1)
                _c.TF_ImportGraphDefOptionsAddReturnOutput(opts, n.encode(), int(i))
                kinds.append("t")
            else:
                _c.TF_ImportGraphDefOptionsAddReturnOperation(opts, r.encode())
                kinds.append("o")
        b = graph_def.SerializeToString() if hasattr(graph_def, "SerializeToString") else graph_def
        buf = _c.TF_NewBufferFromString(b, len(b))
        status = _c.Status()
        try:
            res = _c.TF_GraphImportGraphDefWithResults(g._c_graph, buf, opts, status.ptr)
        finally:
            _c.TF_DeleteBuffer(buf)
        status.raise_if_error()
        try:
            g._sync_from_c()
            if return_elements is None:
                return None
            import ctypes
            n = ctypes.c_int()
            outs = ctypes.POINTER(_c.TF_Output)()
            _c.TF_ImportGraphDefResultsReturnOutputs(res, ctypes.byref(n), ctypes.byref(outs))
            tensors = [g._op_for_ptr(outs[i].oper)._outputs[outs[i].index] for i in range(n.value)]
            m = ctypes.c_int()
            opers = ctypes.POINTER(ctypes.c_void_p)()
            _c.TF_ImportGraphDefResultsReturnOperations(res, ctypes.byref(m), ctypes.byref(opers))
            operations = [g._op_for_ptr(opers[i]) for i in range(m.value)]
            result = []
            for k in kinds:
                result.append(tensors.pop(0) if k == "t" else operations.pop(0))
            return result
        finally:
            _c.TF_DeleteImportGraphDefResults(res)
    finally:
        _c.TF_DeleteImportGraphDefOptions(opts)
