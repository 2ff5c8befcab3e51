"""parse -> rank -> Explanation, with the generic fallback. Pure: the catalog view is passed in.

When no entry matches (or only a derived one does), the exception class itself is explained:
from a short table of builtin classes, walking the class hierarchy (a custom class whose base
the catalog knows, or a builtin's parents) to the nearest class described.
"""

from __future__ import annotations

import builtins
import sys

from errexplain._startup import TYPE_CHECKING, compile_regex, edge_before, memo, replace
from errexplain.bounds import ERRORS, MESSAGE_CHARS
from errexplain.match.normalize import reports_failure
from errexplain.match.rank import (
    FUZZY_CUTOFF,
    OLDER_AGE,
    OLDER_PRIOR,
    SAME_TEXT_MARGIN,
    Hit,
    Ranking,
    cut_literal,
    found_inside,
    gap_reading,
    in_file,
    passes_on,
    prose_named,
    rank,
    wrapper_head,
)
from errexplain.match.release import Facts, Window, guess, pin, site_lines, window
from errexplain.match.sites import (
    ambiguous,
    assert_test,
    condition_sites,
    locate,
    passer_sites,
    stated_test,
    wants_sites,
    written_asserts,
)
from errexplain.match.template import (
    compile_template,
    first_break,
    match_prefix,
    normalize_ws,
    sentence_stops,
)
from errexplain.models import (
    CPP_SUFFIXES,
    ELLIPSES,
    UNRAISED_KINDS,
    Current,
    Entry,
    Explanation,
    Frame,
    Match,
    Project,
    RaisedError,
    ReleaseGuess,
    at_lines,
    at_sites,
)
from errexplain.parse import parse_traceback
from errexplain.parse.lines import (
    BREAK_MARK,
    FRAME,
    JFRAME,
    pasted_line,
    pasted_lines,
    readable,
    unfolded_strings,
)

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from re import Pattern

    from errexplain.match.template import Compiled
    from errexplain.models import CatalogView
    from errexplain.parse.lines import Line

AMBIGUOUS_NOTE = (
    "the same message is raised at several places and the traceback does not "
    "tell them apart: all are listed"
)
TRUNCATED_NOTE = "the traceback looks truncated: no final exception line was found"
CUT_NAME_NOTE = (
    "the traceback stops inside its exception line, in the class's name ({}): its message is "
    "lost, the site is found by the frames"
)
ENGINES = frozenset(
    {
        "vllm",
        "lmdeploy",
        "tensorrt_llm",
        "xinference",
        "aphrodite",
        "mlc_llm",
        "text_generation_server",
        "fastvideo",
        "sgl_jax",  # (sglang-jax, sglang's port to JAX and TPUs: much of its wording is sglang's)
    }
)
"""Packages that share much of sglang's wording (forks, sibling engines): a frame in one of them
names the project even outside site-packages (a source checkout)."""
_SITE_DIRS = ("site-packages", "dist-packages")


def frames_package(frames: Sequence[Frame]) -> str | None:
    """The top-level package of the innermost frame whose file lies in an installed package
    (after site-packages/) or in a known engine's tree; None when no frame tells."""
    for frame in reversed(frames):
        parts = frame.path.replace("\\", "/").split("/")
        for i, part in enumerate(parts[:-1]):
            if part in _SITE_DIRS:
                pkg = parts[i + 1]
                if pkg.endswith((".py", ".so")) or "." in pkg:
                    break
                return pkg
        for part in parts[:-1]:
            if part in ENGINES:
                return part
    return None


_STDLIB = compile_regex(r"(?:^|/)(?:lib/)?python3(?:\.\d+)?/(?!(?:site|dist)-packages/)")


def interpreter_only(frames: Sequence[Frame]) -> bool:
    """Whether a traceback's frames all lie in Python's own library (`.../lib/python3.10/
    multiprocessing/resource_tracker.py`, `<frozen runpy>`): no project's code ran there."""
    return bool(frames) and all(
        f.path.startswith("<frozen ") or _STDLIB.search(f.path.replace("\\", "/")) for f in frames
    )


def _look_alike(error: RaisedError, matches: tuple[Match, ...]) -> str | None:
    """The other project the frames lie in, when the best match is a project site that no frame
    reaches: the same wording raised by someone else's code (a fork, a sibling engine)."""
    if not matches or not error.frames:
        return None
    entry = matches[0].entry
    root = (entry.source.path or "").split("/", 1)[0]
    if entry.kind == "builtin" or not root:
        return None
    if any(root in f.path.replace("\\", "/").split("/") for f in error.frames):
        return None
    pkg = frames_package(error.frames)
    if pkg:
        return pkg if pkg != root else None
    paths = {entry.source.path, *(p for p, _ in at_sites(entry.at))}
    if any(in_file(f, p) for f in error.frames for p in paths if p):
        return None  # a frame in its file (of any release), maybe with directories elided
    inner = error.frames[-1]
    if (inner.code or "").lstrip().startswith(("raise ", "assert ")) and not reraises(inner.code):
        # the innermost frame shows the statement raising it, in someone's own code
        return "/".join(inner.path.replace("\\", "/").split("/")[-RAISER_PARTS:])
    return None


_RERAISE = compile_regex(r"raise +(?:[A-Za-z_]\w*\.)*(?P<last>[A-Za-z_]\w*)(?: +from +\S+)? *")


def reraises(code: str | None) -> bool:
    """Whether a source line raises again an exception made elsewhere (`raise self._exception`
    in concurrent.futures, `raise exc`, `raise err from None`): its frame says nothing of where
    the exception was raised first. `raise ValueError` (a class) makes one."""
    code = (code or "").strip()
    if not code.startswith("raise "):
        return False
    m = _RERAISE.fullmatch(code)
    return m is not None and not m["last"].lstrip("_")[:1].isupper()


def _ends_in_package(error: RaisedError, matches: tuple[Match, ...]) -> str | None:
    """The installed package the traceback ends in, when it is not the entry's: a traceback
    that passes through the project's code (`sglang/srt/...`) but whose innermost frame lies in
    another package (`torch/_ops.py`, `sgl_kernel/moe.py`) was raised inside that package, or in
    the native code it calls, not at a raise statement of the project that no frame reaches.
    Only for a traceback that ends with its exception line (not cut inside the frames) and a
    site that raises (a logged message is written by code no frame needs to show)."""
    if not matches or not error.frames or error.truncated:
        return None
    entry = matches[0].entry
    root = (entry.source.path or "").split("/", 1)[0]
    if not root or entry.kind in UNRAISED_KINDS or entry.kind in ("builtin", "lookup"):
        return None
    inner = error.frames[-1]
    pkg = frames_package((inner,)) or _relative_package(inner)
    if pkg is None or pkg == root or reraises(inner.code):
        return None
    if any((m.entry.source.path or "").startswith(f"{root}/{pkg}/") for m in matches):
        return None  # (a path relative to the project's own package: `srt/layers/x.py`)
    paths = {entry.source.path, *(p for p, _ in at_sites(entry.at))}
    if any(in_file(f, p) for f in error.frames for p in paths if p):
        return None
    return pkg


_NOT_PACKAGES = frozenset({"python", "src", "lib", "lib64", "usr", "home", "opt", "root", "tmp"})
_NOT_PACKAGES |= {"workspace", "app", "code", "mnt", "data", "srv", "var", "scripts", "tests"}
"""First parts of a relative path that are directories of a machine or a checkout, not
packages."""


def _relative_package(frame: Frame) -> str | None:
    """The package a frame's path names by its first part when the path is relative to where
    packages are installed (`flashinfer/gdn_prefill.py:289, in chunk_gated_delta_rule`, as a
    poster shortens a traceback, or as a tool prints frames relative to site-packages): a Python
    name, at least one directory deep, and not a directory of a machine or checkout."""
    path = frame.path.replace("\\", "/")
    if path.startswith(("/", "~", ".", "<")) or path[1:2] == ":" or not path.endswith(".py"):
        return None
    first, sep, _ = path.partition("/")
    if not sep or not first.isidentifier() or first.lower() in _NOT_PACKAGES:
        return None
    return first


_PREFIX_FILE = compile_regex(r"(?<![\w./-])([A-Za-z_][\w-]*\.py):(\d+)\]")
"""A file and line a log line's prefix names as the code that logged it, closed by a bracket
(vLLM's `ERROR 10-10 01:26:34 [multiproc_executor.py:420] `, its older `... weight_utils.py:243]
`). Not the `LEVEL file.py:123: ` that a root logger's format puts after sglang's own stamp
(`[2026-03-16 10:16:49] WARNING server_args.py:890: `): that names sglang's code, in builds
between releases whose lines and files have moved since (a docs notebook built from the main
branch), not another project's."""


def _logged_elsewhere(error: RaisedError, text: str, matches: tuple[Match, ...]) -> str | None:
    """The `file.py:line` the error's own log prefix names, when the best match is a logging
    call (kind `log`) in files of other names in every release, or in a file of that name but
    never at that line (LOGGED_LINE_SLACK) in any release its history records: a log record
    names the code that called the logger, so the same text was logged by someone else's code
    (a fork that copied the wording, with the file's name). Not for a raise: any logger may
    print an exception's text."""
    if not matches or error.type or not error.line_no or ".py:" not in text:
        return None
    entry = matches[0].entry
    if entry.kind != "log" or not entry.source.path:
        return None
    prefix = _own_line_prefix(text, error.line_no, error.message)
    found = _PREFIX_FILE.search(prefix) if prefix else None
    if found is None:
        return None
    # the (file, line) of every site matched with this text in every release (the same text
    # logged at two sites)
    literals = compile_template(entry.template).literals
    same = [m.entry for m in matches if compile_template(m.entry.template).literals == literals]
    sites = [site for e in same for site in _log_sites(e)]
    name, line_no = found.group(1), int(found.group(2))
    if any(
        p.rsplit("/", 1)[-1] == name and abs(ln - line_no) <= LOGGED_LINE_SLACK for p, ln in sites
    ):
        return None
    if any(not e.at and (e.source.path or "").rsplit("/", 1)[-1] == name for e in same):
        return None  # (a site in a file of this name with no release history to check against)
    return f"{name}:{line_no}"


LOGGED_LINE_SLACK = 5
"""How far the line a log prefix names may lie from a recorded logging call of the same file
(a call written over several lines is recorded at its first; Python may name another)."""


def _log_sites(entry: Entry) -> list[tuple[str, int]]:
    """(path, line) of a logging entry's site in its release and in every release it records."""
    out = (
        [(entry.source.path, entry.source.line)] if entry.source.path and entry.source.line else []
    )
    if entry.at:
        out += [(path, line) for _first, _last, path, line in at_lines(entry.at)]
    return out


def _class_package(error: RaisedError, text: str, matches: tuple[Match, ...]) -> str | None:
    """The package that defines the error's class, when the paste prints the class qualified by
    a package of its own (`furiosa.UnsupportedOpError`, `vllm.v1.engine.EngineDeadError`) that is
    neither the best match's project nor the standard library, and the match raises another
    class: another project's error with the same words. A wrapper that names the class it
    carries (`ray.exceptions.RayTaskError(ValueError)`) says nothing of who raised it."""
    if not matches or "." not in error.type or f"{error.type}(" in text:
        return None
    entry = matches[0].entry
    if entry.kind == "builtin":
        return None
    root = error.type.split(".", 1)[0]
    own = (entry.source.path or "").split("/", 1)[0] or entry.project
    if root in (own, entry.project, "__main__") or root in sys.stdlib_module_names:
        return None  # (classes every project raises: `asyncio.exceptions.TimeoutError`)
    if root in RELAYS or error.short_type.endswith(_STATUS_CLASSES):
        return None  # a client's class for the server's reply: it carries the server's text
    if error.short_type == entry.exception.rsplit(".", 1)[-1]:
        return None  # (the project raising another package's class: `fastapi.HTTPException`)
    if root in FFI_LAYERS and (entry.source.path or "").endswith(CPP_SUFFIXES):
        return None  # (a compiled check's error, in the class its binding gives it)
    return root


FFI_LAYERS = frozenset({"tvm", "tvm_ffi"})
"""Packages that carry a compiled function's error into Python in a class of their own
(tvm-ffi's `tvm.error.InternalError`, through which sglang's JIT kernels throw)."""


RELAYS = frozenset(
    {
        "openai",
        "litellm",
        "anthropic",
        "httpx",
        "requests",
        "aiohttp",
        "urllib3",
        "grpc",
        "langchain",
        "langchain_core",
        "langchain_openai",
        "llama_index",
        "ray",
    }
)
"""Packages whose exceptions carry another program's text: HTTP and RPC clients (the server's
error body), agent frameworks around them, Ray (a task's error raised again in its caller)."""
_STATUS_CLASSES = (
    "BadRequestError",
    "APIError",
    "APIStatusError",
    "HTTPError",
    "HTTPStatusError",
    "ClientResponseError",
    "InternalServerError",
    "UnprocessableEntityError",
    "ServiceUnavailableError",
)
"""Class names of an HTTP reply's status, in any client: the text is the server's."""


RAISER_PARTS = 3
"""Path components that name a file raising the error itself, outside any installed package."""


_ENGINE_NAMES = compile_regex(
    rf"(?i){edge_before('A-Za-z0-9_-')}(vllm|lmdeploy|aphrodite|mlc[_-]llm"
    r"|text[_-]generation[_-](?:server|inference))(?![A-Za-z0-9_-])"
)
"""Sibling engines a paste may name (not TensorRT-LLM: sglang's own backends and messages are
named after it; not Xinference: a platform that starts sglang as one of its backends and relays
its errors, so naming it says who passed the error on, not who raised it). A name's edges are
ASCII word characters only: prose in Chinese or Japanese writes it between ideographs with no
space (`使用vllm部署`), and a regex counts ideographs as word characters; a logged string's
escaped line break before it (`...\\nvLLM is using ...` of `output.error='...'`) is an edge too."""


def _named_engine(error: RaisedError, text: str, matches: tuple[Match, ...]) -> str | None:
    """The sibling engine a paste names outside the error's own message when it never names
    the best match's project (`vllm serve ...`, a vLLM issue), or whose setting the message
    names in words its template lacks (`... when VLLM_USE_NCCL_SYMM_MEM=1 is enabled`): that
    engine raised the error, the project's same text is a look-alike. None when the paste names
    the project too, or the match is no project site; a name on a line that quotes another
    message is said of that one."""
    if not matches or not text:
        return None
    entry = matches[0].entry
    if entry.kind == "builtin" or not entry.source.path or entry.project.lower() in text.lower():
        return None
    rest = text.replace(error.message, " ") if error.message else text
    for found in _ENGINE_NAMES.finditer(rest):
        if not _said_of_another(rest, found.start(), found.end()) and not _works_with(
            rest, found.start()
        ):
            return found.group(1).lower().replace("-", "_")
    if error.message and entry.template:
        # an engine's own setting in the words the message has beyond the site's template
        # (`... under graph capture when VLLM_USE_NCCL_SYMM_MEM=1 is enabled`): that engine's
        for var in _ENGINE_SETTING.finditer(error.message):
            if var.group(0) not in entry.template:
                return var.group(1).lower()
    return None


_ENGINE_SETTING = compile_regex(
    edge_before("A-Za-z0-9_") + r"(VLLM|LMDEPLOY|APHRODITE)_[A-Z0-9]+(?:_[A-Z0-9]+)*"
)
"""An environment variable of a sibling engine (`VLLM_USE_V1`), named in capitals as set."""


_WORKS = compile_regex(
    r"(?i)(?<!n't )(?<!n\u2019t )(?<!not )(?<!never )(?<!no longer )"
    r"\b(?:works?|worked|working|runs? fine|fine|normally|no problem)\b|(?<!不)正常|没问题|成功"
)
"""Words that say something runs well: `vllm serve works`, `使用vllm可以正常拉起来` (with vLLM
it starts normally); not when denied (`they didn't work and showed error ...`)."""


def _line_around(rest: str, start: int) -> tuple[int, str]:
    """(where it starts, the line) of the line of `rest` that holds offset `start` (a text
    flattened with `⏎` marks has its lines between them, as the parser reads it)."""
    head = max(rest.rfind("\n", 0, start), rest.rfind(BREAK_MARK, 0, start)) + 1
    ends = [at for at in (rest.find("\n", start), rest.find(BREAK_MARK, start)) if at >= 0]
    return head, rest[head : min(ends) if ends else len(rest)]


def _works_with(rest: str, start: int) -> bool:
    """Whether the sentence that names an engine says it works: the engine is the poster's
    contrast (`with vLLM it starts fine; this one fails`), not what raised the error. Only its
    own sentence (`In LMDeploy they need AWQ.` says nothing of `for it to work on my PC.`)."""
    head, line = _line_around(rest, start)
    return bool(_WORKS.search(_sentence_at(line, start - head)))


_CLAUSE_STOP = compile_regex(r"[;；。！？]")  # noqa: RUF001


def _said_of_another(rest: str, start: int, end: int) -> bool:
    """Whether the name at rest[start:end] (the paste, the error's own message left out) sits
    on a line that quotes a message of its own (`vLLM's similar error is `...``): it is said of
    that message, not of the error being explained."""
    head, line = _line_around(rest, start)
    name = rest[start:end].lower()
    if _inside_quotes(line, start - head + 1):
        return False  # (a quoted command or path that holds the name: `vllm serve ...`)
    if rest[start - 1 : start] in ("/", "\\") and rest[end : end + 1] in ("/", "\\"):
        return False  # a directory of a path (`.../site-packages/vllm/...`): code ran there
    return any(
        name not in q.lower() and " " in q for q in _quoted(_sentence_at(line, start - head))
    )


def _sentence_at(line: str, at: int) -> str:
    """The sentence of `line` that holds offset `at` (a post flattened onto one line holds many:
    a quote in another says nothing of this one's name)."""
    stops = [*sentence_stops(line), *(m.start() for m in _CLAUSE_STOP.finditer(line))]
    begin = max((i + 1 for i in stops if i < at), default=0)
    end = min((i for i in stops if i >= at), default=len(line))
    return line[begin:end]


def _names(error: RaisedError, text: str, name: str) -> bool:
    """Whether the paste names `name` (any case) outside the error's message, other than on a
    line that quotes another message (:func:`_said_of_another`)."""
    rest = (text.replace(error.message, " ") if error.message else text).lower()
    name = name.lower()
    at = rest.find(name)
    while at >= 0:
        if not _said_of_another(rest, at, at + len(name)):
            return True
        at = rest.find(name, at + 1)
    return False


SERVED = ENGINES | {"vllm_ascend", "vllm_metal"}
"""Upstreams people run themselves (engines and their platform ports): a paste that names one
ran it. A library a file was adapted from (transformers, mamba, flash-attention, ...) is named
in pastes of every kind (versions, imports), which says nothing of who raised the error."""

SHARED_CAP = 0.85
"""Highest score of a match whose file was adapted from another project when nothing in the
paste names the catalogued project: that project raises the same text (below CONFIDENT)."""


def _shared_wording(
    view: CatalogView, error: RaisedError, text: str, matches: tuple[Match, ...]
) -> tuple[str, bool, bool] | None:
    """(the other project, whether the paste names it, whether only the text is known to be
    shared) when the best match sits in a file adapted from another project's source, or its
    wording (or its site's newest) is raised word for word by another project's released source
    (project.yaml `shared_wording`), and nothing in the paste (frames, text) names the
    catalogued project: the same message is the other project's too. A file adapted from a
    project whose released source was read for shared wording is judged by its text alone (the
    messages the catalogued project added to it are its own). Only an upstream people run
    (:data:`SERVED`) is named by a paste."""
    if not matches:
        return None
    top = matches[0]
    project = view.project(top.entry.project)
    if project is None or top.entry.kind == "builtin":
        return None
    # of sites tied at the top (one text, nothing telling them apart), any one's claim holds:
    # which of them is listed first is no evidence
    for m in matches:
        if m.score != top.score or m.entry.template != top.entry.template:
            break
        entry = m.entry
        upstream = project.adapted_from(entry.source.path)
        if upstream is not None and project.read_wording_of(upstream):
            upstream = None  # (that project's own messages are known: its text decides)
        by_text = upstream is None
        if by_text:
            upstream = project.shares(entry.id) or (
                project.shares(entry.lineage) if entry.lineage else None
            )
        if upstream is not None:
            break
    if upstream is None:
        return None
    if _names_own(project, entry, error, text):
        return None
    named = upstream.replace("-", "_") in SERVED and _names(error, text, upstream)
    return upstream, named, by_text


def _names_own(project: Project, entry: Entry, error: RaisedError, text: str) -> bool:
    """Whether the paste shows the entry's project itself: a frame in its package, its name,
    or a record its own logging printed (:func:`_own_record`)."""
    name = entry.project.lower()
    if any(name in f.path.lower() for f in error.frames) or name in text.lower():
        return True
    return _own_record(project, error, text)


def _own_record(project: Project, error: RaisedError, text: str) -> bool:
    """Whether the error is a log record (no exception type printed) whose own line opens with
    a log prefix only `project`'s logging prints (project.yaml `own_log_prefixes`: sglang's
    server, `[2026-01-16 07:02:59 TP6] `), as the parser took it off (behind a container's
    stream prefix, a quote, colours). Not an exception line so prefixed: a multi-rank log
    prefixes a traceback's last line whatever code raised it."""
    if not project.own_prefixes or error.type or error.line_no <= 0:
        return False
    prefix = _own_line_prefix(text, error.line_no, error.message)
    return bool(prefix) and any(compile_regex(p).match(prefix) for p in project.own_prefixes)


def _own_line_prefix(text: str, line_no: int, message: str = "") -> str:
    """The log prefix the parser takes off the paste's line `line_no` (behind a container's
    stream prefix, a quote, colours), or "" when it has none. A line the parser reads as
    several (a logged string's repr, `output.error='...\\n[...] WARNING ...'`): the prefix
    of the part that holds `message`, the error's."""
    from errexplain.parse.lines import clean_lines

    head = pasted_line(text, line_no)
    lines = clean_lines(head) if head is not None else []
    start = message.split("\n", 1)[0].strip()[:OWN_LINE_KEY]
    if start and len(lines) > 1:
        return next((ln.prefix for ln in lines if start in ln.text), lines[0].prefix)
    return lines[0].prefix if lines else ""


OWN_LINE_KEY = 40
"""Characters of the error's message that find its part of a line read as several."""


_TEST_PART = compile_regex(r"^(?:test_|Test[A-Z_0-9])|^test$")


def in_test(entry: Entry) -> bool:
    """Whether an entry is raised inside a test of the project's own test suite: a part of its
    function's name (`TestFoo.test_bar`, `test_bar.fake_move`) names a test."""
    function = entry.source.function or ""
    return any(_TEST_PART.match(part) for part in function.split("."))


TESTS_CAP = 0.85
"""Highest score of a site raised inside the project's own tests when the paste shows nothing
of that test (no frame in its file, not its file's name): a test may fake the message to
exercise a handler (`raise OutOfMemoryError("CUDA out of memory")`), so the same words in a
user's paste more likely come from elsewhere; but a script named like a test
(`test_deterministic(args)` run by hand) does raise it for users, so the site stays listed."""
TESTS_NOTE = (
    "the same text is raised only inside {project}'s own tests (a test may fake the error to "
    "exercise its handler): not confident unless the paste shows that test"
)


def _test_sites(
    error: RaisedError, text: str, matches: tuple[Match, ...]
) -> tuple[tuple[Match, ...], str | None]:
    """(matches, note) with the sites raised inside the project's own tests capped at TESTS_CAP
    and put after the others, unless the paste shows a frame in that test's file or names it
    (a test run's output); the note when only tests raise the text."""
    tests = [m for m in matches if in_test(m.entry)]
    if not tests:
        return matches, None
    capped: dict[int, Match] = {}
    for m in tests:
        path = m.entry.source.path or ""
        if path and (
            any(in_file(f, path) for f in error.frames) or path.rsplit("/", 1)[-1] in text
        ):
            continue
        why = "raised inside a test of the project's own suite, which the paste does not show"
        capped[id(m)] = replace(m, score=min(m.score, TESTS_CAP), reasons=(*m.reasons, why))
    if not capped:
        return matches, None
    rest = tuple(m for m in matches if id(m) not in capped)
    note = None if rest else TESTS_NOTE.format(project=matches[0].entry.project)
    return (*rest, *(capped[id(m)] for m in matches if id(m) in capped)), note


LOOK_ALIKE = "look-alike, not where this error was raised"


def _looks_alike(exp: Explanation) -> bool:
    """Whether another project's claim moved every match of `exp` to its nearest."""
    return not exp.matches and exp.look_alike


def _other_project(
    view: CatalogView,
    error: RaisedError,
    text: str,
    matches: tuple[Match, ...],
    nearest: tuple[Match, ...],
) -> tuple[tuple[Match, ...], tuple[Match, ...], str | None, bool]:
    """(matches, nearest, note, whether the project's sites became look-alikes) once another
    project's claim on the error is weighed: frames
    in another package, a class defined elsewhere, a log line that names another file, or a
    paste that names only a sibling engine make the best match a look-alike (nearest); a file
    adapted from another project, or a text another project raises word for word, makes it
    unsure (SHARED_CAP), or a look-alike when the paste names only that one."""
    where = _claimed_elsewhere(error, text, matches)
    shared = _shared_wording(view, error, text, matches) if where is None else None
    if where is None and shared is None:
        return matches, nearest, None, False
    project = matches[0].entry.project
    same = "the same" if matches[0].kind == "exact" else "a similar"
    if where is not None or (shared is not None and shared[1]):
        alike = tuple(m for m in matches if m.entry.project == project)
        matches = tuple(m for m in matches if m.entry.project != project)
        nearest = (alike + nearest)[:3]
    if where is not None:
        note = f"{where}: {project} raises {same} text (listed as nearest), but that is a "
        return matches, nearest, note + LOOK_ALIKE, True
    upstream, named, by_text = shared  # type: ignore[misc]
    if not named:
        matches = _capped_shared(view, matches, upstream, by_text)
    said = (
        f"{upstream}'s released source raises this same text word for word"
        if by_text
        else f"{project} adapted this code from {upstream}, which may raise the same message"
    )
    if named:  # (the paste names that project and never this one: a look-alike)
        note = f"{said}, and the paste names {upstream}, never {project}: {project}'s site is "
        return matches, nearest, note + "listed as nearest, a " + LOOK_ALIKE, True
    return (
        matches,
        nearest,
        f"{said}, and nothing in the paste names {project}: if you run {upstream}, this is "
        f"{upstream}'s error",
        False,
    )


def _claimed_elsewhere(error: RaisedError, text: str, matches: tuple[Match, ...]) -> str | None:
    """Why the best match is another project's look-alike (the first claim that holds), or
    None."""
    project = matches[0].entry.project if matches else ""
    other = _look_alike(error, matches)
    if other is not None:
        if "/" in other:
            return f"the traceback raises it in {other}, outside {project}"
        return f"the traceback's frames lie in {other}, not in {project}"
    below = _ends_in_package(error, matches)
    if below is not None:
        return (
            f"the traceback ends in {below}, below {project}'s code (raised there, or in "
            "native code it calls)"
        )
    foreign = _class_package(error, text, matches)
    if foreign is not None:
        return f"the exception's class {error.type} is defined in {foreign}, not in {project}"
    logged = _logged_elsewhere(error, text, matches)
    if logged is not None:
        return (
            f"the log line names {logged} as the code that logged it, a place where no "
            f"release of {project} logs this text"
        )
    engine = _named_engine(error, text, matches)
    if engine is not None:
        return f"the paste names {engine} and never {project}"
    engine = _labelled_engine(error, text, matches)
    if engine is not None:
        return f"the line that quotes it labels it as {engine}'s"
    return None


LABEL_CHARS = 40
"""Longest lead before an error that reads as its label (`- **vLLM**: `, `On vLLM it fails
with `, `vllm 报错` and a full-width colon)."""


def _labelled_engine(error: RaisedError, text: str, matches: tuple[Match, ...]) -> str | None:
    """The sibling engine named by the short lead of the line that quotes the error, and no
    other project there (`- **vLLM**: `ValueError: ...``, `On vLLM: ...`, :data:`LABEL_CHARS`),
    when the paste names the best match's project elsewhere too (a post comparing engines: each
    error is labelled with the one that raised it); None when that lead says the engine works,
    or names the best match's project too."""
    if not matches or not text or not error.message:
        return None
    entry = matches[0].entry
    if entry.kind == "builtin" or not entry.source.path or _ENGINE_NAMES.search(text) is None:
        return None
    line = pasted_line(text, error.line_no)
    if line is None:
        return None
    at = line.find(error.message.split("\n", 1)[0][:60])
    if at <= 0:
        return None
    lead = line[:at]
    if error.type and error.type in lead:
        lead = lead[: lead.rfind(error.type)]
    if len(lead.strip(" -*>`'\"|:\uff1a")) > LABEL_CHARS or entry.project.lower() in lead.lower():
        return None
    found = _ENGINE_NAMES.search(lead)
    if found is None or _WORKS.search(lead):
        return None
    return found.group(1).lower().replace("-", "_")


def _capped_shared(
    view: CatalogView, matches: tuple[Match, ...], upstream: str, by_text: bool
) -> tuple[Match, ...]:
    """The project's matches capped at SHARED_CAP, each with why its text may be `upstream`'s."""
    project = matches[0].entry.project
    why = (
        f"but {upstream} raises the same text word for word"
        if by_text
        else f"but {project} adapted this file from {upstream}, which may raise the same text"
    )
    owner = view.project(project)
    copy = matches[0].entry.source.path
    literals = compile_template(matches[0].entry.template).literals

    def reason(m: Match) -> str:
        if owner is not None and owner.adapted_from(m.entry.source.path) == upstream:
            return why
        if by_text and owner is not None and owner.shares(m.entry.id) == upstream:
            return why
        same = compile_template(m.entry.template).literals == literals
        if same and by_text:
            return why  # (the same words: the other project raises them too)
        if same:
            return (
                f"but the same text is raised in {copy}, which {project} adapted from "
                f"{upstream}: {upstream} may raise it too"
            )
        return f"capped as the best match is: its text may be {upstream}'s"

    return tuple(
        replace(m, score=min(m.score, SHARED_CAP), reasons=(*m.reasons, reason(m)))
        if m.entry.project == project
        else m
        for m in matches
    )


SHORT_START_CHARS, SHORT_START_SHARE = 30, 0.5
SHORT_START_CAP = 0.89
"""A message that is only the start of a long template, up to a sentence end or a placeholder,
with fewer than SHORT_START_CHARS of its literal characters and less than SHORT_START_SHARE of
them (`Prefill out of memory` of `Prefill out of memory. Try to lower your batch size.`,
`kt_kernel is not installed` of a longer hint), is shown at SHORT_START_CAP at most: such a
short phrase is said by other programs too (a port of the project, a fork), so it is never
confident. The cap is put on the answer only: a bare line is still read as this message (the
ranking that finds it is unchanged)."""


VALUELESS_WORDS = 2
"""A message of this many words or fewer that is a template's head without any of its values
(`Unsupported architecture` of `Unsupported architecture: <arch>`) is capped as a short start
is, however much of the template's literal text it holds: two words with nothing of the values
are said by any program (a kernel library's `Unsupported architecture`). Three or more
(`Capture cuda graph failed`, `no safetensors files found`) name the site well enough."""


def short_starts_capped(exp: Explanation) -> Explanation:
    """`exp` with its matches that read the message as a short start capped (applied to the
    answers as given, after every choice between readings is made)."""
    matches = _short_starts(exp.matches, exp.error.message)
    return exp if matches == exp.matches else replace(exp, matches=matches)


def _short_starts(matches: tuple[Match, ...], message: str) -> tuple[Match, ...]:
    """`matches` with each fuzzy match that reads the message as a short start of its template
    (SHORT_START_CHARS) capped at SHORT_START_CAP, with the reason."""
    out = []
    for m in matches:
        if m.kind == "fuzzy" and m.score > SHORT_START_CAP and message:
            compiled = compile_template(m.entry.template)
            msg = message.strip()
            matched, boundary = match_prefix(compiled, msg)
            valueless = (
                bool(compiled.names)
                and len(msg) <= len(compiled.literals[0].strip())
                and len(msg.split()) <= VALUELESS_WORDS
            )
            if 0 < matched < SHORT_START_CHARS and (
                valueless or (boundary and matched < SHORT_START_SHARE * compiled.literal_len)
            ):
                why = f"a short start of a longer message ({matched} characters): not confident"
                m = replace(m, score=SHORT_START_CAP, reasons=(*m.reasons, why))
        out.append(m)
    return tuple(out)


def _to_match(view: CatalogView, hit: Hit) -> Match:
    pos = hit.cand.pos
    return Match(
        view.entry(pos),
        hit.score,
        "exact" if hit.kind == "exact" else "probable" if hit.kind == "probable" else "fuzzy",
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
    hits = _merged(ranking.hits, good)
    return Ranking(hits, (), ambiguous(hits) if hits[0] in good else ranking.ambiguous)


def _merged(hits: Sequence[Hit], more: Sequence[Hit]) -> tuple[Hit, ...]:
    """The best five of two hit lists, each site once at its better score."""
    best = {h.pos: h for h in hits}
    for h in more:
        if h.pos not in best or h.raw > best[h.pos].raw:
            best[h.pos] = h
    return tuple(sorted(best.values(), key=lambda h: -round(h.raw, 6))[:5])


def _with_passer(ranking: Ranking, passed: Sequence[Hit]) -> Ranking:
    """The message's hits and the raise its innermost frame shows handing on a text made
    elsewhere (errexplain.match.sites.passer_sites), best first: a site whose template holds the
    message's own words outranks that raise when it scores more (where the text was made tells
    what it means), else the raise comes first (`raise Exception(f"{output_batch.error}")` of a
    text another release's worker logged too)."""
    hits = _merged(ranking.hits, passed)
    first = hits[0] in passed
    return Ranking(hits, ranking.nearest, ambiguous(hits) if first else ranking.ambiguous)


def _first_guess(
    text: str, error: RaisedError, view: CatalogView, stated: Mapping[str, str]
) -> tuple[Facts | None, ReleaseGuess | None]:
    """The project whose history the catalog holds, and what the paste says of its release
    before matching: stated by the user, version strings, frame paths. With several such
    projects: the one the user names, else the first the paste tells anything about."""
    found: list[tuple[Facts, ReleaseGuess | None]] = []
    for project in view.history_projects():
        facts = view.release_facts(project)
        if facts is None:
            continue
        if project in stated:
            r = stated[project]
            if r not in facts.order:
                return facts, None
            return facts, ReleaseGuess(project, r, r, (f"stated: {project}={r}",), True)
        found.append((facts, guess(text, error.frames, facts)))
    told = [f for f in found if f[1] is not None] or found
    return told[0] if told else (None, None)


def _final_guess(
    text: str, error: RaisedError, facts: Facts, first: ReleaseGuess | None, top: Match | None
) -> ReleaseGuess | None:
    """The guess again, with the matched wording's releases and the frames that sit where it
    was raised in some releases."""
    if first is not None and first.stated:
        return first
    if top is None or top.entry.project != facts.project:
        return first
    e = top.entry
    wording = e.releases if top.kind == "exact" else None
    lines = site_lines((e.at,) if e.at else (), error.frames, facts)
    return guess(text, error.frames, facts, wording=wording, lines=lines) or first


def _current(e: Entry) -> Current:
    """Where and how the latest release words a check: entry `e`, its lineage's head, at its
    last recorded place (its source may have been pinned to the paste's release)."""
    if e.at:
        _, _, path, line = at_lines(e.at)[-1]
        return Current(e.id, e.template, path, line, e.statement)
    return Current(e.id, e.template, e.source.path, e.source.line, e.statement)


def _follow_release(view: CatalogView, m: Match, g: ReleaseGuess | None, facts: Facts) -> Match:
    """Pin a match's source to the paste's release (when it raises this wording), point at the
    latest wording of the check, and lend an older wording the prose of the current one."""
    e = m.entry
    if e.project != facts.project:
        return m
    if g is not None and e.at and e.releases:
        pinned = pin(e.at, e.releases, g, facts)
        if pinned is not None:
            release, span = pinned
            project = view.project(e.project)
            src = replace(
                e.source,
                version=release,
                path=span.path,
                line=span.line,
                function=span.function,
                url=project.url(span.path, span.line, release) if project else None,
            )
            e = replace(e, source=src)
    current, borrowed = None, False
    head = _head(view, e)
    if head is not None and head.id != e.id:
        if not head.removed_in:
            current = _current(head)
        if head.curated and not e.curated:
            e = replace(
                e,
                meaning=head.meaning,
                trigger=head.trigger,
                situations=head.situations,
                solutions=head.solutions,
                example_fix=head.example_fix,
                derived=False,
            )
            borrowed = True
    return replace(m, entry=e, current=current, borrowed=borrowed)


def _replaced_now(view: CatalogView, m: Match) -> Match:
    """A removed wording whose check no later wording continues, nor any match's text, but
    whose lineage a later site replaced (:func:`_replacing`): where that check lives now."""
    if m.current is not None or m.entry.releases is None:
        return m
    now = _replacing(view, _head(view, m.entry) or m.entry)
    return m if now is None else replace(m, current=_current(now))


def _replacing(view: CatalogView, head: Entry) -> Entry | None:
    """The live check that took the place of a removed lineage (its head's `replaced_by`,
    followed through lineages removed in turn, REPLACED_HOPS at most): `KV cache pool leak
    detected!` warned and raised in one function, the warning dropped, the raise reworded
    into a helper's `<pool_name> memory leak detected!`."""
    seen = {head.id}
    for _ in range(REPLACED_HOPS):
        if not head.removed_in or not head.replaced_by or head.replaced_by in seen:
            return None
        seen.add(head.replaced_by)
        pos = view.position(head.replaced_by)
        if pos is None:
            return None
        nxt = view.entry(pos)
        head = _head(view, nxt) or nxt
        if not head.removed_in:
            return head
    return None


REPLACED_HOPS = 6
"""Removed lineages followed through their `replaced_by` at most (a check reworded and moved
release after release)."""


def _same_text_now(matches: tuple[Match, ...]) -> tuple[Match, ...]:
    """A removed wording whose exact text a current entry among the matches raises, or whose
    text a current match generalizes (:func:`_generalizes`): that is where the check lives now
    (a move the lineage did not follow), not a removal."""
    from errexplain.match.template import compile_template

    def key(e: Entry) -> tuple[str, tuple[str, ...]]:  # placeholders may be renamed
        return e.exception, compile_template(e.template).literals

    live = {
        key(m.entry): m.entry for m in matches if m.entry.releases is not None and not m.entry.older
    }
    general = [
        m.entry
        for m in matches
        if m.entry.releases is not None and not m.entry.removed_in and m.score >= GENERAL_SCORE
    ]
    out = []
    for m in matches:
        e = m.entry
        now = live.get(key(e))
        if now is None and m.current is None and e.removed_in:
            # of several, the one in the old wording's file (a helper that took the check over
            # beside it, rather than another caller logging the same words)
            now = min(
                (g for g in general if _generalizes(g, e)),
                key=lambda g: _file_name(g.source.path) != _file_name(e.source.path),
                default=None,
            )
        if m.current is None and e.removed_in and now is not None and now.id != e.id:
            m = replace(m, current=_current(now))
        out.append(m)
    return tuple(out)


def _file_name(path: str | None) -> str:
    return (path or "").rsplit("/", 1)[-1]


GENERAL_SCORE = 0.85
GENERAL_SHARE = 0.4


def _generalizes(new: Entry, old: Entry) -> bool:
    """Whether `new` is `old` with some of its literal text made a placeholder (``token_to_kv
    _pool_allocator memory leak detected! <msg>`` -> ``<pool_name> memory leak detected! <msg>``,
    moved to another file): same exception, every literal part of `new` found in order in
    `old`'s literal text, and together at least GENERAL_SHARE of it."""
    from errexplain.match.template import generalized_literal

    if new.exception != old.exception or new.project != old.project:
        return False
    found = generalized_literal(new.template, old.template)
    if found is None:
        return False
    kept, whole = found
    return kept >= GENERAL_SHARE * whole and kept >= BARE_MIN_CHARS


def _head(view: CatalogView, e: Entry) -> Entry | None:
    if not e.lineage:
        return None
    pos = view.position(e.lineage)
    return view.entry(pos) if pos is not None else None


def _state_notes(
    view: CatalogView, error: RaisedError, matches: tuple[Match, ...], ambiguous: bool
) -> list[str]:
    """The notes on what the matches are (tied, borrowed) and what the error lacks."""
    notes = []
    if ambiguous and matches:  # (a look-alike's sites are nearest candidates, not answers)
        notes.append(AMBIGUOUS_NOTE)
    if error.truncated:
        cut_name = error.type and not error.message  # (`AssertionErro`: parse.traceback)
        notes.append(CUT_NAME_NOTE.format(error.type) if cut_name else TRUNCATED_NOTE)
    if not matches and (shared := _shared_assert(view, error)):
        notes.append(SHARED_ASSERT_NOTE.format(*shared))
    if matches and matches[0].borrowed:
        notes.append(
            "the explanation was written for the current wording of this check; the release "
            "this paste comes from words it differently"
        )
    return notes


def _shared_assert(view: CatalogView, error: RaisedError) -> tuple[int, str] | None:
    """(how many sites, the project) when the message is an assert statement, or its test
    quoted without `assert` (:func:`stated_test`), that several message-less sites assert
    (:func:`condition_sites`: `self.` aside) and none was offered: with the message alone, they
    cannot be told apart."""
    test = assert_test(error.message) or stated_test(view, error.message, error.type)
    if test is None:
        return None
    sites = [c for c in condition_sites(view, test)[0] if not c.template]
    if len(sites) < 2:
        return None
    return len(sites), sites[0].project


SHARED_ASSERT_NOTE = (
    "{1} asserts this same statement at {0} places (the nearest candidates are some of them): "
    "the message alone cannot tell them apart; the traceback's frames (the file and function "
    "of the failing assert) would"
)


def explain_error(
    error: RaisedError,
    view: CatalogView,
    *,
    cutoff: float = FUZZY_CUTOFF,
    text: str = "",
    release: Mapping[str, str] | None = None,
) -> Explanation:
    """Explain one parsed error (:func:`_explain_error`), its answer's confidence weighed as
    shown (:func:`short_starts_capped`)."""
    return short_starts_capped(
        _explain_error(error, view, cutoff=cutoff, text=text, release=release)
    )


def _explain_error(
    error: RaisedError,
    view: CatalogView,
    *,
    cutoff: float = FUZZY_CUTOFF,
    text: str = "",
    release: Mapping[str, str] | None = None,
) -> Explanation:
    """Explain one parsed error. `text` is the whole paste (version strings in it tell the
    release); `release` maps a project to the release the user states it runs. Only the first
    MESSAGE_CHARS characters of a message are matched and shown."""
    error, check = check_located(error)
    cut = len(error.message) - MESSAGE_CHARS
    if cut > 0:
        error = replace(error, message=error.message[:MESSAGE_CHARS])
    facts, first = _first_guess(text, error, view, release or {})
    win = window(facts, first) if facts is not None else None
    ranking = rank(view, error.message, error.type, error.frames, cutoff=cutoff, window=win)
    ranking, tag = _untagged(view, error, ranking, win)
    if wants_sites(error.message, error.type) and (
        error.frames or error.shown or assert_test(error.message)
    ):
        ranking = _with_sites(ranking, error, view, cutoff)
    elif (test := stated_test(view, error.message, error.type)) is not None:
        # the message is an assert's test written without `assert`: looked up as the statement
        ranking = _with_sites(ranking, replace(error, message=f"assert {test}"), view, cutoff)
    elif passed := passer_sites(view, error):
        ranking = _with_passer(ranking, passed)
    matches = _by_form(tuple(_to_match(view, h) for h in ranking.hits), error.form)
    matches, ambiguous = _named_module(
        matches, _still_ambiguous(matches, ranking.ambiguous), error, text, view
    )
    matches = _named_model(view, matches, ranking, error, text)
    matches = _named_function(matches, error, text)
    matches = _logged_as(view, matches, error, text)
    nearest = tuple(_to_match(view, h) for h in ranking.nearest)
    matches, nearest = _named_file_start(matches, nearest, error, text)
    g = None
    if facts is not None:
        g = _final_guess(text, error, facts, first, matches[0] if matches else None)
        matches = _same_text_now(tuple(_follow_release(view, m, g, facts) for m in matches))
        matches = tuple(_replaced_now(view, m) for m in matches)
    notes = [check] if check else []
    if tag:
        notes.append(
            f"the tag '{tag.strip()}' before the message, put on by what passed it on, was left out"
        )
    if cut > 0:
        notes.append(
            f"the message is {cut + MESSAGE_CHARS:,} characters long: only its first "
            f"{MESSAGE_CHARS:,} were matched and are shown"
        )
    matches, nearest, note, alike = _other_project(view, error, text, matches, nearest)
    if note is not None:
        notes.append(note)
    matches, note = _test_sites(error, text, matches)
    if note is not None:
        notes.append(note)
    notes += _state_notes(view, error, matches, ambiguous)
    generic = _generic(error, view) if not matches or matches[0].entry.derived else None
    return Explanation(
        error,
        matches,
        nearest,
        ambiguous,
        generic,
        tuple(notes),
        g,
        look_alike=alike,
        untagged=bool(tag),
    )


def explain_text(
    text: str,
    view: CatalogView,
    *,
    cutoff: float = FUZZY_CUTOFF,
    release: Mapping[str, str] | None = None,
) -> tuple[Explanation, ...]:
    """Explain every distinct error found in pasted text. A paste with no exception in it at
    all (a message copied alone, quoted in prose, a log line without a level) is searched line
    by line for messages the catalog knows well (`bare_messages`)."""
    return explain_text_bounded(text, view, cutoff=cutoff, release=release)[0]


def explain_text_bounded(
    text: str,
    view: CatalogView,
    *,
    cutoff: float = FUZZY_CUTOFF,
    release: Mapping[str, str] | None = None,
) -> tuple[tuple[Explanation, ...], int]:
    """:func:`explain_text` and how many distinct errors were left unexplained: at most ERRORS
    are explained, the first ERRORS - 1 and the last (the one a crashing log ends with). The
    paste is read as its lines are (:func:`~errexplain.parse.lines.readable`: typographic
    quotes as straight ones, colour codes that lost their escape character left out), a
    Jupyter notebook as the outputs its cells saved (with a note), and text logged inside a
    string's escapes or flattened with `⏎` marks as the lines it holds
    (:func:`~errexplain.parse.lines.unfolded_strings`)."""
    text, notebook = _printed_paste(text)
    exps, omitted = _explain_printed(text, view, cutoff, release)
    if notebook:
        from errexplain.parse.notebook import NOTEBOOK_NOTE

        return tuple(replace(x, notes=(*x.notes, NOTEBOOK_NOTE)) for x in exps), omitted
    return exps, omitted


def _printed_paste(text: str) -> tuple[str, bool]:
    """The paste as the program printed it, and whether it was a notebook: a notebook's saved
    outputs read out, :func:`readable`, and text held inside strings' escapes or flattened
    with `⏎` marks written out as lines (:func:`unfolded_strings`)."""
    printed = _notebook_printed(text)
    text = readable(text if printed is None else printed)
    return unfolded_strings(text) or text, printed is not None


def _explain_printed(
    text: str, view: CatalogView, cutoff: float, release: Mapping[str, str] | None
) -> tuple[tuple[Explanation, ...], int]:
    """:func:`explain_text_bounded` of the text as the program printed it
    (:func:`_printed_paste`)."""
    errors = parse_traceback(text)
    if not errors:
        bare = list(bare_messages(text, view, release=release)) or _written(text, view, release)
        bare = _with_carried(view, bare, text, release)
        return _with_native(text, None, [short_starts_capped(x) for x in bare]), 0
    from errexplain.parse.lines import clean_lines

    kept = errors if len(errors) <= ERRORS else (*errors[: ERRORS - 1], errors[-1])
    cleaned: Sequence[Line] | None = None  # (cleaned once per text, when first needed)
    by_no: dict[int, list[str]] | None = None
    out = []
    for e in kept:
        exp = _explain_one(e, view, cutoff, text, release)
        if (
            _unraised_only(exp)
            and e.form in ("log", "repr")
            and e.line_no
            and not _looks_alike(exp)
        ):
            if by_no is None:  # once per text, not once per error (linear in the paste)
                cleaned = clean_lines(text)
                by_no = {}
                for ln in cleaned:
                    by_no.setdefault(ln.no, []).append(ln.text)
            exp = _enclosing_line(by_no, exp, view) or exp
        out.append(exp)
    out = _with_causes(view, out, cutoff, text, release)
    if len(errors) < ERRORS:
        if cleaned is None:
            cleaned = clean_lines(text)
        out = _with_beside(text, cleaned, view, out, release, ERRORS - len(errors))
    out = _unpolluted(view, out, cutoff, text, release)
    out = _with_carried(view, out, text, release)
    out = [short_starts_capped(x) for x in out]
    return _with_native(text, cleaned, out), len(errors) - len(kept)


def _notebook_printed(text: str) -> str | None:
    """What a Jupyter notebook's cells printed, when `text` is a notebook or a piece of one
    (:func:`~errexplain.parse.notebook.notebook_outputs`); None for any other text."""
    if '"output_type"' not in text:  # (every saved output has it: the module is not loaded)
        return None
    from errexplain.parse.notebook import notebook_outputs

    return notebook_outputs(text)


def _written(text: str, view: CatalogView, release: Mapping[str, str] | None) -> list[Explanation]:
    """For a paste with no error found: the catalogued assert statements it writes without
    quotes (:func:`~errexplain.match.sites.written_asserts`: an issue title that is the
    statement alone, `the check assert x is not None fails`), each an AssertionError whose
    message is the statement, explained as one (ERRORS at most)."""
    from errexplain.parse.lines import clean_lines

    out: list[Explanation] = []
    seen: set[str] = set()
    lines = [ln for ln in clean_lines(text) if "assert " in ln.text]
    if len(lines) > 2 * WRITTEN_LINES:  # (source code pasted whole: its head and its tail)
        lines = lines[:WRITTEN_LINES] + lines[-WRITTEN_LINES:]
    for ln in lines:
        for test in written_asserts(view, ln.text):
            if test in seen:
                continue
            seen.add(test)
            error = RaisedError("AssertionError", f"assert {test}", line_no=ln.no, form="prose")
            exp = explain_error(error, view, text=text, release=release)
            if exp.matches:
                out.append(replace(exp, notes=(*exp.notes, WRITTEN_NOTE)))
        if len(out) >= ERRORS:
            break
    return out[:ERRORS]


WRITTEN_LINES = 100
"""Lines read for written assert statements: the first and the last WRITTEN_LINES of the lines
that say `assert ` (a pasted source file's thousands of asserts cost a bounded number of
parses and lookups, as GUESS_LINES bounds the guesses)."""


WRITTEN_NOTE = (
    "no exception line in the text: the assert statement it writes is a catalogued check, "
    "explained as the AssertionError it raises"
)


GUESS_FLOOR = 0.6
"""Lowest score of a catalogued message offered as a guess for a paste where no error was
found (:func:`nearest_to_lines`). On the real-paste corpus's 411 pastes where none was found,
the guesses named the truth's site for 13 of the 60 that were sglang's own errors, and listed
something for 131 of the 351 external ones (at 0.7, before the literal-length bar: 10 and
about a third)."""
GUESS_LINES = 100
"""Lines read for guesses: the first and the last GUESS_LINES of the lines long enough to hold
a message (a long log without an error costs a bounded number of lookups)."""
GUESS_CHARS = 300


def nearest_to_lines(
    text: str, view: CatalogView, *, limit: int = 3
) -> tuple[tuple[int, Match], ...]:
    """For a paste in which no error was found (prose that describes one, a log with no
    failure in it): the catalogued messages nearest to its lines, at GUESS_FLOOR or more, best
    first, one per wording, each with the number of the line it is nearest to (as pasted).
    They are guesses, never an answer: no line of the paste reads as an error."""
    from errexplain.parse.lines import clean_lines

    text = _printed_paste(text)[0]
    lines = [
        ln
        for ln in clean_lines(text)  # (`readable` included, as the parser reads it)
        if len(st := ln.text.strip()) >= BARE_MIN_CHARS and len(st.split()) >= 3
    ]
    if len(lines) > 2 * GUESS_LINES:
        lines = lines[:GUESS_LINES] + lines[-GUESS_LINES:]
    best: dict[tuple[str, str], tuple[Hit, int]] = {}
    for ln in lines:
        ranking = rank(view, ln.text.strip().strip("`>*#- ")[:GUESS_CHARS], limit=limit)
        for hit in (*ranking.hits, *ranking.nearest):
            key = (hit.cand.exception, hit.template)
            if hit.cand.literal_len < BARE_MIN_CHARS or hit.score < GUESS_FLOOR:
                continue  # (a template that is mostly a placeholder is near any line)
            if key not in best or best[key][0].raw < hit.raw:
                best[key] = (hit, ln.no)
    top = sorted(best.values(), key=lambda t: (-t[0].raw, t[1]))[:limit]
    return tuple((no, _to_match(view, hit)) for hit, no in top)


NATIVE_MARKS: tuple[str, ...] = (".c:", ".h:", ".cu:", ".cc:", ".cpp:", ".cuh:", ".hpp:")
NATIVE_MARKS += (".cxx:", "Fatal Python", "terminate called", "Assertion `")
"""Words one of which a paste holds when it may hold a native error (a cheap look first)."""
NATIVE_NOTE = (
    "printed by compiled (C, C++ or CUDA) code, not raised by Python: the catalog holds "
    "Python raise sites, so this is explained by what the line says"
)
NATIVE_ABOUT = {
    "kernel": (
        "A CUDA kernel's own check failed on the GPU (a device-side assertion): the line names "
        "the kernel's source file and line and the condition that was false, most often an "
        "index outside a tensor's size (a token id beyond the vocabulary, a position beyond the "
        "cache). The CUDA context is unusable afterwards, so the process fails at its next CUDA "
        "call with `CUDA error: device-side assert triggered`, and what the server prints after "
        "this line (a scheduler or subprocess reported dead) is a consequence of it."
    ),
    "fatal": (
        "The Python interpreter stopped the process from inside native code (a segmentation "
        "fault, an abort): no exception was raised, so nothing could catch it. The thread stacks "
        "printed after this line, innermost call first, show which Python call was running; the "
        "native library it called is the usual suspect."
    ),
    "terminate": (
        "A C++ exception was thrown in native code and nothing caught it (often in a background "
        "thread of a library, such as a process group's watchdog), so the C++ runtime aborted "
        "the process. The text after `what():` is the exception's message."
    ),
    "located": (
        "A line printed by compiled (C, C++ or CUDA) code, naming its source file and line. No "
        "Python raise site exists for it; lines the program prints after it (a process "
        "exiting, a scheduler reported dead) may be its consequence."
    ),
}


def _with_native(
    text: str, cleaned: Sequence[Line] | None, out: list[Explanation]
) -> tuple[Explanation, ...]:
    """`out` with the native errors of the paste (parse.native) that no error in it holds
    already, each an error of its own in line order: the reason a crash printed above what the
    Python side printed after it."""
    if not any(mark in text for mark in NATIVE_MARKS):
        return tuple(out)
    from errexplain.parse.lines import clean_lines
    from errexplain.parse.native import native_errors

    natives = native_errors(cleaned if cleaned is not None else clean_lines(text))
    # a message read from a line's rest after a native source location is the native code's
    # (FlashInfer's `fmhaRunner.cuh:37: Unsupported architecture`), not a Python raise's that
    # shares its words: the native error stands for it
    located = {e.line_no: e.message for e in natives if e.frames}
    out = [x for x in out if not _native_rest(x.error, located)]
    said = [x.error.message for x in out if x.error.message]
    new = [
        Explanation(e, (), notes=(NATIVE_NOTE,), generic=NATIVE_ABOUT[_native_kind(e)])
        for e in natives
        if not any(_holds(m, e) for m in said)
    ]
    if not new:
        return tuple(out)
    return tuple(sorted([*out, *new], key=lambda x: x.error.line_no))


def _native_rest(error: RaisedError, located: Mapping[int, str]) -> bool:
    """Whether an error is a message read, without a type or frames, from a line of the paste
    whose native error (`located`: by line, the message after its source location) holds it."""
    native = located.get(error.line_no)
    return (
        native is not None
        and not error.type
        and not error.frames
        and bool(error.message)
        and error.message in native
    )


def _holds(message: str, native: RaisedError) -> bool:
    """Whether an error's message holds the native error (its text, or its source location)."""
    if native.message and native.message in message:
        return True
    f = native.frames[0] if native.frames else None
    return f is not None and f"{f.path.rpartition('/')[2]}:{f.line}" in message


def _native_kind(e: RaisedError) -> str:
    if e.type:
        return "terminate"
    if e.message.startswith("Fatal Python error: "):
        return "fatal"
    if (
        e.message.startswith("Assertion `")
        and e.frames
        and e.frames[0].path.endswith((".cu", ".cuh"))
    ):
        return "kernel"
    return "located"


def _cut_or_unexplained(x: Explanation) -> bool:
    """Whether an error says nothing of its own: a traceback cut before its exception line, or
    an exception printed without a message that nothing in the catalog explains (`StopIteration`
    of a chain cut before the error it led to, raised in the standard library)."""
    return not x.error.message.strip() and (not x.error.type or not x.matches)


def _quoted_beside(
    text: str,
    view: CatalogView,
    found: Sequence[Explanation],
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """The messages a post quotes beside the errors it quotes with their type (`KVTransferError:
    Aborted by AbortReq` on the prefill side and `Lost connection with prefill instance` on the
    decode side): each quoted span the catalog knows well and no found error holds is an error
    of its own, with no type (none was printed)."""
    taken = {m.entry.id for x in found for m in x.matches[:1]}
    return [
        x
        for x in bare_messages(text, view, release=release, quoted=True)
        if x.matches
        and x.matches[0].entry.id not in taken
        and not any(_part_of(f, x.error.message) for f in found)
    ]


REPORTED_FORMS = ("log", "repr")
REPORTER_SCORE = 0.9


def _reporters(
    text: str,
    lines: Sequence[Line],
    view: CatalogView,
    found: Sequence[Explanation],
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """The log records that report an exception they caught (`Decode transfer failed for
    request ... with exception KVTransferError(...): <reason>`). The parser reads the exception
    inside the record, and it is explained on its own; the record is what the program logged,
    at a site of its own, and it is an error of its own too when the whole record is a
    catalogued message, at REPORTER_SCORE or more and known well, whose placeholder values hold
    the exception, with at least BARE_MIN_CHARS of the record before it. (Requiring values of
    the record's own besides, so that `Worker hit an exception: <e>` is not one, lost a real
    paste whose record was the error asked about.)"""
    by_no = {ln.no: ln for ln in lines}
    taken_ids = {m.entry.id for x in found for m in x.matches[:1]}
    out: list[Explanation] = []
    looked: set[str] = set()
    for x in found:
        err = x.error
        ln = by_no.get(err.line_no) if err.form in REPORTED_FORMS and err.type else None
        if ln is None:
            continue
        st = ln.text.strip()
        at = st.find(err.type)
        if at < 0:
            at = st.find(err.short_type)
        if at < 0 or len(st[:at].strip()) < BARE_MIN_CHARS or st in looked:
            continue
        looked.add(st)
        ranking = rank(view, st)
        hit = ranking.hits[0] if ranking.hits else None
        twins = _twins(ranking, hit) if hit is not None else set()
        elided = hit is not None and _elided_before(st, at, hit)
        if (
            hit is None
            or hit.score < (ELIDED_REPORTER_SCORE if elided else REPORTER_SCORE)
            or twins & taken_ids
            or not (elided or _in_values(hit, err.short_type))
            or not _known_well(hit, st, 0.5, True)
        ):
            continue
        taken_ids.update(twins)
        out.append(_as_error(view, st, ln.no, ranking, twins, text, release))
    return out


ELIDED_REPORTER_SCORE = 0.85
"""A record its paster elided before the exception it reports (`Decode transfer failed ...
KVTransferError(...): Aborted by AbortReq`) is read by its head alone: from this score on."""


def _elided_before(st: str, at: int, hit: Hit) -> bool:
    """Whether the record's paster left text out with an ellipsis between the head the hit
    matched and the exception at `at`, and the hit's template ends with a placeholder, where
    the exception left out of its values would be."""
    head = st[:at]
    if not any(mark in head for mark in ELLIPSES):
        return False
    return not compile_template(hit.template).literals[-1].strip()


def _with_beside(
    text: str,
    cleaned: Sequence[Line],
    view: CatalogView,
    out: list[Explanation],
    release: Mapping[str, str] | None,
    room: int,
) -> list[Explanation]:
    """The parsed errors with the errors beside them, by line (at most `room` more): records
    whose whole text the catalog knows, records that report an exception they caught, the
    other messages a post quotes beside the errors it quotes, and, beside tracebacks cut before
    their exception line, what the paster quoted or the records that announced them."""
    beside = _logged_beside(text, cleaned, view, out, release)
    reporting = _reporters(text, cleaned, view, out, release)
    if all(x.error.form == "prose" for x in out):
        # errors quoted in prose: the other quoted messages the catalog knows are errors
        # the post names beside them (`X: a` on one side and `b` on the other)
        beside += _quoted_beside(text, view, out, release)
    # (the links of a chain whose last traceback was cut are that error's causes, explained
    # before it: what the chain led to is still cut)
    # (by type and line: a long message is explained cut to MESSAGE_CHARS)
    links = {(c.type, c.line_no) for x in out for c in x.error.chain}
    finals = [x for x in out if (x.error.type, x.error.line_no) not in links]
    all_cut = all(_cut_or_unexplained(x) for x in finals)
    announced = [x for x in finals if _announced_only(x)]
    if announced and not all_cut:
        # tracebacks a record announced, cut, beside complete errors of other processes (the
        # parser keeps them: `parse.traceback._announced_cut`): each is its record, else left
        # out as such a cut traceback always was
        beside += _announcers(text, cleaned, view, announced, release)
        gone = {id(x) for x in announced}
        out = [x for x in out if id(x) not in gone]
    elif all_cut:
        if beside:
            # records beside a traceback cut before its exception line (a child's death
            # reported by its parent): the record that announced it is still the error it shows
            beside += _announcers(text, cleaned, view, finals, release)
        else:
            # only tracebacks cut before their exception line: the error is the message the
            # paster quoted elsewhere (in quotes or backticks, or an issue title after its colon),
            # else a log record read as in a paste with no exception line (a logged warning
            # before the cut traceback), else a line that is a known message whole (the lines
            # after it a summary of where it went), else the sentence just above the traceback
            # that introduces it; prose further away is not read line by line (a quiet
            # warning there is the start-up's context, not what the trace cut off)
            beside = list(bare_messages(text, view, release=release, quoted=True))
            if not beside:  # (the records are read only when nothing is quoted)
                records = [
                    x
                    for x in bare_messages(text, view, release=release, records_only=True)
                    if not _quiet(x)
                ]
                beside = (
                    records + _announcers(text, cleaned, view, finals, release)
                    or _whole_known_lines(text, view, release)
                    or _introducing(text, view, finals, release)
                )
    if not all_cut:
        # a log pasted in a fenced block of its own, beside complete errors elsewhere: its
        # records are read as in a paste with no exception line (another process's log)
        beside += _apart_records(text, cleaned, view, [*out, *beside, *reporting], release)
    # (a record read both as reporting an error and as a record beside a cut traceback is one)
    said = {(x.error.line_no, x.error.message) for x in [*out, *reporting]}
    beside = [*reporting, *(x for x in beside if (x.error.line_no, x.error.message) not in said)]
    beside = beside[:room]
    if beside:
        # a record before the exception it reports, on their line (read as printed)
        first = {id(x) for x in reporting}
        out = sorted([*out, *beside], key=lambda x: (x.error.line_no, id(x) not in first))
    return out


def _apart_records(
    text: str,
    cleaned: Sequence[Line],
    view: CatalogView,
    out: Sequence[Explanation],
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """The log records of the fenced blocks that hold none of the paste's errors, read as in a
    paste with no exception line (a record's whole message known well), else, when none is,
    the blocks' other lines on a higher bar (:func:`_apart_lines`); each entry and message not
    already given, not a quiet warning (one that says no failure in its words) nor the aftermath a
    traceback leaves (a child's sigquit, `Killed`: the parser's noise): a server's log pasted
    apart from a client's traceback shows the server's error. Nothing when the paste has fewer
    than two fenced blocks."""
    from errexplain.parse.lines import NOISE
    from errexplain.parse.traceback import fenced_blocks

    blocks = fenced_blocks(cleaned)
    if not blocks:
        return []
    lines = pasted_lines(text)
    taken: set[int] = set()
    for x in out:
        for e in (x.error, *x.error.chain):
            taken.add(blocks.get(e.line_no, -1))
    keep = {no for no, b in blocks.items() if b not in taken and b % 2 == 1}
    if not keep:
        return []
    apart = "\n".join(ln if no in keep else "" for no, ln in enumerate(lines, 1))
    given = {x.matches[0].entry.id for x in out if x.matches}
    said = {x.error.message.strip() for x in out}
    found = list(bare_messages(apart, view, release=release, records_only=True))
    if not found:
        ends: dict[int, list[int]] = {}
        for no in sorted(keep):
            ends.setdefault(blocks[no], []).append(no)
        near = {no for nos in ends.values() for no in nos[-APART_LINES:]}
        tail = "\n".join(ln if no in near else "" for no, ln in enumerate(lines, 1))
        found = _apart_lines(tail, view, release, lines)
    return [
        x
        for x in found
        if x.matches
        and x.matches[0].entry.id not in given
        and x.error.message.strip() not in said
        and not _quiet(x)
        and not NOISE.match(x.error.message)
    ]


def _apart_lines(
    apart: str, view: CatalogView, release: Mapping[str, str] | None, lines: Sequence[str]
) -> list[Explanation]:
    """The messages of a block apart that has no log record known well, read as in a paste
    with no exception line (a server's output pasted bare beside a client's traceback: `Error
    fetching prefill server info from bootstrap:`, then the reason on the next line), on a
    higher bar than a record's: matched at BARE_SCORE or more (a fragment read by its literal
    run alone, a `pip install ...` command inside a long help text, is not enough) by a
    template of APART_LITERAL literal characters or more (a short template with values,
    `invalid type: <a>, expected <b>`, reads another program's errors too), not a message
    announcing a traceback (`Scheduler hit an exception:`: the traceback's error is the one),
    and not on a line of source code (`raise RuntimeError("...")`: the paster showing where it
    is raised)."""
    out = []
    for x in bare_messages(apart, view, release=release):
        top = x.matches[0] if x.matches else None
        no = x.error.line_no
        if (
            top is None
            or top.score < BARE_SCORE
            or _literal_chars(top.entry.template) < APART_LITERAL
            or _announces_traceback(x.error.message, lines, no)
            or _in_code(x.error.message, lines, no)
        ):
            continue
        out.append(x)
    return out


def _announces_traceback(message: str, lines: Sequence[str], no: int) -> bool:
    """Whether a message read on line `no` announces a traceback (`Scheduler hit an
    exception:`, then `Traceback (most recent call last):` or its frames): the traceback's
    error is the one to explain. A message that ends with a colon before its reason on the next
    line (`Error fetching prefill server info from bootstrap:`) announces none."""
    if _TRACEBACK_LEAD in message:
        return True
    if not _announces(message.rstrip()):
        return False
    after = next((ln.strip() for ln in lines[no:] if ln.strip()), "")
    # (the parser's frame shapes: Python's `File "x.py", line 7`, IPython's `File ~/x.py:7,
    # in f()` and `Cell In[3], line 5`)
    return after.startswith(_TRACEBACK_LEAD) or bool(FRAME.match(after) or JFRAME.match(after))


_TRACEBACK_LEAD = "Traceback (most recent call last)"


def _in_code(message: str, lines: Sequence[str], no: int) -> bool:
    """Whether the message read from line `no` (joined with the next ones, when short) stands
    on a line of source code that raises, logs or prints it (:data:`_CODE_LINE`)."""
    start = message[:BARE_MIN_CHARS]
    return any(start in ln and _CODE_LINE.search(ln) for ln in lines[max(no - 1, 0) : no + 2])


_CODE_LINE = compile_regex(
    r"\braise\s+[\w.]+\(|\b(?:logger|logging|log)\.(?:error|warning|warn|exception|critical|info"
    r"|debug)\(|\bwarnings\.warn\(|\bprint\("
)
"""A line of Python source that raises, logs or prints a message (a block of source code
pasted to show where an error is raised)."""


APART_LITERAL, APART_LINES = 30, 40
"""Least literal characters of the template of a message read from a block apart whose lines
are no log records (:func:`_apart_lines`), and the lines of each such block read: its last
APART_LINES (a program's output ends with its error; a long build log pasted beside a traceback
costs a bounded number of lookups: 5,000 lines took 1.4 s more to read whole)."""


def _announced_only(x: Explanation) -> bool:
    """Whether `x` explains nothing but a traceback a record announced, cut before its
    exception line (no type, no message, no match)."""
    e = x.error
    return e.truncated and not e.type and not e.message and not x.matches and bool(e.lead)


def _unpolluted(
    view: CatalogView,
    out: list[Explanation],
    cutoff: float,
    text: str,
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """`out` with each message that runs on over the line of another error the paste holds
    (a known message, read on its own line: `ModuleNotFoundError: No module named 'x'`, then
    the record `Can not initialize ...` under it) explained without that line and those after
    it: the lines were read as the message's continuation, but the catalog knows them as an
    error of their own, explained beside it."""
    known = {
        (x.error.line_no, x.error.message.strip())
        for x in out
        if x.matches and "\n" not in x.error.message
    }
    if not known:
        return out
    fixed = []
    for x in out:
        lines = x.error.message.split("\n")
        cut = next(
            (k for k in range(1, len(lines)) if (x.error.line_no + k, lines[k].strip()) in known),
            0,
        )
        if cut and lines[0].strip():
            error = replace(x.error, message="\n".join(lines[:cut]))
            x = _explain_one(error, view, cutoff, text, release)
        fixed.append(x)
    return fixed


def _whole_known_lines(
    text: str, view: CatalogView, release: Mapping[str, str] | None
) -> list[Explanation]:
    """The lines that are a known message whole (backticks aside), at BESIDE_SCORE or more:
    beside a traceback cut before its exception line, the error the paste shows (the lines after
    it a summary of where it went)."""

    lines = pasted_lines(text)  # (numbered as the errors' line_no)

    def whole(x: Explanation) -> bool:
        no = x.error.line_no
        line = lines[no - 1] if 0 < no <= len(lines) else ""
        return line.strip().strip("`").strip() == x.error.message

    return [
        x
        for x in bare_messages(text, view, release=release)
        if not _quiet(x)
        and whole(x)
        and not _announces(x.error.message)
        and x.matches
        and x.matches[0].score >= BESIDE_SCORE
    ]


def _root_line(error: RaisedError) -> int:
    """Where an error's first traceback starts: its chain's root (a chain's first traceback is
    the one a sentence introduces or a record announces), else its own line."""
    return error.chain[0].line_no if error.chain else error.line_no


INTRO_LINES = 3
"""Lines read above a traceback cut before its exception line for the sentence that introduces
it (the sentence, a blank line and a fence's opening line)."""


def _introducing(
    text: str,
    view: CatalogView,
    cut: Sequence[Explanation],
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """The messages a post names in the lines just above a traceback cut before its exception
    line (`... facing <message>. The details:`, then the traceback): read as in a paste with no
    exception line, at BARE_SCORE or more and not a quiet warning. Asked for only when nothing
    else in the paste is an error: the sentence that introduces the traceback names what it
    ended with. (Prose further away is not read: a warning of the start-up quoted there is the
    context, not the error.)"""
    lines = pasted_lines(text)  # (numbered as the errors' line_no)
    keep: set[int] = set()
    for x in cut:
        if x.error.type or not x.error.truncated:
            continue  # (a bare exception has a line of its own, not a sentence above)
        first = _root_line(x.error)
        keep.update(range(max(1, first - INTRO_LINES), first))
    if not keep:
        return []
    above = "\n".join(ln if no in keep else "" for no, ln in enumerate(lines, 1))
    return [
        x
        for x in bare_messages(above, view, release=release)
        if not _quiet(x) and x.matches and x.matches[0].score >= BARE_SCORE
    ]


ANNOUNCED_CAP = 0.89
"""Highest score of a record that announced a cut traceback: the record is surely the site that
logged it, but the error it reports was cut off, so the answer is never given as confident."""
ANNOUNCED_NOTE = (
    "the traceback this record announced is cut before its exception line: the record is what "
    "the paste shows of the error; the exception itself was not pasted"
)


def _announcers(
    text: str,
    lines: Sequence[Line],
    view: CatalogView,
    cut: Sequence[Explanation],
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """The records that announced tracebacks cut before their exception line, when nothing
    else in the paste is an error but records beside them: the record (`[... TP0] Scheduler
    hit an exception: Traceback (most recent call last):`) is a catalogued message whose last
    placeholder holds the traceback, and all the paste shows of the error. Not when a line
    without a log prefix stands among the records above it (a child's own print of the error,
    `Failed to instantiate X: ...`, is the error the record's traceback ends with), and only an
    exact match that ends with that placeholder, at ANNOUNCED_CAP."""
    from errexplain.parse.lines import TRACEBACK, header_lead

    out: list[Explanation] = []
    looked: set[str] = set()
    for x in cut:
        start = _root_line(x.error)
        at = next(
            (
                i
                for i in range(len(lines) - 1, -1, -1)
                if lines[i].no <= start and TRACEBACK in lines[i].text
            ),
            None,
        )
        if at is None:
            continue
        lead, at = header_lead(lines, at)
        head = lines[at]
        if (
            not head.record
            or len(lead) < BARE_MIN_CHARS
            or not _announces(lead)
            or lead in looked
            or _unprefixed_above(lines, at)
        ):
            continue
        looked.add(lead)
        record = f"{lead} {TRACEBACK}"
        ranking = rank(view, record, fuzzy=False)
        hit = ranking.hits[0] if ranking.hits else None
        if (
            hit is None
            or hit.kind != "exact"
            or compile_template(hit.template).literals[-1].strip()
            or not _known_well(hit, lead, 0.5, True)
        ):
            continue
        twins = _twins(ranking, hit)
        exp = _as_error(view, record, head.no, ranking, twins, text, release)
        matches = tuple(replace(m, score=min(m.score, ANNOUNCED_CAP)) for m in exp.matches)
        exp = replace(exp, matches=matches, notes=(*exp.notes, ANNOUNCED_NOTE))
        out.append(_announced_elsewhere(exp, x.error))
    return out


def _announced_elsewhere(exp: Explanation, cut: RaisedError) -> Explanation:
    """The record `exp`, a look-alike when the outermost frame of the cut traceback it announced
    (the code that caught the error and logged the record) lies in a fork's or a sibling
    engine's tree (:data:`ENGINES`: `sgl_jax/srt/managers/scheduler.py` logs sglang's words):
    its matches move to the nearest, with the note that says why. Frames further in, in any
    library the error passed through (`requests/adapters.py`), say nothing of who logged it."""
    other = frames_package(cut.frames[:1])
    if other is None or other not in ENGINES or not exp.matches:
        return exp
    project = exp.matches[0].entry.project
    if other == (exp.matches[0].entry.source.path or "").split("/", 1)[0]:
        return exp
    note = (
        f"the traceback this record announced was caught in {other}, not in {project}: "
        f"{project} logs the same text (listed as nearest), but that is a {LOOK_ALIKE}"
    )
    nearest = (*exp.matches, *exp.nearest)[:3]
    return replace(exp, matches=(), nearest=nearest, look_alike=True, notes=(*exp.notes, note))


def _twins(ranking: Ranking, hit: Hit) -> set[str]:
    """The hits that read a line as `hit` does: its template at other sites and in other
    releases, scored the same. (Counting a wording whose placeholders were renamed as a twin
    too cost two real pastes of older releases: the older wording of another site came first.
    Of such wordings the ranking puts a site's newest first, `rank._order`.)"""
    return {h.id for h in ranking.hits if h.raw == hit.raw and h.template == hit.template}


def _unprefixed_above(lines: Sequence[Line], at: int) -> bool:
    """Whether a line without a log prefix (not blank, not a fence) stands between the record
    at `at` and the start of its log (the nearest fence or blank line above, at most
    BESIDE_NEAR lines up), with a record above it again: the lines before a log's first record
    (`the bug:`, the command that was run) are the post's, not the log's."""
    unprefixed = False
    for ln in reversed(lines[max(0, at - BESIDE_NEAR) : at]):
        st = ln.text.strip()
        if not st or ln.fence:
            return False
        if not ln.record:
            unprefixed = True
        elif unprefixed:
            return True
    return False


def _quiet(exp: Explanation) -> bool:
    """An explanation whose answer is a logged warning that reports no failure by its words
    (`Attention backend not explicitly specified. Use flashinfer backend by default.`)."""
    top = exp.matches[0] if exp.matches else None
    return (
        top is not None
        and top.entry.kind == "log"
        and not reports_failure(top.entry.exception, top.entry.template)
    )


BESIDE_LINES = 60
BESIDE_SCORE = 0.95
BESIDE_NEAR = 12
"""Only records this many lines around a parsed error are read: a log's thousands of start-up
records would each cost a lookup on every cold start (a multi-rank log went from 30 to 118 ms)."""
INSIDE_SCORE = 0.9
"""A record that another error's match holds inside a value (:func:`_part_of`) is an error of
its own from this score on, read fuzzily (a message cut by its printer, or its start alone)."""


def _logged_beside(
    text: str,
    cleaned: Sequence[Line],
    view: CatalogView,
    found: Sequence[Explanation],
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """Log records beside the parsed errors whose whole text is a catalogued message (a
    `Watchdog timeout (...)` record under a `Pyspy failed ... Error: ...` one): each is an error
    of its own when an exact match at BESIDE_SCORE pins it with long literal text. Only records
    within BESIDE_NEAR lines of an error, at most the last BESIDE_LINES of them, are read (a
    long log costs a bounded number of lookups), each distinct text once, never a traceback's
    own prefixed lines; an entry already given first to an error is not repeated; beside a
    traceback, the parser's noise (a child's sigquit, `Killed`) is left out as it is there.
    A line without a log prefix is read as a record when it comes after an error's line and is
    not indented deeper than the errors' lines (a handler's record printed bare, as a CI job
    prints it: `Failed to load hf_quant_config.json for model X: <e>` under the Hub's error);
    deeper lines are a traceback's frames and code."""
    from errexplain.parse.lines import NOISE, indent, structural

    taken_lines = {x.error.line_no for x in found}
    taken_ids = {x.matches[0].entry.id for x in found if x.matches}
    # the later lines of multi-line messages: a line printed under an error without a log
    # prefix of its own joins its message, but may be another error (:func:`_part_of`)
    later = {
        line.strip() for x in found for line in x.error.message.split("\n")[1:] if line.strip()
    }
    # beside a traceback, a child's sigquit or `Killed` is its aftermath (the parser's noise);
    # beside log lines only, it may be the most telling line the paste has
    # (a traceback all in Python's own library, as `multiprocessing.resource_tracker`'s
    # KeyError on a dead child's shared memory, is aftermath itself: the record still tells)
    aftermath = any(
        x.error.form in ("traceback", "jupyter") and not interpreter_only(x.error.frames)
        for x in found
    )
    near = {n + d for n in taken_lines for d in range(-BESIDE_NEAR, BESIDE_NEAR + 1)}
    by_no = {ln.no: ln for ln in cleaned}
    base = min((indent(by_no[n].text) for n in taken_lines if n in by_no), default=0)
    after = {n + d for n in taken_lines for d in range(1, BESIDE_NEAR + 1)}
    records = [
        (ln.no, st)
        for i, ln in enumerate(cleaned)
        if (ln.record or ln.text.strip() in later or (ln.no in after and not ln.fence))
        and ln.no in near
        and ln.no not in taken_lines
        and indent(ln.text) <= base  # (a traceback's frames and code, indented under it)
        and len(st := ln.text.strip()) >= BARE_MIN_CHARS
        and _TRACEBACK_LEAD not in st
        and not (_announces(st) and _followed(cleaned, i))
        and not structural(st)
        and not (aftermath and NOISE.match(st))
        and not any(_part_of(x, st) for x in found)
    ][-BESIDE_LINES:]
    messages = [
        m
        for x in found
        if len(m := x.error.message) >= BARE_MIN_CHARS and "\n" not in m and not x.matches
    ]
    # the record logged last before a traceback cut ahead of its exception line (no type, no
    # match): what its process said just before it failed, the most telling line it has left
    cut_at = [
        x.error.line_no
        for x in found
        if x.error.truncated and not x.error.type and not x.matches and x.error.line_no
    ]
    before_cut: set[int] = set()
    if cut_at:  # (one pass over the lines, whatever the number of cut tracebacks)
        from bisect import bisect_left  # (rarely needed: not at start-up)

        numbers = [ln.no for ln in cleaned if ln.record]
        before_cut = {numbers[i - 1] for at in cut_at if (i := bisect_left(numbers, at))}
    out: list[Explanation] = []
    looked: set[str] = set()
    for no, st in records:
        if st in looked:  # (ranks print the same record: one lookup)
            continue
        looked.add(st)
        # only an exact match is taken here, but for a record printed under an error whose
        # match holds it inside a value, or one that ends with the colon before a value printed
        # empty: the start of a message known well may do too
        loose = st[-1] == ":" or any(x.error.message and st in x.error.message for x in found)
        # a record that reports an error found beside it, its message in a value of the
        # record's own template (`Failed to serve prompt 1: <e>` after the traceback of <e>)
        reported = [m for m in messages if m in st]
        ranking = rank(view, st, fuzzy=loose or bool(reported))
        hit = ranking.hits[0] if ranking.hits else None
        if reported and hit is not None and not any(_in_values(hit, m) for m in reported):
            continue
        if (
            hit is None
            or (hit.kind != "exact" and not loose)
            or hit.score < (INSIDE_SCORE if loose or reported else BESIDE_SCORE)
            or hit.id in taken_ids
            or not _known_well(hit, st, 0.5, True)
            or (
                hit.cand.kind == "log"
                and not reports_failure(hit.cand.exception, hit.template)
                and no not in before_cut
            )
        ):
            continue  # (a warning beside an error is context unless it reports a failure)
        # the sites that raise the same text as well are listed too (the paste may tell them
        # apart: its release, the modules it names)
        twins = _twins(ranking, hit)
        taken_ids.update(twins)
        out.append(_as_error(view, st, no, ranking, twins, text, release))
    return out


def _part_of(x: Explanation, st: str) -> bool:
    """Whether the record `st` is error `x`'s own message, or a part of it as its best match
    reads it. A later line of a multi-line message that the match holds only inside a
    placeholder's value is not: another process printed it under the error (the parent's
    `Rank 0 scheduler died during initialization ...` under a child's `RuntimeError: NCCL
    error: <e>`), and it is an error of its own when the catalog knows it well."""
    message = x.error.message
    if not message or (st not in message and message not in st):
        return False
    if not x.matches and "\n" not in message and len(st) - len(message) >= BARE_MIN_CHARS:
        return (
            False  # (a longer record reporting an unexplained error may be the error asked about)
        )
    if message in st or st in message.split("\n", 1)[0] or not x.matches:
        return True
    flat = normalize_ws(st)
    return not any(flat in normalize_ws(value) for _, value in x.matches[0].values)


def _announces(st: str) -> bool:
    """A record ending with a colon announces what follows (`Scheduler hit an exception:`, a
    traceback the parser has read, cut or not): it is not an error of its own."""
    return st[-1] == ":"


def _followed(lines: Sequence[Line], i: int) -> bool:
    """Whether line i is followed by what it announces, when it ends with a colon: any next
    line but the same record again (every rank printing it) means text of its own follows (a
    multi-rank log prefixes each line of the traceback it announces). Followed by nothing or by
    its own repeat, the colon ends a message whose value was printed empty (`An error occurred
    while loading the configuration: ` with an empty exception text)."""
    st = lines[i].text.strip()
    nxt = next((ln for ln in lines[i + 1 :] if ln.text.strip()), None)
    return nxt is not None and nxt.text.strip() != st


def _by_form(matches: tuple[Match, ...], form: str) -> tuple[Match, ...]:
    """A text both logged and sent to a request's client at one place (`logger.error(msg)`
    then `prepare_abort(req, msg)`) is one answer: the site whose output the paste shows. An
    HTTP error body is what the client is sent (kind abort), any other line what the log
    printed (kind log); the other twin (same file, template and score) is left out."""
    want = "abort" if form == "json" else "log"
    kept = {
        (m.entry.source.path, m.entry.template, m.score) for m in matches if m.entry.kind == want
    }
    matches = tuple(
        m
        for m in matches
        if not (
            m.entry.kind in UNRAISED_KINDS
            and m.entry.kind != want
            and (m.entry.source.path, m.entry.template, m.score) in kept
        )
    )
    return _shown_kind_first(matches, want)


def _shown_kind_first(matches: tuple[Match, ...], want: str) -> tuple[Match, ...]:
    """Of sites in different files that send and log one text with one score, the one whose
    output the paste shows (`want`: a log line, or a client's error body) first: a log record
    of `Grammar accept_token failed ...` was printed by the scheduler's logger, not by the
    disaggregation path that puts the same words in the request's abort."""
    if len(matches) < 2:
        return matches
    top = matches[0]
    other = {"log": "abort", "abort": "log"}[want]
    if top.entry.kind != other:
        return matches
    literals = compile_template(top.entry.template).literals
    pick = next(
        (
            m
            for m in matches[1:]
            if m.entry.kind == want
            and m.score == top.score
            and compile_template(m.entry.template).literals == literals
        ),
        None,
    )
    if pick is None:
        return matches
    said = "a log line" if want == "log" else "an error body sent to the client"
    why = (
        f"the paste shows the text as {said}, which this site writes; "
        f"{top.entry.source.path} {'sends it to the request' if want == 'log' else 'logs it'}"
    )
    first = replace(pick, reasons=(*pick.reasons, why))
    return (first, *(m for m in matches if m is not pick))


def _still_ambiguous(matches: tuple[Match, ...], ambiguous: bool) -> bool:
    """The ranking's ambiguity, once twins are left out: the best template still comes from
    several sites with the same score."""
    if not ambiguous or not matches:
        return False
    top = matches[0]
    same = [m for m in matches if m.score == top.score and m.entry.template == top.entry.template]
    return len(same) > 1


_WORD = compile_regex(r"[A-Za-z0-9]+")
_MODULE_NAME = compile_regex(r"[A-Za-z_]\w{0,100}(?:\.[A-Za-z_]\w{0,100}){2,20}")
"""A dotted module name in a value (`sglang.srt.multimodal.processors.gemma4`): of a message's
values, only these name a module (a path or a device, `cuda:0`, names none)."""
MODULE_WORD = 4
"""The shortest part of a path (split at `/`, `_`, `.`) that names a module (not `io`, `v2`)."""


def _site_words(entry: Entry) -> set[str]:
    """The words of the paths a site was raised from (:func:`_path_words`): its source's, and
    for an older wording every file it was raised in (a check that moved from a mixin to a
    component is named by either)."""
    words = _path_words(entry.source.path)
    if entry.at and entry.older:
        for path in {span[2] for span in at_lines(entry.at)}:
            words |= _path_words(path)
    return words


def _path_words(path: str | None) -> set[str]:
    """The words of a site's file name and of its directory's name (`mooncake_store/
    mooncake_store.py`: mooncake, store): the module, not the packages above it, whose names
    (`multimodal_gen`, `runtime`) are words of any prose about the project."""
    parts = (path or "").lower().removesuffix(".py").split("/")[-2:]
    if parts[-1].startswith("__"):  # a package's __init__.py or __main__.py: its directory
        parts = parts[:-1]
    return _name_words("_".join(parts).replace(".", "_"))


def _name_words(name: str) -> set[str]:
    """The words of a snake_case name (`mooncake_store`) of MODULE_WORD letters or more."""
    return {w for w in name.split("_") if len(w) >= MODULE_WORD}


FUNCTION_WORD_IDF = 5.0
"""Least inverse document frequency (over the catalog's templates) of a function's word that
tells same-text sites apart when the paste says it: `error` (4.4) or `request` (4.4) is a word
of many pastes whatever their error; `attach` (8.3), `storage` (5.7) are not. A word no template
has counts."""


def _function_words(function: str | None) -> set[str]:
    """The words of a site's function's own name (`Scheduler.attach_hicache_storage_wrapped`:
    attach, hicache, storage, wrapped), not of its class."""
    return _name_words((function or "").rsplit(".", 1)[-1].lower())


def _named_module(
    matches: tuple[Match, ...],
    ambiguous: bool,
    error: RaisedError,
    text: str,
    view: CatalogView | None = None,
) -> tuple[tuple[Match, ...], bool]:
    """(matches, still ambiguous): of the sites that raise the best text with the best score,
    the only one whose module the paste names outside the error's message or in its values (a
    word of its path the other sites' paths lack: `Mooncake store setup successfully.` above a
    message that sglang's Mooncake and SiMM stores both log; `Ignore import error when loading
    sglang.srt.multimodal.processors.x: ...`, logged by the processor registry in
    managers/multimodal_processor.py as by the model registry) comes first, with the reason. A
    word is weak evidence (`cuda` in a value names every `cuda_*.py`), so the score stays and the
    sites are still listed as raising the same text. Sites of one module are told apart so by
    the words of their functions (:func:`_function_words`; `view` gives the words' idf)."""
    if not matches or not text:
        return matches, ambiguous
    top = matches[0]
    # (wordings of one text differ by their age's prior alone, OLDER_AGE at most: a prior the
    # paste's words overrule as they order sites tied outright; so is an older wording's
    # OLDER_PRIOR in the best match's own file, whose functions the paste's words tell apart:
    # the function it names kept the text until a later release reworded it there)
    path = top.entry.source.path
    same = [
        m
        for m in matches
        if m.entry.template == top.entry.template
        and (
            top.score - m.score <= OLDER_AGE
            or (
                m.entry.source.path == path
                and top.score - m.score <= OLDER_PRIOR + OLDER_AGE + 1e-9
            )
        )
    ]
    if len(same) < 2 or not (ambiguous or all(m.entry.older for m in same)):
        return matches, ambiguous
    own = {id(m): _site_words(m.entry) for m in same}
    by_function = len({frozenset(w) for w in own.values()}) == 1
    if by_function:
        # one module's sites (`attach_hicache_storage_wrapped` and `detach_...` answer the same
        # text): the words of their functions tell them apart, as a module's tell modules apart
        # (not a word of the message's own text, which every site's paste holds, nor one
        # that many catalogued messages use: `error` of `_scheduler_died_error`)
        told = {w.lower() for w in _WORD.findall(top.entry.template)}
        own = {id(m): _function_words(m.entry.source.function) - told for m in same}
        said = {w.lower() for w in _WORD.findall(text)}
        shared = set.intersection(*own.values())
        if view is not None and any((words - shared) & said for words in own.values()):
            # (the catalog's word statistics are read only when a word that tells the sites
            # apart is said: reading them costs a cold start 10 ms)
            idf = view.word_stats().idf
            own = {
                k: {w for w in words if idf.get(w, FUNCTION_WORD_IDF) >= FUNCTION_WORD_IDF}
                for k, words in own.items()
            }
    common = set.intersection(*own.values())
    rest = text.replace(error.message, " ") if error.message else text
    # the dotted module names in the message's values first (its literal text is the same at
    # every such site), then the rest of the paste
    named: list[tuple[Match, list[str]]] = []
    modules = " ".join(m.group(0) for _, v in top.values for m in _MODULE_NAME.finditer(v))
    for where in (modules, rest):
        said = {w.lower() for w in _WORD.findall(where)}
        named = [(m, sorted((own[id(m)] - common) & said)) for m in same]
        named = [(m, words) for m, words in named if words]
        if named:
            break
    if not named or len(named) > NAMED_FEW or len(named) == len(same):
        return matches, ambiguous
    firsts = []
    what = "functions" if by_function else "paths"
    for m, words in named:
        others = (
            f"the other sites' {what} do not" if len(named) == 1 else f"most sites' {what} do not"
        )
        where = (m.entry.source.function if by_function else m.entry.source.path) or ""
        why = f"the paste names {', '.join(words)} ({where}), {others}"
        firsts.append(replace(m, reasons=(*m.reasons, why)))
    chosen = {id(m) for m, _ in named}
    return (*firsts, *(x for x in matches if id(x) not in chosen)), ambiguous


def _named_file_start(
    matches: tuple[Match, ...], nearest: tuple[Match, ...], error: RaisedError, text: str
) -> tuple[tuple[Match, ...], tuple[Match, ...]]:
    """(matches, nearest): for an error with no match, the nearest candidate as a probable
    answer when :func:`_file_start` takes it; else both as they are."""
    if matches or not nearest:
        return matches, nearest
    best = _file_start(nearest[0], error, text)
    return ((best,), nearest[1:]) if best is not None else (matches, nearest)


def _file_start(best: Match, error: RaisedError, text: str) -> Match | None:
    """The nearest candidate, as a probable answer, when a message too short to match on its
    own (`NotImplementedError: Pattern char 'M'`, cut by the poster) is the start of its
    template, NAMED_FILE_PREFIX literal characters or more and its values, of the same class,
    and the paste names the candidate's file outside the message (`... in nemotron_h_mtp.py`).
    Never with frames (they name files already) and never confident (NAMED_FILE_SCORE)."""
    if error.frames or not error.type or not error.message or not text:
        return None
    entry = best.entry
    if entry.exception != error.short_type or not entry.source.path:
        return None
    matched, _ = match_prefix(compile_template(entry.template), normalize_ws(error.message))
    if matched < NAMED_FILE_PREFIX:
        return None
    name = entry.source.path.rsplit("/", 1)[-1]
    if _whole_names(text, name, "_.-") <= _whole_names(error.message, name, "_.-"):
        return None  # (not named outside the message)
    why = (
        f"the message is the start of this template ({matched} literal characters) and the "
        f"paste names its file, {name}: probable, not confident"
    )
    return replace(best, score=NAMED_FILE_SCORE, kind="probable", reasons=(*best.reasons, why))


def _whole_names(text: str, name: str, joining: str) -> int:
    """How many times `text` names `name` whole: not inside a longer name (`my_x.py`, `x.pyi`;
    `joining`: the characters besides letters and digits that would run on into a longer one
    before it), a directory or a call's parenthesis around it allowed. A scan of the text for
    one string, however long the paste."""
    found = 0
    at = text.find(name)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(name) : at + len(name) + 1]
        if not (before.isalnum() or before in joining) and not (after.isalnum() or after == "_"):
            found += 1
        at = text.find(name, at + 1)
    return found


NAMED_FILE_PREFIX, NAMED_FILE_SCORE = 12, 0.8
"""A message that starts its template with this many literal characters at least, its file
named by the paste, is a probable answer at this score (under the confident 0.9)."""


def _named_function(matches: tuple[Match, ...], error: RaisedError, text: str) -> tuple[Match, ...]:
    """Of the sites that raise the best match's text within an older wording's prior of its
    score (in any file), the one whose function the paste names outside the message, whole, as
    an identifier (`evict_host()`; not a plain word) comes first with the reason, when the best
    match's is not named and no other site's is: `parent does not have child key` is asserted
    by RadixCache._delete_leaf now, and until 0.5.20 by HiRadixCache.evict_host too, which a
    paste that quotes it `in evict_host()` names. Not with frames: they ordered the sites."""
    if len(matches) < 2 or not text or error.frames:
        return matches  # (a traceback's frames have ordered the sites already)
    top = matches[0]
    literals = compile_template(top.entry.template).literals
    near = [
        m
        for m in matches
        if top.score - m.score <= OLDER_PRIOR + OLDER_AGE + 1e-9
        and compile_template(m.entry.template).literals == literals
    ]
    if len(near) < 2:
        return matches
    own = {id(m): _identifiers(m.entry.source.function) for m in near}
    wanted = set().union(*own.values())
    said = {
        w for w in wanted if _whole_names(text, w, "_.") > _whole_names(error.message, w, "_.")
    }  # (a scan per name of the sites, not a pass of a pattern over a long paste per error)
    if not said:
        return matches
    named = {id(m): own[id(m)] & said for m in near}
    if named[id(top)] or not any(named.values()):
        return matches
    names = {frozenset(v) for v in named.values() if v}
    if len(names) != 1:
        return matches  # (two sites' names said: the paste does not tell them apart)
    firsts = []
    for m in near:
        if named[id(m)]:
            words = ", ".join(sorted(named[id(m)]))
            why = (
                f"the paste names {words}, where {m.entry.source.function} raises it; "
                "the other sites' functions are not named"
            )
            firsts.append(replace(m, reasons=(*m.reasons, why)))
    chosen = {id(m) for m in near if named[id(m)]}
    return (*firsts, *(x for x in matches if id(x) not in chosen))


_IDENTIFIER = compile_regex(
    r"(?<![\w.])(?:_?[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?![\w])"
)
"""A name as code writes it, not a word of prose: snake_case with an underscore inside
(`evict_host`, `_delete_leaf`) or CamelCase with two capitals at least (`MambaRadixCache`)."""


def _identifiers(function: str | None) -> set[str]:
    """The name of a site's function (`HiRadixCache.evict_host`: the method, not its class,
    which any paste about the class's other methods names too) when it reads as code
    (:data:`_IDENTIFIER`), a dunder aside."""
    name = (function or "").rsplit(".", 1)[-1]
    return {name} if _IDENTIFIER.fullmatch(name) and not name.startswith("__") else set()


_MODEL_FILE = compile_regex(r"(?:^|/)models/([a-z][a-z0-9_]*)\.py$")
"""A model's own file (`sglang/srt/models/qwen3_5.py`): its stem is the model's name."""
_NAME_PARTS = compile_regex(r"[a-z]+|\d+")


@memo(maxsize=512)
def _model_name(stem: str) -> Pattern[str] | None:
    """How a paste writes the model a file's stem names (`qwen3_5`: `Qwen3.5`, `Qwen/Qwen3.5-27B`,
    `qwen3_5`; `deepseek_v4`: `DeepSeek-V4-Flash`): its letters and digits in order, a separator
    allowed between them, and no version going on after them (`Qwen3` is not `Qwen3.5`,
    `DeepSeek` not `DeepSeek-V3`; a size may follow, `Qwen3-8B`, `Qwen3-0.6B`). Only a stem with
    a digit in it: a plain word (`llama`, `transformers`, `grok`) is said of much else, or of a
    model of another file (`Llama-4` is not llama.py's)."""
    parts = _NAME_PARTS.findall(stem)
    if not any(p.isdigit() for p in parts):
        return None
    body = "[-_. ]?".join(parts)
    return compile_regex(
        rf"(?i)(?<![a-z0-9]){body}"
        r"(?![a-z0-9]|[-_. ]?(?:[a-z]\d|\d+(?:\.\d+)?(?![\d.]*[bmk]\b)))"
    )


def _named_model(
    view: CatalogView,
    matches: tuple[Match, ...],
    ranking: Ranking,
    error: RaisedError,
    text: str,
) -> tuple[Match, ...]:
    """Of the sites that raise the best match's very text (within SAME_TEXT_MARGIN, the
    ranking's sites beyond those listed among them: `Parameter <name> not found in params_dict`
    is logged by 35 model loaders), the sites of the one model file whose model the paste names
    outside the message (:func:`_model_name`: `Qwen/Qwen3.5-27B-FP8` names qwen3_5.py) come
    first, with the reason, when the best match's is not that one; the score stays and the
    sites are still listed as raising the same text. Two models named: no evidence. Not with
    frames: they ordered the sites."""
    if not matches or not text or not ranking.more or error.frames:
        return matches
    more = _by_form(tuple(_to_match(view, h) for h in ranking.more), error.form)
    top = matches[0]
    same = [
        m
        for m in (*matches, *more)
        if m.entry.template == top.entry.template and top.score - m.score <= SAME_TEXT_MARGIN
    ]
    stems: dict[int, str] = {}
    for m in same:
        found = _MODEL_FILE.search(m.entry.source.path or "")
        if found:
            stems[id(m)] = found.group(1)
    rest = text.replace(error.message, " ") if error.message else text
    named: dict[str, str] = {}
    for stem in sorted(set(stems.values())):
        pattern = _model_name(stem)
        found_name = pattern.search(rest) if pattern is not None else None
        if found_name is not None:
            named[stem] = found_name.group(0)
    if len(named) != 1:
        return matches
    ((stem, said),) = named.items()
    if stems.get(id(top)) == stem:
        return matches
    chosen = [m for m in same if stems.get(id(m)) == stem]
    why = f"the paste names the model {said}, whose file {chosen[0].entry.source.path} is"
    why += " one of the sites of this text; the other sites' models are not named"
    firsts = [replace(m, reasons=(*m.reasons, why)) for m in chosen]
    picked = {id(m) for m in chosen}
    return (*firsts, *(m for m in matches if id(m) not in picked))[: len(matches)]


NAMED_FEW = 3
"""At most this many of the listed sites named by the paste come first (`nemotron` names
nemotron_h.py and nemotron_nas.py); more named is no evidence. Only the listed sites are
weighed: of the 35 model loaders that log one text, a word of some file name is in most pastes
by chance (keeping them all for this turned a fresh paste wrong)."""


LOG_LOOKBACK = 60
"""Lines above an error's own line searched for the log prefix that announced it."""


def _log_line(text: str, line_no: int, patterns: tuple[str, ...]) -> tuple[str, str] | None:
    """(the line, the prefix) of the error's own line when its log prefix (as the parser took
    it off: behind a container's stream prefix, a quote, colours) is one of the project's, else
    of the nearest such line above it (a traceback under the record that announced it)."""
    from errexplain.parse.lines import clean_lines

    if line_no <= 0:
        return None
    head = pasted_lines(text, line_no)  # (the lines up to the error's own, as numbered)
    lines = clean_lines("\n".join(head[max(0, line_no - 1 - LOG_LOOKBACK) :]))
    compiled = [compile_regex(p) for p in patterns]
    for ln in reversed(lines):
        if not ln.prefix:
            continue
        for pattern in compiled:
            found = pattern.match(ln.prefix)
            if found:
                return ln.prefix, found.group(0)
    return None


def _logged_as(
    view: CatalogView, matches: tuple[Match, ...], error: RaisedError, text: str
) -> tuple[Match, ...]:
    """Of the sites of one project that raise the best match's text (scores within
    SHAPE_MARGIN), those in a part of the project whose log lines open as the paste's line does
    (project.yaml `log_prefixes`: sglang's server logs `[2026-02-27 22:52:09 TP0]`, its
    diffusion runtime `[02-27 22:52:09]`) come before those of a part whose lines open otherwise,
    with the reason and the best score. Sites of parts with no declared prefix keep their place."""
    if len(matches) < 2 or not text:
        return matches
    top = matches[0]
    project = view.project(top.entry.project)
    if project is None or not project.log_prefixes:
        return matches
    literals = compile_template(top.entry.template).literals
    same = [
        m
        for m in matches
        if m.entry.project == top.entry.project
        and top.score - m.score < SHAPE_MARGIN
        and compile_template(m.entry.template).literals == literals
    ]
    shapes = {id(m): project.logs_like(m.entry.source.path) for m in same}
    if len(set(shapes.values()) - {None}) < 2:
        return matches  # one part of the project (or none declared): nothing to tell apart
    if any(in_file(f, m.entry.source.path or "") for f in error.frames for m in same):
        # a frame in one of the sites' files has ordered them: the record that logged the
        # traceback says which part logged it, not which raised it
        return matches
    known = sorted({p for s in shapes.values() if s for p in s})
    found = _log_line(text, error.line_no, tuple(known))
    if found is None:
        # (frames, when there are any, have ordered the sites already: scores clamp at 1.0)
        return matches if error.frames else _main_part(project, matches, same, shapes)
    line, prefix = found
    fits = [m for m in same if any(compile_regex(p).match(line) for p in shapes[id(m)] or ())]
    why = (
        f"the error's log line opens `{prefix.strip()}` as the log lines of this part of "
        f"{top.entry.project} do; those of <others> open otherwise"
    )
    return _part_first(matches, same, shapes, fits, why)


def _part_first(
    matches: tuple[Match, ...],
    same: list[Match],
    shapes: Mapping[int, tuple[str, ...] | None],
    fits: list[Match],
    why: str,
) -> tuple[Match, ...]:
    """`matches` with the best of `fits` (the first match when it fits) first, at the best
    score, with `why` among its reasons (`<others>` in it: the paths of the sites of the other
    declared parts; the paste's own text in it is kept as it is); unchanged when no site, or
    every site of a declared part, fits."""
    others = [m for m in same if shapes[id(m)] is not None and m not in fits]
    if not fits or not others:
        return matches
    paths = ", ".join(sorted({m.entry.source.path or "" for m in others}))
    pick = matches[0] if matches[0] in fits else fits[0]
    first = replace(
        pick, score=matches[0].score, reasons=(*pick.reasons, why.replace("<others>", paths))
    )
    return (first, *(m for m in matches if m is not pick))


def _main_part(
    project: Project,
    matches: tuple[Match, ...],
    same: list[Match],
    shapes: Mapping[int, tuple[str, ...] | None],
) -> tuple[Match, ...]:
    """No log line or frame tells the parts apart (a message quoted alone): the site in the
    project's main part (project.yaml `main_part`) comes first, with the reason; the others stay
    listed as raising the same text."""
    main = project.main_part
    fits = [m for m in same if main and (m.entry.source.path or "").startswith(main)]
    why = (
        f"nothing in the paste tells which part of {project.name} logged it: the site in "
        f"{main}, its main part, comes before <others>"
    )
    return _part_first(matches, same, shapes, fits, why)


SHAPE_MARGIN = 0.01
"""Scores this close are one text's sites told apart by the log prefix (recency and similar
small weights make them differ)."""


_MASK = "\ue000"
"""Stands in a line for an exception's own text while the line around it is matched."""


def _unmasked(exp: Explanation, own: str) -> Explanation:
    """`exp` with the masked text put back in its message and values."""
    if _MASK not in exp.error.message and not any(
        _MASK in v for m in exp.matches for _, v in m.values
    ):
        return exp
    message = exp.error.message.replace(_MASK, own)
    # a reason's literal share was counted on the masked line
    share = (f"of {len(exp.error.message)} characters", f"of {len(message)} characters")
    matches = tuple(
        replace(
            m,
            values=tuple((k, v.replace(_MASK, own)) for k, v in m.values),
            reasons=tuple(r.replace(*share) for r in m.reasons),
        )
        for m in exp.matches
    )
    return replace(exp, error=replace(exp.error, message=message), matches=matches)


INSIDE_KINDS = UNRAISED_KINDS | {"recorded"}
"""Kinds whose text, printed as an exception inside a catalogued log line, yields to the line:
logged or sent texts (no site raised the exception's own text), and recorded failure reasons
(written long before the raise: the line says where the failure surfaced, the reason comes
second)."""


def _unraised_only(exp: Explanation) -> bool:
    """No match, or only sites that never raise (logged, or sent to a client) or record a
    reason for a later raise, for an error printed with an exception type."""
    return not exp.matches or bool(
        exp.error.type and all(m.entry.kind in INSIDE_KINDS for m in exp.matches)
    )


def _enclosing_line(
    by_no: Mapping[int, list[str]], exp: Explanation, view: CatalogView
) -> Explanation | None:
    """An exception quoted inside a log line (`... with exception KVTransferError(...): ...`)
    whose own message the catalog does not know, while the line around it is a catalogued
    (logged) message: the line's entry explains it."""
    err = exp.error
    near = [t for n in range(err.line_no - 1, err.line_no + 2) for t in by_no.get(n, ())]
    # (a wrapped line: its neighbours too); the line holds long values: no coverage asked
    # (the exception's own text is masked on a second try: a site sending that text alone,
    # `Aborted by AbortReq.`, must not stand for the line around it)
    own, joined = err.message.strip(), "\n".join(near)
    tries = [(joined, "")]
    if len(own) >= BARE_MIN_CHARS // 2:
        tries.append((joined.replace(own, _MASK), own))
    inner = None
    for lines, masked in tries:
        found = bare_messages(lines, view, coverage=0.0)
        # the line's entry must carry the exception in a value (`... with exception <e>`)
        inner = next(
            (
                _unmasked(x, masked)
                for x in found
                if x.matches and any(err.short_type in v for _, v in x.matches[0].values)
            ),
            None,
        )
        if inner is not None:
            break
    if inner is None or _foreign_class(err.type, inner.matches[0].entry):
        return None
    error = replace(inner.error, type=err.type, count=err.count, ranks=err.ranks, form=err.form)
    error = replace(error, line_no=err.line_no, truncated=err.truncated)
    # a recorded reason the exception carries comes after the line (it says why)
    reasons = tuple(m for m in exp.matches if m.entry.kind == "recorded")
    if not err.type:
        note = "the message was read with the lines around it (the paster's wrapping)"
    elif reasons:
        note = (
            f"the {err.short_type} is reported inside a catalogued log message; its text is a "
            "failure reason recorded earlier (listed after the line's entry)"
        )
    else:
        note = (
            f"the {err.short_type} is reported inside a catalogued log message; no catalogued "
            "site raises its own text (it is built where the exception is created)"
        )
    seen = {m.entry.id for m in inner.matches}
    # ranked below the line's entry: they say why, the line says what failed
    cap = (inner.matches[0].score if inner.matches else 1.0) - 0.01
    why = "the failure reason the exception inside the line carries"
    later = tuple(
        replace(m, score=round(min(m.score, cap), 4), reasons=(*m.reasons, why))
        for m in reasons
        if m.entry.id not in seen
    )
    matches = (*inner.matches, *later)
    return replace(inner, error=error, matches=matches, notes=(note,))


FIRST_LINE_NOTE = (
    "only the message's first line was matched: the lines after it read as the paster's own "
    "text, not the message's"
)


def _explain_one(
    error: RaisedError,
    view: CatalogView,
    cutoff: float,
    text: str,
    release: Mapping[str, str] | None,
) -> Explanation:
    """One parsed error explained; a message of several lines that nothing matches, by its
    first line (`_first_line_only`)."""
    exp = _explain_error(error, view, cutoff=cutoff, text=text, release=release)
    if not exp.matches:
        exp = _first_line_only(error, view, cutoff, text, release) or exp
    if (
        error.form in RUN_ON_FORMS
        and (not exp.matches or exp.matches[0].score < BARE_SCORE)
        and not _looks_alike(exp)
    ):
        exp = _sentence_only(error, view, cutoff, text, release, exp) or exp
    return exp


def _said_by(rest: str, template: str) -> bool:
    """Whether the words of `rest` (of four letters or more) are mostly the template's: the
    text after a sentence end is the message's own (`min_per_gpu_memory=16.28` of a wording
    that left a sentence out), not the paster's."""
    words = [w for w in _WORD.findall(rest.lower()) if len(w) >= 4 and w.isalpha()]
    if not words:
        return False
    said = template.lower()
    return 2 * sum(1 for w in words if w in said) >= len(words)


RUN_ON_FORMS = ("line", "prose")
"""Forms of an error written into a paster's text, whose message the paster's words may run on
after, on the same line (`RuntimeError: <message>. when we try ...`)."""
SENTENCE_NOTE = (
    "the message was matched up to the end of a sentence: the words after it read as the "
    "paster's own text, not the message's"
)


def _sentence_only(
    error: RaisedError,
    view: CatalogView,
    cutoff: float,
    text: str,
    release: Mapping[str, str] | None,
    whole: Explanation,
) -> Explanation | None:
    """An error written into prose whose message nothing matches at BARE_SCORE, read up to the
    end of one of its first sentences (:func:`_sentence_heads`), when that reading's best
    match scores BARE_SCORE or more and is another entry than the whole message's: the words
    after the sentence end were the paster's. (Read whole, a message that runs on matches an
    older release's wording that ends where the paster's words begin over the current one that
    goes on otherwise.)"""
    first = error.message.partition("\n")[0]
    best: Explanation | None = None
    top = whole.matches[0] if whole.matches else None
    for head in _sentence_heads(first):
        if head.endswith(ELLIPSES) or (top and _said_by(first[len(head) :], top.entry.template)):
            continue  # (an ellipsis: the paster cut the message; the rest is the template's)
        exp = _explain_error(
            replace(error, message=head), view, cutoff=cutoff, text=text, release=release
        )
        if not exp.matches or exp.matches[0].score < BARE_SCORE:
            continue
        if top is not None and exp.matches[0].entry.id == top.entry.id:
            continue
        if best is None or exp.matches[0].score > best.matches[0].score:
            best = exp
    if best is None:
        return None
    return replace(best, notes=(SENTENCE_NOTE, *best.notes))


def _first_line_only(
    error: RaisedError,
    view: CatalogView,
    cutoff: float,
    text: str,
    release: Mapping[str, str] | None,
) -> Explanation | None:
    """A message of several lines that nothing matches, read up to the end of its first line
    (an error quoted in prose whose sentence the paster's text runs on after: `the launcher
    reported RuntimeError: <message>.` and a new sentence on the next line)."""
    first, nl, _ = error.message.partition("\n")
    if not nl or len(first.strip()) < BARE_MIN_CHARS:
        return None
    exp = _explain_error(
        replace(error, message=first), view, cutoff=cutoff, text=text, release=release
    )
    if not exp.matches:
        return None
    return replace(exp, notes=(FIRST_LINE_NOTE, *exp.notes))


def _foreign_class(type_name: str, entry: Entry) -> bool:
    """An exception class named with its module (`torch._dynamo.exc.Unsupported`) from another
    package than the log line's site: it was created there, the line only reports it."""
    head, dot, _ = type_name.partition(".")
    root = (entry.source.path or "").split("/", 1)[0]
    return bool(dot and root and head != root)


BARE_MIN_CHARS = 20
BARE_MAX_CANDIDATES = 400
BARE_SCORE = 0.9
BARE_RECORD_SCORE = 0.85
CUT_KNOWN, GAP_KNOWN = 40, 30
"""A line that is the start or a middle part of a template, cut by its paster, is known well
when at least CUT_KNOWN of the template's literal characters are matched in order; a line that
leaves out a few words between the template's start and a later part (`rank.gap_reading`),
when GAP_KNOWN are matched on the two sides of the gap."""
RECORD_HEAD = 12
"""A line of a paste with no exception in it is taken as an error message only when the catalog
knows it this well: an exact match of at least BARE_MIN_CHARS literal characters covering most
of it, or any match scoring BARE_SCORE (a message cut short at a template's boundary);
BARE_RECORD_SCORE for the whole text of a log record (its log prefix removed), which is one
message as the program printed it (an exact match of it needs BARE_MIN_CHARS literal characters
however long its values: `bench/accuracy.py` "bare line" 95.3 -> 96.3 %, 1500 sampled, no
real paste changed): a reworded wording of an older release scores about 0.85-0.9
(bench/accuracy.py "bare older": 41 % found at 0.9, 70 % at 0.85, 600 sampled; no line of a
normal server start-up log is taken at 0.85, tests/test_bare_records.py)."""
_QUOTES = (
    ('"', '"'),
    ("'", "'"),
    ("`", "`"),
    ("\u201c", "\u201d"),
    ("\u300c", "\u300d"),  # CJK corner brackets
    ("\u300e", "\u300f"),
)
_ASIDES = (("\uff08", "\uff09"),)
"""Full-width parentheses: Chinese and Japanese prose puts an English message in them
(`... scheduler\uff08Insufficient multimodal embedding length\uff09`), read as quoted when
messages are looked for; they are asides, not quotes, when a line is asked whether it quotes
another message (:func:`_said_of_another`)."""


_ESCAPED = ("'", '"')
"""The quotes a string's repr or JSON escapes inside itself with a backslash."""


def _escaped(line: str, at: int) -> bool:
    """Whether the character at `at` follows an odd run of backslashes (`\\'`, not `\\\\'`)."""
    run = 0
    while run < at and line[at - 1 - run] == "\\":
        run += 1
    return run % 2 == 1


def _quote_spans(line: str, left: str, right: str) -> Iterator[tuple[int, int]]:
    """(opening, closing) positions of the spans `line` quotes with `left` ... `right`, paired
    from the left; an opening quote left unclosed spans nothing, and a quote after a backslash
    closes none (`error='the model\\'s context'`: a string's repr or JSON escapes it)."""
    start = _next_quote(line, left, 0)
    bare_from = len(line)  # (no unescaped quote from here on: each start looks once)
    while start >= 0:
        end = first = _next_quote(line, right, start + 1)
        if right in _ESCAPED and start < bare_from:
            while end > 0 and _escaped(line, end):
                end = _next_quote(line, right, end + 1)
            if end < 0:
                bare_from = start
        if end < 0 or start >= bare_from:
            end = first  # (none unescaped: the backslash was the paster's)
        if end < 0:
            return
        yield start, end
        start = _next_quote(line, left, end + 1)


def _next_quote(line: str, quote: str, at: int) -> int:
    """Where the next `quote` from `at` is, an apostrophe inside a word (`the model's`,
    `don't`) passed over: it neither opens nor closes a quoted span."""
    found = line.find(quote, at)
    if quote != "'":
        return found
    while 0 < found < len(line) - 1 and _word_char(line[found - 1]) and _word_char(line[found + 1]):
        found = line.find(quote, found + 1)
    return found


def _word_char(ch: str) -> bool:
    """A Latin letter or digit: an apostrophe between two is inside a word (CJK prose writes
    its quotes right against its characters: `使用'x'时`)."""
    return ch.isascii() and ch.isalnum()


def _quoted(st: str, least: int = BARE_MIN_CHARS, asides: bool = False) -> list[str]:
    """Text between matching quotes on one line, long enough to be a message (`least`); and
    between full-width parentheses with `asides` (:data:`_ASIDES`)."""
    out = []
    for left, right in (*_QUOTES, *_ASIDES) if asides else _QUOTES:
        for start, end in _quote_spans(st, left, right):
            inner = st[start + 1 : end].strip()
            if right in _ESCAPED and "\\" + right in inner:
                inner = inner.replace("\\" + right, right)
            if len(inner) >= least:
                out.append(inner)
    return out


_LIST_ITEM = compile_regex(r"(?:[-*+\u2022]|\d{1,3}[.)])\s{1,4}(?=\S)")
"""A list item's marker at a line's start: `- `, `* `, `+ `, `\u2022 `, `2. `, `3) `."""


def _item_text(st: str) -> list[str]:
    """The text of a list item without its marker, as a one-item list (none when the line is
    no item): a post that lists what it saw (`- <msg>`, `2. <msg>`); the marker is no part of a
    message, as a log prefix is none."""
    item = _LIST_ITEM.match(st)
    return [st[item.end() :]] if item and len(st) - item.end() >= BARE_MIN_CHARS else []


def _line_parts(st: str, joined: list[str], spans: list[str], items: list[str]) -> list[str]:
    """The readings of a line `st` outside quotes-only mode: the line, its list item's text,
    the line joined with the next ones, its quoted spans, and what follows each separator of
    the line and of its spans (each cut where a quote it starts inside closes)."""
    parts = [*joined[:1], *items, *joined[1:], *spans]
    parts += [
        s
        for p in parts[:1] + parts[len(joined) + len(items) :]
        for s in _suffixes(p)
        if not _opens_span(s, spans)
    ]
    parts += _after_introducers(st)
    return [_closed_at_span(p, st, spans) for p in parts]


INTRODUCED_MAX = 2
"""Introducers of a line whose rest is read as a message."""
INTRODUCED_SPACES = 3
"""Fewest spaces of a line searched for introducers: a lead, its verb and a message of two words
or more have them (and the search costs a long paste's many short lines nothing)."""


CLAUSE_HEADS = 3
"""Clause breaks of a line's rest after an introducer up to which it is read."""


_CLAUSE_BREAK = compile_regex(
    r"[.!?]\s|[\u3000-\u303f\uff01-\uff1f]|\s+[\u4e00-\u9fff]|\s[-\u2013\u2014]\s"
    r"|\s(?:and|but|when|whenever|after|then|so|because|which)\s"
)
"""Where a writer's clause goes on after a message quoted with no quotes: a sentence end, CJK
prose, a dash, a conjunction; not a comma, nor a word such as `during` or `if`, which
messages' own text holds (`..., got <shape>`, `... died during initialization`)."""


def _clause_heads(rest: str) -> list[str]:
    """`rest` up to each of its first clause breaks (:data:`_CLAUSE_BREAK`, outside brackets
    and quotes), shortest first."""
    out: list[str] = []
    at = heads = 0
    while heads < CLAUSE_HEADS:
        brk = _value_break(rest[at:], _CLAUSE_BREAK)
        if brk < 0:
            break
        at += brk
        if at >= BARE_MIN_CHARS:
            heads += 1
            out.append(rest[:at].rstrip())
            if rest[at] in ".!?":
                # (with its closing mark too: the mark may be the message's own, `Detected
                # errors during sampling!` a template's whole text, or the writer's)
                out.append(rest[: at + 1])
        at += 1
    return out


_OPENING_WORD = compile_regex(r"\s([A-Z]\w*)")
"""A capitalised word after an introducing lead's first word (`I get The input (...) is
longer ...`, `I get Error in parse_streaming_increment: ...`): the lead's article or noun may be
the message's first word."""


def _after_introducers(st: str) -> list[str]:
    """What follows each of the first words that introduce a message a sentence quotes with no
    quotes or colon (`When I send a request I get <message> and then ...`), whole and up to the
    first break of the writer's clause: readings of the line, as what follows a colon is."""
    out: list[str] = []
    if st.count(" ") < INTRODUCED_SPACES:
        return out  # (no sentence: a box-drawn panel's row, a path, a value)
    read = 0
    for m in _INTRODUCING.finditer(st):
        # (a capitalised article or noun the lead may end with can open the message: `I get
        # Error in parse_streaming_increment: ...`, `I get The input (...) is longer ...`)
        opening = _OPENING_WORD.search(m.group())
        starts = [m.end(), m.start() + opening.start(1)] if opening else [m.end()]
        for start in starts:
            rest = st[start:].strip()
            if len(rest) < BARE_MIN_CHARS:
                continue
            # (up to each place the writer's own words may go on, `... (exit code: -11) and
            # then ...`, the shortest first: of readings that score the same, the one with the
            # fewest of the writer's words is the message)
            out += [*_clause_heads(rest), rest]
        read += 1
        if read == INTRODUCED_MAX:
            break
    return out


def _spans(st: str, joined: Sequence[str], at_end: bool) -> list[str]:
    """The parts a line quotes (or full-width parentheses hold), on the line or into the next
    ones (`joined`), and, on the paste's last line (`at_end`), one left open by the cut."""
    spans = [*_quoted(st, asides=True), *_quoted_across(st, joined)]
    return spans + _open_at_end(st) if at_end else spans


def _open_at_end(st: str) -> list[str]:
    """The text after a quote that the paste's last line opens and never closes (an excerpt or
    a title cut inside a quoted message: `... fails with `Rank 0 scheduler died during init`):
    the quoted message, cut where the paste ends. The quote opens a span as `_quoted_across`'s
    does: after a space, the line's start or a non-ASCII character, before a word."""
    out: list[str] = []
    for left, right in (*_QUOTES, *_ASIDES):
        if left == "'":
            continue  # (an apostrophe left alone opens nothing)
        at = st.rfind(left)
        if at < 0 or at + 1 >= len(st) or st[at + 1].isspace():
            continue
        if at > 0 and not (st[at - 1].isspace() or not st[at - 1].isascii() or st[at - 1] in "(["):
            continue
        if left == right and st.count(left) % 2 == 0:
            continue  # (every quote closed: the last one closes a span)
        if left != right and st.find(right, at) >= 0:
            continue
        inner = st[at + 1 :].strip()
        if len(inner) >= BARE_MIN_CHARS and _worded(inner):
            out.append(inner)
    return out


def _quoted_across(st: str, joined: Sequence[str]) -> list[str]:
    """Text quoted from the line `st` into one of the next (`joined`: the line joined with
    them): a quoted message that prose wrapped at its width. The span opens at the line's last
    quote that reads as an opening one (after a space, an opening bracket or the line's start,
    before a word: `refused to start (`Loaded weights leave no`) and closes at the first matching
    quote after the line."""
    out: list[str] = []
    for left, right in _QUOTES:
        at = st.rfind(left)
        if at < 0 or (at > 0 and not _opens_after(st[at - 1])) or at + 1 >= len(st):
            continue
        if st[at + 1].isspace():
            continue  # (it closes a span on the line: `--flag` is on)
        for text in joined[1:]:
            end = text.find(right, len(st))
            if end > 0:
                inner = text[at + 1 : end].strip()
                if len(inner) >= BARE_MIN_CHARS and inner not in out:
                    out.append(inner)
                break
    return out


def _opens_after(ch: str) -> bool:
    """Whether a quote after `ch` may open a span: after a space or an opening bracket."""
    return ch.isspace() or ch in "([{\uff08"


_SEPARATORS = (": ", "] ", "\uff1a")  # a colon, the end of a [tag], a full-width colon


def _suffixes(st: str, limit: int = 4) -> list[str]:
    """What follows each of the first separators: `request failed: Error: <message>`,
    `[2025-01-02 10:00:00] [tag] <message>`, a full-width colon after Chinese prose."""
    out: list[str] = []
    for sep in _SEPARATORS:
        at = st.find(sep)
        found = 0
        while at >= 0 and found < limit:
            rest = st[at + len(sep) :].strip()
            if len(rest) >= BARE_MIN_CHARS:
                out.append(rest)
                found += 1
            at = st.find(sep, at + len(sep))
    return out


SENTENCE_HEADS = 2


def _sentence_heads(st: str) -> list[str]:
    """The text up to each of its first sentence ends: a message whose sentence the paster's
    own prose follows (`Model architectures [...] are not supported for now. When can we
    expect ...`), or that a later release goes on differently (`... is dead. Exit code: -9`)."""
    heads = [st[: stop + 1] for stop in sentence_stops(st) if stop >= BARE_MIN_CHARS]
    return heads[:SENTENCE_HEADS]


def _source_text(hit: Hit, text: str, no: int, msg: str) -> bool:
    """Whether the reading `msg` of line `no` is the message's source code, not a printed
    message: a value is its own placeholder in braces on a line of code that opens an f-string
    or formats one (`{get_exception_traceback()}` of the line under a Python warning,
    `warnings.warn(f"Error in stream_executor: {get_exception_traceback()}")`). A person who
    names the error by its template in prose (`reports: "... session {req.session_id} is not
    alive"`) quotes the message, not its code. The line is looked up only for such a value."""
    if not any(value == "{" + name + "}" for name, value in hit.values):
        return False
    return _FORMATTED.search(pasted_line(text, no) or msg) is not None


_FORMATTED = compile_regex(r"(?<![\w])[rRbB]?[fF][rR]?[\"']|\.format\(")


def _bare_candidates(
    text: str, quoted: bool = False, records_only: bool = False
) -> list[tuple[int, list[str], list[str], dict[str, str]]]:
    """Per line: the line, the line joined with the next one or two (a message wrapped by the
    paster), its quoted parts, what follows each `: ` and the text up to each sentence end: the
    places a message hides in prose and logs; and, when the line is a log record (it had a log
    prefix, which was removed), which of them are its message as printed (the whole line and
    its first sentences: "record"), and which parts the paster quoted whole ("quoted"). The
    sentence heads come apart: they are read only when none of the
    fuller readings is known well (`Health check failed.` of a longer quoted message would match
    a shorter template loosely). `quoted`: only the parts in quotes or backticks;
    `records_only`: only log records' messages as printed."""
    from errexplain.parse.lines import clean_lines, labelled_text, title_text

    cleaned = list(clean_lines(text))
    raw = pasted_lines(text) if quoted else []
    opening = next((no for no, ln in enumerate(raw, 1) if ln.strip()), 0)  # (the paste's title)
    records = {ln.no for ln in cleaned if ln.record}
    alone = _fenced_alone(cleaned) - records
    lines = [(ln.no, ln.text.strip()) for ln in cleaned]
    seen: set[str] = set()
    out: list[tuple[int, list[str], list[str], dict[str, str]]] = []
    total = 0
    last = max((i for i, (_, st) in enumerate(lines) if st), default=-1)
    for i, (no, st) in enumerate(lines):
        if not st or (records_only and (no not in records or _announces(st))):
            continue
        joined = [st]
        for _, nxt in lines[i + 1 : i + 3]:
            if not nxt:
                break
            joined.append(f"{joined[-1]} {nxt}")
        spans = _spans(st, joined, at_end=i == last)
        items: list[str] = []
        if quoted:
            title = title_text(raw[no - 1], no == opening) if no <= len(raw) else None
            labelled = labelled_text(st)
            parts = spans + ([title, *_suffixes(title)] if title else [])
            parts += [labelled] if labelled else []
        else:
            items = _item_text(st)
            parts = _line_parts(st, joined, spans, items)
        heads = [h for p in parts for h in _sentence_heads(p)]
        fresh = [c for c in parts if len(c) >= BARE_MIN_CHARS and _worded(c) and c not in seen]
        seen.update(fresh)
        later = [h for h in heads if h not in seen]  # read only when no fuller reading fits
        seen.update(later)
        # a log record's first sentences are its message as printed, as its whole text is
        whole = {st, *(h for h in heads if st.startswith(h))} if no in records else set()
        if records_only:
            fresh, later = [c for c in fresh if c in whole], [h for h in later if h in whole]
        printed = dict.fromkeys(whole, "record") | ({st: "alone"} if no in alone else {})
        if not records_only:
            printed = _as_printed(printed, st, spans, fresh, items)
        if fresh or later:
            out.append((no, fresh, later, printed))
            total += len(fresh) + len(later)
        if total >= BARE_MAX_CANDIDATES:
            break
    return out


def _opens_span(part: str, spans: Sequence[str]) -> bool:
    """Whether `part` (what follows a `: ` of a line) opens with a quote whose span, closed on
    a later line, is read already: the quote's text cut at the line's end (a backtick, then
    `Failed to load generation config for`; `.../model` and the closing backtick on the next
    line) is a worse reading of it."""
    if not part or part[0] not in _OPENING:
        return False
    rest = part[1:].strip()
    return bool(rest) and any(sp.startswith(rest) and len(sp) > len(rest) for sp in spans)


_OPENING = frozenset(left for left, _ in _QUOTES)


def _closed_at_span(part: str, st: str, spans: Sequence[str]) -> str:
    """`part` (what follows a separator of the line `st`, to its end), cut where the paster
    closed the quote it starts inside: `... I get `Ignore import error when loading x: cannot
    import name 'Y'` and it exits.` read after the colon inside the quote would take in the
    closing backtick and the poster's words."""
    start = len(st) - len(part)
    if start <= 0 or not st.endswith(part):
        return part
    for sp in spans:
        at = st.find(sp)
        if 0 <= at < start < at + len(sp) < len(st):
            return st[start : at + len(sp)]
    return part


def _fenced_alone(cleaned: Sequence[Line]) -> set[int]:
    """The numbers of the lines each alone in a markdown code block (one nonblank line between
    its fences): a program's output the paster copied whole, one message as printed, as a log
    record's text is (a lone line in prose may be any sentence). Its reading is known well from
    BARE_RECORD_SCORE, but does not outrank the other readings of the line as a record's whole
    text does (`Error: <message>`: the message after the label)."""
    out: set[int] = set()
    inside: list[Line] | None = None
    for ln in cleaned:
        if ln.fence:
            if inside is not None:
                body = [x for x in inside if x.text.strip()]
                if len(body) == 1:
                    out.add(body[0].no)
                inside = None
            else:
                inside = []
        elif inside is not None:
            inside.append(ln)
    return out


def _as_printed(
    printed: dict[str, str],
    st: str,
    spans: list[str],
    fresh: list[str],
    items: Sequence[str] = (),
) -> dict[str, str]:
    """`printed` with a span the paster quoted whole (a message as printed too), the whole line
    (and a list item's text: the line as printed, its marker aside) and the rest of it after
    each colon (known by its head or its framing words, `_heads_line`: `启动报错：<message>`)."""  # noqa: RUF002
    printed |= {q: "quoted" for q in spans if q in fresh and q not in printed}
    for whole in (st, *items):  # (an item's suffixes are the line's: its marker holds none)
        printed.setdefault(whole, "line")
    for rest in _suffixes(st):
        printed.setdefault(_closed_at_span(rest, st, spans), "line")
    return printed


def _worded(part: str) -> bool:
    """Whether a part of a line can be a message: words apart, or not ASCII (CJK prose runs
    its words together). One token alone (`SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN`, a flag,
    a path, a model name in backticks) names a thing the prose talks about; read as a cut
    message, it would match any template that happens to mention it."""
    return not part.isascii() or len(part.split()) > 1


def _with_cut(ranking: Ranking, msg: str) -> Ranking:
    """A ranking with no hit whose nearest template the line is a long cut part of (its start,
    or a fragment from its middle: `_known_well`) offers that template as its hit."""
    if ranking.hits or not ranking.nearest:
        return ranking
    top = ranking.nearest[0]
    if top.score < FUZZY_CUTOFF - 0.1 or cut_literal(top.template, msg) < CUT_KNOWN:
        return ranking
    text = compile_template(top.template).literals  # its wordings in other releases too
    same = tuple(h for h in ranking.nearest if compile_template(h.template).literals == text)
    rest = tuple(h for h in ranking.nearest if h not in same)
    return replace(ranking, hits=same, nearest=rest)


def _known_well(hit: Hit, msg: str, coverage: float = 0.5, record: bool = False) -> bool:
    if hit.kind == "exact":
        literal = hit.cand.literal_len
        if literal >= BARE_MIN_CHARS and (record or literal >= coverage * len(msg)):
            return True  # (a log record's whole text: long values do not make it less known)
        # a log record is one message: a template whose long head starts it, values after
        lead = compile_template(hit.cand.template).literals[0].strip()
        return record and len(lead) >= RECORD_HEAD and msg.startswith(lead)
    if hit.score >= (BARE_RECORD_SCORE if record else BARE_SCORE):
        # (a template of little literal text, `RuntimeError <e>.`, is known by its values)
        return hit.cand.literal_len >= BARE_MIN_CHARS
    # a message cut by its paster (its end, or its head and end: a fragment quoted in prose)
    # whose remaining text is a long run of one template's literal text, values aside
    if hit.score < FUZZY_CUTOFF - 0.1:
        return False
    if cut_literal(hit.template, msg) >= CUT_KNOWN:
        return True
    # or quoted with a few words left out between a long start and a later part of it
    gap = gap_reading(hit.template, msg)
    return hit.score >= FUZZY_CUTOFF and gap is not None and gap[0] >= GAP_KNOWN


PROSE_HEAD, PROSE_FIND = 12, 20
PROSE_NEAR = 3
"""A catalogued message written into a sentence without quotes or a colon (`got this error
<message> on 8 GPUs`) is read again from where the literal head of a near template (one of the
PROSE_NEAR best, the head at least PROSE_HEAD characters, found by its first PROSE_FIND) starts
inside the line."""
INSIDE_READINGS = 4
"""Readings of a line from where a catalogued template's text is found inside it
(:func:`found_inside`), tried after the near templates' heads, at most."""


def _from_heads(line: str, ranking: Ranking) -> list[str]:
    """The line from each place a near template's literal head starts in it (not at 0), and
    that up to an ellipsis after it (the paster cut the message, then the sentence goes on)."""
    out: list[str] = []
    for h in (*ranking.hits, *ranking.nearest)[:PROSE_NEAR]:
        head = compile_template(h.cand.template).literals[0].strip()
        if len(head) < PROSE_HEAD:
            continue
        at = line.find(head[:PROSE_FIND], 1)  # its start: the message may be cut inside it
        if at <= 0 or _inside_quotes(line, at):
            continue  # (inside a quoted message: its words, not the start of another)
        ends = [(line.find(m, at + 1), len(m)) for m in ELLIPSES]
        cut = min(((e + n) for e, n in ends if e > 0), default=0)
        for part in (line[at:], line[at:cut]):
            if part and part not in out:
                out.append(part)
    return out


_Reading = tuple[float, str, Ranking, bool]


def _heads_before(
    view: CatalogView, line: str, ranking: Ranking | None, best: _Reading
) -> list[_Reading]:
    """Exact readings of the line from a near template's head (:func:`_from_heads`) found
    before the best reading, up to where that one ends: the wrapper a writer's sentence quotes
    with the caught error of another project (`After upgrading, Capture cuda graph failed:
    CUDA out of memory. ... appears in the log`), read as the line's parts after a colon read
    the error alone. Weighed as wrappers of the best reading only (:func:`_explained`,
    :func:`_wrapping`, where a wrapper passing on its own project's message whole gives way
    to it). Not a wrapper of its own project's message cut short (read loosely): that message
    is the error the wrapper passed on, though too little of it is left for
    :func:`_gives_way` to tell (`Internal server error: Unsupported tool_call_parser` cut at 80
    columns is sglang's parser check, the handler only sent it)."""
    inner = best[1]
    at = line.find(inner)
    if ranking is None or at <= 0 or line[:at].rstrip()[-1:] not in (":", "\uff1a"):
        return []  # (only a value after a colon: the wrapper's head and its values before it)
    inner_hit = best[2].hits[0]
    own = inner_hit.cand.project if inner_hit.kind != "exact" else None
    out: list[_Reading] = []
    end = at + len(inner)
    for part in _from_heads(line[:end], ranking):
        if not 0 <= line.find(part) < at:
            continue
        again = _reading_rank(view, part)
        hit = again.hits[0] if again.hits else None
        if hit is not None and hit.kind == "exact" and hit.cand.project != own:
            out.append((hit.raw, part, again, True))
    return out


def _untagged(
    view: CatalogView, error: RaisedError, ranking: Ranking, win: Window | None
) -> tuple[Ranking, str]:
    """The message read without a wrapper's tag (:func:`wrapper_tag`) when that reads better:
    the error as raised is what follows the tag. (ranking, the tag left out or "")."""
    tag = wrapper_tag(error.message)
    if not tag:
        return _passed_on(view, error, ranking, win)
    untagged = rank(view, error.message[len(tag) :], error.type, error.frames, window=win)
    if untagged.hits and (not ranking.hits or untagged.hits[0].raw > ranking.hits[0].raw):
        return untagged, tag
    return ranking, ""


def _passed_on(
    view: CatalogView, error: RaisedError, ranking: Ranking, win: Window | None
) -> tuple[Ranking, str]:
    """The message a generic handler passed on (`Internal server error: <e>`: match.rank
    .passes_on) read alone when it is a catalogued message of the handler's own project as a
    whole: that is the error, the lead only says which handler sent it. (ranking, the lead
    left out or "")."""
    best = ranking.hits[0].raw if ranking.hits else 0.0
    # (an exact wrapper a hair behind a loose reading of the same lead: an older wording whose
    # placeholder holds the rest, ranked after the current one the paste's release prefers)
    top = next(
        (h for h in ranking.hits if h.raw >= best - PASSED_ON_MARGIN and _passer(h)),
        ranking.hits[0] if ranking.hits else None,
    )
    for _ in range(PASSED_ON_DEPTH):
        if top is None or not _passer(top):
            return ranking, ""
        value = top.values[-1][1]
        if not error.message.endswith(value):
            return ranking, ""
        inner = rank(view, value, "", error.frames, window=win)
        hit = inner.hits[0] if inner.hits else None
        if hit is not None and _gives_way(top, hit, value):
            return inner, error.message[: len(error.message) - len(value)]
        if hit is None or hit.cand.project != top.cand.project:
            return ranking, ""
        top = hit  # (a handler that passed on another handler's text: read on inside it)
    return ranking, ""


PASSED_ON_DEPTH = 3
"""Handlers passing on each other's text (`Model generation returned no output. Error from
scheduler: Error executing request <id>: <message>`) are read through at most this deep."""
PASSED_ON_MARGIN = 0.02
"""How far behind the best reading an exact handler's lead may rank and still pass its text
on: the paste's release can put a looser reading of the lead's current wording (its first
sentence only) a hair ahead of the older wording that carried the handler's text."""


_PROVIDER_TAG = compile_regex(r"[A-Z][A-Za-z0-9_]{0,40}Exception - ")
_CHAINED_HEADS = compile_regex(
    r"(?:[A-Za-z_][\w.]{0,100}(?:Error|Exception|Exit|Interrupt|Warning)\d{0,3}: ){1,8}"
)
"""Exception names a wrapper repeated before the message it passed on (LiteLLM's
`litellm.MidStreamFallbackError: litellm.APIConnectionError: APIConnectionError: ...`)."""


_CPP_PLACE = (
    r"(?P<path>[^\s:]{1,500}?\.(?:"
    + "|".join(sorted((x[1:] for x in CPP_SUFFIXES), key=len, reverse=True))
    + r")):(?P<line>\d{1,7})"
)
"""A C/C++ source's `path:line` (:data:`~errexplain.models.CPP_SUFFIXES`), as a compiled
check prints its place."""
_CHECK_LEAD = compile_regex(
    r"\s{0,8}(?:Runtime check failed|Failed) at\s{1,8}"
    + _CPP_PLACE
    + r"(?::\s{0,80}|\s{1,8}in\s{1,8}(?P<func>[^\n]{1,400})\Z)"
)
"""The place a compiled check puts before its text (sglang's JIT kernels: `Failed at
<file>:<line>: <text>`, `Runtime check failed at ...` before 0.5.16; `... at <file>:<line> in
<function>` when it has no text): a C/C++ source only."""


_SIGNATURE_NAME = compile_regex(r"(?P<name>[~\w:]{1,300})\(")
"""The function's name in the signature a check without text prints (`void ns::plan(int)`)."""
CHECK_NOTE = (
    "'{}' before the message is where a C++ check failed (a compiled kernel's): read as the "
    "frame it was raised in"
)
ROOT_CAUSE_NOTE = (
    "a C++ check's error passed on with the place it was checked from ('{}'): its root cause is "
    "read as the message, raised from that place"
)


_ROOT_CAUSE = compile_regex(
    r"[^\n]{1,2000} at " + _CPP_PLACE + r"\s{0,8}\n\s{0,8}-?\s{0,8}Root cause:\s{0,8}"
)
"""A compiled check's error passed on with the place it was checked from (sglang's tensor
matcher: `Tensor match failed for <tensor> at <file>:<line>` then `- Root cause: <the
check's text>`)."""


def check_located(error: RaisedError) -> tuple[RaisedError, str]:
    """The error with the place a compiled check put before its message (:data:`_CHECK_LEAD`)
    read as its innermost frame and taken off the message, and a note saying so (or ""). A
    check's error passed on with the place it was checked from (:data:`_ROOT_CAUSE`) is read
    as its root cause, raised from that place."""
    m = _CHECK_LEAD.match(error.message)
    note = CHECK_NOTE
    if m is None:
        m, note = _ROOT_CAUSE.match(error.message), ROOT_CAUSE_NOTE
        if m is None:
            return error, ""
    signature = m.groupdict().get("func")
    func = _SIGNATURE_NAME.search(signature) if signature else None
    frame = Frame(m["path"], int(m["line"]), func["name"].rsplit("::", 1)[-1] if func else None)
    rest = "" if signature else _CHECK_LEAD.sub("", error.message[m.end() :], count=1)
    note = note.format(f"{m['path']}:{m['line']}")
    return replace(error, message=rest, frames=(*error.frames, frame)), note


def wrapper_tag(message: str) -> str:
    """The `[address=0.0.0.0:37905, pid=4194] ` a wrapper that passed an error on (an actor or
    RPC layer) put before its message: a bracket of `key=value` pairs only; or the provider
    tag an API gateway puts before the message its backend answered (LiteLLM's
    `OpenAIException - `, `Hosted_vllmException - `), after any exception names the wrapper
    repeated (:data:`_CHAINED_HEADS`), or those names alone; else ""."""
    heads = _CHAINED_HEADS.match(message)
    lead = heads.end() if heads else 0
    provider = _PROVIDER_TAG.match(message, lead)
    if provider:
        return message[: provider.end()]
    if lead:
        return message[:lead]
    if not message.startswith("["):
        return ""
    end = message.find("] ", 1, 200)
    inner = message[1:end] if end > 0 else ""
    pairs = [part.split("=", 1) for part in inner.split(",")]
    if (
        not inner
        or "[" in inner
        or any(len(p) != 2 or not p[0].strip().isidentifier() for p in pairs)
    ):
        return ""
    return message[: end + 2]


def _best_reading(
    view: CatalogView,
    cands: list[str],
    heads: list[str],
    printed: Mapping[str, str],
    coverage: float,
) -> _Reading | None:
    """(raw score, text, ranking, whether it is a record's message) of the best-known reading
    of a line: its fuller readings, else its sentence heads, else the line read again from a
    near template's head (:func:`_from_heads`)."""
    best: _Reading | None = None
    first: Ranking | None = None
    loose: list[tuple[str, Hit]] = []
    line = cands[0] if cands else ""
    for group in (cands, heads):
        known: list[_Reading] = []
        wrappers: list[_Reading] = []  # exact matches not known well alone (long values)
        for msg in group:
            if _status_text(msg):
                continue
            ranking = _reading_rank(view, msg)
            first = first or ranking
            hit = ranking.hits[0] if ranking.hits else None
            # a log record's message as printed, or a span quoted whole matched exactly (its
            # values however long): known as a record is
            whole = printed.get(msg) in ("record", "alone") or (
                printed.get(msg) == "quoted" and hit is not None and hit.kind == "exact"
            )
            if (
                (msg == group[0] or msg in line)
                and hit is not None
                and hit.kind == "exact"
                and not _known_well(hit, msg, coverage, whole)
            ):
                # the line itself as printed, or a part of it after a word that introduces a
                # message (`I get Ignore import error when loading <m>: <e> and then ...`), not
                # the line joined with the next: a wrapper once its value is the best reading
                # (:func:`_explained`)
                wrappers.append((hit.raw, msg, ranking, True))
            if hit is not None and hit.kind == "exact" and not whole:
                loose.append((msg, hit))  # (read again cut, when nothing else is known)
            if hit is not None and (
                _known_well(hit, msg, coverage, whole)
                or (printed.get(msg) == "line" and _heads_line(hit, msg))
            ):
                known.append((hit.raw, msg, ranking, whole))
                record = printed.get(msg) == "record"
                if best is not None and _continues(best, msg, hit):
                    # the record's message goes on on the next line (printed over two lines,
                    # or wrapped by the paster) and reads better whole: the record's reading
                    best = (hit.raw, msg, ranking, best[3])
                elif best is None or (record, hit.raw) > (
                    printed.get(best[1]) == "record",
                    best[0],
                ):
                    # a log record's whole text, known well, is the message as printed: a
                    # part of it (the exception after `Error in parse_streaming_increment: `)
                    # is a value inside that message, however well that part is known
                    best = (hit.raw, msg, ranking, whole)
        if best is not None:
            wrappers += _heads_before(view, line, first, best)
            return _wrapping(known, best, group, _explained(wrappers, best[1], coverage))
    return _from_loose(view, loose, coverage) or _from_first(view, cands, first, coverage, printed)


def _reading_rank(view: CatalogView, msg: str) -> Ranking:
    """The ranking of one reading of a line, with no hit when its best template reads the line
    only by putting a label of the poster's into its opening placeholder (the reading after
    the label is the line's message)."""
    ranking = _with_cut(rank(view, msg), msg)
    if ranking.hits and _lead_holds_label(ranking.hits[0].template, msg):
        return replace(ranking, hits=())
    return ranking


def _lead_holds_label(template: str, msg: str) -> bool:
    """Whether a template that opens with a placeholder named for one value (`<process.name>
    failed to initialize: <data>`, `<phase_str> out of memory. ...`) reads a line only by
    putting a label of the poster's into it: the text before its first words holds a colon and
    a space after a few words (`The server fails with: Scheduler actor` as a process's name).
    What follows that colon is a reading of the line too, and the line's message."""
    if ": " not in msg and "\uff1a" not in msg:
        return False
    compiled = compile_template(template)
    if not _opens_with_one_value(compiled):
        return False
    words = compiled.literals[1].strip()[:LEAD_CHARS]  # (a cut line may end inside the rest)
    at = msg.find(words) if len(words) == LEAD_CHARS else -1
    if at <= 0:
        return False
    lead = msg[:at]
    colon = max(lead.rfind(": "), lead.rfind("\uff1a"))
    # (a label is a few words: a long text before the colon is a message's own, `... process
    # group watchdog thread terminated with exception: [Rank 1] Watchdog caught ...`)
    return colon > 0 and len(lead[:colon].split()) <= LABEL_WORDS


def _opens_with_one_value(compiled: Compiled) -> bool:
    """Whether a template opens with a placeholder named for one value, not prose
    (`<process.name> failed to initialize: <data>`, `<function>() got an unexpected keyword
    argument <name>`): what it takes in a line should be a name, not the writer's words."""
    return (
        not compiled.literals[0].strip()
        and bool(compiled.names)
        and not prose_named(compiled.names[0])
    )


LABEL_WORDS = 8
"""Most words of a poster's label before a message (`The server fails with`, `报错`)."""


LEAD_CHARS = 12
"""Literal characters after a template's opening placeholder looked for in a line to find what
the placeholder would hold (a template with fewer there is left alone)."""


def _from_loose(
    view: CatalogView, loose: list[tuple[str, Hit]], coverage: float
) -> _Reading | None:
    """The first exact reading not known well that is known once cut at a clause break inside
    its last value (:func:`_trimmed`)."""
    return next((r for msg, hit in loose if (r := _trimmed(view, msg, hit, coverage))), None)


def _continues(best: _Reading, msg: str, hit: Hit) -> bool:
    """Whether `msg` is the reading `best` and what follows it on the next line(s), known as the
    same template and better: the rest of the message, not another one."""
    raw, text, ranking, _ = best
    return (
        msg.startswith(text + " ")
        and bool(ranking.hits)
        and hit.id == ranking.hits[0].id
        and hit.raw > raw
    )


HTTP_PHRASES = frozenset(
    [
        "Bad Gateway",
        "Bad Request",
        "Conflict",
        "Content Too Large",
        "Expectation Failed",
        "Failed Dependency",
        "Forbidden",
        "Gateway Timeout",
        "Gone",
        "HTTP Version Not Supported",
        "Insufficient Storage",
        "Internal Server Error",
        "Length Required",
        "Locked",
        "Loop Detected",
        "Method Not Allowed",
        "Misdirected Request",
        "Network Authentication Required",
        "Not Acceptable",
        "Not Extended",
        "Not Found",
        "Not Implemented",
        "Payment Required",
        "Precondition Failed",
        "Precondition Required",
        "Proxy Authentication Required",
        "Range Not Satisfiable",
        "Request Entity Too Large",
        "Request Header Fields Too Large",
        "Request Timeout",
        "Request-URI Too Long",
        "Requested Range Not Satisfiable",
        "Service Unavailable",
        "Too Early",
        "Too Many Requests",
        "URI Too Long",
        "Unauthorized",
        "Unavailable For Legal Reasons",
        "Unprocessable Content",
        "Unprocessable Entity",
        "Unsupported Media Type",
        "Upgrade Required",
        "Variant Also Negotiates",
    ]
)
"""The reason phrases of the HTTP error statuses (``http.HTTPStatus`` 4xx/5xx, copied: importing
``http`` imports ``enum``), in both namings servers send: RFC 7231's (`Request Entity Too Large`,
Python up to 3.12) and RFC 9110's (`Content Too Large`, Python 3.13): the body or status line
any web server sends, not a project's own message (sglang's `Internal server error: <e>` carries
its value)."""


def _status_text(msg: str) -> bool:
    """Whether a line reading is an HTTP status phrase, its code before it or not
    (`500 Internal Server Error`, `"Internal Server Error"`)."""
    text = msg.strip().strip("`'\".")
    code, _, rest = text.partition(" ")
    if code.isdigit() and len(code) == 3:
        text = rest
    return text in HTTP_PHRASES


def _heads_line(hit: Hit, line: str) -> bool:
    """A whole line of the paste that a template matches exactly from its start, with a
    literal head of BARE_MIN_CHARS or more: the message as printed, whatever the length of its
    values (`Fail to set RLIMIT_STACK: current limit exceeds maximum limit`, an OS error's
    text after the 26 characters of the message's own, in a log printed without prefixes)."""
    if hit.kind != "exact":
        return False
    lits = compile_template(hit.cand.template).literals
    lead, tail = lits[0].strip(), lits[-1].strip()
    if len(lead) >= BARE_MIN_CHARS and line.startswith(lead):
        return True
    # a template framed by its own words at both ends (`Video <path> has no readable frames.`),
    # BARE_MIN_CHARS of them in all: the line from its first word to its last is that message
    return (
        len(lits) > 1
        and bool(lead)
        and len(tail) >= FRAME_TAIL
        and hit.cand.literal_len >= BARE_MIN_CHARS
        and line.startswith(lead)
        and line.endswith(tail)
    )


FRAME_TAIL = 4
"""Characters of a template's closing words, at least, for :func:`_heads_line` to take a line
framed by its words at both ends (a closing period alone frames nothing)."""


def _explained(wrappers: list[_Reading], inner: str, coverage: float) -> list[_Reading]:
    """The exact readings of the whole line whose value holds the best-known reading `inner`,
    once that value is counted as known: their own literal text and `inner` pin down `coverage`
    of the line (`Capture cuda graph failed: <e>` around a CUDA error known on its own). Such a
    reading is the line's message as printed (known as a record's is)."""
    out = []
    for reading in wrappers:
        hit = reading[2].hits[0]
        held = inner in reading[1] and _in_values(hit, inner)
        if held and hit.cand.literal_len + len(inner) >= coverage * len(reading[1]):
            out.append(reading)
    return out


def _in_values(hit: Hit, inner: str) -> bool:
    """Whether `inner` is held by the hit's placeholder values: one of them, or the run of
    them (a template's `<e>\\n<help>` splits a message at the line break it expects)."""
    values = [value for _, value in hit.values]
    return any(inner in v for v in values) or inner in " ".join(values)


def _wrapping(
    known: list[_Reading], best: _Reading, cands: list[str], explained: Sequence[_Reading] = ()
) -> _Reading:
    """The reading of a line whose exact match wraps the best one: `Error in
    parse_streaming_increment: list index out of range` quoted in prose is the logged wrapper
    with the exception's text as its value, not the exception alone (as for a log record); a
    fuller reading whose template spells more of the line in its own words than the best one's.
    `explained`: exact readings known only once their value is the best one (:func:`_explained`),
    weighed as wrappers only."""
    inner = best[1]
    inner_hit = best[2].hits[0]
    for reading in (*known, *explained):
        hit = reading[2].hits[0]
        if reading[1] == inner or hit.kind != "exact":
            continue
        if _cut_in_value(hit, reading[1], inner) and wrapper_head(hit.template):
            # (judged on the value: the inner reading's extra words are the writer's)
            if not _gives_way(hit, inner_hit, hit.values[-1][1]):
                return reading
            continue
        if inner not in reading[1]:
            continue
        if _in_values(hit, inner) and wrapper_head(hit.template):
            if _gives_way(hit, inner_hit, inner):
                continue
            return reading
        if reading not in known:
            continue
        # the fuller reading's template spells more of the line (`error: unrecognized
        # arguments: x` raised with its `error: ` by a project, read without it as another's
        # `unrecognized arguments: x`): the lead word is the message's, not a log level; not
        # when the line has more before it (`prog: error: ...`: a head left out again)
        if _literal_chars(hit.template) > _literal_chars(best[2].hits[0].template) and (
            _opens(cands[0], reading[1]) or reading[1].startswith(inner)
        ):
            return reading
    return best


def _cut_in_value(hit: Hit, msg: str, inner: str) -> bool:
    """Whether the reading `msg` ends in a last value that `inner` (another reading of the
    line) starts with and goes on from: `Error in parse_streaming_increment: list index out of
    range`, cut at the writer's clause break, of `list index out of range and then the server
    dies.` read after the colon. The inner reading's extra words are the writer's."""
    value = hit.values[-1][1] if hit.values else ""
    return (
        len(value) >= MIN_CUT_VALUE
        and msg.endswith(value)
        and inner.startswith(value)
        and len(inner) > len(value)
    )


MIN_CUT_VALUE = 8
"""Least characters of a wrapper's last value for another reading that goes on from it to be
that value (:func:`_cut_in_value`)."""


def _passer(hit: Hit) -> bool:
    """Whether an exact match is a handler's lead before the text it passes on."""
    return hit.kind == "exact" and bool(hit.values) and passes_on(hit.template)


def _gives_way(wrapper: Hit, inner: Hit, text: str) -> bool:
    """Whether an exact `wrapper` match (`Internal server error: <e>`) gives way to the `inner`
    match of the `text` it passes on: the wrapper is a lead before that one value
    (match.rank.passes_on), and the text is a catalogued message of the wrapper's own project
    as a whole, matched exactly by a template whose own text is long and covers most of it
    (another project's message, a JSONDecodeError's behind `Error in
    parse_streaming_increment: `, is explained by the handler that caught it); or a message cut
    by its paster whose long literal start (CUT_KNOWN characters) the text holds."""
    literal = inner.cand.literal_len
    if not passes_on(wrapper.template) or inner.cand.project != wrapper.cand.project:
        return False
    if inner.kind != "exact":  # (a message cut by its paster: its long literal start)
        return inner.raw >= FUZZY_CUTOFF and cut_literal(inner.template, text) >= CUT_KNOWN
    return literal >= BARE_MIN_CHARS and literal >= 0.5 * len(_own_words(inner, text))


def _own_words(hit: Hit, text: str) -> str:
    """`text` matched exactly by `hit`, up to the first break of a writer's clause inside its
    last value when it ends in that value (`Unsupported tool_call_parser: None` of `... None
    and then the server dies.`): the writer's sentence that goes on is no part of the message.
    Not at a comma or an aside (:data:`_CLAUSE_BREAK`): a caught error's own text has them
    (`... data ImageData(url=...): ('Connection aborted.', ...)`)."""
    return _cut_in_last_value(hit, text, _CLAUSE_BREAK) or text


def _cut_in_last_value(hit: Hit, text: str, breaking: Pattern[str] | None = None) -> str | None:
    """`text`, which ends in the hit's last value, up to the first break inside that value
    (:func:`_value_break`, `breaking`: other breaks); None when it does not end so or the
    value has no break."""
    value = hit.values[-1][1] if hit.values else ""
    if not value or not text.endswith(value):
        return None
    at = _value_break(value, breaking)
    return text[: len(text) - len(value) + at].rstrip() if at > 0 else None


_OPENERS = "\"'`(\u201c\u2018\u300c"  # quotes, backtick, parenthesis; curly and CJK quotes


def _inside_quotes(line: str, at: int) -> bool:
    """Whether `at` lies after the first character of a span the line quotes (double quotes,
    backticks): `raise RuntimeError("server launch failed")` quotes its message whole. A double
    quote left unclosed before `at` does not hide a backtick span around it."""
    return any(
        start < at - 1 and at <= end for q in ('"', "`") for start, end in _quote_spans(line, q, q)
    )


def _opens(line: str, part: str) -> bool:
    """Whether `part` of a line starts the line or a quoted span of it."""
    at = line.find(part)
    head = line[:at].rstrip() if at >= 0 else "-"
    return not head or head[-1] in _OPENERS


def _literal_chars(template: str) -> int:
    return sum(map(len, compile_template(template).literals))


_INTRODUCER = compile_regex(
    r"(?i)(?:\b(?:error|exception|message|msg|output|log|info|it|this|that)\s+"
    r"(?:is|was|says|said|shows|showed|reads|read|reports|reported)"
    r"|\b(?:get|gets|got|getting|see|saw|seeing|hit|hitting|receive|received|encounter|"
    r"encountered|throws|threw|raises|raised|reports|reported|logs|logged|prints|printed)"
    r"(?:\s+(?:the|this|an?|following|same))*(?:\s+(?:error|exception|message|warning))?"
    r"|[\u62a5\u9519][\u9519\u8bef]|\u63d0\u793a|\u663e\u793a)\s*$"
)
"""The words that end a sentence's lead into a message it quotes without quotes or a colon
(`error info is <message>`, `I got the error <message>`, `报错 <message>`)."""
_INTRODUCING = compile_regex(_INTRODUCER.pattern.removesuffix(r"\s*$") + r"\s+(?=\S)")
"""An introducing lead's last words, anywhere in a line (:data:`_INTRODUCER` ends a lead)."""


def _introduced(lead: str) -> bool:
    """Whether the prose before a message read from the middle of a line introduces it: the
    message is then the line's rest as printed (:func:`_heads_line`), whatever its values'
    length. A template's head found mid-sentence with no such lead may be the writer's own
    words about that error (or another project's look-alike), so it must be known well."""
    return bool(_INTRODUCER.search(lead))


def _labels_value(hit: Hit) -> bool:
    """Whether a template's literal head is a failure's label (FAILURE_LABEL_WORDS words or
    more) that a colon ends before the error it carries (`Capture cuda graph failed: <e>`): a
    writer's own sentence does not go on with a colon there, so the head found mid-sentence
    quotes the message, introduced or not."""
    head = compile_template(hit.cand.template).literals[0]
    return head.endswith(": ") and len(head.split()) >= FAILURE_LABEL_WORDS


FAILURE_LABEL_WORDS = 4


def _prose_to_end(hit: Hit) -> bool:
    """Whether a match's text runs to its end in a value named for prose (the error a handler
    caught: `... failed with error: <e>`), with no literal text of the template after it: such
    a value's extent is the line's rest, while a value of one thing (`got <shape>`) followed by
    more words is the writer's sentence going on. A closing stop is no text."""
    compiled = compile_template(hit.cand.template)
    filled = [i for i, (_, value) in enumerate(hit.values) if value.strip()]
    if not filled or len(hit.values) != len(compiled.names):
        return False
    last = filled[-1]
    after = "".join(compiled.literals[last + 1 :]).strip().rstrip(".!")
    return prose_named(compiled.names[last]) and not after


def _from_first(
    view: CatalogView,
    cands: list[str],
    first: Ranking | None,
    coverage: float,
    printed: Mapping[str, str] | None = None,
) -> _Reading | None:
    """The line read again from a near template's head (:func:`_from_heads`), then from where
    a catalogued template's text is found inside it (:func:`found_inside`): inside the line
    as printed (`printed`), not inside the lines a reading joins to it (the next line's
    message is that line's, read there with what its line tells, such as its log prefix)."""
    if first is None or not cands:
        return None
    line = cands[0]
    own = max(
        (len(k) for k, how in (printed or {}).items() if how != "quoted" and line.startswith(k)),
        default=len(line),
    )
    tried = [(at, m) for m in _from_heads(line, first) if (at := line.find(m)) < own]
    if line.count(" ") >= INTRODUCED_SPACES:
        found = [r for r in found_inside(view, line, BARE_MIN_CHARS) if r not in tried]
        tried += [(at, m) for at, m in found if at < own][:INSIDE_READINGS]
    # exact readings not known well, the line's own first: (start, end); a template of little
    # literal text (`<a>: <b>`) holds anything
    wrappers = [(_opening_value_end(first), len(line))] if _holds_values(first) else []
    for at, msg in tried:
        if any(s < at and at + len(msg) <= e for s, e in wrappers):
            continue  # (a value of a message the line holds, not a message of its own)
        ranking = rank(view, msg)
        hit = ranking.hits[0] if ranking.hits else None
        if hit is not None and (
            _known_well(hit, msg, coverage)
            or (
                (_introduced(line[:at] if at >= 0 else "") or _labels_value(hit))
                and _heads_line(hit, msg)
                and _prose_to_end(hit)
            )
        ):
            return (hit.raw, msg, ranking, False)
        if hit is not None and hit.kind == "exact":
            if r := _trimmed(view, msg, hit, coverage):
                return r
            if _holds_values(ranking):
                wrappers.append((at, at + len(msg)))
    return None


def _opening_value_end(ranking: Ranking) -> int:
    """Where the line's best exact reading stops holding the writer's words: after the value
    of its opening placeholder when that one is named for one thing (not prose) and took words
    with spaces (`<function>() got an unexpected keyword argument <name>` reading `I get
    Reasoning parsing error: Glm45Detector.__init__() got ...` with the sentence's lead as the
    function): a message read from inside that value is no value of the line's message; else
    0 (the reading holds the whole line)."""
    hit = ranking.hits[0]
    if not _opens_with_one_value(compile_template(hit.cand.template)):
        return 0
    value = hit.values[0][1] if hit.values else ""
    return len(value) if " " in value.strip() else 0


def _holds_values(ranking: Ranking) -> bool:
    """Whether a reading's best hit is an exact match of a template with literal text enough
    to be a message whose values hold the rest (`Ignore import error when loading <name>.
    <e>`): a message found inside those values is one of them, not one of the line's own."""
    hit = ranking.hits[0] if ranking.hits else None
    return hit is not None and hit.kind == "exact" and hit.cand.literal_len >= BARE_MIN_CHARS


_VALUE_BREAK = compile_regex(
    r"[.!?;,]\s|[\u3000-\u303f\uff01-\uff1f]|\s+[\u4e00-\u9fff]|\s\(|\s[-\u2013\u2014]\s"
    r"|\s(?:and|but|when|while|after|before|if|so|because|which|then|during|whenever|every"
    r"|each|since|until|once)\s"
)


def _value_break(value: str, breaking: Pattern[str] | None = None) -> int:
    """Where the writer's own words go on inside a message's last value: the first clause
    break (a sentence end, a conjunction, an aside in parentheses, CJK prose; `breaking`: other
    breaks) outside the value's brackets and quotes (:func:`first_break`); -1 if none."""
    return first_break(value, breaking or _VALUE_BREAK)


def _trimmed(view: CatalogView, msg: str, hit: Hit, coverage: float) -> _Reading | None:
    """A message written into prose that goes on after it (`I get <message> and the server
    exits`, `[Bug] <message> when serving X`): an exact match whose last placeholder took
    the prose to the line's end, not known well for it, read again up to the first clause
    break inside that value; kept when the same template then is known well."""
    cut = _cut_in_last_value(hit, msg)
    if cut is None:
        return None
    ranking = rank(view, cut)
    again = ranking.hits[0] if ranking.hits else None
    if again is None or again.kind != "exact" or again.pos != hit.pos:
        return None
    return (again.raw, cut, ranking, False) if _known_well(again, cut, coverage) else None


def bare_messages(
    text: str,
    view: CatalogView,
    *,
    coverage: float = 0.5,
    release: Mapping[str, str] | None = None,
    quoted: bool = False,
    records_only: bool = False,
) -> tuple[Explanation, ...]:
    """Explanations for lines (or parts of lines; `quoted`: only those in quotes or backticks;
    `records_only`: only log records' whole messages)
    that are catalogued messages, in the order
    they appear, one per entry; each error has an empty type (none was printed). Of the
    readings of one line, the best-scored wins (a trailing placeholder would otherwise take
    whatever follows the message). An exact match must pin down `coverage` of the line with
    its literal text (less when an exception was seen inside the line: long values)."""
    found: dict[int, tuple[float, Explanation]] = {}
    for no, cands, heads, printed in _bare_candidates(text, quoted, records_only):
        best = _best_reading(view, cands, heads, printed, coverage)
        if best is None:
            continue
        readings = [best]
        # the other spans the line quotes whole, each its own message when the catalog knows
        # it well (`errors like "X" ... followed by "Y"`: a post that quotes two)
        for span in _other_quotes(printed, best[1], cands[0] if cands else ""):
            more = _best_reading(view, [span], _sentence_heads(span), printed, coverage)
            if more is not None and more[2].hits[0].pos != best[2].hits[0].pos:
                readings.append(more)
        for raw, msg, ranking, whole in readings:
            pos = ranking.hits[0].pos
            if (pos in found and found[pos][0] >= raw) or _source_text(
                ranking.hits[0], text, no, msg
            ):
                continue
            known = {
                h.id
                for h in ranking.hits
                if _known_well(h, msg, coverage, whole) or _heads_line(h, msg)
            }
            found[pos] = (raw, _as_error(view, msg, no, ranking, known, text, release))
    kept = [e for _, e in found.values()]
    if not kept and not quoted and not records_only:
        return (
            _dump_heads(text, view, release)
            or _status_lines(text)
            or _quoted_fragments(text, view, release)
        )
    return tuple(sorted((e for e in kept if not _overlapped(e, kept)), key=_line_of))


OTHER_QUOTES = 3
"""Spans of one line, besides its best reading, read as messages of their own at most."""


def _other_quotes(printed: Mapping[str, str], msg: str, line: str) -> list[str]:
    """The spans the line quotes whole (`printed` as "quoted") that lie apart from the message
    read from it (a message read from the line's rest after a colon takes in what it quotes)."""
    at = line.find(msg)
    if at < 0:
        return []
    out = []
    for q, how in printed.items():
        start = line.find(q)
        if how == "quoted" and start >= 0 and (start + len(q) <= at or start >= at + len(msg)):
            out.append(q)
    return out[:OTHER_QUOTES]


def _with_causes(
    view: CatalogView,
    exps: list[Explanation],
    cutoff: float,
    text: str,
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """`exps` with the exceptions of each one's chain (`raise ... from`, or raised while
    handling an earlier one: printed above it, root cause first) explained right before it,
    each with a note saying what it led to: the wrapper a program raised last (`RuntimeError:
    Worker failed to start`) often says less than the error that caused it. Up to ERRORS in
    all; a chained exception already explained in the paste is not repeated."""
    if not any(x.error.chain for x in exps):
        return exps
    said = {(x.error.type, x.error.message) for x in exps}
    out: list[Explanation] = []
    room = ERRORS - len(exps)
    for x in exps:
        for c in x.error.chain:
            if room <= 0 or (c.type, c.message) in said or not (c.type or c.message):
                continue
            said.add((c.type, c.message))
            exp = _explain_one(c, view, cutoff, text, release)
            note = CAUSE_NOTE if x.error.chain_relation == "cause" else CONTEXT_NOTE
            out.append(replace(exp, notes=(note.format(x.error.type or "error"), *exp.notes)))
            room -= 1
        out.append(x)
    return out


CAUSE_NOTE = "raised earlier in the same chain, it caused the {} below (`raise ... from`)"
CONTEXT_NOTE = "raised earlier in the same chain: the {} below was raised while handling it"


def _with_carried(
    view: CatalogView,
    exps: list[Explanation],
    text: str,
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """`exps` with the error each one carries in its last value (:func:`_carried`) right after
    it, up to ERRORS in all."""
    if len(exps) >= ERRORS or not any(x.matches and x.matches[0].values for x in exps):
        return exps
    out: list[Explanation] = []
    said = [x.error.message for x in exps]
    for x in exps:
        out.append(x)
        out += _carried(view, x, said, text, release)
    return out[: max(ERRORS, len(exps))]


def _carried(
    view: CatalogView,
    x: Explanation,
    said: list[str],
    text: str,
    release: Mapping[str, str] | None,
) -> list[Explanation]:
    """The error that an error read as a catalogued message carries in its last value (`Error in
    detect_and_parse: <e>`, `Failed to decode JPEG on GPU, falling back to CPU. Error: <e>`
    holding `CUDA out of memory. Tried to allocate ...`): what the code that logged the line
    caught, an error of its own when the catalog knows it well (another template, at
    INSIDE_SCORE or more) and not an error of the paste already (`said`). The outer message says
    where it was caught, the value what went wrong."""
    top = x.matches[0] if x.matches else None
    if top is None or top.kind != "exact" or not top.values:
        return []
    if compile_template(top.entry.template).literals[-1].strip():
        return []  # (the last value is not the message's end)
    value = top.values[-1][1].strip()
    typed = _TYPED_VALUE.match(value)
    exc, msg = (typed["type"], typed["msg"].strip()) if typed else ("", value)
    if len(msg) < BARE_MIN_CHARS or not _worded(msg) or any(s.startswith(msg) for s in said):
        return []  # (an error of the paste already: its own traceback, its own line)
    ranking = rank(view, msg, exc)
    hit = ranking.hits[0] if ranking.hits else None
    if (
        hit is None
        or hit.score < INSIDE_SCORE
        or hit.template == top.entry.template
        or not _known_well(hit, msg, 0.5)
    ):
        return []
    said.append(msg)
    inner = _as_error(view, msg, x.error.line_no, ranking, _twins(ranking, hit), text, release)
    error = replace(inner.error, type=exc) if exc else inner.error
    notes = (CARRIED_NOTE, *(n for n in inner.notes if n != CATALOGUED_NOTE))
    return [replace(inner, error=error, notes=notes)]


_TYPED_VALUE = compile_regex(
    r"(?P<type>[A-Za-z_][\w.]{0,100}(?:Error|Exception|Interrupt|Exit)): (?P<msg>.{1,4000})", 16
)
"""A value printed as `Type: message` (`str(e)` of a wrapper, or `f"{type(e).__name__}: {e}"`)."""
CARRIED_NOTE = (
    "the line above carries this message in its value: the error the code that logged it had caught"
)


def _quoted_fragments(
    text: str, view: CatalogView, release: Mapping[str, str] | None
) -> tuple[Explanation, ...]:
    """Parts of messages the paster quoted, when nothing else in the paste is an error: a span in
    quotes or backticks of at least FRAGMENT_MIN_WORDS words and CUT_KNOWN characters (as a cut
    message must have; a shorter one only as a template's head, HEAD_MIN_CHARS) that one
    template's literal text holds nearly word for word (`"incompatible with current LoRA memory
    pool configuration"` of `LoRA adapter <name> with rank <r> is incompatible with the current
    LoRA memory pool configuration. Please ...`), far ahead of any other template; at
    FRAGMENT_CAP at most: a part of a message pins down less than the whole. The first
    FRAGMENT_SPANS such spans are looked up (a long post's quotes each cost a fuzzy lookup)."""
    from errexplain.match.rank import held_by
    from errexplain.parse.lines import clean_lines

    out: list[Explanation] = []
    taken: set[str] = set()
    for ln in clean_lines(text):
        for span in _quoted(ln.text, HEAD_MIN_CHARS, asides=True):
            frag = normalize_ws(span.strip("`'\""))
            short = len(frag) < CUT_KNOWN or len(frag.split()) < FRAGMENT_MIN_WORDS
            if frag in taken or (
                short and (len(frag) < HEAD_MIN_CHARS or len(frag.split()) < HEAD_MIN_WORDS)
            ):
                continue
            if len(taken) >= FRAGMENT_SPANS:
                return tuple(out)
            taken.add(frag)
            held = held_by(view, frag)
            if not held or held[0][0] < FRAGMENT_HELD:
                continue
            share, best = held[0]
            if short and not (share == 1.0 and _heads(best.template, frag)):
                continue
            # one check's wordings: the same literal text (placeholders renamed) or lineage
            words = compile_template(best.template).literals
            kin = {
                c.lineage or c.id for _, c in held if compile_template(c.template).literals == words
            }
            same = [(a, c) for a, c in held if (c.lineage or c.id) in kin]
            rival = next((a for a, c in held if (a, c) not in same), 0.0)
            if rival > share - FRAGMENT_LEAD:
                continue
            # the check's current wording first (an older one is a lineage's tail)
            sites = sorted((c for a, c in same if a == share), key=lambda c: c.lineage is not None)
            hits = tuple(
                Hit(
                    c,
                    share,
                    "fuzzy",
                    (),
                    (f"the paste quotes this part of its text ({share:.0%} alike)",),
                )
                for c in sites
            )
            ranking = Ranking(hits, (), len(hits) > 1)
            exp = _as_error(view, frag, ln.no, ranking, {c.id for c in sites}, text, release)
            score = round(share * FRAGMENT_CAP, 3)
            matches = tuple(replace(m, score=min(m.score, score)) for m in exp.matches)
            notes = (FRAGMENT_NOTE, *(n for n in exp.notes if n != CATALOGUED_NOTE))
            if matches:
                out.append(replace(exp, matches=matches, notes=notes))
    return tuple(out)


def _heads(template: str, frag: str) -> bool:
    """Whether `frag` is the start of the template's literal head, word for word."""
    head = normalize_ws(compile_template(template).literals[0])
    return head.startswith(frag) and (
        len(head) == len(frag) or not head[len(frag) : len(frag) + 1].isalnum()
    )


FRAGMENT_MIN_WORDS, FRAGMENT_SPANS = 5, 24
HEAD_MIN_CHARS, HEAD_MIN_WORDS = 16, 3
"""A shorter quoted span is taken only when it is the literal head of the one template that
holds it whole (`"Tokens not accepted"` of `Tokens not accepted: <token> ...`): the start of a
message is what posters quote of it."""
FRAGMENT_HELD, FRAGMENT_LEAD, FRAGMENT_CAP = 0.9, 0.1, 0.85
"""A template holds the fragment when its literal text has it this alike (rapidfuzz
partial_ratio), this far ahead of every other template; the answer's score at most."""
FRAGMENT_NOTE = (
    "no error line in the text: the paste quotes part of this message, which holds the rest"
)


DUMP_CAP = 0.85
"""Highest score of a record read as the head of a dump: its literal text is short (`<name>
debug info:`), and only its head and one word of value say which template it is."""
DUMP_LITERAL = 10
DUMP_REASON = (
    "the record is this template's text up to its last placeholder, which holds the lines after it"
)
DUMP_NOTE = (
    "no error line in the text: this record heads a dump, the lines after it are its value "
    "(what was printed, not an exception)"
)


def _dump_heads(
    text: str, view: CatalogView, release: Mapping[str, str] | None
) -> tuple[Explanation, ...]:
    """Log records that head a dump (`[... TP1] Scheduler debug info:` and the state it
    printed on the lines after it, without log prefixes), when the paste holds no error: each
    is a catalogued message whose last placeholder, after the record's closing colon, holds the
    lines that follow. Read only from an exact match whose template ends with that placeholder,
    whose literal text before it ends the record, and whose other values are one word each;
    at DUMP_CAP, once per record text (every rank prints it)."""
    from itertools import pairwise

    from errexplain.parse.lines import TRACEBACK, clean_lines

    lines = [ln for ln in clean_lines(text) if ln.text.strip()]
    out: list[Explanation] = []
    seen: set[str] = set()
    for ln, nxt in pairwise(lines):
        head = ln.text.strip()
        if not ln.record or not _announces(head) or head in seen or nxt.record:
            continue
        if TRACEBACK in nxt.text or ln.fence or nxt.fence:
            continue
        reading = f"{head} {nxt.text.strip()}"
        ranking = rank(view, reading, fuzzy=False, cutoff=0.0)  # (short literal text)
        hit = ranking.hits[0] if ranking.hits else None
        if hit is None or hit.kind != "exact" or not hit.values:
            continue
        literals = compile_template(hit.template).literals
        if (
            literals[-1].strip()
            or len(literals) < 2
            or not head.endswith(literals[-2].strip())
            or hit.cand.literal_len < DUMP_LITERAL
            or any(len(v.split()) != 1 for _, v in hit.values[:-1])
        ):
            continue
        seen.add(head)
        exp = _as_error(view, reading, ln.no, ranking, _twins(ranking, hit), text, release)
        matches = tuple(
            replace(m, score=DUMP_CAP, reasons=(*m.reasons, DUMP_REASON)) for m in exp.matches
        )
        notes = tuple(n for n in exp.notes if n != CATALOGUED_NOTE)
        out.append(replace(exp, matches=matches, notes=(DUMP_NOTE, *notes)))
    return tuple(out)


STATUS_NOTE = "no exception line in the text: this line is an HTTP error status's own text"
STATUS_GENERIC = (
    "the standard text of an HTTP error status, which the web server (or a proxy in front of "
    "it) sends when it has nothing more to say: it names no cause. The cause is in the log of "
    "the server that answered, at the time of the request (for a 500, the traceback of the "
    "request handler; for a 502/503/504, the upstream server being down, starting or too slow)"
)


def _status_lines(text: str) -> tuple[Explanation, ...]:
    """A paste whose only error is an HTTP status text (`Internal Server Error` answered to a
    curl): that line, explained as such; nothing when there is none."""
    from errexplain.parse.lines import clean_lines

    for ln in clean_lines(text):
        if _status_text(ln.text):
            error = RaisedError("", ln.text.strip(), line_no=ln.no)
            return (Explanation(error, (), (), False, STATUS_GENERIC, (STATUS_NOTE,)),)
    return ()


def _line_of(exp: Explanation) -> int:
    return exp.error.line_no or 0


def _overlapped(exp: Explanation, others: Sequence[Explanation]) -> bool:
    """Whether another line reading holds this one's message and more, from a line near it
    (the same message read twice through lines joined across the paster's wrapping: a part
    from the line before, the whole from its own line), or from anywhere when this one is its
    start (the same record printed by another rank, the copy cut short by the paste:
    `Failed to initialize` under eight `Failed to initialize QuickAllReduce: <e>`)."""
    msg, no = exp.error.message, _line_of(exp)
    bare = msg.strip("`'\" ")
    return any(
        o is not exp
        and len(o.error.message) > len(msg)
        and bare in o.error.message
        and (abs(_line_of(o) - no) <= 2 or o.error.message.startswith(bare))
        for o in others
    )


def _as_error(
    view: CatalogView,
    msg: str,
    no: int,
    ranking: Ranking,
    known: set[str],
    text: str,
    release: Mapping[str, str] | None,
) -> Explanation:
    """A line of the paste that is a catalogued message (no exception line printed), explained
    as an error of its own with the entries in `known`: the paste's release (version strings,
    a stated release) orders same-text wordings and pins the source, as for any error."""
    # a cut line known well may score under the cutoff (`_with_cut`): its hits stay matches
    low = min((h.raw for h in ranking.hits if h.id in known), default=FUZZY_CUTOFF)
    error = RaisedError("", msg, line_no=no)
    full = _explain_error(error, view, text=text, release=release, cutoff=min(FUZZY_CUTOFF, low))
    # (read without a handler's lead, the message it passed on is the known line's error; a
    # site of a known entry's very text is known too: the paste may name its model)
    texts = {h.template for h in ranking.hits if h.id in known}

    def is_known(m: Match) -> bool:
        return m.entry.id in known or m.entry.template in texts

    matches = tuple(m for m in full.matches if full.untagged or is_known(m))
    alike = tuple(m for m in full.nearest if is_known(m)) if full.look_alike else ()
    if not matches and not alike:  # (the release may reorder, never remove, a known candidate)
        matches = tuple(_to_match(view, h) for h in ranking.hits if h.id in known)
    notes: tuple[str, ...] = (CATALOGUED_NOTE,)
    # (a candidate another project's claim moved to the nearest stays there: a look-alike)
    out = replace(full, matches=matches, nearest=alike, generic=None)
    if _quiet(out):
        notes += (QUIET_NOTE,)
    notes += tuple(n for n in full.notes if n not in notes)
    return replace(out, notes=notes)


CATALOGUED_NOTE = "no exception line in the text: this line reads as a catalogued message"

QUIET_NOTE = (
    "a warning the program logged that reports no failure by its words: often context "
    "(a default chosen, a setting adjusted), not the cause"
)


def pasted_errors(text: str) -> tuple[RaisedError, ...]:
    """The errors of a paste handed over as one message (`lookup`): a traceback, a log, a JSON
    error body or a quoted error. Empty when the text is one bare message (`Type: message` or
    no exception at all), which is explained as it stands."""
    errors = parse_traceback(text)
    if len(errors) == 1 and errors[0].form == "line" and not errors[0].chain:
        return ()
    return errors


def explain_message(
    message: str,
    exc_type: str,
    view: CatalogView,
    *,
    cutoff: float = FUZZY_CUTOFF,
    release: Mapping[str, str] | None = None,
) -> Explanation:
    """Explain a bare message (no traceback)."""
    error = RaisedError(exc_type, message, form="line")
    return explain_error(error, view, cutoff=cutoff, text=message, release=release)


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
