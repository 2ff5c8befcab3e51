"""Messages handed to a helper that raises them: ``self._fail(msg)``, ``raise_or_warn(.., msg)``.

Two passes over one module. :func:`collect` finds the helpers: functions (module level, or
methods of a class) whose body raises an exception built from one of their parameters
(``raise ValueError(message)``, ``raise ValueError(f"bad config: {message}")``).
:meth:`Helpers.site_for` then turns a call statement of such a helper, in the same module or
through ``self``/``cls`` in the same class, into the template the helper raises: the argument's
template put in place of the parameter. Module-level helpers are also exported
(:meth:`Helpers.exported`) so that a call from another module of the project, through
``from pkg.mod import helper``, is resolved once every file is walked
(:func:`errexplain.extract.resolve.resolve`). One level only: a helper that passes its
parameter on to another helper is not followed.
"""

from __future__ import annotations

import ast
import re

from errexplain._startup import Record
from errexplain.extract.messages import (
    Lookup,
    Message,
    formatted_value,
    from_expr,
    pick_argument,
    source_of,
)
from errexplain.extract.records import HelperInfo
from errexplain.match.normalize import identifiable
from errexplain.match.template import compile_template, escape, placeholder

MARK = "\x00"
_MARKED = re.compile("\x00([^\x00]*)\x00")

_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class Helper(Record):
    """A function that raises ``exception`` with a message built (``shape``) from one of its
    ``params``, in declaration order: (name, position at a call site (``self``/``cls`` not
    counted for a method called through them) or None when it is keyword-only).
    """

    qualname: str
    exception: str
    params: tuple[tuple[str, int | None], ...]
    shape: ast.expr
    line: int = 0


class HelperCall(Record):
    """What a call of a helper raises: the helper, its exception and the filled template."""

    helper: Helper
    message: Message


def _own_raises(func: _FuncDef) -> list[ast.Raise]:
    """The raise statements of a function body, not those of nested functions or classes."""
    found: list[ast.Raise] = []
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise):
            found.append(node)
        if not isinstance(node, _NESTED):
            stack.extend(ast.iter_child_nodes(node))
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _class_name(func: ast.expr) -> str | None:
    """``ValueError`` / ``errors.ConfigError``: a capitalised (class) name, else None."""
    name = func.id if isinstance(func, ast.Name) else None
    if isinstance(func, ast.Attribute):
        name = func.attr
    return name if name and name[:1].isupper() else None


def _is_plain(field: ast.FormattedValue, param: str) -> bool:
    """``{param}`` with no conversion or format spec."""
    value = field.value
    return (
        isinstance(value, ast.Name)
        and value.id == param
        and field.conversion == -1
        and field.format_spec is None
    )


def _built_from(node: ast.expr, param: str) -> bool:
    """Whether a message expression is the parameter, or literal text around it (f-string
    fields and ``+``), with the parameter used exactly as is."""
    if isinstance(node, ast.Name):
        return node.id == param
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and _is_plain(v, param) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        sides = (node.left, node.right)
        return any(_built_from(s, param) for s in sides) and all(
            _built_from(s, param)
            or isinstance(s, ast.JoinedStr)
            or (isinstance(s, ast.Constant) and isinstance(s.value, str))
            for s in sides
        )
    return False


def _positional(func: _FuncDef, method: bool) -> list[str]:
    names = [p.arg for p in (*func.args.posonlyargs, *func.args.args)]
    return names[1:] if method and names else names


def _helper(func: _FuncDef, qualname: str, method: bool) -> Helper | None:
    positional = _positional(func, method)
    params = [
        *((p, i) for i, p in enumerate(positional)),
        *((p.arg, None) for p in func.args.kwonlyargs),
    ]
    for node in _own_raises(func):
        if not isinstance(node.exc, ast.Call):
            continue
        exception = _class_name(node.exc.func)
        arg = pick_argument(node.exc, node.lineno, lambda name, line: None)
        if exception is None or arg is None:
            continue
        used = tuple((p, i) for p, i in params if _built_from(arg, p))
        if used:
            return Helper(qualname, exception, used, arg, node.lineno)
    return None


def _is_static(func: _FuncDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)


def _walk(body: list[ast.stmt], prefix: str, in_class: bool, out: dict[str, Helper]) -> None:
    for node in body:
        if isinstance(node, ast.ClassDef):
            _walk(node.body, prefix + node.name + ".", True, out)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found = _helper(node, prefix + node.name, in_class and not _is_static(node))
            if found is not None:
                out[found.qualname] = found


class Helpers:
    """The raising helpers of one module, by qualified name."""

    def __init__(self, tree: ast.Module) -> None:
        self.by_name: dict[str, Helper] = {}
        _walk(tree.body, "", False, self.by_name)

    def exported(self, module: str, path: str) -> tuple[HelperInfo, ...]:
        """The module-level helpers whose own text does not identify their message, as other
        modules see them (a helper with its own text is recorded at its raise)."""
        out = []
        for name, helper in self.by_name.items():
            if "." in name or _identifiable(helper):
                continue
            marks = {p: f"{MARK}{p}{MARK}" for p, _ in helper.params}
            pattern = _fill(helper.shape, marks)
            out.append(
                HelperInfo(
                    name, module, path, helper.line, helper.exception, helper.params, pattern
                )
            )
        return tuple(out)

    def lookup(self, func: ast.expr, class_name: str | None) -> Helper | None:
        """The helper a call's callee names: ``name(...)`` for a module-level function,
        ``self.name(...)``/``cls.name(...)`` for a method of the enclosing class."""
        if isinstance(func, ast.Name):
            return self.by_name.get(func.id)
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and class_name
        ):
            return self.by_name.get(f"{class_name}.{func.attr}")
        return None

    def site_for(
        self, call: ast.Call, class_name: str | None, line: int, lookup: Lookup
    ) -> HelperCall | None:
        """What a call statement raises through a helper: every parameter the helper's message
        uses replaced by the template of its argument; None when no argument has literal text
        (the caller passes on text it does not write) or when the helper's own text identifies
        the message (its raise site is recorded and explains every call)."""
        if not self.by_name:
            return None
        helper = self.lookup(call.func, class_name)
        if helper is None or _identifiable(helper):
            return None
        filled: dict[str, str] = {}
        text = False
        for param, index in helper.params:
            arg = _argument(call, param, index)
            if arg is not None:
                message = from_expr(arg, line, lookup)
                filled[param] = message.template
                text = text or message.constant
        if not text:
            return None
        template = _fill(helper.shape, filled)
        return HelperCall(helper, Message(template, bool(compile_template(template).literal_len)))


def fill_pattern(helper: HelperInfo, args: dict[int | str, tuple[str, bool]]) -> str | None:
    """The template a call of an exported helper raises: each parameter of the pattern replaced
    by the template of the caller's argument (by keyword, else by position), the others left as
    placeholders; None when no argument the message uses has literal text."""
    text = False
    filled: dict[str, str] = {}
    for param, index in helper.params:
        found = args.get(param)
        if found is None and index is not None:
            found = args.get(index)
        if found is not None:
            filled[param] = found[0]
            text = text or found[1]
    if not text:
        return None
    return _MARKED.sub(
        lambda m: filled[m[1]] if m[1] in filled else placeholder(m[1]), helper.pattern
    )


def _identifiable(helper: Helper) -> bool:
    return identifiable(_fill(helper.shape, {}))


def _argument(call: ast.Call, param: str, index: int | None) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == param:
            return kw.value
    if index is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return call.args[index] if index < len(call.args) else None


def _fill(shape: ast.expr, filled: dict[str, str]) -> str:
    """The helper's message expression with parameters replaced by the caller's templates
    (the others stay placeholders named as in the helper)."""
    if isinstance(shape, ast.Name) and shape.id in filled:
        return filled[shape.id]
    if isinstance(shape, ast.Constant):
        return escape(str(shape.value))
    if isinstance(shape, ast.BinOp):
        return _fill(shape.left, filled) + _fill(shape.right, filled)
    if isinstance(shape, ast.JoinedStr):
        out = []
        for v in shape.values:
            name = (
                v.value.id
                if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)
                else None
            )
            if isinstance(v, ast.FormattedValue) and name in filled and _is_plain(v, name):
                out.append(filled[name])
            elif isinstance(v, ast.FormattedValue):
                out.append(formatted_value(v))
            else:
                out.append(_fill(v, filled))
        return "".join(out)
    return placeholder(source_of(shape))
