"""Small in-memory records for the renderer tests: no catalog needed."""

from __future__ import annotations

import pytest

from errexplain.models import Entry, ExampleFix, Explanation, Match, RaisedError, Related, Source


def _entry(
    id: str = "0123456789abcdef",
    template: str = "size <n> is too big",
    exception: str = "ValueError",
    **fields,
) -> Entry:
    """A curated entry at demo/pkg/mod.py:12 unless `fields` say otherwise."""
    source = fields.pop(
        "source",
        Source("demo", "1.2.3", "demo/pkg/mod.py", 12, "check", "https://example.org/mod.py#L12"),
    )
    fields.setdefault("meaning", "The size is over the limit.")
    return Entry(id, "demo", exception, template, source, **fields)


def _match(entry: Entry | None = None, score: float = 1.0, **fields) -> Match:
    fields.setdefault("kind", "exact")
    fields.setdefault("reasons", ("exact template match",))
    return Match(entry or _entry(), score, **fields)


@pytest.fixture
def make_entry():
    """Build an entry: `make_entry(id, template, exception, **fields)`."""
    return _entry


@pytest.fixture
def make_match():
    """Build a match: `make_match(entry, score, **fields)`, exact by default."""
    return _match


@pytest.fixture
def full_entry() -> Entry:
    """An entry with every curated section filled."""
    return _entry(
        trigger="check() compares the size with the limit.",
        situations=("A batch larger than --max-running-requests.",),
        solutions=("Lower --max-running-requests.", "Raise the limit."),
        example_fix=ExampleFix("run(size=300)", "run(size=100)"),
        examples=("size 300 is too big",),
        related=("fedcba9876543210",),
    )


@pytest.fixture
def three_matches() -> Explanation:
    """One error, three distinct matches (not ambiguous): best first."""
    err = RaisedError("ValueError", "size 300 is too big")
    related = (Related("fedcba9876543210", "size <n> is over <limit>", "ValueError"),)
    matches = tuple(
        _match(
            _entry(f"{i:016x}", meaning=f"Meaning number {i}."),
            score,
            values=(("n", "300"),),
            related=related,
        )
        for i, score in ((1, 1.0), (2, 0.9), (3, 0.85))
    )
    return Explanation(err, matches)
