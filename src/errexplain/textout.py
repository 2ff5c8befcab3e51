"""Plain-text rendering of explanations (no third-party imports: used on the fast path)."""

from __future__ import annotations

from .models import SCHEMA_VERSION, TYPE_CHECKING, Entry, Explanation, Match
from .template import render_plain

if TYPE_CHECKING:
    from collections.abc import Sequence

WIDTH = 100


def _fill(words: list[str], indent: str) -> list[str]:
    """Greedy fill to WIDTH. Words are never broken, not even at hyphens, so that flags such
    as --mem-fraction-static and paths stay whole and copyable."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(indent) + len(line) + 1 + len(word) > WIDTH:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(indent + line if line else indent.rstrip())
    return lines


def _wrap(text: str, indent: str = "  ") -> list[str]:
    out: list[str] = []
    for para in text.splitlines() or [""]:
        out.extend(_fill(para.split(), indent))
    return out


def header(exp: Explanation) -> list[str]:
    err = exp.error
    seen = ""
    if err.count > 1:
        ranks = f" ({', '.join(err.ranks)})" if err.ranks else ""
        seen = f"  [seen {err.count} times{ranks}]"
    lines = [f"{err.type or 'Error'}: {err.message}".rstrip() + seen]
    if err.root_cause is not None:
        rc = err.root_cause
        lines.append(f"  root cause: {rc.type}: {rc.message}".rstrip())
    if err.frames:
        f = err.frames[-1]
        lines.append(f"  raised at: {f.path}:{f.line} in {f.function}")
    return lines


def _when(entry: Entry) -> list[str]:
    if not (entry.trigger or entry.situations or entry.condition):
        return []
    out = ["When it happens"]
    if entry.trigger:
        out += _wrap("Trigger: " + entry.trigger)
    elif entry.condition:
        out += _wrap(f"Condition in the code: {entry.condition}")
    for s in entry.situations:
        out += _wrap("- " + s, "    ")
    return out


def source_text(entry: Entry) -> str:
    """`project version: path:line in function`, as both renderers show the source."""
    src = entry.source
    release = f"{src.project} {src.version}" if src.version else src.project
    where = f"{src.path}:{src.line}" if src.path else "(raised by the interpreter or a library)"
    func = f" in {src.function}" if src.function else ""
    return f"{release}: {where}{func}"


def _source_lines(entry: Entry) -> list[str]:
    src = entry.source
    out = ["Source", "  " + source_text(entry)]
    if src.url:
        out.append(f"  {src.url}")
    if entry.removed_in:
        out.append(f"  (removed in {entry.removed_in})")
    return out


def entry_lines(entry: Entry) -> list[str]:
    """The explanation sections of one entry."""
    out: list[str] = []
    label = "What it means (derived from the source code, not curated)" if entry.derived \
        else "What it means"
    if entry.meaning:
        out += [label, *_wrap(entry.meaning)]
    out += _when(entry)
    if entry.solutions:
        out.append("Solutions")
        for i, s in enumerate(entry.solutions, 1):
            out += _wrap(f"{i}. {s}")
    if entry.example_fix:
        fix = entry.example_fix
        out.append("Example fix")
        if fix.before:
            out += ["  # before", *("    " + ln for ln in fix.before.rstrip().splitlines())]
        out += ["  # after", *("    " + ln for ln in fix.after.rstrip().splitlines())]
    return out + _source_lines(entry)


def match_lines(m: Match, n: int, total: int) -> list[str]:
    e = m.entry
    out = [f"Match {n} of {total}: {e.id}  {m.kind}  score {m.score:.2f}",
           *_wrap("why: " + "; ".join(m.reasons)),
           f"Message:  {e.exception}: {render_plain(e.template)}"]
    if m.values:
        out.append("Values:   " + "; ".join(f"{k} = {v}" for k, v in m.values))
    out += entry_lines(e)
    if m.related:
        out.append("Related errors (errexplain show ID)")
        out += [f"  {r.id}  {r.exception}: {render_plain(r.template)}" for r in m.related]
    return out


def explanation_lines(exp: Explanation, *, verbose: bool = False) -> list[str]:
    out = header(exp)
    out += [f"note: {n}" for n in exp.notes]
    if not exp.matches:
        out.append("No catalog entry matches this message.")
        if exp.nearest:
            out.append("Nearest candidates:")
            out += [f"  {m.score:.2f}  {m.entry.id}  {m.entry.exception}: "
                    f"{render_plain(m.entry.template)}" for m in exp.nearest]
    shown = exp.matches if (exp.ambiguous or verbose) else exp.matches[:1]
    for i, m in enumerate(shown, 1):
        out.append("")
        out += match_lines(m, i, len(shown)) if i == 1 else _short(m, i, len(shown))
    rest = exp.matches[len(shown):]
    if rest:
        out.append("Other candidates: " + ", ".join(f"{m.entry.id} ({m.score:.2f})" for m in rest))
    if exp.generic:
        out += ["", f"About {exp.error.short_type or 'this error'}", *_wrap(exp.generic)]
    return out


def _short(m: Match, n: int, total: int) -> list[str]:
    src = m.entry.source
    return [f"Match {n} of {total}: {m.entry.id}  {m.kind}  score {m.score:.2f}",
            f"  {src.path}:{src.line} in {src.function}", *([f"  {src.url}"] if src.url else [])]


def render_text(exps: Sequence[Explanation], *, verbose: bool = False) -> str:
    blocks = ["\n".join(explanation_lines(e, verbose=verbose)) for e in exps]
    return ("\n\n" + "=" * 40 + "\n\n").join(blocks) + "\n"


def render_json(exps: Sequence[Explanation], extra: dict[str, object] | None = None) -> str:
    doc: dict[str, object] = {"schema": SCHEMA_VERSION, "errors": [e.to_dict() for e in exps]}
    if extra:
        doc.update(extra)
    import json

    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
