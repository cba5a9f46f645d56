#!/usr/bin/env bash
# bazel test //python:pytest: writes the proto modules into the test's temporary directory
# (protoc), then runs python/tests/ with pytest on /usr/bin/python3 against the libtensorflow.so.2
# of this build. Arguments go to pytest (default: python/tests).
set -euo pipefail
cd "${TEST_SRCDIR:-$(dirname "$0")/..}/${TEST_WORKSPACE:-}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
python/tools/gen_protos.sh "$tmp/rill_proto"
export RILL_PROTO_DIR="$tmp/rill_proto"
export RILL_LIBRARY="$PWD/c/libtensorflow.so.2"
export PYTHONDONTWRITEBYTECODE=1
py=/usr/bin/python3
if ! "$py" -c "import numpy, google.protobuf, pytest" 2>/dev/null; then
  echo "python/run_pytest.sh: $py lacks numpy, protobuf or pytest; run tools/install_deps.sh" >&2
  exit 1
fi
[ $# -gt 0 ] || set -- python/tests
exec "$py" -m pytest -q -p no:cacheprovider "$@"
