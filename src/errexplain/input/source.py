"""The user's own copy of a source file named by a traceback frame: the lines around the raise,
read as text (never imported). Used only when the file still holds the raise at that line."""

from __future__ import annotations

import os

from errexplain.models import Snippet

BEFORE, AFTER, MAX_BYTES = 4, 6, 4 * 1024 * 1024
RAISERS = ("raise", "assert", "logger.", "logging.", "log.", "warnings.warn")
CPP_RAISERS = ("RuntimeCheck(", "Panic(", "host::", "CHECK_HOST(", "TORCH_CHECK(", "throw ")
"""How a C/C++ source's check starts (errexplain.extract.cpp)."""


def holds_raise(line: str, literal: str) -> bool:
    """Whether a source line still raises: it starts a raise/assert/log statement, or holds
    the longest literal piece of the catalog's message."""
    text = line.strip()
    return text.startswith((*RAISERS, *CPP_RAISERS)) or (
        bool(literal.strip()) and literal.strip() in text
    )


def installed_snippet(path: str, line: int, literal: str) -> Snippet | None:
    """Up to BEFORE lines before and AFTER after `line` of the file at `path`, if it exists on
    this machine and that line still holds the raise; else None."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    if not 1 <= line <= len(lines) or not holds_raise(lines[line - 1], literal):
        return None
    first = max(1, line - BEFORE)
    cut = tuple(ln.rstrip() for ln in lines[first - 1 : line + AFTER])
    return Snippet("installed", "", path, first, line, cut)
