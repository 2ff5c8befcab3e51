"""The harness's assertions: what a half's outcome must be, judged by errexplain itself.

A half's outcome is a `Half` (status and text, as the worker reports it). `before` passes when
it raised and errexplain's first match for the final error is the case's entry (or another
wording of the same check: same lineage head, or the entry it points to as current). `after`
passes when it raised nothing, or raised an error errexplain does not match to the entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from errexplain.explainer import explain_text

if TYPE_CHECKING:
    from errexplain.models import CatalogView, Entry, Explanation, Match

RELEASE = {"sglang": "0.5.23"}
RAN = ("raised", "exit")


@dataclass(frozen=True, slots=True)
class Half:
    """What one half did: status ok/raised/exit/setup/timeout/crash/skip, the error text."""

    status: str
    text: str = ""
    seconds: float = 0.0
    output: str = ""


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    detail: str


def final_error(text: str, catalog: CatalogView) -> Explanation | None:
    """errexplain's explanation of the last error in the text (the one that ended the run)."""
    found = explain_text(text, catalog, release=RELEASE)
    if not found:
        return None
    return max(found, key=lambda e: e.error.line_no)


def _head(e: Entry) -> str:
    return e.lineage or e.id


def same_check(m: Match, target: Entry) -> bool:
    """The match is the target entry or another wording of its check."""
    if m.entry.id == target.id or _head(m.entry) == _head(target):
        return True
    return m.current is not None and m.current.id == target.id


def _describe(ex: Explanation | None) -> str:
    if ex is None:
        return "no error found in the text"
    head = f"{ex.error.short_type}: {ex.error.message[:80]}"
    if not ex.matches:
        return f"{head} (no match)"
    m = ex.matches[0]
    return f"{head} (first match {m.entry.id}, {m.kind})"


def judge_before(
    half: Half, target: Entry, catalog: CatalogView, expect: str | None = None
) -> Verdict:
    if half.status not in RAN:
        return Verdict(False, f"before: {half.status}, expected this entry's error")
    if expect is not None and not re.search(expect, half.text):
        return Verdict(False, f"before: error text lacks {expect!r}")
    ex = final_error(half.text, catalog)
    if ex is None or not ex.matches or not same_check(ex.matches[0], target):
        return Verdict(False, f"before: {_describe(ex)}")
    return Verdict(True, f"before: {ex.error.short_type} matched ({ex.matches[0].kind})")


def judge_after(half: Half, target: Entry, catalog: CatalogView) -> Verdict:
    if half.status == "ok":
        return Verdict(True, "after: ok")
    if half.status not in RAN:
        return Verdict(False, f"after: {half.status}")
    ex = final_error(half.text, catalog)
    if ex is not None and ex.matches and same_check(ex.matches[0], target):
        return Verdict(False, f"after: raised this entry's error again: {_describe(ex)}")
    return Verdict(True, f"after: other error, {_describe(ex)}")
