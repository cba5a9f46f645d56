#!/usr/bin/env python3
"""Writes the field table of TensorFlow's wire formats, read from tensorflow-cpu's descriptors.

Output (stdout), one line per field, sorted:
    <message full name without the 'tensorflow.' package> <field name> <number> <type> <label> [<type name>]
proto/proto_fields_test.cc compares Rill's descriptors with this table, so a field whose name,
number, type or label differs from TensorFlow's fails the test. Enums are listed as
    enum <enum name> <value name> <number>
Usage: python3 tests/tfgen/dump_proto_fields.py > proto/testdata/tf_proto_fields.txt
"""
import sys

from tensorflow.core.framework import graph_pb2, node_def_pb2, attr_value_pb2, tensor_pb2
from tensorflow.core.framework import tensor_shape_pb2, types_pb2, versions_pb2, op_def_pb2
from tensorflow.core.framework import function_pb2, step_stats_pb2, device_attributes_pb2
from tensorflow.core.framework import resource_handle_pb2, cost_graph_pb2, tensor_description_pb2
from tensorflow.core.framework import allocation_description_pb2, full_type_pb2, graph_debug_info_pb2
from tensorflow.core.protobuf import config_pb2, meta_graph_pb2, saved_model_pb2, saver_pb2
from tensorflow.core.protobuf import tensor_bundle_pb2
from tensorflow.core.framework import tensor_slice_pb2
from tensorflow.core.example import example_pb2, feature_pb2

# The messages Rill defines; nested messages are walked too.
ROOTS = [
    graph_pb2.GraphDef, node_def_pb2.NodeDef, attr_value_pb2.AttrValue, attr_value_pb2.NameAttrList,
    tensor_pb2.TensorProto, tensor_pb2.VariantTensorDataProto, tensor_shape_pb2.TensorShapeProto,
    versions_pb2.VersionDef, op_def_pb2.OpDef, op_def_pb2.OpDeprecation, op_def_pb2.OpList,
    function_pb2.FunctionDefLibrary, function_pb2.FunctionDef, function_pb2.GradientDef,
    function_pb2.RegisteredGradient, resource_handle_pb2.ResourceHandleProto,
    step_stats_pb2.StepStats, step_stats_pb2.DeviceStepStats, step_stats_pb2.NodeExecStats,
    step_stats_pb2.AllocatorMemoryUsed, step_stats_pb2.AllocationRecord, step_stats_pb2.NodeOutput,
    step_stats_pb2.MemoryStats, tensor_description_pb2.TensorDescription,
    allocation_description_pb2.AllocationDescription, cost_graph_pb2.CostGraphDef,
    device_attributes_pb2.DeviceAttributes, device_attributes_pb2.DeviceLocality,
    device_attributes_pb2.LocalLinks, device_attributes_pb2.InterconnectLink,
    config_pb2.ConfigProto, config_pb2.GPUOptions, config_pb2.GraphOptions, config_pb2.OptimizerOptions,
    config_pb2.ThreadPoolOptionProto, config_pb2.RunOptions, config_pb2.RunMetadata,
    config_pb2.CallableOptions, config_pb2.TensorConnection,
    meta_graph_pb2.MetaGraphDef, meta_graph_pb2.CollectionDef, meta_graph_pb2.TensorInfo,
    meta_graph_pb2.SignatureDef, meta_graph_pb2.AssetFileDef,
    saved_model_pb2.SavedModel, saver_pb2.SaverDef, config_pb2.SessionMetadata,
    full_type_pb2.FullTypeDef, graph_debug_info_pb2.GraphDebugInfo,
    tensor_bundle_pb2.BundleHeaderProto, tensor_bundle_pb2.BundleEntryProto,
    tensor_slice_pb2.TensorSliceProto,
    example_pb2.Example, example_pb2.SequenceExample, feature_pb2.Feature, feature_pb2.Features,
    feature_pb2.FeatureList, feature_pb2.FeatureLists, feature_pb2.BytesList, feature_pb2.FloatList,
    feature_pb2.Int64List,
]

TYPE = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32",
        8: "bool", 9: "string", 10: "group", 11: "message", 12: "bytes", 13: "uint32", 14: "enum",
        15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}


def label(f):
    return "repeated" if f.is_repeated else ("required" if f.is_required else "optional")


def short(name):
    return name[len("tensorflow."):] if name.startswith("tensorflow.") else name


def walk(desc, out, enums, seen):
    if desc.full_name in seen:
        return
    seen.add(desc.full_name)
    for f in desc.fields:
        tn = ""
        if f.message_type is not None:
            tn = short(f.message_type.full_name)
            if not f.message_type.GetOptions().map_entry and f.message_type.full_name.startswith(
                    desc.full_name + "."):
                walk(f.message_type, out, enums, seen)
            elif f.message_type.GetOptions().map_entry:
                vf = f.message_type.fields_by_name["value"]
                tn = "map<%s,%s>" % (TYPE[f.message_type.fields_by_name["key"].type],
                                     short(vf.message_type.full_name) if vf.message_type else TYPE[vf.type])
        elif f.enum_type is not None:
            tn = short(f.enum_type.full_name)
            enums.add(f.enum_type)
        out.append("%s %s %d %s %s%s" % (short(desc.full_name), f.name, f.number, TYPE[f.type],
                                         label(f), (" " + tn) if tn else ""))
    for nested in desc.nested_types:
        if not nested.GetOptions().map_entry:
            walk(nested, out, enums, seen)


def main():
    out, enums, seen = [], set(), set()
    for m in ROOTS:
        walk(m.DESCRIPTOR, out, enums, seen)
    enums.add(types_pb2.DataType.DESCRIPTOR)
    for e in enums:
        for v in e.values:
            out.append("enum %s %s %d" % (short(e.full_name), v.name, v.number))
    sys.stdout.write("\n".join(sorted(set(out))) + "\n")


if __name__ == "__main__":
    main()
