"""Plain, immutable records that flow through parse -> match -> explain -> render.

Nothing here imports from the package but its start-up shims (:func:`record` is a frozen,
slotted dataclass to the type checker), nor anything outside the standard library.

:class:`Candidate` is what matching sees of a catalog entry (its typed row) and
:class:`CatalogView` what matching and explaining need of a catalog; the storage behind it
(the binary index, or an in-memory list of entries) is private to :mod:`errexplain.catalog`.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, Record, compile_regex, memo

if TYPE_CHECKING:
    import re
    from collections.abc import Iterable, Iterator
    from typing import Any, Literal, Protocol

    from errexplain.match.release import Facts

    MatchKind = Literal["exact", "fuzzy", "probable"]
else:
    MatchKind = str

SCHEMA_VERSION = 1


class Frame(Record):
    """One `File "...", line N, in func` frame of a traceback."""

    path: str
    line: int | None
    function: str | None
    code: str | None = None
    more: str | None = None
    """The further lines Python 3.13 prints of a statement over several lines (`code` is its
    first line shown), one per line; `…` stands for the lines it elides (`...<2 lines>...`)."""


def raises_here(code: str | None) -> bool:
    """Whether a frame's source line raises or asserts (the exception was raised there)."""
    return bool(code) and code.lstrip().startswith(("raise ", "assert ", "assert("))  # type: ignore[union-attr]


class RaisedError(Record):
    """An exception found in pasted text.

    `chain` holds the exceptions printed before this one in the same chain, root cause first;
    `chain_relation` says how the last of them led here ("cause" or "context").
    `members` holds the sub-exceptions of an exception group. `count` is how many times the same
    error was seen (for example once per rank) and `ranks` the rank labels seen with it.
    `form` tells how the error was written in the paste: "traceback", "jupyter" (an IPython
    traceback), "line" (a bare `Type: message` line), "json" (an HTTP error body), "log" (an
    error log line, or an exception inside one), "repr" (`ValueError('...')`), "prose" (quoted
    in text) or "argparse" (`prog: error: message`, a command line's usage error).
    `lead` holds the words of a line of output before an exception written inside it (the
    record that reports it: `Decode transfer failed ... with exception KVTransferError(...)`),
    so that two different records wrapping one exception stay two errors.
    `shown` holds the source line printed right above a message-less exception line that no
    frame line names (a paste that starts at the code line: `    assert x == y` then
    `AssertionError`): the statement that raised it, by its text alone.
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
    form: str = "traceback"
    lead: str = ""
    shown: str = ""

    @property
    def short_type(self) -> str:
        """The class name without its module: `torch.AcceleratorError` -> `AcceleratorError`."""
        return self.type.rsplit(".", 1)[-1]

    @property
    def root_cause(self) -> RaisedError | None:
        return self.chain[0] if self.chain else None


ELLIPSES = ("...", "\u2026")
"""How a paster marks text left out (the parser marks a cut it is sure of the same way)."""


class Project(Record):
    """A catalogued project: its release and how to link to a source line."""

    name: str
    version: str | None = None
    repository: str | None = None
    link: str | None = None
    """A format string with {version}, {prefix}, {path} and {line}."""
    path_prefix: str = ""
    adapted: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(other project, paths): files whose header says they were adapted from that project's
    source (project.yaml `adapted_from`): their messages may be the other project's too."""

    log_prefixes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(path prefix, patterns): how the log lines of that part of the project open (project.yaml
    `log_prefixes`), regular expressions matched at the start of a line."""
    main_part: str = ""
    """The path prefix of the part of the project a paste comes from when nothing in it tells
    (project.yaml `main_part`: sglang's server, `sglang/srt/`, beside its diffusion runtime)."""
    shared: tuple[tuple[str, str], ...] = ()
    """(other project, entry ids): entries whose wording that project's released source raises
    or logs word for word (project.yaml `shared_wording`, written by tools/shared.py). The ids
    are one space-separated string: read at every start, one string unmarshals as one copy."""
    own_prefixes: tuple[str, ...] = ()
    """Regular expressions matching log prefixes that only this project's logging prints
    (project.yaml `own_log_prefixes`: sglang's server stamp with its ranks, `[2026-01-16
    07:02:59 TP6] `): a record whose line opens so was logged by this project."""

    def shares(self, entry_id: str) -> str | None:
        """The other project that raises an entry's wording word for word, if any."""
        for upstream, ids in self.shared:
            at = ids.find(entry_id)
            if at >= 0 and at % 17 == 0:  # (16 hex digits and a space each)
                return upstream
        return None

    def read_wording_of(self, upstream: str) -> bool:
        """Whether `upstream`'s released source was read for the wordings it shares with this
        project (`shared_wording` lists it): its own messages are known, so its text decides."""
        return any(u == upstream for u, _ in self.shared)

    def logs_like(self, path: str | None) -> tuple[str, ...] | None:
        """The log-prefix patterns of the part of the project `path` lies in (the longest
        declared path prefix), or None when none is declared."""
        best: tuple[str, tuple[str, ...]] | None = None
        for prefix, patterns in self.log_prefixes:
            if path and path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
                best = (prefix, patterns)
        return best[1] if best else None

    def adapted_from(self, path: str | None) -> str | None:
        """The project a file of this project was adapted from, if any."""
        for upstream, paths in self.adapted:
            if path and path in paths:
                return upstream
        return None

    def url(self, path: str | None, line: int | None, version: str | None = None) -> str | None:
        """The web link to a source line (in ``version``, default the project's), if the project
        has a link template."""
        if not (self.link and path and line):
            return None
        version = version or self.version
        return self.link.format(version=version, prefix=self.path_prefix, path=path, line=line)


class Source(Record):
    """Where an error is raised in a released version of a project."""

    project: str
    version: str | None
    path: str | None
    line: int | None
    function: str | None
    url: str | None


class ExampleFix(Record):
    before: str
    after: str
    language: str = "python"


class Verified(Record):
    """How a curated entry's claims were checked against the code it explains."""

    how: str
    """``run``: the verification harness ran the example (tools/verify/); ``read``: a reader
    followed the value through the code (the functions in ``read``)."""
    release: str | None = None
    """The release the check was made against."""
    case: str | None = None
    """The harness case that runs the example (``how: run``)."""
    read: tuple[str, ...] = ()
    """The functions read (where the value is set, defaulted, rewritten, checked)."""
    note: str | None = None


class Entry(Record):
    """One catalog entry: a message template at a raise site plus its explanation."""

    id: str
    project: str
    exception: str
    template: str
    source: Source
    base: str | None = None
    kind: str = "raise"
    condition: str | None = None
    statement: str | None = None
    """The statement's source text, for a site whose exception carries no message."""
    via: str | None = None
    """The helper (qualified name) that raises the exception for this call site."""
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
    catalog_file: str | None = None
    releases: tuple[str, str] | None = None
    """(first, last): the first and last release that raise this wording (history catalogs)."""
    at: str | None = None
    """Where the wording was raised, release by release (:func:`parse_at` reads it)."""
    lineage: str | None = None
    """The id of the head wording of this entry's lineage, when this entry is not the head."""
    replaced_by: str | None = None
    """A removed lineage's head: the id of the wording that took its place, when known."""
    verified: Verified | None = None
    """How the curated text was checked (curated entries only)."""

    @property
    def curated(self) -> bool:
        return not self.derived and bool(self.meaning)

    @property
    def older(self) -> bool:
        """An older wording: reworded since (it has a lineage head) or removed."""
        return bool(self.lineage or self.removed_in)


class Candidate(Record):
    """What matching sees of one catalog entry: its typed row, without the prose. `pos` is its
    position in the catalog view it came from (the handle for :meth:`CatalogView.entry`)."""

    pos: int
    id: str
    exception: str
    base: str | None
    template: str
    path: str | None
    function: str | None
    line: int | None
    project: str
    kind: str
    curated: bool
    literal_len: int
    """Characters of literal text in the template: how much of a message it pins down."""
    condition: str | None
    statement: str | None = None
    releases: tuple[str, str] | None = None
    """(first, last) release raising this wording, for history catalogs."""
    lineage: str | None = None
    paths: tuple[str, ...] = ()
    """Other paths the wording was raised from in earlier releases (history catalogs): frames
    of a paste from such a release point there."""
    printed: bool = False
    """Written with ``print`` (a log site whose ``via`` is :data:`PRINTED`)."""
    since: str | None = None
    """The first release that raised the check in any wording, when an older wording of its
    lineage came before its own `releases` (history catalogs): how long users have met it."""
    placed: bool = False
    """A C++ check that prints its place before its text (:data:`LOCATED_CHECKS`)."""

    @property
    def in_tests(self) -> bool:
        """Raised from one of its project's own test files (derived from the path)."""
        return is_test_path(self.path)

    @classmethod
    def of(cls, pos: int, e: Entry, literal_len: int, since: str | None = None) -> Candidate:
        return cls(*candidate_fields(pos, e, literal_len, since))


def candidate_fields(
    pos: int, e: Entry, literal_len: int, since: str | None = None
) -> tuple[Any, ...]:
    """The fields of :meth:`Candidate.of` in order (an index build stores them as they are,
    without making 38,000 records)."""
    src = e.source
    return (
        pos,
        e.id,
        e.exception,
        e.base,
        e.template,
        src.path,
        src.function,
        src.line,
        e.project,
        e.kind,
        e.curated,
        literal_len,
        e.condition,
        e.statement,
        e.releases,
        e.lineage,
        _older_paths(e),
        e.via == PRINTED,
        since,
        cpp_check(e.via) in LOCATED_CHECKS,
    )


_DIGITS = compile_regex(r"\d+")


@memo(4096)
def release_numbers(release: str) -> tuple[int, ...]:
    """A release's numbers in order (`0.4.1.post7`: 0, 4, 1, 7): releases compare as these do."""
    return tuple(int(n) for n in _DIGITS.findall(release))


def lineage_since(entries: Iterable[Entry]) -> dict[str, str]:
    """{lineage head id: the first release of its oldest wording} for the heads an older
    wording came before (a candidate's `since`): the decode runner's `Capture cuda graph failed`
    is raised since 0.2.14 under older wordings, though its own wording dates from 0.5.14."""
    first: dict[str, str] = {}
    own: dict[str, str] = {}
    for e in entries:
        if not e.releases:
            continue
        if e.lineage is None:
            own[e.id] = e.releases[0]
        else:
            was = first.get(e.lineage)
            if was is None or release_numbers(e.releases[0]) < release_numbers(was):
                first[e.lineage] = e.releases[0]
    return {
        head: release
        for head, release in first.items()
        if head in own and release_numbers(release) < release_numbers(own[head])
    }


def is_test_path(path: str | None) -> bool:
    """Whether a source path is one of a project's own test files: under a `test` or `tests`
    directory, or named `test_*.py`, `*_test.py` or `conftest.py`. Such entries are kept (a
    user running the project's tests meets them) but marked and ranked after library code."""
    if not path:
        return False
    *dirs, name = path.split("/")
    return (
        "test" in dirs
        or "tests" in dirs
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def at_sites(at: str | None) -> list[tuple[str, str]]:
    """(path, function) of each release span of an `at` text (``0.4.6 pkg/a.py:12 A.f;
    0.5.0..0.5.2 :14; 0.5.3 pkg/b.py:9 B.g``; a part without a path or function keeps the
    previous one's), distinct and in order, read without building span records (this runs for
    every entry of an index build)."""
    out: dict[tuple[str, str], None] = {}
    path = function = ""
    for part in (at or "").split(";"):  # (checked by the loader: `first[..last] [path]:line`)
        words = part.split(None, 2)
        if len(words) < 2:
            continue
        path = words[1].rpartition(":")[0] or path
        function = words[2].strip() if len(words) > 2 else function
        if path:
            out[path, function] = None
    return list(out)


def _older_paths(e: Entry) -> tuple[str, ...]:
    """The paths an `at` text names other than the entry's own: the paths of
    :func:`at_sites`, found by one regex search (most `at` texts name one path, the entry's)."""
    if not e.at:
        return ()
    own = e.source.path
    return tuple(dict.fromkeys(p for p in _named_paths().findall(e.at) if p and p != own))


@memo(maxsize=1)
def _named_paths() -> re.Pattern[str]:
    """The path each release span of an `at` text names: what precedes the last colon of its
    second word (as :func:`at_sites` reads it; empty when the span names no path)."""
    from errexplain._startup import compile_regex

    return compile_regex(r"(?:^|;)\s*[^\s;]+\s+([^\s;]*):")


class WordStats(Record):
    """The literal words of every identifiable template, for fuzzy pooling and search:
    `postings[word]` holds the positions whose template has the word, `idf[word]` its inverse
    document frequency and `weight_sums[pos]` the summed idf of a position's words."""

    postings: dict[str, tuple[int, ...]]
    idf: dict[str, float]
    weight_sums: tuple[float, ...]


class Related(Record):
    id: str
    template: str
    exception: str
    why: str = ""
    """How it relates to the entry, in one line (errexplain.catalog.relation)."""


class Current(Record):
    """The wording of an entry's check in the project's latest release (history catalogs)."""

    id: str
    template: str
    path: str | None
    line: int | None
    statement: str | None = None
    """For a check without a message: its statement (the template is empty)."""


class Match(Record):
    """A catalog entry that explains an error, with how sure we are and why. `current` is the
    latest release's wording of the same check when the entry is an older wording (None when
    the check was removed, or the entry is itself current); `borrowed` says the prose was
    written for that current wording."""

    entry: Entry
    score: float
    kind: MatchKind
    values: tuple[tuple[str, str], ...] = ()
    reasons: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()
    current: Current | None = None
    borrowed: bool = False


class ReleaseGuess(Record):
    """The releases of a project a paste can come from (first..last of the project's release
    order), and the evidence that narrowed them; `stated` when the user said it."""

    project: str
    first: str
    last: str
    evidence: tuple[str, ...]
    stated: bool = False


class Snippet(Record):
    """A few lines of source around a raise site."""

    origin: str
    """"installed" (the user's own copy of the file, named by a traceback frame) or "catalog"
    (cut from the pinned release when the catalog was built)."""
    release: str
    """`project release` for a catalog snippet, "" for an installed file."""
    path: str
    first_line: int
    raise_line: int
    lines: tuple[str, ...]
    license: str | None = None
    """The license of a catalog snippet's project (its text ships in errexplain/_snippets)."""


class Explanation(Record):
    """The answer for one error: its matches (best first), or none with the nearest ones."""

    error: RaisedError
    matches: tuple[Match, ...]
    nearest: tuple[Match, ...] = ()
    ambiguous: bool = False
    generic: str | None = None
    notes: tuple[str, ...] = ()
    release_guess: ReleaseGuess | None = None
    snippet: Snippet | None = None
    """The code around the best match's raise site (filled in at the edge: it reads files)."""
    look_alike: bool = False
    """Another project's claim on the error (its frames, its name in the paste) made the
    catalog's same text a look-alike: those sites were moved to `nearest` (a note says why)."""
    untagged: bool = False
    """The message was read without the tag a handler put before it when passing it on."""

    @property
    def explained(self) -> bool:
        return bool(self.matches)


if TYPE_CHECKING:

    class CatalogView(Protocol):
        """What matching, explaining and the commands need of a catalog. Implemented by the
        binary index and by the in-memory catalog (errexplain.catalog)."""

        def __len__(self) -> int: ...

        def bucket(self, word: str, present: set[str]) -> list[Candidate]:
            """The exact-match candidates a message word brings (`present`: all its words)."""

        def candidate(self, pos: int) -> Candidate: ...

        def candidates(self) -> list[Candidate]:
            """Every candidate, in position order (list, stats; not the explain path)."""

        def word_stats(self) -> WordStats: ...

        def entry(self, pos: int) -> Entry:
            """The whole entry, prose included."""

        def related(self, pos: int) -> tuple[Related, ...]: ...

        def at(self, pos: int) -> str | None:
            """The entry's `at` text (where each release raised it), without the whole entry."""

        def position(self, entry_id: str) -> int | None: ...

        def sites(self, file_name: str, function: str) -> list[Candidate]:
            """The entries raised in a file of this name (any directory) by a function whose
            name (last part of its qualified name) is `function`, in position order."""

        def site_positions(self, key: str, messages: bool = True) -> tuple[int, ...]:
            """The positions :meth:`sites_at` gives candidates for (a cheap membership test)."""

        def sites_at(self, key: str, messages: bool = True) -> list[Candidate]:
            """The locatable entries filed under a key of errexplain.match.sites (a file and
            function, a file, or an assert test), in position order; not `messages`: only
            those without a message."""

        def known_base(self, exc_type: str) -> str | None:
            """The builtin base the catalog records for a custom exception class."""

        def history_projects(self) -> tuple[str, ...]:
            """The projects whose release history the catalog holds."""

        def project(self, name: str) -> Project | None: ...

        def release_facts(self, project: str) -> Facts | None:
            """The project's release order and the releases of each source path, for a
            catalog that holds the project's history."""


class AtSpan(Record):
    """Consecutive releases (``first`` .. ``last``) that raise a wording at one location."""

    first: str
    last: str
    path: str
    line: int
    function: str


def _at_token(text: str, what: str) -> str:
    if not text or any(c.isspace() or c == ";" for c in text):
        raise ValueError(f"{what} {text!r} is empty or holds a space or ';'")
    return text


def format_at(spans: tuple[AtSpan, ...] | list[AtSpan]) -> str:
    """The ``at`` text of spans: ``0.4.6..0.4.8 sglang/x.py:120 f; 0.4.9 :124; ...``; path and
    function are written only when they differ from the previous span's."""
    parts: list[str] = []
    prev: AtSpan | None = None
    for span in spans:
        for release in (span.first, span.last):
            if release.startswith(".") or release.endswith(".") or ".." in release:
                raise ValueError(f"release {release!r} cannot be written in a span")
        when = span.first if span.first == span.last else f"{span.first}..{span.last}"
        path = "" if prev is not None and prev.path == span.path else span.path
        func = "" if prev is not None and prev.function == span.function else span.function
        text = f"{_at_token(when, 'release')} {path and _at_token(path, 'path')}:{span.line}"
        parts.append(text + (f" {_at_token(func, 'function')}" if func else ""))
        prev = span
    return "; ".join(parts)


def parse_at(text: str) -> tuple[AtSpan, ...]:
    """The spans of an ``at`` text (see :func:`format_at`); ValueError names what is wrong."""
    return tuple(AtSpan(*fields) for fields in _at_fields(text))


def at_lines(text: str) -> list[tuple[str, str, str, int]]:
    """(first, last, path, line) of each span of an ``at`` text, without building span records
    and without checking the text again (a frame compared with the lines of a few dozen sites
    on a cold start): only for a text the catalog already checked (:func:`at_ends` at load, the
    index's checksums after), which reads as :func:`parse_at` reads it."""
    out = []
    path = ""
    for part in text.split(";"):
        words = part.split()
        first, _, last = words[0].partition("..")
        here, _, line = words[1].rpartition(":")
        path = here or path
        out.append((first, last or first, path, int(line)))
    return out


def at_ends(text: str) -> tuple[str, tuple[str, str, str, int, str]]:
    """The first release of a valid ``at`` text and the fields of its last span (first, last,
    path, line, function), checked as :func:`parse_at` checks it but without building the spans
    (the loader runs this for every history entry)."""
    first = ""
    fields = None
    for i, fields in enumerate(_at_fields(text)):
        if i == 0:
            first = fields[0]
    if fields is None:  # pragma: no cover - split() always yields a span to check
        raise ValueError("no span")
    return first, fields


def _at_fields(text: str) -> Iterator[tuple[str, str, str, int, str]]:
    prev: tuple[str, str, str, int, str] | None = None
    for i, part in enumerate(text.split(";")):
        words = part.split()
        if len(words) not in (2, 3):
            raise ValueError(
                f"span {i + 1} {part.strip()!r}: "
                "expected 'RELEASE[..RELEASE] [PATH]:LINE [FUNCTION]'"
            )
        first, _, last = words[0].partition("..")
        path, colon, line = words[1].rpartition(":")
        if not colon or not line.isdigit() or int(line) < 1:
            raise ValueError(f"span {i + 1} {part.strip()!r}: no ':LINE' with a positive line")
        if prev is None and (not path or len(words) < 3):
            raise ValueError(f"span 1 {part.strip()!r}: the first span needs a path and a function")
        prev = (
            first,
            last or first,
            path or prev[2],  # type: ignore[index]
            int(line),
            words[2] if len(words) == 3 else prev[4],  # type: ignore[index]
        )
        yield prev


def format_site(path: str | None, line: int | None, function: str | None) -> str | None:
    """The short ``source`` text of a catalog entry, ``PATH[:LINE] [FUNCTION]`` (the tokens of
    an ``at`` span), or None when the site cannot be written so (no path, or a space or ';' in
    a part): the writer then keeps the ``{path, line, function}`` mapping."""
    if not path or (line is not None and (type(line) is not int or line < 1)):
        return None
    for part in (path, function or ""):
        if any(c.isspace() or c == ";" for c in part):
            return None
    if line is None and ":" in path:
        return None  # "a:12" would read back as path "a", line 12
    text = path if line is None else f"{path}:{line}"
    return f"{text} {function}" if function else text


def parse_site(text: str) -> tuple[str, int | None, str | None]:
    """(path, line, function) of a :func:`format_site` text; ValueError names what is wrong."""
    words = text.split()
    if len(words) not in (1, 2) or text != " ".join(words):
        raise ValueError(f"{text!r}: expected 'PATH[:LINE] [FUNCTION]'")
    path, colon, tail = words[0].rpartition(":")
    if not (colon and tail.isdigit() and path):
        return words[0], None, words[1] if len(words) == 2 else None
    if int(tail) < 1:
        raise ValueError(f"{text!r}: the line must be positive")
    return path, int(tail), words[1] if len(words) == 2 else None


def format_releases(first: str, last: str) -> str:
    """The short ``releases`` text: ``FIRST..LAST``, or one release when they are the same."""
    return first if first == last else f"{first}..{last}"


def parse_releases(text: str) -> tuple[str, str]:
    """(first, last) of a :func:`format_releases` text; ValueError names what is wrong."""
    first, dots, last = text.partition("..")
    if not first or (dots and not last) or any(c.isspace() or c == ";" for c in text):
        raise ValueError(f"{text!r}: expected 'FIRST..LAST' or one release")
    return first, last or first


WARNED = "warnings.warn"
"""The ``via`` of a log site whose message is issued with ``warnings.warn`` (level
``warning``): the extractor writes it, the derived text and the view read it."""

RESPONSE_VIA = "HTTP "
"""How the ``via`` of an abort site that builds an HTTP error response starts (``HTTP 401
response``; ``HTTP error response`` when only the body says the failure): the
extractor writes it (extract.logs.response_message_arg), the view reads it."""

PRINTED = "print"
"""The ``via`` of a log site whose message is written with ``print`` (level ``error``, or
``warning`` when its text says so): the line has no logger's prefix and is neither logged nor
raised."""

CPP_SUFFIXES = (".h", ".cuh", ".cu", ".cpp", ".hpp", ".cc", ".cxx")
"""The C/C++ sources of a package whose checks reach Python as exceptions (extract.cpp), and
the files a compiled check names as its place (explainer.check_located, match.rank)."""
CPP_VIA = "C++ "
"""How the ``via`` of a check in a C/C++ source starts (``C++ RuntimeCheck``: the check's
name follows): the extractor writes it (extract.cpp), the derived text and the view read it."""
LOCATED_CHECKS = frozenset({"RuntimeCheck", "Panic", "panic", "CHECK_HOST", "SGL_PANIC"})
"""The C++ checks (sglang's) that put their place before the text: `Failed at <file>:<line>: `."""


def cpp_check(via: str | None) -> str | None:
    """The C++ check's name of a ``via`` the extractor wrote for one, else None."""
    return via[len(CPP_VIA) :] if via and via.startswith(CPP_VIA) else None


UNRAISED_KINDS = frozenset({"log", "abort"})
"""Kinds of sites whose message is never raised: logged (``log``: its level is the entry's
``exception``), or handed to a request's client as its error (``abort``)."""


def make_id(project: str, module: str, function: str, template: str) -> str:
    """The stable 16-hex id of an entry: it changes only if one of these four changes."""
    import hashlib

    key = "\0".join((project, module, function, template)).encode("utf-8")
    return hashlib.sha256(key).hexdigest()[:16]
