"""parse -> match -> Explanation. Pure: the index is passed in."""

from __future__ import annotations

from .generic import describe
from .index import Index
from .match import FUZZY_CUTOFF, Hit, rank
from .models import Explanation, Match, RaisedError, Related
from .parse import parse_traceback


def _to_match(index: Index, hit: Hit) -> Match:
    entry = index.entry(hit.pos)
    related = tuple(Related(*r) for r in index.related(hit.pos))
    return Match(entry, hit.score, "exact" if hit.kind == "exact" else "fuzzy", hit.values,
                 hit.reasons, related)


def _known_base(index: Index, exc_type: str) -> str | None:
    return index.known_base(exc_type.rsplit(".", 1)[-1])


def explain_error(error: RaisedError, index: Index, *, cutoff: float = FUZZY_CUTOFF
                  ) -> Explanation:
    """Explain one parsed error."""
    ranking = rank(index, error.message, error.type, error.frames, cutoff=cutoff)
    matches = tuple(_to_match(index, h) for h in ranking.hits)
    nearest = tuple(_to_match(index, h) for h in ranking.nearest)
    notes = []
    if ranking.ambiguous:
        notes.append("the same message is raised at several places and the traceback does not "
                     "tell them apart: all are listed")
    if error.truncated:
        notes.append("the traceback looks truncated: no final exception line was found")
    generic = None
    if not matches or matches[0].entry.derived:
        found = describe(error.type, _known_base(index, error.type)) if error.type else None
        if found:
            cls, text = found
            generic = text if cls == error.short_type else f"(nearest known class {cls}) {text}"
    return Explanation(error, matches, nearest, ranking.ambiguous, generic, tuple(notes))


def explain_text(text: str, index: Index, *, cutoff: float = FUZZY_CUTOFF
                 ) -> tuple[Explanation, ...]:
    """Explain every distinct error found in pasted text."""
    return tuple(explain_error(e, index, cutoff=cutoff) for e in parse_traceback(text))


def explain_message(message: str, exc_type: str, index: Index, *,
                    cutoff: float = FUZZY_CUTOFF) -> Explanation:
    """Explain a bare message (no traceback)."""
    return explain_error(RaisedError(exc_type, message), index, cutoff=cutoff)
