"""An answer as sections of typed parts: the one source of errexplain's wording.

:func:`explanation_view`, :func:`entry_view` and :func:`row_view` build, from the records, what
a person reads; :mod:`.plain` and :mod:`.rich` only draw those parts (wrapping, colour, panels)
and never add words of their own, so the two stay in step. ``verbose`` is decided here too: it
shows every match in full, in either format. JSON (:mod:`.json`) is the records themselves.

Parts: a :class:`Line` is a run of :class:`Span` s, each with a *role* that the Rich renderer
maps to a style (roles, not styles, so the plain renderer can ignore them); :class:`Heading`
starts a section; :class:`Code` is preformatted; :class:`Link` is a URL; :class:`Rule`
separates matches.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, Record
from errexplain.match.template import compile_template, normalize_ws, render_plain
from errexplain.models import (
    LOCATED_CHECKS,
    PRINTED,
    RESPONSE_VIA,
    WARNED,
    cpp_check,
    is_test_path,
)

if TYPE_CHECKING:
    from errexplain.models import Candidate, Entry, Explanation, Match, RaisedError, Snippet


class Span(Record):
    text: str
    role: str = ""
    """"" (plain text), "type", "value", "placeholder", "dim", "note", "exact", "fuzzy",
    "heading"."""


class Line(Record):
    """One logical line, drawn at `indent`; with `wrap`, long lines fold at the same indent."""

    spans: tuple[Span, ...]
    indent: int = 0
    wrap: bool = True


class Heading(Record):
    text: str


class Code(Record):
    """Preformatted code in labelled pieces ("# before", "# after"): (label, code) pairs. With
    `first_line`, one unlabelled piece of source drawn with line numbers, `mark` pointed at."""

    pieces: tuple[tuple[str, str], ...]
    language: str = "python"
    indent: int = 2
    first_line: int | None = None
    mark: int | None = None


class Link(Record):
    url: str
    indent: int = 2


class Rule(Record):
    pass


if TYPE_CHECKING:
    Part = Line | Heading | Code | Link | Rule


class View(Record):
    """One panel: a title and its parts."""

    title: str
    parts: tuple[Part, ...]


def _line(text: str, role: str = "", indent: int = 2, wrap: bool = True) -> Line:
    return Line((Span(text, role),), indent, wrap)


def _paras(text: str, indent: int = 2, prefix: str = "") -> list[Line]:
    """A prose text, one wrapped line per paragraph line."""
    lines = text.splitlines() or [""]
    return [_line((prefix if i == 0 else "") + ln, indent=indent) for i, ln in enumerate(lines)]


def template_spans(exception: str, template: str) -> tuple[Span, ...]:
    """`Type: text {placeholder} text`, placeholders as `{expr}` with their own role."""
    compiled = compile_template(template)
    head = f"{exception}: " if exception and template else exception
    spans = [Span(head, "type"), Span(compiled.literals[0])]
    for name, lit in zip(compiled.names, compiled.literals[1:], strict=True):
        spans += [Span("{" + name + "}", "placeholder"), Span(lit)]
    return tuple(s for s in spans if s.text)


def source_text(entry: Entry) -> str:
    """`project version: path:line in function`."""
    src = entry.source
    release = f"{src.project} {src.version}" if src.version else src.project
    where = f"{src.path}:{src.line}" if src.path else "(raised by the interpreter or a library)"
    func = f" in {src.function}" if src.function else ""
    return f"{release}: {where}{func}"


# ------------------------------------------------------------------------------ entry sections


def _meaning(entry: Entry) -> list[Part]:
    if not entry.meaning:
        return []
    title = "What it means" + (
        " (derived from the source code, not curated)" if entry.derived else ""
    )
    return [Heading(title), *_paras(entry.meaning)]


def _when(entry: Entry) -> list[Part]:
    out: list[Part] = []
    if entry.trigger:
        out += _paras(entry.trigger, prefix="Trigger: ")
    elif entry.condition:
        out += _paras(entry.condition, prefix="Condition in the code: ")
    for s in entry.situations:
        out += _paras(s, indent=4, prefix="- ")
    return [Heading("When it happens"), *out] if out else []


def _solutions(entry: Entry) -> list[Part]:
    if not entry.solutions:
        return []
    out: list[Part] = [Heading("Solutions")]
    for i, s in enumerate(entry.solutions, 1):
        out += _paras(s, prefix=f"{i}. ")
    return out


def _example_fix(entry: Entry) -> list[Part]:
    fix = entry.example_fix
    if fix is None:
        return []
    pieces: tuple[tuple[str, str], ...] = (
        (("# before", fix.before.rstrip()),) if (fix.before) else ()
    )
    pieces += (("# after", fix.after.rstrip()),)
    return [Heading("Example fix"), Code(pieces, fix.language or "python")]


def snippet_parts(snip: Snippet) -> list[Part]:
    """The code around the raise, and where it comes from."""
    if snip.origin == "installed":
        said = f"your installed copy: {snip.path}"
    else:
        license_note = f"; {snip.license}" if snip.license else ""
        said = f"{snip.release} as released, from the catalog{license_note}"
    lexer = "python" if snip.path.endswith(".py") else "cpp"
    code = Code((("", "\n".join(snip.lines)),), lexer, 2, snip.first_line, snip.raise_line)
    return [_line(f"Code ({said}):", "dim", wrap=False), code]


def _via_text(entry: Entry) -> str:
    """How the message reaches the user when the site does not raise it itself."""
    if entry.kind == "abort" and entry.via and entry.via.startswith(RESPONSE_VIA):
        return f"(sent to the client as the body of an {entry.via}, not raised)"
    if entry.kind == "abort":
        return f"(sent to the client in a {entry.via} reply, not raised)"
    if entry.kind == "log" and entry.via == PRINTED:
        return "(printed with print, not logged or raised)"
    if entry.kind == "log":
        return f"(issued with {entry.via}, not raised)"
    check = cpp_check(entry.via)
    if check:
        return (
            f"(a check, {check}, in C++ source that sglang compiles at run time: Python shows "
            f"it as a {entry.exception}"
            + (
                ", with `Failed at <file>:<line>: ` before the message)"
                if check in LOCATED_CHECKS
                else ")"
            )
        )
    return f"(the message is handed to the helper {entry.via}, which raises it)"


def _source(entry: Entry, snippet: Snippet | None = None) -> list[Part]:
    out: list[Part] = [Heading("Source"), _line(source_text(entry), wrap=False)]
    if is_test_path(entry.source.path):
        out.append(_line("(raised from a test file of the project, not from library code)"))
    if entry.source.url:
        out.append(Link(entry.source.url))
    if entry.via:
        out.append(_line(_via_text(entry)))
    if entry.removed_in:
        out.append(_line(f"(removed in {entry.removed_in})"))
    return out + (snippet_parts(snippet) if snippet is not None else [])


def checked_text(entry: Entry) -> str | None:
    """How the entry's curated text was checked against the code (None: derived text)."""
    if entry.derived or not entry.meaning:
        return None
    v = entry.verified
    if v is None:
        return "not yet checked against the code"
    against = f" against {entry.project} {v.release}" if v.release else ""
    if v.how == "run":
        text = f"the example was run{against} ({v.case})"
    else:
        text = f"read{against}: {', '.join(v.read)}"
    return f"{text}; {v.note}" if v.note else text


def _checked(entry: Entry) -> list[Part]:
    text = checked_text(entry)
    return [_line("Checked: " + text)] if text else []


def entry_sections(entry: Entry, snippet: Snippet | None = None) -> list[Part]:
    """What an entry explains: meaning, when, solutions, example fix, source (with the code
    around the raise when there is a snippet), how checked."""
    return [
        *_meaning(entry),
        *_when(entry),
        *_solutions(entry),
        *_example_fix(entry),
        *_source(entry, snippet),
        *_checked(entry),
    ]


# ---------------------------------------------------------------------------- explanations


def _error_spans(err: RaisedError, match: Match | None) -> tuple[Span, ...]:
    """The error line, the values bound to placeholders marked, and how often it was seen."""
    # Python prints `NotImplementedError` alone when there is no message
    head = f"{err.type or 'Error'}" + (": " if err.message or not err.type else "")
    spans = [Span(head, "type"), *_message_spans(err.message, match)]
    if err.count > 1:
        ranks = f" ({', '.join(err.ranks)})" if err.ranks else ""
        spans.append(Span(f"  [seen {err.count} times{ranks}]", "dim"))
    return tuple(spans)


def _message_spans(message: str, match: Match | None) -> list[Span]:
    values = {v for _, v in (match.values if match else ()) if v}
    spans: list[Span] = []
    pos = 0
    while values and pos < len(message):
        # leftmost first; of two values found at the same place, the longer
        found = min(
            ((message.find(v, pos), -len(v), v) for v in values if message.find(v, pos) >= 0),
            default=None,
        )
        if found is None:
            break
        at, _, value = found
        spans += [Span(message[pos:at]), Span(value, "value")]
        pos = at + len(value)
    spans.append(Span(message[pos:]))
    return [s for s in spans if s.text]


FORMS = {
    "json": "from a JSON error body",
    "log": "from a log line",
    "repr": "from an exception repr",
    "prose": "quoted in text",
    "argparse": "from a command line's usage error (argparse)",
    "native": "printed by compiled code, not a Python exception",
}
"""How an error was written, said under its line when it was not a traceback or a bare line
(`RaisedError.form`)."""


def _header(exp: Explanation) -> list[Part]:
    err = exp.error
    top = exp.matches[0] if exp.matches else None
    out: list[Part] = [Line(_error_spans(err, top), 0, False)]
    g = exp.release_guess
    if g is not None:
        span = g.first if g.first == g.last else f"{g.first} to {g.last}"
        why = "as stated" if g.stated else "; ".join(g.evidence[:3])
        out.append(_line(f"release: {g.project} {span} ({why})", "dim", wrap=False))
    if err.form in FORMS:
        out.append(_line(f"({FORMS[err.form]})", "dim", wrap=False))
    if err.root_cause is not None:
        rc = err.root_cause
        out.append(_line(f"root cause: {rc.type}: {rc.message}".rstrip(), "dim", wrap=False))
    if err.frames:
        f = err.frames[-1]
        where = f"{f.path}:{f.line}" if f.line is not None else f.path
        out.append(
            _line(
                f"raised at: {where}" + (f" in {f.function}" if f.function else ""),
                "dim",
                wrap=False,
            )
        )
    return out


def _no_match(exp: Explanation) -> list[Part]:
    if exp.error.form == "native":
        return []  # (its note says why nothing is matched)
    out: list[Part] = [_line("No catalog entry matches this message.", "note", 0)]
    if exp.nearest:
        out.append(_line("Nearest candidates:", indent=0))
        for m in exp.nearest:
            spans = (
                Span(f"{m.score:.2f}  "),
                Span(m.entry.id, "dim"),
                Span("  "),
                *_candidate_spans(m.entry),
            )
            out.append(Line(spans, 2, False))
    return out


def _candidate_spans(e: Entry) -> tuple[Span, ...]:
    """A nearest candidate: its message; for a site without one (a bare `assert`, a bare
    `raise X`), the statement and where it is, which is all that tells such sites apart."""
    if e.template or not e.statement:
        return template_spans(e.exception, e.template)
    where = f"{e.source.path}:{e.source.line}" if e.source.path else ""
    return (
        Span(f"{e.exception}: ", "type"),
        Span(normalize_ws(e.statement), "placeholder"),
        *((Span(f"  ({where})", "dim"),) if where else ()),
    )


def _related(m: Match) -> list[Part]:
    if not m.related:
        return []
    out: list[Part] = [Heading("Related errors (errexplain show ID)")]
    for r in m.related:
        spans = (Span(r.id, "dim"), Span("  "), *template_spans(r.exception, r.template))
        out.append(Line(spans, 2, False))
        if r.why:
            out.append(Line((Span(r.why, "dim"),), 20, True))
    return out


def match_parts(m: Match, n: int, total: int, snippet: Snippet | None = None) -> list[Part]:
    """One match in full: how it matched, the template, bound values, the entry, related."""
    e = m.entry
    head = Line(
        (Span(f"Match {n} of {total}: {e.id}  {m.kind}  score {m.score:.2f}", m.kind),), 0, False
    )
    message = Line((Span("Message:  "), *template_spans(e.exception, e.template)), 0, False)
    out: list[Part] = [head, _line("why: " + "; ".join(m.reasons)), message]
    if e.statement:
        out.append(Line((Span("Statement: "), Span(e.statement, "placeholder")), 0, False))
    if m.values:
        spans = [Span("Values:   ")]
        for i, (k, v) in enumerate(m.values):
            spans += [Span(("; " if i else "") + f"{k} = "), Span(v, "value")]
        out.append(Line(tuple(spans), 0, False))
    history = release_history(m)
    if history:
        out.append(_line("Releases: " + history))
    return [*out, *entry_sections(e, snippet), *_related(m)]


def _verb(e: Entry) -> str:
    """What the site does with its message, for the releases line."""
    if e.kind == "log":
        return {WARNED: "issued", PRINTED: "printed"}.get(e.via or "", "logged")
    return {"abort": "sent to the client", "recorded": "recorded"}.get(e.kind, "raised")


def release_history(m: Match) -> str | None:
    """Which releases raise this wording and what became of it (history catalogs)."""
    e = m.entry
    if e.releases is None:
        return None
    first, last = e.releases
    span = first if first == last else f"{first} to {last}"
    where = f"{e.source.path}:{e.source.line}" if e.source.path else e.project
    text = f"{_verb(e)} by {e.project} {span} (at {where}, {e.source.version})"
    if m.current is not None:
        c = m.current
        cur = render_plain(c.template) if c.template else (c.statement or "")
        cur = cur if len(cur) <= 120 else cur[:119] + "…"
        text += f"; later releases word this check '{cur}' (at {c.path}:{c.line})"
    elif e.removed_in:
        text += f"; removed after {last}"
    return text


def explanation_view(exp: Explanation, *, verbose: bool = False) -> View:
    """The answer for one error. Without `verbose`, only the best match is shown in full
    (all of them when they are the same message raised at sites nothing tells apart)."""
    parts: list[Part] = [*_header(exp)]
    parts += [_line("note: " + n, "note", 0) for n in exp.notes]
    if not exp.matches:
        parts += _no_match(exp)
    shown = exp.matches if (exp.ambiguous or verbose) else exp.matches[:1]
    for i, m in enumerate(shown, 1):
        parts += [Rule(), *match_parts(m, i, len(shown), exp.snippet if i == 1 else None)]
    rest = exp.matches[len(shown) :]
    if rest:
        others = ", ".join(f"{m.entry.id} ({m.score:.2f})" for m in rest)
        parts.append(_line(f"Other candidates: {others} (-v shows them in full)", "dim", 0))
    if exp.generic:
        parts += [
            Rule(),
            Heading(f"About {exp.error.short_type or 'this error'}"),
            *_paras(exp.generic),
        ]
    return View(exp.error.type or "error", tuple(parts))


def entry_view(entry: Entry, snippet: Snippet | None = None) -> View:
    """One catalog entry (`errexplain show`)."""
    head = (Span(entry.id, "dim"), Span("  "), *template_spans(entry.exception, entry.template))
    parts: list[Part] = [Line(head, 0, False), *entry_sections(entry, snippet)]
    if entry.examples:
        parts += [Heading("Examples"), *(_line(e) for e in entry.examples)]
    return View(f"{entry.id} · {entry.project}", tuple(parts))


def row_view(c: Candidate, score: float | None = None, why: str | None = None) -> tuple[Line, ...]:
    """One entry in a listing (`search`, `list`, `related`): id and template, then where (and
    why it is listed, for `related`)."""
    where = f"{c.path}:{c.line}" if c.path else c.project
    where += "  (a test file of the project)" if c.in_tests else ""
    lead = (Span(f"{score:.2f}  "),) if score is not None else ()
    head = Line(
        (*lead, Span(c.id, "dim"), Span("  "), *template_spans(c.exception, c.template)),
        0,
        False,
    )
    tail = (_line(f"why: {why}", "dim", 6, True),) if why else ()
    return (head, _line(where, "dim", 6, False), *tail)


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    return flat if end < 0 else flat[: end + 1]


def brief_line(exp: Explanation) -> str:
    """`--brief`: count, exception, best entry id and score, and the meaning's first sentence
    (or `no match`)."""
    err = exp.error
    message = " ".join(err.message.split())
    message = message if len(message) <= 70 else message[:69] + "…"
    error = f"{err.type or 'Error'}" + (f": {message}" if message else "")
    if not exp.matches and err.form == "native":  # (printed by compiled code: no site to match)
        return (
            f"{err.count}x  {'(native code)':<21}  {error}  -- {_first_sentence(exp.generic or '')}"
        )
    if not exp.matches:
        return f"{err.count}x  {'(no match)':<21}  {error}"
    best = exp.matches[0]
    meaning = _first_sentence(best.entry.meaning or exp.generic or "")
    line = f"{err.count}x  {best.entry.id} {best.score:.2f}  {error}"
    return line + (f"  -- {meaning}" if meaning else "")
