#!/usr/bin/env python3
"""Writes the cases of c/misuse_sweep_test.cc from Rill's C headers.

    gen_misuse_sweep.py HEADER... > misuse_sweep_cases.inc

Every function a header declares (TF_CAPI_EXPORT functions and the static inline TF_TString_*
ones) gets these cases, each a captureless lambda over a MisuseFixture (c/misuse_sweep_fixture.h)
that makes valid arguments on demand:
  valid           every argument valid (no crash; the result is not checked)
  P=NULL          for each pointer parameter P, P alone NULL; where the function takes a
                  TF_Status and P is not one TensorFlow allows to be NULL (kNullAllowed), the
                  status must be TF_INVALID_ARGUMENT with a message naming P
  N=-1, N=huge    for each integer parameter: -1 and the type's maximum (an int count with a
                  valid array gets -1 only: a larger count than the array is undetectable);
                  counts and sizes that go with a NULL array are also tried huge
  T=bad           for each TF_DataType parameter: -1, 1000, TF_STRING and TF_RESOURCE
  twice(NULL)     deletion functions called twice with NULL
A parameter type the generator does not know stops it with an error naming the function.
"""
import re
import sys

EXPORT = re.compile(r'TF_CAPI_EXPORT\s+extern\s+([^;{}]*?)\b(\w+)\s*\(([^;{}]*?)\)\s*;', re.S)
INLINE = re.compile(r'static\s+inline\s+([^;{}()]*?)\b(TF_TString_\w+)\s*\(([^;{}]*?)\)\s*\{', re.S)

# (function, parameter) pairs TensorFlow accepts as NULL (optional arguments): no error expected.
NULL_ALLOWED = {
    ('TF_SessionRun', 'run_options'), ('TF_SessionRun', 'run_metadata'),
    ('TF_Run', 'run_options'), ('TF_Run', 'run_metadata'),
    ('TF_LoadSessionFromSavedModel', 'run_options'),
    ('TF_LoadSessionFromSavedModel', 'meta_graph_def'),
    ('TF_NewTensor', 'deallocator'), ('TF_NewTensor', 'deallocator_arg'),
    ('TF_GraphToFunction', 'opts'), ('TF_GraphToFunction', 'description'),
    ('TF_GraphToFunction', 'output_names'),
    ('TF_GraphToFunctionWithControlOutputs', 'opts'),
    ('TF_GraphToFunctionWithControlOutputs', 'description'),
    ('TF_GraphToFunctionWithControlOutputs', 'output_names'),
    ('TF_GraphToFunctionWithControlOutputs', 'control_output_names'),
    ('TF_AddGradients', 'dx'), ('TF_AddGradientsWithPrefix', 'dx'),
    ('TF_AddGradientsWithPrefix', 'prefix'),
    ('RILL_AddGradientsWithOptions', 'dx'), ('RILL_AddGradientsWithOptions', 'prefix'),
    ('RILL_AddGradientsWithOptions', 'stop_gradients'),
    ('TF_FinishWhile', 'outputs'),
    ('TF_GraphCopyFunction', 'grad'),
    ('TF_SetStatus', 'msg'),
    ('TFE_Execute', 'retvals'),
    # Rill's choices where TensorFlow dereferences: NULL is the default or nothing to do.
    ('TFE_NewContext', 'opts'), ('TFE_OpSetDevice', 'device_name'),
    ('TFE_TensorHandleCopyToDevice', 'device_name'), ('TF_DeleteSession', 'arg0'),
    ('TF_DeleteDeprecatedSession', 'arg0'), ('TF_GraphImportGraphDef', 'options'),
    ('TF_GraphImportGraphDefWithResults', 'options'), ('TF_Reset', 'containers'),
}
# Functions whose status is what they write, not a report on their arguments.
STATUS_IS_OUTPUT = {'TF_SetStatus', 'TF_SetPayload', 'TF_SetStatusFromIOError',
                    'TF_MakeInternalErrorStatus'}

def split_params(text):
    """Splits a parameter list at top-level commas (function pointer types keep theirs)."""
    out, depth, cur = [], 0, ''
    for ch in text:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [' '.join(p.split()) for p in out]


def parse_param(p, i):
    fp = re.match(r'(.*)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$', p)
    if fp:
        return {'type': 'fnptr:' + fp.group(2), 'name': fp.group(2)}
    if p.endswith('*'):
        return {'type': p.replace(' *', '*'), 'name': 'arg%d' % i}
    m = re.match(r'(.*?)(\w+)$', p)
    head, last = m.group(1).strip(), m.group(2)
    if head in ('', 'const', 'unsigned', 'struct', 'const unsigned'):
        return {'type': p, 'name': 'arg%d' % i}
    return {'type': head, 'name': last}


def parse(headers):
    funcs = []
    for path in headers:
        src = open(path).read()
        src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
        src = re.sub(r'//[^\n]*', '', src)
        for rx in (EXPORT, INLINE):
            for m in rx.finditer(src):
                ret, name, params = ' '.join(m.group(1).split()), m.group(2), m.group(3).strip()
                plist = [] if params in ('', 'void') else [
                    parse_param(p, i) for i, p in enumerate(split_params(params))]
                funcs.append({'name': name, 'ret': ret, 'params': plist})
    return funcs


# Opaque handle types: the fixture method that makes a valid one (None: no valid one can be made
# through the API, such as a TF_Server, which Rill does not serve; the valid case passes NULL).
HANDLES = {
    'TF_Status': None,  # handled separately
    'TF_Graph': 'graph()', 'TF_Operation': 'op()', 'TF_OperationDescription': 'desc()',
    'TF_Buffer': 'buffer()', 'TF_Tensor': 'tensor()', 'TF_Session': 'session()',
    'TF_DeprecatedSession': 'dsession()', 'TF_SessionOptions': 'sopts()',
    'TF_ImportGraphDefOptions': 'iopts()', 'TF_ImportGraphDefResults': 'iresults()',
    'TF_Function': 'function()', 'TF_FunctionOptions': None, 'TF_DeviceList': 'devices()',
    'TF_ApiDefMap': 'apidefs()', 'TF_Library': None, 'TF_Server': None,
    'TF_WhileParams': 'while_params()', 'TF_CheckpointReader': None, 'TF_AttrBuilder': None,
    'TF_ShapeAndTypeList': 'shapes()', 'TF_TString': 'tstring()', 'TFE_Context': 'ctx()',
    'TFE_ContextOptions': 'copts()', 'TFE_TensorHandle': 'handle()', 'TFE_Op': 'eop()',
    'TFE_TensorDebugInfo': None,
}
# Arrays of handles a function reads (or fills): the fixture's array of 8 valid ones.
HANDLE_ARRAYS = {'TF_Operation': 'ops()', 'TF_Tensor': 'tensors()', 'TFE_TensorHandle': 'handles()',
                 'TF_Function': 'functions()', 'TF_Output': 'outputs()'}
INTS = {'int': 'int', 'const int': 'int', 'size_t': 'size_t', 'int64_t': 'int64_t',
        'unsigned int': 'unsigned', 'unsigned char': 'uchar', 'bool': 'bool', 'float': 'float',
        'char': 'char'}


def strip_const(t):
    return re.sub(r'\bconst\b', '', t).replace(' ', '')


def is_pointer(t):
    return t.startswith('fnptr:') or '*' in t


def valid_string(fn, name):
    if fn == 'TF_DeletePRunHandle':
        return 'strdup("handle")'  # a handle TF_SessionPRunSetup would have allocated
    if name == 'attr_name' and fn.startswith(('TF_OperationGetAttr', 'TFE_OpGetAttr')):
        return '"dtype"'  # the Placeholder's attr: the output argument is reached
    if name in ('op_type', 'op_or_function_name') or fn == 'TF_GraphGetOpDef':
        return '"Identity"'
    if name in ('oper_name',):
        return '"sweep_new"'
    if name == 'attr_name':
        return '"T"'
    if 'device' in name:
        return '"/job:localhost/replica:0/task:0/device:CPU:0"'
    if name in ('export_dir', 'library_filename', 'filename', 'path'):
        return '"/nonexistent/rill_misuse_sweep"'
    return '"feed"'  # the fixture graph's Placeholder, a name most lookups find


def valid_expr(fn, p):
    t, name = p['type'], p['name']
    if t.startswith('fnptr:'):
        return '&MisuseFixture::%s' % ('NoopDeallocator' if 'dealloc' in name else 'NoopListener')
    bare = strip_const(t)
    if bare in ('TF_Status*',):
        return 'status'
    if t in INTS:
        kind = INTS[t]
        if kind == 'float':
            return '1.0f'
        if kind in ('uchar', 'bool', 'char'):
            return '1'
        if is_index(name):
            return '0'
        return '1'
    if t == 'TF_DataType':
        return 'TF_FLOAT'
    if t == 'TF_Code':
        return 'TF_OK'
    if t == 'TFE_ContextDevicePlacementPolicy':
        return 'TFE_DEVICE_PLACEMENT_SILENT'
    if t == 'TF_Output':
        return 'TF_Output{fx.op(), 0}'
    if t == 'TF_Input':
        return 'TF_Input{fx.consumer(), 0}'
    if bare == 'char*' and t.startswith('const'):
        return valid_string(fn, name)
    stars = bare.count('*')
    base = bare.rstrip('*')
    if stars == 1 and base in HANDLES:
        expr = HANDLES[base]
        return ('fx.' + expr) if expr else 'nullptr'
    if stars == 2 and base in HANDLE_ARRAYS:
        return '(%s)fx.%s' % (t, HANDLE_ARRAYS[base])
    if stars == 1 and base in HANDLE_ARRAYS:
        return '(%s)fx.%s' % (t, HANDLE_ARRAYS[base])
    if bare == 'char**' and t.startswith('const'):
        return '(%s)fx.strings()' % t
    if bare == 'void**' and t.startswith('const'):
        return '(%s)fx.strings()' % t
    if bare == 'size_t*' and t.startswith('const'):
        return 'fx.sizes()'
    if bare == 'int*' and t.startswith('const'):
        return 'fx.ints()'
    if bare == 'TF_DataType*' and t.startswith('const'):
        return 'fx.types()'
    if bare == 'int64_t**' and t.startswith('const'):
        return '(%s)fx.dims_list()' % t
    # Anything else is memory the function reads zeros from or writes into.
    return '(%s)fx.scratch()' % t


def is_index(name):
    return name in ('index', 'i', 'idx', 'output_index', 'input_index', 'dim_index', 'arg1') or \
        name.endswith('_index')


def is_count(name):
    return bool(re.match(r'(num|n[a-z]|count|len|length|max|size|proto_len|storage)', name)) or \
        name.endswith(('_len', '_length', '_size', 'len', 'count'))


def int_variants(p):
    """(label, value) pairs for an integer parameter: -1, and the type's maximum where it describes
    no caller array (an index, a plain value): a count larger than a valid array it describes
    cannot be detected, in TensorFlow or here."""
    kind = INTS[p['type']]
    if kind in ('float', 'char', 'bool'):
        return []
    if kind == 'uchar':
        return [('255', '255')]
    out = [('-1', {'int': '-1', 'size_t': 'static_cast<size_t>(-1)', 'int64_t': 'int64_t{-1}',
                   'unsigned': 'static_cast<unsigned>(-1)'}[kind])]
    if not is_count(p['name']):
        out.append(('huge', HUGE[kind]))
    return out


HUGE = {'int': 'INT_MAX', 'size_t': 'SIZE_MAX / 2', 'int64_t': 'INT64_MAX', 'unsigned': 'UINT_MAX'}


def emit(funcs):
    lines = []
    cases = 0
    for f in funcs:
        fn, params = f['name'], f['params']
        status_i = [i for i, p in enumerate(params) if strip_const(p['type']) == 'TF_Status*']
        has_status = bool(status_i)
        base = [valid_expr(fn, p) for p in params]

        def case(variant, param, expect, args, prelude='', twice=False):
            nonlocal cases
            cases += 1
            call = '%s(%s)' % (fn, ', '.join(args))
            if has_status:
                # TF_DeleteStatus frees the status it is given: nothing to report.
                body = 'TF_Status* status = fx.status(); *used = %s; %s(void)%s;' % (
                    'nullptr' if fn == 'TF_DeleteStatus' else 'status', prelude, call)
            else:
                body = '*used = nullptr; %s(void)%s;' % (prelude, call)
            if twice:
                body += ' (void)%s;' % call
            lines.append('    {"%s", "%s", "%s", %s, [](MisuseFixture& fx, TF_Status** used) { '
                         '(void)fx; %s }},' % (fn, variant, param, expect, body))

        case('valid', '', 'kNoCrash', base)
        for i, p in enumerate(params):
            t, name = p['type'], p['name']
            if is_pointer(t) and strip_const(t) != 'TF_Status*':
                args = list(base)
                args[i] = 'nullptr'
                expect = 'kNoCrash'
                if has_status and (fn, name) not in NULL_ALLOWED and fn not in STATUS_IS_OUTPUT:
                    expect = 'kInvalidArgument'
                case('%s=NULL' % name, name, expect, args)
                # A NULL array with a huge count next to it.
                if i + 1 < len(params) and params[i + 1]['type'] in INTS and \
                        is_count(params[i + 1]['name']) and INTS[params[i + 1]['type']] in (
                            'int', 'size_t', 'int64_t'):
                    args2 = list(args)
                    kind = INTS[params[i + 1]['type']]
                    args2[i + 1] = HUGE[kind]
                    case('%s=NULL,%s=huge' % (name, params[i + 1]['name']), name, expect, args2)
            elif strip_const(t) == 'TF_Status*':
                args = list(base)
                args[i] = 'nullptr'
                case('%s=NULL' % name, name, 'kNoCrash', args)
            elif t in INTS:
                for label, value in int_variants(p):
                    args = list(base)
                    args[i] = value
                    case('%s=%s' % (name, label), name, 'kNoCrash', args)
            elif t == 'TF_DataType':
                for label, value in (('-1', 'static_cast<TF_DataType>(-1)'),
                                     ('1000', 'static_cast<TF_DataType>(1000)'),
                                     ('TF_STRING', 'TF_STRING'), ('TF_RESOURCE', 'TF_RESOURCE')):
                    args = list(base)
                    args[i] = value
                    case('%s=%s' % (name, label), name, 'kNoCrash', args)
        if re.match(r'(TF|TFE|RILL)_(Delete|Abort)', fn) and len(params) == 1:
            case('twice(NULL)', params[0]['name'], 'kNoCrash', ['nullptr'], twice=True)
    return lines, cases


def main():
    funcs = parse(sys.argv[1:])
    for f in funcs:
        for p in f['params']:
            t = p['type']
            bare = strip_const(t)
            known = t.startswith('fnptr:') or t in INTS or t in (
                'TF_DataType', 'TF_Code', 'TFE_ContextDevicePlacementPolicy', 'TF_Output',
                'TF_Input') or '*' in bare
            if not known:
                sys.exit('gen_misuse_sweep: %s: parameter %s has type %r the generator does not '
                         'know' % (f['name'], p['name'], t))
    lines, cases = emit(funcs)
    print('// Generated by c/tools/gen_misuse_sweep.py from the C headers: %d functions, %d cases.'
          % (len(funcs), cases))
    print('#define RILL_MISUSE_SWEEP_FUNCTIONS %d' % len(funcs))
    print('static const MisuseCase kMisuseCases[] = {')
    print('\n'.join(lines))
    print('};')


if __name__ == '__main__':
    main()
