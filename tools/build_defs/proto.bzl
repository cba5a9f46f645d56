"""rill_proto_library: compiles .proto files with Debian's protoc into one cc_library.

Bazel 4.2.3's native proto rules would download protobuf's sources; this runs the system
`protoc --cpp_out` instead and wraps the generated .pb.cc/.pb.h. Imports are written relative to
the workspace root (`import "proto/types.proto";`).
"""

def rill_proto_library(name, srcs, deps = [], imports = [], visibility = None, alwayslink = False):
    """imports: filegroups of the .proto files that `srcs` import from other packages (e.g.
    "//proto:proto_files"); their cc_library goes in `deps`. alwayslink: kept whole in shared
    libraries (librill.so exports every generated class)."""
    hdrs = [s.replace(".proto", ".pb.h") for s in srcs]
    ccs = [s.replace(".proto", ".pb.cc") for s in srcs]
    native.genrule(
        name = name + "_protoc",
        srcs = srcs + imports,
        outs = hdrs + ccs,
        cmd = "protoc -I. --cpp_out=$(GENDIR) " + " ".join(["$(location %s)" % s for s in srcs]),
    )
    native.cc_library(
        name = name,
        srcs = ccs,
        hdrs = hdrs,
        deps = deps + ["@system//:protobuf"],
        visibility = visibility,
        alwayslink = alwayslink,
    )
