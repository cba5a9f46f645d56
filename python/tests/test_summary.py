"""tf.summary.FileWriter: event files in TensorFlow's TFRecord framing (masked CRC32C), read
back with the same checks TensorFlow's reader makes; a file TensorFlow wrote passes them too."""
import os
import struct

import pytest

import conftest
import rill.compat.v1 as tf
from rill import summary
from rill._proto import graph_pb2


def records(data):
    out = []
    pos = 0
    while pos < len(data):
        length_bytes = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", length_bytes)
        (crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        assert crc == summary.masked_crc32c(length_bytes)
        body = data[pos + 12:pos + 12 + length]
        (crc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        assert crc == summary.masked_crc32c(body)
        out.append(body)
        pos += 16 + length
    return out


def graph_of(event):
    """The graph_def field (4) of a serialized Event, or None."""
    pos = 0
    while pos < len(event):
        tag = event[pos]
        pos += 1
        field, wire = tag >> 3, tag & 7
        if wire == 1:
            pos += 8
        elif wire == 0:
            while event[pos] & 0x80:
                pos += 1
            pos += 1
        elif wire == 2:
            n, shift = 0, 0
            while True:
                b = event[pos]
                pos += 1
                n |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            if field == 4:
                return event[pos:pos + n]
            pos += n
        else:
            raise AssertionError("wire type %d" % wire)
    return None


def test_crc32c_known_value():
    assert summary.crc32c(b"123456789") == 0xE3069283


def test_tensorflow_written_events_file_passes_the_checks():
    with open(os.path.join(conftest.HERE, "data", "tf_events_with_graph"), "rb") as f:
        recs = records(f.read())
    assert b"brain.Event:2" in recs[0]
    g = graph_pb2.GraphDef.FromString(graph_of(recs[1]))
    assert [n.name for n in g.node] == ["a"]


def test_file_writer_writes_the_graph(tmp_path):
    with tf.Graph().as_default() as g:
        tf.constant(1.0, name="a")
        tf.constant(2.0, name="b")
        with tf.summary.FileWriter(str(tmp_path), g) as w:
            w.flush()
    (name,) = os.listdir(str(tmp_path))
    assert name.startswith("events.out.tfevents.")
    recs = records((tmp_path / name).read_bytes())
    assert len(recs) == 2 and b"brain.Event:2" in recs[0]
    assert [n.name for n in graph_pb2.GraphDef.FromString(graph_of(recs[1])).node] == ["a", "b"]


def test_summary_ops_are_not_there():
    with pytest.raises(NotImplementedError, match="summary ops"):
        tf.summary.scalar("loss", tf.constant(1.0))
    assert tf.summary.merge_all() is None
