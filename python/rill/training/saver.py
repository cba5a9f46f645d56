"""tf.train.Saver: TF1 V2 checkpoints (SaveV2 / RestoreV2 ops; the 'checkpoint' state file)."""
import os

from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.ops import constant_op, control_flow, variables


def _var_name(v):
    return v.op.name


class Saver(object):
    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=2, pad_step_number=False, save_relative_paths=False, filename=None):
        if var_list is None:
            var_list = variables.global_variables()
        if isinstance(var_list, dict):
            items = sorted(var_list.items())
        else:
            items = sorted((_var_name(v), v) for v in var_list)
        if not items and not allow_empty:
            raise ValueError("No variables to save")
        self._items = items
        self._max_to_keep = max_to_keep
        self._last = []
        with ops.name_scope_v1(name, "save"):
            self._filename = apply_op("PlaceholderWithDefault",
                                       input=constant_op.constant("model", dtype=dtypes.string),
                                       shape=[], name="filename")
            names = constant_op.constant([n for n, _ in items], dtype=dtypes.string,
                                         name="SaveV2/tensor_names")
            slices = constant_op.constant([""] * len(items), dtype=dtypes.string,
                                          name="SaveV2/shape_and_slices")
            tensors = [v.value() if hasattr(v, "value") else v for _, v in items]
            save = apply_op("SaveV2", name="SaveV2", prefix=self._filename, tensor_names=names,
                            shape_and_slices=slices, tensors=tensors)
            with ops.control_dependencies([save]):
                self._save_tensor = apply_op("Identity", name="control_dependency",
                                             input=self._filename)
            rnames = constant_op.constant([n for n, _ in items], dtype=dtypes.string,
                                          name="RestoreV2/tensor_names")
            rslices = constant_op.constant([""] * len(items), dtype=dtypes.string,
                                           name="RestoreV2/shape_and_slices")
            restored = apply_op("RestoreV2", name="RestoreV2", prefix=self._filename,
                                tensor_names=rnames, shape_and_slices=rslices,
                                dtypes=[v.dtype.base_dtype for _, v in items])
            assigns = []
            for (n, v), t in zip(items, restored):
                assigns.append(v.assign(t) if v._use_resource else
                               apply_op("Assign", ref=v._ref(), value=t))
            self._restore_op = control_flow.group(*assigns, name="restore_all")

    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True, strip_default_attrs=False,
             save_debug_info=False):
        if global_step is not None:
            step = global_step if isinstance(global_step, int) else int(sess.run(global_step))
            save_path = "%s-%d" % (save_path, step)
        # TensorFlow's SaveV2 creates the checkpoint's directory; Rill's kernel does not.
        if os.path.dirname(save_path):
            os.makedirs(os.path.dirname(save_path), exist_ok=True)
        sess.run(self._save_tensor, {self._filename: save_path})
        if write_state:
            d = os.path.dirname(save_path) or "."
            self._last = [p for p in self._last if p != save_path] + [save_path]
            while self._max_to_keep and len(self._last) > self._max_to_keep:
                old = self._last.pop(0)
                for suffix in (".index", ".data-00000-of-00001", ".meta"):
                    if os.path.exists(old + suffix):
                        os.remove(old + suffix)
            with open(os.path.join(d, latest_filename or "checkpoint"), "w") as f:
                f.write('model_checkpoint_path: "%s"\n' % os.path.basename(save_path))
                for p in self._last:
                    f.write('all_model_checkpoint_paths: "%s"\n' % os.path.basename(p))
        if write_meta_graph:
            self.export_meta_graph(save_path + "." + meta_graph_suffix, sess.graph)
        return save_path

    def as_saver_def(self):
        from rill._proto import saver_pb2
        return saver_pb2.SaverDef(filename_tensor_name=self._filename.name,
                                  save_tensor_name=self._save_tensor.name,
                                  restore_op_name=self._restore_op.name,
                                  max_to_keep=self._max_to_keep or 0,
                                  version=saver_pb2.SaverDef.V2)

    def export_meta_graph(self, filename=None, graph=None, **kwargs):
        """A MetaGraphDef of graph (default: the default graph) with this saver's SaverDef,
        written to filename when given."""
        from rill._proto import meta_graph_pb2
        g = graph or ops.get_default_graph()
        mg = meta_graph_pb2.MetaGraphDef()
        mg.graph_def.CopyFrom(g.as_graph_def())
        mg.saver_def.CopyFrom(self.as_saver_def())
        if filename:
            with open(filename, "wb") as f:
                f.write(mg.SerializeToString())
        return mg

    def restore(self, sess, save_path):
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        from rill.framework import errors
        try:
            sess.run(self._restore_op, {self._filename: save_path})
        except errors.NotFoundError as e:
            raise _wrap_restore_error(e, "a Variable name or other graph key that is missing")
        except errors.InvalidArgumentError as e:
            raise _wrap_restore_error(
                e, "a mismatch between the current graph and the graph from the checkpoint")

    @property
    def last_checkpoints(self):
        return list(self._last)


def _wrap_restore_error(err, cause):
    """TensorFlow's Saver.restore text around a failed restore."""
    return err.__class__(err.node_def, err.op, (
        "Restoring from checkpoint failed. This is most likely due to %s from the checkpoint. "
        "Please ensure that you have not altered the graph expected based on the checkpoint. "
        "Original error:\n\n%s") % (cause, err.message))


class _ImportedSaver(object):
    """The saver of an imported MetaGraphDef: its SaverDef's save and restore operations."""

    def __init__(self, saver_def, graph, import_scope):
        prefix = import_scope + "/" if import_scope else ""
        self._graph = graph
        self._filename = graph.get_tensor_by_name(prefix + saver_def.filename_tensor_name)
        self._save_tensor = graph.get_tensor_by_name(prefix + saver_def.save_tensor_name)
        self._restore_op = graph.get_operation_by_name(prefix + saver_def.restore_op_name)
        self._last = []
        self._max_to_keep = saver_def.max_to_keep

    restore = Saver.restore
    save = Saver.save
    as_saver_def = Saver.as_saver_def
    export_meta_graph = Saver.export_meta_graph


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """Imports a MetaGraphDef's graph into the default graph; returns a Saver over its SaverDef
    (None when it has none)."""
    from rill._proto import meta_graph_pb2
    from rill.framework import importer
    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        mg = meta_graph_or_file
    else:
        mg = meta_graph_pb2.MetaGraphDef()
        with open(meta_graph_or_file, "rb") as f:
            data = f.read()
        try:
            mg.ParseFromString(data)
        except Exception:
            from google.protobuf import text_format
            text_format.Merge(data.decode("utf-8"), mg)
    gd = mg.graph_def
    if clear_devices:
        gd = type(gd).FromString(gd.SerializeToString())
        for n in gd.node:
            n.device = ""
    importer.import_graph_def(gd, name=import_scope or "")
    if not mg.HasField("saver_def") or not mg.saver_def.restore_op_name:
        return None
    return _ImportedSaver(mg.saver_def, ops.get_default_graph(), import_scope)


class _CheckpointState(object):
    def __init__(self, path, all_paths):
        self.model_checkpoint_path = path
        self.all_model_checkpoint_paths = all_paths


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    p = os.path.join(checkpoint_dir, latest_filename or "checkpoint")
    if not os.path.exists(p):
        return None
    path = None
    alls = []
    for line in open(p):
        k, _, v = line.partition(":")
        v = v.strip().strip('"')
        if not os.path.isabs(v):
            v = os.path.join(checkpoint_dir, v)
        if k.strip() == "model_checkpoint_path":
            path = v
        elif k.strip() == "all_model_checkpoint_paths":
            alls.append(v)
    return _CheckpointState(path, alls)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    s = get_checkpoint_state(checkpoint_dir, latest_filename)
    return s.model_checkpoint_path if s else None
