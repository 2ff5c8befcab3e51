"""Tokens for candidate lookup and masking of volatile text for fuzzy scoring.

Pure and stdlib-only: used both when the index is built and on every match.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, memo
from errexplain.match.template import compile_template, fill
from errexplain.models import WordStats

if TYPE_CHECKING:
    import re
    from collections.abc import Mapping, Sequence

_RUN = compile_regex(r"[A-Za-z0-9_]+")
"""A word is a maximal run of ASCII word characters of 2+ characters that is not all digits.
(This is what ``[A-Za-z_][A-Za-z0-9_]+|[0-9]+[A-Za-z_][A-Za-z0-9_]*`` finds, without the
backtracking that made that pattern quadratic on long digit runs: issue 14.)"""
MASK = "\x00"
# Volatile tokens, most specific first. Each runs in linear time on any input (tests/match/
# test_linear.py): no nested quantifiers, or (paths) a backtracking pattern run only on runs of
# its own characters no longer than PATH_RUN_MAX.
_MASKS = (
    compile_regex(r"0x[0-9a-fA-F]+"),
    compile_regex(r"'[^'\n]{0,200}'|\"[^\"\n]{0,200}\""),
    compile_regex(r"(?<![A-Za-z_])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"),
)
_PATH = compile_regex(r"(?:[A-Za-z]:)?(?:[\w.\-~]*/)+[\w.\-]+")
_PATH_RUN = compile_regex(r"[\w.\-~/:]+")
"""Every match of _PATH lies inside one run of these characters, and _PATH finds the same
matches in a run alone as in the whole text (it has no anchors or lookarounds)."""
PATH_RUN_MAX = 512
"""_PATH backtracks (quadratic in a run's length); a longer run with a slash is one path."""
_SPACE = compile_regex(r"\s+")
_PUNCT_SPACE = compile_regex(r"\s*([^\w\s\x00])\s*")
_MASK_RUN = compile_regex(r"\x00(?:\s*\x00)+")


def _word_matches(text: str) -> list[re.Match[str]]:
    return [m for m in _RUN.finditer(text) if m.end() - m.start() > 1 and not m.group().isdigit()]


def words(text: str) -> list[str]:
    """Lower-cased identifier-like words (2+ chars) of a text, in order."""
    return [m.group().lower() for m in _word_matches(text)]


def _chunk_words(chunk: str, after_placeholder: bool, before_placeholder: bool) -> list[str]:
    found = _word_matches(chunk)
    # A word touching a placeholder may be glued to the value in a real message: skip it.
    if found and after_placeholder and found[0].start() == 0:
        found = found[1:]
    if found and before_placeholder and found[-1].end() == len(chunk):
        found = found[:-1]
    return [m.group().lower() for m in found]


@memo(maxsize=65536)
def template_words(template: str) -> tuple[str, ...]:
    """Words that every message matching the template must contain as whole words."""
    compiled = compile_template(template)
    last = len(compiled.literals) - 1
    out: list[str] = []
    for i, chunk in enumerate(compiled.literals):
        out.extend(_chunk_words(chunk, i > 0, i < last))
    return tuple(out)


def _group1(m: re.Match[str]) -> str:
    """The replacement `\\1` as a function: a template string would make sre import `re`."""
    return m.group(1)


def _mask_path(m: re.Match[str]) -> str:
    run = m.group()
    if "/" not in run:
        return run
    return _PATH.sub(MASK, run) if len(run) <= PATH_RUN_MAX else MASK


def mask(text: str) -> str:
    """Replace volatile tokens (numbers, addresses, paths, quoted names) by one mask char,
    lower-case, and normalise spacing around punctuation."""
    text = _MASKS[0].sub(MASK, text)
    text = _PATH_RUN.sub(_mask_path, text)
    for pattern in _MASKS[1:]:
        text = pattern.sub(MASK, text)
    text = _PUNCT_SPACE.sub(_group1, _SPACE.sub(" ", text))
    return _MASK_RUN.sub(MASK, text).strip().lower()


@memo(maxsize=65536)
def mask_template(template: str) -> str:
    """The template as :func:`mask` would see a message built from it."""
    compiled = compile_template(template)
    return mask(fill(template, dict.fromkeys(compiled.names, MASK)))


MIN_LITERAL = 10
"""Templates with less literal text than this (or no word at all) cannot identify a message."""


@memo(maxsize=65536)
def identifiable(template: str) -> bool:
    """Whether a template has enough literal text to win a match on its own."""
    return bool(template_words(template)) and compile_template(template).literal_len >= MIN_LITERAL


TemplateFacts = tuple[int, tuple[str, ...], bool]
"""What the index needs of a template: its literal length, its distinct words in order
(:func:`template_words`) and whether it is :func:`identifiable`."""


def template_facts(template: str) -> TemplateFacts:
    """The :data:`TemplateFacts` of one template (an index build computes them where the
    template is parsed, in its loader process, and passes them on)."""
    words = tuple(dict.fromkeys(template_words(template)))
    return compile_template(template).literal_len, words, identifiable(template)


def _facts(
    templates: Sequence[str], known: Mapping[str, TemplateFacts] | None
) -> list[TemplateFacts]:
    known = known or {}
    return [known.get(t) or template_facts(t) for t in templates]


def filing_words(
    templates: Sequence[str], known: Mapping[str, TemplateFacts] | None = None
) -> list[tuple[str, str] | None]:
    """For each template, the word it is filed under for exact matching (its rarest literal
    word) and its second rarest ("" if it has one word only); None for templates that are not
    :func:`identifiable`. A message can match a template only if it contains both words, so
    a store can skip a candidate whose second word the message lacks without reading it.
    `known`: :data:`TemplateFacts` already computed, by template."""
    facts = _facts(templates, known)
    df: dict[str, int] = {}
    for _, ws, _ in facts:
        for w in ws:
            df[w] = df.get(w, 0) + 1

    rank = {w: i for i, w in enumerate(sorted(df, key=lambda w: (df[w], -len(w), w)))}
    rarity = rank.__getitem__  # rarest first: fewest templates, then longest, then by text

    out: list[tuple[str, str] | None] = []
    for _, ws, ok in facts:
        if not ws or not ok:
            out.append(None)
            continue
        first = min(ws, key=rarity)
        rest = [w for w in ws if w != first]
        out.append((first, min(rest, key=rarity) if rest else ""))
    return out


def word_stats(
    templates: Sequence[str], known: Mapping[str, TemplateFacts] | None = None
) -> WordStats:
    """The inverted word index of the identifiable templates, positions in the given order."""
    import math
    from itertools import repeat

    facts = _facts(templates, known)
    post: dict[str, list[int]] = {}
    for pos, (_, ws, ok) in enumerate(facts):
        if ok:
            for w in ws:
                post.setdefault(w, []).append(pos)
    n = max(len(templates), 1)
    idf = {w: math.log(1 + n / len(ps)) for w, ps in post.items()}
    weight = idf.get
    zeros = repeat(0.0)
    wsum = tuple([sum(map(weight, ws, zeros)) for _, ws, _ in facts])  # (idf.get(w, 0.0))
    return WordStats({w: tuple(v) for w, v in post.items()}, idf, wsum)


FAILURE = compile_regex(
    r"(?<![-_=])\b(?:fail[a-z]*|error[a-z]*|cannot|can't|unable|invalid|not supported|"
    r"unsupported|exceed[a-z]*|timeout|timed out|abort[a-z]*|out of memory|oom|leak[a-z]*|"
    r"deadlock[a-z]*|crash[a-z]*|killed|dead|is full|retract[a-z]*|could not|couldn't|"
    r"malformed|mismatch[a-z]*|(?:does|do|did)(?: not|n't) match|not found|missing)\b(?![-_=])",
    2,  # re.IGNORECASE, without importing re
)
"""Words by which a warning or an info line reports a failure (`Parameter <name> not found in
params_dict` is a weight the loader skipped). A word joined to a flag or a
field name (``--crash-dump-folder``, ``failed_requests``, ``timeout=<t>``) names a setting, not
a failure."""
INFO_SETTING = frozenset({"timeout"})
"""Words that an info line uses for a setting (`Setting distributed timeout to <n> seconds`):
they report a failure there only as a heading (`Timeout: not all nodes are ready`)."""
WARNING_ONLY = frozenset({"not found", "missing"})
"""Words that report a failure in a warning only: an info line uses them for a default taken
(`<file> not found, using the defaults`). (So the extractor, which records an info line only
when it reports a failure, records the same info lines as before these words were added.)"""


DISMISSED = compile_regex(
    r"\b(?:can|may|could) (?:be )?(?:safely )?ignored\b|\bsafe to ignore\b|\b(?:is|are) harmless\b",
    2,
)
"""Words by which a warning says that what it reports is no failure (`The following error message
'...' can be ignored.`): the failure words it quotes are not its own."""


def reports_failure(level: str, template: str) -> bool:
    """Whether a log line of this level reports a failure by its literal words (an error,
    critical or exception line always does; a warning that says it can be ignored never)."""
    if level not in ("warning", "info"):
        return True
    text = compile_template(template).literal_text
    if DISMISSED.search(text):
        return False
    for m in FAILURE.finditer(text):
        word = m.group().lower()
        if level == "info" and word in WARNING_ONLY:
            continue
        if level != "info" or word not in INFO_SETTING:
            return True
        if text[m.end() : m.end() + 1] in (":", "!"):
            return True
    return False
