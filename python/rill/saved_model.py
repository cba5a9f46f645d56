"""tf.compat.v1.saved_model: loader.load over TF_LoadSessionFromSavedModel's graph import."""
import types

from rill import _c
from rill._proto import meta_graph_pb2


def _load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Loads the MetaGraph tagged tags from export_dir into sess's graph and restores its
    variables (the library's loader runs the restore); returns the MetaGraphDef."""
    opts = _c.TF_NewSessionOptions()
    status = _c.Status()
    meta = _c.TF_NewBuffer()
    tag_arr = (_c.c_char_p * len(tags))(*[t.encode() for t in tags])
    try:
        b = sess._config.SerializeToString() if sess._config is not None else b""
        if b:
            _c.TF_SetConfig(opts, b, len(b), status.ptr)
            status.raise_if_error()
        c_sess = _c.TF_LoadSessionFromSavedModel(opts, None, export_dir.encode(), tag_arr,
                                                 len(tags), sess._graph._c_graph, meta, status.ptr)
        status.raise_if_error()
        mg = meta_graph_pb2.MetaGraphDef()
        mg.ParseFromString(_c.buffer_bytes(meta))
    finally:
        _c.TF_DeleteBuffer(meta)
        _c.TF_DeleteSessionOptions(opts)
    # The loaded session holds the restored variables: it replaces sess's own.
    old = sess._c_session
    sess._c_session = c_sess
    if old:
        st = _c.Status()
        _c.TF_CloseSession(old, st.ptr)
        _c.TF_DeleteSession(old, st.ptr)
    sess._graph._sync_from_c()
    return mg


loader = types.SimpleNamespace(load=_load)


class _Builder(object):
    """saved_model.builder.SavedModelBuilder: one MetaGraphDef with the session's variables
    (a V2 checkpoint under variables/) and its signatures, written as saved_model.pb."""

    def __init__(self, export_dir):
        import os
        if os.path.exists(export_dir) and os.listdir(export_dir):
            raise AssertionError(
                "Export directory %s already exists, and isn't empty. Please choose a different "
                "export directory, or delete all the contents of the specified directory."
                % export_dir)
        self._export_dir = export_dir
        self._meta_graphs = []

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                     assets_collection=None, legacy_init_op=None,
                                     clear_devices=False, main_op=None, strip_default_attrs=False,
                                     saver=None):
        import os
        from rill.training import saver as saver_lib
        with sess.graph.as_default():
            saver = saver or saver_lib.Saver(allow_empty=True)
        variables_dir = os.path.join(self._export_dir, "variables")
        os.makedirs(variables_dir, exist_ok=True)
        saver.save(sess, os.path.join(variables_dir, "variables"), write_meta_graph=False,
                   write_state=False)
        mg = saver.export_meta_graph(graph=sess.graph)
        mg.meta_info_def.tags.extend(tags)
        for k, v in (signature_def_map or {}).items():
            mg.signature_def[k].CopyFrom(v)
        if clear_devices:
            for n in mg.graph_def.node:
                n.device = ""
        self._meta_graphs.append(mg)

    def add_meta_graph(self, tags, signature_def_map=None, **kwargs):
        raise NotImplementedError("rill's SavedModelBuilder writes one meta graph "
                                  "(add_meta_graph_and_variables)")

    def save(self, as_text=False):
        import os
        from rill._proto import saved_model_pb2
        sm = saved_model_pb2.SavedModel(saved_model_schema_version=1)
        for mg in self._meta_graphs:
            sm.meta_graphs.add().CopyFrom(mg)
        if as_text:
            from google.protobuf import text_format
            path = os.path.join(self._export_dir, "saved_model.pbtxt")
            with open(path, "w") as f:
                f.write(text_format.MessageToString(sm))
        else:
            path = os.path.join(self._export_dir, "saved_model.pb")
            with open(path, "wb") as f:
                f.write(sm.SerializeToString())
        return path.encode()


builder = types.SimpleNamespace(SavedModelBuilder=_Builder)
Builder = _Builder


def build_tensor_info(tensor):
    """The TensorInfo (name, dtype, shape) of a Tensor."""
    info = meta_graph_pb2.TensorInfo(name=tensor.name,
                                     dtype=tensor.dtype.base_dtype.as_datatype_enum)
    info.tensor_shape.CopyFrom(tensor.shape.as_proto())
    return info


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    sig = meta_graph_pb2.SignatureDef(method_name=method_name or "")
    for k, v in (inputs or {}).items():
        sig.inputs[k].CopyFrom(v)
    for k, v in (outputs or {}).items():
        sig.outputs[k].CopyFrom(v)
    return sig


def predict_signature_def(inputs, outputs):
    return build_signature_def({k: build_tensor_info(v) for k, v in inputs.items()},
                               {k: build_tensor_info(v) for k, v in outputs.items()},
                               signature_constants.PREDICT_METHOD_NAME)


signature_def_utils = types.SimpleNamespace(build_signature_def=build_signature_def,
                                            predict_signature_def=predict_signature_def)
utils = types.SimpleNamespace(build_tensor_info=build_tensor_info)


class tag_constants(object):
    SERVING = "serve"
    TRAINING = "train"
    GPU = "gpu"


class signature_constants(object):
    DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
    PREDICT_METHOD_NAME = "tensorflow/serving/predict"
    PREDICT_INPUTS = "inputs"
    PREDICT_OUTPUTS = "outputs"
