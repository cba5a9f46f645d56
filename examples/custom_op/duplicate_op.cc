// A broken library of custom ops for TF_LoadLibrary's tests: it registers "Identity", which Rill
// already has, so loading it is AlreadyExists rather than a process abort.
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

REGISTER_OP("Identity")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(::rill::shape_fns::Unchanged);
