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


class tag_constants(object):
    SERVING = "serve"
    TRAINING = "train"
    GPU = "gpu"


class signature_constants(object):
    DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
