"""Follow raise sites across consecutive releases: which site of release R continues which
site of release R-1, through rewordings, moves and renames. Pure: sites in, decisions out.

A *lineage* is one site followed release by release. Release R continues the lineages alive
at R-1 in three passes:

1. **Exact**: same path, function, exception and template, or statement for a site without a
   message (several such sites in one function pair up by nearest line).
2. **Similar**: every site left over is scored against every lineage left over that shares a
   block with it (the same path, file name, last part of the function name, or masked
   template), see :func:`score`; pairs at or above :data:`THRESHOLD` are taken greedily,
   best first. A site without a message is not followed into another file while its own
   function still has sites in its file, or its class is still defined there and the other
   site's class is not one of its bases (:func:`_left_behind`).
3. **Revival**: a site still left over continues a lineage that ended at most
   :data:`REVIVAL_GAP` releases ago if path, function, exception and template are all the
   same (a file left out of a release, then back): the wording gets a gap.

   Then **verbatim** (2b): a leftover site with the same exception, template and guard as
   exactly one leftover lineage, and the only one so on its side, with at least
   :data:`MIN_LITERAL_VERBATIM` literal characters (code moved into a helper elsewhere).
   Then **same words in the same file** (2c): a leftover site with the same kind and the same
   masked template (placeholders renamed: ``<self.tp_rank>`` -> ``<get_parallel().tp_rank>``)
   as exactly one leftover lineage of the same file, the only one so on its side, with at least
   :data:`MIN_LITERAL_VERBATIM` literal characters, whatever its function, exception or log
   level became (code moved into another function or class of the file, logged at another
   level).
   Then **moved with its words** (2d): a leftover site of the same kind as exactly one
   leftover lineage whose message is nearly the same (similarity at least
   :data:`MIN_MESSAGE_MOVED`, :data:`MIN_LITERAL_VERBATIM` literal characters), when no other
   leftover on either side comes within :data:`MOVED_RIVAL`, and one thing of its place
   stayed: the file name, the function name or the guard (a check moved into a shared module
   and touched up on the way: ``Losing connection with prefill instance`` in
   ``mooncake/conn.py`` -> ``Lost connection ...`` in ``common/conn.py``). The same text
   with nothing of its place kept is another check.
   Then **grown** (2e): a leftover site whose message keeps, in order and ignoring case, every
   literal part of exactly one leftover lineage's message, one of them at least
   :data:`MIN_GROWN_PART` characters long, and adds a little to them (the old literal text is
   at least :data:`MIN_GROWN_SHARE` of the new; the same text unchanged elsewhere is left to
   the passes above), the only such pair on both sides, whatever its place
   (a check generalised into a shared helper that names what it watches:
   ``Watchdog timeout (self.watchdog_timeout=...)`` in a scheduler mixin ->
   ``{self.debug_name} watchdog timeout (self.watchdog_timeout=..., self.soft=...)`` in
   ``utils/watchdog.py``).

   Then **generalised** (2f): a leftover site whose template is exactly one leftover
   lineage's message with some of its literal text made a placeholder (:func:`generalizes`:
   every literal part of the new template found in order in the old message's literal text,
   together at least :data:`MIN_GENERAL_SHARE` of it and :data:`MIN_LITERAL_VERBATIM`
   characters), of the same kind and exception, in the same file or a function of the same
   name, the only such pair on both sides (one wording per parser made
   one helper's: ``--tool-call-parser=auto specified but could not detect tool-call parser
   ...`` -> ``--<attr>=auto specified but could not detect <label> ...``;
   ``token_to_kv_pool_allocator memory leak detected! <msg>`` -> ``<pool_name> memory leak
   detected! <msg>``). When several ended lineages are each so generalised by one new site (a
   helper that took over the wordings of two or more checks), that site is what replaced
   them (``replaced_by``), before the nearest similar site of the same function, and before
   the one site that said the same words in the same function beside it and stays
   (:func:`kept_twin`: a warning dropped, the raise of its message kept).

What is left starts a new lineage; a lineage not continued ends. Sites are compared through
their fields only (``kind`` is one more field), so new kinds of sites need nothing here.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from rapidfuzz import fuzz, process

from errexplain._startup import MutableRecord, Record
from errexplain.extract.merge import site_text
from errexplain.extract.records import Site
from errexplain.match.normalize import mask_template
from errexplain.match.template import (
    compile_template,
    generalized_literal,
    match_compiled,
    normalize_ws,
)

THRESHOLD = 0.75
"""The lowest :func:`score` of a pairing that is not exact. The weights (message 0.5, path 0.2,
function 0.15, exception 0.1, guard 0.05) make it mean: the message must carry about half of
the evidence and the location the rest. Reworded in place (same path, function, exception,
guard) passes from a message similarity of 0.5 on; a whole file moved to another package (same
file name and function, same text) scores 0.94, a file renamed in its package 0.88, a function
renamed in its file 0.85, a method whose class was renamed 0.97; the same text with nothing
else in common (0.65) does not pass, nor a new message in the same function (similarity < 0.5).
Measured on sglang 0.2.0 .. 0.5.23, see docs/catalog.md."""
MIN_MESSAGE = 0.5
"""Below this message similarity a site is never a continuation, however close its location."""
MIN_MESSAGE_ELSEWHERE = 0.9
"""A site in another file and package (nothing but the function name in common) must say
almost the same thing, with enough literal text to tell it from other sites."""
MIN_LITERAL_ELSEWHERE = 12
MIN_LITERAL_VERBATIM = 20
"""Literal characters a message moved word for word needs to be followed with nothing else in
common (pass 2b)."""
MIN_MESSAGE_MOVED = 0.9
MOVED_RIVAL = 0.8
"""Pass 2d: a moved message must be this similar to its old self, and no other leftover site
(or lineage) may be even :data:`MOVED_RIVAL` similar to either of the two."""
MIN_GROWN_PART = 30
MIN_GROWN_SHARE = 0.6
"""Pass 2e: the longest literal part a grown message keeps, and the share of the new literal
text the old one must make up (a long message that quotes a short one is another check)."""
MIN_GENERAL_SHARE = 0.4
"""Pass 2f: the share of an old message's literal text that a template generalising it must
keep (the explainer's GENERAL_SHARE, by which it names the current wording at match time)."""
GAINED_MESSAGE = 0.6
"""The message similarity of an assert and its message-less self (same test, file, function):
with everything else the same its score passes :data:`THRESHOLD` (0.8)."""
REPLACED_MESSAGE = 0.4
"""``replaced_by``: a new site in the same path and function as a removed lineage, not paired
with it, but this similar: it most probably took its place."""
REVIVAL_GAP = 3
WEIGHTS = {"message": 0.5, "path": 0.2, "function": 0.15, "exception": 0.1, "guard": 0.05}


class Score(Record):
    """A pairing's score and its parts (each 0..1), for the audit."""

    total: float
    message: float
    path: float
    function: float
    exception: float
    guard: float


def _last(function: str) -> str:
    return function.rsplit(".", 1)[-1]


def _owner(function: str) -> str:
    return function.rsplit(".", 1)[0] if "." in function else ""


def message_similarity(a: Site, b: Site) -> float:
    """Similarity of the masked templates (0..1); for two sites without a message, of their
    statements (`assert self.being_chunked_req is None` -> `assert self.chunked_req is None`
    is one check renamed, `assert (...)` beside it is another); two messages that are only
    placeholders say nothing (0.5)."""
    if not a.template and not b.template and a.statement and b.statement:
        return fuzz.ratio(a.statement, b.statement) / 100
    ma, mb = mask_template(a.template), mask_template(b.template)
    if not ma.strip("\x00 ") and not mb.strip("\x00 "):
        return 0.5 if a.template != b.template else 1.0
    if _expands(a.template, b.template) or _expands(b.template, a.template):
        return 1.0
    return fuzz.ratio(ma, mb) / 100


def _constant(name: str) -> bool:
    """A placeholder named like a module constant (``CUDA_GRAPH_CAPTURE_FAILED_MSG``)."""
    bare = name.rsplit(".", 1)[-1]
    return bare.isupper() and any(c.isalpha() for c in bare)


def _expands(short: str, long: str) -> bool:
    """`long` is `short` with the text of module constants written out: each placeholder of
    `short` named like a constant holds words of `long`, every other one holds the same
    placeholder of `long`. The extractor writes out a constant of the raising module, not an
    imported one, so one message reads both ways when its code moves away from the module
    that defines the constant (``Capture cuda graph failed: <e>`` then the help text, or then
    ``<CUDA_GRAPH_CAPTURE_FAILED_MSG>``)."""
    compiled = compile_template(short)
    if compiled.literal_len < MIN_LITERAL_ELSEWHERE or not any(map(_constant, compiled.names)):
        return False
    values = match_compiled(compiled, normalize_ws(long))
    if values is None:
        return False
    return all(
        (value.strip() and not value.strip().startswith("<"))
        if _constant(name)
        else value.strip() == f"<{name}>"
        for name, value in zip(compiled.names, values, strict=True)
    )


def _path_score(a: str, b: str) -> float:
    if a == b:
        return 1.0
    if posixpath.basename(a) == posixpath.basename(b):
        return 0.7  # the file moved to another package
    if posixpath.dirname(a) == posixpath.dirname(b):
        return 0.4  # renamed in its package
    return 0.0


def _function_score(a: str, b: str) -> float:
    if a == b:
        return 1.0
    if _last(a) == _last(b) and a != "<module>" and b != "<module>":
        return 0.8  # class renamed, or moved into/out of a class
    if _owner(a) and _owner(a) == _owner(b):
        return 0.3  # method renamed in the same class
    return 0.0


def _guard_score(a: Site, b: Site) -> float:
    if a.condition == b.condition:
        return 1.0
    if a.condition and b.condition:
        return fuzz.ratio(a.condition, b.condition) / 100
    return 0.0


def _statement_worded(site: Site) -> bool:
    return not site.template and bool(site.statement)


def _gained_message(old: Site, new: Site) -> bool:
    """An assert that gained (or lost) a message in place: the same test, file and function."""
    return (
        old.kind == new.kind == "assert"
        and _statement_worded(old) != _statement_worded(new)
        and bool(old.condition)
        and old.condition == new.condition
        and old.path == new.path
        and old.function == new.function
    )


def _message_part(old: Site, new: Site) -> float | None:
    """The message similarity of a possible pairing, None when it rules the pairing out."""
    if _gained_message(old, new):
        return GAINED_MESSAGE
    message = message_similarity(old, new)
    if message < MIN_MESSAGE:
        return None
    if (
        _statement_worded(old)
        and _statement_worded(new)
        and _function_score(old.function, new.function) < 0.8
    ):
        return None
    return message


def score(old: Site, new: Site) -> Score | None:
    """How likely ``new`` continues ``old`` (None: never). See :data:`THRESHOLD`.

    A statement is no message: two sites worded by the same statement
    (``assert param_data.shape == loaded_weight.shape`` is in every weight loader) continue one
    another only in a function of the same name; an assert that gained a message in place (the
    same test, file and function) continues its message-less self."""
    message = _message_part(old, new)
    if message is None:
        return None
    parts = {
        "message": message,
        "path": _path_score(old.path, new.path),
        "function": _function_score(old.function, new.function),
        "exception": 1.0 if old.exception == new.exception else 0.0,
        "guard": _guard_score(old, new),
    }
    if parts["path"] == 0.0:
        literal = len(mask_template(new.template).replace("\x00", ""))
        if message < MIN_MESSAGE_ELSEWHERE or literal < MIN_LITERAL_ELSEWHERE:
            return None
    total = round(sum(WEIGHTS[k] * v for k, v in parts.items()), 6)
    return Score(total, **parts)


class Pairing(Record):
    """Site ``new`` (an index into the new sites) continues ``old`` (an index into the old)."""

    old: int
    new: int
    exact: bool
    score: Score | None = None
    how: str = ""
    """How a pairing that is not exact was made, for the audit (``similar``, ``verbatim``,
    ``moved``); empty: from ``score``."""


def _key(site: Site) -> tuple[str, str, str, str]:
    """Exact continuation: the same place and text (for a site without a message, the same
    statement: the asserts of one function pair by what they check, not by their order)."""
    return (site.path, site.function, site.exception, site_text(site))


def _exact(old: Sequence[Site], new: Sequence[Site]) -> list[Pairing]:
    olds: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for i, site in enumerate(old):
        olds[_key(site)].append(i)
    news: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for j, site in enumerate(new):
        news[_key(site)].append(j)
    pairs: list[Pairing] = []
    for key, js in news.items():
        is_ = olds.get(key)
        if not is_:
            continue
        if len(is_) == len(js):  # the same sites, maybe shifted: in line order
            by_line = sorted(is_, key=lambda i: old[i].line)
            news_ = sorted(js, key=lambda j: new[j].line)
            pairs += [Pairing(i, j, True) for i, j in zip(by_line, news_, strict=True)]
            continue
        cands = sorted(
            (abs(old[i].line - new[j].line), old[i].line, new[j].line, i, j)
            for i in is_
            for j in js
        )
        used_i: set[int] = set()
        used_j: set[int] = set()
        for *_, i, j in cands:
            if i not in used_i and j not in used_j:
                used_i.add(i)
                used_j.add(j)
                pairs.append(Pairing(i, j, True))
    return pairs


def _blocks(site: Site) -> Iterable[tuple[str, str]]:
    yield ("path", site.path)
    yield ("file", posixpath.basename(site.path))
    if site.function != "<module>":
        yield ("function", _last(site.function))
    masked = mask_template(site.template)
    if masked.strip("\x00 "):
        yield ("message", masked)


def _left_behind(
    old: Site,
    new: Site,
    alive: set[tuple[str, str]],
    classes: Mapping[tuple[str, str], tuple[str, ...]] | None,
) -> bool:
    """A site worded by its statement alone (no message: its place is all it is) that stayed
    where it was in the new release, so the same statement in another file is another check:
    its function still has sites in its own file (edited, not moved), or its class is still
    defined there and the other site's class is neither it nor one of its bases (a method
    moved into a mixin its class inherits did move). ``param = params_dict[name]`` guarded in
    ``LlamaForCausalLM.load_weights`` is not ``lfm2.py``'s
    ``Lfm2BidirectionalModel.load_weights``."""
    if not _statement_worded(old) or new.path == old.path:
        return False
    if (old.path, old.function) in alive:
        return True
    owner = _owner(old.function)
    if not owner or classes is None or (old.path, owner) not in classes:
        return False
    other = _owner(new.function)
    return other != owner and other not in classes[(old.path, owner)]


def _similar(
    old: Sequence[Site],
    new: Sequence[Site],
    olds: Sequence[int],
    news: Sequence[int],
    classes: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
) -> list[Pairing]:
    index: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i in olds:
        for block in _blocks(old[i]):
            index[block].append(i)
    scored: list[tuple[float, int, int, int, Score]] = []
    alive = {(site.path, site.function) for site in new}
    for j in news:
        cands = sorted({i for block in _blocks(new[j]) for i in index.get(block, ())})
        for i in cands:
            if _left_behind(old[i], new[j], alive, classes):
                continue
            s = score(old[i], new[j])
            if s is not None and s.total >= THRESHOLD:
                scored.append((-s.total, abs(old[i].line - new[j].line), i, j, s))
    scored.sort(key=lambda t: t[:4])
    pairs: list[Pairing] = []
    used_i: set[int] = set()
    used_j: set[int] = set()
    for _, _, i, j, s in scored:
        if i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            pairs.append(Pairing(i, j, False, s))
    return pairs


def _verbatim(
    old: Sequence[Site], new: Sequence[Site], olds: Sequence[int], news: Sequence[int]
) -> list[Pairing]:
    """Pass 2b: a message moved word for word to another module and function (code moved into
    a helper elsewhere): same exception, template and guard, enough literal text, and the only
    such site on both sides."""

    def key(site: Site) -> tuple[str, str, str | None]:
        return (site.exception, site.template, site.condition)

    def unique(sites: Sequence[Site], idx: Sequence[int]) -> dict[tuple[str, str, str | None], int]:
        found: dict[tuple[str, str, str | None], list[int]] = defaultdict(list)
        for i in idx:
            literal = len(mask_template(sites[i].template).replace("\x00", ""))
            if literal >= MIN_LITERAL_VERBATIM:
                found[key(sites[i])].append(i)
        return {k: v[0] for k, v in found.items() if len(v) == 1}

    mine = unique(old, olds)
    return [Pairing(mine[k], j, False, None) for k, j in unique(new, news).items() if k in mine]


def _followable(site: Site) -> str | None:
    """A site's masked template when it has MIN_LITERAL_VERBATIM literal characters (enough to
    be followed by its words alone: passes 2c and 2d), else None."""
    masked = mask_template(site.template)
    return masked if len(masked.replace("\x00", "").strip()) >= MIN_LITERAL_VERBATIM else None


def _same_words_in_file(
    old: Sequence[Site], new: Sequence[Site], olds: Sequence[int], news: Sequence[int]
) -> list[Pairing]:
    """Pass 2c (module docstring)."""

    def unique(sites: Sequence[Site], idx: Sequence[int]) -> dict[tuple[str, str, str], int]:
        found: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        for i in idx:
            masked = _followable(sites[i])
            if masked is not None:
                found[(sites[i].path, sites[i].kind, masked)].append(i)
        return {k: v[0] for k, v in found.items() if len(v) == 1}

    mine = unique(old, olds)
    return [Pairing(mine[k], j, False, None) for k, j in unique(new, news).items() if k in mine]


def _kept_place(a: Site, b: Site) -> bool:
    """Something of a site's place that a move kept: its file name, its function's name, or
    its guard."""
    if posixpath.basename(a.path) == posixpath.basename(b.path):
        return True
    if a.function != "<module>" and _last(a.function) == _last(b.function):
        return True
    return bool(a.condition and b.condition) and _guard_score(a, b) >= MOVED_RIVAL


def _moved(
    old: Sequence[Site], new: Sequence[Site], olds: Sequence[int], news: Sequence[int]
) -> list[Pairing]:
    """Pass 2d (module docstring)."""

    def texts(sites: Sequence[Site], idx: Sequence[int]) -> dict[str, dict[int, str]]:
        by_kind: dict[str, dict[int, str]] = defaultdict(dict)
        for i in idx:
            masked = _followable(sites[i])
            if masked is not None:
                by_kind[sites[i].kind][i] = masked
        return by_kind

    def only(text: str, choices: dict[int, str]) -> int | None:
        """The one choice at least MIN_MESSAGE_MOVED similar, with no rival near it."""
        found = process.extract(
            text, choices, scorer=fuzz.ratio, score_cutoff=MOVED_RIVAL * 100, limit=2
        )
        if len(found) != 1 or found[0][1] < MIN_MESSAGE_MOVED * 100:
            return None
        return int(found[0][2])

    mine, theirs = texts(old, olds), texts(new, news)
    pairs = []
    for kind, choices in theirs.items():
        rivals = mine.get(kind)
        if not rivals:
            continue
        for j, text in choices.items():
            i = only(text, rivals)
            if i is not None and only(rivals[i], choices) == j and _kept_place(old[i], new[j]):
                pairs.append(Pairing(i, j, False, None, "moved"))
    return pairs


def _grown(
    old: Sequence[Site], new: Sequence[Site], olds: Sequence[int], news: Sequence[int]
) -> list[Pairing]:
    """Pass 2e (module docstring)."""

    mine = {i: _literal_parts(old[i]) for i in olds}
    mine = {i: p for i, p in mine.items() if p and max(map(len, p)) >= MIN_GROWN_PART}
    if not mine:
        return []
    found: dict[int, list[int]] = defaultdict(list)  # new -> old
    back: dict[int, list[int]] = defaultdict(list)  # old -> new
    for j in news:
        now = _literal_parts(new[j])
        whole, size = "\x00".join(now), sum(map(len, now))
        for i, kept in mine.items():
            if old[i].kind != new[j].kind or not _keeps_in_order(whole, kept):
                continue
            if size > sum(map(len, kept)) >= MIN_GROWN_SHARE * size:
                found[j].append(i)
                back[i].append(j)
    return _only_pairs(found, back, "grown")


def _only_pairs(found: dict[int, list[int]], back: dict[int, list[int]], how: str) -> list[Pairing]:
    """The pairings of old ``i`` and new ``j`` that are the only such pair on both sides:
    ``found[j]`` (the old sites new ``j`` continues) is ``[i]`` and ``back[i]`` is ``[j]``;
    sorted by new index."""
    return [
        Pairing(i, j, False, None, how)
        for j, (i, *more) in sorted(found.items())
        if not more and back[i] == [j]
    ]


def generalizes(new: Site, old: Site) -> bool:
    """Whether ``new``'s template is ``old``'s message with some of its literal text made a
    placeholder: the same kind and exception, and every literal part of ``new`` in order in
    ``old``'s literal text, at least MIN_GENERAL_SHARE of it and MIN_LITERAL_VERBATIM
    characters, with more placeholders than ``old``."""
    if new.kind != old.kind or new.exception != old.exception or not new.template:
        return False
    now, before = compile_template(new.template), compile_template(old.template)
    if len(now.names) <= len(before.names):
        return False
    found = generalized_literal(new.template, old.template)
    if found is None:
        return False
    kept, whole = found
    return kept >= MIN_LITERAL_VERBATIM and kept >= MIN_GENERAL_SHARE * whole


def _generalised(
    old: Sequence[Site], new: Sequence[Site], olds: Sequence[int], news: Sequence[int]
) -> list[Pairing]:
    """Pass 2f (module docstring)."""
    by_place = templates_by_place(new, news)
    back = {i: _generalisers(old[i], new, by_place) for i in olds}  # old -> new
    found: dict[int, list[int]] = defaultdict(list)  # new -> old
    for i, js in back.items():
        for j in js:
            found[j].append(i)
    return _only_pairs(found, back, "generalised")


def _place_names(site: Site) -> tuple[str, ...]:
    """What of a site's place a move may keep, for pass 2f: its file name and its function's
    name (a module-level site has only its file name)."""
    file = "file:" + posixpath.basename(site.path)
    if site.function == "<module>":
        return (file,)
    return (file, "function:" + _last(site.function))


def templates_by_place(
    sites: Sequence[Site], idx: Iterable[int] | None = None
) -> dict[str, list[int]]:
    """The sites (indices; of ``idx`` only, when given) with a placeholder in their template,
    by :func:`_place_names`."""
    out: dict[str, list[int]] = defaultdict(list)
    for j in range(len(sites)) if idx is None else idx:
        if "<" in sites[j].template:
            for name in _place_names(sites[j]):
                out[name].append(j)
    return out


def _generalisers(old: Site, new: Sequence[Site], by_place: dict[str, list[int]]) -> list[int]:
    """The new sites (indices, ascending) in ``old``'s file or of its function's name whose
    template generalises ``old``'s message (:func:`generalizes`). ``by_place``:
    :func:`templates_by_place` of ``new``."""
    near = {j for name in _place_names(old) for j in by_place.get(name, ())}
    return [j for j in sorted(near) if generalizes(new[j], old)]


def generalised_by(old: Site, new: Sequence[Site], by_place: dict[str, list[int]]) -> int | None:
    """The one new site (index) whose template generalises the removed ``old``'s message
    (:func:`_generalisers`), or None."""
    found = _generalisers(old, new, by_place)
    return found[0] if len(found) == 1 else None


def _literal_parts(site: Site) -> list[str]:
    """The literal parts of a site's template, in lower case (its placeholders only split it:
    value-like words it writes out, `Mamba/SSM`, are kept)."""
    literals = compile_template(site.template).literals
    return [p.strip().lower() for p in literals if p.strip()]


def _keeps_in_order(whole: str, kept: list[str]) -> bool:
    """Every kept part in `whole`, in order, none inside a longer word (`consumer_count` is
    not kept in `total_consumer_count`)."""
    at = 0
    for part in kept:
        at = whole.find(part, at)
        while at >= 0 and _inside_word(whole, at, at + len(part)):
            at = whole.find(part, at + 1)
        if at < 0:
            return False
        at += len(part)
    return True


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _inside_word(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] begins or ends in the middle of a word of `text`."""
    if start and _word_char(text[start]) and _word_char(text[start - 1]):
        return True
    return end < len(text) and _word_char(text[end - 1]) and _word_char(text[end])


def pair(
    old: Sequence[Site],
    new: Sequence[Site],
    classes: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
) -> list[Pairing]:
    """Which new site continues which old one (passes 1 and 2 of the module docstring);
    sorted by new index. ``classes``: the new release's classes (:func:`_left_behind`)."""
    pairs = _exact(old, new)
    taken_old = {p.old for p in pairs}
    taken_new = {p.new for p in pairs}
    rest_old = [i for i in range(len(old)) if i not in taken_old]
    rest_new = [j for j in range(len(new)) if j not in taken_new]
    if rest_old and rest_new:
        pairs += _similar(old, new, rest_old, rest_new, classes)
        for follow in (_verbatim, _same_words_in_file, _moved, _grown, _generalised):
            taken_old = {p.old for p in pairs}
            taken_new = {p.new for p in pairs}
            pairs += follow(
                old,
                new,
                [i for i in rest_old if i not in taken_old],
                [j for j in rest_new if j not in taken_new],
            )
    return sorted(pairs, key=lambda p: p.new)


def replacement(old: Site, new: Sequence[Site], candidates: Iterable[int]) -> int | None:
    """The new site (index) that most probably replaced the removed ``old``: same path and
    function, message similarity at least :data:`REPLACED_MESSAGE`; best first, then nearest
    line."""
    best: tuple[float, int, int] | None = None
    for j in candidates:
        site = new[j]
        if site.path != old.path or site.function != old.function:
            continue
        ma, mb = mask_template(old.template), mask_template(site.template)
        sim = fuzz.ratio(ma, mb) / 100
        if sim < REPLACED_MESSAGE:
            continue
        key = (-sim, abs(site.line - old.line), j)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def kept_twin(
    old: Site,
    new: Sequence[Site],
    by_function: Mapping[tuple[str, str], list[int]],
    before: Mapping[int, Site],
    owner: Mapping[int, int],
) -> int | None:
    """The new site (index) that carries the check of the removed ``old`` when the two said
    the same words in one function and only this one is left: a message both warned and raised
    (``warnings.warn(msg)`` then ``raise ValueError(msg)`` under a flag), of which a release
    kept the raise. Its lineage must be one that was alive beside ``old`` in that function with
    the same masked template, and the only one so."""
    masked = mask_template(old.template)
    if not masked.strip():
        return None
    found = []
    for j in by_function.get((old.path, old.function), ()):
        site = new[j]
        prev = before.get(owner.get(j, -1))
        if prev is None or prev is old:
            continue
        if not all(
            (x.path, x.function) == (old.path, old.function) and mask_template(x.template) == masked
            for x in (site, prev)
        ):
            continue
        found.append(j)
    return found[0] if len(found) == 1 else None


# --------------------------------------------------------------------------- the fold


class Lineage(MutableRecord):
    """One site followed across releases: (release index, site) in release order."""

    occurrences: list[tuple[int, Site]]
    replaced_by: tuple[int, int] | None = None
    """(release index, lineage index) of the site that took this removed lineage's place."""

    @property
    def last(self) -> tuple[int, Site]:
        return self.occurrences[-1]


class Audit(Record):
    """A pairing that was not exact, as the maintainer check prints it."""

    release: int
    old: Site
    new: Site
    score: Score | None
    how: str


class History:
    """Lineages over releases, extended one release at a time with :meth:`add`."""

    def __init__(self, releases: Sequence[str] = (), lineages: Sequence[Lineage] = ()) -> None:
        self.releases: list[str] = list(releases)
        self.lineages: list[Lineage] = list(lineages)
        last = len(self.releases) - 1
        self.alive: list[int] = [
            n for n, lin in enumerate(self.lineages) if lin.last[0] == last and last >= 0
        ]
        self.audit: list[Audit] = []
        self._ended: list[int] = [
            n for n, lin in enumerate(self.lineages) if last - REVIVAL_GAP <= lin.last[0] < last
        ]

    def _revive(self, r: int, sites: Sequence[Site], rest: list[int]) -> dict[int, int]:
        """Pass 3: site index -> lineage index, for lineages that ended recently."""
        alive = set(self.alive)
        self._ended = [
            n for n in self._ended if r - 1 - REVIVAL_GAP <= self.lineages[n].last[0] < r - 1
        ]
        recent: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
        for n in self._ended:
            if n not in alive:
                recent[_key(self.lineages[n].last[1])].append(n)
        out: dict[int, int] = {}
        for j in rest:
            cands = recent.get(_key(sites[j]))
            if cands:
                n = max(cands, key=lambda n: (self.lineages[n].last[0], -n))
                cands.remove(n)
                out[j] = n
        return out

    def add(
        self,
        version: str,
        sites: Sequence[Site],
        classes: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
    ) -> None:
        """Continue the lineages with the sites of the next release ``version`` (``classes``:
        the classes it defines, when known: :func:`_left_behind`)."""
        r = len(self.releases)
        self.releases.append(version)
        old = [self.lineages[n].last[1] for n in self.alive]
        pairs = pair(old, sites, classes)
        owner: dict[int, int] = {}
        for pr in pairs:
            owner[pr.new] = self.alive[pr.old]
            if not pr.exact:
                how = pr.how or ("similar" if pr.score is not None else "verbatim")
                self.audit.append(Audit(r, old[pr.old], sites[pr.new], pr.score, how))
        rest = [j for j in range(len(sites)) if j not in owner]
        for j, n in self._revive(r, sites, rest).items():
            owner[j] = n
            self.lineages[n].replaced_by = None
            self.audit.append(Audit(r, self.lineages[n].last[1], sites[j], None, "revived"))
        born: list[int] = []
        for j, site in enumerate(sites):
            if j not in owner:
                owner[j] = len(self.lineages)
                self.lineages.append(Lineage([]))
                born.append(j)
            lin = self.lineages[owner[j]]
            prev = lin.occurrences[-1][1] if lin.occurrences else None
            lin.occurrences.append((r, prev if prev == site else site))
        continued = set(owner.values())
        self._end(r, old, sites, owner, continued, born)
        self.alive = sorted(continued)

    def _end(
        self,
        r: int,
        old: Sequence[Site],
        sites: Sequence[Site],
        owner: dict[int, int],
        continued: set[int],
        born: list[int],
    ) -> None:
        """End the lineages release ``r`` did not continue (``old``: their last sites, in the
        order of ``self.alive``; ``continued``: the lineages ``owner`` maps a site to), each
        with the site that replaced it, if one did."""
        by_place: dict[str, list[int]] | None = None
        by_function: dict[tuple[str, str], list[int]] | None = None
        before: dict[int, Site] = {}
        for k, n in enumerate(self.alive):
            if n in continued:
                continue
            self._ended.append(n)
            if by_place is None:
                by_place = templates_by_place(sites)
            found = generalised_by(old[k], sites, by_place)
            if found is None:
                found = replacement(old[k], sites, born)
            if found is None:
                if by_function is None:
                    by_function = defaultdict(list)
                    for j, site in enumerate(sites):
                        by_function[site.path, site.function].append(j)
                    before = {lin: old[i] for i, lin in enumerate(self.alive)}
                found = kept_twin(old[k], sites, by_function, before, owner)
            if found is not None:
                self.lineages[n].replaced_by = (r, owner[found])
