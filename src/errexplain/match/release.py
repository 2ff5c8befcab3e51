"""Which release of a project produced a paste: version strings, frame paths, frame lines and
wordings, each narrowing the set of releases it could come from. Pure.

Evidence, strongest first:

1. a version string in the text (`sglang==0.4.6`, `sglang 0.5.10.post1`,
   `lmsysorg/sglang:v0.4.6-cu124`, `sglang: 0.4.6` from `check_env`): decisive;
2. a frame whose line is where a matched site sits in some releases (the `at` history);
3. frame paths that exist only in some releases;
4. a matched wording that only some releases raise.

Each kind narrows the candidate set unless it would empty it (conflicting evidence is reported
but not applied). Releases are strings in the project's order (oldest first).
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, Record, compile_regex, edge_before, memo
from errexplain.models import AtSpan, ReleaseGuess, at_lines, parse_at

__all__ = ["Facts", "ReleaseGuess", "guess", "parse_ranges", "project_path", "version_strings"]

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from errexplain.models import Frame

_VERSION = r"v?(?P<v>\d{1,3}\.\d{1,3}\.\d{1,4}(?:\.?post\d{1,3})?)"
# (the name's left edge is an ASCII word character: Chinese prose writes `用sglang 0.4.6`; or
# a logged string's escaped line break, `...\\nsglang==0.4.6`)
_PATTERNS = {
    "sglang": compile_regex(
        rf"(?i){edge_before('A-Za-z0-9_.-')}(?:lmsysorg/)?sglang(?:[ _-]?version)?"
        r"(?:\s{0,3}(?:==|:|=|\s)\s{0,3}|-|_|/|:)" + _VERSION + r"(?!\d)"
    ),
}


def parse_ranges(text: str, order: Sequence[str]) -> set[int]:
    """`"0.2.0..0.3.6, 0.4.1"` -> the indices of those releases in `order` (unknown ones
    skipped)."""
    index = {r: i for i, r in enumerate(order)}
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("..")
        a, b = index.get(lo.strip()), index.get((hi or lo).strip())
        if a is not None and b is not None:
            out.update(range(min(a, b), max(a, b) + 1))
    return out


def version_strings(text: str, project: str) -> list[str]:
    """Release strings named in the text for `project`, normalised (`0.4.6post1` ->
    `0.4.6.post1`), in order of appearance, without repeats."""
    return list(_version_strings(text, project))


@memo(maxsize=8)
def _version_strings(text: str, project: str) -> tuple[str, ...]:
    """Scanned once per paste: every error of a paste is guessed twice from the same text."""
    pattern = _PATTERNS.get(project)
    if pattern is None:
        return ()
    found: dict[str, None] = {}
    for m in pattern.finditer(text[:2_000_000]):
        v = m["v"]
        if "post" in v and ".post" not in v:
            v = v.replace("post", ".post")
        found[v] = None
    return tuple(found)


def _span(idx: set[int], order: Sequence[str]) -> str:
    lo, hi = min(idx), max(idx)
    return order[lo] if lo == hi else f"{order[lo]} to {order[hi]}"


def project_path(path: str, package: str) -> str | None:
    """`/usr/lib/python3/site-packages/sglang/srt/x.py` -> `sglang/srt/x.py` (the last
    occurrence of the package directory), or None when the path is not in it."""
    parts = path.replace("\\", "/").split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == package:
            return "/".join(parts[i:])
    return None


def holds(g: ReleaseGuess, release: str, order: Sequence[str]) -> bool:
    """Whether `release` lies in [first, last] of `order`."""
    if release not in order or g.first not in order or g.last not in order:
        return False
    i = order.index(release)
    return order.index(g.first) <= i <= order.index(g.last)


class Window(Record):
    """What ranking knows of a paste's release for one project: the release order (name ->
    index), the guessed range [lo, hi] (None: unknown) and the index of the latest release."""

    project: str
    index: Mapping[str, int]
    lo: int | None
    hi: int | None
    latest: int

    def span(self, releases: tuple[str, str]) -> tuple[int, int] | None:
        a, b = self.index.get(releases[0]), self.index.get(releases[1])
        return None if a is None or b is None else (a, b)


def window(facts: Facts, g: ReleaseGuess | None) -> Window:
    index = {r: i for i, r in enumerate(facts.order)}
    lo = index.get(g.first) if g else None
    hi = index.get(g.last) if g else None
    if lo is None or hi is None:
        lo = hi = None
    return Window(facts.project, index, lo, hi, len(facts.order) - 1)


class Facts(Record):
    """What a catalog knows of a project's releases: their order and the releases in which
    each source path exists."""

    project: str
    order: tuple[str, ...]
    paths: Mapping[str, str]
    formerly: tuple[tuple[str, str], ...] = ()
    """(old id, id it now names): wordings merged into another by a later build."""


def _path_evidence(frames: Sequence[Frame], facts: Facts) -> list[tuple[set[int], str]]:
    """For each project file the frames name: the releases in which that path exists."""
    every = set(range(len(facts.order)))
    out: list[tuple[set[int], str]] = []
    seen: set[str] = set()
    for frame in frames:
        rel = project_path(frame.path, facts.project)
        if rel is None or rel in seen or rel not in facts.paths:
            continue
        seen.add(rel)
        idx = parse_ranges(facts.paths[rel], facts.order)
        if idx != every:
            out.append((idx, f"frame path {rel} exists in"))
    return out


def _narrow(
    evidence: Iterable[tuple[set[int], str]], order: Sequence[str]
) -> tuple[set[int], list[str]]:
    """Intersect the evidence in order; a piece that would empty the set is reported only."""
    cand = set(range(len(order)))
    notes: list[str] = []
    for idx, why in evidence:
        if not idx:
            continue
        both = cand & idx
        if not both:
            notes.append(f"{why}: {_span(idx, order)} (conflicts with the rest, not used)")
        elif both != cand or not notes:
            notes.append(f"{why}: {_span(idx, order)}")
            cand = both
    return cand, notes


def guess(
    text: str,
    frames: Sequence[Frame],
    facts: Facts,
    *,
    wording: tuple[str, str] | None = None,
    lines: Iterable[tuple[str, int, set[int]]] = (),
) -> ReleaseGuess | None:
    """The releases a paste can come from. `wording` is the (first, last) range of the matched
    wording; `lines` holds (path, line, releases) of matched sites: the releases in which that
    site sits at that path and line."""
    order = facts.order
    if not order:
        return None
    evidence: list[tuple[set[int], str]] = [
        ({order.index(v)}, f"version string {facts.project} {v}")
        for v in version_strings(text, facts.project)
        if v in order
    ]
    evidence += [(idx, f"a frame at {p}:{n}, where this site sits in") for p, n, idx in lines]
    evidence += _path_evidence(frames, facts)
    if wording is not None:
        evidence.append(
            (parse_ranges(f"{wording[0]}..{wording[1]}", order), "this wording is raised by")
        )
    cand, notes = _narrow(evidence, order)
    if len(cand) == len(order) or not notes:
        return None
    return ReleaseGuess(facts.project, order[min(cand)], order[max(cand)], tuple(notes))


def site_lines(
    ats: Iterable[str], frames: Sequence[Frame], facts: Facts
) -> list[tuple[str, int, set[int]]]:
    """(path, line, releases) for every frame of the paste that sits exactly where a matched
    wording was raised in some releases (its `at` spans): strong evidence of the release."""
    where: dict[tuple[str, int], None] = {}
    for frame in frames:
        rel = project_path(frame.path, facts.project)
        if rel is not None and frame.line is not None:
            where[(rel, frame.line)] = None
    out: list[tuple[str, int, set[int]]] = []
    if not where:
        return out
    for at in ats:
        for first, last, path, line in at_lines(at):
            if (path, line) in where:
                out.append((path, line, parse_ranges(f"{first}..{last}", facts.order)))
    return out


def pin(
    at: str, releases: tuple[str, str], g: ReleaseGuess, facts: Facts
) -> tuple[str, AtSpan] | None:
    """The latest release of the guess that raises this wording, and where it sits there."""
    index = {r: i for i, r in enumerate(facts.order)}
    got = [index.get(r) for r in (g.first, g.last, releases[0], releases[1])]
    if any(i is None for i in got):
        return None
    lo, hi, a, b = (int(i or 0) for i in got)
    top, bottom = min(hi, b), max(lo, a)
    for span in reversed(parse_at(at)):
        s, e = index.get(span.first), index.get(span.last)
        if s is None or e is None or s > top or e < bottom:
            continue
        return facts.order[min(e, top)], span
    return None
