"""parse -> rank -> Explanation, with the generic fallback. Pure: the catalog view is passed in.

When no entry matches (or only a derived one does), the exception class itself is explained:
from a short table of builtin classes, walking the class hierarchy (a custom class whose base
the catalog knows, or a builtin's parents) to the nearest class described.
"""

from __future__ import annotations

import builtins

from errexplain._startup import TYPE_CHECKING
from errexplain.match.rank import FUZZY_CUTOFF, Hit, Ranking, rank
from errexplain.match.sites import ambiguous, locate, wants_sites
from errexplain.models import Explanation, Match, RaisedError
from errexplain.parse import parse_traceback

if TYPE_CHECKING:
    from errexplain.models import CatalogView

AMBIGUOUS_NOTE = (
    "the same message is raised at several places and the traceback does not "
    "tell them apart: all are listed"
)
TRUNCATED_NOTE = "the traceback looks truncated: no final exception line was found"


def _to_match(view: CatalogView, hit: Hit) -> Match:
    pos = hit.cand.pos
    return Match(
        view.entry(pos),
        hit.score,
        "exact" if hit.kind == "exact" else "fuzzy",
        hit.values,
        hit.reasons,
        view.related(pos),
    )


def _generic(error: RaisedError, view: CatalogView) -> str | None:
    if not error.type:
        return None
    found = describe(error.type, view.known_base(error.short_type))
    if not found:
        return None
    cls, text = found
    return text if cls == error.short_type else f"(nearest known class {cls}) {text}"


def _with_sites(ranking: Ranking, error: RaisedError, view: CatalogView, cutoff: float) -> Ranking:
    """An error without a message (or with an assert statement as its message) is located by
    its frames (errexplain.match.sites); those hits join the message's own."""
    located = locate(view, error)
    good = [h for h in located if h.score >= cutoff]
    if not good:
        if ranking.hits or not located:
            return ranking
        return Ranking((), tuple(located[:3]), False)
    best = {h.pos: h for h in ranking.hits}
    for h in good:
        if h.pos not in best or h.raw > best[h.pos].raw:
            best[h.pos] = h
    hits = sorted(best.values(), key=lambda h: -round(h.raw, 6))[:5]
    return Ranking(tuple(hits), (), ambiguous(hits) if hits[0] in good else ranking.ambiguous)


def explain_error(
    error: RaisedError, view: CatalogView, *, cutoff: float = FUZZY_CUTOFF
) -> Explanation:
    """Explain one parsed error."""
    ranking = rank(view, error.message, error.type, error.frames, cutoff=cutoff)
    if wants_sites(error.message) and error.frames:
        ranking = _with_sites(ranking, error, view, cutoff)
    matches = tuple(_to_match(view, h) for h in ranking.hits)
    nearest = tuple(_to_match(view, h) for h in ranking.nearest)
    notes = []
    if ranking.ambiguous:
        notes.append(AMBIGUOUS_NOTE)
    if error.truncated:
        notes.append(TRUNCATED_NOTE)
    generic = _generic(error, view) if not matches or matches[0].entry.derived else None
    return Explanation(error, matches, nearest, ranking.ambiguous, generic, tuple(notes))


def explain_text(
    text: str, view: CatalogView, *, cutoff: float = FUZZY_CUTOFF
) -> tuple[Explanation, ...]:
    """Explain every distinct error found in pasted text."""
    return tuple(explain_error(e, view, cutoff=cutoff) for e in parse_traceback(text))


def explain_message(
    message: str, exc_type: str, view: CatalogView, *, cutoff: float = FUZZY_CUTOFF
) -> Explanation:
    """Explain a bare message (no traceback)."""
    return explain_error(RaisedError(exc_type, message), view, cutoff=cutoff)


MEANINGS: dict[str, str] = {
    "AssertionError": "An `assert` statement failed: code checked an invariant (a shape, a "
    "config combination, a state) and found it violated. The message names the check.",
    "AttributeError": "Code asked an object for an attribute or method it does not have; often "
    "the object is None or a different type/version than the code expects.",
    "ImportError": "An import failed: the module exists but a name in it is missing, or it "
    "could not be loaded (a version mismatch between installed packages is the usual cause).",
    "ModuleNotFoundError": "Python could not find a module to import: the package is not "
    "installed in this environment, or is installed for another Python.",
    "IndexError": "A sequence or tensor was indexed past its end.",
    "KeyError": "A dictionary lookup used a key that is not there; with model weights this "
    "usually means a checkpoint and model definition disagree on parameter names.",
    "LookupError": "A lookup by key or index found nothing.",
    "MemoryError": "The process ran out of host (CPU) memory.",
    "NotImplementedError": "The code path exists but is not implemented for this case "
    "(model, backend, hardware or option combination).",
    "OSError": "An operating-system call failed (file, socket, device, permission).",
    "FileNotFoundError": "A file or directory that the code needs does not exist.",
    "PermissionError": "The process lacks permission for a file or device operation.",
    "ConnectionError": "A network connection failed or was refused.",
    "TimeoutError": "An operation did not finish in time.",
    "RecursionError": "Recursion went deeper than Python's limit.",
    "RuntimeError": "A generic run-time failure; the message carries the real reason (CUDA, "
    "NCCL and many library errors use this class).",
    "TypeError": "A value of the wrong type was passed, or a function was called with the "
    "wrong arguments (often an API/version mismatch between packages).",
    "ValueError": "A value has the right type but is not acceptable: a bad argument, config "
    "field or combination of options.",
    "UnicodeDecodeError": "Bytes could not be decoded as text in the expected encoding.",
    "ZeroDivisionError": "A division or modulo by zero.",
    "StopIteration": "An iterator was asked for a value after it was exhausted.",
    "KeyboardInterrupt": "The process was interrupted (Ctrl-C or SIGINT).",
    "SystemExit": "The program asked to exit.",
    "Exception": "An error that does not fit a more specific built-in class.",
    "BaseException": "The root of all exceptions.",
}


NEWER_BUILTINS = {
    "BaseExceptionGroup": ["BaseException"],
    "ExceptionGroup": ["BaseExceptionGroup", "Exception", "BaseException"],
    "PythonFinalizationError": ["RuntimeError", "Exception", "BaseException"],
}
"""Parents of builtin exception classes that some supported Pythons lack (3.11+, 3.13+), so
that the fallback is the same whichever Python runs errexplain."""


def _builtin_parents(name: str) -> list[str]:
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return [c.__name__ for c in cls.__mro__[1:]]
    return list(NEWER_BUILTINS.get(name, ()))


def describe(exc_type: str, known_base: str | None = None) -> tuple[str, str] | None:
    """(class described, meaning) for an exception type, walking to the nearest known class."""
    short = exc_type.rsplit(".", 1)[-1]
    chain = [short]
    if known_base:
        chain.append(known_base)
    for name in list(chain):
        chain.extend(_builtin_parents(name))
    if short.endswith("Error") and "Exception" not in chain:
        chain.append("Exception")
    for name in chain:
        if name in MEANINGS:
            return name, MEANINGS[name]
    return None
