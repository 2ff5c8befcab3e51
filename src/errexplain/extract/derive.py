"""The derived layer: a factual ``meaning`` and the ``related`` ids of uncurated entries."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from rapidfuzz import fuzz, process, utils

from errexplain.extract.records import Site
from errexplain.match.template import compile_template

MAX_RELATED = 5
FUZZY_CUTOFF = 70
_MAX_CANDIDATES = 60
_MAX_TOKEN_DF = 400
_TOKEN = re.compile(r"[a-z_][a-z0-9_]{2,}")


def meaning(facts: Site) -> str:
    """One factual sentence built from the site: where, under which condition, and its doc."""
    func = facts.function
    where = f"at module level of `{facts.path}`" if func == "<module>" else f"by `{func}`"
    cond = facts.condition
    when = (f" when `{cond}`" if cond else "") + (
        f" while handling `{facts.handling}`" if facts.handling else ""
    )
    if facts.kind == "assert":
        text = f"Assertion {where.replace('by ', 'in ', 1)} failed: `{cond}`."
    elif facts.kind == "log":
        text = f"Logged at {facts.exception} level {where}{when}."
    elif facts.via:
        text = f"Raised by helper `{facts.via}`, called {where}{when}."
    elif facts.helper:
        text = f"Built {where}, whose callers raise it" + (f",{when}." if when else ".")
    else:
        text = f"Raised {where}{when}."
    if facts.doc and func != "<module>":
        text += f" (`{func}`: {facts.doc})"
    return text


def _tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.lower()))


class RelatedIndex:
    """Finds related entries: same function, same template, then similar literal text."""

    def __init__(self, entries: Sequence[tuple[str, Site]]) -> None:
        self.ids = [i for i, _ in entries]
        self.entries = [s for _, s in entries]
        self.by_func: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.by_template: dict[str, list[int]] = defaultdict(list)
        self.texts = [compile_template(e.template).literal_text for e in self.entries]
        self.processed = [utils.default_process(t) for t in self.texts]
        self.tokens = [_tokens(t) for t in self.texts]
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, e in enumerate(self.entries):
            self.by_func[(e.path, e.function)].append(i)
            self.by_template[e.template].append(i)
            if e.kind != "log":  # logged errors never change a raise site's related ids
                for tok in self.tokens[i]:
                    self.postings[tok].append(i)
        self.df = Counter({tok: len(ids) for tok, ids in self.postings.items()})

    def _candidates(self, i: int) -> list[int]:
        ranked = sorted((self.df[t], t) for t in self.tokens[i] if 1 < self.df[t] <= _MAX_TOKEN_DF)
        seen: dict[int, None] = {}
        for _, tok in ranked[:4]:
            for j in self.postings[tok]:
                if j != i:
                    seen[j] = None
            if len(seen) >= _MAX_CANDIDATES:
                break
        return sorted(seen)[:_MAX_CANDIDATES]

    def _fuzzy(self, i: int) -> list[int]:
        if not self.texts[i]:
            return []
        cands = self._candidates(i)
        if not cands:
            return []
        hits = process.extract(
            self.processed[i],
            [self.processed[j] for j in cands],
            scorer=fuzz.token_set_ratio,
            processor=None,
            score_cutoff=FUZZY_CUTOFF,
            limit=3 * MAX_RELATED,
        )
        ranked = sorted(
            (-score, -fuzz.ratio(self.processed[i], text), cands[k]) for text, score, k in hits
        )
        return [j for _, _, j in ranked]

    def _offered(self, j: int, me: Site) -> bool:
        """Entries without a message are never offered as related (nothing to read), nor
        logged errors to a raise/assert site."""
        other = self.entries[j]
        return bool(other.template) and (other.kind != "log" or me.kind == "log")

    def related(self, i: int) -> list[str]:
        me = self.entries[i]
        same_func = sorted(
            (j for j in self.by_func[(me.path, me.function)] if j != i and self._offered(j, me)),
            key=lambda j: (abs(self.entries[j].line - me.line), self.entries[j].line),
        )
        same_text = [j for j in self.by_template[me.template] if j != i and self._offered(j, me)]
        picked: dict[str, None] = {}
        for group in (same_func, same_text):
            for j in group:
                picked.setdefault(self.ids[j], None)
        if len(picked) < MAX_RELATED:
            for j in self._fuzzy(i):
                if self._offered(j, me):
                    picked.setdefault(self.ids[j], None)
        return [x for x in picked if x != self.ids[i]][:MAX_RELATED]


def related_ids(entries: Iterable[tuple[str, Site]], wanted: set[str]) -> dict[str, list[str]]:
    """``related`` for each (id, site) whose id is in ``wanted``, computed over all ``entries``."""
    index = RelatedIndex(sorted(entries, key=lambda e: (e[1].path, e[1].line, e[0])))
    return {ident: index.related(i) for i, ident in enumerate(index.ids) if ident in wanted}
