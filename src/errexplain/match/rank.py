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

from errexplain._startup import TYPE_CHECKING, Record, compile_regex, memo, replace
from errexplain.match.normalize import mask, mask_template, template_words, words
from errexplain.match.release import Window
from errexplain.match.template import (
    VALUE_MIN,
    compile_loose,
    compile_template,
    infix_reading,
    loosen,
    match_compiled,
    match_infix,
    match_prefix,
    normalize_ws,
    one_value,
    sentence_stops,
    spans_inside,
)
from errexplain.models import (
    CPP_SUFFIXES,
    ELLIPSES,
    UNRAISED_KINDS,
    Candidate,
    Frame,
    at_lines,
    raises_here,
    release_numbers,
)

if TYPE_CHECKING:
    from collections.abc import Sequence, Set

    from errexplain.match.template import Compiled
    from errexplain.models import CatalogView

FUZZY_CUTOFF = 0.80
"""Default score under which a fuzzy candidate is not offered as an explanation."""
TYPE_MISMATCH = 0.85
MAX_POSTING = 2500
FUZZY_POOL = 40
COVER_POOL = 8
EXACT_CONFIDENT = 0.6
"""Share of the message an exact hit's literal text must cover to skip the fuzzy pass."""
FUZZY_SCALE = 0.95
"""A similarity ratio never scores like a sure match: identical after masking is 0.95."""
MIN_LOOSE, LOOSE_BASE, LOOSE_SPAN = 10, 0.70, 0.29
"""Whole-message match ignoring case/punctuation: minimum literal text, score range (by how
much of the message the literal text covers: placeholders that swallow most of a message make
a weak match)."""
SHORT_LITERAL = 30
"""An exact match whose template has less literal text than this and opens with a placeholder
is generic (`<x> is not supported yet` shares only its last words with the message): its score
is lowered in proportion, so it cannot win with confidence. A template that opens with its
literal text (`NCCL error: <detail>`) names the error's family and keeps its score."""
TYPE_SOFT = 0.03
"""The type penalty when the text agrees fully: a refactor that changed the class (ValueError
-> RuntimeError) keeps the text; the full TYPE_MISMATCH applies as agreement falls."""
PROBABLE_MIN, PROBABLE_LEAD, PROBABLE_LITERAL = 0.62, 0.12, 30
"""No candidate reached the cutoff, but one is this far ahead of every other template, with
at least this many characters of its literal words in the message: a probable answer."""
CHUNK_BASE, CHUNK_BASE_FIXED = 0.85, 0.6
"""Literal-word fuzzy score kept when the literal text covers none of the message."""
MIN_PREFIX, PREFIX_SHARE, PREFIX_BASE, PREFIX_SPAN = 20, 0.4, 0.75, 0.2
"""Cut-off message: minimum literal characters and share of the template, score range."""
BOUNDARY_SHARE = 0.75
"""A message that ends exactly where a literal chunk of the template ends (before a
placeholder such as `<help>`): pasted up to a natural boundary, not cut mid-text; it counts as
this share of the template at least."""
FRAME_FILE, FRAME_FUNC, FRAME_LAST, FRAME_LINE = 0.02, 0.01, 0.01, 0.01
"""Bonus when a traceback frame is in the entry's file, in its function, the innermost frame,
at its line (or showing its guard)."""
LOCATED_RELIEF = 0.15
"""How much lower the cutoff is for a candidate raised in the innermost frame's function: the
traceback says the error was raised there, so text that agrees only in part (a reworded or cut
message) is enough. Measured on the synthetic bench (3000 sampled, one run): 0.06 -> 0.15 took
'word dropped' 94.9 -> 96.2 % and 'older wording' 95.7 -> 97.4 %, the real dev pastes unchanged."""
ENDS_ELSEWHERE = 0.10
"""A raise site in none of the paste's frames, whose traceback ends in another file of the same
project: the exception came from below that frame (a library call, a kernel), not from this
site; a look-alike of the same words at best."""
LOGGED_TYPED = 0.12
"""A logged message (kind log) explains a log line; an error printed with an exception type was
raised, so a raise site with the same text comes first."""
OLDER_PRIOR, OLDER_AGE, RELEASE_FIT, RELEASE_MISFIT = 0.005, 0.002, 0.01, 0.08
"""History catalogs: an older wording yields to the current one when no release is known, and
to a wording raised more recently by up to OLDER_AGE more (the same check worded with renamed
placeholders in three releases: the latest is likelier); a wording raised by the paste's
guessed release gains, one not raised by it loses."""
BUILTIN_PRIOR = 0.01
"""A message the interpreter/library raises everywhere beats a project site that copies its
wording, unless a frame points at that site."""


class Hit(Record):
    """A scored candidate, before its prose is read from the catalog."""

    cand: Candidate
    raw: float
    """Score before clamping: frame and builtin bonuses can lift it over 1.0, and they must
    still separate two candidates that both reach 1.0."""
    kind: str
    values: tuple[tuple[str, str], ...]
    reasons: tuple[str, ...]

    @property
    def score(self) -> float:
        """The score shown to users, in [0, 1]."""
        return max(0.0, min(1.0, self.raw))

    @property
    def pos(self) -> int:
        return int(self.cand.pos)

    @property
    def id(self) -> str:
        return str(self.cand.id)

    @property
    def template(self) -> str:
        return str(self.cand.template)


class Ranking(Record):
    hits: tuple[Hit, ...]
    nearest: tuple[Hit, ...]
    ambiguous: bool
    more: tuple[Hit, ...] = ()
    """Sites of the best hit's very text beyond the `limit` (SAME_TEXT_KEEP at most, within
    SAME_TEXT_MARGIN of its score: one warning logged by 35 model loaders): what the paste names
    may single one out (the explainer's model names); the explanation lists `limit` of them."""


def _file_of(cand: Candidate, frame: Frame) -> str | None:
    """The candidate's path (now, or in an earlier release) that a frame is in."""
    if cand.path and in_file(frame, cand.path):
        return cand.path
    return next((p for p in cand.paths if in_file(frame, p)), None)


class FrameSites:
    """What the paste's frames say about a candidate's function: a frame in a function of
    another name (the site's function was renamed, or the site moved into it, since) still
    names the site when the catalog's frame-lookup table files the site under that file and
    function in some release. A frame's entry in the table is read only when asked."""

    def __init__(self, view: CatalogView, frames: Sequence[Frame]) -> None:
        self.frames = frames
        self._view = view
        self._seen: dict[str, frozenset[int]] = {}
        self._heads: dict[str, dict[str, str]] = {}

    def same_function(self, cand: Candidate, frame: Frame) -> bool:
        func = (cand.function or "").rsplit(".", 1)[-1]
        if frame.function == func:
            return True
        if not cand.releases or not frame.function:
            return False
        key = site_key(frame.path, frame.function)
        found = self._seen.get(key)
        if found is None:
            found = self._seen[key] = frozenset(self._view.site_positions(key))
        return cand.pos in found

    def lineage_at(self, cand: Candidate, frame: Frame) -> str | None:
        """The file where some wording of the candidate's lineage was raised in some release,
        when that is the frame's file and function (history catalogs): the check was reworded
        or moved since, and the paste comes from a release that raised it where the frame is."""
        if not frame.function or not (cand.releases or cand.lineage):
            return None
        key = site_key(frame.path, frame.function)
        heads = self._heads.get(key)
        if heads is None:
            heads = self._heads[key] = {
                c.lineage or c.id: path
                for c in self._view.sites_at(key)
                if (path := _file_of(c, frame)) is not None
            }
        return heads.get(cand.lineage or cand.id)


def site_key(path: str, function: str) -> str:
    """The frame-lookup key of a site: its file name and the last part of its function's name."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name + "\0" + function.rsplit(".", 1)[-1]


def _called_site(cand: Candidate, frame: Frame) -> str | None:
    """The candidate's function's name when a frame's shown line calls it by that name
    (`param.load_qkv_weight(` of `_ColumnvLLMParameter.load_qkv_weight`), in another file: the
    frames below it were left out, the site's own among them; else None."""
    func = (cand.function or "").rsplit(".", 1)[-1]
    if not frame.code or not func.isidentifier() or func.startswith("__"):
        return None
    return func if any(m.group(1) == func for m in _CALL.finditer(frame.code)) else None


_CALL = compile_regex(r"(?<![\w.])(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*) ?\(")


def _frame_reason(cand: Candidate, frames: FrameSites) -> tuple[float, str | None]:
    if not cand.path or not frames.frames:
        return 0.0, None
    best: tuple[float, str | None] = (0.0, None)
    last = frames.frames[-1]
    func = _called_site(cand, last) if _file_of(cand, last) is None else None
    if func is not None:
        code = (last.code or "").strip()
        why = f"the innermost frame calls {func}, this site's function (`{code}`): the frames"
        best = (FRAME_FILE + FRAME_FUNC + FRAME_LAST, why + " below it were left out")
    for depth, frame in enumerate(reversed(frames.frames)):
        path = _file_of(cand, frame)
        if path is None:
            # the innermost frame only (where the error was raised): one lookup per paste
            earlier = frames.lineage_at(cand, frame) if depth == 0 else None
            if earlier is not None:
                why = f"a traceback frame is in {earlier} ({frame.function}), where an earlier"
                best = (FRAME_FILE + FRAME_FUNC + FRAME_LAST, why + " release raised this check")
            continue
        same_func = frames.same_function(cand, frame)
        bonus = (
            FRAME_FILE
            + (FRAME_FUNC if same_func else 0.0)
            + (FRAME_LAST if depth == 0 else 0.0)
            + (FRAME_LINE if _same_site(cand, frame) else 0.0)
        )
        if bonus > best[0]:
            where = f" ({frame.function})" if same_func else ""
            best = (bonus, f"a traceback frame is in {path}{where}")
    return best


def _ends_elsewhere(cand: Candidate, frames: FrameSites) -> Frame | None:
    """The innermost frame, when the paste's traceback ends in another file of the candidate's
    own project (its package directory in the frame's path) at a line it shows that calls, or
    that makes a new exception with its own text (`raise Exception(` + an f-string below: the
    error was made there), and the candidate raises (a logged or client message is written by
    code no frame needs to show); else None. The caller has found no frame in the candidate's
    file."""
    if not frames.frames or not cand.path or cand.kind in UNRAISED_KINDS:
        return None
    last = frames.frames[-1]
    if not last.code or (raises_here(last.code) and not _raises_own_text(last.code)):
        return None  # (a line that raises may pass on what it caught, from anywhere)
    if _called_site(cand, last) is not None:
        return None  # (it calls the site's function: the frames below it were left out)
    return last if _in_package(cand, last) else None


def _in_package(cand: Candidate, frame: Frame) -> bool:
    """Whether a frame lies in the candidate's own project: its package directory (the first
    part of the candidate's path) is a directory of the frame's path."""
    package = (cand.path or "").replace("\\", "/").split("/", 1)[0]
    return f"/{package}/" in "/" + frame.path.replace("\\", "/")


def _ends_beside(cand: Candidate, frames: FrameSites) -> Frame | None:
    """The innermost frame, when the traceback ends in the candidate's own file but in another
    function, or in another file of its project, at a line it shows that neither raises nor
    asserts (`self.items.extend(other)`: the interpreter raised there) nor calls the candidate's
    function, and the candidate raises: its own frame would be the innermost had it raised the
    error (an AttributeError that `__getattr__` words as the interpreter does is not a `None`
    looked up in `merge_batch`, nor a pool's missing attribute read in another file)."""
    if not frames.frames or not cand.path or not cand.function or cand.kind != "raise":
        return None
    last = frames.frames[-1]
    if not last.code or not last.function or raises_here(last.code):
        return None
    if last.code.strip().isidentifier():
        return None  # (a bare name does nothing that raises: a frame line cut at its width)
    if _file_of(cand, last) is None:
        # another file: of the candidate's own project, where the interpreter raised
        # (`self.kv_buffer[i]` in a pool, below the frames that pass through the candidate's
        # file on the way)
        if not _in_package(cand, last):
            return None
    elif frames.same_function(cand, last) or _same_site(cand, last):
        return None
    if f"{cand.function.rsplit('.', 1)[-1]}(" in last.code:
        return None  # (it calls the site's function: the frames below it were cut off)
    return last


_STRING = compile_regex(r"""(["'])((?:\\.|(?!\1).)*)\1""")
_FIELD = compile_regex(r"\{[^{}]*\}")


def shown_literal(code: str) -> list[str]:
    """The words of the string literals a source line shows (an f-string's fields left out)."""
    return words(" ".join(_FIELD.sub(" ", m.group(2)) for m in _STRING.finditer(code)))


_PASSING = compile_regex(
    r"raise +(?:[A-Za-z_]\w*\.)*(?P<name>[A-Za-z_]\w*)\((?P<args>.*)\)(?: +from +\S+)?"
)


def passes_text(code: str | None) -> str | None:
    """The exception a frame's line raises with a text made elsewhere, whole on the line and
    without a literal word of its own (`raise Exception(f"{output_batch.error}")`, `raise
    ValueError(message)`); else None. The message then names the code that made the text, and
    the raise is found by its frame: its catalogued template is a placeholder alone."""
    m = _PASSING.fullmatch((code or "").strip())
    if m is None or m["name"][:1].islower() or shown_literal(code or ""):
        return None
    args = m["args"]
    depth = 0
    for ch in args:
        depth += (ch in "([{") - (ch in ")]}")
        if depth < 0:
            return None  # (`raise X(a)(b)`, `raise X(a) or Y(b)`: not one call's arguments)
    return m["name"] if depth == 0 and args.strip() else None


_OWN_RAISE = compile_regex(r"raise +[A-Za-z_][\w.]{0,200}\( *(?:[rfbu]{0,2}[\"']|$)")
"""`raise X(` with its arguments on the lines below, or `raise X("...`, `raise X(f"...`: an
exception made there with a text of its own (not `raise`, `raise e`, `raise X(str(e))`)."""


def _raises_own_text(code: str) -> bool:
    """Whether a frame's line makes a new exception with its own text (:data:`_OWN_RAISE`); not
    one that hands on a text made elsewhere (`raise Exception(f"{batch.error}")`)."""
    return _OWN_RAISE.match(code.strip()) is not None and passes_text(code) is None


def _elsewhere(hit: Hit, frames: FrameSites) -> bool:
    """Whether an exact hit was raised nowhere the traceback shows, the traceback ending in
    another file of its project (:func:`_ends_elsewhere`): it leaves room for a candidate in
    the traceback's own file, read fuzzily (its wording in that release may differ)."""
    return not _frame_reason(hit.cand, frames)[1] and _ends_elsewhere(hit.cand, frames) is not None


def _located(cand: Candidate, frames: FrameSites) -> bool:
    """The innermost frame is in this entry's file and function: independent evidence that
    lets a fuzzy candidate clear a lower bar (LOCATED_RELIEF)."""
    if not frames.frames or not cand.path:
        return False
    last = frames.frames[-1]
    return _file_of(cand, last) is not None and frames.same_function(cand, last)


def in_file(frame: Frame, path: str) -> bool:
    """Whether a frame's (absolute, relative or Windows) path ends with a package path; a path
    whose directories the paster elided (`.../mem_cache/radix_cache.py`), or a path relative to
    a directory inside the package (`runner/x.py`, as condensed tracebacks and tools started in
    that directory print it), is in a package path that ends with it."""
    fpath = frame.path.replace("\\", "/")
    if fpath == path or fpath.endswith("/" + path):
        return True
    if fpath[:1] not in "/~." and ":" not in fpath and path.endswith("/" + fpath):
        return True  # relative to a directory inside the package (`runner/x.py`, `x.py`)
    for mark in ELLIPSES:  # how the paster marked the directories left out
        if fpath.startswith(mark):
            rest = fpath[len(mark) :]
            return rest.startswith("/") and len(rest) > 1 and ("/" + path).endswith(rest)
    return False


def _same_site(cand: Candidate, frame: Frame) -> bool:
    """The frame points at this very statement: same line, or its code is the guard."""
    if frame.line is not None and frame.line == cand.line:
        return True
    code = (frame.code or "").strip().rstrip(",")
    return len(code) >= 10 and code in (cand.condition or "")


CLIENT_MODULES = frozenset({"litellm", "openai", "anthropic", "httpx", "requests"})
"""Packages whose exceptions carry a server's error message as the client received it
(`litellm.BadRequestError: OpenAIException - <the server's message>`): the class is the
client's, not the one the server raised, so it neither confirms nor contradicts a site."""


def client_side(exc_type: str) -> bool:
    """An exception class of an HTTP client or API SDK (:data:`CLIENT_MODULES`)."""
    head, dot, _ = exc_type.partition(".")
    return bool(dot) and head in CLIENT_MODULES


def _type_ok(cand: Candidate, exc_type: str) -> bool:
    if not exc_type:
        return True
    short = exc_type.rsplit(".", 1)[-1]
    return short in (cand.exception, cand.base)


def _type_penalty(score: float) -> float:
    """A wrong exception type costs little when the text agrees (score near 1) and up to
    TYPE_MISMATCH as the text drifts: a refactor that changed the class keeps its wording."""
    agreement = max(0.0, min(1.0, (score - 0.6) / 0.35))
    factor = TYPE_MISMATCH + (1 - TYPE_MISMATCH) * agreement
    return score * factor - TYPE_SOFT


def _release_adjust(cand: Candidate, window: Window | None, reasons: list[str]) -> float:
    """A wording raised in the paste's release gains a little, one that is not raised there
    loses: the same text raised by an older site is told apart by the release. With no release
    known, an older wording yields to the current one (OLDER_PRIOR)."""
    if window is None or cand.releases is None or cand.project != window.project:
        return 0.0
    span = window.span(cand.releases)
    if span is None:
        return 0.0
    first, last = cand.releases
    if window.lo is None:
        if span[1] < window.latest:
            reasons.append(f"an older wording ({cand.project} {first} to {last})")
            return -OLDER_PRIOR - OLDER_AGE * (window.latest - span[1]) / max(window.latest, 1)
        return 0.0
    if span[1] < window.lo or span[0] > window.hi:  # type: ignore[operator]
        reasons.append(f"raised by {cand.project} {first} to {last}, not by this paste's release")
        return -RELEASE_MISFIT
    reasons.append(f"raised by {cand.project} {first} to {last}, as this paste's release")
    return RELEASE_FIT


def _adjust(
    cand: Candidate,
    score: float,
    reasons: list[str],
    exc_type: str,
    frames: FrameSites,
    window: Window | None = None,
) -> float:
    """Apply the type penalty, the frame bonus or the builtin prior and the release fit;
    explain each."""
    score += _release_adjust(cand, window, reasons)
    if cand.kind in UNRAISED_KINDS and exc_type:
        score -= LOGGED_TYPED
        what = "a logged message" if cand.kind == "log" else "a message sent to the client"
        reasons.append(f"{what}, but this error was raised as {exc_type}")
    elif not _type_ok(cand, exc_type):
        score = _type_penalty(score)
        reasons.append(f"but the catalog raises {cand.exception}, not {exc_type}")
    bonus, why = _frame_reason(cand, frames)
    if why and (beside := _ends_beside(cand, frames)) is not None:
        bonus = 0.0
        score -= ENDS_ELSEWHERE
        where = "this file" if _file_of(cand, beside) is not None else beside.path
        reasons.append(
            f"but the traceback ends in {where} at {beside.function}, line {beside.line}, on a "
            f"line that does not raise: had this site ({cand.function}) raised it, its own frame "
            "would be the last"
        )
    elif why:
        reasons.append(why)
    elif (last := _ends_elsewhere(cand, frames)) is not None:
        score -= ENDS_ELSEWHERE
        reasons.append(
            f"but the traceback ends in {last.path}:{last.line} at "
            f"{'a raise' if raises_here(last.code) else 'a call'}, in the same project, and no "
            "frame is in this site's file"
        )
    elif cand.kind == "builtin":
        bonus = BUILTIN_PRIOR
        reasons.append("raised by the interpreter or library itself, in any code")
    return score + bonus


def _exact(
    view: CatalogView,
    msg: str,
    exc_type: str,
    frames: FrameSites,
    window: Window | None = None,
) -> list[Hit]:
    hits = []
    seen: set[int] = set()
    present = set(words(msg))
    for w in present:
        for cand in view.bucket(w, present):
            if cand.pos in seen:
                continue
            seen.add(cand.pos)
            compiled = compile_template(cand.template)
            values = match_compiled(compiled, msg)
            if values is None:
                continue
            literal = cand.literal_len
            coverage = min(1.0, literal / max(len(msg), 1))
            reasons = [
                f"exact template match ({literal} of {len(msg)} characters are literal text)"
            ]
            base = 0.85 + 0.15 * coverage
            cost = _short_cost(compiled, coverage, 0.5) if compiled.names else 0.0
            if cost:
                base -= cost
                reasons.append(SHORT_REASON)
            pairs = tuple((n, v.strip()) for n, v in zip(compiled.names, values, strict=True))
            if compiled.names and _prose_tail(compiled, pairs[-1]):
                base -= PROSE_TAIL_COST
                reasons.append(PROSE_TAIL_REASON.format(name=pairs[-1][0]))
            score = _adjust(cand, base, reasons, exc_type, frames, window)
            hits.append(Hit(cand, score, "exact", pairs, tuple(reasons)))
    return hits


def _fuzzy_pool(view: CatalogView, msg_words: set[str]) -> list[int]:
    """The fuzzy pool of a message's words (:func:`_pool`), kept for the last POOLS_KEPT word
    sets: a line is ranked with its other readings, then looked into for messages inside it
    (:func:`found_inside`) with the words it was ranked by."""
    return _kept_pool(view, frozenset(msg_words))


POOLS_KEPT = 16


@memo(maxsize=POOLS_KEPT)
def _kept_pool(view: CatalogView, msg_words: frozenset[str]) -> list[int]:
    return _pool(view, msg_words)


def _pool(view: CatalogView, msg_words: Set[str]) -> list[int]:
    stats = view.word_stats()
    post, idf, wsum = stats.postings, stats.idf, stats.weight_sums
    import heapq

    acc: dict[int, float] = {}
    for w in sorted(msg_words):  # a fixed order: float sums, and so ties, never vary by run
        plist = post.get(w)
        if not plist or len(plist) > MAX_POSTING:
            continue
        weight = idf[w]
        for pos in plist:
            acc[pos] = acc.get(pos, 0.0) + weight
    # cosine-like: the shared weight against both sides' totals (the message's is the same for
    # all), so that a long template (a message with its help text) that holds every word of a
    # short message still ranks; the best FUZZY_POOL without sorting them all
    scored = [(-a / (wsum[p] or 1.0) ** 0.5, p) for p, a in acc.items()]
    pool = [p for _, p in heapq.nsmallest(FUZZY_POOL, scored)]
    # and the templates holding the most of the message's weight, however long: a message
    # quoted up to its first sentence end is the start of a long template that the cosine
    # above ranks below shorter ones sharing a few words (a prefix or infix reading decides)
    taken = set(pool)
    covering = [(-a, wsum[p], p) for p, a in acc.items() if p not in taken]
    return pool + [p for *_, p in heapq.nsmallest(COVER_POOL, covering)]


def found_inside(view: CatalogView, text: str, least: int) -> list[tuple[int, str]]:
    """(where, part) for the parts of `text` from a place after its start where a catalogued
    template's text is found with `least` literal characters or more (:func:`spans_inside`),
    in the order they start (a message's values may hold another), those holding the most
    literal text first at one place: among the templates filed under the text's
    words (as an exact match finds them) and those sharing the most of its words (the fuzzy
    pool: a message cut by its writer may lack the words a template is filed under). A message
    written into a sentence (`after upgrading, <message> appears in the log`): the whole
    line's ranking, crowded by the sentence's other words, may not hold its template. A
    template ending in a value of one thing (not named for prose, :func:`prose_named`) is read
    with that value up to its first space too: the writer's words follow it."""
    present = set(words(text))
    cands = {c.pos: c for w in sorted(present) for c in view.bucket(w, present)}
    for pos in _fuzzy_pool(view, present):
        if pos not in cands:
            cands[pos] = view.candidate(pos)
    found: list[tuple[int, int, int, int, int]] = []
    for cand in cands.values():
        if cand.literal_len < least:
            continue
        compiled = compile_template(cand.template)
        for at, end, held, value in spans_inside(compiled, text, least):
            found.append((at, -held, -cand.literal_len, cand.pos, end))
            if value > 0 and not prose_named(compiled.names[-1]):
                one = one_value(text, value)
                if value < one < end:
                    found.append((at, -held, -cand.literal_len, cand.pos, one))
    return list(dict.fromkeys((at, text[at:end]) for at, *_, end in sorted(found)))


def held_by(view: CatalogView, fragment: str) -> list[tuple[float, Candidate]]:
    """(how alike, candidate) for the templates whose literal text holds `fragment` (a part of
    a message quoted in prose), best first, over the templates its words find (the fuzzy
    pool); only templates longer than the fragment (a whole message is matched as one)."""
    frag = _WORDS.findall(fragment.lower())
    out: list[tuple[float, Candidate]] = []
    for pos in _fuzzy_pool(view, set(words(fragment))):
        cand = view.candidate(pos)
        lit = _WORDS.findall(" ".join(compile_template(cand.template).literals).lower())
        if len(lit) > len(frag):
            out.append((_held(frag, lit), cand))
    return sorted(out, key=lambda x: (-x[0], x[1].pos))


_WORDS = compile_regex(r"[^\W_]+")


def _held(frag: list[str], lit: list[str]) -> float:
    """How nearly the words `frag` are a stretch of the words `lit`: of the words both share
    in order, twice their count over the fragment's words plus the stretch of `lit` they span
    (a word the paster left out or added costs a little; words in another order, or spread
    over the text, much)."""
    from difflib import SequenceMatcher

    blocks = [
        b for b in SequenceMatcher(None, frag, lit, autojunk=False).get_matching_blocks() if b.size
    ]
    if not blocks:
        return 0.0
    shared = sum(b.size for b in blocks)
    span = blocks[-1].b + blocks[-1].size - blocks[0].b
    return 2 * shared / (len(frag) + span)


def _has_words(masked: str) -> bool:
    return any(c.isalnum() for c in masked)


def _fuzzy_score(masked_msg: str, masked_tmpl: str) -> tuple[float, str]:
    from rapidfuzz import fuzz

    if not _has_words(masked_msg) or not _has_words(masked_tmpl):
        # all values once masked (a quoted key, a template quoted whole): nothing to compare
        return 0.0, "similar wording"
    full = FUZZY_SCALE * fuzz.ratio(masked_msg, masked_tmpl) / 100.0
    if 25 <= len(masked_msg) < len(masked_tmpl):
        head = FUZZY_SCALE * fuzz.ratio(masked_msg, masked_tmpl[: len(masked_msg)]) / 100.0
        prefix = head * (0.9 + 0.1 * len(masked_msg) / len(masked_tmpl))
        if prefix > full:
            return prefix, "the message reads like the start of this template (cut off?)"
    return full, "similar wording"


def _loose_score(template: str, loose_msg: str, msg: str) -> tuple[float, str] | None:
    """The whole message matches once case, punctuation and spacing are ignored; a short
    template whose stop before a placeholder the message moved (:func:`_stops_kept`) only as
    a near miss."""
    compiled = compile_loose(template)
    if compiled.literal_len < MIN_LOOSE or match_compiled(compiled, loose_msg) is None:
        return None
    coverage = min(1.0, compiled.literal_len / max(len(loose_msg), 1))
    score = LOOSE_BASE + LOOSE_SPAN * coverage
    if len(template_words(template)) <= SHORT_WORDS and not _stops_kept(
        compile_template(template).literals, msg
    ):
        score = min(score, SHORT_APART_CAP)
    return score, "the template matches ignoring case and punctuation"


def marked_cut(msg: str) -> str | None:
    """The message without the ellipsis its paster ended it with (`... page sizes m...`), or
    None when it does not end with one."""
    stripped = msg.rstrip()
    for mark in ELLIPSES:
        if stripped.endswith(mark) and not stripped.endswith("...."):
            return stripped[: -len(mark)].rstrip()
    return None


def elided_head(msg: str) -> str | None:
    """The message up to an ellipsis its paster put in its middle (`Failed to send kv chunk
    ... Decode instance could be dead`: a value or a clause left out), or None when there is
    none after MIN_PREFIX characters. What follows the ellipsis may be the rest of the message
    or the paster's own summary, so only the head is read as the start of a template."""
    for mark in ELLIPSES:
        at = msg.find(mark)
        longer = msg.startswith(mark + mark[-1], at)  # (a row of dots, not an ellipsis)
        if at >= MIN_PREFIX and not longer and msg[at + len(mark) :].strip():
            return msg[:at].rstrip()
    return None


SHORT_REASON = "a short template: most of the message is placeholder text"


PROSE_TAIL_COST = 0.1
PROSE_TAIL_REASON = (
    "the value of <{name}> reads as more of the message, not as one value: the message may be "
    "a longer one that only opens with these words"
)
_PROSE_NAMES = ("e", "ex", "exc", "err", "error", "exception", "msg", "message", "reason")
"""Placeholder names (their last word) that hold prose by nature: an exception's text, a
message, a reason, a detail."""
_PROSE_SUFFIXES = ("error", "exception", "message", "msg", "reason", "detail", "details", "text")


def prose_named(name: str) -> bool:
    """Whether a placeholder is named for prose: one of its words (split at anything but
    letters and digits: `exc_val`, `str(err)`) is a prose name, or its last word ends like one
    (`detail`, `error_text`) or is `str`. One definition for the short-template penalty
    (:func:`_prose_tail`) and for a wrapper passing text on (:func:`passes_on`)."""
    words = "".join(c if c.isalnum() else " " for c in name.lower()).split()
    if not words:
        return False
    return (
        any(w in _PROSE_NAMES for w in words)
        or words[-1].endswith(_PROSE_SUFFIXES)
        or words[-1] == "str"
    )


def _prose_tail(compiled: Compiled, pair: tuple[str, str]) -> bool:
    """A short template that ends with a placeholder named for one value (`Invalid backend:
    <name>`) whose value in the message is a clause of prose (`None, expected sglang or vllm`):
    the message is most likely another project's longer one that opens with the same words. A
    placeholder named for prose (`<e>`, `<str(err)>`, `<detail>`) may hold any text."""
    if compiled.literals[-1].strip() or compiled.literal_len >= SHORT_LITERAL:
        return False
    name, value = pair
    if prose_named(name):
        return False
    if "," not in value:
        return False
    return sum(1 for w in value.split() if w.isalpha() and w.islower()) >= 3


def _short_cost(compiled: Compiled, coverage: float, below: float) -> float:
    """What a generic template costs (SHORT_LITERAL): one with less literal text than that,
    opening with a placeholder, whose literal text covers less than `below` of the message."""
    literal = compiled.literal_len
    lead = len(compiled.literals[0].strip())
    if literal < SHORT_LITERAL and coverage < below and lead < 8:
        return 0.25 * (1 - literal / SHORT_LITERAL) * (1 - coverage)
    return 0.0


PREFIX_SHORT_COVER = 0.3
"""A cut message that a short template opening with a placeholder (`<x> is not supported on
<y>.`) reads with less than this share of literal text is mostly that placeholder's value (a
warning line's path and category taken in): scored down as an exact match of it would be. A
message that names its subject and then the template's words (`token_to_kv_pool_allocator memory
leak detected`, 43 % literal) keeps its score."""


_LABEL = compile_regex(r"(?:Warning|WARNING|Error|ERROR|Note|NOTE): ")
"""A label a template's text opens with (`Warning: <reason> context_length ...`): a paster
who quotes the message after it (or a wrapper that prints it without) leaves it out."""


def with_label(compiled: Compiled, msg: str) -> str:
    """The message with the label its template opens with put back, when it lacks it."""
    label = _LABEL.match(compiled.literals[0])
    if label is None or msg.startswith(label.group()):
        return msg
    return label.group() + msg


def _prefix_score(template: str, msg: str) -> tuple[float, str] | None:
    """The message is the start of this template, cut off (as truncated log lines are). A cut
    the paster marked with an ellipsis is a boundary: the rest was left out on purpose."""
    compiled = compile_template(template)
    cut = marked_cut(msg)
    elided = False
    if cut is None and ("..." in msg or "\u2026" in msg):
        cut = elided_head(msg)
        elided = cut is not None
    head = msg if cut is None else cut
    if head[:1].islower() and compiled.literals[0][:1].isupper():
        head = head[0].upper() + head[1:]  # a message quoted mid-sentence, its capital lowered
    matched, boundary = match_prefix(compiled, head)
    marked = cut is not None and matched >= MIN_PREFIX
    if matched < (VALUE_MIN if boundary else MIN_PREFIX):
        return None
    share = matched / max(compiled.literal_len, 1)
    if boundary or marked:
        share = max(share, BOUNDARY_SHARE)
    elif share < PREFIX_SHARE:
        return None
    how = (
        "up to a placeholder or a sentence end"
        if boundary
        else "cut where the paster marked it (...)"
        if marked
        else "cut off"
    )
    score = PREFIX_BASE + PREFIX_SPAN * share
    why = (
        f"the message is the start of this template, {how} ({matched} of "
        f"{compiled.literal_len} literal characters)"
    )
    # as for an exact match (`_exact`): a generic template that opens with a placeholder
    # took most of the message into its values
    cost = _short_cost(compiled, min(1.0, matched / max(len(head), 1)), PREFIX_SHORT_COVER)
    if cost:
        score -= cost
        why += f"; {SHORT_REASON}"
    if elided and score > ELIDED_CAP:
        score = ELIDED_CAP
        why += "; what follows the paster's ellipsis is not compared"
    return score, why


ELIDED_CAP = 0.88
"""Highest score of a message read up to an ellipsis in its middle: the text after it may
contradict the template (it is the rest of the message, or the paster's summary, unread)."""


INFIX_MIN, INFIX_BASE, INFIX_CAP = 30, 0.72, 0.88
"""A message quoted from a template's middle (`match_infix`): at least INFIX_MIN literal
characters matched in order; scored below a message that starts where the template starts
(PREFIX_BASE), and never above INFIX_CAP on its own: the left-out head might have told it
apart from a sibling."""


INFIX_HELD = 2
"""Placeholders an infix reading must hold between matched literal text to count as a
boundary (`(a=768 / b=8) % c=128 == 0` of `... make sure ({a=} / {b=}) % {c=} == 0 where ...`):
the message's values sit where the template's are, which a cut-off fragment of a sibling's
wording would not do twice."""


def _infix_score(template: str, msg: str) -> tuple[float, str] | None:
    """The message is a part of this template from a word inside it, its head left out (by the
    paster's ellipsis, `... incompatible with speculative decoding (...)`, or unmarked)."""
    compiled = compile_template(template)
    body = lead_elided(msg)
    matched, tail, held = infix_reading(compiled, body if body is not None else msg)
    if matched < INFIX_MIN:
        return None
    share = matched / max(compiled.literal_len, 1)
    if tail:  # (the rest of the template, to its end: quoted whole from there, not cut)
        share = max(share, BOUNDARY_SHARE)
    elif held >= INFIX_HELD or (body is not None and held):
        # (values where the template puts them, between matched text; one is enough when
        # the paster marked the head as left out: the part was quoted on purpose)
        share = max(share, PREFIX_SHARE)
    marked = "; the paster marked the start as left out (...)" if body is not None else ""
    return min(INFIX_CAP, INFIX_BASE + PREFIX_SPAN * share), (
        f"the message is a part of this template, its start left out ({matched} of "
        f"{compiled.literal_len} literal characters in order"
        + (", to the template's end)" if tail else ")")
        + marked
    )


def lead_elided(msg: str) -> str | None:
    """The message after the ellipsis its paster opened it with (`... incompatible with
    speculative decoding`: the head left out), or None when it opens with none (a row of four
    or more dots is a rule, not an ellipsis)."""
    stripped = msg.lstrip()
    for mark in ELLIPSES:
        if stripped.startswith(mark) and not stripped.startswith("...."):
            rest = stripped[len(mark) :].lstrip(" .\u2026")
            return rest or None
    return None


@memo(maxsize=256)
def cut_literal(template: str, msg: str) -> int:
    """Literal characters of the template a cut message matches in order, read from the
    template's start or from a word inside it (0 when it is neither). Remembered: a line's
    reading asks it twice of the same pair (once to offer a cut template, once to trust it)."""
    compiled = compile_template(template)
    return max(match_prefix(compiled, msg)[0], match_infix(compiled, msg))


def _word_score(template: str, msg_words: dict[str, int], msg: str) -> tuple[float, str] | None:
    """Placeholders can hold any text, so compare only the template's literal words: the share
    of them (by length) that the message contains, so that a dropped, inserted or reworded word
    costs little and values cost nothing; a template whose literal text covers little of the
    message is discounted."""
    compiled = compile_template(template)
    literal = template_words(template)
    total = sum(map(len, literal))
    if total < MIN_LOOSE:
        return None
    left = dict(msg_words)  # a word counts as often as the message has it
    found = 0
    for w in literal:
        if left.get(w, 0) > 0:
            left[w] -= 1
            found += len(w)
    share = found / total
    coverage = min(1.0, compiled.literal_len / max(len(msg), 1))
    # with no placeholder, nothing can absorb extra message text: coverage weighs more
    base = CHUNK_BASE if compiled.names else CHUNK_BASE_FIXED
    literal_len, lead = compiled.literal_len, compiled.literals[0].strip().lower()
    anchored = len(lead) >= 4 and msg.lstrip().lower().startswith(lead)
    if literal_len < SHORT_LITERAL and coverage < 0.5 and not anchored:
        # a few generic words ("Server error: <e>") found inside a long message prove little
        base -= 0.25 * (1 - literal_len / SHORT_LITERAL) * (1 - coverage)
    score = FUZZY_SCALE * share * (base + (1 - base) * coverage)
    if len(literal) <= SHORT_WORDS and not (
        _phrases_kept(compiled.literals, msg) and _stops_kept(compiled.literals, msg)
    ):
        # two or three generic words found apart (`Unsupported rhs dtype fp8e4nv` for
        # `unsupported dtype: <dtype>`): a near miss at best, never a confident answer
        return min(score, SHORT_APART_CAP), (
            f"fuzzy: the message has {share:.0%} of this short template's literal words, "
            "but not side by side as the template has them"
        )
    return score, f"fuzzy: the message has {share:.0%} of the template's literal words"


SHORT_WORDS, SHORT_APART_CAP = 3, 0.79
"""A template of this many literal words or fewer whose words the message has, but not as
the template's phrases, scores at most SHORT_APART_CAP: under the cutoff, a nearest candidate
at best (`Tool <name> not found` is no answer for `Tool calls found but MCP tracking not
initialized`)."""


def _phrases_kept(literals: Sequence[str], msg: str) -> bool:
    """Whether each literal chunk of a template (its words, case and punctuation aside) is a
    run of words of the message."""
    words = f" {' '.join(_WORD.findall(msg.lower()))} "
    last = len(literals) - 1
    for i, chunk in enumerate(literals):
        found = _WORD.findall(chunk.lower())
        # a word touching a placeholder may run on into its value (`layer<i>` -> `layer3`)
        if found and i > 0 and chunk[:1].isalnum():
            found = found[1:]
        if found and i < last and chunk[-1:].isalnum():
            found = found[:-1]
        if found and f" {' '.join(found)} " not in words:
            return False
    return True


_WORD = compile_regex(r"\w+")


def _stops_kept(literals: Sequence[str], msg: str) -> bool:
    """Whether each literal chunk that ends in a stop before a placeholder (`Unsupported dtype:
    <dtype>`) is in the message as written, its stop right after its last word: a template of
    two or three generic words has little else to tell its message from another project's
    (`unsupported dtype for netCDF4 variable: object`, `TllmGenFmhaRunner: Unsupported
    architecture`, `Unsupported dtype fp8e4nv`)."""
    low = " ".join(msg.lower().split())
    for chunk in literals[:-1]:
        head = " ".join(chunk.lower().split())
        if head[-1:] in ":;=" and head not in low:
            return False
    return True


ELIDED_MIN = 8
"""Shortest part of a message around an ellipsis that is compared (shorter: noise)."""


def _elided_parts(msg: str) -> list[str]:
    """The parts of a message whose paster elided text with an ellipsis (`…` or `...`):
    ``alloc_req_slots runs out of memory ... available_size()=6, num_reqs=16``."""
    if "…" not in msg and "..." not in msg:
        return []
    parts = [p.strip(" .…") for p in msg.replace("…", "...").split("...")]
    parts = [p for p in parts if p]
    if len(parts) < 2 or min(map(len, parts)) < ELIDED_MIN:
        return []
    # a short head anchors the template's start when the parts are long in all (`The input
    # (...) is longer than the model's context length (32768 tokens)`: a value elided)
    if len(parts[0]) < MIN_PREFIX and sum(map(len, parts)) < 2 * MIN_PREFIX:
        return []
    return parts


def _sentence_parts(msg: str) -> list[str]:
    """The sentences (and lines) of a message, for a paster who left one out without marking
    it (``The memory capacity is unbalanced. min_per_gpu_memory=16.28, ...``; torch's help
    lines between a CUDA error's first and last line): [] unless there are two or more, the
    first long enough to anchor the template's start."""
    if "…" in msg or "..." in msg:
        return []
    parts: list[str] = []
    for line in msg.splitlines():  # a line of a message is a part as a sentence is
        start = 0
        for stop in sentence_stops(line):
            parts.append(line[start : stop + 1].strip())
            start = stop + 1
        parts.append(line[start:].strip())
    parts = [normalize_ws(p) for p in parts if p.strip()]
    if len(parts) < 2 or len(parts[0]) < MIN_PREFIX or min(map(len, parts)) < ELIDED_MIN:
        return []
    return parts


def _collapse(text: str) -> str:
    return " ".join(text.split())


GAP_MAX, GAP_TAIL, GAP_CAP = 40, 10, 0.86
"""A message that leaves out a few words of a template (`Rank 0 scheduler died (exit code: -9)`
of `Rank <rank> scheduler died during initialization (exit code: <code>). ...`): at most
GAP_MAX characters left out, in one place, a part of at least GAP_TAIL literal characters after
it, two words or more, one of four letters or more (`got <a> and <b>.` is said of anything);
scored at most GAP_CAP (a probable answer, never a confident one: a paster's abridgement
proves less than the words as printed)."""


_LONG_WORD = compile_regex(r"[^\W\d_]{4,}")


@memo(maxsize=256)
def gap_reading(template: str, msg: str) -> tuple[int, str, bool] | None:
    """The message is this template's start (MIN_PREFIX characters or more) and, after a gap of
    a few left-out words, a later part of it: the words a paster drops when quoting from memory
    or abridging in a sentence. Values are masked on both sides. Returns (characters matched,
    the text left out, whether the later part ends at a boundary: the template's end, a
    placeholder or a stop), or None. Remembered: a quoted span's reading asks it again to tell
    whether the catalog knows the span well."""
    masked, text = _collapse(mask_template(template)), _collapse(mask(msg))
    if len(text) < MIN_PREFIX + GAP_TAIL or masked.startswith(text):
        return None
    common = 0  # (the head is a start the two share: read from their common start's end)
    for a, b in zip(masked, text, strict=False):
        if a != b:
            break
        common += 1
    for i in range(min(len(text) - GAP_TAIL, common + 1), MIN_PREFIX - 1, -1):
        # split only between words (a space, or where a word meets punctuation)
        if not (text[i] == " " or text[i - 1].isalnum() != text[i].isalnum()):
            continue
        head, tail = text[:i].rstrip(), text[i:].lstrip()
        if len(head) < MIN_PREFIX or not masked.startswith(head):
            continue
        found = masked.find(tail, len(head) + 1)
        left_out = masked[len(head) : found] if found > 0 else ""
        if (
            found < 0
            or len(left_out) > GAP_MAX
            or not _WORDS.search(left_out)
            or len(_WORDS.findall(tail)) < 2
            or len(tail) - tail.count("\x00") < GAP_TAIL
            or not _LONG_WORD.search(tail)
        ):
            return None
        end = found + len(tail)
        boundary = end == len(masked) or masked[end] in ". \x00" or tail[-1] in ".!?:)"
        matched = len(head) + len(tail) - (head + tail).count("\x00")
        return matched, left_out.strip(), boundary
    return None


def _gap_score(template: str, msg: str) -> tuple[float, str] | None:
    """:func:`gap_reading` scored as a cut message is, never above GAP_CAP."""
    reading = gap_reading(template, msg)
    if reading is None:
        return None
    matched, left_out, boundary = reading
    share = matched / max(len(_collapse(mask_template(template))), 1)
    if boundary:
        share = max(share, BOUNDARY_SHARE)
    if share < PREFIX_SHARE:
        return None
    return min(GAP_CAP, PREFIX_BASE + PREFIX_SPAN * share), (
        f"the message leaves out {left_out!r} of this template: its start and a later part "
        "are found in order"
    )


def _elided_score(
    template: str, parts: Sequence[str], marked: bool = True
) -> tuple[float, str] | None:
    """Every part of an elided message is found in the template in order (values masked),
    the first at its start: scored like a message cut at a boundary when the paster marked
    the cut (``…``), else by the share of the template the parts cover."""
    masked = _collapse(mask_template(template))
    pos, matched, cost = 0, 0, 0.0
    for i, part in enumerate(parts):
        seg = _collapse(mask(part))
        found = masked.find(seg, pos)
        if found < 0 and "=\x00" in masked:
            # a self-documenting field's value printed whole (`{x.shape=}` as `x.shape=torch.
            # Size([2])`): read from its `=` to the next space as the one value it is
            seg = _NAMED_VALUE.sub("=\x00", seg)
            found = masked.find(seg, pos)
        if i == 0 and found != 0:
            # a first part whose values are words (`Target model's context_length (262144)
            # ...` of `Warning: <reason> context_length (<n>) ...`): the start of a filling
            lead, labelled = _filled_lead(template, part)
            if lead:
                matched += lead
                cost = LABEL_COST if labelled else 0.0
                continue
        if found < 0 or (i == 0 and found != 0):
            return None
        matched += len(seg)
        pos = found + len(seg)
    share = matched / max(len(masked), 1)
    label = "; the label the template opens with is left out" if cost else ""
    if not marked:
        return PREFIX_BASE + PREFIX_SPAN * min(share, 1.0) - cost, (
            f"the message leaves out text of this template: its {len(parts)} sentences are "
            f"found in order{label}"
        )
    return PREFIX_BASE + PREFIX_SPAN * min(max(share, BOUNDARY_SHARE), 1.0) - cost, (
        f"the message elides text of this template (…): its {len(parts)} parts are found in "
        f"order{label}"
    )


_NAMED_VALUE = compile_regex(r"=[^\s=]+")
"""A value after `name=` up to the next space (or `=`): a repr printed by `{name=}`."""


LABEL_COST = 0.01
"""What a template's label left out of the message costs: a wording read without putting it
back is the likelier one (an older release's `User-specified context_length ...` before
today's `Warning: <reason> context_length ...`)."""


def _filled_lead(template: str, part: str) -> tuple[int, bool]:
    """(literal characters of the template that a message's first part matches as the start
    of a filling of it, or 0 when it is not one or matches less than MIN_PREFIX; whether the
    template's label had to be put back)."""
    compiled = compile_template(template)
    head = with_label(compiled, part)
    matched, _ = match_prefix(compiled, head)
    return (matched if matched >= MIN_PREFIX else 0), head is not part


def _best_fuzzy(
    template: str,
    msg: str,
    loose_msg: str,
    masked: str,
    msg_words: dict[str, int],
    parts: Sequence[str] = (),
    sentences: Sequence[str] = (),
) -> tuple[float, str]:
    """`parts`: the message's parts around an ellipsis (:func:`_elided_parts`), if any;
    `sentences`: its sentences (:func:`_sentence_parts`), if no ellipsis marks a cut."""
    score, why = _fuzzy_score(masked, mask_template(template))
    best = (score, f"fuzzy: {why}, {score:.0%} similar after masking values")
    for other in (
        _loose_score(template, loose_msg, msg),
        _prefix_score(template, msg),
        _infix_score(template, msg),
        _word_score(template, msg_words, msg),
        _gap_score(template, msg),
        _elided_score(template, parts) if parts else None,
        _elided_score(template, sentences, marked=False) if sentences else None,
    ):
        if other is not None and other[0] > best[0]:
            best = other
    return best


def _fuzzy(
    view: CatalogView,
    msg: str,
    exc_type: str,
    frames: FrameSites,
    window: Window | None = None,
    raw: str = "",
) -> list[Hit]:
    """`raw`: the message with its line breaks (`msg` is whitespace-normalised)."""
    masked, loose, parts = mask(msg), loosen(msg), _elided_parts(msg)
    sentences = _sentence_parts(raw or msg)
    msg_words: dict[str, int] = {}
    for w in words(msg):
        msg_words[w] = msg_words.get(w, 0) + 1
    hits = []
    for pos in _fuzzy_pool(view, set(msg_words)):
        cand = view.candidate(pos)
        score, why = _best_fuzzy(cand.template, msg, loose, masked, msg_words, parts, sentences)
        reasons = [why]
        score = _adjust(cand, score, reasons, exc_type, frames, window)
        hits.append(Hit(cand, score, "fuzzy", (), tuple(reasons)))
    return hits


WRAPPER_LEAD = 8
"""An exact match whose template opens with at least this much literal text (`Error in request:
<e>`) names the line's own family; a template matched only inside its placeholder's value
explains a part of the line, so it ranks below the wrapper."""


def wrapper_head(template: str) -> bool:
    """Whether a template opens with WRAPPER_LEAD characters of literal text or more (`Error in
    request: <e>`): matched exactly, it names the line's own family."""
    return len(compile_template(template).literals[0].strip()) >= WRAPPER_LEAD


def passes_on(template: str) -> bool:
    """Whether a template is a lead of its own words before one value that ends it (`Internal
    server error: <str(e)>`, `Error in request: <e>`): a handler passing on the text of the
    exception it caught; or a lead with values of its own whose last value, after a colon, is
    named for an exception's text (`[<stage>] Error during execution after <ms> ms: <exc_val>`).
    Such a wrapper explains the line when the text it passes on (its last value) is no
    catalogued message; when it is one, that message is the error (see the explainer's
    `_passed_on`)."""
    compiled = compile_template(template)
    if not compiled.names or compiled.literals[-1].strip():
        return False
    if len(compiled.names) == 1:
        return True
    # a handler's lead with values of its own before the text it passes on (`[<stage>] Error
    # during execution after <ms> ms: <exc_val>`): the last value, after a colon, named for prose
    return compiled.literals[-2].rstrip().endswith(":") and prose_named(compiled.names[-1])


def _wrapped_inside(hits: Sequence[Hit], cutoff: float) -> dict[int, float]:
    """Candidates (by position) whose literal words all sit in a placeholder value of an exact
    wrapper match (:data:`WRAPPER_LEAD`), with the score they must stay under."""
    wrappers = [
        h
        for h in hits
        if h.kind == "exact" and h.values and h.raw >= cutoff and wrapper_head(h.template)
    ]
    if not wrappers:
        return {}
    caps: dict[int, float] = {}
    for w in wrappers:
        inner = set(words(" ".join(v for _, v in w.values)))
        head = compile_template(w.template).literals[0].strip()
        for h in hits:
            if h.raw < w.raw or h is w:
                continue
            if h.kind == "exact":
                # matched whole only because its leading placeholder took the wrapper's
                # head: `<f>() got an unexpected keyword argument <a>` reading `Error in
                # request: f() got ...` with f = `Error in request: f`
                if not (h.values and h.values[0][1].startswith(head)):
                    continue
                if compile_template(h.template).literals[0].strip():
                    continue
            own = set(template_words(h.template))
            if own and own <= inner:
                caps[h.pos] = min(caps.get(h.pos, 2.0), w.raw - 0.005)
    return caps


def _confident(hit: Hit, msg: str) -> bool:
    """An exact hit whose literal text covers enough of the message to end the search; below
    that, placeholders swallowed most of it and a reworded sibling may fit better."""
    return bool(hit.cand.literal_len >= EXACT_CONFIDENT * len(msg))


def _order(hits: list[Hit], msg: str = "") -> list[Hit]:
    def key(h: Hit) -> tuple[float, int, int, int, int, int, int, int, tuple[int, ...], int, str]:
        r = h.cand
        return (
            -round(h.raw, 6),
            int(r.in_tests),  # of equal scores, library code before the project's own tests
            int(r.printed),  # and a raised or logged site before a script's print of the text
            # an exact match before a fuzzy one: masking values made `'ServerArgs' object has
            # no attribute 'x'` as like `'NoneType' object ...`, whose literal it is not
            int(h.kind != "exact"),
            -r.literal_len,
            # matching ignores letter case; of texts tied so, the one whose opening words the
            # message prints in the same case (`no safetensors files found` beside `No ...`)
            int(not _same_case_head(r.template, msg)),
            -int(r.curated),
            # a site's newest wording before its older ones (a placeholder renamed since):
            # the paste's release, when it tells, reorders them later
            int(r.lineage is not None),
            _since(r),
            len(r.path or ""),
            r.id,
        )

    return sorted(hits, key=key)


def _same_case_head(template: str, msg: str) -> bool:
    """Whether a template that opens with literal text and the message agree in letter case
    over that opening (as far as both go)."""
    head = compile_template(template).literals[0].lstrip()
    n = min(len(head), len(msg))
    return n > 0 and head[:n] == msg[:n]


def _since(cand: Candidate) -> tuple[int, ...]:
    """The first release that raised a site's check, in any wording (none known: last): of
    sites that raise one text with nothing in the paste telling them apart, the one raised for
    longest comes first (the base class's check before the subclasses that copied it later).
    Older wordings (which come after every current one) go newest first instead, as a check's
    wordings do: of two wordings that differ only by a renamed placeholder, the later one is the
    nearer to a paste whose release is not known."""
    if not cand.releases:
        return (1 << 30,)
    first = release_numbers(cand.since or cand.releases[0])
    return tuple(-n for n in first) if cand.lineage is not None else first


def recorded_lines(view: CatalogView, cand: Candidate, frame: Frame) -> list[tuple[int, str]]:
    """(line, releases) where the site sat in the frame's file, release span by release span
    (history catalogs), else its one recorded line."""
    at = view.at(cand.pos) if cand.releases else None
    if at and frame.path.replace("\\", "/").rpartition("/")[2] not in at:
        return []  # no span's path can end with the frame's file name
    if at:
        spans = at_lines(at)
        inside = {path: in_file(frame, path) for path in {span[2] for span in spans}}
        return [
            (line, first if first == last else f"{first} to {last}")
            for first, last, path, line in spans
            if inside[path]
        ]
    return [(cand.line, "")] if cand.line is not None else []


def _at_frame_line(view: CatalogView, ordered: list[Hit], frames: FrameSites) -> list[Hit]:
    """Hits tied at the top (the same assert in several classes of one file) with the one whose
    recorded line in some release is the innermost frame's line, in that frame's file, first,
    by FRAME_LINE and with the reason (only the current line counts while ranking: older lines
    are read from the entries here, for the tied few)."""
    if len(ordered) < 2 or ordered[0].raw != ordered[1].raw or not frames.frames:
        return ordered
    frame = frames.frames[-1]
    if frame.line is None:
        return ordered
    tied = [h for h in ordered if h.raw == ordered[0].raw]
    if len(tied) > TIE_LINES:
        return ordered
    at = [
        h
        for h in tied
        if h.cand.releases
        and h.cand.line != frame.line
        and any(line == frame.line for line, _ in recorded_lines(view, h.cand, frame))
    ]
    if len(at) != 1:
        return ordered
    (h,) = at
    why = f"an earlier release raised it at the traceback's line {frame.line}"
    first = replace(h, raw=h.raw + FRAME_LINE, reasons=(*h.reasons, why))
    return [first, *(x for x in ordered if x is not h)]


TIE_LINES = 8
"""At most this many tied hits have their older lines read (:func:`_at_frame_line`)."""


def _ambiguous(hits: Sequence[Hit]) -> bool:
    """True when the best template is raised at several sites that nothing tells apart."""
    if len(hits) < 2:
        return False
    top = hits[0]
    return any(h.template == top.template and abs(h.raw - top.raw) < 1e-9 for h in hits[1:])


def _literal_overlap(template: str, msg: str) -> int:
    """Characters of the template's literal words that the message contains."""
    present = set(words(msg))
    return sum(len(w) for w in set(template_words(template)) if w in present)


def _probable(ordered: Sequence[Hit], msg: str) -> Hit | None:
    """The best candidate, if it is far ahead of every other template and shares a long
    stretch of literal words with the message: an answer, marked probable."""
    if not ordered:
        return None
    top = ordered[0]
    rival = next((h for h in ordered[1:] if h.template != top.template), None)
    lead = top.score - (rival.score if rival else 0.0)
    if top.score < PROBABLE_MIN or lead < PROBABLE_LEAD:
        return None
    overlap = _literal_overlap(top.template, msg)
    if overlap < PROBABLE_LITERAL:
        return None
    why = f"probable: {lead:.2f} ahead of any other template, {overlap} characters of its words"
    return replace(top, kind="probable", reasons=(*top.reasons, why))


def _best_per_site(hits: Sequence[Hit]) -> dict[int, Hit]:
    """One hit per candidate: an exact match keeps its values, with the better score."""
    best: dict[int, Hit] = {}
    for h in hits:
        old = best.get(h.pos)
        if old is None:
            best[h.pos] = h
        elif old.kind == "exact":
            best[h.pos] = replace(old, raw=max(old.raw, h.raw))
        elif h.kind == "exact" or h.raw > old.raw:
            best[h.pos] = replace(h, raw=max(old.raw, h.raw))
    return best


def rank(
    view: CatalogView,
    message: str,
    exc_type: str = "",
    frames: Sequence[Frame] = (),
    *,
    cutoff: float = FUZZY_CUTOFF,
    limit: int = 5,
    window: Window | None = None,
    fuzzy: bool = True,
) -> Ranking:
    """Rank catalog entries for one message. Empty `hits` means no match. `window` is what is
    known of the paste's release (errexplain.match.release.Window); `fuzzy=False` looks for
    exact matches only (a cheap look at many lines)."""
    msg = normalize_ws(message)
    if not msg:
        return Ranking((), (), False)
    if client_side(exc_type):
        exc_type = ""  # the server's message, re-raised by its client under the client's class
    seen = FrameSites(view, frames)
    hits = _exact(view, msg, exc_type, seen, window)
    # (a site raised only inside the project's own tests ends no search: a test may fake the
    # first words of another's message, `CUDA out of memory` of torch's allocator)
    if fuzzy and not any(
        _type_ok(h.cand, exc_type)
        and _confident(h, msg)
        and not _elsewhere(h, seen)
        and not h.cand.in_tests
        for h in hits
    ):
        hits.extend(_fuzzy(view, msg, exc_type, seen, window, message))
    best = _best_per_site(hits)
    for pos, cap in _wrapped_inside(list(best.values()), cutoff).items():
        h = best[pos]
        why = "its words are only inside the value of a wrapping message's template"
        best[pos] = replace(h, raw=cap, reasons=(*h.reasons, why))
    placed = bool(frames) and frames[-1].path.endswith(CPP_SUFFIXES)
    for pos, h in best.items():
        if h.cand.placed != placed:  # (a check's place before the message, or none)
            why = UNPLACED if h.cand.placed else PLACED
            best[pos] = replace(h, raw=h.raw - UNPLACED_CHECK, reasons=(*h.reasons, why))
    ordered = _at_frame_line(view, _order(list(best.values()), msg), seen)
    good = [
        h
        for h in ordered
        if h.score >= cutoff or (h.score >= cutoff - LOCATED_RELIEF and _located(h.cand, seen))
    ]
    if not good:
        probable = _probable(ordered, msg)
        if probable is not None:
            return Ranking(
                (probable,), tuple(h for h in ordered[:4] if h is not probable)[:3], False
            )
        return Ranking((), tuple(ordered[:3]), False)
    top = good[0]
    more = tuple(
        h
        for h in good[limit:SAME_TEXT_KEEP]
        if h.template == top.template and top.raw - h.raw <= SAME_TEXT_MARGIN
    )
    return Ranking(tuple(good[:limit]), (), _ambiguous(good), more)


UNPLACED_CHECK = 0.1
"""What a C++ check that prints its place before its text (`Failed at <file>:<line>: `) loses
on a message that came without it (the same check built elsewhere: sgl-kernel's and vLLM's
copies use torch's check, which prints none; or a text quoted apart from its place), and what
any other site loses on a message that came with such a place (errexplain.explainer reads it as
the innermost frame, a C/C++ source): torch's `CUDA error: ...` relayed by sglang's
`RuntimeDeviceCheck` is sglang's throw."""
UNPLACED = (
    "sglang's C++ check prints 'Failed at <file>:<line>: ' before this text and the paste's "
    "message has no such place: another build of the same check (sgl-kernel, vLLM) may have "
    "raised it"
)

PLACED = (
    "the message came with the place of a C++ check of sglang's ('Failed at <file>:<line>: '), "
    "which this site does not print"
)

SAME_TEXT_KEEP, SAME_TEXT_MARGIN = 64, 0.02
"""Hits kept beyond the limit (Ranking.more): of the best hit's template, within this margin
of its score (the age priors of older wordings, OLDER_PRIOR and OLDER_AGE, are less)."""
