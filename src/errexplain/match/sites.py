"""Finding catalog sites by traceback frames, for errors whose message cannot be matched.

``raise NotImplementedError`` and a bare ``assert x is not None`` print no message at all, and
some tools print an AssertionError whose message is the assert statement itself
(``AssertionError: assert x.shape[0] == len(y)``). Such errors are located by the innermost
frames of their traceback instead: the file (any release: a path suffix, or only the file name
when the file moved), the function (last part of a class-qualified name) and the source line the
traceback shows under the frame, compared with the statement (or assert test) the catalog
recorded, whitespace and quoting normalised. The line number is only a small bonus: lines drift
between releases.

A traceback cut before its exception line (or an exception line whose message the paster cut)
leaves no message either, though the site raised one: its innermost frame shows the raise (or
assert) line, with the message's literal when it fits on that line. Such an error finds the
message-carrying sites of the frame's function too: the one whose literal words the line shows,
or, when the line shows only ``raise ValueError(``, every raise of that exception there.

Pure: the catalog view is passed in. Only entries :func:`locatable` are looked up.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, replace
from errexplain.match.normalize import words
from errexplain.match.rank import (
    TYPE_MISMATCH,
    Hit,
    in_file,
    passes_text,
    recorded_lines,
    shown_literal,
    site_key,
)
from errexplain.match.template import compile_template, normalize_ws
from errexplain.models import UNRAISED_KINDS, Frame, at_sites, raises_here

if TYPE_CHECKING:
    from collections.abc import Sequence

    from errexplain.models import Candidate, CatalogView, Entry, RaisedError

LOCATE_FRAMES = 3
"""How many of the innermost frames are looked at."""
STATEMENT_SCORE = 0.95
"""The frame shows the recorded statement (or the message is the recorded assert test), in the
recorded function and file."""
FUNCTION_SCORE = 0.80
"""Same function and file, but the traceback shows no source line to compare."""
OWN_MESSAGE = 0.03
"""An assert with a message prints that message, not its statement (only some tools print the
statement): of two asserts of the same test, the one without a message comes first."""
CONDITION_SCORE, SHARED = 0.92, 0.04
"""The message is an assert statement recorded at one site, found by its test alone (no frame
in the site's function); each other site with the same test costs SHARED."""
FILE_SCORE = 0.70
"""Same file, no function named and no source line to compare: any such site of the file."""
OTHER_LINE_SCORE = 0.60
"""Same function and file, but the frame shows (or the message names) another statement."""
UNSELFED = 0.03
"""Cost of a test found only with `self.` left out of it (:func:`condition_sites`)."""
MOVED, DEEPER, SAME_LINE = 0.05, 0.05, 0.02
"""Cost of a file found by name only (moved), of each frame above the innermost; bonus for the
recorded line number."""
MIN_CODE = 8
"""A frame's source line shorter than this (``assert (``) is too little to compare as a prefix
of a multi-line statement."""
FAR = 10**6
"""The distance (lines) of a site with no line to compare."""
MIN_SHOWN_WORDS = 2
"""Literal words a raise line must show of a message to name it (fewer: only its exception)."""

_RAISED = compile_regex(r"raise\s+([\w.]+)")


def locatable(kind: str) -> bool:
    """Entries found by frames: every site that raises (a message-carrying one is looked up
    for an error whose message was cut away); logged and client-sent messages are not."""
    return kind not in UNRAISED_KINDS


def file_key(path: str) -> str:
    """The lookup key of every locatable site of a file (a frame or a mention that names the
    file but no function)."""
    return site_key(path, "")


def condition_key(test: str) -> str:
    """The lookup key of the assert sites whose test is `test`, in any file."""
    return "\0assert\0" + code_key(test)


_SELF = compile_regex(r"(?<![\w.])self\.")


def unselfed_key(test: str) -> str:
    """The lookup key of the assert sites whose test is `test` once every `self.` is left out
    (recorded for the tests that have one: a paster who writes the test from memory or for a
    reader drops the attribute's owner, `pool.available_size() <= pool.size`)."""
    return "\0assert-self\0" + code_key(_SELF.sub("", test))


def _condition_keys(test: str) -> tuple[str, ...]:
    if "self." in test:
        return condition_key(test), unselfed_key(test)
    return (condition_key(test),)


def condition_sites(view: CatalogView, test: str) -> tuple[list[Candidate], bool]:
    """(the assert sites whose test is `test`, whether as written): as written; else, with
    `self.` left out of the paste's test, the sites whose test is that (the paste had it, the
    source has not) or is that once theirs is left out too."""
    found = view.sites_at(condition_key(test))
    if found:
        return found, True
    bare = _SELF.sub("", test)
    if bare != test:
        found = view.sites_at(condition_key(bare))
        if found:
            return found, False
    return view.sites_at(unselfed_key(bare)), False


STATED_TEST_CHARS = 300
"""The longest AssertionError message read as an assert's test written without `assert`."""
_TEST_SIGN = compile_regex(r"[=<>!]=|[<>(\[.]| is | in | not ")


def stated_test(view: CatalogView, message: str, exc_type: str) -> str | None:
    """An AssertionError's message that is an assert's test written without `assert`
    (`AssertionError: pool.available_size() <= pool.size`, as a report quotes a failed check):
    the message, when it parses as one Python expression with an operator, a call or an
    attribute in it and some assert site tests it (:func:`condition_sites`); else None."""
    if exc_type.rsplit(".", 1)[-1] != "AssertionError" or assert_test(message) is not None:
        return None
    msg = normalize_ws(message)
    if not msg or len(msg) > STATED_TEST_CHARS or not _TEST_SIGN.search(msg):
        return None
    try:
        compile(msg, "<message>", "eval")  # (parsed, never run)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    sites, _ = condition_sites(view, msg)
    return msg if any(not c.template for c in sites) else None


_WRITTEN_ASSERT = compile_regex(r"(?<![\w.`'\"(])assert +(?=[A-Za-z_(\[{'\"-])")
WRITTEN_ASSERT_WORDS = 40
"""Words after a written `assert` read for its test (the rest of a long line is prose)."""


def written_asserts(view: CatalogView, line: str) -> list[str]:
    """The tests of assert statements a line writes without quotes around them (`I hit this
    assertion: assert req.x is not None in schedule_batch.py`, a fenced line or an issue title
    that is the statement alone, pytest's `E       assert x == y`) that a message-less assert
    site tests: of the words after each `assert`, the longest run that parses as one test with
    an operator, a call or an attribute in it and is catalogued (:func:`condition_sites`); the
    words after it are the writer's. A statement the catalog does not hold is not read (a line
    of prose that says `assert` is no error)."""
    out: list[str] = []
    for found in _WRITTEN_ASSERT.finditer(line):
        words = line[found.end() :].split()[:WRITTEN_ASSERT_WORDS]
        for n in range(len(words), 0, -1):
            test = " ".join(words[:n]).rstrip(".,;:`'\"")
            if len(test) < 3 or len(test) > STATED_TEST_CHARS or not _TEST_SIGN.search(test):
                continue
            try:
                compile(test, "<paste>", "eval")  # (parsed, never run)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            sites, _ = condition_sites(view, test)
            if any(not c.template for c in sites):
                if test not in out:
                    out.append(test)
                break
    return out


def site_table(entries: Sequence[Entry]) -> dict[str, tuple[int, ...]]:
    """:func:`site_key`, :func:`file_key` and :func:`condition_key` -> positions (in the
    given order) of the locatable entries."""
    from collections import defaultdict

    table: defaultdict[str, list[int]] = defaultdict(list)
    made: dict[tuple[str, str], str] = {}  # the keys of a build's (path, function) pairs

    def key_of(path: str, function: str) -> str:
        found = made.get((path, function))
        if found is None:
            found = made[path, function] = site_key(path, function)
        return found

    for pos, e in enumerate(entries):
        src = e.source
        if not (src.path and locatable(e.kind)):
            continue
        keys = {key_of(src.path, ""): None}  # (file_key)
        if src.function:
            keys[key_of(src.path, src.function)] = None
        for path, function in at_sites(e.at):  # where earlier releases raised it
            keys[key_of(path, "")] = None
            if function:
                keys[key_of(path, function)] = None
        if e.kind == "assert" and e.condition:
            keys.update(dict.fromkeys(_condition_keys(e.condition)))
        for key in keys:
            table[key].append(pos)
    return {k: tuple(v) for k, v in table.items()}


def assert_test(message: str) -> str | None:
    """The test of a message that is an assert statement (``assert x == y`` -> ``x == y``),
    without the statement's own message (``assert x is None, "why"`` or prose a paster put
    after a comma: ``assert x is None, related to y`` -> ``x is None``)."""
    msg = normalize_ws(message)
    if msg.startswith("assert ") and len(msg) > len("assert "):
        test = msg[len("assert ") :]
        cut = _top_level_comma(test)
        return test[:cut].rstrip() if cut > 0 else test
    return None


_CLOSE = {"(": ")", "[": "]", "{": "}"}


def _top_level_comma(text: str) -> int:
    """Where the first comma outside brackets and string quotes is, or -1."""
    stack: list[str] = []
    quote = ""
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in _CLOSE:
            stack.append(_CLOSE[c])
        elif stack and c == stack[-1]:
            stack.pop()
        elif c == "," and not stack:
            return i
    return -1


def wants_sites(message: str, exc_type: str = "") -> bool:
    """Whether an error is located by its frames: no message, an assert statement, or a
    KeyError whose message is only the key (``KeyError: 'lm_head.weight'``, ``KeyError: 37``)."""
    return (
        not message.strip()
        or assert_test(message) is not None
        or (exc_type.rsplit(".", 1)[-1] == "KeyError" and bare_key(message))
    )


def bare_key(message: str) -> bool:
    """A KeyError's message that is only its key: one quoted string or a number."""
    msg = message.strip()
    if len(msg) >= 2 and msg[0] == msg[-1] and msg[0] in "'\"":
        inner = msg[1:-1]
        return msg[0] not in inner.replace("\\" + msg[0], "") and "\n" not in inner
    return msg.lstrip("-").isdigit()


def code_key(text: str) -> str:
    """Source text compared without spacing, quote style, a trailing comment or comma."""
    text = text.split("  #", 1)[0]
    return "".join(text.split()).replace('"', "'").rstrip(",;")


def _code_matches(frame_code: str, recorded: str) -> bool:
    """The frame's line is the recorded statement (or, for a statement over several lines, its
    first line; a recorded text cut at 200 characters is compared up to the cut)."""
    code, full = code_key(frame_code), code_key(recorded.removesuffix("…"))
    if code == full:
        return True
    if recorded.endswith("…") and code.startswith(full):
        return True
    return len(code) >= MIN_CODE and full.startswith(code)


def _shown_keys(frame: Frame) -> list[str]:
    """The frame's source lines (`code` and the further lines Python 3.13 shows), compared
    without spacing; an elided run of lines is left out (the order is kept)."""
    shown = [frame.code or "", *(frame.more or "").split("\n")]
    return [k for k in (code_key(s) for s in shown if s != "…") if k]


def _pieces_found(keys: Sequence[str], full: str) -> int:
    """How many of the keys, from the first, are pieces of `full`, in order."""
    at = 0
    for n, key in enumerate(keys):
        at = full.find(key, at)
        if at < 0:
            return n
        at += len(key)
    return len(keys)


def _code_fits(frame: Frame, recorded: str) -> tuple[bool, bool]:
    """(the frame's source lines are part of the recorded statement, they identify it). A
    statement over several lines is shown by its first line (Python 3.9, 3.12: `assert (`),
    by the line of the test that failed (3.10, 3.11: `and x is not None`), or by all of that
    test's lines (3.13); a piece of MIN_SHOWN characters identifies it, fewer only fit it."""
    if frame.more is None and _code_matches(frame.code or "", recorded):
        return True, True
    keys = _shown_keys(frame)
    found = _pieces_found(keys, code_key(recorded.removesuffix("…")))
    # a statement recorded cut short (at 200 characters) may hold the rest past its cut
    if not keys or not (found == len(keys) or (found and recorded.endswith("…"))):
        return False, False
    return True, sum(map(len, keys[:found])) >= MIN_SHOWN


MIN_SHOWN = 12
"""Characters (spacing aside) of a statement's lines that name it: fewer (`assert (`, `)`) are
in most statements over several lines."""


def _recorded(cand: Candidate) -> str | None:
    if cand.statement:
        return str(cand.statement)
    if cand.kind == "assert" and cand.condition:
        return f"assert {cand.condition}"
    return None


def _in_order(part: Sequence[str], whole: Sequence[str]) -> bool:
    it = iter(whole)
    return all(w in it for w in part)


def _raise_evidence(
    cand: Candidate, frame: Frame, reasons: list[str], handed: bool = False
) -> tuple[float, bool]:
    """(score, identified) of a message-carrying site whose message the paste lost, by the raise
    (or assert) line its frame shows: the literal words shown, else the exception raised.
    `handed`: :func:`passer_sites` found the frame's line handing on a text of this site's
    class, and the site raising only a handed text: that is what the frame tells."""
    code = frame.code or ""
    if handed:
        why = f"the frame's source line raises {cand.exception} with a text made elsewhere"
        reasons.append(why + ", as this site does")
        return PASSER_SCORE, False
    shown = shown_literal(code)
    if len(shown) >= MIN_SHOWN_WORDS:
        if _in_order(shown, words(" ".join(compile_template(str(cand.template)).literals))):
            reasons.append("the frame's source line raises this message (its text was cut)")
            return STATEMENT_SCORE, True
        reasons.append("but the frame's source line raises another message")
        return OTHER_LINE_SCORE, False
    raised = _RAISED.match(code.strip())
    name = raised.group(1).rsplit(".", 1)[-1] if raised else ""
    if name and name not in (cand.exception, cand.base):
        cut_inside = not code.rstrip().endswith(("(", ")")) and cand.exception.startswith(name)
        if not cut_inside:
            reasons.append(f"but the frame's source line raises {name}")
            return OTHER_LINE_SCORE, False
        reasons.append(f"the frame's source line is cut inside the name ({name}...)")
    if cand.kind == "assert":
        test = assert_test(code)
        if test is None and _in_assert_test(cand, frame):
            reasons.append(f"the frame's source line is part of this assert's test: {code.strip()}")
            return STATEMENT_SCORE, True
        if test is None or not cand.condition:
            reasons.append("but the frame's source line is not this assert")
            return OTHER_LINE_SCORE, False
        seen, full = code_key(test), code_key(str(cand.condition))
        if seen == full or (len(seen) >= MIN_CODE and full.startswith(seen)):
            reasons.append(f"the frame's source line is this assert: assert {cand.condition}")
            return STATEMENT_SCORE, True
        reasons.append(f"but the frame shows another assert than assert {cand.condition}")
        return OTHER_LINE_SCORE, False
    reasons.append("the frame's source line raises it, its message cut from the paste")
    return FUNCTION_SCORE, False


def _evidence(
    cand: Candidate, frame: Frame, test: str | None, handed: bool = False
) -> tuple[float, bool, list[str]]:
    """(score, the statement itself is identified, reasons) of a site in the frame's file and
    function."""
    recorded = _recorded(cand)
    func = str(cand.function).rsplit(".", 1)[-1]
    if frame.function:
        reasons = [f"a traceback frame is in {func} of {cand.path}"]
        score, exact = FUNCTION_SCORE, False
    else:  # a file named with no function (`line 9 of pkg/mod.py` in prose)
        reasons = [f"the paste names {cand.path}, not the function"]
        score, exact = FILE_SCORE, False
    if test is not None:
        if cand.condition and code_key(test) == code_key(str(cand.condition)):
            score, exact = STATEMENT_SCORE, True
            reasons.append("the message is this assert statement")
            if cand.template:
                score -= OWN_MESSAGE
                reasons.append("but this assert has a message of its own, which Python prints")
        else:
            score = OTHER_LINE_SCORE
            reasons.append("but the message names another assert statement")
    elif cand.template and frame.code:
        score, exact = _raise_evidence(cand, frame, reasons, handed)
    elif frame.code and recorded:
        fits, named = _code_fits(frame, recorded)
        if named:
            score, exact = STATEMENT_SCORE, True
            reasons.append(f"the frame's source line is this statement: {recorded}")
        elif fits:
            reasons.append(
                f"the frame shows too little of a statement over several lines to tell: {recorded}"
            )
        else:
            score = OTHER_LINE_SCORE
            reasons.append(f"but the frame shows another line than {recorded}")
    else:
        reasons.append("no source line to compare: any such statement in the function fits")
    return score, exact, reasons


def _score(
    view: CatalogView,
    cand: Candidate,
    frame: Frame,
    depth: int,
    error: RaisedError,
    test: str | None,
    lined: bool = True,
    handed: bool = False,
) -> tuple[Hit, int]:
    """The hit and how far (lines) the frame's line is from the site's line in any release
    (not `lined`: the hit without its line evidence, which only adds SAME_LINE, and FAR)."""
    score, exact, reasons = _evidence(cand, frame, test, handed)
    if not in_file(frame, str(cand.path)):
        score -= MOVED
        reasons.append(f"the file is found by name only (moved from {cand.path}?)")
    far = FAR
    if frame.line is not None and lined:
        lines = recorded_lines(view, cand, frame)
        far = min((abs(frame.line - n) for n, _ in lines), default=FAR)
        same = next((when for n, when in lines if n == frame.line), None)
        if same is not None:
            # a file and line named with no function or code (pytest's `--tb=line`: `path.py:
            # 4326: AssertionError`) is as telling as the function at that line
            unnamed = not frame.function and not frame.code
            score += SAME_LINE + (FUNCTION_SCORE - FILE_SCORE if unnamed else 0.0)
            reasons.append(f"at the recorded line {frame.line}" + (f" ({same})" if same else ""))
    if depth:
        score -= DEEPER * depth
        reasons.append(f"{depth} frame(s) above the innermost one")
    score = _type_cost(cand, error, score, reasons)
    return Hit(cand, score, "exact" if exact else "fuzzy", (), tuple(reasons)), far


def _type_cost(cand: Candidate, error: RaisedError, score: float, reasons: list[str]) -> float:
    """The score after the cost of another exception type than the site raises."""
    short = error.short_type
    if short and short not in (cand.exception, cand.base):
        reasons.append(f"but the catalog raises {cand.exception}, not {error.type}")
        return score * TYPE_MISMATCH
    return score


def locate(view: CatalogView, error: RaisedError, *, limit: int = 5) -> list[Hit]:
    """Catalog sites for an error without a message (or with an assert statement as its
    message), found by its innermost frames; best first, unfiltered by any cutoff."""
    if not wants_sites(error.message, error.type):
        return []
    test = assert_test(error.message)
    # no exception line at all (the paste stops inside the traceback): the message was cut
    # away, so the site that raised it may carry one (an exception line printed without a
    # message, `ValueError`, was raised without one)
    cut = not error.message.strip() and (error.truncated or not error.type)
    if cut and error.frames and not error.frames[-1].code and not error.type:
        # the paste stops at a frame's header, before its source line and any frame below: that
        # frame may be a caller of frames cut away, so no statement of its function is told
        return []
    looked: list[tuple[float, int, Frame, Candidate]] = []
    for depth, frame in enumerate(reversed(error.frames[-LOCATE_FRAMES:])):
        key = site_key(frame.path, frame.function) if frame.function else file_key(frame.path)
        raised_here = cut and depth == 0 and raises_here(frame.code)
        # (or shows a line inside an assert over several lines: the test that failed)
        inside = (
            cut and depth == 0 and not raised_here and len(code_key(frame.code or "")) >= MIN_SHOWN
        )
        for cand in view.sites_at(key, messages=test is not None or raised_here or inside):
            if _looked_up(cand, test, raised_here) or (inside and _in_assert_test(cand, frame)):
                unlined, _ = _score(view, cand, frame, depth, error, test, lined=False)
                looked.append((unlined.raw, depth, frame, cand))
    best, nearness = _best_lined(view, looked, error, test, limit)
    by_test = (test, None) if test is not None else _shown_assert(error)
    if by_test is not None and not any(h.raw >= STATEMENT_SCORE - MOVED for h in best.values()):
        for hit in _by_condition(view, error, *by_test):
            if hit.pos not in best:
                best[hit.pos] = hit
    # of equal scores: the site whose line (in any release) is nearest the frame's (a build
    # with a few lines patched in), then the wording raised until the latest release
    ordered = sorted(
        best.values(),
        key=lambda h: (
            -round(h.raw, 6),
            nearness.get(h.pos, FAR),
            -_last_index(view, h.cand),
            h.cand.line or 0,
            h.id,
        ),
    )
    return ordered[:limit]


def _placeholder_only(cand: Candidate) -> bool:
    """Whether a site raises a text it was handed, with no literal of its own (`<msg>`)."""
    if cand.kind != "raise" or not cand.template:
        return False
    return not "".join(compile_template(str(cand.template)).literals).strip()


def passer_sites(view: CatalogView, error: RaisedError, *, limit: int = 3) -> list[Hit]:
    """The sites of the innermost frame's function that raise a text handed to them, when that
    frame's line does so (:func:`passes_text`) and the error carries a message: the message was
    made elsewhere (an attribute set in another file, a helper's argument), so only the frame
    finds the raise. Best first, unfiltered by any cutoff."""
    if not error.frames or not error.message.strip():
        return []
    frame = error.frames[-1]
    name = passes_text(frame.code)
    if name is None or not frame.function:
        return []
    hits: list[Hit] = []
    for cand in view.sites_at(site_key(frame.path, frame.function)):
        if not _placeholder_only(cand) or name not in (cand.exception, cand.base):
            continue
        hit, _ = _score(view, cand, frame, 0, error, None, handed=True)
        # (the statement is as good as identified: the frame raises the site's class with no
        # text of its own, as the site does)
        hits.append(replace(hit, kind="exact"))
    hits.sort(key=lambda h: (-round(h.raw, 6), h.cand.line or 0))
    return hits[:limit]


PASSER_SCORE = 0.88
"""A raise of a handed text (:func:`passer_sites`) in the frame's file and function, raising the
frame's exception class with no literal. Below confident: such a raise is often a helper that
many callers hand their texts to (`raise_error_or_warn`), and the text's own site, which tells
what it means, is the answer when the catalog knows it; the recorded line lifts it to 0.90."""


def _best_lined(
    view: CatalogView,
    looked: list[tuple[float, int, Frame, Candidate]],
    error: RaisedError,
    test: str | None,
    limit: int,
) -> tuple[dict[int, Hit], dict[int, int]]:
    """The best hit of each site looked up (scored without its line evidence: `looked`) and
    how far its lines are from the frame's. A site's lines in every release are read only when
    they can lift it into the best `limit`: they add at most SAME_LINE to its score."""
    most: dict[int, float] = {}
    for raw, _, _, cand in looked:
        most[cand.pos] = max(raw, most.get(cand.pos, raw))
    floor = sorted(most.values(), reverse=True)[:limit][-1] if most else 0.0
    best: dict[int, Hit] = {}
    nearness: dict[int, int] = {}
    for raw, depth, frame, cand in looked:
        if raw + SAME_LINE < floor - 1e-9:
            continue
        hit, far = _score(view, cand, frame, depth, error, test)
        if cand.pos not in best or hit.raw > best[cand.pos].raw:
            best[cand.pos] = hit
            nearness[cand.pos] = far
    return best, nearness


def _looked_up(cand: Candidate, test: str | None, raised_here: bool) -> bool:
    """Whether a site of the frame's function is a candidate: an assert for an assert
    statement as message; a site without a message; one with a message only when the paste
    cut the message away and the frame shows the raise (`raised_here`)."""
    if test is not None:
        return cand.kind == "assert"
    return not cand.template or raised_here


def _in_assert_test(cand: Candidate, frame: Frame) -> bool:
    """Whether the frame's source lines name an assert's test over several lines, as they name
    a message-less one (:func:`_code_fits`): Python 3.10 and 3.11 show the line of the test
    that failed (`self.support_pp` of `assert (\n    self.support_pp\n), "..."`)."""
    if cand.kind != "assert" or not cand.condition or not frame.code:
        return False
    return _code_fits(frame, f"assert {cand.condition}")[1]


def _last_index(view: CatalogView, cand: Candidate) -> int:
    """The position of the last release raising the wording (history catalogs), else 0."""
    if not cand.releases:
        return 0
    facts = view.release_facts(cand.project)
    if facts is None:
        return 0
    try:
        return facts.order.index(cand.releases[1])
    except ValueError:
        return 0


def _shown_assert(error: RaisedError) -> tuple[str, Frame] | None:
    """(test, frame) of a message-less AssertionError whose innermost frame shows a one-line
    assert statement: the site by its statement when no site of that file and function is
    catalogued (a file renamed between releases: `deepseekv4_pool.py` -> `deepseek_v4_pool.py`)."""
    if error.message.strip() or error.short_type != "AssertionError":
        return None
    if error.frames:
        frame = error.frames[-1]
    elif error.shown:  # no frame line: the statement printed above the exception line
        frame = Frame("", None, None, error.shown)
    else:
        return None
    test = assert_test(frame.code or "")
    if test is None or len(test) < MIN_CODE or test.count("(") != test.count(")"):
        return None
    return test, frame


def _by_condition(
    view: CatalogView, error: RaisedError, test: str, shown: Frame | None = None
) -> list[Hit]:
    """Assert sites anywhere whose test is the message's assert statement (or, `shown`, the
    statement the innermost frame shows): the error's frames did not find the site by its file,
    so each site scores lower the more sites share the test; one in the frame's function is the
    statement found in a file that moved."""
    found, as_written = condition_sites(view, test)
    # an assert with a message prints that message; only some tools print the statement instead
    found = [c for c in found if not c.template] or ([] if shown else found)
    hits = []
    for cand in found:
        score = CONDITION_SCORE - SHARED * _shared(test, len(found))
        what = (
            "the message is"
            if shown is None
            else "the innermost frame shows"
            if shown.path
            else "the line above the exception shows"
        )
        reasons = [f"{what} this assert statement: assert {cand.condition}"]
        if not as_written:
            score -= UNSELFED
            reasons.append("read with `self.` left out of the tests")
        if len(found) > 1:
            reasons.append(f"{len(found)} sites assert the same test")
        func = str(cand.function).rsplit(".", 1)[-1]
        if shown is not None and shown.function == func:
            score = STATEMENT_SCORE - MOVED - SHARED * (len(found) - 1)
            reasons.append(f"in {func}, in a file named otherwise (moved from {cand.path}?)")
        elif error.frames:
            score -= MOVED
            reasons.append("but no traceback frame is in its file and function")
        score = _type_cost(cand, error, score, reasons)
        hits.append(Hit(cand, score, "exact", (), tuple(reasons)))
    return hits


def _shared(test: str, sites: int) -> int:
    """How many other sites' worth of cost a test shared by `sites` sites pays: one each, but a
    test specific enough to name a few sites only (at least SPECIFIC_TEST characters, at most
    SPECIFIC_SITES sites) pays at most SHARED_MOST, so it is still offered, as a tie of those
    sites, instead of "no match"."""
    if len(test) >= SPECIFIC_TEST and sites <= SPECIFIC_SITES:
        return min(sites - 1, SHARED_MOST)
    return sites - 1


SPECIFIC_TEST, SPECIFIC_SITES, SHARED_MOST = 24, 12, 2


def ambiguous(hits: Sequence[Hit]) -> bool:
    """The two best sites score the same and record the same statement: nothing tells them
    apart (two ``raise NotImplementedError`` in one function, no source line shown)."""
    if len(hits) < 2:
        return False
    a, b = hits[0], hits[1]
    return abs(a.raw - b.raw) < 1e-9 and _recorded(a.cand) == _recorded(b.cand)
