"""Turn the message expression of a raise/assert into a template.

Literal text is escaped with :func:`errexplain.template.escape`; every part that varies at run
time becomes a placeholder named by the expression's source (``ast.unparse``), keeping f-string
conversions and format specs (``<name!r>``, ``<ratio:.2f>``). Names are followed to the nearest
preceding assignment through a :data:`Lookup` supplied by the caller.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable

from errexplain._startup import Record
from errexplain.match.template import compile_template, escape, placeholder

MAX_NAME = 200
_MAX_DEPTH = 12
_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[#0\- +]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
    r"[hlL]?(?P<type>[diouxXeEfFgGcrsa%])"
)
_MESSAGE_KEYWORDS = ("msg", "message", "detail", "reason", "description", "error")


class Binding(Record):
    """An assignment to a name: ``name = value`` or, when ``augmented``, ``name += value``;
    ``only`` when it is the one store to that name in its scope (no loop, no other assignment,
    not a parameter); ``branch``, the lines of the `if` branch an addition sits in ((0, 0):
    none)."""

    line: int
    value: ast.expr
    augmented: bool = False
    only: bool = False
    branch: tuple[int, int] = (0, 0)


Lookup = Callable[[str, int], "Binding | None"]


class Message(Record):
    template: str
    constant: bool


def source_of(node: ast.AST) -> str:
    """The expression's source text on one line, cut to :data:`MAX_NAME` characters."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…"


def _ph(node: ast.AST, suffix: str = "") -> str:
    return placeholder(source_of(node) + suffix)


class _Builder:
    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup

    def binding(self, node: ast.expr, line: int, depth: int) -> Binding | None:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Name):
            return self.lookup(node.id, line)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):  # a constant of the method's class (`self.DEFAULT_REASON`)
            return self.lookup(f"{node.value.id}.{node.attr}", line)
        return None

    def is_text(self, node: ast.expr, line: int, depth: int = 0) -> bool:
        """Whether ``node`` statically evaluates to a string with some literal text."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.is_text(node.left, line, depth) or self.is_text(node.right, line, depth)
        if isinstance(node, ast.BoolOp | ast.IfExp):
            return self.text_choice(node, line, depth) is not None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return self.literal(node.left, line, depth) is not None
        if _is_format_call(node):
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            return self.literal(node.func.value, line, depth) is not None
        found = self.binding(node, line, depth)
        if found is None:
            return False
        if found.augmented:
            return True
        return self.is_text(found.value, found.line, depth + 1)

    def literal(self, node: ast.expr, line: int, depth: int) -> str | None:
        """The value of a plain string constant (possibly through a name), else None."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        found = self.binding(node, line, depth)
        if found is None or found.augmented:
            return None
        return self.literal(found.value, found.line, depth + 1)

    def text_choice(self, node: ast.BoolOp | ast.IfExp, line: int, depth: int) -> ast.expr | None:
        """`reason or "default text"` and `"a" if c else "b"`: one template per site, so take
        the alternative with literal text (the last for `or`, the first for a conditional)."""
        if isinstance(node, ast.IfExp):
            options = [node.body, node.orelse]
        elif isinstance(node.op, ast.Or):
            options = list(reversed(node.values))
        else:
            return None
        return next((o for o in options if self.is_text(o, line, depth)), None)

    def formatted(self, node: ast.expr, line: int, depth: int) -> str | None:
        """`or`/conditional alternatives, `%` formatting and `.format()`; None otherwise."""
        if isinstance(node, ast.BoolOp | ast.IfExp):
            choice = self.text_choice(node, line, depth)
            return None if choice is None else self.render(choice, line, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            fmt = self.literal(node.left, line, depth)
            return None if fmt is None else _percent(fmt, node.right)
        if _is_format_call(node):
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            fmt = self.literal(node.func.value, line, depth)
            return None if fmt is None else _format_call(fmt, node)
        return None

    def render(self, node: ast.expr, line: int, depth: int = 0) -> str:
        done = self.formatted(node, line, depth)
        if done is not None:
            return done
        if isinstance(node, ast.Constant):
            return escape(node.value if isinstance(node.value, str) else str(node.value))
        if isinstance(node, ast.JoinedStr):
            return "".join(self.fstring_part(v, line, depth) for v in node.values)
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add)
            and self.is_text(node, line, depth)
        ):
            return self.side(node.left, line, depth) + self.side(node.right, line, depth)
        found = self.binding(node, line, depth)
        if found is not None and (found.augmented or self.is_text(found.value, found.line, depth)):
            tail = self.render(found.value, found.line, depth + 1)
            if not found.augmented:
                return tail
            return self.render(node, found.line, depth + 1) + tail
        return _ph(node)

    def side(self, node: ast.expr, line: int, depth: int) -> str:
        return self.render(node, line, depth) if self.is_text(node, line, depth) else _ph(node)

    def fstring_part(self, node: ast.expr, line: int = 0, depth: int = _MAX_DEPTH + 1) -> str:
        """One part of an f-string; a plain field (no conversion, no spec) naming a local text
        (``msg = f"..."; raise E(f"{msg} To allow ...")``) is that text's template, unless the
        text is one of two (``a or "b"``, ``"a" if c else "b"``): a placeholder fits both."""
        if isinstance(node, ast.Constant):
            return escape(str(node.value))
        assert isinstance(node, ast.FormattedValue)
        if node.conversion == -1 and node.format_spec is None:
            found = self.binding(node.value, line, depth)
            if (
                found is not None
                and found.only  # a loop variable reassigned once is no message text
                and not isinstance(found.value, ast.BoolOp | ast.IfExp)  # either text may show
                and self.is_text(found.value, found.line, depth + 1)
            ):
                return self.render(found.value, found.line, depth + 1)
        suffix = "" if node.conversion == -1 else "!" + chr(node.conversion)
        if node.format_spec is not None:
            suffix += ":" + _spec_text(node.format_spec)
        return _ph(node.value, suffix)


def _is_format_call(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    )


def _spec_text(spec: ast.expr) -> str:
    if not isinstance(spec, ast.JoinedStr):
        return source_of(spec)
    parts = []
    for v in spec.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value))
        elif isinstance(v, ast.FormattedValue):
            parts.append("{" + source_of(v.value) + "}")
    return "".join(parts)


def _percent_suffix(m: re.Match[str]) -> str:
    kind = m["type"]
    if kind in "ra":
        return "!" + kind
    spec = (m["flags"] or "") + (m["width"] or "") + ("." + m["prec"] if m["prec"] else "")
    if not spec and kind in "sdiu":
        return ""
    return ":" + spec + ("d" if kind in "iu" else kind)


def _percent_args(right: ast.expr, count: int) -> list[str]:
    if isinstance(right, ast.Tuple):
        names = [source_of(e) for e in right.elts]
    elif count == 1:
        names = [source_of(right)]
    else:
        names = [f"{source_of(right)}[{i}]" for i in range(count)]
    return names + [f"arg{i}" for i in range(len(names), count)]


def _percent(fmt: str, right: ast.expr) -> str:
    """``"x %s y %(k)r" % args`` -> ``x <a> y <k!r>``."""
    specs = [m for m in _PERCENT.finditer(fmt) if m["type"] != "%"]
    mapping: dict[str, str] = {}
    if isinstance(right, ast.Dict):
        for k, v in zip(right.keys, right.values, strict=True):
            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                mapping[k.value] = source_of(v)
    positional = iter(_percent_args(right, len(specs)))
    out, pos = [], 0
    for m in _PERCENT.finditer(fmt):
        out.append(escape(fmt[pos : m.start()]))
        pos = m.end()
        if m["type"] == "%":
            out.append("%")
            continue
        key = m["key"]
        name = mapping.get(key, key) if key is not None else next(positional)
        out.append(placeholder(name + _percent_suffix(m)))
    out.append(escape(fmt[pos:]))
    return "".join(out)


def _field_source(field: str, call: ast.Call, auto: list[int]) -> str:
    head = re.match(r"[^.\[]*", field)
    first = head.group(0) if head else ""
    rest = field[len(first) :]
    if first == "":
        index = auto[0]
        auto[0] += 1
        first = str(index)
    if first.isdigit():
        i = int(first)
        base = source_of(call.args[i]) if i < len(call.args) else f"arg{i}"
    else:
        kw = next((k for k in call.keywords if k.arg == first), None)
        base = source_of(kw.value) if kw is not None else first
    return base + rest


def _format_call(fmt: str, call: ast.Call) -> str:
    """``"a {} b {name!r}".format(x, name=y)`` -> ``a <x> b <y!r>``."""
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return _ph(call)
    out, auto = [], [0]
    for text, field, spec, conv in parsed:
        out.append(escape(text))
        if field is None:
            continue
        name = _field_source(field, call, auto)
        name += ("!" + conv if conv else "") + (":" + spec if spec else "")
        out.append(placeholder(name))
    return "".join(out)


def _tuple(node: ast.Tuple, builder: _Builder, line: int) -> str:
    parts = []
    for elt in node.elts:
        if builder.is_text(elt, line):
            parts.append("'" + builder.render(elt, line) + "'")
        else:
            parts.append(_ph(elt))
    inner = ", ".join(parts) + ("," if len(parts) == 1 else "")
    return "(" + inner + ")"


def _finish(template: str) -> Message:
    return Message(template, bool(compile_template(template).literal_text))


def from_expr(node: ast.expr, line: int, lookup: Lookup) -> Message:
    """The template of a message expression evaluated at ``line``."""
    builder = _Builder(lookup)
    if isinstance(node, ast.Tuple) and node.elts:
        return _finish(_tuple(node, builder, line))
    return _finish(builder.render(node, line))


def pick_argument(call: ast.Call, line: int, lookup: Lookup) -> ast.expr | None:
    """The argument that carries the message: the first string-like one, else the first one."""
    candidates: list[ast.expr] = [a for a in call.args if not isinstance(a, ast.Starred)]
    keywords = sorted(
        (k for k in call.keywords if k.arg is not None),
        key=lambda k: k.arg not in _MESSAGE_KEYWORDS,
    )
    candidates += [k.value for k in keywords]
    builder = _Builder(lookup)
    for cand in candidates:
        if builder.is_text(cand, line):
            return cand
    if candidates:
        return candidates[0]
    return call.args[0] if call.args else None


def from_call(call: ast.Call, line: int, lookup: Lookup) -> Message | None:
    """The template of an exception constructor call, or None when it has no argument."""
    arg = pick_argument(call, line, lookup)
    return None if arg is None else from_expr(arg, line, lookup)


def from_log_call(call: ast.Call, line: int, lookup: Lookup) -> Message | None:
    """The template of a logging call's message: its first argument, %-formatted with the
    other positional arguments as ``logging`` does (a single dict argument is the mapping)."""
    if not call.args or isinstance(call.args[0], ast.Starred):
        return None
    first, rest = call.args[0], call.args[1:]
    if rest and not any(isinstance(a, ast.Starred) for a in rest):
        fmt = _Builder(lookup).literal(first, line, 0)
        if fmt is not None:
            right: ast.expr = rest[0]
            if len(rest) > 1 or not isinstance(right, ast.Dict):
                right = ast.Tuple(elts=list(rest), ctx=ast.Load())
            return _finish(_percent(fmt, right))
    return from_expr(first, line, lookup)


def formatted_value(node: ast.FormattedValue) -> str:
    """The placeholder of one f-string field, conversion and format spec kept."""
    return _Builder(lambda name, line: None).fstring_part(node)


def is_text_expr(value: ast.expr | None) -> bool:
    """A string literal or f-string (``return f"Tool {i} has an invalid schema: {e}"``)."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    return isinstance(value, ast.JoinedStr)
