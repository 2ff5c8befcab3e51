"""Tokens for candidate lookup and masking of volatile text for fuzzy scoring.

Pure and stdlib-only: used both when the index is built and on every match.
"""

from __future__ import annotations

from . import _rx
from .models import TYPE_CHECKING, memo

if TYPE_CHECKING:
    import re
from .template import compile_template, fill

_WORD = _rx.compile(r"[A-Za-z_][A-Za-z0-9_]+|[0-9]+[A-Za-z_][A-Za-z0-9_]*")
MASK = "\x00"
# Volatile tokens, most specific first. Each is linear (no nested quantifiers).
_MASKS = (
    _rx.compile(r"0x[0-9a-fA-F]+"),
    _rx.compile(r"(?:[A-Za-z]:)?(?:[\w.\-~]*/)+[\w.\-]+"),
    _rx.compile(r"'[^'\n]{0,200}'|\"[^\"\n]{0,200}\""),
    _rx.compile(r"(?<![A-Za-z_])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"),
)
_SPACE = _rx.compile(r"\s+")
_PUNCT_SPACE = _rx.compile(r"\s*([^\w\s\x00])\s*")
_MASK_RUN = _rx.compile(r"\x00(?:\s*\x00)+")


def words(text: str) -> list[str]:
    """Lower-cased identifier-like words (2+ chars) of a text, in order."""
    return [w.lower() for w in _WORD.findall(text)]


def _chunk_words(chunk: str, after_placeholder: bool, before_placeholder: bool) -> list[str]:
    found = list(_WORD.finditer(chunk))
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


def mask(text: str) -> str:
    """Replace volatile tokens (numbers, addresses, paths, quoted names) by one mask char,
    lower-case, and normalise spacing around punctuation."""
    for pattern in _MASKS:
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
