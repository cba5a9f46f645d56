"""tf.summary (TF1): FileWriter writes TensorBoard event files (TFRecord framing, masked
CRC32C) with the graph; summary ops (scalar, histogram, ...) are not in Rill's op registry, so
those functions raise NotImplementedError."""
import os
import socket
import struct
import threading
import time

from rill._proto import graph_pb2


def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked_crc32c(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord(data):
    """One TFRecord: length, masked CRC of the length, data, masked CRC of the data."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data +
            struct.pack("<I", masked_crc32c(data)))


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def event_bytes(wall_time, step=0, file_version=None, graph_def=None, summary=None):
    """A serialized tensorflow.Event (fields: wall_time 1, step 2, file_version 3,
    graph_def 4, summary 5)."""
    out = b"\x09" + struct.pack("<d", wall_time)
    if step:
        out += b"\x10" + _varint(step & 0xFFFFFFFFFFFFFFFF)
    for tag, payload in ((0x1A, file_version.encode() if file_version else None),
                         (0x22, graph_def), (0x2A, summary)):
        if payload is not None:
            out += bytes([tag]) + _varint(len(payload)) + payload
    return out


class FileWriter(object):
    """Writes event files under logdir: the file version record, then the graph if given."""

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        os.makedirs(logdir, exist_ok=True)
        self._path = os.path.join(logdir, "events.out.tfevents.%010d.%s%s" % (
            int(time.time()), socket.gethostname(), filename_suffix or ""))
        self._lock = threading.Lock()
        self._file = open(self._path, "wb")
        self._write(event_bytes(time.time(), file_version="brain.Event:2"))
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def get_logdir(self):
        return os.path.dirname(self._path)

    def _write(self, event):
        with self._lock:
            if self._file is None:
                raise RuntimeError("FileWriter is closed")
            self._file.write(tfrecord(event))

    def add_graph(self, graph, global_step=None, graph_def=None):
        gd = graph_def if graph_def is not None else graph.as_graph_def()
        if isinstance(gd, graph_pb2.GraphDef) or hasattr(gd, "SerializeToString"):
            gd = gd.SerializeToString()
        self._write(event_bytes(time.time(), step=global_step or 0, graph_def=gd))

    def add_summary(self, summary, global_step=None):
        if hasattr(summary, "SerializeToString"):
            summary = summary.SerializeToString()
        self._write(event_bytes(time.time(), step=global_step or 0, summary=bytes(summary)))

    def flush(self):
        with self._lock:
            if self._file is not None:
                self._file.flush()

    def close(self):
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


def _no_summary_ops(name):
    def fn(*args, **kwargs):
        raise NotImplementedError("tf.summary.%s needs summary ops, which Rill's op registry "
                                  "does not have" % name)
    fn.__name__ = name
    return fn


scalar = _no_summary_ops("scalar")
histogram = _no_summary_ops("histogram")
image = _no_summary_ops("image")
audio = _no_summary_ops("audio")
text = _no_summary_ops("text")


def merge_all(key="summaries", scope=None, name=None):
    """None: no summary ops were made (TensorFlow returns None for an empty collection)."""
    return None
