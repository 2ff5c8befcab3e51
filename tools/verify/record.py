"""Write a `verified` record into an entry of a catalog YAML file, as a text edit that keeps
the file's style (entries are `- id:` items at column 0, keys indented by two spaces, and
`verified` is the entry's last key)."""

from __future__ import annotations

import re
from pathlib import Path

_TOP = re.compile(r"^\S")
_KEY = re.compile(r"^  [A-Za-z_]+:")


def _entry_span(lines: list[str], entry_id: str) -> tuple[int, int]:
    """[start, end) of the entry's lines: up to the next line that starts at column 0 (blank
    lines belong to the multi-line scalars they sit in)."""
    start = next((i for i, line in enumerate(lines) if line.rstrip() == f"- id: {entry_id}"), None)
    if start is None:
        raise KeyError(entry_id)
    end = start + 1
    while end < len(lines) and not _TOP.match(lines[end]):
        end += 1
    return start, end


def _without_key(lines: list[str], key: str) -> list[str]:
    """The entry's lines without a top-level key and its nested block."""
    out: list[str] = []
    skipping = False
    for line in lines:
        if _KEY.match(line):
            skipping = line.startswith(f"  {key}:")
        if not skipping:
            out.append(line)
    return out


_NUMBER = re.compile(r"\d+(\.\d+)?")


def verified_block(case_ref: str, release: str) -> list[str]:
    # `3.11` would read back as a float: quote a release that looks like a number
    shown = f"'{release}'" if _NUMBER.fullmatch(release) else release
    return [
        "  verified:\n",
        "    how: run\n",
        f"    release: {shown}\n",
        f"    case: {case_ref}\n",
    ]


def set_verified(text: str, entry_id: str, case_ref: str, release: str) -> str:
    """The file text with entry `entry_id`'s `verified` record replaced by a run record."""
    lines = text.splitlines(keepends=True)
    start, end = _entry_span(lines, entry_id)
    body = _without_key(lines[start:end], "verified")
    if body and not body[-1].endswith("\n"):
        body[-1] += "\n"
    return "".join(lines[:start] + body + verified_block(case_ref, release) + lines[end:])


def write_verified(path: Path, entry_id: str, case_ref: str, release: str) -> bool:
    """Record the run on the entry in `path`; False if it was already recorded so."""
    text = path.read_text(encoding="utf-8")
    new = set_verified(text, entry_id, case_ref, release)
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True
