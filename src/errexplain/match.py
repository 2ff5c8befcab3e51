"""Ranking catalog entries against one error message.

Two passes over a small candidate set taken from the index:

1. exact: every template filed under a word of the message is matched in full (literal text
   must match, placeholders bind values); score 0.85-1.0 by how much of the message is literal;
2. fuzzy (only when no exact match has the right type): candidates sharing rare words with the
   message, scored with rapidfuzz on masked text (numbers, paths, quoted names hidden), so
   reworded, truncated or other-version messages still find their entry.

Scores are in [0, 1]; anything under the cutoff is "no match" and comes back as `nearest`.
The exception type counts (a wrong type costs 15 %); frames break ties between sites that share
a template. Templates with too little literal text never become candidates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .index import Index
from .models import Frame
from .normalize import mask, mask_template, words
from .template import compile_template, match_compiled, normalize_ws

FUZZY_CUTOFF = 0.80
"""Default score under which a fuzzy candidate is not offered as an explanation."""
TYPE_MISMATCH = 0.85
MAX_POSTING = 2500
FUZZY_POOL = 40
BUILTIN_PRIOR = 0.01
"""A message the interpreter/library raises everywhere beats a project site that copies its
wording, unless a frame points at that site."""


@dataclass(frozen=True, slots=True)
class Hit:
    """A scored candidate before its prose is read from the store."""

    pos: int
    score: float
    kind: str
    values: tuple[tuple[str, str], ...]
    reasons: tuple[str, ...]
    literal: int


@dataclass(frozen=True, slots=True)
class Ranking:
    hits: tuple[Hit, ...]
    nearest: tuple[Hit, ...]
    ambiguous: bool


def _norm_path(path: str) -> str:
    return path.replace("\\", "/")


def _frame_reason(index: Index, pos: int, frames: Sequence[Frame]) -> tuple[float, str | None]:
    path = index.main["paths"][pos]
    if not path or not frames:
        return 0.0, None
    func = (index.main["funcs"][pos] or "").rsplit(".", 1)[-1]
    best: tuple[float, str | None] = (0.0, None)
    for depth, frame in enumerate(reversed(frames)):
        fpath = _norm_path(frame.path)
        if not (fpath.endswith("/" + path) or fpath == path):
            continue
        bonus = 0.02 + (0.01 if frame.function == func else 0.0) + (0.01 if depth == 0 else 0.0)
        if bonus > best[0]:
            best = (bonus, f"a traceback frame is in {path}" + (
                f" ({func})" if frame.function == func else ""))
    return best


def _type_ok(index: Index, pos: int, exc_type: str) -> bool:
    if not exc_type:
        return True
    short = exc_type.rsplit(".", 1)[-1]
    return short in (index.main["types"][pos], index.main["bases"][pos])


def _exact(index: Index, msg: str, exc_type: str, frames: Sequence[Frame]) -> list[Hit]:
    rare = index.main["rare"]
    cands: set[int] = set()
    for w in set(words(msg)):
        cands.update(rare.get(w, ()))
    hits = []
    templates = index.main["templates"]
    for pos in cands:
        compiled = compile_template(templates[pos])
        values = match_compiled(compiled, msg)
        if values is None:
            continue
        literal = compiled.literal_len
        coverage = min(1.0, literal / max(len(msg), 1))
        score = 0.85 + 0.15 * coverage
        reasons = [f"exact template match ({literal} of {len(msg)} characters are literal text)"]
        if not _type_ok(index, pos, exc_type):
            score *= TYPE_MISMATCH
            reasons.append(f"but the catalog raises {index.main['types'][pos]}, not {exc_type}")
        bonus, why = _frame_reason(index, pos, frames)
        if why:
            reasons.append(why)
        elif index.main["kinds"][pos] == "builtin":
            bonus = BUILTIN_PRIOR
            reasons.append("raised by the interpreter or library itself, in any code")
        pairs = tuple((n, v.strip()) for n, v in zip(compiled.names, values, strict=True))
        hits.append(Hit(pos, min(1.0, score + bonus), "exact", pairs, tuple(reasons), literal))
    return hits


def _fuzzy_pool(index: Index, msg_words: set[str]) -> list[int]:
    fz = index.fuzzy
    post, idf, wsum = fz["post"], fz["idf"], fz["wsum"]
    acc: dict[int, float] = {}
    for w in msg_words:
        plist = post.get(w)
        if not plist or len(plist) > MAX_POSTING:
            continue
        weight = idf[w]
        for pos in plist:
            acc[pos] = acc.get(pos, 0.0) + weight
    ranked = sorted(acc, key=lambda p: (-acc[p] / (wsum[p] or 1.0), p))
    return ranked[:FUZZY_POOL]


def _fuzzy_score(masked_msg: str, masked_tmpl: str) -> tuple[float, str]:
    from rapidfuzz import fuzz

    full = fuzz.ratio(masked_msg, masked_tmpl) / 100.0
    if 25 <= len(masked_msg) < len(masked_tmpl):
        head = fuzz.ratio(masked_msg, masked_tmpl[: len(masked_msg)]) / 100.0
        prefix = head * (0.9 + 0.1 * len(masked_msg) / len(masked_tmpl))
        if prefix > full:
            return prefix, "the message reads like the start of this template (cut off?)"
    return full, "similar wording"


def _fuzzy(index: Index, msg: str, exc_type: str, frames: Sequence[Frame]) -> list[Hit]:
    masked = mask(msg)
    hits = []
    templates = index.main["templates"]
    for pos in _fuzzy_pool(index, set(words(msg))):
        tmpl = templates[pos]
        score, why = _fuzzy_score(masked, mask_template(tmpl))
        reasons = [f"fuzzy: {why}, {score:.0%} similar after masking values"]
        if not _type_ok(index, pos, exc_type):
            score *= TYPE_MISMATCH
            reasons.append(f"but the catalog raises {index.main['types'][pos]}, not {exc_type}")
        bonus, frame_why = _frame_reason(index, pos, frames)
        if frame_why:
            reasons.append(frame_why)
        literal = compile_template(tmpl).literal_len
        hits.append(Hit(pos, min(1.0, score + bonus), "fuzzy", (), tuple(reasons), literal))
    return hits


def _order(index: Index, hits: list[Hit]) -> list[Hit]:
    m = index.main

    def key(h: Hit) -> tuple[float, int, int, int, str]:
        path = m["paths"][h.pos] or ""
        curated = int(m["curated"][h.pos])
        return (-round(h.score, 6), -h.literal, -curated, len(path), m["ids"][h.pos])

    return sorted(hits, key=key)


def _ambiguous(index: Index, hits: Sequence[Hit]) -> bool:
    """True when the best template is raised at several sites that nothing tells apart."""
    if len(hits) < 2:
        return False
    tmpl = index.main["templates"]
    top = hits[0]
    twins = [h for h in hits[1:] if tmpl[h.pos] == tmpl[top.pos]]
    return any(abs(h.score - top.score) < 1e-9 for h in twins)


def rank(index: Index, message: str, exc_type: str = "", frames: Sequence[Frame] = (),
         *, cutoff: float = FUZZY_CUTOFF, limit: int = 5) -> Ranking:
    """Rank catalog entries for one message. Empty `hits` means no match."""
    msg = normalize_ws(message)
    if not msg:
        return Ranking((), (), False)
    hits = _exact(index, msg, exc_type, frames)
    if not any(_type_ok(index, h.pos, exc_type) for h in hits):
        hits.extend(_fuzzy(index, msg, exc_type, frames))
    best: dict[int, Hit] = {}
    for h in hits:
        if h.pos not in best or h.score > best[h.pos].score:
            best[h.pos] = h
    ordered = _order(index, list(best.values()))
    good = [h for h in ordered if h.score >= cutoff]
    if not good:
        return Ranking((), tuple(ordered[:3]), False)
    return Ranking(tuple(good[:limit]), (), _ambiguous(index, good))


def search(index: Index, query: str, limit: int = 10) -> list[tuple[int, float]]:
    """Entries whose template best fits some keywords, best first, as (position, score)."""
    from rapidfuzz import fuzz

    qwords = set(words(query))
    post, idf = index.fuzzy["post"], index.fuzzy["idf"]
    acc: dict[int, float] = {}
    for w in qwords:
        for pos in post.get(w, ()):
            acc[pos] = acc.get(pos, 0.0) + idf[w]
    pool = sorted(acc, key=lambda p: (-acc[p], p))[:200]
    q = query.lower()
    templates = index.main["templates"]
    scored = []
    for pos in pool:
        text = compile_template(templates[pos]).literal_text.lower()
        scored.append((pos, fuzz.token_set_ratio(q, text) / 100.0))
    scored.sort(key=lambda t: (-t[1], len(templates[t[0]]), t[0]))
    return scored[:limit]
