"""Lower Python source (parsed with libcst) to the host dialect.

The lowering is one walk over the libcst tree. It resolves names to the libraries as it
goes (import aliases and re-bindings are tracked per scope), asks the API catalogue what
each library call does, and records speculative facts on the ops it builds. Whatever it
does not understand becomes `host.opaque` with its location: lowering never fails on
valid Python.

The parts: `source` (reading and parsing), `names` (resolution and facts), `program`
(several files as one module), this module (the walk that builds the ops)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst
from torch_mlir import ir

from harp_ir import catalogue as api_catalogue
from harp_ir.frontend.facts import UNKNOWN, Fact, attach, framework_of
from harp_ir.frontend.names import (
    BUILTIN_NAMES,
    COMPILERS,
    DYNAMIC_CALLS,
    MODULE_BASES,
    TRANSPARENT_DECORATORS,
    Scope,
    V,
    arith_fact,
    attribute_assignments,
    dotted_name,
    element_fact,
    item_fact,
    merge_facts,
    part_facts,
    qualname_of,
    summary_effect,
    tf1_evidence,
    tuple_fact,
)
from harp_ir.frontend.source import internal_error, parse, positions, read_file
from harp_ir.frontend.summaries import annotate_function, annotate_loop

if TYPE_CHECKING:
    from harp_ir.frontend.program import Program


_BINOPS = {
    "Add": "add", "Subtract": "sub", "Multiply": "mul", "MatrixMultiply": "matmul",
    "Divide": "truediv", "FloorDivide": "floordiv", "Modulo": "mod", "Power": "pow",
    "LeftShift": "lshift", "RightShift": "rshift", "BitOr": "bitor", "BitXor": "bitxor",
    "BitAnd": "bitand",
}


_UNOPS = {"Minus": "neg", "Plus": "pos", "BitInvert": "invert", "Not": "not"}


_CMPOPS = {
    "Equal": "eq", "NotEqual": "ne", "LessThan": "lt", "LessThanEqual": "le",
    "GreaterThan": "gt", "GreaterThanEqual": "ge", "Is": "is", "IsNot": "isnot", "In": "in",
    "NotIn": "notin",
}


_TERMINATING = (cst.Return, cst.Break, cst.Continue, cst.Raise)


def _sys_path_folders(tree: cst.Module) -> list[str]:
    """The constant folders a file adds to `sys.path` (`sys.path.append("game/")`,
    `sys.path.insert(0, "../common")`), in order."""
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Call(self, node):
            func = node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value in ("append",
                                                                            "insert") and
                    dotted_name(func.value) == "sys.path" and node.args):
                return
            given = node.args[-1].value
            if isinstance(given, cst.SimpleString) and isinstance(
                    given.evaluated_value, str):
                found.append(given.evaluated_value)

    tree.visit(Finder())
    return found


def _joined(folder: list[str], added: str) -> list[str] | None:
    """The dotted parts of folder `added` (relative, as a script run from its own folder
    reads it) seen from the program's root; None when it leaves the root or is absolute."""
    if added.startswith(("/", "~")) or ":" in added:
        return None
    parts = list(folder)
    for part in added.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part.isidentifier():
            parts.append(part)
        else:
            return None
    return parts


class Lowerer:
    def __init__(self, tree: cst.Module, filename: str, program: Program | None = None,
                 module_name: str = "", source: str | None = None,
                 later: dict[str, Fact] | None = None, prior: Lowerer | None = None):
        """`prior`: an earlier lowering of the same tree (`lower_settled`), whose facts
        about the tree alone (node positions, TF1 evidence, `sys.path` folders) hold."""
        self.program = program
        #: module-level names a function reads before the module binds them (a helper
        #: defined below its caller), with the facts the module's end binds them to: when
        #: the function runs, they are bound
        self.later = later or {}
        self.read_early: set[str] = set()  # such names read by this lowering
        self.lines = source.splitlines() if source is not None else None
        self.module_name = module_name or Path(filename).stem
        self.tree = tree
        self.positions = prior.positions if prior is not None else positions(tree)
        self.filename = filename
        self.catalogue = api_catalogue.load()
        #: the classes the catalogue gives a tensor kind (`torch.Tensor`) -> their framework
        self.tensor_classes = {cls: key.partition(".")[2]
                               for key, cls in self.catalogue.kind_class.items()
                               if key.partition(".")[0] == "tensor"}
        self.obj = ir.Type.parse("!host.obj")
        self.ips: list[ir.InsertionPoint] = []
        self.scopes: list[Scope] = [Scope("module")]
        self.frameworks: set[str] = set()
        self.dynamic: list[tuple[str, str, cst.CSTNode]] = []  # (feature, detail, node)
        self.tf1 = prior.tf1 if prior is not None else tf1_evidence(tree, source)
        #: folders the file adds to `sys.path` by a constant (`sys.path.append("game/")`)
        self.sys_path = prior.sys_path if prior is not None else \
            _sys_path_folders(tree) if source is None or "sys.path" in source else []
        #: TF1 graph mode: the module reaches tensorflow.compat.v1 (its tensors' methods
        #: are TF1 variables' and tensors': `v.assign(x)` builds an op)
        self.graph_mode = False

    # --- building blocks -------------------------------------------------------------

    def loc(self, node: cst.CSTNode) -> ir.Location:
        r = self.positions.get(node)
        if r is None:
            return ir.Location.unknown()
        if (r.start.line, r.start.column) == (r.end.line, r.end.column):
            # an empty range (an empty module) prints as a point and is read back as one
            return ir.Location.file(self.filename, r.start.line, r.start.column + 1)
        return ir.Location.file(self.filename, r.start.line, r.start.column + 1,
                                r.end.line, r.end.column + 1)

    def op(self, name, node, operands=(), results=0, attrs=None, regions=0) -> ir.Operation:
        return ir.Operation.create(
            name, results=[self.obj] * results, operands=list(operands),
            attributes=attrs or {}, regions=regions, loc=self.loc(node), ip=self.ips[-1])

    def block(self, op: ir.Operation, index: int, nargs: int = 0) -> ir.Block:
        return op.regions[index].blocks.append(*([self.obj] * nargs),
                                               arg_locs=[op.location] * nargs)

    def push(self, block: ir.Block) -> None:
        self.ips.append(ir.InsertionPoint(block))

    def pop(self) -> None:
        self.ips.pop()

    def code(self, node: cst.CSTNode) -> str:
        return self.tree.code_for_node(node).strip()

    def source_text(self, node: cst.CSTNode) -> str:
        """`code(node)` read from the source lines (no code generation: cheap enough for
        every condition); a multi-line node gives its first line."""
        r = self.positions.get(node)
        if self.lines is None or r is None or not 0 < r.start.line <= len(self.lines):
            return self.code(node)
        line = self.lines[r.start.line - 1]
        end = r.end.column if r.end.line == r.start.line else len(line)
        return line[r.start.column:end].strip()

    def constant(self, node, value, kind) -> V:
        if value is None or kind == "ellipsis":
            attr = ir.UnitAttr.get()
        elif kind == "bool":
            attr = ir.BoolAttr.get(value)
        elif kind == "int" and -(2**63) <= value < 2**63:
            attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
        elif kind == "float":
            attr = ir.FloatAttr.get_f64(value)
        elif isinstance(value, bytes):
            attr = ir.StringAttr.get(value.decode("latin-1"))
        else:
            attr = ir.StringAttr.get(str(value))
        op = self.op("host.constant", node, results=1,
                     attrs={"value": attr, "kind": s(kind)})
        return V(op.result, Fact("scalar") if kind in ("int", "float", "bool") else UNKNOWN)

    def none(self, node) -> V:
        return self.constant(node, None, "none")

    # --- scopes and facts --------------------------------------------------------------

    def lookup(self, name: str) -> tuple[Fact, str]:
        """The fact bound to `name` and the scope Python resolves it in."""
        scope = self.scopes[-1]
        if name in scope.declared:
            where = scope.declared[name]
        elif name in scope.facts:
            return scope.facts[name], "local"
        else:
            where = ""
        for outer in reversed(self.scopes[:-1]):
            if outer.kind != "class" and name in outer.facts:
                return outer.facts[name], where or (
                    "global" if outer.kind == "module" else "nonlocal")
        if name in BUILTIN_NAMES:
            qualname = f"builtins.{name}"
            api = self.catalogue.lookup(qualname)
            return Fact("library", qualname=qualname) if api else UNKNOWN, where or "builtin"
        if not where and any(s.kind == "function" for s in self.scopes):
            self.read_early.add(name)
            if name in self.later:
                return self.later[name], "global"
        return UNKNOWN, where or "local"

    def bind(self, name: str, fact: Fact) -> None:
        scope = self.scopes[-1]
        target = scope
        if scope.declared.get(name) == "global":
            target = self.scopes[0]
        target.facts[name] = fact

    def call_result(self, callee: V, args: list[V]) -> tuple[Fact, str, str]:
        """(fact of the result, qualname, effect) of calling `callee` with `args`."""
        f = callee.fact
        qualname = f.qualname
        api = self.catalogue.lookup(qualname)
        if api is not None:
            effect = api.effect
            if qualname in ("builtins.float", "builtins.int", "builtins.bool") and args \
                    and args[0].fact.kind == "tensor":
                return Fact("scalar"), qualname, "sync"
            result = Fact(api.returns, framework_of(qualname))
            if qualname == "builtins.enumerate" and args:  # (index, element) pairs
                return (Fact("unknown", status="speculated", element=Fact(
                    "unknown", parts=(Fact("scalar"), element_fact(args[0].fact)))),
                    qualname, effect)
            if qualname == "builtins.zip" and args:  # tuples of the elements
                return (Fact("unknown", status="speculated", element=Fact(
                    "unknown", parts=tuple(element_fact(a.fact) for a in args))),
                    qualname, effect)
            if qualname in COMPILERS and args:  # f = tf.function(g)
                inner = args[0].fact if args[0].fact.kind == "function" else result
                return replace(inner, compiled=qualname), qualname, effect
            if f.status == "speculated":
                result = result.speculated(f.reason)
            return result, qualname, effect
        if f.kind == "function" and not qualname:
            effect = summary_effect(f.effects)
            r = f.returns
            if r is not None and r.kind != "unknown":
                why = r.reason or f"{callee.name or 'the function'} returns a {r.kind}"
                return Fact(r.kind, r.framework, r.status, why, r.qualname), "", effect
            return UNKNOWN, "", effect
        if f.kind == "module":
            return (Fact("tensor", f.framework, "speculated",
                         f"calling {callee.name or 'a model'} (a {f.framework} module) is "
                         "assumed to return a tensor"), "", "unknown")
        if f.kind == "class" and f.framework:
            return (Fact("module", f.framework, "proved",
                         f"{callee.name} subclasses a {f.framework} module class"), "", "construct")
        if qualname in self.tensor_classes:  # `torch.Tensor(rows)`: the tensor class itself
            return (Fact("tensor", self.tensor_classes[qualname], "proved",
                         f"`{qualname}(...)` constructs a tensor"), qualname, "construct")
        return UNKNOWN, qualname, "unknown" if not qualname else ""

    # --- statements --------------------------------------------------------------------

    def lower_module(self) -> ir.Module:
        module = ir.Module.create(loc=ir.Location.file(self.filename, 1, 1))
        self.lower_into(module.body)
        return module

    def lower_into(self, body: ir.Block) -> None:
        """Append this file's host.module to `body` (a builtin.module's block)."""
        self.ips.append(ir.InsertionPoint(body))
        mod = self.op("host.module", self.tree, regions=1,
                      attrs={"sym_name": s(self.module_name), "filename": s(self.filename)})
        self.push(self.block(mod, 0))
        if not self.lower_body(self.tree.body):
            self.op("hostcf.yield", self.tree)
        if self.program is not None and self.program.package:  # the folder is a package
            mod.attributes["harp.package"] = s(self.program.package)
        if self.tf1:
            mod.attributes["harp.tf1"] = s(", ".join(self.tf1))
        if self.dynamic:
            mod.attributes["harp.dynamic"] = ir.ArrayAttr.get([ir.DictAttr.get({
                "feature": s(feature), "detail": s(detail),
                "line": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                           self.positions[node].start.line)})
                for feature, detail, node in self.dynamic])
        self.pop()
        self.pop()

    def lower_body(self, statements) -> bool:
        """Lower a statement list; True if it ends in a terminator (the rest is dead)."""
        for stmt in statements:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if self.lower_statement(small):
                        return True
            elif self.lower_statement(stmt):
                return True
        return False

    def lower_suite(self, suite) -> bool:
        return self.lower_body(suite.body)

    def lower_statement(self, stmt) -> bool:
        method = getattr(self, f"stmt_{type(stmt).__name__}", None)
        if method is None:
            self.opaque_statement(stmt)
            return False
        return bool(method(stmt))

    def region_body(self, op, index, suite, terminator="hostcf.yield", nargs=0, prologue=None):
        block = self.block(op, index, nargs)
        self.push(block)
        if prologue is not None:
            prologue(block)
        done = self.lower_suite(suite) if suite is not None else False
        if not done:
            if terminator == "hostcf.return":
                self.op("hostcf.return", suite or self.tree, operands=[self.none(suite).value])
            else:
                self.op(terminator, suite if suite is not None else self.tree)
        self.pop()

    def opaque_statement(self, stmt, operands=(), reason="") -> ir.Operation:
        """A statement harp does not lower: an opaque op, with every nested block lowered
        inside it (each in an opaque "block" op of its own) so loops inside stay visible."""
        attrs = {"kind": s(type(stmt).__name__), "effect": s("unknown")}
        if reason:
            attrs["reason"] = s(reason)
        op = self.op("host.opaque", stmt, operands=operands, attrs=attrs, regions=1)
        suites = list(_nested_suites(stmt))
        if suites:
            self.push(self.block(op, 0))
            for name, suite in suites:
                inner = self.op("host.opaque", suite, regions=1,
                                attrs={"kind": s(name), "effect": s("unknown")})
                self.region_body(inner, 0, suite)
            self.op("hostcf.yield", stmt)
            self.pop()
        return op

    def stmt_Expr(self, stmt):
        self.expr(stmt.value)

    def stmt_Pass(self, stmt):
        pass

    def stmt_Assign(self, stmt):
        value = self.expr(stmt.value)
        for target in stmt.targets:
            self.assign(target.target, value)

    def stmt_AnnAssign(self, stmt):
        if stmt.value is not None:
            self.assign(stmt.target, self.expr(stmt.value))

    def stmt_AugAssign(self, stmt):
        opname = _BINOPS.get(type(stmt.operator).__name__.removesuffix("Assign"), "unknown")
        current = self.expr(stmt.target)
        rhs = self.expr(stmt.value)
        op = self.op("host.binop", stmt, [current.value, rhs.value], 1,
                     {"op": s(opname), "inplace": ir.BoolAttr.get(True)})
        fact = arith_fact(current, rhs)
        attach(op, fact)
        self.assign(stmt.target, V(op.result, fact, current.name))

    def stmt_Return(self, stmt):
        value = self.expr(stmt.value) if stmt.value is not None else self.none(stmt)
        if self.scopes[-1].kind != "function":
            self.op("hostcf.raise", stmt, [value.value])  # `return` outside a function
            return True
        self.scopes[-1].returns.append(value.fact)
        self.op("hostcf.return", stmt, [value.value])
        return True

    def stmt_Break(self, stmt):
        return self.loop_exit(stmt, "hostcf.break")

    def stmt_Continue(self, stmt):
        return self.loop_exit(stmt, "hostcf.continue")

    def loop_exit(self, stmt, name):
        self.op(name, stmt)
        return True

    def stmt_Raise(self, stmt):
        values = [self.expr(e).value for e in (stmt.exc, stmt.cause and stmt.cause.item) if e]
        self.op("hostcf.raise", stmt, values)
        return True

    def stmt_Global(self, stmt):
        for item in stmt.names:
            self.scopes[-1].declared[item.name.value] = "global"

    def stmt_Nonlocal(self, stmt):
        for item in stmt.names:
            self.scopes[-1].declared[item.name.value] = "nonlocal"

    def stmt_Del(self, stmt):
        targets = stmt.target.elements if isinstance(stmt.target, cst.Tuple) else [
            stmt.target]
        for t in targets:
            if isinstance(t, cst.BaseElement):
                t = t.value
            if isinstance(t, cst.Name):
                self.op("host.delete", t, attrs={"name": s(t.value)})
            elif isinstance(t, cst.Subscript):
                obj = self.expr(t.value)
                self.op("host.delitem", t, [obj.value, self.index(t).value])
            else:
                self.opaque_statement(stmt)

    def stmt_Assert(self, stmt):
        operands = [self.truth(self.expr(stmt.test), stmt.test)]
        if stmt.msg is not None:
            operands.append(self.expr(stmt.msg).value)
        self.op("host.assert", stmt, operands)

    def stmt_Try(self, stmt, star=False):
        op = self.op("host.try", stmt, regions=4)
        if star:
            op.attributes["star"] = ir.BoolAttr.get(True)
        self.region_body(op, 0, stmt.body)
        self.push(self.block(op, 1))
        for handler in stmt.handlers:
            kind = self.expr(handler.type) if handler.type is not None else self.none(handler)
            name = handler.name.name.value if handler.name is not None and isinstance(
                handler.name.name, cst.Name) else ""
            h = self.op("host.except", handler, [kind.value], regions=1,
                        attrs={"name": s(name)})

            def bind(block, handler=handler):
                if handler.name is not None:
                    self.assign(handler.name.name, V(block.arguments[0]))

            self.region_body(h, 0, handler.body, nargs=1, prologue=bind)
        self.op("hostcf.yield", stmt)
        self.pop()
        self.region_body(op, 2, stmt.orelse.body if stmt.orelse is not None else None)
        self.region_body(op, 3, stmt.finalbody.body if stmt.finalbody is not None else None)

    def stmt_TryStar(self, stmt):
        self.stmt_Try(stmt, star=True)

    def stmt_Match(self, stmt):
        subject = self.expr(stmt.subject)
        op = self.op("host.match", stmt, [subject.value], regions=1)
        self.push(self.block(op, 0))
        for case in stmt.cases:
            captures = list(dict.fromkeys(_pattern_captures(case.pattern)))
            c = self.op("host.case", case, regions=2, attrs={
                "pattern": s(self.code(case.pattern)),
                "captures": ir.ArrayAttr.get([s(n) for n in captures])})

            def bind(block, captures=captures, case=case):
                for name, arg in zip(captures, block.arguments, strict=True):
                    self.store(case.pattern, name, V(arg))

            self.push(self.block(c, 0, len(captures)))
            bind(self.ips[-1].block)
            if case.guard is not None:
                guard = self.truth(self.expr(case.guard), case.guard)
            else:
                guard = self.constant(case, True, "bool").value
            self.op("hostcf.condition", case.guard or case, [guard])
            self.pop()
            self.region_body(c, 1, case.body, nargs=len(captures), prologue=bind)
        self.op("hostcf.yield", stmt)
        self.pop()

    def stmt_Import(self, stmt):
        for alias in stmt.names:
            dotted = dotted_name(alias.name)
            if alias.asname is not None:
                module, bound = dotted, alias.asname.name.value
            else:
                module = bound = dotted.split(".")[0]
            self.import_binding(alias, module, None, bound, 0)

    def stmt_ImportFrom(self, stmt):
        module = dotted_name(stmt.module) if stmt.module is not None else ""
        level = len(stmt.relative)
        if isinstance(stmt.names, cst.ImportStar):
            names = self.star_names(module, level)
            if names is None:
                self.opaque_statement(stmt, reason=f"from {module} import *")
            for name in names or ():
                self.import_binding(stmt, module, name, name, level)
            return
        for alias in stmt.names:
            name = dotted_name(alias.name)
            bound = alias.asname.name.value if alias.asname is not None else name
            self.import_binding(alias, module, name, bound, level)

    def absolute_module(self, module: str, level: int) -> tuple[str, int]:
        """A relative import's module as a dotted name from the program's root (level 0),
        when this file's package is known; else unchanged."""
        if level and self.program is not None:  # relative: resolve against this package
            package = self.module_name.split(".")
            if Path(self.filename).name != "__init__.py":
                package = package[:-1]
            if level - 1 <= len(package):
                base = package[: len(package) - (level - 1)]
                return ".".join(base + ([module] if module else [])), 0
        elif module and self.program is not None:
            return self.beside_module(module), level
        return module, level

    def beside_module(self, module: str) -> str:
        """`import DDPG` in `continuous_BCQ/main.py` when the program has no top-level
        `DDPG` (or only the folder's own package of that name) but has
        `continuous_BCQ/DDPG.py`: a script's folder is the first place Python looks
        (`python continuous_BCQ/main.py`), so the name is that file's. Otherwise `module`
        unchanged."""
        folder = self.module_name.split(".")[:-1]
        top = module.split(".")[0]
        # `from ddpg import DDPGAgent` in ddpg/ddpg_test.py, beside ddpg/ddpg.py: the
        # package's own name is the module beside the script, not the package
        if folder and not (self.program.is_module(top) and top != folder[-1]) and \
                self.program.is_module(".".join([*folder, top])):
            return ".".join([*folder, module])
        if self.program.is_module(top):
            return module
        for added in self.sys_path:  # `sys.path.append("game/")`: Python looks there too
            base = _joined(folder, added)
            if base and self.program.is_module(".".join([*base, top])):
                return ".".join([*base, module])
        return module

    def star_names(self, module: str, level: int) -> list[str] | None:
        """The names `from module import *` binds when `module` is a file of the program
        (lowered first): its public module-level names, or `__all__` when it lists them as
        constants. None for a library or a module being lowered (an import cycle): the
        statement stays opaque. Research code reaches `torch` and its helpers this way
        (`from ..network import *` in every agent)."""
        module, level = self.absolute_module(module, level)
        if level or self.program is None or not self.program.is_module(module):
            return None
        self.program.lower(module)
        exports = self.program.exports.get(self.program.key(module))
        if exports is None:
            return None
        listed = self.program.all_names(module)
        return listed if listed is not None else [n for n in exports if not n.startswith("_")]

    def import_binding(self, node, module, name, bound, level):
        module, level = self.absolute_module(module, level)
        qualname = module if name is None else (f"{module}.{name}" if module else name)
        if self.tf1 and qualname == "tensorflow":  # TF1 code: `tf.Session` is compat.v1's
            qualname = "tensorflow.compat.v1"
        attrs = {"module": s(module), "qualname": s(qualname)}
        if name is not None:
            attrs["name"] = s(name)
        if level:
            attrs["level"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), level)
            attrs.pop("qualname")
        op = self.op("host.import", node, results=1, attrs=attrs)
        if not level:
            self.graph_mode = self.graph_mode or qualname.startswith("tensorflow.compat.v1")
            fw = framework_of(qualname)
            if fw:
                self.frameworks.add(fw)
            self.store(node, bound, V(op.result, self.library_fact(qualname)))
        else:
            self.store(node, bound, V(op.result))

    def library_fact(self, qualname: str) -> Fact:
        """The fact for a value that is (an attribute path into) a library, or into a module
        of the analysed program (then it is what that module binds the name to)."""
        if self.program is not None:
            fact = self.program.resolve(qualname)
            if fact is not None:
                return fact
        if qualname in MODULE_BASES:
            return Fact("library", MODULE_BASES[qualname], qualname=qualname)
        return Fact("library", framework_of(qualname), qualname=qualname)

    def stmt_If(self, stmt):
        cond = self.truth(self.expr(stmt.test), stmt.test)
        op = self.op("host.if", stmt, [cond], regions=2)
        # Each path starts from the facts before the `if` (`model = model(n)` in every
        # branch of a chain calls the class each time, not the instance a sibling made).
        scope = self.scopes[-1]
        before = dict(scope.facts)
        self.region_body(op, 0, stmt.body)
        then_facts, scope.facts = scope.facts, dict(before)
        orelse = stmt.orelse
        if isinstance(orelse, cst.If):
            block = self.block(op, 1)
            self.push(block)
            self.stmt_If(orelse)
            self.op("hostcf.yield", orelse)
            self.pop()
        else:
            self.region_body(op, 1, orelse.body if orelse is not None else None)
        # after it, what the `else` path bound, else what the `then` path bound
        scope.facts = then_facts | {name: fact for name, fact in scope.facts.items()
                                    if before.get(name) is not fact}

    def stmt_For(self, stmt):
        iterable = self.expr(stmt.iter)
        op = self.op("host.for", stmt, [iterable.value], regions=2,
                     attrs={"target": s(self.code(stmt.target))})
        element = element_fact(iterable.fact)
        self.region_body(op, 0, stmt.body, nargs=1,
                         prologue=lambda b: self.assign(stmt.target, V(b.arguments[0], element)))
        self.region_body(op, 1, stmt.orelse.body if stmt.orelse is not None else None)
        if stmt.asynchronous is not None:
            op.attributes["async"] = ir.UnitAttr.get()
        annotate_loop(op)

    def stmt_While(self, stmt):
        op = self.op("host.while", stmt, regions=3)
        self.push(self.block(op, 0))
        cond = self.truth(self.expr(stmt.test), stmt.test)
        self.op("hostcf.condition", stmt.test, [cond])
        self.pop()
        self.region_body(op, 1, stmt.body)
        self.region_body(op, 2, stmt.orelse.body if stmt.orelse is not None else None)
        annotate_loop(op)

    def stmt_With(self, stmt):
        managers = [self.expr(item.item) for item in stmt.items]
        op = self.op("host.with", stmt, [m.value for m in managers], regions=1)
        if stmt.asynchronous is not None:
            op.attributes["async"] = ir.UnitAttr.get()
        contexts = [qualname_of(m) for m in managers]
        if any(contexts):
            op.attributes["harp.contexts"] = ir.ArrayAttr.get([s(c) for c in contexts])

        def bind_targets(block):
            for item, manager, arg in zip(stmt.items, managers, block.arguments, strict=True):
                if item.asname is not None:
                    fact = manager.fact
                    if fact.kind in ("session", "module", "optimizer", "tensor"):
                        fact = fact.speculated(f"`{self.code(item.asname.name)}` is assumed to "
                                               f"be the {fact.kind} `__enter__` returns")
                    else:
                        fact = UNKNOWN
                    self.assign(item.asname.name, V(arg, fact))

        self.region_body(op, 0, stmt.body, nargs=len(managers), prologue=bind_targets)

    def stmt_FunctionDef(self, stmt):
        decorators = [self.expr(d.decorator) for d in stmt.decorators]

        def body(op, nargs, bind_params):
            self.region_body(op, 0, stmt.body, "hostcf.return", nargs, bind_params)

        result, op = self.function(stmt, stmt.name.value, stmt.params, body)
        if stmt.asynchronous is not None:
            op.attributes["async"] = ir.UnitAttr.get()
        names = [qualname_of(d) or self.code(node.decorator)
                 for d, node in zip(decorators, stmt.decorators, strict=True)]
        if names:
            op.attributes["harp.decorators"] = ir.ArrayAttr.get([s(n) for n in names])
        for d, node, name in reversed(list(zip(decorators, stmt.decorators, names,
                                               strict=True))):
            call = self.op("host.call", node, [d.value, result.value], 1,
                           {"kwnames": ir.ArrayAttr.get([s("")]),
                            "harp.decorator": ir.UnitAttr.get()})
            if qualname_of(d):
                call.attributes["qualname"] = s(name)
            fact = result.fact if name in TRANSPARENT_DECORATORS else Fact("function")
            if name in COMPILERS:
                fact = replace(fact, compiled=name)
            result = V(call.result, fact, stmt.name.value)
        self.store(stmt.name, stmt.name.value, result)

    def expr_Lambda(self, node):
        def body(op, nargs, bind_params):
            block = self.block(op, 0, nargs)
            self.push(block)
            bind_params(block)
            value = self.expr(node.body)
            self.scopes[-1].returns.append(value.fact)
            self.op("hostcf.return", node.body, [value.value])
            self.pop()

        return self.function(node, "<lambda>", node.params, body)[0]

    def function(self, node, name, params, lower_body) -> tuple[V, ir.Operation]:
        """A host.func for a def or a lambda, with its parameters bound as slots, its
        effect summary and the fact of what it returns."""
        entries = [(p, "posonly") for p in params.posonly_params]
        entries += [(p, "positional") for p in params.params]
        if isinstance(params.star_arg, cst.Param):
            entries.append((params.star_arg, "vararg"))
        entries += [(p, "kwonly") for p in params.kwonly_params]
        if params.star_kwarg is not None:
            entries.append((params.star_kwarg, "kwarg"))
        defaults = [self.expr(p.default).value for p, _ in entries if p.default is not None]
        op = self.op("host.func", node, defaults, 1, {
            "sym_name": s(name),
            "arg_names": ir.ArrayAttr.get([s(p.name.value) for p, _ in entries]),
            "arg_kinds": ir.ArrayAttr.get([s(k) for _, k in entries]),
        }, regions=1)
        enclosing = self.scopes[-1]
        scope = Scope("function")
        if enclosing.kind == "class" and entries and entries[0][1] != "vararg" and \
                not any(dotted_name(d.decorator) in ("staticmethod", "classmethod")
                        for d in getattr(node, "decorators", ())):
            scope.self_name, scope.owner = entries[0][0].name.value, enclosing
        self.scopes.append(scope)

        def bind_params(block):
            for i, ((p, _), arg) in enumerate(zip(entries, block.arguments, strict=True)):
                fact = UNKNOWN
                if i == 0 and enclosing.kind == "class" and enclosing.facts.get(
                        "__harp_module_class__"):
                    fw = enclosing.facts["__harp_module_class__"].framework
                    fact = Fact("module", fw, "proved", "self of a module subclass")
                self.store(p.name, p.name.value, V(arg, fact))

        lower_body(op, len(entries), bind_params)
        self.scopes.pop()
        effects = annotate_function(op)
        fact = Fact("function", returns=merge_facts(scope.returns), effects=tuple(effects))
        return V(op.result, fact, name), op

    def stmt_ClassDef(self, stmt):
        bases = [self.expr(a.value) for a in stmt.bases]
        op = self.op("host.class", stmt, [b.value for b in bases], 1,
                     {"sym_name": s(stmt.name.value)}, regions=1)
        framework = next((b.fact.framework for b in bases
                          if b.fact.qualname in MODULE_BASES or b.fact.kind == "class"), "")
        scope = Scope("class", assigned=attribute_assignments(stmt))
        if framework:
            scope.facts["__harp_module_class__"] = Fact("class", framework)
        self.scopes.append(scope)
        self.region_body(op, 0, stmt.body)
        self.scopes.pop()
        fact = Fact("class", framework) if framework else UNKNOWN
        self.store(stmt.name, stmt.name.value, V(op.result, fact, stmt.name.value))

    # --- assignment targets ------------------------------------------------------------

    def store(self, node, name: str, value: V) -> None:
        attrs = {"name": s(name)}
        declared = self.scopes[-1].declared.get(name)
        if declared:
            attrs["scope"] = s(declared)
        self.op("host.store", node, [value.value], attrs=attrs)
        self.bind(name, value.fact)

    def assign(self, target, value: V) -> None:
        if isinstance(target, cst.Name):
            self.store(target, target.value, value)
        elif isinstance(target, cst.Attribute):
            self.note_attribute(target, value.fact)
            obj = self.expr(target.value)
            configures = value.value.owner is not None and \
                getattr(value.value.owner, "name", "") == "host.constant"
            if obj.fact.kind == "library" and obj.fact.qualname and not configures:
                # a constant sets an option (`cudnn.benchmark = True`); anything else may
                # replace what a library name resolves to
                self.dynamic.append(("monkey-patch", f"{obj.fact.qualname}.{target.attr.value}",
                                     target))
            self.op("host.setattr", target, [obj.value, value.value],
                    attrs={"attr": s(target.attr.value)})
        elif isinstance(target, cst.Subscript):
            obj = self.expr(target.value)
            if qualname_of(obj) in ("builtins.globals", "builtins.vars", "builtins.locals"):
                self.dynamic.append(("write to globals()", self.code(target), target))
            self.op("host.setitem", target, [obj.value, self.index(target).value, value.value])
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = next((i for i, e in enumerate(elements)
                            if isinstance(e, cst.StarredElement)), -1)
            op = self.op("host.unpack", target, [value.value], len(elements), {
                "starred": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), starred)})
            parts = part_facts(value.fact, len(elements))
            for element, result, fact in zip(elements, op.results, parts, strict=True):
                self.assign(element.value, V(result, fact))
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, value)
        else:
            self.opaque_statement(target, [value.value])

    # --- expressions -------------------------------------------------------------------

    def expr(self, node) -> V:
        method = getattr(self, f"expr_{type(node).__name__}", None)
        if method is None:
            return self.opaque_expr(node)
        return method(node)

    def opaque_expr(self, node, operands=()) -> V:
        op = self.op("host.opaque", node, operands, 1, regions=1,
                     attrs={"kind": s(type(node).__name__), "effect": s("unknown")})
        return V(op.result)

    def expr_Name(self, node):
        name = node.value
        if name in ("True", "False"):
            return self.constant(node, name == "True", "bool")
        if name == "None":
            return self.none(node)
        fact, where = self.lookup(name)
        attrs = {"name": s(name)}
        if where != "local":
            attrs["scope"] = s(where)
        if fact.qualname:
            attrs["qualname"] = s(fact.qualname)
        op = self.op("host.load", node, results=1, attrs=attrs)
        attach(op, fact)
        return V(op.result, fact, name)

    def self_owner(self, node: cst.Attribute) -> Scope | None:
        """The class scope of `self.x` read or written in one of its methods, else None."""
        scope = self.scopes[-1]
        if scope.owner is None or not isinstance(node.value, cst.Name) or \
                node.value.value != scope.self_name:
            return None
        return scope.owner

    def self_attribute(self, node: cst.Attribute) -> Fact | None:
        """The fact of `self.x` in a method, when the class assigns `self.x` in one place
        and that assignment has been lowered (usually in `__init__`)."""
        owner = self.self_owner(node)
        return owner.attributes.get(node.attr.value) if owner is not None else None

    def note_attribute(self, target: cst.Attribute, fact: Fact) -> None:
        """Record the fact of `self.x = value` when the class assigns `self.x` only here,
        or, once every place that assigns it is lowered, the kind they all share
        (`self.loss = nn.BCELoss().cuda()` on one branch, `nn.BCELoss()` on the other)."""
        owner = self.self_owner(target)
        attr = target.attr.value
        places = owner.assigned.get(attr, 0) if owner is not None else 0
        if not places:
            return
        line = self.positions[target].start.line if target in self.positions else 0
        if places == 1:
            if fact.kind != "unknown":
                owner.attributes[attr] = replace(
                    fact, status="speculated",
                    reason=f"`self.{attr}` is assigned once in the class (line {line}): "
                           f"{fact.reason or 'a ' + fact.kind}")
            return
        seen = owner.assigned_so_far.setdefault(attr, [])
        seen.append(fact)
        shared = {(f.kind, f.framework) for f in seen}
        if len(seen) == places and len(shared) == 1 and fact.kind != "unknown":
            owner.attributes[attr] = Fact(
                fact.kind, fact.framework, status="speculated",
                reason=f"`self.{attr}` is assigned in {places} places in the class, each "
                       f"{'an' if fact.kind[0] in 'aeiou' else 'a'} {fact.kind} "
                       f"(the last at line {line})")

    def expr_Attribute(self, node):
        obj = self.expr(node.value)
        attr = node.attr.value
        attrs = {"attr": s(attr)}
        fact = self.self_attribute(node) or UNKNOWN
        if obj.fact.kind in ("library", "class") and obj.fact.qualname:
            qualname = f"{obj.fact.qualname}.{attr}"
            attrs["qualname"] = s(qualname)
            fact = self.library_fact(qualname)
        op = self.op("host.getattr", node, [obj.value], 1, attrs)
        attach(op, fact)
        name = f"{obj.name}.{attr}" if obj.name else attr
        return V(op.result, fact, name)

    def expr_Call(self, node):
        receiver = None
        if isinstance(node.func, cst.Attribute):
            receiver = self.expr(node.func.value)
            callee = self.method_callee(node.func, receiver)
        else:
            callee = self.expr(node.func)
        args, kwnames = [], []
        for a in node.args:
            args.append(self.expr(a.value))
            kwnames.append(a.star or (a.keyword.value if a.keyword is not None else ""))
        fact, qualname, effect = self.call_result(callee, args)
        self.note_dynamic_call(node, qualname)
        attrs = {"kwnames": ir.ArrayAttr.get([s(k) for k in kwnames])}
        if receiver is not None:
            attrs["method"] = s(node.func.attr.value)
        if qualname:
            attrs["qualname"] = s(qualname)
        if effect:
            attrs["effect"] = s(effect)
        op = self.op("host.call", node, [callee.value] + [a.value for a in args], 1, attrs)
        if callee.fact.compiled:
            op.attributes["harp.compiled"] = s(callee.fact.compiled)
        if receiver is not None and callee.fact.reason and callee.fact.status == "speculated":
            op.attributes["harp.receiver_reason"] = s(callee.fact.reason)
        if receiver is not None and receiver.name and receiver.fact.kind != "library":
            op.attributes["harp.receiver"] = s(receiver.name)
        if qualname in ("builtins.float", "builtins.int", "builtins.bool") and args \
                and args[0].fact.kind == "tensor":
            op.attributes["harp.receiver"] = s(args[0].name or self.code(node.args[0].value))
            if args[0].fact.status == "speculated":
                op.attributes["harp.receiver_reason"] = s(args[0].fact.reason)
        attach(op, fact)
        return V(op.result, fact, callee.name + "()" if callee.name else "")

    def note_dynamic_call(self, node: cst.Call, qualname: str) -> None:
        """Record the dynamic features that can defeat the analysis (HARP's speculation
        must lower its confidence where they appear)."""
        if qualname in DYNAMIC_CALLS:
            self.dynamic.append((DYNAMIC_CALLS[qualname], self.code(node.func), node))
        elif qualname in ("builtins.setattr", "builtins.getattr", "builtins.delattr"):
            name = node.args[1].value if len(node.args) > 1 else None
            if not isinstance(name, cst.SimpleString):
                self.dynamic.append((f"{qualname.removeprefix('builtins.')} with a "
                                     "non-constant name", self.code(node), node))

    def method_callee(self, func: cst.Attribute, receiver: V) -> V:
        """The callee of `receiver.name(...)`, with the method resolved where the receiver's
        kind is known, or speculated from the method name where it is not."""
        name = func.attr.value
        rf = receiver.fact
        attrs = {"attr": s(name)}
        attribute = self.self_attribute(func)
        fact = UNKNOWN
        if attribute is not None:  # `self.linear(x)`: a module's own fact
            fact = attribute
        elif rf.kind in ("library", "class") and rf.qualname:
            fact = self.library_fact(f"{rf.qualname}.{name}")
        elif rf.kind in ("tensor", "module", "optimizer", "session") and rf.framework:
            api = self.catalogue.method("tf1", name, rf.kind) \
                if self.graph_mode and rf.framework == "tf" else None
            api = api or self.catalogue.method(rf.framework, name, rf.kind)
            if api is not None:
                fact = Fact("library", rf.framework, rf.status, rf.reason, api.qualname)
        elif rf.kind == "unknown":
            framework = ""
            if name in self.catalogue.tensor_only_methods:
                framework = "torch"
            elif name == "numpy" and len(self.frameworks) == 1:
                framework = next(iter(self.frameworks))
            api = self.catalogue.method(framework, name) if framework else None
            if api is not None:
                who = receiver.name or "the receiver"
                reason = (f"`{who}` is assumed to be a {framework} tensor because "
                          f"`.{name}()` is {api.qualname}")
                fact = Fact("library", framework, "speculated", reason, api.qualname)
        if fact.qualname:
            attrs["qualname"] = s(fact.qualname)
        op = self.op("host.getattr", func, [receiver.value], 1, attrs)
        if attribute is not None:
            attach(op, attribute)
        return V(op.result, fact, f"{receiver.name}.{name}" if receiver.name else name)

    def expr_Subscript(self, node):
        obj = self.expr(node.value)
        op = self.op("host.getitem", node, [obj.value, self.index(node).value], 1)
        fact = obj.fact if obj.fact.kind == "tensor" else UNKNOWN
        if obj.fact.item is not None and not any(isinstance(e.slice, cst.Slice)
                                                 for e in node.slice):
            fact = obj.fact.item  # `{"unet": UNet, "fcn": FCN}[name]`: one of the classes
        attach(op, fact)
        return V(op.result, fact, obj.name)

    def index(self, node: cst.Subscript) -> V:
        parts = [self.slice_element(e.slice) for e in node.slice]
        if len(parts) == 1:
            return parts[0]
        return V(self.op("host.tuple", node, [p.value for p in parts], 1).result)

    def slice_element(self, sl) -> V:
        if isinstance(sl, cst.Index):
            value = self.expr(sl.value)
            if sl.star:
                return V(self.op("host.starred", sl, [value.value], 1).result)
            return value
        bounds = [self.expr(b) if b is not None else self.none(sl)
                  for b in (sl.lower, sl.upper, sl.step)]
        return V(self.op("host.slice", sl, [b.value for b in bounds], 1).result)

    def expr_BinaryOperation(self, node):
        lhs, rhs = self.expr(node.left), self.expr(node.right)
        opname = _BINOPS[type(node.operator).__name__]
        op = self.op("host.binop", node, [lhs.value, rhs.value], 1, {"op": s(opname)})
        # `"loss %s" % t` formats a string: not a tensor computation
        formats = opname == "mod" and isinstance(
            node.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
        fact = UNKNOWN if formats else arith_fact(lhs, rhs)
        attach(op, fact)
        return V(op.result, fact)

    def expr_UnaryOperation(self, node):
        operand = self.expr(node.expression)
        opname = _UNOPS[type(node.operator).__name__]
        if opname == "not":
            operand = V(self.truth(operand, node.expression))
        op = self.op("host.unop", node, [operand.value], 1, {"op": s(opname)})
        fact = operand.fact if operand.fact.kind == "tensor" else UNKNOWN
        attach(op, fact)
        return V(op.result, fact)

    def expr_BooleanOperation(self, node):
        opname = "and" if isinstance(node.operator, cst.And) else "or"
        operands = []

        def flatten(n):
            if isinstance(n, cst.BooleanOperation) and isinstance(n.operator, type(node.operator)) \
                    and not n.lpar:
                flatten(n.left)
                flatten(n.right)
            else:
                operands.append(self.truth(self.expr(n), n))

        flatten(node.left)
        flatten(node.right)
        return V(self.op("host.boolop", node, operands, 1, {"op": s(opname)}).result)

    def expr_Comparison(self, node):
        operands = [self.expr(node.left)]
        ops = []
        for c in node.comparisons:
            operands.append(self.expr(c.comparator))
            ops.append(s(_CMPOPS[type(c.operator).__name__]))
        op = self.op("host.compare", node, [o.value for o in operands], 1,
                     {"ops": ir.ArrayAttr.get(ops)})
        if all(ir.StringAttr(o).value in ("is", "isnot") for o in ops):
            return V(op.result, Fact("scalar"))  # an identity test is a Python bool
        tensor = next((o.fact for o in operands if o.fact.kind == "tensor"), None)
        if tensor is not None:
            attach(op, tensor)
        return V(op.result, tensor or UNKNOWN)

    def truth(self, value: V, node) -> ir.Value:
        """The implicit bool() of a condition: a sync when the value is a tensor. Its source
        text is kept, so a hint can name the guard of a statement (`step % 100 == 0`)."""
        attrs = {"harp.source": s(self.source_text(node))}
        if value.fact.kind == "tensor":
            attrs["effect"] = s("sync")
            attrs["harp.receiver"] = s(value.name or self.code(node))
            if value.fact.status == "speculated":
                attrs["harp.receiver_reason"] = s(value.fact.reason)
        return self.op("host.truth", node, [value.value], 1, attrs).result

    def expr_Integer(self, node):
        return self.constant(node, node.evaluated_value, "int")

    def expr_Float(self, node):
        return self.constant(node, node.evaluated_value, "float")

    def expr_Imaginary(self, node):
        return self.constant(node, node.value, "complex")

    def expr_SimpleString(self, node):
        value = node.evaluated_value
        return self.constant(node, value, "bytes" if isinstance(value, bytes) else "str")

    def expr_ConcatenatedString(self, node):
        value = node.evaluated_value
        if value is None:  # contains an f-string
            left, right = self.expr(node.left), self.expr(node.right)
            return V(self.op("host.binop", node, [left.value, right.value], 1,
                             {"op": s("add")}).result)
        return self.constant(node, value, "bytes" if isinstance(value, bytes) else "str")

    def expr_FormattedString(self, node):
        values = [self.expr(p.expression).value for p in node.parts
                  if isinstance(p, cst.FormattedStringExpression)]
        op = self.op("host.fstring", node, values, 1, {"template": s(self.code(node))})
        return V(op.result)

    def expr_Ellipsis(self, node):
        return self.constant(node, None, "ellipsis")

    def display(self, node, opname):
        values = []
        for e in node.elements:
            v = self.expr(e.value)
            if isinstance(e, cst.StarredElement):
                v = V(self.op("host.starred", e, [v.value], 1).result)
            values.append(v)
        op = self.op(opname, node, [v.value for v in values], 1)
        if opname == "host.tuple":
            return V(op.result, tuple_fact(values))
        if opname == "host.list" and values and not any(
                isinstance(e, cst.StarredElement) for e in node.elements):
            return V(op.result, item_fact([v.fact for v in values]))
        return V(op.result, UNKNOWN)

    def expr_Tuple(self, node):
        return self.display(node, "host.tuple")

    def expr_List(self, node):
        return self.display(node, "host.list")

    def expr_Set(self, node):
        return self.display(node, "host.set")

    def expr_Dict(self, node):
        entries, values = [], []
        for e in node.elements:
            if isinstance(e, cst.StarredDictElement):
                entries += [self.none(e).value, self.expr(e.value).value]
                values.append(UNKNOWN)
            else:
                value = self.expr(e.value)
                entries += [self.expr(e.key).value, value.value]
                values.append(value.fact)
        return V(self.op("host.dict", node, entries, 1).result, item_fact(values))

    def expr_NamedExpr(self, node):
        value = self.expr(node.value)
        self.assign(node.target, value)
        return value

    def expr_Await(self, node):
        value = self.expr(node.expression)
        return V(self.op("host.await", node, [value.value], 1).result)

    def expr_Yield(self, node):
        attrs = {}
        if isinstance(node.value, cst.From):
            value = self.expr(node.value.item)
            attrs["from"] = ir.BoolAttr.get(True)
        else:
            value = self.expr(node.value) if node.value is not None else self.none(node)
        return V(self.op("host.yield_value", node, [value.value], 1, attrs).result)

    def expr_ListComp(self, node):
        return self.comprehension(node, "list", [node.elt])

    def expr_SetComp(self, node):
        return self.comprehension(node, "set", [node.elt])

    def expr_GeneratorExp(self, node):
        return self.comprehension(node, "generator", [node.elt])

    def expr_DictComp(self, node):
        return self.comprehension(node, "dict", [node.key, node.value])

    def comprehension(self, node, kind, elements) -> V:
        """A comprehension as the loops it is: host.for / host.if nests around host.append."""
        op = self.op("host.comprehension", node, results=1, regions=1, attrs={"kind": s(kind)})
        parent = self.scopes[-1]
        self.scopes.append(Scope("comprehension", dict(parent.facts), dict(parent.declared)))
        self.push(self.block(op, 0))
        self.comprehension_for(node.for_in, elements)
        self.op("hostcf.yield", node)
        self.pop()
        self.scopes.pop()
        return V(op.result)

    def comprehension_for(self, comp: cst.CompFor, elements) -> None:
        iterable = self.expr(comp.iter)
        loop = self.op("host.for", comp, [iterable.value], regions=2,
                       attrs={"target": s(self.code(comp.target))})
        if comp.asynchronous is not None:
            loop.attributes["async"] = ir.UnitAttr.get()
        body = self.block(loop, 0, 1)
        self.push(body)
        self.assign(comp.target, V(body.arguments[0], element_fact(iterable.fact)))
        closers = 0
        for cond in comp.ifs:
            test = self.truth(self.expr(cond.test), cond.test)
            branch = self.op("host.if", cond, [test], regions=2)
            self.push(self.block(branch, 1))
            self.op("hostcf.yield", cond)
            self.pop()
            self.push(self.block(branch, 0))
            closers += 1
        if comp.inner_for_in is not None:
            self.comprehension_for(comp.inner_for_in, elements)
        else:
            values = [self.expr(e).value for e in elements]
            self.op("host.append", comp, values)
        for _ in range(closers):
            self.op("hostcf.yield", comp)
            self.pop()
        self.op("hostcf.yield", comp)
        self.pop()
        self.push(self.block(loop, 1))
        self.op("hostcf.yield", comp)
        self.pop()
        annotate_loop(loop)

    def expr_IfExp(self, node):
        cond = self.truth(self.expr(node.test), node.test)
        op = self.op("host.if", node, [cond], 1, regions=2)
        for index, branch in ((0, node.body), (1, node.orelse)):
            self.push(self.block(op, index))
            value = self.expr(branch)
            self.op("hostcf.yield", branch, [value.value])
            self.pop()
        return V(op.result)


def s(text: str) -> ir.StringAttr:
    return ir.StringAttr.get(text)


def _nested_suites(stmt):
    """(name, suite) for every statement block nested in a compound statement."""
    for attr in ("body", "orelse", "finalbody"):
        child = getattr(stmt, attr, None)
        if isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            yield f"{type(stmt).__name__}.{attr}", child
        elif isinstance(child, (cst.Else, cst.Finally)):
            yield f"{type(stmt).__name__}.{attr}", child.body
    for handler in getattr(stmt, "handlers", ()) or ():
        yield "ExceptHandler", handler.body
    for case in getattr(stmt, "cases", ()) or ():
        yield "MatchCase", case.body


def _pattern_captures(pattern) -> list[str]:
    """The names a match pattern binds, in source order."""
    names = []

    class Captures(cst.CSTVisitor):
        def visit_MatchAs(self, node):
            if node.name is not None:
                names.append(node.name.value)

        def visit_MatchStar(self, node):
            if node.name is not None:
                names.append(node.name.value)

        def leave_MatchMapping(self, node):
            if node.rest is not None:
                names.append(node.rest.value)

    pattern.visit(Captures())
    return names


#: lowerings of one file, at most: the second knows what the helpers a function calls
#: before their definitions return, a third what the functions calling those return
_MAX_LOWERINGS = 3


def _informative(fact: Fact) -> bool:
    """Whether a name's fact changes what a call of it gives: a framework's class (an
    instance is a model) or a function whose returns have a kind."""
    return (fact.kind == "class" and bool(fact.framework)) or (
        fact.kind == "function" and fact.returns is not None and
        fact.returns.kind != "unknown")


def lower_settled(make, emit, undo):
    """(the lowerer, what `emit` gave) once a file's lowering knows the facts of the
    module-level names its functions read before the module binds them (`get_model`
    calling `_model_class`, defined below it): lowered again with them when there are
    such names, at most `_MAX_LOWERINGS` times. `make(later, prior)` builds a Lowerer
    (`prior`: the last one, whose facts about the tree it reuses), `emit` lowers with it,
    `undo` drops what a lowering emitted."""
    later: dict[str, Fact] = {}
    lowerings, lowerer = 1, None
    while True:
        lowerer = make(later, lowerer)
        result = emit(lowerer)
        bound = lowerer.scopes[0].facts
        found = {n: bound[n] for n in lowerer.read_early
                 if n in bound and _informative(bound[n])}
        if found == later or lowerings == _MAX_LOWERINGS:
            return lowerer, result
        undo()
        later, lowerings = found, lowerings + 1


def lower_source(source: str, filename: str, module_name: str = "") -> ir.Module:
    """Lower Python `source` to a host-dialect module. Needs a current harp context."""
    tree = parse(source, filename)
    try:
        return lower_settled(
            lambda later, prior: Lowerer(tree, filename, None, module_name, source, later,
                                         prior),
            lambda lowerer: lowerer.lower_module(), lambda: None)[1]
    except Exception as e:  # noqa: BLE001
        raise internal_error(filename, e) from None


def lower_file(path: str | Path, module_name: str = "") -> ir.Module:
    path = Path(path)
    return lower_source(read_file(path), str(path), module_name)
