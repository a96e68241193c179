"""The `host` dialect: the Python host code of an ML program, as the analyses need it.

Semantic assumptions (what a harp module means, stated once):

- Every host value has the one type `!host.obj`. What analysis learns about a value (a
  tensor, a module, a Python scalar, its device) is an attribute on the op that makes it
  (`harp.kind`), never a type, so IRDL's variadic-constraint rule cannot bite.
- Locals, globals and closure cells are named slots: `host.store "x"` / `host.load "x"`.
  A slot is identified by its name within the nearest enclosing `host.func` (or the module
  body); `scope` says when Python resolves it elsewhere (global, nonlocal, builtin).
- Control flow is structured. `host.for`, `host.while`, `host.if`, `host.with` own their
  bodies as regions; `hostcf.*` ops terminate those regions. Code after a `return`,
  `break`, `continue` or `raise` in the same block is unreachable and is not lowered.
- Operands of an op are evaluated left to right before the op runs, except where a region
  says otherwise (`host.if` evaluates one region, `host.while` re-evaluates `cond`).
  `host.boolop` is modelled as evaluating all operands: analyses that care about
  short-circuiting must treat its later operands as conditionally evaluated.
- Library calls carry the qualified name they resolve to (`qualname`) and the effect the
  API catalogue gives them (`effect`). An op the frontend does not understand is
  `host.opaque`, whose effect is "unknown": analyses must assume it may read and write
  anything.
- Host and graph meet only at `host.to_graph` / `host.from_graph`, so every crossing is an
  op a pass can find.

Why two dialects: IRDL cannot give an op the `IsTerminator` trait, and an op without it
cannot end a region in `mlir-opt`. The terminators therefore live in `hostcf`, which harp
registers itself (with the trait attached) and which the IRDL export leaves out, so that
`mlir-opt --irdl-file=host.irdl.mlir --allow-unregistered-dialect` accepts harp's output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from torch_mlir import ir

OBJ = "!host.obj"

#: Effects a library call can have, from the API catalogue. "unknown" is the safe default.
EFFECTS = (
    "pure",  # graph computation with no side effect: same inputs, same outputs
    "graph_build",  # adds ops or variables to a (TF1) graph
    "sync",  # moves a value from the device/graph to the host and waits for it
    "run",  # executes a built graph (Session.run) and returns its results to the host
    "transfer",  # moves a value between host memory and a device, or host -> tensor
    "view",  # shares host memory between a tensor and an array (torch `.numpy()`,
    #          `torch.from_numpy`): no copy, no device wait
    "mutate",  # in-place update of an argument or the receiver
    "random",  # draws from a random number generator (advances its state)
    "io",  # files, printing, logging, network
    "config",  # global configuration (seeds, threads, devices)
    "construct",  # builds a library object (module, optimizer, loader, session)
    "unknown",
)

#: Value kinds the frontend can attach as `harp.kind`.
KINDS = (
    "tensor",
    "module",
    "optimizer",
    "dataloader",
    "session",
    "scalar",
    "ndarray",
    "function",
    "class",
    "library",
    "unknown",
)


@dataclass(frozen=True)
class Attr:
    """An attribute of an op: `base` is the builtin attribute it must be, for IRDL."""

    name: str
    base: str  # "string", "array", "integer", "bool", "any"
    doc: str
    required: bool = True


@dataclass(frozen=True)
class OpSpec:
    """One op of the dialect: the single source of its IRDL text, its verifier and its docs."""

    dialect: str
    name: str
    summary: str
    operands: tuple[str, ...] = ()  # names; a trailing "*" marks the one variadic group
    results: tuple[str, ...] = ()
    attrs: tuple[Attr, ...] = ()
    regions: tuple[str, ...] = ()
    terminator: bool = False
    any_typed: bool = False  # operands/results may be graph types, not only !host.obj
    doc: str = ""
    verify: Callable[[ir.Operation], str | None] | None = field(default=None, compare=False)

    @property
    def full_name(self) -> str:
        return f"{self.dialect}.{self.name}"


# --- verifiers: the checks IRDL cannot express. Each returns an error message or None. ---


def _str_attr(op, name):
    attributes = op.attributes
    attr = attributes[name] if name in attributes else None
    return attr.value if isinstance(attr, ir.StringAttr) else None


def _enclosing(op, names, stop=("host.func", "host.class")):
    parent = op.parent
    while parent is not None:
        if parent.name in names:
            return parent
        if parent.name in stop:
            return None
        parent = parent.parent
    return None


def _verify_call(op):
    if len(op.operands) == 0:
        return "needs a callee operand"
    kwnames = ir.ArrayAttr(op.attributes["kwnames"])
    if len(kwnames) != len(op.operands) - 1:
        return f"has {len(op.operands) - 1} arguments but {len(kwnames)} kwnames"
    for k in kwnames:
        if not isinstance(k, ir.StringAttr):
            return "kwnames must be strings"
    return _verify_effect(op)


def _verify_effect(op):
    effect = _str_attr(op, "effect")
    if effect is not None and effect not in EFFECTS:
        return f"unknown effect '{effect}'; expected one of {', '.join(EFFECTS)}"
    kind = _str_attr(op, "harp.kind")
    if kind is not None and kind not in KINDS:
        return f"unknown value kind '{kind}'"
    return None


def _verify_slot(op):
    if not _str_attr(op, "name"):
        return "slot name must not be empty"
    scope = _str_attr(op, "scope")
    if scope is not None and scope not in ("local", "global", "nonlocal", "builtin"):
        return f"unknown scope '{scope}'"
    return _verify_effect(op)


def _verify_compare(op):
    ops = ir.ArrayAttr(op.attributes["ops"])
    if len(ops) != len(op.operands) - 1 or len(ops) == 0:
        return f"{len(op.operands)} operands need {len(op.operands) - 1} comparison ops"
    return None


def _single_block(region, nargs, what):
    if len(region.blocks) != 1:
        return f"{what} must have exactly one block"
    if len(region.blocks[0].arguments) != nargs:
        return f"{what} must have {nargs} block argument(s)"
    return None


def _verify_for(op):
    return _single_block(op.regions[0], 1, "body") or _single_block(op.regions[1], 0, "orelse")


def _verify_while(op):
    err = _single_block(op.regions[0], 0, "cond") or _single_block(op.regions[1], 0, "body")
    if err:
        return err
    ops = op.regions[0].blocks[0].operations
    if len(ops) == 0 or ops[len(ops) - 1].name != "hostcf.condition":
        return "cond region must end with hostcf.condition"
    return None


def _verify_if(op):
    for region, what in ((op.regions[0], "then"), (op.regions[1], "else")):
        err = _single_block(region, 0, what)
        if err:
            return err
        ops = region.blocks[0].operations
        last = ops[len(ops) - 1] if len(ops) else None
        if last is not None and last.name == "hostcf.yield":
            if len(last.operands) != len(op.results):
                return f"{what} region yields {len(last.operands)} values, op has " \
                       f"{len(op.results)} results"
    return None


def _verify_func(op):
    names = ir.ArrayAttr(op.attributes["arg_names"])
    block = op.regions[0].blocks[0]
    if len(block.arguments) != len(names):
        return f"{len(names)} arg_names but {len(block.arguments)} block arguments"
    return None


def _verify_dict(op):
    if len(op.operands) % 2:
        return "needs key/value operand pairs"
    return None


def _verify_loop_exit(op):
    if _enclosing(op, ("host.for", "host.while")) is None:
        return f"'{op.name}' outside a loop"
    return None


def _verify_return(op):
    if _enclosing(op, ("host.func",), stop=("host.class", "host.module")) is None:
        return "'hostcf.return' outside a function"
    return None


def _verify_opaque(op):
    if not _str_attr(op, "kind"):
        return "opaque op must say what it stands for (kind)"
    return None


_LOC_DOC = "every op carries the source location it was lowered from"
_EFFECT = Attr("effect", "string", "effect from the API catalogue (see EFFECTS)", False)
_QUALNAME = Attr("qualname", "string", "fully qualified library name, once resolved", False)

OPS: tuple[OpSpec, ...] = (
    OpSpec("host", "module", "one Python source file",
           attrs=(Attr("sym_name", "string", "dotted module name"),
                  Attr("filename", "string", "path of the source file")),
           regions=("body",),
           doc="Its body holds the module's top-level statements in order."),
    OpSpec("host", "constant", "a literal: int, float, str, bytes, bool, None, ...",
           results=("result",),
           attrs=(Attr("value", "any", "the literal; unit for None and Ellipsis"),
                  Attr("kind", "string", "int, float, complex, str, bytes, bool, none, ellipsis"))),
    OpSpec("host", "load", "read a named slot (a local, global, closure cell or builtin)",
           results=("result",),
           attrs=(Attr("name", "string", "the Python variable name"),
                  Attr("scope", "string", "local (default), global, nonlocal or builtin", False),
                  _QUALNAME),
           verify=_verify_slot),
    OpSpec("host", "store", "write a named slot", operands=("value",),
           attrs=(Attr("name", "string", "the Python variable name"),
                  Attr("scope", "string", "local (default), global or nonlocal", False)),
           verify=_verify_slot),
    OpSpec("host", "delete", "`del x` of a named slot",
           attrs=(Attr("name", "string", "the Python variable name"),), verify=_verify_slot),
    OpSpec("host", "import", "bind a module (or a name from it) as a value",
           results=("result",),
           attrs=(Attr("module", "string", "the imported module, dotted"),
                  Attr("name", "string", "for `from m import name`: the name", False),
                  Attr("level", "integer", "leading dots of a relative import", False),
                  _QUALNAME),
           doc="`import a.b as c` gives module a.b; `import a.b` binds `a`, so module a."),
    OpSpec("host", "getattr", "`obj.attr`", operands=("object",), results=("result",),
           attrs=(Attr("attr", "string", "the attribute name"), _QUALNAME),
           verify=_verify_effect),
    OpSpec("host", "setattr", "`obj.attr = value`", operands=("object", "value"),
           attrs=(Attr("attr", "string", "the attribute name"),)),
    OpSpec("host", "getitem", "`obj[index]`", operands=("object", "index"), results=("result",)),
    OpSpec("host", "setitem", "`obj[index] = value`", operands=("object", "index", "value")),
    OpSpec("host", "delitem", "`del obj[index]`", operands=("object", "index")),
    OpSpec("host", "slice", "`lower:upper:step`; absent parts are None constants",
           operands=("lower", "upper", "step"), results=("result",)),
    OpSpec("host", "binop", "a binary operator", operands=("lhs", "rhs"), results=("result",),
           attrs=(Attr("op", "string", "add, sub, mul, matmul, truediv, floordiv, mod, pow, "
                                       "lshift, rshift, bitor, bitxor, bitand"),
                  Attr("inplace", "bool", "true for augmented assignment (`x += y`)", False))),
    OpSpec("host", "unop", "a unary operator", operands=("operand",), results=("result",),
           attrs=(Attr("op", "string", "neg, pos, invert, not"),)),
    OpSpec("host", "compare", "a comparison chain `a < b <= c`", operands=("operands*",),
           results=("result",),
           attrs=(Attr("ops", "array", "one of eq, ne, lt, le, gt, ge, is, isnot, in, notin "
                                       "between each pair of operands"),),
           verify=_verify_compare),
    OpSpec("host", "boolop", "`a and b`, `a or b`", operands=("operands*",), results=("result",),
           attrs=(Attr("op", "string", "and, or"),)),
    OpSpec("host", "truth", "the implicit `bool(x)` of a condition",
           operands=("value",), results=("result",), attrs=(_EFFECT,), verify=_verify_effect,
           doc="Explicit so that a tensor used as a condition (a device-to-host sync) is an "
               "op a pass can find; its effect is `sync` when the value is a tensor."),
    OpSpec("host", "call", "a call `callee(*args, **kwargs)`",
           operands=("callee", "args*"), results=("result",),
           attrs=(Attr("kwnames", "array", "per argument: \"\" positional, \"*\" star-args, "
                                           "\"**\" star-kwargs, else the keyword"),
                  _QUALNAME, _EFFECT,
                  Attr("method", "string", "for `recv.m(...)`: the method name; the callee "
                                           "is then the host.getattr of recv", False)),
           verify=_verify_call),
    OpSpec("host", "tuple", "a tuple display", operands=("elements*",), results=("result",)),
    OpSpec("host", "list", "a list display", operands=("elements*",), results=("result",)),
    OpSpec("host", "set", "a set display", operands=("elements*",), results=("result",)),
    OpSpec("host", "dict", "a dict display; operands alternate key, value",
           operands=("entries*",), results=("result",), verify=_verify_dict,
           doc="A `**m` entry has a None constant as its key."),
    OpSpec("host", "starred", "`*x` inside a display or an assignment target",
           operands=("value",), results=("result",)),
    OpSpec("host", "unpack", "tuple unpacking `a, b = value`", operands=("value",),
           results=("elements*",),
           attrs=(Attr("starred", "integer", "index of the starred target, -1 if none"),)),
    OpSpec("host", "fstring", "an f-string; operands are the formatted values in order",
           operands=("values*",), results=("result",),
           attrs=(Attr("template", "string", "the source text of the f-string"),)),
    OpSpec("host", "func", "a function definition; the result is the function object",
           operands=("defaults*",), results=("result",),
           attrs=(Attr("sym_name", "string", "the function's name"),
                  Attr("arg_names", "array", "parameter names, one per block argument"),
                  Attr("arg_kinds", "array", "per parameter: positional, posonly, kwonly, "
                                             "vararg, kwarg")),
           regions=("body",), verify=_verify_func,
           doc="The body's block arguments are the parameters; the body stores them into "
               "slots first. Decorators are host.calls applied to the result."),
    OpSpec("host", "class", "a class definition; the result is the class object",
           operands=("bases*",), results=("result",),
           attrs=(Attr("sym_name", "string", "the class name"),), regions=("body",)),
    OpSpec("host", "for", "`for target in iterable: body else: orelse`",
           operands=("iterable",),
           attrs=(Attr("target", "string", "source text of the loop target, for messages"),),
           regions=("body", "orelse"), verify=_verify_for,
           doc="The body's one block argument is the next element; the body assigns it to "
               "the target first. A loop is assumed to run any number of times."),
    OpSpec("host", "while", "`while cond: body else: orelse`",
           regions=("cond", "body", "orelse"), verify=_verify_while,
           doc="`cond` is evaluated before every iteration and ends with hostcf.condition."),
    OpSpec("host", "if", "`if cond: then else: else`, or the expression `a if cond else b`",
           operands=("condition",), results=("results*",), regions=("then", "else"),
           verify=_verify_if),
    OpSpec("host", "with", "`with a as x, b as y: body`", operands=("managers*",),
           regions=("body",),
           doc="The body has one block argument per manager: the value `__enter__` returned."),
    OpSpec("host", "comprehension", "a list/set/dict comprehension or generator expression",
           results=("result",), regions=("body",),
           attrs=(Attr("kind", "string", "list, set, dict or generator"),),
           doc="The body holds the comprehension's loops as host.for (and its conditions as "
               "host.if), with host.append of each element innermost, so loop analyses see "
               "into it. A generator is modelled as evaluated at once."),
    OpSpec("host", "append", "add an element (or, for a dict, key and value) to the "
                             "enclosing host.comprehension", operands=("values*",)),
    OpSpec("host", "await", "`await value`", operands=("value",), results=("result",)),
    OpSpec("host", "yield_value", "`yield value` / `yield from value`; the result is what "
                                  "the generator is sent", operands=("value",),
           results=("result",),
           attrs=(Attr("from", "bool", "true for `yield from`", False),)),
    OpSpec("host", "assert", "`assert test, message`", operands=("operands*",)),
    OpSpec("host", "try", "`try: body except...: handlers else: orelse finally: finalbody`",
           regions=("body", "handlers", "orelse", "finalbody"),
           attrs=(Attr("star", "bool", "true for `except*`", False),),
           doc="The handlers region holds one host.except per handler, in order. Analyses "
               "treat any op of the body as possibly skipped."),
    OpSpec("host", "except", "one `except Type as name:` handler", operands=("type",),
           attrs=(Attr("name", "string", "the `as` name, \"\" if none"),),
           regions=("body",), doc="A bare `except:` has a None constant as its type. The "
                                  "body's one block argument is the exception."),
    OpSpec("host", "match", "`match subject:`", operands=("subject",), regions=("cases",),
           doc="The cases region holds one host.case per case, in order."),
    OpSpec("host", "case", "one `case pattern if guard:`",
           attrs=(Attr("pattern", "string", "the pattern's source text"),
                  Attr("captures", "array", "the names the pattern binds")),
           regions=("guard", "body"),
           doc="Both regions have one block argument per captured name, in the order of "
               "`captures`, and store them first; the guard region ends with "
               "hostcf.condition (true when there is no guard)."),
    OpSpec("host", "to_graph", "a host value enters the computation graph",
           operands=("value",), results=("result",), any_typed=True,
           attrs=(Attr("framework", "string", "torch or tf"),)),
    OpSpec("host", "from_graph", "a graph value comes back to the host",
           operands=("value",), results=("result",), any_typed=True,
           attrs=(Attr("framework", "string", "torch or tf"), _EFFECT)),
    OpSpec("host", "opaque", "a construct the frontend does not lower (yet)",
           operands=("operands*",), results=("results*",),
           attrs=(Attr("kind", "string", "the libcst node type it stands for"), _EFFECT),
           regions=("nested",), verify=_verify_opaque,
           doc="Effect is always unknown. Its region holds the nested statement blocks the "
               "frontend could still lower, in source order, so loops inside stay visible; "
               "their execution order is not modelled."),
    # --- terminators ---
    OpSpec("hostcf", "yield", "end of a structured region; values for host.if's results",
           operands=("values*",), terminator=True),
    OpSpec("hostcf", "condition", "end of host.while's cond region", operands=("condition",),
           terminator=True),
    OpSpec("hostcf", "break", "`break`", terminator=True, verify=_verify_loop_exit),
    OpSpec("hostcf", "continue", "`continue`", terminator=True, verify=_verify_loop_exit),
    OpSpec("hostcf", "return", "`return value`", operands=("value",), terminator=True,
           verify=_verify_return),
    OpSpec("hostcf", "raise", "`raise exc`", operands=("values*",), terminator=True),
)

OPS_BY_NAME: dict[str, OpSpec] = {spec.full_name: spec for spec in OPS}

_IRDL_BASE = {
    "string": '"#builtin.string"',
    "array": '"#builtin.array"',
    "integer": '"#builtin.integer"',
    "bool": '"#builtin.integer"',  # BoolAttr is an i1 IntegerAttr
}


def _irdl_op(spec: OpSpec) -> list[str]:
    lines = [f"  irdl.operation @{spec.name} {{"]
    if spec.any_typed:  # one variable each: a shared one would force equal types
        if spec.operands:
            lines.append("    %in = irdl.any")
        if spec.results:
            lines.append("    %out = irdl.any")
    elif spec.operands or spec.results:
        lines.append("    %obj = irdl.base @host::@obj")

    def group(kind, names):
        value = ("%in" if kind == "operands" else "%out") if spec.any_typed else "%obj"
        parts = [f"{n.rstrip('*')}: {'variadic ' if n.endswith('*') else ''}{value}"
                 for n in names]
        return f"    irdl.{kind}({', '.join(parts)})"

    if spec.operands:
        lines.append(group("operands", spec.operands))
    required = [a for a in spec.attrs if a.required]
    if required:
        entries = []
        for i, a in enumerate(required):
            if a.base == "any":
                lines.append(f"    %a{i} = irdl.any")
            else:
                lines.append(f"    %a{i} = irdl.base {_IRDL_BASE[a.base]}")
            entries.append(f'"{a.name}" = %a{i}')
        lines.append(f"    irdl.attributes {{{', '.join(entries)}}}")
    if spec.results:
        lines.append(group("results", spec.results))
    if spec.regions:
        for i, _ in enumerate(spec.regions):
            lines.append(f"    %r{i} = irdl.region")
        regs = ", ".join(f"{n}: %r{i}" for i, n in enumerate(spec.regions))
        lines.append(f"    irdl.regions({regs})")
    lines.append("  }")
    return lines


def irdl_text(include_terminators: bool = True) -> str:
    """The dialect as IRDL. Without terminators it is what `mlir-opt --irdl-file` can load."""
    out = [
        "// The harp host dialect, generated from harp_ir/dialects/host.py.",
        "// hostcf (the region terminators) is left out: IRDL cannot mark an op IsTerminator,",
        "// so parse harp modules with --allow-unregistered-dialect to accept them.",
        "irdl.dialect @host {",
        "  irdl.type @obj",
    ] if not include_terminators else ["irdl.dialect @host {", "  irdl.type @obj"]
    for spec in OPS:
        if spec.dialect == "host":
            out += _irdl_op(spec)
    out.append("}")
    if include_terminators:
        out.append("irdl.dialect @hostcf {")
        for spec in OPS:
            if spec.dialect == "hostcf":
                out += _irdl_op(spec)
        out.append("}")
    return "\n".join(out) + "\n"


#: the analysis facts the frontend and passes attach (`harp.*`), by the builtin attribute
#: each must be (`strings`: an array of strings): the passes read them, so a module from
#: elsewhere must not hold another
_FACT_ATTRS = {
    **dict.fromkeys(("harp.kind", "harp.kind_status", "harp.kind_reason", "harp.framework",
                     "harp.receiver", "harp.receiver_reason", "harp.source", "harp.qualname",
                     "harp.mutates_status", "harp.compiled"), "string"),
    **dict.fromkeys(("harp.decorators", "harp.contexts", "harp.effects", "harp.mutates"),
                    "strings"),
    "harp.hints": "array",
}
_ATTR_CLASSES = {"string": ir.StringAttr, "array": ir.ArrayAttr, "integer": ir.IntegerAttr,
                 "bool": ir.BoolAttr, "strings": ir.ArrayAttr}
_BASE_NAMES = {"string": "a string", "array": "an array", "integer": "an integer",
               "bool": "a bool", "strings": "an array of strings"}


def _attribute_types(expected: dict[str, str], op) -> str | None:
    """An attribute of the wrong kind (`qualname = 7`), declared or a `harp.*` fact, or a
    string that is not UTF-8 (`"\\FF"`: the passes read strings as Python text)."""
    attributes = op.attributes
    for i in range(len(attributes)):
        named = attributes[i]
        kind = expected.get(named.name)
        if kind is not None and (not isinstance(named.attr, _ATTR_CLASSES[kind]) or (
                kind == "strings" and not all(isinstance(a, ir.StringAttr)
                                              for a in named.attr))):
            return (f"attribute '{named.name}' must be {_BASE_NAMES[kind]} "
                    f"attribute, not {named.attr}")
        if not text_is_utf8(named.attr):
            return f"attribute '{named.name}' holds a string that is not valid UTF-8"
    return None


def text_is_utf8(attr: ir.Attribute) -> bool:
    """Whether every string in `attr` (a string, or one in an array or dictionary) is
    UTF-8, read as bytes (reading a string that is not raises in the bindings)."""
    if isinstance(attr, ir.StringAttr):
        try:
            attr.value_bytes.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True
    if isinstance(attr, ir.ArrayAttr):
        return all(text_is_utf8(a) for a in attr)
    if isinstance(attr, ir.DictAttr):
        return all(text_is_utf8(attr[i].attr) for i in range(len(attr)))
    return True


#: a byte escaped as MLIR prints it in a string (`\FF`), or an escaped backslash
_ESCAPED = re.compile(rb"\\\\|\\([0-9A-Fa-f]{2})")


def location_is_utf8(location: ir.Location) -> bool:
    """Whether the file names and names in `location` are UTF-8. The bindings give no
    bytes for a location and abort the process on reading one that is not, so its printed
    form (where MLIR escapes every byte that is not printable ASCII) is unescaped."""
    return escaped_is_utf8(str(location))


def escaped_is_utf8(text: str) -> bool:
    """Whether MLIR text, with its escaped bytes (`\\FF`) unescaped, is UTF-8."""
    raw = _ESCAPED.sub(lambda m: bytes([int(m[1], 16)]) if m[1] else b"\\",
                       text.encode("ascii", "replace"))
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _verifier_hook(spec: OpSpec):
    """MLIR's dynamic-op verifier hook for `spec`: reports the spec's error at the op."""

    expected = {name: base for name, base in
                ({a.name: a.base for a in spec.attrs} | _FACT_ATTRS).items() if base != "any"}

    def verify_invariants(op) -> bool:
        # Trait hooks run before IRDL's own checks, so the op may still lack a required
        # attribute or have one of the wrong kind: report that instead of raising.
        try:
            error = _attribute_types(expected, op.operation) or (
                spec.verify(op.operation) if spec.verify is not None else None)
        except (KeyError, ValueError, TypeError, IndexError) as e:
            error = f"is malformed ({type(e).__name__}: {e})"
        if error:
            op.location.emit_error(f"'{spec.full_name}' op {error}")
            return False
        return True

    return type(f"Verify_{spec.dialect}_{spec.name}", (),
                {"verify_invariants": staticmethod(verify_invariants)})


def register(context: ir.Context) -> None:
    """Load host and hostcf into `context`: IRDL for the structure, Python for the rest."""
    from torch_mlir.dialects import irdl

    with context:
        irdl.load_dialects(ir.Module.parse(irdl_text(include_terminators=True)))
        for spec in OPS:
            if spec.terminator:
                ir.IsTerminatorTrait.attach(spec.full_name)
            ir.DynamicOpTrait.attach(spec.full_name, _verifier_hook(spec))


def markdown() -> str:
    """The dialect's reference documentation, generated from OPS."""
    lines = ["# The `host` dialect", "",
             "Generated from `dialects/host.py` by `harp-opt --emit-dialect-doc`; do not edit.",
             "", "## Semantics and assumptions", ""]
    doc = __doc__.split("\n\n", 1)[1]
    lines += [doc.strip(), "", "## Types", "",
              "- `!host.obj`: every host value.", "", "## Effects", ""]
    lines += [f"`{e}`" + (", " if i < len(EFFECTS) - 1 else "") for i, e in enumerate(EFFECTS)]
    lines += ["", "## Operations", ""]
    for spec in OPS:
        lines += [f"### `{spec.full_name}`", "", spec.summary + ".", ""]
        if spec.doc:
            lines += [spec.doc, ""]
        if spec.operands:
            lines.append("Operands: " + ", ".join(
                f"`{o.rstrip('*')}`" + (" (variadic)" if o.endswith("*") else "")
                for o in spec.operands) + ("  (any type)" if spec.any_typed else ""))
            lines.append("")
        if spec.results:
            lines.append("Results: " + ", ".join(
                f"`{r.rstrip('*')}`" + (" (variadic)" if r.endswith("*") else "")
                for r in spec.results))
            lines.append("")
        if spec.regions:
            lines += ["Regions: " + ", ".join(f"`{r}`" for r in spec.regions), ""]
        if spec.attrs:
            lines += ["| attribute | required | meaning |", "| --- | --- | --- |"]
            lines += [f"| `{a.name}` | {'yes' if a.required else 'no'} | {a.doc} |"
                      for a in spec.attrs]
            lines.append("")
        if spec.terminator:
            lines += ["Terminator.", ""]
        if spec.verify is not None:
            lines += [f"Verifier: {spec.verify.__name__.lstrip('_').replace('_', ' ')}.", ""]
    lines += [f"Note: {_LOC_DOC}.", ""]
    return "\n".join(lines)
