"""Name bindings of one function (or module) body, for following ``msg = ...; raise X(msg)``."""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator

from errexplain._startup import replace
from errexplain.extract.messages import Binding

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


Branch = tuple[int, int]
"""The lines (first, last) of the `if` branch a statement sits in, innermost; (0, 0) when none."""
_TOP: Branch = (0, 0)


def _branch(block: list[ast.stmt]) -> Branch:
    return (block[0].lineno, block[-1].end_lineno or block[-1].lineno)


def _own_nodes(body: list[ast.stmt]) -> Iterator[tuple[ast.AST, Branch]]:
    """Every node of a body with the `if` branch it sits in, not descending into nested
    functions, classes or lambdas."""
    stack: list[tuple[ast.AST, Branch]] = [(node, _TOP) for node in reversed(body)]
    while stack:
        node, branch = stack.pop()
        yield node, branch
        if isinstance(node, _NESTED):
            continue
        kids: list[tuple[ast.AST, Branch]]
        if isinstance(node, ast.If):
            kids = [(node.test, branch)]
            kids += [(n, _branch(node.body)) for n in node.body]
            kids += [(n, _branch(node.orelse)) for n in node.orelse]
        else:
            kids = [(n, branch) for n in ast.iter_child_nodes(node)]
        stack.extend(reversed(kids))


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    a = node.args
    names = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    names.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    return names


class Scope:
    """Assignments in one body, looked up by name and line; falls back to the parent scope."""

    def __init__(
        self,
        body: list[ast.stmt],
        parent: Scope | None = None,
        func: ast.FunctionDef | ast.AsyncFunctionDef | None = None,
        owner: ast.ClassDef | None = None,
    ) -> None:
        self.parent = parent
        self.owner = owner
        self._attrs: dict[str, Binding] | None = None
        self.is_function = func is not None
        self._body = body
        self._func = func
        self._ready = False
        self.locals: set[str] = set()
        self.bindings: dict[str, list[Binding]] = {}
        self._lines: dict[str, list[int]] = {}

    def _add(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def _bind(self, node: ast.AST, branch: Branch) -> None:
        """Record an assignment: ``x = v``, ``x: T = v``, ``(x := v)``, ``x += v`` (with the
        `if` branch it sits in: see :meth:`lookup`)."""
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                self._add(target.id, Binding(node.lineno, node.value))
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            if isinstance(node.target, ast.Name):
                self._add(node.target.id, Binding(node.lineno, node.value))
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            # `if error_msg := self.validate(req):`
            self._add(node.target.id, Binding(node.lineno, node.value))
        elif (
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(node.op, ast.Add)
        ):
            fixed = _literal_only(node.value)
            binding = Binding(
                node.lineno, node.value, augmented=True, branch=branch if fixed else _TOP
            )
            self._add(node.target.id, binding)

    def _collect(self) -> None:
        """Collect the bindings on first use: most scopes are never looked into."""
        self._ready = True
        if self._func is not None:
            self.locals = _params(self._func)
        stores: dict[str, int] = {}
        for name in self.locals:
            stores[name] = 1
        for node, branch in _own_nodes(self._body):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.locals.add(node.id)
                stores[node.id] = stores.get(node.id, 0) + 1
            self._bind(node, branch)
        for name, items in self.bindings.items():
            if len(items) == 1 and stores.get(name) == 1 and not items[0].augmented:
                items[0] = replace(items[0], only=True)
            items.sort(key=lambda b: b.line)
            self._lines[name] = [b.line for b in items]

    def lookup(self, name: str, line: int) -> Binding | None:
        """The nearest assignment to ``name`` before ``line`` (any line, in an outer scope);
        ``self.X`` / ``cls.X`` name a constant of the method's class (`owner`) body. A literal
        note (``x += " ..."``, :func:`_literal_only`) added in an `if` branch that does not
        hold ``line`` is passed over: one template per site, and the message as printed when
        the branch is not taken is the one a paste without the note matches exactly, while a
        paste with it still matches closely (``msg = "X module not available."``, then ``if
        flag: msg += " Y requires it."``, then ``raise ValueError(msg)`` is recorded as ``X
        module not available.``)."""
        if "." in name:
            if self.owner is not None:
                if self._attrs is None:
                    self._attrs = class_attrs(self.owner)
                return self._attrs.get(name.split(".", 1)[1])
            return None if self.parent is None else self.parent.lookup(name, 1 << 30)
        if not self._ready:
            self._collect()
        items = self.bindings.get(name)
        if items:
            i = bisect.bisect_left(self._lines[name], line)
            while i and _elsewhere(items[i - 1], line):
                i -= 1
            if i:
                return items[i - 1]
            if not self.is_function:
                return items[-1]
        if name in self.locals or self.parent is None:
            return None
        return self.parent.lookup(name, 1 << 30)


def _literal_only(value: ast.expr) -> bool:
    """Whether an added text is all literal (``" (restore failed on this rank)"``): a note
    some branches append. An addition that carries a value (``f" with exception {e}"``,
    ``f" Current value: {x}"``) reports what the failure holds, and is kept whatever branch
    adds it: the branch is the usual one (the exception was caught, the value was set)."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    return isinstance(value, ast.JoinedStr) and all(
        isinstance(v, ast.Constant) for v in value.values
    )


def _elsewhere(binding: Binding, line: int) -> bool:
    """Whether ``binding`` is an addition in an `if` branch that does not hold ``line``."""
    first, last = binding.branch
    return binding.augmented and bool(first) and not first <= line <= last


def class_attrs(node: ast.ClassDef) -> dict[str, Binding]:
    """The names a class body assigns once (``DEFAULT_REASON = "..."``), for ``self.X`` in its
    methods; a name assigned twice, or also set on an instance (``self.X = ...`` anywhere in
    the class), is left out: its value there is not known."""
    seen: dict[str, list[Binding]] = {}
    on_instance = {
        sub.attr
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store)
    }
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target: ast.expr = stmt.targets[0]
            value: ast.expr | None = stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        else:
            continue
        if isinstance(target, ast.Name) and value is not None:
            seen.setdefault(target.id, []).append(Binding(stmt.lineno, value))
    return {
        name: items[0]
        for name, items in seen.items()
        if len(items) == 1 and name not in on_instance
    }
