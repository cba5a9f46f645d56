"""Python modules of Rill's proto/*.proto, written by python/tools/gen_protos.sh (protoc).

They live in this directory once generated (`pip install .` and gen_protos.sh put them here);
$RILL_PROTO_DIR names another directory holding them (the Bazel test writes them there).
"""
import os

_extra = os.environ.get("RILL_PROTO_DIR")
if _extra:
    __path__.append(_extra)  # noqa: F821 (the package's own __path__)

if not any(os.path.exists(os.path.join(d, "config_pb2.py")) for d in __path__):  # noqa: F821
    raise ImportError(
        "rill: the proto modules are missing; run python/tools/gen_protos.sh (protoc) in the "
        "source tree, install the package (pip install ./python), or set RILL_PROTO_DIR")
