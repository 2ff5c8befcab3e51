"""Cross-file resolution: builtin bases of custom exception classes and helper-built errors."""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterable

from errexplain._startup import Record, replace
from errexplain.extract.helpers import fill_pattern
from errexplain.extract.records import (
    RETURNED,
    CallInfo,
    ClassInfo,
    FileResult,
    HelperInfo,
    Site,
)
from errexplain.match.template import compile_template
from errexplain.models import UNRAISED_KINDS

BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
)
_EXCEPTION_NAME = re.compile(r"(Error|Exception|Warning|Exit|Interrupt|Failure|Abort)$")


class ClassTable:
    """Every class defined in the tree, to walk a custom exception up to its builtin base."""

    def __init__(self, classes: Iterable[ClassInfo]) -> None:
        self._by_name: dict[str, list[ClassInfo]] = {}
        for info in classes:
            self._by_name.setdefault(info.name, []).append(info)

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def base(self, name: str, path: str | None = None, seen: frozenset[str] = frozenset()) -> str:
        """The builtin base of ``name``, else the outermost base found as written, else itself."""
        if name in BUILTIN_EXCEPTIONS or name in seen or name not in self._by_name:
            return name
        infos = sorted(self._by_name[name], key=lambda i: (i.path != path, i.path))
        fallback: str | None = None
        for info in infos:
            for written in info.bases:
                resolved = self.base(written, info.path, seen | {name})
                if resolved in BUILTIN_EXCEPTIONS:
                    return resolved
                fallback = fallback or resolved
        return fallback or name

    def is_exception(self, name: str) -> bool:
        base = self.base(name)
        return bool(
            base in BUILTIN_EXCEPTIONS
            or _EXCEPTION_NAME.search(base)
            or _EXCEPTION_NAME.search(name)
        )


class Resolved(Record):
    sites: tuple[Site, ...]
    warnings: tuple[str, ...]


def _helper_map(sites: list[Site], table: ClassTable) -> dict[str, Site]:
    """Helper function name (last part) -> the exception-building return site in it."""
    helpers: dict[str, Site] = {}
    for site in sites:
        if site.helper and table.is_exception(site.exception):
            name = site.function.rsplit(".", 1)[-1]
            if name not in helpers or (site.constant and not helpers[name].constant):
                helpers[name] = site
    return helpers


def _repr_quoted(template: str) -> str:
    """``str(KeyError(msg))`` is ``repr(msg)``: quote the template the way repr would."""
    literal = compile_template(template).literal_text
    quote = '"' if "'" in literal and '"' not in literal else "'"
    return quote + template + quote


def _finish(site: Site, exception: str, table: ClassTable, via: str | None = None) -> Site:
    base = table.base(exception, site.path) if exception in table else None
    template = site.template
    if template and site.single and site.constant and "KeyError" in (exception, base):
        template = _repr_quoted(template)
    return replace(
        site,
        exception=exception,
        template=template,
        base=None if base == exception else base,
        via=via or site.via,
    )


def _raise_site(
    site: Site, helpers: dict[str, Site], table: ClassTable, notes: list[str]
) -> Site | None:
    """A raise/assert site with its exception resolved (through a helper that builds it), or
    None when the message is recorded in the helper or the raised name is no exception. A
    raise of what a helper of its own file builds with text of its own (`raise
    _died_error(rank, proc)`) is recorded with the helper's message as well: the traceback
    points at the raise, and the helper is named as the builder (its placeholders are the
    helper's parameters, whatever the call passes)."""
    where = f"{site.path}:{site.line}"
    exception = site.exception
    helper = helpers.get(exception) if exception not in table else None
    via = None
    if helper is not None:
        if helper.constant and helper.path == site.path:
            built = f"{helper.function} at {helper.path}:{helper.line}"
            own = replace(
                site, template=helper.template, constant=True, single=helper.single, built=built
            )
            return _finish(own, helper.exception, table)
        # The message is written either in the helper (recorded there) or here.
        if helper.constant or not site.constant or not site.template:
            notes.append(
                f"{where}: message is built in helper {exception}(); "
                f"recorded at {helper.path}:{helper.line}"
            )
            return None
        exception = helper.exception
        via = f"{helper.function} at {helper.path}:{helper.line}"
    elif not site.template and not table.is_exception(exception):
        return None  # `raise Something` of a name that is no exception class
    if not site.constant:
        notes.append(f"{where}: message is not a constant")
    return _finish(site, exception, table, via)


def _exported(results: list[FileResult]) -> dict[str, list[HelperInfo]]:
    found: dict[str, list[HelperInfo]] = {}
    for r in results:
        for h in r.helpers:
            found.setdefault(h.name, []).append(h)
    return found


def _helper_of(call: CallInfo, exported: dict[str, list[HelperInfo]]) -> HelperInfo | None:
    """The helper an imported name refers to: defined in the module it is imported from, or
    in a module below that package (``from pkg.utils import f`` re-exported from
    ``pkg/utils/common.py``); None unless exactly one fits."""
    inside = call.module + "."
    fits = [
        h
        for h in exported.get(call.callee, ())
        if h.module == call.module or h.module.startswith(inside)
    ]
    exact = [h for h in fits if h.module == call.module]
    fits = exact or fits
    return fits[0] if len(fits) == 1 else None


def _called_sites(results: list[FileResult]) -> list[Site]:
    """Call statements that hand literal text to a helper of another module: a site at the
    call, raising what the helper raises, ``via`` the helper and its raise."""
    exported = _exported(results)
    sites: list[Site] = []
    if not exported:
        return sites
    for r in results:
        for call in r.calls:
            helper = _helper_of(call, exported)
            if helper is None:
                continue
            template = fill_pattern(helper, {key: (t, c) for key, t, c in call.args})
            if template is None:
                continue
            sites.append(
                Site(
                    path=call.path,
                    line=call.line,
                    kind="raise",
                    exception=helper.exception,
                    template=template,
                    function=call.function,
                    condition=call.condition,
                    doc=call.doc,
                    constant=True,
                    single=True,
                    handling=call.handling,
                    via=f"{helper.name} at {helper.path}:{helper.line}",
                )
            )
    return sites


def _validators(results: list[FileResult]) -> set[str]:
    """The functions whose returned texts a client reads: those a file hands its client, and
    (over any number of steps) those whose result such a function returns."""
    found = {name for r in results for name in r.validators}
    pairs = [pair for r in results for pair in r.returned_calls]
    grew = True
    while grew:
        more = {callee for caller, callee in pairs if caller in found} - found
        found |= more
        grew = bool(more)
    return found


def resolve(results: Iterable[FileResult]) -> Resolved:
    """Resolve bases and helpers over all files; drop helper returns that are not exceptions."""
    results = list(results)
    table = ClassTable(c for r in results for c in r.classes)
    sites = [s for r in results for s in r.sites]
    sites += _called_sites(results)
    helpers = _helper_map(sites, table)
    validators = _validators(results)
    out: list[Site] = []
    notes: list[str] = []
    for site in sites:
        if site.kind == RETURNED:
            # a text returned by a function whose caller sends it as a request's error
            if site.function.rsplit(".", 1)[-1] in validators:
                out.append(replace(site, kind="abort"))
        elif site.kind in UNRAISED_KINDS:
            out.append(site)
        elif site.helper:
            if site.constant and table.is_exception(site.exception):
                out.append(_finish(site, site.exception, table))
        else:
            done = _raise_site(site, helpers, table, notes)
            if done is not None:
                out.append(done)
    out.sort(key=lambda s: (s.path, s.line, s.kind, s.template))
    return Resolved(tuple(out), tuple(notes))
