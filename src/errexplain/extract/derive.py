"""The derived layer: a factual ``meaning`` of uncurated entries and the ``related`` ids of
every live entry, picked from the code (errexplain.catalog.relation)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from rapidfuzz import fuzz, utils

from errexplain.catalog.relation import SAME_FAILURE, SAME_FUNCTION, related_by, traits
from errexplain.catalog.relation import Site as RelSite
from errexplain.extract.records import Site
from errexplain.match.template import compile_template
from errexplain.models import (
    LOCATED_CHECKS,
    PRINTED,
    UNRAISED_KINDS,
    WARNED,
    cpp_check,
    is_test_path,
)

MAX_RELATED = 6
FAILURE_SIMILARITY = 50
"""The weakest relation (another error of the same class in the same module) counts only with
this much wording in common (rapidfuzz token_set_ratio)."""
_MAX_NAME_DF = 40
"""A guard name that more checks than this test is too common to relate them."""
_MAX_MODULE = 400


def meaning(facts: Site) -> str:
    """One factual sentence built from the site: where, under which condition, and its doc."""
    func = facts.function
    where = f"at module level of `{facts.path}`" if func == "<module>" else f"by `{func}`"
    cond = facts.condition
    when = (f" when `{cond}`" if cond else "") + (
        f" while handling `{facts.handling}`" if facts.handling else ""
    )
    text = _what(facts, where, when)
    if facts.doc and func != "<module>":
        text += f" (`{func}`: {facts.doc})"
    return text


def _what(facts: Site, where: str, when: str) -> str:
    """What the site does with its message, by kind."""
    cond = facts.condition
    if facts.kind == "assert":
        text = f"Assertion {where.replace('by ', 'in ', 1)} failed: `{cond}`."
    elif facts.kind == "lookup":
        text = (
            f"Key lookup {where.replace('by ', 'in ', 1)} failed: `{facts.statement}` looks up a"
            " name in a dict of the model's own parameters, so the name (the KeyError's value)"
            " is not a parameter of this model."
        )
    elif facts.kind == "log" and facts.via == WARNED:
        text = (
            f"Issued with `warnings.warn` {where}{when} (Python prints it as `path:line: "
            "Category: message`), not raised."
        )
    elif facts.kind == "log" and facts.via == PRINTED:
        text = (
            f"Printed with `print` {where.replace('by ', 'in ', 1)}{when} (no logger, no "
            "exception), not raised."
        )
    elif facts.kind == "log":
        text = f"Logged at {facts.exception} level {where}{when}."
    elif facts.kind == "recorded":
        text = (
            f"Recorded {where}{when} as a failure reason; the `{facts.exception}` raised later"
            " for that request carries this text."
        )
    elif facts.kind == "abort" and facts.via:
        text = (
            f"Sent to the client as the failed result of its request ({facts.via}) "
            f"{where}{when}, not raised."
        )
    elif facts.kind == "abort":
        text = f"Sent to the client as its request's error {where}{when} (aborted, not raised)."
    else:
        text = _raised(facts, where, when)
    return text


def _raised(facts: Site, where: str, when: str) -> str:
    """How a raise site's exception is made: by a helper that raises it, built by one, or
    in place."""
    check = cpp_check(facts.via)
    if check:
        shown = (
            ", with `Failed at <file>:<line>: ` before the message"
            if check in LOCATED_CHECKS
            else ""
        )
        return (
            f"Thrown by the C++ check `{check}` {where.replace('by ', 'in ', 1)}"
            + (f"{when}" if when else "")
            + f" (a kernel compiled at run time): Python shows it as a {facts.exception}{shown}."
        )
    if facts.via:
        name, _, at = facts.via.partition(" at ")
        return (
            f"Raised by helper `{name}`" + (f" ({at})" if at else "") + f", called {where}{when}."
        )
    if facts.helper:
        return f"Built {where}, whose callers raise it" + (f",{when}." if when else ".")
    if facts.built:
        name, _, at = facts.built.partition(" at ")
        return f"Raised {where}{when}, the exception built by `{name}` ({at})."
    return f"Raised {where}{when}."


def _relation_site(site: Site) -> RelSite:
    return RelSite(site.path, site.function, site.condition, site.template, site.exception)


class RelatedIndex:
    """Finds the entries related to an entry in the code (errexplain.catalog.relation): the
    same function, the same message raised elsewhere, a rare guard name in common, the same
    class, or the same failure in the same module; wording similarity only orders them (and
    must be fair for the weakest relation)."""

    def __init__(self, entries: Sequence[tuple[str, Site]]) -> None:
        self.ids = [i for i, _ in entries]
        self.entries = [s for _, s in entries]
        self.texts = [
            utils.default_process(compile_template(e.template).literal_text) for e in self.entries
        ]
        self.by_func: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.by_template: dict[str, list[int]] = defaultdict(list)
        self.by_path: dict[str, list[int]] = defaultdict(list)
        # guard names by language: a kernel's C++ checks share names (`topk_ids`) with the
        # Python code around them, which would make those names common for both
        self.by_name: dict[tuple[bool, str], list[int]] = defaultdict(list)
        self.py = [e.path.endswith(".py") for e in self.entries]
        self.traits = [traits(_relation_site(s)) for s in self.entries]
        self.names = [t[1] for t in self.traits]  # (guard names)
        for i, e in enumerate(self.entries):
            self.by_func[(e.path, e.function)].append(i)
            self.by_template[e.template].append(i)
            self.by_path[e.path].append(i)
            for n in self.names[i]:
                self.by_name[(self.py[i], n)].append(i)
        self.rare = {
            lang: frozenset(
                n
                for (py, n), ids in self.by_name.items()
                if py is lang and len(ids) <= _MAX_NAME_DF
            )
            for lang in (True, False)
        }

    def _offered(self, j: int, me: Site) -> bool:
        """Entries without a message are never offered as related (nothing to read), nor
        logged errors to a raise/assert site, nor a test file's checks to library code, nor a
        compiled check (C/C++) to a Python one by a guard name alone."""
        other = self.entries[j]
        if is_test_path(other.path) and not is_test_path(me.path):
            return False  # a library check is not related to the project's own tests
        if other.path.endswith(".py") != me.path.endswith(".py") and other.template != me.template:
            return False  # (`success` guarded in a kernel and in a benchmark: nothing in common)
        return bool(other.template) and (
            other.kind not in UNRAISED_KINDS or me.kind in UNRAISED_KINDS
        )

    def _candidates(self, i: int) -> set[int]:
        me = self.entries[i]
        out = set(self.by_func[(me.path, me.function)]) | set(self.by_template[me.template])
        for n in self.names[i] & self.rare[self.py[i]]:
            out.update(self.by_name[(self.py[i], n)])
        if len(self.by_path[me.path]) <= _MAX_MODULE:
            out.update(self.by_path[me.path])
        out.discard(i)
        return out

    def related(self, i: int) -> list[str]:
        me = self.entries[i]
        ranked = []
        for j in self._candidates(i):
            if not self._offered(j, me):
                continue
            found = related_by(self.traits[i], self.traits[j], self.rare[self.py[i]])
            if found is None:
                continue
            similar = fuzz.token_set_ratio(self.texts[i], self.texts[j]) if self.texts[i] else 0
            if found[0] == SAME_FAILURE and similar < FAILURE_SIMILARITY:
                continue
            distance = abs(self.entries[j].line - me.line) if self.entries[j].path == me.path else 0
            near = distance if found[0] == SAME_FUNCTION else 0  # in a function: nearest first
            ranked.append((-found[0], near, -similar, distance, self.ids[j]))
        ranked.sort()
        return [ident for *_, ident in ranked if ident != self.ids[i]][:MAX_RELATED]


def related_ids(entries: Iterable[tuple[str, Site]], wanted: set[str]) -> dict[str, list[str]]:
    """``related`` for each (id, site) whose id is in ``wanted``, computed over all ``entries``."""
    index = RelatedIndex(sorted(entries, key=lambda e: (e[1].path, e[1].line, e[0])))
    return {ident: index.related(i) for i, ident in enumerate(index.ids) if ident in wanted}
