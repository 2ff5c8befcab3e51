"""Answers as JSON (schema 1, README "JSON output"): the records themselves, every match in
full whatever `-v` says (a program reading them wants everything; -v is about what a person
reads).

The text is written by :func:`encode`, the same bytes as ``json.dumps(doc, indent=2,
ensure_ascii=False)`` without importing ``json``, whose encoder imports ``re`` and ``typing``:
with ``--json`` on the bare pipe that import would cost more than the explain."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.models import SCHEMA_VERSION, is_test_path

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from errexplain.models import (
        Candidate,
        Entry,
        Explanation,
        Frame,
        Match,
        RaisedError,
        Related,
        Snippet,
    )


def frame_dict(f: Frame) -> dict[str, Any]:
    return {"path": f.path, "line": f.line, "function": f.function}


def error_dict(e: RaisedError) -> dict[str, Any]:
    return {
        "type": e.type,
        "message": e.message,
        "frames": [frame_dict(f) for f in e.frames],
        "count": e.count,
        "ranks": list(e.ranks),
        "truncated": e.truncated,
        "form": e.form,
        "chain": [{"type": c.type, "message": c.message} for c in e.chain],
        "members": [{"type": m.type, "message": m.message} for m in e.members],
    }


def related_dict(r: Related) -> dict[str, str]:
    return {"id": r.id, "template": r.template, "exception_type": r.exception, "why": r.why}


def entry_dict(e: Entry) -> dict[str, Any]:
    """An entry's own fields (what `show --json` prints)."""
    src, fix = e.source, e.example_fix
    return {
        "id": e.id,
        "template": e.template,
        "exception_type": e.exception,
        "base": e.base,
        "source": {
            "project": src.project,
            "version": src.version,
            "path": src.path,
            "line": src.line,
            "function": src.function,
            "url": src.url,
            "test_file": is_test_path(src.path),
        },
        "derived": e.derived,
        "meaning": e.meaning,
        "trigger": e.trigger,
        "condition": e.condition,
        "statement": e.statement,
        "via": e.via,
        "situations": list(e.situations),
        "solutions": list(e.solutions),
        "example_fix": {"before": fix.before, "after": fix.after, "language": fix.language}
        if fix
        else None,
        "verified": _verified(e),
    }


def _verified(e: Entry) -> dict[str, Any] | None:
    v = e.verified
    if v is None:
        return None
    return {
        "how": v.how,
        "release": v.release,
        "case": v.case,
        "read": list(v.read),
        "note": v.note,
    }


def _first_values(values: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Each placeholder's value; a name bound twice keeps its first value here (every binding,
    in order, is in `bindings`)."""
    out: dict[str, str] = {}
    for name, value in values:
        out.setdefault(name, value)
    return out


def match_dict(m: Match) -> dict[str, Any]:
    d = entry_dict(m.entry)
    return {
        "id": d.pop("id"),
        "score": round(m.score, 4),
        "kind": m.kind,
        "reasons": list(m.reasons),
        **d,
        "values": _first_values(m.values),
        "bindings": [list(pair) for pair in m.values],
        "related": [related_dict(r) for r in m.related],
        "releases": _releases(m),
        "current": _current(m),
        "prose_from_current": m.borrowed,
    }


def _releases(m: Match) -> dict[str, str] | None:
    r = m.entry.releases
    return {"first": r[0], "last": r[1]} if r else None


def _current(m: Match) -> dict[str, Any] | None:
    """The latest release's wording of the check: the entry itself when it is current, null
    when the check was removed (history catalogs; null for catalogs without history)."""
    e = m.entry
    if m.current is not None:
        c = m.current
        return {"id": c.id, "path": c.path, "line": c.line}
    if e.releases is None or e.older:
        return None
    return {"id": e.id, "path": e.source.path, "line": e.source.line}


def guess_dict(x: Explanation) -> dict[str, Any] | None:
    g = x.release_guess
    if g is None:
        return None
    return {
        "project": g.project,
        "first": g.first,
        "last": g.last,
        "evidence": list(g.evidence),
        "stated": g.stated,
    }


def explanation_dict(x: Explanation) -> dict[str, Any]:
    return {
        "exception": error_dict(x.error),
        "matches": [match_dict(m) for m in x.matches],
        "nearest": [
            {"id": m.entry.id, "score": round(m.score, 4), "template": m.entry.template}
            for m in x.nearest
        ],
        "ambiguous": x.ambiguous,
        "generic": x.generic,
        "notes": list(x.notes),
        "release_guess": guess_dict(x),
        "snippet": snippet_dict(x.snippet),
    }


def snippet_dict(s: Snippet | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {
        "origin": s.origin,
        "release": s.release,
        "path": s.path,
        "first_line": s.first_line,
        "raise_line": s.raise_line,
        "lines": list(s.lines),
        "license": s.license,
    }


def row_dict(c: Candidate, score: float | None = None) -> dict[str, Any]:
    out = {
        "id": c.id,
        "exception_type": c.exception,
        "template": c.template,
        "project": c.project,
        "path": c.path,
        "line": c.line,
        "test_file": c.in_tests,
    }
    return out if score is None else {**out, "score": round(score, 4)}


def _number(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def encode(value: Any, level: int = 0) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)` for the values errexplain writes
    (dicts with string keys, lists and tuples, strings, numbers, booleans, None)."""
    from _json import encode_basestring  # C, as json's own encoder uses

    if isinstance(value, str):
        return str(encode_basestring(value))
    if value is None or value is True or value is False:
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _number(value)
    inner, outer = "\n" + "  " * (level + 1), "\n" + "  " * level
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = (f"{encode_basestring(str(k))}: {encode(v, level + 1)}" for k, v in value.items())
        return "{" + inner + ("," + inner).join(items) + outer + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        return "[" + inner + ("," + inner).join(encode(v, level + 1) for v in value) + outer + "]"
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(doc: dict[str, Any]) -> str:
    return encode({"schema": SCHEMA_VERSION, **doc}) + "\n"


def render_explanations(exps: Sequence[Explanation], extra: dict[str, Any] | None = None) -> str:
    return dumps({"errors": [explanation_dict(e) for e in exps], **(extra or {})})
