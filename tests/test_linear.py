"""Linear time wherever user text reaches (issue 14): every regex that is searched over user
text, and the parser and masks end to end, on adversarial generated inputs (a short chunk of
the characters these patterns care about, repeated). A quadratic pattern takes seconds to
minutes at these sizes; the thresholds are generous for a loaded 2-core CI machine."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errexplain.match import normalize, release, template
from errexplain.parse import inline, lines, parse_traceback

SEARCHED = [
    inline._SURROGATE,
    inline._MARKER,
    inline._KEY,
    inline._REPR,
    inline._LEVEL_WORD,
    inline._MARK_INSIDE,
    inline._ESCAPE,
    lines._NEEDS_CLEANING,
    lines._EMBEDDED,
    lines._ESCAPES,
    template._WORDS,
    template._LOOSE_DROP,
    template._WS,
    *release._PATTERNS.values(),
    normalize._RUN,
    normalize._PATH_RUN,
    *normalize._MASKS,
    normalize._SPACE,
    normalize._MASK_RUN,
]
"""Every pattern run with search/finditer/sub over user text (the rest are anchored matches
with bounded quantifiers, covered end to end below)."""

ALPHABET = "/a0< .:\\\"'[]Ax\t-_(){}=+>eE\x1b\x00\nFileTracbkrsgn"
CHUNKS = st.one_of(
    st.text(ALPHABET, min_size=1, max_size=6),
    st.sampled_from(["a/", "0", "AAAAA.", 'File "', "Error(", '"error": ', "\x1b]", "sglang-"]),
)
SIZE = 20_000
LIMIT = 2.0
"""Seconds for SIZE characters (100 us per character): a quadratic pattern needs ~100x more."""
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def _timed(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def _text(chunk: str) -> str:
    return (chunk * (SIZE // len(chunk) + 1))[:SIZE]


@SETTINGS
@given(CHUNKS)
def test_every_searched_pattern_is_linear(chunk):
    text = _text(chunk)
    for pattern in SEARCHED:
        dt = _timed(lambda p=pattern: sum(1 for _ in p.finditer(text)))
        assert dt < LIMIT, (pattern.pattern, chunk, dt)


@SETTINGS
@given(CHUNKS)
def test_masks_and_words_are_linear(chunk):
    text = "ValueError: " + _text(chunk)
    assert _timed(normalize.mask, text) < LIMIT, chunk
    assert _timed(normalize.words, text) < LIMIT, chunk


@SETTINGS
@given(CHUNKS, st.sampled_from(["ValueError: ", "", 'File "x.py", line 1, in f\n']))
def test_parser_is_linear(chunk, prefix):
    text = prefix + _text(chunk) + "\nRuntimeError: end\n"
    assert _timed(parse_traceback, text) < 2 * LIMIT, (prefix, chunk)


def test_the_inputs_of_issue_14_are_fast():
    """`lookup "ValueError: " + "/"*100000` took 291 s; 5 MB of digits did not finish."""
    for text in ("/" * 100_000, "7" * 200_000, "a" * 200_000, "a/" * 50_000):
        assert _timed(normalize.mask, text) < LIMIT
        assert _timed(normalize.words, text) < LIMIT
