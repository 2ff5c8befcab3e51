"""How two catalog entries are related in the code, in one line: the same guard variable or
server argument, the same message raised elsewhere, the same function, the same class, or the
same kind of failure in the same module. Wording alone never relates two entries; it only
orders entries that are related in the code (extract.derive picks `related` with this, the index
prints the reason beside each related id)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, Record, compile_regex, memo

if TYPE_CHECKING:
    from collections.abc import Collection

    from errexplain.models import Entry

_NAME = compile_regex(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_STRING = compile_regex(r"'[^'\n]*'|\"[^\"\n]*\"")
"""A string literal of a condition (``'language' in name``): its words are data, not names."""
COMMON_NAMES = frozenset(
    (
        "and",
        "not",
        "none",
        "true",
        "false",
        "self",
        "cls",
        "len",
        "isinstance",
        "int",
        "str",
        "float",
        "bool",
        "list",
        "dict",
        "tuple",
        "set",
        "type",
        "getattr",
        "hasattr",
        "any",
        "all",
        "min",
        "max",
        "sum",
        "args",
        "kwargs",
        "config",
        "server_args",
        "model_config",
        "hf_config",
        "get",
        "keys",
        "values",
        "items",
        "shape",
        "dtype",
        "device",
        "torch",
        "tensor",
        "data",
        "value",
        "name",
        "key",
        "numel",
        "size",
        "item",
        "format",
        "join",
        "lower",
        "upper",
        "startswith",
        "endswith",
        "split",
        "strip",
        "range",
        "zip",
        "enumerate",
        "sorted",
        "reversed",
        "print",
        "repr",
        "callable",
        "issubclass",
        "object",
        "super",
        "open",
        "path",
        "self_attn",
        "module",
        "params",
        "kwargs_",
        "copy",
    )
)
"""Names that every second guard mentions: sharing them says nothing."""

SAME_GUARD, SAME_MESSAGE, SAME_FUNCTION, SAME_CLASS, SAME_FAILURE = 5, 4, 3, 2, 1
"""Strengths, strongest first: a check of the same variable or server argument tells most."""


class Site(Record):
    """What relates entries: where the check is, what it tests and what it says."""

    path: str | None
    function: str | None
    condition: str | None
    template: str
    exception: str


def guard_names(site: Site) -> frozenset[str]:
    """The names a check tests: identifiers of its condition and of its message's
    placeholders (``<self.tp_size>``), without the common ones."""
    return _names(site.condition or "", site.template)


@memo(maxsize=131072)
def _names(condition: str, template: str) -> frozenset[str]:
    text = f"{_STRING.sub(' ', condition)} {' '.join(_placeholders(template))}"
    return frozenset(n for n in _NAME.findall(text) if n.lower() not in _common())


@memo(maxsize=1)
def _common() -> frozenset[str]:
    """COMMON_NAMES, Python's keywords and the builtins' names."""
    import builtins
    import keyword

    return COMMON_NAMES | {n.lower() for n in (*keyword.kwlist, *dir(builtins))}


def _placeholders(template: str) -> list[str]:
    out, pos = [], template.find("<")
    while pos >= 0:
        end = template.find(">", pos + 1)
        if end < 0:
            break
        out.append(template[pos + 1 : end])
        pos = template.find("<", end + 1)
    return out


def _class(function: str | None) -> str | None:
    if not function or "." not in function:
        return None
    return function.rsplit(".", 1)[0]


Traits = tuple[str, frozenset[str], "str | None", "str | None", "str | None", str, str]
"""What relates a site, computed once per site (:func:`traits`): its template, guard names,
path, function, class, the function's last name and its exception."""


def traits(site: Site) -> Traits:
    function = site.function
    return (
        site.template,
        guard_names(site),
        site.path,
        function,
        _class(function),
        (function or "").rsplit(".", 1)[-1],
        site.exception,
    )


def relation(a: Site, b: Site, *, names: Collection[str] | None = None) -> tuple[int, str] | None:
    """(strength, one-line reason) of how ``b`` relates to ``a`` in the code, or None.
    ``names``: the guard names that may count (the rare ones, when picking); by default all
    uncommon ones."""
    return related_by(traits(a), traits(b), names)


def related_by(
    a: Traits, b: Traits, names: Collection[str] | None = None
) -> tuple[int, str] | None:
    """:func:`relation` of two sites' :func:`traits` (an index build relates 120,000 pairs of
    38,000 sites)."""
    template, guards, path, function, cls, _, exception = a
    b_template, b_guards, b_path, b_function, b_cls, func, b_exception = b
    if template and template == b_template:
        return SAME_MESSAGE, f"the same message, raised in {func} ({b_path})"
    shared = guards & b_guards
    if names is not None:
        shared &= frozenset(names)
    if shared:
        name = max(sorted(shared), key=len)
        return SAME_GUARD, f"also checks {name} (in {func})"
    if path == b_path and function and function == b_function:
        return SAME_FUNCTION, f"checked in the same function, {func}"
    if cls and path == b_path and cls == b_cls:
        return SAME_CLASS, f"in the same class, {cls}"
    if path and path == b_path and exception == b_exception:
        return SAME_FAILURE, f"another {b_exception} of the same module"
    return None


def of_entry(e: Entry) -> Site:
    return Site(e.source.path, e.source.function, e.condition, e.template, e.exception)


def related_why(a: Entry | Site, b: Entry | Site) -> str:
    """The reason printed beside a related entry (entries related before `related` was picked
    from the code, such as removed ones, say so)."""
    return why(
        traits(a if isinstance(a, Site) else of_entry(a)),
        traits(b if isinstance(b, Site) else of_entry(b)),
    )


def why(a: Traits, b: Traits) -> str:
    """:func:`related_why` of two sites' :func:`traits`."""
    found = related_by(a, b)
    return found[1] if found else "similar wording (picked before related came from the code)"
