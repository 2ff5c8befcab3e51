"""The ast walk over one module: raise/assert sites, helper-built exceptions and classes."""

from __future__ import annotations

import ast
import builtins
import gc
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, ClassVar

from errexplain.extract.cpp import visit_cpp
from errexplain.extract.helpers import Helpers
from errexplain.extract.logs import (
    abort_reason_message,
    client_message_arg,
    log_level,
    printed_level,
    printed_message_arg,
    recorded_reason_arg,
    warned_message_arg,
    worth_recording,
)
from errexplain.extract.messages import (
    Binding,
    Message,
    from_call,
    from_expr,
    from_log_call,
    is_text_expr,
    source_of,
)
from errexplain.extract.records import RETURNED, CallInfo, ClassInfo, FileResult, Site
from errexplain.extract.scope import Scope
from errexplain.models import PRINTED, RESPONSE_VIA, WARNED, is_test_path

MAX_TEXT = 200
_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def cut(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _callee_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return source_of(func)


_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning")


def _exception_class(call: ast.Call) -> bool:
    """Whether a call builds an exception (`ValueError(...)`): its callee's name reads as an
    exception class."""
    return _callee_name(call.func).endswith(_EXCEPTION_SUFFIXES)


def _negate(test: ast.expr) -> str:
    text = source_of(test)
    if isinstance(test, ast.Name | ast.Attribute | ast.Call | ast.Subscript):
        return "not " + text
    return f"not ({text})"


def _doc_line(func: _FuncDef | None) -> str | None:
    if func is None:
        return None
    doc = ast.get_docstring(func, clean=True)
    if not doc:
        return None
    lines = [line.strip() for line in doc.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if _section_head(first, lines[1] if len(lines) > 1 else ""):
        return None  # the docstring opens with its parameters, not with a summary
    return cut(first) if first else None


def _section_head(line: str, after: str) -> bool:
    """A docstring section's head (`Args:`, `Returns:`, numpy's `Parameters` over dashes)
    rather than a sentence that says what the function does."""
    words = line.rstrip(":").split()
    if not words or len(words) > 3:
        return False
    return line.endswith(":") or (bool(after) and set(after) <= {"-", "="})


def _class_name(exc: ast.expr) -> str | None:
    """``raise ValueError`` / ``raise errors.Busy``: a capitalised name raised without a call."""
    name = exc.id if isinstance(exc, ast.Name) else None
    if isinstance(exc, ast.Attribute):
        name = exc.attr
    return name if name and name[:1].isupper() else None


NO_MESSAGE = Message("", True)
_BODIES = ("body", "orelse", "finalbody")


_PARAMETER_SOURCES = frozenset({"named_parameters", "named_buffers", "state_dict"})


def _parameter_dict(expr: ast.expr) -> bool:
    """``dict(<x>.named_parameters(...))`` (or named_buffers / state_dict)."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)):
        return False
    if expr.func.id != "dict" or len(expr.args) != 1:
        return False
    inner = expr.args[0]
    return (
        isinstance(inner, ast.Call)
        and isinstance(inner.func, ast.Attribute)
        and inner.func.attr in _PARAMETER_SOURCES
    )


def _member_test(test: ast.expr, name: str, negated: bool) -> bool:
    """Whether a guard (an `if` test, `negated` in its else branch) ensures that a key is in
    the dict `name`: ``k in name``, ``k in name.keys()``, or one of the terms of an ``and``."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and not negated:
        return any(_member_test(v, name, False) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _member_test(test.operand, name, not negated)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    op, right = test.ops[0], test.comparators[0]
    if isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute):
        right = right.func.value if right.func.attr == "keys" else right
    if not (isinstance(right, ast.Name) and right.id == name):
        return False
    return isinstance(op, ast.NotIn) if negated else isinstance(op, ast.In)


def _child_bodies(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists inside a compound statement (loops, with, try, match)."""
    for name in _BODIES:
        body = getattr(node, name, None)
        if body:
            yield body
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body


_EXITS = (ast.Continue, ast.Break, ast.Return, ast.Raise)


def _exit_guard(stmt: ast.stmt) -> tuple[str, str] | None:
    """(key, dict) when `stmt` is an early exit on a missing key, `if k not in d: continue`
    (or `break`, `return`, `raise`; `not in` may be one term of an `or`): below it, in its
    block, `d[k]` cannot raise a KeyError until `k` is assigned again."""
    if not isinstance(stmt, ast.If) or stmt.orelse or not stmt.body:
        return None
    if not all(isinstance(s, _EXITS) for s in stmt.body):
        return None
    test = stmt.test
    terms = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    for term in terms:
        if (
            isinstance(term, ast.Compare)
            and len(term.ops) == 1
            and isinstance(term.ops[0], ast.NotIn)
            and isinstance(term.left, ast.Name)
            and isinstance(term.comparators[0], ast.Name)
        ):
            return term.left.id, term.comparators[0].id
    return None


def _binds(stmt: ast.stmt) -> set[str]:
    """The plain names a statement binds, at its own level or in the blocks inside it
    (assignments, loop and `with` targets, `:=`); nested functions and classes aside."""
    out: set[str] = set()
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
        out.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        todo.extend(
            child
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        )
    return out


def exit_guarded(body: list[ast.stmt]) -> set[int]:
    """The ids of the `x = d[k]` statements of a function's body that an early exit above them
    guards (:func:`_exit_guard`), in their block or one that encloses it, with `k` not assigned
    in between: `if name not in params_dict: continue` then `param = params_dict[name]`. Nested
    functions and classes are left to their own walk."""
    found: set[int] = set()

    def walk(stmts: list[ast.stmt], inherited: frozenset[tuple[str, str]]) -> None:
        active = set(inherited)
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            value = stmt.value if isinstance(stmt, ast.Assign) else None
            if (
                isinstance(value, ast.Subscript)
                and isinstance(value.value, ast.Name)
                and isinstance(value.slice, ast.Name)
                and (value.slice.id, value.value.id) in active
            ):
                found.add(id(stmt))
            bound = _binds(stmt)
            kept = frozenset(g for g in active if g[0] not in bound)
            # (a key bound anywhere in a loop is bound again before the next turn's lookup)
            inner = kept if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) else active
            for child in _child_bodies(stmt):
                walk(child, frozenset(inner))
            active = set(kept)
            guard = _exit_guard(stmt)
            if guard is not None:
                active.add(guard)

    walk(body, frozenset())
    return found


class SiteVisitor:
    """Collects :class:`Site` and :class:`ClassInfo` records from one module's tree.

    Only statements are visited (raise, assert and return are statements), never expressions.
    """

    def __init__(self, path: str, tree: ast.Module, data: bytes = b"") -> None:
        self.path = path
        self._data = data
        self._lines: list[bytes] | None = None
        self.helpers = Helpers(tree)
        module = module_name(path)
        self._package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        self._imports: dict[str, tuple[str, str]] = {}
        self.calls: list[CallInfo] = []
        self.validators: set[str] = set()
        self.returned_calls: set[tuple[str, str]] = set()
        self._classes: list[str] = []
        self.sites: list[Site] = []
        self.classes: list[ClassInfo] = []
        self._names: list[str] = []
        self._funcs: list[_FuncDef | None] = [None]
        self._read_lines: dict[tuple[int, str], list[int]] = {}
        self._scopes: list[Scope] = [Scope(tree.body)]
        self._owners: list[ast.ClassDef | None] = [None]  # the class whose body is visited
        self._guards: list[list[tuple[ast.expr, bool]]] = [[]]
        self._exit_guarded: dict[int, set[int]] = {}  # a function's node -> exit_guarded
        self._handling: list[list[str]] = [[]]

    # --- structure -------------------------------------------------------------------------
    def visit(self, node: ast.stmt | ast.Module) -> None:
        handler = self._handlers.get(type(node))
        if handler is not None:
            handler(self, node)
            return
        for body in _child_bodies(node):  # type: ignore[arg-type]
            for stmt in body:
                self.visit(stmt)

    @property
    def qualname(self) -> str:
        return ".".join(self._names) or "<module>"

    def _visit_body(self, node: _FuncDef | ast.ClassDef, func: _FuncDef | None) -> None:
        """Visit a function's or class's body with its name, function, guards and handlers
        pushed (functions also open a scope of local names)."""
        self._names.append(node.name)
        self._funcs.append(func)
        if func is not None:
            self._scopes.append(Scope(func.body, self._scopes[-1], func, self._owners[-1]))
        self._owners.append(node if isinstance(node, ast.ClassDef) else None)
        self._guards.append([])
        self._handling.append([])
        for stmt in node.body:
            self.visit(stmt)
        self._handling.pop()
        self._guards.pop()
        self._owners.pop()
        if func is not None:
            self._scopes.pop()
        self._funcs.pop()
        self._names.pop()

    def _visit_function(self, node: _FuncDef) -> None:
        self._visit_body(node, node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases = tuple(_callee_name(b) for b in node.bases)
        self.classes.append(ClassInfo(node.name, self.path, bases))
        self._classes.append(".".join([*self._names, node.name]))
        self._visit_body(node, None)
        self._classes.pop()

    def visit_If(self, node: ast.If) -> None:
        guards = self._guards[-1]
        for negated, body in ((False, node.body), (True, node.orelse)):
            guards.append((node.test, negated))
            for stmt in body:
                self.visit(stmt)
            guards.pop()

    def visit_Try(self, node: ast.Try | ast.TryStar) -> None:
        for stmt in node.body:
            self.visit(stmt)
        handling = self._handling[-1]
        for handler in node.handlers:
            handling.append(cut(source_of(handler.type)) if handler.type else "BaseException")
            for stmt in handler.body:
                self.visit(stmt)
            handling.pop()
        for stmt in (*node.orelse, *node.finalbody):
            self.visit(stmt)

    # --- sites -----------------------------------------------------------------------------
    def _condition(self) -> str | None:
        guards = self._guards[-1]
        if not guards:
            return None
        test, negated = guards[-1]
        return cut(_negate(test) if negated else source_of(test))

    def _add(
        self,
        node: ast.stmt,
        kind: str,
        exception: str,
        message: Message,
        condition: str | None,
        call: ast.Call | None = None,
        helper: bool = False,
        via: str | None = None,
        line: int | None = None,
    ) -> None:
        self.sites.append(
            Site(
                path=self.path,
                line=line or node.lineno,
                kind=kind,
                exception=exception,
                template=message.template,
                function=self.qualname,
                condition=condition,
                doc=_doc_line(self._funcs[-1]),
                constant=message.constant,
                helper=helper,
                single=call is None or len(call.args) + len(call.keywords) == 1,
                handling=self._handling[-1][-1] if self._handling[-1] else None,
                statement=None if message.template else self._statement(node),
                via=via,
            )
        )

    def _statement(self, node: ast.stmt) -> str:
        """The statement's source text, whitespace collapsed and cut."""
        if self._lines is None:
            self._lines = self._data.splitlines()
        lines = self._lines[node.lineno - 1 : node.end_lineno or node.lineno]
        if not lines:
            return cut(source_of(node))
        end = node.end_col_offset if node.end_col_offset is not None else len(lines[-1])
        lines[-1] = lines[-1][:end]
        lines[0] = lines[0][node.col_offset :]
        return cut(b"\n".join(lines).decode("utf-8", "replace"))

    def _exception_call(self, exc: ast.expr, line: int) -> ast.Call | None:
        if isinstance(exc, ast.Call):
            return exc
        if isinstance(exc, ast.Name):
            found = self._scopes[-1].lookup(exc.id, line)
            if found is not None and not found.augmented and isinstance(found.value, ast.Call):
                return found.value
        return None

    def visit_Raise(self, node: ast.Raise) -> None:
        if node.exc is None:
            return  # a re-raise
        call = self._exception_call(node.exc, node.lineno)
        if call is None:
            name = _class_name(node.exc)
            if name is not None and self._scopes[-1].lookup(name, node.lineno) is None:
                self._add(node, "raise", name, NO_MESSAGE, self._condition())
            return
        message = from_call(call, node.lineno, self._scopes[-1].lookup)
        exception = _callee_name(call.func)
        self._add(node, "raise", exception, message or NO_MESSAGE, self._condition(), call)

    def visit_Assert(self, node: ast.Assert) -> None:
        message = NO_MESSAGE
        lookup = self._scopes[-1].lookup
        if isinstance(node.msg, ast.Call) and _exception_class(node.msg):
            # `assert ok, ValueError(f"... {x}")`: the AssertionError prints the exception's
            # text, as a raise of it would (not the expression that built it)
            message = from_call(node.msg, node.lineno, lookup) or NO_MESSAGE
        elif node.msg is not None:
            message = from_expr(node.msg, node.lineno, lookup)
        self._add(node, "assert", "AssertionError", message, cut(source_of(node.test)))

    def visit_Expr(self, node: ast.Expr) -> None:
        """A call statement: a logged error, or a message handed to a raising helper."""
        call = node.value
        if not isinstance(call, ast.Call):
            return
        if self._logged(node, call) or self._abort(node, call) or self._recorded(node, call):
            return
        lookup = self._scopes[-1].lookup
        cls = self._classes[-1] if self._classes else None
        found = self.helpers.site_for(call, cls, node.lineno, lookup)
        if found is not None:
            helper = found.helper
            self._add(
                node,
                "raise",
                helper.exception,
                found.message,
                self._condition(),
                via=f"{helper.qualname} at {self.path}:{helper.line}",
            )
        elif isinstance(call.func, ast.Name) and call.func.id in self._imports:
            self._imported_call(node, call, *self._imports[call.func.id])

    def _logged(self, node: ast.stmt, call: ast.Call) -> bool:
        """A logging call, a ``warnings.warn`` or a ``print`` (each recorded when its text is
        worth it, see :mod:`errexplain.extract.logs`); False when the call is none of them."""
        lookup = self._scopes[-1].lookup
        level = log_level(call)
        if level is not None:
            message = from_log_call(call, node.lineno, lookup)
            if message is not None and worth_recording(level, message.template):
                self._add(node, "log", level, message, self._condition())
            return True
        warned = warned_message_arg(call)
        if warned is not None:
            message = from_expr(warned, node.lineno, lookup)
            if message is not None and worth_recording("warning", message.template):
                self._add(node, "log", "warning", message, self._condition(), via=WARNED)
            return True
        printed = printed_message_arg(call)
        if printed is None:
            return False
        if is_test_path(self.path):
            return True  # (a test's prints are its run's chatter, not a failure users meet)
        message = from_expr(printed, node.lineno, lookup)
        level = None if message is None else printed_level(message.template)
        if message is not None and level is not None:
            self._add(node, "log", level, message, self._condition(), via=PRINTED)
        return True

    def _abort(self, node: ast.stmt, value: ast.expr | None) -> bool:
        """A request finished with an error message its client reads (``logs.ABORT_SINKS``:
        ``req.set_finish_with_abort(msg)``, ``req.to_finish = FINISH_ABORT(msg)``, ``return
        self.create_error_response(msg)``): a site of kind ``abort``. False when `value` is
        no such call."""
        if not isinstance(value, ast.Call):
            return False
        found = client_message_arg(value, partial(self._held, line=node.lineno))
        if found is None:
            # handed on as it is made: `aborts.append(AbortReq(rid=..., abort_message=msg))`,
            # `self._send_output(FlushCacheReqOutput(success=False, message=...), req)`
            inner = [a for a in value.args if isinstance(a, ast.Call)]
            made = [m for m in map(client_message_arg, inner) if m is not None]
            if len(made) != 1:
                reason = abort_reason_message(value)
                if reason is None:
                    return False
                made = [(reason, None)]
            found = made[0]
        arg, via = found
        if via and via.startswith(RESPONSE_VIA) and self._noted(arg, node.lineno):
            return True  # (`message += f" Weight version updated ..."` on success only)
        self._validator(arg, node.lineno)
        # one text per branch (`message = "The request queue is full."`, and in an `if`,
        # `message = "The request is aborted by a higher priority request."`): each is what
        # the client reads, at its own line; else the argument, at the sink
        branches = self._branch_texts(arg, node.lineno) or _either_text(arg)
        for held in branches or [arg]:
            message = from_expr(held, node.lineno, self._scopes[-1].lookup)
            if message is not None and worth_recording("error", message.template):
                # (also a generic lead before the handled exception's text, `f"Internal
                # server error: {e}"`: the client reads it so; the ranking prefers the inner
                # message when that one is catalogued: match.rank.passes_on)
                line = _text_line(held) if branches else None
                self._add(node, "abort", "abort", message, self._condition(), via=via, line=line)
        return True

    def _noted(self, arg: ast.expr, line: int) -> bool:
        """Whether a response's message is a name the function adds to (`message += ...`):
        the body reports a success as well, and the note may be the success's alone."""
        if not isinstance(arg, ast.Name):
            return False
        return any(b.augmented for b in self._bindings(arg.id, line))

    def _bindings(self, name: str, line: int) -> tuple[Binding, ...]:
        """Every assignment of `name` in the current scope, in order."""
        scope = self._scopes[-1]
        scope.lookup(name, line)  # (collects the scope's bindings on first use)
        return tuple(scope.bindings.get(name, ()))

    def _held(self, name: ast.Name, line: int) -> ast.expr | None:
        """The value `name` holds at `line` when the function assigns it once (a body built
        in one statement, then sent), else None (one body per branch: which one fails is the
        branches' to say)."""
        found = self._scopes[-1].lookup(name.id, line)
        if found is None or found.augmented or len(self._bindings(name.id, line)) != 1:
            return None
        return found.value

    def _branch_texts(self, arg: ast.expr, line: int) -> list[ast.expr]:
        """The texts a name may hold at `line` when there are several, each a plain assignment
        of text no read of the name comes between it and `line` (`message = "The request
        queue is full."`, then in an `if`, `message = "... aborted by a higher priority
        request."`, then the sink; not a text an earlier sink already sent); empty otherwise
        (one such assignment, or one that is not text: the name is read as usual)."""
        func = self._funcs[-1]
        if not isinstance(arg, ast.Name) or func is None:
            return []
        reads = self._reads(func, arg.id)
        items = [
            b
            for b in self._bindings(arg.id, line)
            if b.line < line and not any(b.line < r < line for r in reads)
        ]
        if len(items) < 2 or any(b.augmented or not is_text_expr(b.value) for b in items):
            return []
        return [b.value for b in items]

    def _reads(self, func: _FuncDef, name: str) -> list[int]:
        """The lines where the function reads `name` (once per function and name)."""
        key = (id(func), name)
        found = self._read_lines.get(key)
        if found is None:
            found = sorted(
                n.lineno
                for n in ast.walk(func)
                if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
            )
            self._read_lines[key] = found
        return found

    def _validator(self, arg: ast.expr, line: int) -> None:
        """Note the function whose return value is this abort's message (``msg =
        self._validate_request(request)``, or the call in place): its returned texts are
        what the client reads (:data:`records.RETURNED`)."""
        name = self._own_callee(arg, line)
        if name:
            self.validators.add(name)

    def _own_callee(self, arg: ast.expr, line: int) -> str | None:
        """The name of the project's function whose result `arg` is (a call of a module
        function or of a method on `self`/`cls`, in place or held in a name); None for any
        other value, and for a class (it builds a reply, not a text)."""
        if isinstance(arg, ast.Name):
            found = self._scopes[-1].lookup(arg.id, line)
            arg = found.value if found is not None and not found.augmented else arg
        if not isinstance(arg, ast.Call):
            return None
        func, root = arg.func, arg.func
        while isinstance(root, ast.Attribute):
            root = root.value
        own = isinstance(func, ast.Name) and func.id not in _BUILTINS
        own = own or (
            isinstance(root, ast.Name) and root.id in ("self", "cls") and func is not root
        )
        name = _callee_name(func).rsplit(".", 1)[-1]
        return name if own and name and not name[:1].isupper() else None

    def _recorded(self, node: ast.stmt, value: ast.expr | None) -> bool:
        """A failure reason recorded for a later raise to carry (``logs.RECORD_SINKS``:
        ``self.record_failure(room, msg)``): a site of kind ``recorded`` raising the exception
        that carries it. False when `value` is no such call."""
        if not isinstance(value, ast.Call):
            return False
        found = recorded_reason_arg(value)
        if found is None:
            return False
        arg, exception = found
        message = from_expr(arg, node.lineno, self._scopes[-1].lookup)
        if message is not None and worth_recording("error", message.template):
            self._add(node, "recorded", exception, message, self._condition(), line=_text_line(arg))
        return True

    def _imported_call(self, node: ast.Expr, call: ast.Call, module: str, name: str) -> None:
        """Keep a call of a function imported from the project that passes literal text: it
        may be a helper of another module that raises it (resolved over all files)."""
        if any(isinstance(a, ast.Starred) for a in call.args):
            return
        lookup = self._scopes[-1].lookup
        args: list[tuple[int | str, str, bool]] = []
        text = False
        keyed: list[tuple[int | str, ast.expr]] = list(enumerate(call.args))
        keyed += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
        for key, arg in keyed:
            message = from_expr(arg, node.lineno, lookup)
            args.append((key, message.template, message.constant))
            text = text or message.constant
        if not text:
            return
        self.calls.append(
            CallInfo(
                path=self.path,
                line=node.lineno,
                function=self.qualname,
                condition=self._condition(),
                doc=_doc_line(self._funcs[-1]),
                handling=self._handling[-1][-1] if self._handling[-1] else None,
                callee=name,
                module=module,
                args=tuple(args),
            )
        )

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        """``from pkg.mod import f [as g]`` within the project (absolute or relative)."""
        module = node.module or ""
        if node.level:
            base = self._package.split(".")
            if node.level - 1 >= len(base):
                return
            base = base[: len(base) - (node.level - 1)]
            module = ".".join([*base, module] if module else base)
        if module.split(".")[0] != self._package.split(".")[0]:
            return
        for alias in node.names:
            if alias.name != "*":
                self._imports[alias.asname or alias.name] = (module, alias.name)

    def visit_Assign(self, node: ast.Assign) -> None:
        """``param = params_dict[name]`` where the dict holds the model's parameters
        (``dict(self.named_parameters())``): a KeyError names a weight the model lacks, the
        commonest error of loading a checkpoint, raised by no raise statement."""
        value = node.value
        if self._abort(node, value) or self._recorded(node, value):
            return
        if self._funcs[-1] is None or not isinstance(value, ast.Subscript):
            return
        if not isinstance(value.value, ast.Name) or isinstance(value.slice, ast.Slice):
            return
        name = value.value.id
        found = self._scopes[-1].lookup(name, node.lineno)
        if found is None or not _parameter_dict(found.value):
            return
        if any(_member_test(test, name, negated) for test, negated in self._guards[-1]):
            return  # under `if key in params_dict:` it cannot raise
        func = self._funcs[-1]
        guarded = self._exit_guarded.get(id(func))
        if guarded is None:  # (read once a function has a lookup to check)
            guarded = self._exit_guarded[id(func)] = exit_guarded(func.body)
        if id(node) in guarded:
            return  # below `if key not in params_dict: continue` neither
        self._add(node, "lookup", "KeyError", NO_MESSAGE, self._condition())

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        func = self._funcs[-1]
        held = self._returned_text(value, node) if func is not None else None
        if func is not None and held is None and value is not None:
            # a function returning what another of the project's gave it (`err =
            # self._validate_media(r)`, `if err: return err`): a validator's callee is one too
            callee = self._own_callee(value, node.lineno)
            if callee and callee != func.name:
                self.returned_calls.add((func.name, callee))
        if held is not None:
            text = from_expr(held, node.lineno, self._scopes[-1].lookup)
            if text is not None and worth_recording("error", text.template):
                # (a name's text at its assignment, where it is written)
                at = node.lineno if held is value else _text_line(held)
                self._add(node, RETURNED, "abort", text, self._condition(), line=at)
            return
        if (
            self._funcs[-1] is None
            or not isinstance(value, ast.Call)
            or self._abort(node, value)
            or self._recorded(node, value)
        ):
            return
        name = _callee_name(value.func)
        if not name[:1].isupper():
            return
        message = from_call(value, node.lineno, self._scopes[-1].lookup)
        if message is not None:
            self._add(node, "raise", name, message, self._condition(), value, helper=True)

    def _returned_text(self, value: ast.expr | None, node: ast.Return) -> ast.expr | None:
        """The text a return statement returns: a string or an f-string, in place or held in a
        name assigned it (``error_msg = (f"Input length ({n} tokens) exceeds " ...)``, then
        ``return error_msg``); None for any other value."""
        if isinstance(value, ast.Name):
            found = self._scopes[-1].lookup(value.id, node.lineno)
            if found is None or found.augmented:
                return None
            value = found.value
        return value if value is not None and is_text_expr(value) else None

    _handlers: ClassVar[dict[type, Callable[[SiteVisitor, Any], None]]] = {
        ast.FunctionDef: _visit_function,
        ast.AsyncFunctionDef: _visit_function,
        ast.ClassDef: visit_ClassDef,
        ast.If: visit_If,
        ast.Try: visit_Try,
        ast.Raise: visit_Raise,
        ast.Assert: visit_Assert,
        ast.Return: visit_Return,
        ast.Expr: visit_Expr,
        ast.Assign: visit_Assign,
        ast.ImportFrom: visit_ImportFrom,
    }


if hasattr(ast, "TryStar"):  # Python 3.11+: try/except*
    SiteVisitor._handlers[ast.TryStar] = SiteVisitor.visit_Try


_BUILTINS = frozenset(dir(builtins))


def _either_text(arg: ast.expr) -> list[ast.expr]:
    """The two texts of a conditional whose branches are both text (`"Unauthorized" if code ==
    401 else "Forbidden"`): each is what the client may read; empty for any other value."""
    if isinstance(arg, ast.IfExp) and is_text_expr(arg.body) and is_text_expr(arg.orelse):
        return [arg.body, arg.orelse]
    return []


def _text_line(arg: ast.expr) -> int:
    """The line where an argument's literal text starts (a reason written inside a call over
    several lines: the site is where the text is), else the argument's own line (a text held
    in a name or a class constant is handed over there)."""
    lines = [
        n.lineno
        for n in ast.walk(arg)
        if isinstance(n, ast.JoinedStr)
        or (isinstance(n, ast.Constant) and isinstance(n.value, str))
    ]
    return min(lines) if lines else arg.lineno


def visit_source(path: str, data: bytes) -> FileResult:
    """Parse one file and collect its sites; a file that does not parse gives ``error``."""
    # A tree is many small objects and no cycles: pausing the collector saves a third.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _visit(path, data)
    finally:
        if paused:
            gc.enable()


def _visit(path: str, data: bytes) -> FileResult:
    if not path.endswith(".py"):
        return visit_cpp(path, data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data, filename=path)
    except (SyntaxError, ValueError, UnicodeDecodeError) as exc:
        return FileResult(path, error=cut(f"{type(exc).__name__}: {exc}"))
    except RecursionError:
        return FileResult(path, error="RecursionError: the file is nested too deeply to parse")
    visitor = SiteVisitor(path, tree, data)
    try:
        visitor.visit(tree)
    except RecursionError:
        return FileResult(path, error="RecursionError: the file is nested too deeply to walk")
    helpers = visitor.helpers.exported(module_name(path), path)
    return FileResult(
        path,
        tuple(visitor.sites),
        tuple(visitor.classes),
        None,
        helpers,
        tuple(visitor.calls),
        tuple(sorted(visitor.validators)),
        tuple(sorted(visitor.returned_calls)),
    )


def module_name(path: str) -> str:
    """``pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/sub/__init__.py`` -> ``pkg.sub``."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)
