"""When a log line was written: the timestamp in its prefix, in a form that sorts by time.

Understood: ISO-like `2026-10-02 11:04:09[.123]` (also with `T`, `,` or `/` separators, in
brackets or not) and the year-less `05-12 10:11:12` of vLLM-style lines, looked for in the
first 60 characters of the line. Pure.
"""

from __future__ import annotations

from errexplain._startup import compile_regex

_STAMP = compile_regex(
    r"(?<!\d)(?:(\d{4})[-/])?(\d\d)[-/](\d\d)[ T](\d\d:\d\d:\d\d)(?:[.,](\d{1,9}))?(?!\d)"
)


def stamp(line: str) -> str | None:
    """`YYYY-MM-DD HH:MM:SS[.fff]` (or `MM-DD HH:MM:SS[.fff]` without a year), else None."""
    m = _STAMP.search(line, 0, 60)
    if m is None:
        return None
    year, month, day, clock, frac = m.groups()
    out = f"{month}-{day} {clock}" if year is None else f"{year}-{month}-{day} {clock}"
    return f"{out}.{frac}" if frac else out
