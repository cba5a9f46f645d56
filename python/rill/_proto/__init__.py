"""Python modules of Rill's proto/*.proto, written by python/tools/gen_protos.sh (protoc).

They live in this directory once generated (`pip install .` and gen_protos.sh put them here);
$RILL_PROTO_DIR names another directory holding them (the Bazel test writes them there).
"""
import os

_extra = os.environ.get("RILL_PROTO_DIR")
if _extra:
    __path__.append(_extra)  # noqa: F821 (the package's own __path__)
