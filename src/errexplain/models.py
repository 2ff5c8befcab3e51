"""Plain, immutable records that flow through parse -> match -> explain -> render.

Nothing here imports from the package or outside the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

MatchKind = Literal["exact", "fuzzy"]
SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class Frame:
    """One `File "...", line N, in func` frame of a traceback."""

    path: str
    line: int | None
    function: str | None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "function": self.function}


@dataclass(frozen=True, slots=True)
class RaisedError:
    """An exception found in pasted text.

    `chain` holds the exceptions printed before this one in the same chain, root cause first;
    `chain_relation` says how the last of them led here ("cause" or "context").
    `members` holds the sub-exceptions of an exception group. `count` is how many times the same
    error was seen (for example once per rank) and `ranks` the rank labels seen with it.
    """

    type: str
    message: str
    frames: tuple[Frame, ...] = ()
    chain: tuple[RaisedError, ...] = ()
    chain_relation: str | None = None
    members: tuple[RaisedError, ...] = ()
    count: int = 1
    ranks: tuple[str, ...] = ()
    truncated: bool = False
    line_no: int = 0

    @property
    def short_type(self) -> str:
        """The class name without its module: `torch.AcceleratorError` -> `AcceleratorError`."""
        return self.type.rsplit(".", 1)[-1]

    @property
    def root_cause(self) -> RaisedError | None:
        return self.chain[0] if self.chain else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "message": self.message,
            "frames": [f.to_dict() for f in self.frames],
            "count": self.count,
            "ranks": list(self.ranks),
            "truncated": self.truncated,
            "chain": [{"type": c.type, "message": c.message} for c in self.chain],
            "members": [{"type": m.type, "message": m.message} for m in self.members],
        }


@dataclass(frozen=True, slots=True)
class Source:
    """Where an error is raised in a released version of a project."""

    project: str
    version: str | None
    path: str | None
    line: int | None
    function: str | None
    url: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "version": self.version,
            "path": self.path,
            "line": self.line,
            "function": self.function,
            "url": self.url,
        }


@dataclass(frozen=True, slots=True)
class ExampleFix:
    before: str
    after: str
    language: str = "python"

    def to_dict(self) -> dict[str, str]:
        return {"before": self.before, "after": self.after, "language": self.language}


@dataclass(frozen=True, slots=True)
class Entry:
    """One catalog entry: a message template at a raise site plus its explanation."""

    id: str
    project: str
    exception: str
    template: str
    source: Source
    base: str | None = None
    kind: str = "raise"
    condition: str | None = None
    doc: str | None = None
    versions: tuple[str, ...] = ()
    derived: bool = False
    meaning: str | None = None
    trigger: str | None = None
    situations: tuple[str, ...] = ()
    solutions: tuple[str, ...] = ()
    example_fix: ExampleFix | None = None
    related: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    removed_in: str | None = None
    catalog_file: str | None = field(default=None, compare=False)

    @property
    def curated(self) -> bool:
        return not self.derived and bool(self.meaning)


@dataclass(frozen=True, slots=True)
class Related:
    id: str
    template: str
    exception: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "template": self.template, "exception_type": self.exception}


@dataclass(frozen=True, slots=True)
class Match:
    """A catalog entry that explains an error, with how sure we are and why."""

    entry: Entry
    score: float
    kind: MatchKind
    values: tuple[tuple[str, str], ...] = ()
    reasons: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {
            "id": e.id,
            "score": round(self.score, 4),
            "kind": self.kind,
            "reasons": list(self.reasons),
            "template": e.template,
            "exception_type": e.exception,
            "base": e.base,
            "source": e.source.to_dict(),
            "values": dict(self.values),
            "derived": e.derived,
            "meaning": e.meaning,
            "trigger": e.trigger,
            "condition": e.condition,
            "situations": list(e.situations),
            "solutions": list(e.solutions),
            "example_fix": e.example_fix.to_dict() if e.example_fix else None,
            "related": [r.to_dict() for r in self.related],
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """The answer for one error: its matches (best first), or none with the nearest ones."""

    error: RaisedError
    matches: tuple[Match, ...]
    nearest: tuple[Match, ...] = ()
    ambiguous: bool = False
    generic: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def explained(self) -> bool:
        return bool(self.matches)

    def to_dict(self) -> dict[str, Any]:
        return {
            "exception": self.error.to_dict(),
            "matches": [m.to_dict() for m in self.matches],
            "nearest": [{"id": m.entry.id, "score": round(m.score, 4),
                         "template": m.entry.template} for m in self.nearest],
            "ambiguous": self.ambiguous,
            "generic": self.generic,
            "notes": list(self.notes),
        }


def make_id(project: str, module: str, function: str, template: str) -> str:
    """The stable 16-hex id of an entry: it changes only if one of these four changes."""
    import hashlib

    key = "\0".join((project, module, function, template)).encode("utf-8")
    return hashlib.sha256(key).hexdigest()[:16]
