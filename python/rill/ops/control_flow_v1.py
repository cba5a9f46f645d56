"""tf.cond and tf.while_loop built from TF1's control-flow primitives (Switch, Merge, Enter,
Exit, NextIteration, LoopCond), named as TensorFlow 1 names them (cond/Switch, cond/Merge,
while/Enter, ...). Tensors from outside a branch enter it through a Switch (cond) or an Enter
(while_loop), added when an op inside first uses them (Graph.create_op calls the context)."""
from rill import _c
from rill.framework import ops
from rill.framework.op_def_library import apply_op


class _Context(object):
    """What a branch or loop body being built needs: its ops, and the entry of outside tensors."""

    def __init__(self, graph, outer):
        self.graph = graph
        self.outer = outer
        self.ops = set()
        self.entered = {}

    def contains(self, op):
        return id(op) in self.ops

    def inside(self, t):
        ctx = self
        while ctx is not None:
            if ctx.contains(t.op):
                return True
            ctx = ctx.outer if isinstance(ctx, _Context) else None
        return False

    def _enter_outer(self):
        g = self.graph
        saved = g._control_flow_context
        g._control_flow_context = self.outer
        return saved

    def map_input(self, t):
        if self.contains(t.op):
            return t
        key = t
        if key not in self.entered:
            g = self.graph
            saved = self._enter_outer()
            try:
                if self.outer is not None:
                    t = self.outer.map_input(t)
                self.entered[key] = self.make_entry(t)
            finally:
                g._control_flow_context = saved
        return self.entered[key]

    def add_op(self, op):
        """op is built in this context, so in every enclosing one too."""
        ctx = self
        while ctx is not None:
            ctx.ops.add(id(op))
            ctx = ctx.outer


class _CondContext(_Context):
    def __init__(self, graph, outer, pred, pivot, branch):
        super(_CondContext, self).__init__(graph, outer)
        self.pred = pred
        self.pivot = pivot
        self.branch = branch

    def make_entry(self, t):
        return apply_op("RefSwitch" if t.dtype._is_ref_dtype() else "Switch", name="Switch",
                        data=t, pred=self.pred)[self.branch]

    def control_inputs_for(self, inputs):
        return [] if inputs else [self.pivot.op]


class _WhileContext(_Context):
    def __init__(self, graph, outer, frame_name, parallel_iterations, pivot=None):
        super(_WhileContext, self).__init__(graph, outer)
        self.frame_name = frame_name
        self.parallel_iterations = parallel_iterations
        self.pivot = pivot  # the body's pivot (first Identity); the cond's is the first Merge
        self.pivot_for_pred = None

    def make_entry(self, t):
        e = apply_op("RefEnter" if t.dtype._is_ref_dtype() else "Enter", name="Enter", data=t,
                     frame_name=self.frame_name, is_constant=True,
                     parallel_iterations=self.parallel_iterations)
        self.add_op(e.op)  # built in the enclosing frame's context, it belongs to the loop
        return e

    def control_inputs_for(self, inputs):
        if inputs:
            return []
        p = self.pivot if self.pivot is not None else self.pivot_for_pred
        return [] if p is None else [p.op]


def _flatten(x):
    if isinstance(x, (list, tuple)):
        out = []
        for e in x:
            out.extend(_flatten(e))
        return out
    if isinstance(x, dict):
        out = []
        for k in sorted(x):
            out.extend(_flatten(x[k]))
        return out
    return [x]


def _pack_as(structure, flat):
    it = iter(flat)

    def build(s):
        if isinstance(s, (list, tuple)):
            vals = [build(e) for e in s]
            return type(s)(*vals) if hasattr(s, "_fields") else type(s)(vals)
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        return next(it)
    return build(structure)


def _build_branch(g, ctx, fn):
    saved = g._control_flow_context
    g._control_flow_context = ctx
    try:
        result = fn()
        if result is None:
            return None, []
        flat = []
        for r in _flatten(result):
            if isinstance(r, ops.Operation):
                with g.control_dependencies([r]):
                    r = apply_op("Identity", input=ctx.pivot)
            else:
                r = ops.convert_to_tensor(r)
            if not ctx.contains(r.op):
                r = apply_op("Identity", input=r)
            flat.append(r)
        return result, flat
    finally:
        g._control_flow_context = saved


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    true_fn = true_fn or fn1
    false_fn = false_fn or fn2
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("true_fn and false_fn must be callable.")
    g = ops.get_default_graph()
    with ops.name_scope_v1(name, "cond", [pred]):
        pred = ops.convert_to_tensor(pred)
        outer = g._control_flow_context
        if outer is not None:
            pred = outer.map_input(pred)
        p_f, p_t = apply_op("Switch", name="Switch", data=pred, pred=pred)
        pivot_t = apply_op("Identity", name="switch_t", input=p_t)
        pivot_f = apply_op("Identity", name="switch_f", input=p_f)
        pred_id = apply_op("Identity", name="pred_id", input=pred)
        ctx_t = _CondContext(g, outer, pred_id, pivot_t, 1)
        ctx_t.add_op(pivot_t.op)
        res_t, flat_t = _build_branch(g, ctx_t, true_fn)
        ctx_f = _CondContext(g, outer, pred_id, pivot_f, 0)
        ctx_f.add_op(pivot_f.op)
        res_f, flat_f = _build_branch(g, ctx_f, false_fn)
        if len(flat_t) != len(flat_f):
            raise ValueError("true_fn and false_fn must return the same number of results: "
                             "%d and %d" % (len(flat_t), len(flat_f)))
        if not flat_t:
            return None
        merged = [apply_op("Merge", name="Merge", inputs=[f, t])[0]
                  for t, f in zip(flat_t, flat_f)]
        if not strict and isinstance(res_t, (list, tuple)) and len(flat_t) == 1 and \
                len(res_t) == 1:
            return merged[0]
        return _pack_as(res_t, merged) if isinstance(res_t, (list, tuple, dict)) else merged[0]


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    if not callable(cond) or not callable(body):
        raise TypeError("cond and body must be callable.")
    g = ops.get_default_graph()
    single = not isinstance(loop_vars, (list, tuple, dict))
    structure = [loop_vars] if single else loop_vars
    with ops.name_scope_v1(name, "while") as scope:
        frame = scope[:-1]
        outer = g._control_flow_context
        flat = [ops.convert_to_tensor(v) for v in _flatten(structure)]
        if outer is not None:
            flat = [outer.map_input(v) for v in flat]
        ctx = _WhileContext(g, outer, frame, parallel_iterations)
        saved = g._control_flow_context
        # The loop variables' Enters take tensors of the enclosing frame as they are.
        enters = [apply_op("Enter", name="Enter", data=v, frame_name=frame,
                           parallel_iterations=parallel_iterations) for v in flat]
        for e in enters:
            ctx.add_op(e.op)
        g._control_flow_context = ctx
        try:
            merges = [apply_op("Merge", name="Merge", inputs=[e, e])[0] for e in enters]
            ctx.pivot_for_pred = merges[0]
            packed = _pack_as(structure, merges)
            c = cond(*packed) if isinstance(packed, (list, tuple)) else cond(packed)
            c = ops.convert_to_tensor(c)
            pivot = apply_op("LoopCond", name="LoopCond", input=c)
            switches = [apply_op("Switch", name="Switch", data=m, pred=pivot) for m in merges]
            exits_in = [s[0] for s in switches]
            ids = [apply_op("Identity", name="Identity", input=s[1]) for s in switches]
            ctx.pivot = ids[0]
            for t in ids:
                ctx.add_op(t.op)
            packed_ids = _pack_as(structure, ids)
            out = body(*packed_ids) if isinstance(packed_ids, (list, tuple)) else body(packed_ids)
            if single and not isinstance(out, (list, tuple)):
                out = [out]
            new_flat = [ops.convert_to_tensor(v) for v in _flatten(out)]
            if len(new_flat) != len(merges):
                raise ValueError("body returns %d values; while_loop has %d loop variables" % (
                    len(new_flat), len(merges)))
            nexts = [apply_op("NextIteration", name="NextIteration", data=v) for v in new_flat]
            status = _c.Status()
            for m, n in zip(merges, nexts):
                _c.TF_UpdateEdge(g._c_graph, n._as_tf_output(), _c.TF_Input(m.op._c_op, 1),
                                 status.ptr)
                status.raise_if_error()
        finally:
            g._control_flow_context = saved
        exits = [apply_op("Exit", name="Exit", data=e) for e in exits_in]
        # Packed as the body's result is (TensorFlow's BuildLoop).
        result = _pack_as(out, exits)
        if single or (not return_same_structure and len(exits) == 1):
            return exits[0]
        return result
