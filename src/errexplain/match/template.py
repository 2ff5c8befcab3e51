"""Message templates: the grammar, matching in linear time, value binding and filling.

Grammar
-------
A template is the text of an error message in which every part that varies at run time is a
*placeholder*::

    feature length does not match image grids: <pixel_values.shape[0]> != <sum(patch_counts)>

* ``<expr>`` is a placeholder. ``expr`` is the expression's source text as written at the raise
  site, including a format conversion or spec (``<name!r>``, ``<ratio:.2f>``). It names the value
  bound when a message matches.
* Outside a placeholder, ``<<`` is a literal ``<`` and ``>>`` a literal ``>``:
  ``head_dim must be <<= 128`` reads "head_dim must be <= 128"; ``<<lambda>>`` reads "<lambda>".
* Inside a placeholder, ``>>`` is a literal ``>`` (``<a >> b>`` names the expression ``a > b``)
  unless a third ``>`` follows: ``<x>>>`` is the placeholder ``x`` then a literal ``>`` (no
  expression ends with ``>``). A single ``>`` ends the placeholder; a ``<`` inside is literal.
* A lone ``<`` that is never closed, or an empty ``<>``, is a syntax error
  (:class:`TemplateSyntaxError`).

Matching
--------
Runs of whitespace (spaces, tabs, newlines) in both the template and the message count as one
space, and leading/trailing whitespace is ignored. Literal text must match exactly (case
included); each placeholder binds the text between its neighbouring literals, possibly empty.
A template matches only the whole message. Matching finds each literal chunk in order with
``str.find`` (leftmost), anchoring the first chunk at the start and the last at the end; for
patterns whose only wildcards are "any text" this greedy search finds a match whenever one
exists, and its cost is linear in the message length: no backtracking, whatever the input.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, Record, compile_regex, memo

if TYPE_CHECKING:
    from collections.abc import Sequence
    from re import Pattern

_WS = compile_regex(r"\s+")


class TemplateSyntaxError(ValueError):
    """A template string does not follow the grammar above."""


class Compiled(Record):
    """A parsed template: literal chunks around placeholders.

    ``literals`` has one more item than ``names``; ``literals[i]`` comes before ``names[i]``.
    Literal chunks are whitespace-normalised.
    """

    literals: tuple[str, ...]
    names: tuple[str, ...]
    literal_len: int = 0
    """Characters of literal text (chunks stripped): how much of a message it pins down."""

    @property
    def literal_text(self) -> str:
        return " ".join(c.strip() for c in self.literals if c.strip())


def normalize_ws(text: str) -> str:
    """Collapse whitespace runs to one space and strip the ends."""
    return _WS.sub(" ", text).strip()


def escape(text: str) -> str:
    """Escape literal message text for use in a template."""
    return text.replace("<", "<<").replace(">", ">>")


def escape_name(expr: str) -> str:
    """Escape an expression for use inside a placeholder."""
    return expr.replace(">", ">>")


def placeholder(expr: str) -> str:
    return "<" + escape_name(expr) + ">"


_PH_TAIL = compile_regex(r"<((?:[^>]|>>(?!>))+)>")


def _split(template: str) -> tuple[list[str], list[str]]:
    """Split a template into literal chunks and placeholder names (one regex pass)."""
    literals: list[str] = []
    names: list[str] = []
    buf: list[str] = []
    pos, n = 0, len(template)
    while pos < n:
        ch = template[pos]
        if template.startswith(("<<", ">>"), pos):
            buf.append(ch)
            pos += 2
        elif ch == "<":
            m = _PH_TAIL.match(template, pos)
            if m is None:
                if template.startswith("<>", pos):
                    raise TemplateSyntaxError(f"empty placeholder '<>' at offset {pos}")
                raise TemplateSyntaxError(f"placeholder opened at offset {pos} is never closed")
            literals.append("".join(buf))
            buf = []
            names.append(m.group(1).replace(">>", ">"))
            pos = m.end()
        else:
            end = _LITERAL_RUN.match(template, pos).end()  # type: ignore[union-attr]
            buf.append(template[pos:end])
            pos = end
    literals.append("".join(buf))
    return literals, names


_LITERAL_RUN = compile_regex(r"(?:[^<>]|>(?!>))+|>")


@memo(maxsize=65536)
def compile_template(template: str) -> Compiled:
    """Parse a template (cached). Raises :class:`TemplateSyntaxError`."""
    literals, names = _split(template)
    norm = [_WS.sub(" ", c) for c in literals]
    norm[0] = norm[0].lstrip()
    norm[-1] = norm[-1].rstrip()
    return Compiled(tuple(norm), tuple(names), sum(len(c.strip()) for c in norm))


def _bind(compiled: Compiled, msg: str) -> list[str] | None:
    lits = compiled.literals
    first, last = lits[0], lits[-1]
    if not compiled.names:
        return [] if msg == first else None
    if not msg.startswith(first):
        return None
    end = len(msg) - len(last)
    if end < len(first) or not msg.endswith(last):
        return None
    values: list[str] = []
    pos = len(first)
    for chunk in lits[1:-1]:
        found = msg.find(chunk, pos, end) if chunk else pos
        if found < 0:
            return None
        values.append(msg[pos:found])
        pos = found + len(chunk)
    values.append(msg[pos:end])
    return values


def _sentence_end(text: str, at: int) -> bool:
    """Whether a sentence of `text` ends at `at` (a stop, then a space, a line break or the
    end), its stop pasted or not: `Rank <i> scheduler is dead` (or `... is dead.`) of
    `... is dead. Please check ...`."""
    if text[at : at + 1] in (".", "!", "?") and text[at + 1 : at + 2] in ("", " ", "\n"):
        return True
    if at > 1 and text[at - 1] in ".!?" and text[at : at + 1] in (" ", "\n"):
        return True
    return at > 1 and text[at - 1].isalnum() and text.startswith(_CLAUSE_HEADS, at)


_CLAUSE_HEADS = (" and ", " but ", " because ", " which ", " so that ", " (")
"""Where a clause of a template's sentence ends (`<arch> has no SGlang implementation` of `...
implementation and the Transformers implementation is not compatible ...`), or an aside opens
(`<name> watchdog timeout` of `... watchdog timeout (self.watchdog_timeout=<t>, ...)`): a
paster who stops there quoted a whole clause, as one who stops at a sentence end did. Not a
comma: what follows one is as often a detail of the same clause (`... network error, NCCL
version <v>`), and reading a cut there as whole outranked a short template the message fills
exactly."""


_SENTENCE_STOP = compile_regex(r"(?<!\d)[.!?](?=\s)")


def sentence_stops(text: str) -> list[int]:
    """Where each sentence of `text` ends that more text follows: the index of its stop (`.`,
    `!`, `?`), which whitespace follows and no digit precedes (`3.5 GB` is no end)."""
    return [m.start() for m in _SENTENCE_STOP.finditer(text)]


def _overlap(text: str, chunk: str, limit: int = 200) -> int:
    """Length of the longest suffix of `text` that is a prefix of `chunk` (bounded)."""
    for k in range(min(len(text), len(chunk), limit), 0, -1):
        if chunk.startswith(text[-k:]):
            return k
    return 0


def _closed_before(value: str, chunk: str) -> bool:
    """Whether a quoted placeholder's value holds its closing quote and what follows it in the
    template (`type' for field 'fields` of `'<field>' in backend config`: `' ` inside the
    value): the value ended there, and the message then said something the template does not."""
    q = chunk[:1]
    return q in "'\"`" and len(chunk) > 1 and chunk[:2] in value


def _cut_inside(lits: tuple[str, ...], i: int, rest: str, matched: int, overlap: int) -> bool:
    """Whether a message whose `rest` lies in the placeholder before literal chunk `i` (none of
    that chunk found after it) was cut there, at a boundary: after a long literal head, unless
    the rest holds words of the template's later text (reworded), or the rest ends a sentence
    in a placeholder that holds whole sentences (:func:`_sentence_slot`)."""
    if overlap:
        return False
    long_head = matched >= INSIDE_MIN or (
        matched >= VALUE_MIN and (_whole_value(rest) or _value_ends_sentence(lits[i], rest))
    )
    if not long_head:
        return False
    return _sentence_slot(lits[i - 1], lits[i], rest) or not _runs_on(rest, lits[i:])


def _value_ends_sentence(after: str, rest: str) -> bool:
    """Whether the message's `rest` is one value (no space in it) of a placeholder that ends a
    sentence of the template (`after` opens with its stop: `Config file not found at <path>.
    Fallback to ...`): the paster quoted that sentence whole, its stop left out."""
    return after[:2] in (". ", ".\n") and bool(rest.strip()) and not any(c.isspace() for c in rest)


def _sentence_slot(before: str, after: str, rest: str) -> bool:
    """Whether the placeholder between literal `before` and `after` holds whole sentences
    (`... is free. <process_info>Of the allocated memory ...`: `before` ends one, `after` opens
    the next) and the message's `rest` in it ends one: cut where a sentence of it ends."""
    return (
        before.rstrip().endswith((".", "!", "?"))
        and after.lstrip()[:1].isupper()
        and rest.rstrip().endswith((".", "!", "?"))
    )


def _runs_on(rest: str, later: tuple[str, ...]) -> bool:
    """Whether the rest of a message shares a word (4+ letters) with later literal text."""
    want = {w.lower() for chunk in later for w in _WORDS.findall(chunk)}
    return any(w.lower() in want for w in _WORDS.findall(rest[:2000]))


_WORDS = compile_regex(r"[A-Za-z_]{4,40}")
INSIDE_MIN = 30
VALUE_MIN = 15
"""A message that ends with a whole bracketed or quoted value (``Cannot find any of
['quant_method']``, the paster's sentence going on after it) is cut at a boundary after this
many literal characters already."""
_CLOSERS = {"[": "]", "(": ")", "{": "}", "'": "'", '"': '"'}


_CLOSING = ")]}'\".,;"
"""Punctuation that closes a value or a clause."""


def _whole_value(text: str) -> bool:
    """A whole Python repr of a list, tuple, dict or string, and nothing else."""
    text = text.strip()
    return (
        len(text) >= 2
        and _CLOSERS.get(text[0]) == text[-1]
        and "\n" not in text
        and text.count(text[0]) == text.count(text[-1])
    )


"""A message that matches this many literal characters and then runs on inside a placeholder
(a log line cut in the middle of the value) ends at a boundary as far as scoring goes."""


def match_prefix(compiled: Compiled, msg: str) -> tuple[int, bool]:
    """For a message cut off before its end (a truncated log line): how many literal characters
    of the template it matches in order, if the message could be the start of a filling of the
    template (0 if it cannot), and whether it ends exactly where a literal chunk ends, before a
    placeholder (a natural boundary: `... triggered<help>...` pasted without the help text).
    Linear like :func:`match_compiled` (each chunk found once)."""
    lits = compiled.literals
    first = lits[0]
    if msg == first.rstrip() and compiled.names:
        return len(msg.strip()), True
    if not msg.startswith(first):
        if not first.startswith(msg):
            return 0, False
        return len(msg), len(msg.strip()) >= VALUE_MIN and _sentence_end(first, len(msg))
    matched, pos = len(first.strip()), len(first)
    for i, chunk in enumerate(lits[1:], start=1):
        if not chunk:
            continue
        found = msg.find(chunk, pos)
        if found < 0:
            stripped = chunk.rstrip()
            if i < len(lits) - 1 and stripped and msg.endswith(stripped, pos):
                return matched + len(stripped.strip()), True
            overlap = _overlap(msg[pos:], chunk)
            if overlap and matched + overlap >= VALUE_MIN and _sentence_end(chunk, overlap):
                # the paste ends where a sentence of the template ends: the rest was left out
                return matched + len(chunk[:overlap].strip()), True
            if (
                overlap
                and not chunk[:overlap].strip(_CLOSING)
                and matched >= VALUE_MIN
                and not _closed_before(msg[pos : len(msg) - overlap], chunk)
            ):
                # the value, then only the bracket or stop that closes it: `... (32768)` of
                # `... (<n>). This may lead to ...`, a clause pasted up to its end
                return matched + overlap, True
            return matched + overlap, _cut_inside(lits, i, msg[pos:], matched, overlap)
        matched += len(chunk.strip())
        pos = found + len(chunk)
    return (matched, False) if pos < len(msg) else (0, False)


INFIX_HEAD = 12
"""Characters of a message's start looked for inside a template's literal text (`match_infix`)."""
INFIX_TRIES = 3
_INFIX_OPENERS = "([{`'\""
"""What a part quoted from a template's middle may open with besides a word: a bracket or a
quote of the text (`(moe_intermediate_size=768 / moe_tp_size=8) % ... == 0` of `... please
make sure (moe_intermediate_size=<n> / ...`)."""


def _word_start(chunk: str, at: int) -> bool:
    return at == 0 or (not chunk[at - 1].isalnum() and chunk[at - 1] != "_")


_CLAUSE_END = compile_regex(r"[,;:.!?] +\Z")
"""A clause ends right before a part (`..., switching to <x> layout ...`): where a paster
starts quoting a message's tail."""


def match_infix(compiled: Compiled, msg: str) -> int:
    """:func:`infix_reading`'s literal characters."""
    return infix_reading(compiled, msg)[0]


def infix_reading(compiled: Compiled, msg: str) -> tuple[int, bool, int]:
    """For a message quoted from the middle of a filled template (its head left out, its end
    perhaps cut: `dispatched to dp_rank 0 but bootstrap_room X implies dp_rank Y` of
    `follow_bootstrap_room conflict: dispatched to dp_rank <r> but ...`): how many literal
    characters of the template it matches in order, read from a word of the template's literal
    text where the message starts (the message's first INFIX_HEAD characters found there, at a
    word start or at a bracket or quote, not at the template's very start); 0 when it is not
    such a part; and whether it is the template's whole tail from the start of a clause (after
    a comma, a colon, a sentence end: its end was pasted, not cut); and how many of the
    template's placeholders the best reading holds between literal text it matched (values
    pasted where the template puts them). Bounded: at most INFIX_TRIES starts are read, each as
    :func:`match_prefix` reads a message."""
    head = msg[:INFIX_HEAD]
    if len(head) < INFIX_HEAD or not (head[:1].isalnum() or head[:1] in _INFIX_OPENERS):
        return 0, False, 0
    lits, names = compiled.literals, compiled.names
    best, inner, tries = 0, 0, 0
    for i, chunk in enumerate(lits):
        at = chunk.find(head)
        while at >= 0 and tries < INFIX_TRIES:
            if (i, at) != (0, 0) and _word_start(chunk, at):
                tries += 1
                rest = (chunk[at:], *lits[i + 1 :])
                sub = Compiled(rest, names[i:], sum(len(c.strip()) for c in rest))
                if match_compiled(sub, msg) is not None:
                    clause = _CLAUSE_END.search(chunk, 0, at) is not None
                    return sub.literal_len, clause, len(sub.names)
                matched = match_prefix(sub, msg)[0]
                if matched > best:
                    best, inner = matched, _held_between(rest, matched)
            at = chunk.find(head, at + 1)
    return best, False, inner


def _held_between(literals: Sequence[str], matched: int) -> int:
    """How many placeholders lie between literal text a prefix reading of `matched` literal
    characters (:func:`match_prefix`, stripped chunks) matched on both sides."""
    held, seen = 0, 0
    for chunk in literals[:-1]:
        seen += len(chunk.strip())
        if seen >= matched:
            break
        held += 1
    return held


_LOOSE_DROP = compile_regex(r"[^\w<>\x00]+")


def loosen(text: str) -> str:
    """Lower case, every run of punctuation and spaces as one space: what survives a message
    being re-cased, re-punctuated or re-wrapped."""
    return _LOOSE_DROP.sub(" ", text).strip().lower()


@memo(maxsize=65536)
def compile_loose(template: str) -> Compiled:
    """The template with each literal chunk loosened (placeholders unchanged)."""
    compiled = compile_template(template)
    lits = [_LOOSE_DROP.sub(" ", c).lower() for c in compiled.literals]
    lits[0], lits[-1] = lits[0].lstrip(), lits[-1].rstrip()
    return Compiled(tuple(lits), compiled.names, sum(len(c.strip()) for c in lits))


def match(template: str, message: str) -> tuple[tuple[str, str], ...] | None:
    """Match a whole message; return the bound (name, value) pairs, or None.

    >>> match("bad size <n>, want <<= <limit>", "bad size 300, want <= 128")
    (('n', '300'), ('limit', '128'))
    """
    compiled = compile_template(template)
    values = _bind(compiled, normalize_ws(message))
    if values is None:
        return None
    return tuple((name, value.strip()) for name, value in zip(compiled.names, values, strict=True))


def spans_inside(
    compiled: Compiled, text: str, least: int = 20, gap: int = 40
) -> list[tuple[int, int, int, int]]:
    """(start, end, literal characters held, start of a trailing value or -1) of each place
    after its start where `text` holds the template's text, with `least` characters or more of
    its literal text: its literal head starts there at a word boundary and its later literal
    chunks follow in order, each first found (its value before it at most `gap` characters
    when the head is short, `Rank `); a trailing placeholder's value runs to the end of `text`.
    A message a writer put inside a sentence (`after upgrading, <message> appears in the
    log`), whole or up to one of its sentence or clause ends (the writer quoted the message's
    start, then went on): `Decode out of memory happened` of `Decode out of memory happened.
    #retracted_reqs: ...`.

    >>> size = compile_template("bad tensor size <n>, want <<= <m>.")
    >>> spans_inside(size, "so bad tensor size 3, want <= 1. ok")
    [(3, 32, 24, -1)]
    >>> decode = compile_template("Decode out of memory happened. #reqs: <n>")
    >>> spans_inside(decode, "A Decode out of memory happened and")
    [(2, 31, 29, -1)]
    """
    lits = compiled.literals
    head = lits[0]
    if len(head.strip()) < HEAD_CHARS:
        return []
    key = head[:KEY_CHARS]
    out: list[tuple[int, int, int, int]] = []
    at = text.find(key, 1)
    while at > 0:
        if not text[at - 1].isalnum():
            end, held, value = _follow(text, at, lits, len(head) < KEY_CHARS and gap)
            if end > at and held >= least:
                out.append((at, end, held, value))
        at = text.find(key, at + 1)
    return out


HEAD_CHARS, KEY_CHARS = 4, 8
"""A template whose literal head is shorter than HEAD_CHARS is not looked for inside a text;
its head's first KEY_CHARS characters find the places it may start."""


def _shared(text: str, at: int, chunk: str, before_value: bool) -> int:
    """Characters of `chunk` that `text` holds from `at`: all of it, or up to one of its
    sentence or clause ends (:func:`_sentence_end`: the writer quoted the message up to there,
    then went on in their own words), or, in a chunk that leads into a value
    (`before_value`), up to a word's end that leaves only the value's few lead-in words
    (`Capture cuda graph failed` of `Capture cuda graph failed: <e>`, `... MambaRadixCache v1`
    of `..., got <n>`) where the writer's sentence goes on, or up to the last word end both
    share after a long start (:func:`_word_cut`); -1 when the two part elsewhere (the writer's
    own words about the error, `We think the worker pool exhausted its memory`, not a
    message)."""
    n = 0
    limit = min(len(chunk), len(text) - at)
    while n < limit and text[at + n] == chunk[n]:
        n += 1
    if n == len(chunk) or n == len(chunk.rstrip(".!")) or _sentence_end(chunk, n):
        return n
    if n > 1 and chunk[n - 2 : n] in (". ", "! ", "? "):
        return n - 1  # (the sentence's stop and the space after it, then the writer's words)
    if before_value:
        # (both went on past the word's end with a space, the template's into its lead-in
        # words, the writer's into their own: `... inputs for rid=` and `... inputs appears
        # in the log`; not into a value the template quotes, `loading '<arch>'`, which the
        # writer's text may hold unquoted)
        spaced = n > 1 and chunk[n - 1] == " " and chunk[n].isalpha()
        w = n - 1 if spaced and len(chunk[:n].split()) >= CUT_WORDS else n
        if (
            w
            and chunk[w - 1].isalnum()
            and not chunk[w].isalnum()
            and text[at + w : at + w + 1] in ("", " ", ".", ",", ";")
            and len(_LEAD_WORDS.findall(chunk[w:])) <= LEAD_IN_WORDS
        ):
            return w
    return _word_cut(text, at, chunk, n)


def _word_cut(text: str, at: int, chunk: str, n: int) -> int:
    """Where, at or before `n`, both `text` (from `at`) and `chunk` end a word, when the two
    agree up to there on CUT_INSIDE characters or more in CUT_WORDS words or more (the writer
    quoted a long start of the message up to a word, then went on: `Loaded weights leave no
    GPU memory for the KV cache` of `... KV cache under --mem-fraction-static=<f>. Raise ...`;
    not a long name alone, `--disaggregation-decode-enable-radix-cache` of `<flag> is
    incompatible with ...`); -1 otherwise."""
    while n >= CUT_INSIDE:
        if (
            chunk[n - 1].isalnum()
            and not chunk[n].isalnum()
            and not text[at + n : at + n + 1].isalnum()
        ):
            return n if len(chunk[:n].split()) >= CUT_WORDS else -1
        n -= 1
    return -1


CUT_INSIDE = 40
"""Fewest characters of a template's literal text a writer's sentence must repeat, word for
word, for a message cut there to be read inside the sentence (the cut message is then known
well by the same measure, `explainer.CUT_KNOWN`), and fewest words."""
CUT_WORDS = 5


LEAD_IN_WORDS = 2
"""Most words a writer may leave out between a message's quoted start and a value it leads
into (`, got `, ` for rid=`)."""
_LEAD_WORDS = compile_regex(r"[A-Za-z]+")


def _follow(text: str, at: int, lits: tuple[str, ...], gap: int | bool) -> tuple[int, int, int]:
    """(end, literal characters held, where a trailing value starts or -1) of the template's
    text followed in `text` from `at`, where its head starts (:func:`spans_inside`); end -1
    when the text parts from the template."""
    n = _shared(text, at, lits[0], len(lits) > 1)
    if n < 0:
        return -1, 0, -1
    held = len(lits[0][:n].strip())
    if n < len(lits[0].rstrip(".!")) or len(lits) == 1:
        return _stopped(text, at + n), held, -1
    pos = at + n
    for i, chunk in enumerate(lits[1:], 1):
        last = i == len(lits) - 1
        if not chunk:
            if last:
                return len(text), held, pos  # (a trailing placeholder's value: the rest)
            continue
        end, n = _after_value(text, pos, chunk, last, gap if i == 1 else False)
        if n < 0:
            return end, held, -1
        held += len(chunk[:n].strip())
        if n < len(chunk.rstrip(".!")):
            return _stopped(text, end), held, -1  # (the writer cut the message here)
        pos = end
    return _stopped(text, pos), held, -1


def _after_value(text: str, pos: int, chunk: str, last: bool, gap: int | bool) -> tuple[int, int]:
    """(where the text stands, characters of `chunk` it holds; -1 when the text's reading
    ends before it) after a value starting at `pos` and the literal `chunk` that follows it
    (the value at most `gap` characters when `gap`). The end is -1 when the text parts from
    the template."""
    if last and not chunk.rstrip(".!").strip():
        found = text.find(chunk, pos)  # (`<value>.`: the stop, or the writer's sentence)
        return (found + len(chunk) if found >= 0 else len(text)), -1
    found = text.find(chunk[:KEY_CHARS], pos + 1 if chunk[0].isalnum() else pos)
    if found < 0 and (closed := _closed_value(text, pos, chunk, gap))[0] > 0:
        return closed
    if found < 0 and _sentence_end(chunk, 0):
        # the writer quoted up to the value that ends the message's first sentence, then went
        # on: a value of one thing
        end = one_value(text, pos)
        return (end if end > pos and (not gap or end - pos <= gap) else -1), -1
    if found < 0 or (gap and found - pos > gap):
        return -1, -1
    n = _shared(text, found, chunk, not last)
    return (found + n if n >= 0 else -1), n


_CLOSERS_AFTER_VALUE = ")]}'\"`"


def _closed_value(text: str, pos: int, chunk: str, gap: int | bool) -> tuple[int, int]:
    """(where the text stands, characters of `chunk` it holds) after a value of one thing
    starting at `pos` and the closing brackets or quotes that open `chunk`, when a sentence of
    the template ends right after them (`... (exit code: <code>). If ...` of `... (exit code:
    -11) appears in the log`): the writer quoted the message up to the value's closing
    bracket, then went on; (-1, -1) when not."""
    k = len(chunk) - len(chunk.lstrip(_CLOSERS_AFTER_VALUE))
    if not k or not _sentence_end(chunk, k):
        return -1, -1
    end = one_value(text, pos)
    if end <= pos or (gap and end - pos > gap) or not text[:end].endswith(chunk[:k]):
        return -1, -1
    return end, k


def _stopped(text: str, end: int) -> int:
    """`end`, past the stop the message ends with when one was pasted there."""
    if text[end - 1 : end] not in (".", "!") and text[end : end + 1] in (".", "!"):
        return end + 1
    return end


def one_value(text: str, at: int) -> int:
    """Where a value of one thing starting at `at` ends: its first space outside brackets and
    quotes (a shape `[1, 2]` or a quoted name holds spaces), its closing punctuation left out."""
    while at < len(text) and text[at] == " ":
        at += 1
    space = first_break(text[at:], _SPACE)
    return len(text) if space < 0 else len(text[: at + space].rstrip(",;:."))


_SPACE = compile_regex(r"\s")


def first_break(value: str, breaking: Pattern[str]) -> int:
    """The first place after its start where `breaking` matches in `value` outside its
    brackets and quotes (a quote opens after a non-word character); -1 if none."""
    depth: list[str] = []
    quote = ""
    breaks = {m.start() for m in breaking.finditer(value)}
    if not breaks:
        return -1
    for i, ch in enumerate(value):
        if i in breaks and not depth and not quote and i > 0:
            return i
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"`" and (i == 0 or not value[i - 1].isalnum()):
            quote = ch
        elif ch in _VALUE_PAIRS:
            depth.append(_VALUE_PAIRS[ch])
        elif depth and ch == depth[-1]:
            depth.pop()
    return -1


_VALUE_PAIRS = {"(": ")", "[": "]", "{": "}"}


def match_compiled(compiled: Compiled, normalized_message: str) -> list[str] | None:
    """Like :func:`match` for an already-compiled template and normalised message."""
    return _bind(compiled, normalized_message)


def fill(template: str, values: dict[str, str] | None = None) -> str:
    """Fill placeholders with values (missing ones are left as their name in angle brackets)."""
    compiled = compile_template(template)
    values = values or {}
    out = [compiled.literals[0]]
    for name, lit in zip(compiled.names, compiled.literals[1:], strict=True):
        out.append(values.get(name, f"<{name}>"))
        out.append(lit)
    return "".join(out)


def generalized_literal(general: str, specific: str) -> tuple[int, int] | None:
    """(literal characters of template `general`, literal characters of `specific`) when every
    literal part of `general` is found, in order, in `specific`'s literal text (`<pool_name>
    memory leak detected! <msg>` in `token_to_kv_pool_allocator memory leak detected! <msg>`),
    else None: how much of a wording a template that generalises it keeps (the explainer names
    a removed wording's current template by it, the history follows a wording by it)."""
    text = "".join(compile_template(specific).literals)
    parts = [p for p in compile_template(general).literals if p.strip()]
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return None
        at += len(part)
    return sum(len(p.strip()) for p in parts), len(text.strip())


def render_plain(template: str) -> str:
    """The template as a reader sees it: placeholders as ``{expr}``, escapes undone."""
    compiled = compile_template(template)
    return fill(template, {n: "{" + n + "}" for n in compiled.names})
