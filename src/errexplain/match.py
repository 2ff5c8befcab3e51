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

from .index import (
    R_BASE,
    R_CURATED,
    R_FUNC,
    R_ID,
    R_KIND,
    R_LITERAL,
    R_PATH,
    R_POS,
    R_TEMPLATE,
    R_TYPE,
    Index,
    Row,
)
from .models import TYPE_CHECKING, Frame, record
from .normalize import mask, mask_template, words
from .template import compile_template, match_compiled, normalize_ws

if TYPE_CHECKING:
    from collections.abc import Sequence

FUZZY_CUTOFF = 0.80
"""Default score under which a fuzzy candidate is not offered as an explanation."""
TYPE_MISMATCH = 0.85
MAX_POSTING = 2500
FUZZY_POOL = 40
FRAME_FILE, FRAME_FUNC, FRAME_LAST = 0.02, 0.01, 0.01
"""Bonus when a traceback frame is in the entry's file, in its function, the innermost frame."""
BUILTIN_PRIOR = 0.01
"""A message the interpreter/library raises everywhere beats a project site that copies its
wording, unless a frame points at that site."""


@record
class Hit:
    """A scored candidate before its prose is read from the store. `row` is the index row."""

    row: Row
    score: float
    kind: str
    values: tuple[tuple[str, str], ...]
    reasons: tuple[str, ...]

    @property
    def pos(self) -> int:
        return int(self.row[R_POS])

    @property
    def id(self) -> str:
        return str(self.row[R_ID])

    @property
    def template(self) -> str:
        return str(self.row[R_TEMPLATE])


@record
class Ranking:
    hits: tuple[Hit, ...]
    nearest: tuple[Hit, ...]
    ambiguous: bool


def _frame_reason(row: Row, frames: Sequence[Frame]) -> tuple[float, str | None]:
    path = row[R_PATH]
    if not path or not frames:
        return 0.0, None
    func = (row[R_FUNC] or "").rsplit(".", 1)[-1]
    best: tuple[float, str | None] = (0.0, None)
    for depth, frame in enumerate(reversed(frames)):
        fpath = frame.path.replace("\\", "/")
        if not (fpath.endswith("/" + path) or fpath == path):
            continue
        same_func = frame.function == func
        bonus = (
            FRAME_FILE + (FRAME_FUNC if same_func else 0.0) + (FRAME_LAST if depth == 0 else 0.0)
        )
        if bonus > best[0]:
            best = (bonus, f"a traceback frame is in {path}" + (f" ({func})" if same_func else ""))
    return best


def _type_ok(row: Row, exc_type: str) -> bool:
    if not exc_type:
        return True
    short = exc_type.rsplit(".", 1)[-1]
    return short in (row[R_TYPE], row[R_BASE])


def _adjust(
    row: Row, score: float, reasons: list[str], exc_type: str, frames: Sequence[Frame]
) -> float:
    """Apply the type penalty, the frame bonus or the builtin prior; explain each."""
    if not _type_ok(row, exc_type):
        score *= TYPE_MISMATCH
        reasons.append(f"but the catalog raises {row[R_TYPE]}, not {exc_type}")
    bonus, why = _frame_reason(row, frames)
    if why:
        reasons.append(why)
    elif row[R_KIND] == "builtin":
        bonus = BUILTIN_PRIOR
        reasons.append("raised by the interpreter or library itself, in any code")
    return min(1.0, score + bonus)


def _exact(index: Index, msg: str, exc_type: str, frames: Sequence[Frame]) -> list[Hit]:
    hits = []
    seen: set[int] = set()
    present = set(words(msg))
    for w in present:
        for row in index.bucket(w, present):
            if row[R_POS] in seen:
                continue
            seen.add(row[R_POS])
            compiled = compile_template(row[R_TEMPLATE])
            values = match_compiled(compiled, msg)
            if values is None:
                continue
            literal = row[R_LITERAL]
            coverage = min(1.0, literal / max(len(msg), 1))
            reasons = [
                f"exact template match ({literal} of {len(msg)} characters are literal text)"
            ]
            score = _adjust(row, 0.85 + 0.15 * coverage, reasons, exc_type, frames)
            pairs = tuple((n, v.strip()) for n, v in zip(compiled.names, values, strict=True))
            hits.append(Hit(row, score, "exact", pairs, tuple(reasons)))
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
    for pos in _fuzzy_pool(index, set(words(msg))):
        row = index.row(pos)
        score, why = _fuzzy_score(masked, mask_template(row[R_TEMPLATE]))
        reasons = [f"fuzzy: {why}, {score:.0%} similar after masking values"]
        score = _adjust(row, score, reasons, exc_type, frames)
        hits.append(Hit(row, score, "fuzzy", (), tuple(reasons)))
    return hits


def _order(hits: list[Hit]) -> list[Hit]:
    def key(h: Hit) -> tuple[float, int, int, int, str]:
        r = h.row
        return (
            -round(h.score, 6),
            -r[R_LITERAL],
            -int(r[R_CURATED]),
            len(r[R_PATH] or ""),
            r[R_ID],
        )

    return sorted(hits, key=key)


def _ambiguous(hits: Sequence[Hit]) -> bool:
    """True when the best template is raised at several sites that nothing tells apart."""
    if len(hits) < 2:
        return False
    top = hits[0]
    return any(h.template == top.template and abs(h.score - top.score) < 1e-9 for h in hits[1:])


def rank(
    index: Index,
    message: str,
    exc_type: str = "",
    frames: Sequence[Frame] = (),
    *,
    cutoff: float = FUZZY_CUTOFF,
    limit: int = 5,
) -> Ranking:

    """Rank catalog entries for one message. Empty `hits` means no match."""
    msg = normalize_ws(message)
    if not msg:
        return Ranking((), (), False)
    hits = _exact(index, msg, exc_type, frames)
    if not any(_type_ok(h.row, exc_type) for h in hits):
        hits.extend(_fuzzy(index, msg, exc_type, frames))
    best: dict[int, Hit] = {}
    for h in hits:
        if h.pos not in best or h.score > best[h.pos].score:
            best[h.pos] = h
    ordered = _order(list(best.values()))
    good = [h for h in ordered if h.score >= cutoff]
    if not good:
        return Ranking((), tuple(ordered[:3]), False)
    return Ranking(tuple(good[:limit]), (), _ambiguous(good))


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
    scored = []
    for pos in pool:
        template = index.row(pos)[R_TEMPLATE]
        text = compile_template(template).literal_text.lower()
        scored.append((pos, fuzz.token_set_ratio(q, text) / 100.0, len(template)))
    scored.sort(key=lambda t: (-t[1], t[2], t[0]))
    return [(pos, score) for pos, score, _ in scored[:limit]]
