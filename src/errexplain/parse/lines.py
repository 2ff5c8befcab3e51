"""Single lines of a paste, for the traceback parser: cleaning and classification.

`clean_lines` gives one `Line` per physical line with the noise removed: terminal escapes,
carriage returns, markdown fences, blockquotes, inline backticks, issue-title tags and log
prefixes (timestamps with TP/DP/EP ranks, `[rankN]:`, glog, vLLM-style and `(Worker pid=N)`
prefixes), keeping the rank label and whether the line started a log record. The classifiers
(`line_kind`, `exception_head`, `embedded_exception`) say what a cleaned line is. Every pattern
is anchored or bounded, so all of this is linear in the size of the input.
"""

from __future__ import annotations

import builtins

from errexplain._startup import TYPE_CHECKING, compile_regex, edge_before, memo, named_tuple

if TYPE_CHECKING:
    import re
    from collections.abc import Collection, Iterable, Iterator, Sequence

    LabelBlock = tuple[int, int, str, re.Pattern[str], bool]
    """(first index, index past the last, kind, pattern, whether the labels name several
    sources) of lines a tool labelled alike."""

_ESCAPES = compile_regex(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?"
    r"|\x9b[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\ufeff]"
)
_BARE_SGR = compile_regex(r"(?:\^\[|(?<!\x1b))\[\d{1,3}(?:;\d{1,3}){0,15}m")
"""A terminal's colour code (`\\x1b[31m`) whose escape character was lost on the way to the
paste (a log file shown on a web page: `[31mERROR[0m`), or shown as `^[`; read only in a paste
that holds a reset code (`[0m`), which coloured text always ends with."""
_SGR_RESETS = ("[0m", "[0;0m", "[39m", "^[[")
_LEVEL = r"(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)"
_STAMP = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?"
_ISO_T = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
"""An ISO stamp with its `T` (a collector's, journald's `short-iso`, pm2's, CloudWatch's, Loki's),
to the second: each prefix adds the fraction and zone its tool writes."""
_AT_FILE = r"(?: \[[\w.-]{1,100}\.py:\d{1,7}\])?"
_LOGGER = r"(?: +[a-z_]\w{0,60}(?:\.[a-z_]\w{0,60}){1,10}:(?= ))"
"""A dotted logger name after the level (`%(levelname)s %(name)s: %(message)s`:
`ERROR sglang.srt.managers.scheduler: ...`); every part starts lower-case, so an exception
named with its module (`torch.OutOfMemoryError: ...`) is not one."""
_RAY_PREFIX = compile_regex(
    r"\((?:(?P<name>[\w.:-]{1,200})(?: rank=(?P<rank>\d{1,6}))? )?pid=\d{1,9}"
    r"(?:, ip=[\d.:]{1,60})?\) ?"
)
"""A ray worker's stream prefix (`(SGLangWorker pid=38138) `, a Ray Serve replica's
`(ServeReplica:default:SGLangServer pid=1234, ip=10.0.0.5) `, an unnamed task's `(pid=77) `)."""

# (pattern, is_stream): a stream prefix names the process a line came from and is printed on
# every line; any other prefix starts a new log record.
_PREFIXES: tuple[tuple[re.Pattern[str], bool], ...] = (
    # container runtimes (CRI) write each line as `<RFC 3339 stamp> stdout|stderr F|P `
    (compile_regex(rf"{_STAMP}(?:Z|[+-]\d\d:?\d\d) (?:stdout|stderr) [FP] "), True),
    # journald / syslog: `Jan 02 10:00:00 host unit[pid]: `, with `journalctl -o
    # short-precise` its microseconds, `-o short-full` its weekday, year and zone (`Fri
    # 2026-12-04 10:11:12 UTC host unit[pid]: `), `-o short-iso` an ISO stamp with its offset
    # (`2026-12-04T10:11:12+0000 host unit[pid]: `); before the collector's stamp below, which
    # would take the ISO stamp alone
    (
        compile_regex(
            r"(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,9})? [\w.-]{1,100} [\w./@-]{1,100}"
            r"(?:\[\d{1,9}\])?"
            r"|(?:[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]{2,5}"
            rf"|{_ISO_T}(?:[.,]\d{{1,9}})?(?:Z|[+-]\d\d:?\d\d))"
            r" [\w.-]{1,100} [\w./@-]{1,100}\[\d{1,9}\]): "
        ),
        True,
    ),
    # `aws logs tail` (CloudWatch): the event's stamp and its log stream, a path
    # (`2026-12-04T10:11:12.880000+00:00 ecs/sglang/320c2c3e42174603b624e0a08fd5e11e `)
    (
        compile_regex(
            rf"{_ISO_T}\.\d{{6}}[+-]\d\d:\d\d (?!{_LEVEL}\b)"
            r"[\w.$\[\]-]{1,256}/[\w.$/\[\]-]{1,512} "
        ),
        True,
    ),
    # Loki's `logcli query`: the entry's stamp (UTC or local) and its stream's label set,
    # `2026-12-04T10:11:12Z {app="sglang", pod="sglang-0"} ` (`{}` when every entry shares
    # them: logcli prints them once, as "Common labels")
    (
        compile_regex(
            rf"{_ISO_T}(?:\.\d{{1,9}})?(?:Z|[+-]\d\d:\d\d) "
            r'\{(?:\w{1,100}="[^"\n]{0,500}"(?:, ?\w{1,100}="[^"\n]{0,500}"){0,30})?\} '
        ),
        True,
    ),
    # a collector's UTC stamp on every line it read (`docker logs -t`, `kubectl logs
    # --timestamps`, a CI runner's raw log: `2026-01-02T10:00:00.123456789Z `): the line
    # follows as the program wrote it (`WARNING:pkg.mod:...` too); a stamp the program's own
    # logger wrote is followed by its level or a separator (`... - name - ERROR -`,
    # `... | ERROR |`, `...Z  INFO x:`), unless the level carries a stamp of its own (vLLM's
    # `INFO 11-26 14:23:34 ...`: the collector's stamp is before the program's whole prefix)
    (
        compile_regex(
            rf"{_ISO_T}(?:\.\d{{1,9}})?Z "
            rf"(?! *(?:[-|] |{_LEVEL} (?!(?:\d\d-\d\d )?\d\d:\d\d:\d\d)|\[{_LEVEL}\]))"
        ),
        True,
    ),
    # BuildKit's plain progress (`docker build --progress=plain`): the build step and the
    # seconds since it started, `#12 3.210 `, on each line a step printed
    (compile_regex(r"#\d{1,5} \d{1,6}\.\d{3} "), True),
    # kubectl logs --prefix: `[pod/name/container] `
    (compile_regex(r"\[pod/[\w.-]{1,253}/[\w.-]{1,253}\] "), True),
    # a job runner's source label on every line it relays (`job-20251218-3da56 >> `)
    (compile_regex(r"[A-Za-z0-9][\w.-]{0,252} >> "), True),
    (
        compile_regex(
            rf"\[{_STAMP}(?:Z|[+-]\d\d:?\d\d)?(?P<rank>(?: [A-Z][A-Z_]{{0,9}}\d{{1,6}}){{0,8}})\] ?"
        ),
        False,
    ),
    # the same with its start cut off by the paster's selection (`026-05-28 00:11:09 TP0] `):
    # the closing bracket after a stamp and ranks says it is one
    (
        compile_regex(
            r"(?:\d{1,4}-)?\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?"
            r"(?P<rank>(?: [A-Z][A-Z_]{0,9}\d{1,6}){0,8})\] ?"
        ),
        False,
    ),
    (compile_regex(r"\[rank(?P<rank>\d{1,6})\]: ?"), True),
    # Open MPI's `mpirun --tag-output`: `[jobid,rank]<stdout>:` (or `<stderr>:`) on every line
    (compile_regex(r"\[\d{1,9},(?P<rank>\d{1,6})\]<std(?:out|err)>: ?"), True),
    # docker compose: `worker-1  | `, `sglang_server_1  | ` (the container, on every line);
    # `docker service logs` (swarm): `sglang_server.1.x8k2j3l4m5n6@gpu-node-07    | `
    (compile_regex(r"[A-Za-z0-9][\w.-]{0,100}[-_]\d{1,4} {1,40}\| ?"), True),
    (
        compile_regex(r"[A-Za-z0-9][\w-]{0,100}\.\d{1,4}\.[a-z0-9]{6,30}@[\w.-]{1,100} {1,40}\| ?"),
        True,
    ),
    # pm2's `pm2 logs`: `0|sglang   | ` (the process's id and name, padded), and with `--time`
    # the stamp pm2 wrote after it (`0|sglang  | 2026-12-04T10:11:12: `)
    (
        compile_regex(
            r"\d{1,4}\|[^\s|]{1,100} +\| ?"
            rf"(?:{_STAMP}(?: ?(?:Z|[+-]\d\d:?\d\d))?: )?"
        ),
        True,
    ),
    # the same stamp that pm2 writes into its own log files (`~/.pm2/logs/app-error.log`, with
    # `--time`): `2026-12-04T10:11:12: `
    (
        compile_regex(rf"{_ISO_T}(?:[.,]\d{{1,9}})?(?: ?(?:Z|[+-]\d\d:?\d\d))?: "),
        True,
    ),
    # SkyPilot's job log: `(head, rank=0, pid=2516) `, `(worker1, rank=1, pid=2517, ip=10.0.0.2) `
    # (the ip first in some releases), `(task, pid=2516) `, `(setup pid=2410) `
    (
        compile_regex(
            r"\((?:head|worker\d{1,4}|task|setup)(?:, rank=(?P<rank>\d{1,6}))?"
            r"(?:,? (?:pid=\d{1,9}|ip=[\d.:]{1,60})){1,2}\) ?"
        ),
        True,
    ),
    # TorchX's local scheduler (NeMo-Run's LocalExecutor): the role and its replica before each
    # line it relays (`llama3_8b/0 `), seen before torchrun's prefix or a glog record only
    (
        compile_regex(
            r"[A-Za-z_][\w.-]{0,100}/\d{1,4} (?=\[[a-z]{1,20}\d{1,6}\]:|[DIWEF]\d{4} \d\d:\d\d)"
        ),
        True,
    ),
    # torchrun's `--tee` / `--redirects`: the role and local rank, `[default0]:` (often with
    # torch's own `[rank0]: ` after it)
    (compile_regex(r"\[[a-z]{1,20}(?P<rank>\d{1,6})\]: ?"), True),
    (compile_regex(r"\[[DIWEF]\d{3,4} \d\d:\d\d:\d\d[^\]\n]{0,200}\] ?"), False),
    (compile_regex(r"[DIWEF]\d{4} \d\d:\d\d:\d\d\.\d{1,9} +\d{1,9} [^\]\s]{1,200}\] ?"), False),
    (
        compile_regex(
            rf"{_LEVEL} \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{{1,9}})? "
            r"\[[^\]\n]{0,200}\] ?"
        ),
        False,
    ),
    # vLLM's logger before 0.6.4 (`%(levelname)s %(asctime)s %(filename)s:%(lineno)d] `, the
    # date as `%m-%d %H:%M:%S`), which sglang 0.1-0.3 printed through its vLLM-based loaders:
    # `INFO 11-26 14:23:34 weight_utils.py:243] `; the date is left out by some configurations
    (
        compile_regex(
            rf"{_LEVEL} (?:\d\d-\d\d )?\d\d:\d\d:\d\d(?:\.\d{{1,9}})? "
            r"[\w.-]{1,100}\.py:\d{1,7}\] ?"
        ),
        False,
    ),
    (_RAY_PREFIX, True),
    (
        compile_regex(
            rf"{_STAMP}(?:Z|[+-]\d\d:?\d\d)?(?: - [\w.]{{1,100}} - {_LEVEL} -"
            rf"| \| {_LEVEL} {{0,8}}\|(?: [\w.<>:-]{{1,200}} -)?| +{_LEVEL}\b:?{_LOGGER}?)?"
            rf"{_AT_FILE} ?"
        ),
        False,
    ),
    # the level first, then an ISO stamp (Google Cloud Logging, some container log viewers)
    # (and the logging call's `[file.py:123]` after them, a common `%(filename)s:%(lineno)d`)
    (compile_regex(rf"{_LEVEL} {_STAMP}(?:Z|[+-]\d\d:?\d\d)?{_AT_FILE} ?"), False),
    (compile_regex(r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,9})? ?"), False),
    # sglang's diffusion runtime (`[%m-%d %H:%M:%S] `) and sglang 0.3 (`[%H:%M:%S TP0] `)
    (
        compile_regex(
            r"\[(?:\d\d-\d\d )?\d\d:\d\d:\d\d(?:[.,]\d{1,9})?"
            r"(?P<rank>(?: [A-Z][A-Z_]{0,9}\d{1,6}){0,8})\] ?"
        ),
        False,
    ),
    (compile_regex(rf"\[{_LEVEL}\] ?"), False),
    # a level and the logging call's `[file.py:123]`, the stamp between them left out by the
    # paster (`WARNING [fused_moe.py:1167] `)
    (compile_regex(rf"{_LEVEL} \[[\w.-]{{1,100}}\.py:\d{{1,7}}\] ?"), False),
    # a level and the logging call's `file.py:123:` after sglang's stamp, as a configured
    # format prints them (`[2026-03-16 10:16:49] WARNING server_args.py:890: `)
    (compile_regex(rf"{_LEVEL} [\w.-]{{1,100}}\.py:\d{{1,7}}: "), False),
    # Python's own warning line (`warnings.formatwarning`): `path.py:12: UserWarning: `
    (compile_regex(r"(?:\S{1,500}\.py|<[\w ]{1,100}>):\d{1,9}: [A-Z]\w{0,100}Warning: "), False),
    # sglang's prefix with its stamp left out by the paster (`[TP0] `, `[DP3 TP3 EP3 PP1] `)
    (compile_regex(r"\[(?P<rank>[A-Z]{2,4}\d{1,6}(?: [A-Z]{2,4}\d{1,6}){0,7})\] "), False),
    # a log prefix the paster elided: `[...] Received sigquit ...`
    (compile_regex(r"\[(?:\.{2,5}|…)\] "), False),
    (compile_regex(rf"{_LEVEL}:[\w.<>-]{{1,100}}:"), False),
    (compile_regex(rf"{_LEVEL}:\s+"), False),
)
# One pass that tells whether any prefix pattern can match (named groups made anonymous).
_GROUP_NAME = compile_regex(r"\(\?P<\w+>")
_ANY_PREFIX = compile_regex(
    "|".join("(?:" + _GROUP_NAME.sub("(?:", p.pattern) + ")" for p, _ in _PREFIXES)
)
_EMPHASIS = compile_regex(rf"[*_]{{1,6}}(?=(?:{_ANY_PREFIX.pattern}))")
"""Markdown emphasis marks a post put before a log record (`**_**[2025-08-21 20:15:54] ...`,
`**[... TP0] ...`): not part of the record, which its log prefix still opens."""
_NEEDS_CLEANING = compile_regex(
    rf"\A(?:\s*>|[-*] |\[|[*_]{{1,6}}\[|{_ANY_PREFIX.pattern})|`|~~~|Traceback|</?(?:pre|code)\b"
)
_HTML_OPEN = compile_regex(r"\s{0,40}(?:<(?:pre|code)(?: [^<>\n]{0,200})?>){1,2}")
_HTML_CLOSE = compile_regex(r"(?:</(?:pre|code)>){1,2}\s{0,40}\Z")
"""A page's or an issue's HTML code block (`<pre>`, `<pre><code>`) opening or closing on a line
of the error: read as a fence."""
_RANK_NAME = compile_regex(r"[A-Z]{1,4}\d{1,6}(?: [A-Z]{1,4}\d{1,6}){0,7}")
_TITLE_TAG = compile_regex(r"\[(?:bug|BUG|Bug|question|Question)\]:? ?")
_INFO_STRING = compile_regex(r"[\w+.-]{0,30}")
TRACEBACK = "Traceback (most recent call last):"
_GROUP_HEADER = "  + Exception Group " + TRACEBACK  # the margin Python gives a top-level group


def header_lead(lines: Sequence[Line], at: int, text: str | None = None) -> tuple[str, int]:
    """(the words a log record printed before the traceback header at `lines[at]` on its
    line, the index of the line that holds them): `Scheduler hit an exception:` of `[... TP0]
    Scheduler hit an exception: Traceback ...`, on the header's own line or on the line the
    cleaner split from it (the same number, just above). `text`: the header's line as read,
    if not `lines[at].text`. ("", at) when no record announced it."""
    head = lines[at].text if text is None else text
    lead = head[: head.index(TRACEBACK)].strip() if TRACEBACK in head else ""
    if not lead and at and lines[at - 1].no == lines[at].no:
        return lines[at - 1].text.strip(), at - 1  # (the record's line, split from it)
    return lead, at


# Line classification: the shapes of traceback lines.
FRAME = compile_regex(
    r'File "(?P<path>[^"\n]{1,1000})", {0,4}line {0,4}(?P<line>\d{1,9})'
    r"(?:, {0,4}in (?P<func>.{1,500}))?"
)
# a frame line whose head the paster cut off (`site-packages/pkg/x.py", line 12, in f`)
CUT_FRAME = compile_regex(
    r'(?P<path>[^"\s]{1,1000}\.py)", {0,4}line {0,4}(?P<line>\d{1,9})'
    r"(?:, {0,4}in (?P<func>.{1,500}))?"
)
# a frame as summaries and agents' notes condense it: `runner.py:490  __init__ -> self.capture()`,
# `pkg/x.py:766 forward`, `memory_pool.py:2253    return self.v_buffer[i]` (path:line, then a
# function and the code after an arrow or two spaces, or the code alone after two spaces); a
# logging format's `x.py:12 Some message` (one space, words) is none
SHORT_FRAME = compile_regex(
    r"(?P<path>[\w./\\-]{1,1000}\.py):(?P<line>\d{1,9})"
    r"(?:,? {1,10}(?:in {1,4})?(?P<func>[A-Za-z_<][\w.<>]{0,200})(?:\(\))?"
    r"(?: {0,10}(?:\u2192|->|=>) {0,10}(?P<acode>\S.{0,1000})| {2,40}(?P<scode>\S.{0,1000}))?"
    r"| {2,40}(?P<code>\S.{0,1000}))?"
)
_HEADER = compile_regex(r"(?:Exception Group )?Traceback \(most recent call last\):")
_GROUP = "+ Exception Group Traceback (most recent call last):"
CHAIN = {
    "The above exception was the direct cause of the following exception:": "cause",
    "During handling of the above exception, another exception occurred:": "context",
}
_NAME = r"(?:[A-Za-z_]\w{0,100}\.){0,10}"
_HEAD = compile_regex(
    rf"(?P<type>{_NAME}[A-Za-z_]\w{{0,100}})(?P<args>\([^()\n]{{0,300}}\))?(?::(?P<msg>.*))?"
)
# the type starts after anything but an ASCII identifier character or a dot: prose in a script
# with no spaces between words (`出现Exception: ...`) ends right before it; `Exception` itself
# (what `raise Exception(...)` prints) counts, a bare `Error:` does not; a class of an errors
# module counts whatever its name (`torch._dynamo.exc.Unsupported`,
# `triton.runtime.errors.OutOfResources`)
_EMBEDDED = compile_regex(
    edge_before(r"A-Za-z0-9_.\\") + r"(?<!except )(?<!class )"
    rf"(?P<type>{_NAME}(?:[A-Z]\w{{0,100}}(?:Error|Interrupt|Exit)"
    r"|(?:[A-Z]\w{0,100})?Exception)"
    rf"|{_NAME}(?:exc|errors?|exceptions?)\.[A-Z]\w{{0,100}})"
    r"(?P<args>\([^()\n]{0,300}\))?:(?: |$)"
)
"""An exception inside a line of text; not in code that names an exception class (`except
Exception:`, `class KVError(Exception):`). A string's break escape before it (`...:\\nopenai.
InternalServerError: ...` in a repr left whole) ends the text before it: the `n` is not the
name's."""
# Jupyter/IPython tracebacks: `File ~/x.py:70, in f(a, b)`, `Cell In[3], line 5`,
# `Input In [3], in <cell line: 5>()`; IPython 7 `/x.py in f(a)`; context lines `     68 code`
# and `---> 70 code`; the `OSError    Traceback (most recent call last)` header; the rule.
JFRAME = compile_regex(
    r"(?:File (?P<path>(?:[A-Za-z]:)?[^:\n]{1,1000}):(?P<line>\d{1,9})"
    r"|(?P<cell>Cell In ?\[\d{1,9}\]), line (?P<cline>\d{1,9})"
    r"|(?P<input>Input In ?\[\d{1,9}\]))"
    r"(?:,? in (?P<func><cell line: \d{1,9}>|[^\s(]{1,200})(?:\(.{0,1000}\))?)?"
)
JFRAME_OLD = compile_regex(
    r"(?P<path><ipython-input-[\w-]{1,100}>|\S{1,1000}\.py) in (?P<func>[^\s(]{1,200})"
    r"(?:\(.{0,1000}\))?"
)
JCONTEXT = compile_regex(r"(?P<arrow>-{1,20}>)? {0,10}(?P<no>\d{1,9})(?: (?P<code>.*))?|\(\.\.\.\)")
_JHEADER = compile_regex(
    rf"(?:(?P<type>{_NAME}[A-Za-z_]\w{{0,100}}) {{1,200}})?Traceback \(most recent call last\)"
)
_RULE = compile_regex(r"-{30,}")
_JHEADER_END = "Traceback (most recent call last)"
# `  at some_file.py:function` after a message: another runtime's stack line, not the message.
AT_LINE = compile_regex(
    r"at (?:\S{1,500} \()?[^\s:()]{1,500}\.\w{1,10}:[\w.<>]{1,200}(?::\d{1,9})?\)?"
)
_SEPARATOR = compile_regex(r"\+(?:-\+)?-{3,}(?: (?:\d+|\.\.\.) -{3,})?")
ELIDED = compile_regex(r"[\[(]?(?:\.{2,5}|…)[\])]?")
"""A line the paster put for the lines left out (`...`, `[...]`, `…`)."""
NOISE = compile_regex(
    r"Killed$|Aborted(?: \(core dumped\))?$|Segmentation fault|Received sigquit"
    r"|Exception ignored in|Fatal Python error|\S{1,500}\.py:\d{1,9}: \w{0,100}Warning:"
    r"|(?:##\[error\]|Error: )?Process completed with exit code -?\d{1,9}\.?$"
    r"|(?:ERROR: )?Job failed: exit code |make(?:\[\d{1,5}\])?: \*\*\* "
    r"|Process [A-Za-z]{0,20}Process-\d{1,6}(?::\d{1,6}){0,4}:$"
)
"""Lines that follow a failure but are no message of it: a process killed or dumped, a child's
sigquit, an exception Python ignored, a warning line, the line a CI runner or build tool adds
when the command failed (GitHub Actions' `Error: Process completed with exit code 1.`,
GitLab's `ERROR: Job failed: exit code 1`, make's `make: *** [build] Error 2`), and the line
`multiprocessing` prints before a failed child's traceback (`Process SpawnProcess-2:`, the next
child's after this one's): a message ends before them and they are not read as records."""
_SUFFIXES = ("Error", "Exception", "Warning", "Interrupt", "Exit")
_KNOWN = frozenset(
    {
        "BaseException",
        "Exception",
        "ExceptionGroup",
        "BaseExceptionGroup",
        "KeyboardInterrupt",
        "StopIteration",
        "StopAsyncIteration",
        "SystemExit",
        "GeneratorExit",
        "OutOfResources",
    }
)


if TYPE_CHECKING:
    from typing import NamedTuple

    class _LineFields(NamedTuple):
        no: int
        text: str
        rank: str | None = None
        prefix: str = ""
        stream: str = ""
        fence: bool = False
else:
    _LineFields = named_tuple(
        "_LineFields",
        ("no", "text", "rank", "prefix", "stream", "fence"),
        (None, "", "", False),
        module=__name__,
    )


class Line(_LineFields):
    """One cleaned line. `prefix` is the log prefix removed (empty if none), `stream` the
    per-line stream prefix (`[rank3]:`, `(TP0 pid=55)`), `fence` marks a markdown fence."""

    __slots__ = ()

    @property
    def record(self) -> bool:
        """Whether this line started a new log record."""
        return bool(self.prefix)


_CURLY = compile_regex("[\u2018\u2019\u201c\u201d]")
_STRAIGHT = {0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"'}
"""Typographic quotes an editor, a chat or a page put for the ones the program printed
(`cannot import name \u2018x\u2019 from \u2018pkg\u2019`, `File \u201cx.py\u201d, line 3`):
read as the straight ones; no catalogued message has a typographic quote."""


def straight_quotes(text: str) -> str:
    """`text` with typographic quotes read as the straight ones (:data:`_STRAIGHT`)."""
    return text.translate(_STRAIGHT) if _CURLY.search(text) else text


def readable(text: str) -> str:
    """`text` as the program printed it, as far as its characters go: typographic quotes read
    as the straight ones, colour codes that lost their escape character left out
    (:data:`_BARE_SGR`). The same text read again is the same."""
    text = straight_quotes(text)
    if any(reset in text for reset in _SGR_RESETS):
        text = _BARE_SGR.sub("", text)
        if "^M" in text:  # (`cat -v` shows control characters as `^X`: `^[[0m`, `^M`)
            text = text.replace("^M", "\r")
    return text


_TAB_AFTER_STAMP = compile_regex(rf"(?m)^({_ISO_T}(?:[.,]\d{{1,9}})?(?:Z|[+-]\d\d:?\d\d))\t")
"""A collector's stamp and the tab after it (a CloudWatch or Loki export's `stamp<TAB>line`):
one column separator, read as the one space the stamp's prefix ends with (four spaces, as any
other tab becomes, would indent the program's own line)."""


def _untabbed(text: str) -> str:
    """The text with each tab as four spaces, but for the one after a collector's stamp."""
    if "\t" not in text:
        return text
    return _TAB_AFTER_STAMP.sub(r"\1 ", text).replace("\t", "    ")


def clean_lines(text: str) -> list[Line]:
    """Split `text` into cleaned lines, numbered from 1 as in the input."""
    text = _ESCAPES.sub("", _one_break(readable(text)))
    if "&" in text and '"' not in text and _ESCAPED_QUOTE.search(text):
        text = _ENTITY.sub(_entity, text)  # a paste taken from a page's HTML source
    text = _untabbed(text).replace("\u00a0", " ")
    out: list[Line] = []
    blocks = _may_hold_fence(text), _may_hold_indented_block(text)
    raws, labels = _unlabelled(
        _at_margin(text.split("\n"), text.lstrip("\n")[:2], blocks[1]), blocks
    )
    for no, raw in _unmarked(_single_spaced(raws, 'File "' in text)):
        if raw[:2].lstrip()[:1] == "{" and (logged := _json_logged(raw)) is not None:
            out.extend(_cleaned(no, logged))  # a structured log record: its text, line by line
        elif (held := _held_lines(raw)) is not None:  # inside a string
            # (an error body holding a traceback, whole: the parser reads its message)
            out.extend(_cleaned(no, held) if held else [Line(no, raw.strip())])
        elif "pid=" in raw:  # a ray log whose line breaks the paste lost: one line per record
            for part in _unflattened(raw):
                out.extend(_clean_one(no, part))
        elif _NEEDS_CLEANING.search(raw):
            out.extend(_clean_one(no, raw))
        else:
            out.append(Line(no, raw))
    return _in_streams(out, labels) if labels else out


def unfolded_strings(text: str) -> str | None:
    """`text` with each line that holds text of several lines inside a string's escapes (a
    paste logged whole as a repr, `output.error='Traceback ...\\n  File ...'`, an escaped
    traceback in a log line) or flattened with `⏎` marks written out as those lines, as
    :func:`clean_lines` reads it, each now a line of its own; None when no line holds any.

    Read so, the lines are numbered as the program printed them, one number each, and what
    tells lines apart by number (a record beside an error, an error quoted apart) works as on
    the paste it was logged from. Lines a terminal cut at its width are joined first, as
    :func:`clean_lines` joins them (a flattened line cut into rows holds marks in each row).

    Lines :func:`clean_lines` reads otherwise are left as they are: a structured log record, an
    HTTP error body holding a traceback (its reader reads the message), a line whose string
    runs on below it (:func:`_runs_on`)."""
    if "\\n" not in text and BREAK_MARK not in text:
        return None
    out: list[str] = []
    changed, prev = False, 0
    text = _one_break(text)
    numbered = list(_unmarked(_numbered(text.split("\n"), 'File "' in text)))
    for k, (no, raw) in enumerate(numbered):
        lines = None
        if no == prev:  # (a part of a line flattened with `⏎` marks)
            changed = True
        prev = no
        if "\\n" not in raw or (raw[:2].lstrip()[:1] == "{" and _json_logged(raw) is not None):
            pass
        elif _runs_on(raw, numbered[k + 1][1] if k + 1 < len(numbered) else ""):
            pass  # (left to clean_lines, which reads the string's pieces as one line's)
        else:
            lines = _held_lines(raw) or None
        if lines is None:
            out.append(raw)
        else:
            out += lines
            changed = True
    return "\n".join(out) if changed else None


def _held_lines(raw: str) -> list[str] | None:
    """The lines a pasted line holds inside a string's escapes, read as lines of their own (by
    :func:`clean_lines`, and before it by :func:`unfolded_strings`): an escaped traceback, or a
    logged string's repr of several lines (:func:`escaped_text`). None when it holds none; no
    lines (`[]`) for an HTTP error body holding a traceback, read whole (the parser reads its
    message)."""
    if "\\n" in raw and (trace := _ESCAPED_TRACE.search(raw)):
        return [] if _body_holding_trace(raw) else _unescaped_lines(raw, trace.span(), ESCAPE_DEPTH)
    if raw.count("\\n") >= ESCAPED_BREAKS:
        return escaped_text(raw)
    return None


def _runs_on(raw: str, below: str) -> bool:
    """Whether the string a line holds runs on past the line's end, onto the line below it:
    the line ends inside it (no quote or bracket closes it) and the text goes on. Rows a
    terminal cut that were not joined again are such lines: read on lines of their own, their
    pieces would be read apart (a frame cut between two rows, a message between its pieces)."""
    return raw.rstrip()[-1:] not in _CLOSERS and bool(below.strip())


def _in_streams(lines: list[Line], labels: dict[int, tuple[str, str]]) -> list[Line]:
    """Each line in the stream its tool's label names (by line number), as a stream prefix would
    put it, unless a stream prefix of its own did; its rank the label's unless its log prefix
    named one (`0: [... TP0] ...`: TP0)."""
    return [
        ln
        if ln.stream or ln.no not in labels
        else Line(
            ln.no, ln.text, ln.rank or labels[ln.no][0], ln.prefix, labels[ln.no][1], ln.fence
        )
        for ln in lines
    ]


_TOOL_LABELS = (
    # `srun --label` (Slurm): the task's number, `0: `, on every line a task printed (padded
    # to the width of the highest: ` 3: ` beside `12: `)
    ("task", compile_regex(r" {0,4}(?P<label>\d{1,5}):(?: |$)")),
    # `grep` over several files (`-r`, `-A`): the file, `logs/node0.log:` on a matching line and
    # `logs/node0.log-` on a context line, with `-n` its line number after it the same way
    (
        "file",
        compile_regex(
            r"(?P<label>[\w./-]{0,200}\.(?:log|txt|out|err|stdout|stderr))[:-](?:\d{1,9}[:-])?"
        ),
    ),
    # moreutils' `ts` (its default `%b %d %H:%M:%S`): `Dec 07 13:03:42 `, a syslog stamp with no
    # host and unit after it (journald's stamp, host and unit are a log prefix of their own)
    (
        "stamp",
        compile_regex(
            r"(?P<label>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,9})?)(?: |$)"
            r"(?![\w.-]{1,100} [\w./@-]{1,100}(?:\[\d{1,9}\])?: )"
        ),
    ),
    # `pdsh`, `clush`, `ansible -m shell`'s host label: `gpu-node-03: `
    ("host", compile_regex(r"(?P<label>[A-Za-z0-9][\w.-]{0,62}):(?: |$)")),
    # `docker compose logs` of a service whose `container_name` is set (`sglang  | `, padded to
    # the longest name; `sglang-1  | ` is a stream prefix of its own)
    ("container", compile_regex(r"(?P<label>[A-Za-z0-9][\w.-]{0,100}) {1,40}\|(?: |$)")),
    # `stern`'s pod and container (`sglang-7d9f8c6b5-x2x4q sglang `)
    (
        "pod",
        compile_regex(r"(?P<label>[a-z0-9][a-z0-9.-]{0,252} [a-z0-9][a-z0-9-]{0,62})(?: |$)"),
    ),
    # `grep -n` (`12:` on a matching line, `13-` on a context line), `cat -n`, a viewer's gutter
    # (not a clock's or a date's first field: `10:00:01`, `2026-05-01`)
    (
        "line",
        compile_regex(
            r" {0,8}(?P<label>\d{1,9})(?:[:-](?!\d\d[:-]\d\d)|\t| {0,4}[|\u2502] ?| {2,}|$)"
        ),
    ),
)
"""The labels a tool puts before every line it relays (a task, a file, a stamp, a host, a line
number), read only when every line of the paste opens with one of the same kind
(:func:`_unlabelled`)."""
LABELLED_LEAST = 2
"""Lines a paste needs, all labelled alike, to be read as labelled (a label on one line alone is
the text's own: `0: ok`)."""
LABELLED_SOURCES = 64
"""Distinct tasks or hosts at most in a labelled paste, and at most one per two lines (a list of
`key: value` lines names each key once)."""
_NOT_HOST = compile_regex(r"(?:Error|Exception|Warning|Interrupt|Exit|Traceback)$|^[A-Z]\w*[a-z]$")
"""A label that reads as an exception's type or a capitalised word (`ValueError`, `Message`):
the line is a message, not a host's."""
_GROUP_SEPARATOR = "--"
"""The line `grep -A`/`-B`/`-C` prints between groups of lines: a blank line."""


def _unlabelled(
    raws: list[str], blocks: tuple[bool, bool]
) -> tuple[list[str], dict[int, tuple[str, str]]]:
    """The lines without the label a tool put before each of them, where every non-blank line
    of the paste, or of one of its code blocks (a post's prose around a relayed log), opens
    with a label of one kind (:data:`_TOOL_LABELS`, :func:`_label_blocks`), and, when the labels
    name several tasks or hosts (whose lines a launcher interleaves), each line's (rank,
    stream) by its number from 1: `0: Traceback ...` of `srun --label`, `node-3: ...` of
    `pdsh`, `12:...` and `13-...` of `grep -n -A`, whose line numbers only rise (a group
    separator `--` between them is a blank line), `logs/a.log:...` of `grep` over several
    files, `Dec 07 13:03:42 ...` of `ts`. Any other line is left as it is. `blocks`: whether
    the paste may hold a fence, an indented code block."""
    found = _label_blocks(raws, *blocks)
    if not found:
        return raws, {}
    out = list(raws)
    labels: dict[int, tuple[str, str]] = {}
    for start, end, kind, pattern, streams in found:
        for i in range(start, end):
            out[i], name = _label_split(pattern, raws[i])
            if streams and name is not None:
                labels[i + 1] = (f"task{name}" if kind == "task" else name, f"{name}:")  # (a
                # file's name is its rank: the lines one file logged, as a host's are the host's)
    return out, labels


def _label_blocks(raws: list[str], fenced: bool, indented: bool) -> tuple[LabelBlock, ...]:
    """The runs of lines a tool labelled: the whole paste when every non-blank line of it opens
    with a label of one kind, else each fenced block whose lines all do (the prose a post
    wraps around a relayed log has no labels; a block left open runs to the paste's end), or,
    in a paste with no fence, each indented code block whose lines all do; none for most
    pastes. `fenced`, `indented`: whether the paste may hold a fence, an indented block."""
    found = _labelling(raws)
    if found is not None:
        return ((0, len(raws), *found),)
    if not fenced:
        return _indented_blocks(raws) if indented else ()
    blocks: list[LabelBlock] = []
    opened: int | None = None
    for i, raw in enumerate(raws):
        if raw.lstrip()[:3] not in ("```", "~~~"):
            continue
        if opened is None:
            opened = i + 1
            continue
        if (found := _labelling(raws[opened:i])) is not None:
            blocks.append((opened, i, *found))
        opened = None
    if opened is not None and (found := _labelling(raws[opened:])) is not None:
        blocks.append((opened, len(raws), *found))  # (a block the paste was cut inside)
    return tuple(blocks)


def _indented_blocks(raws: list[str]) -> tuple[LabelBlock, ...]:
    """The labelled runs among a post's indented code blocks (:func:`_indented_runs`), in a
    paste with no fence: the labels after the indentation (`    0: Traceback ...`)."""
    blocks: list[LabelBlock] = []
    for start, end, margin in _indented_runs(raws):
        if (found := _labelling([r[margin:] for r in raws[start:end]])) is not None:
            kind, pattern, streams = found
            blocks.append((start, end, kind, _indented(pattern, margin), streams))
    return tuple(blocks)


def _indented(pattern: re.Pattern[str], margin: int) -> re.Pattern[str]:
    """A label's pattern after a code block's indentation."""
    return compile_regex(f" {{{margin}}}(?:{pattern.pattern})")


def _indented_runs(raws: list[str]) -> list[tuple[int, int, int]]:
    """(start, end, margin) of each indented code block of a post (markdown's other code block:
    two lines or more indented by four spaces or more, blank lines within, after a blank line
    that follows a line at the margin or the paste's start): none in a traceback pasted double
    spaced, whose indented lines follow a frame's."""
    runs: list[tuple[int, int, int]] = []
    start: int | None = None
    for i, raw in enumerate([*raws, "."]):
        if start is None:
            if raw[:4] == "    " and raw.strip() and _opens_block(raws, i):
                start = i
            continue
        if raw[:4] == "    " or not raw.strip():
            continue
        end = i
        while not raws[end - 1].strip():
            end -= 1
        block = [r for r in raws[start:end] if r.strip()]
        if len(block) > 1:
            runs.append((start, end, min(len(r) - len(r.lstrip(" ")) for r in block)))
        start = None
    return runs


def _opens_block(raws: list[str], i: int) -> bool:
    """Whether an indented line at `i` may open a code block: the paste's first line, or one
    after a blank line whose line above is not indented (a frame's, in a double-spaced paste)."""
    return i == 0 or (not raws[i - 1].strip() and (i == 1 or not raws[i - 2][:1].isspace()))


def _labelling(raws: list[str]) -> tuple[str, re.Pattern[str], bool] | None:
    """(kind, pattern, whether the labels name several sources) of the labels every non-blank
    line of `raws` opens with, or None (:func:`_unlabelled`); one source has no streams to
    tell apart."""
    for kind, pattern in _TOOL_LABELS:
        names = _label_names(raws, pattern)
        if len(names) >= LABELLED_LEAST and _labels_hold(kind, names):
            return kind, pattern, kind not in ("line", "stamp") and len(set(names)) > 1
    return None


@memo(maxsize=8)
def _labelled_blocks(text: str) -> tuple[LabelBlock, ...]:
    """The runs of lines a tool labelled in `text` (as pasted): :func:`_label_blocks`."""
    text = _one_break(readable(text))
    return _label_blocks(text.split("\n"), _may_hold_fence(text), _may_hold_indented_block(text))


def _may_hold_fence(text: str) -> bool:
    """Whether `text` may hold a markdown fence (```` ``` ```` or `~~~`) at all."""
    return "```" in text or "~~~" in text


def _may_hold_indented_block(text: str) -> bool:
    """Whether `text` may hold an indented code block (:func:`_indented_runs`) at all."""
    return "\n\n    " in text or text[:4] == "    "


def _label_split(pattern: re.Pattern[str], raw: str) -> tuple[str, str | None]:
    """(a pasted line without its tool's label, the label or None): a group separator `--` is
    a blank line, a blank line stays as it is."""
    st = raw.strip()
    if not st or st == _GROUP_SEPARATOR:
        return ("" if st else raw), None
    m = pattern.match(raw)
    return (raw[m.end() :], m["label"]) if m else (raw, None)


def _label_names(raws: list[str], pattern: re.Pattern[str]) -> list[str]:
    """The labels `pattern` reads before the non-blank lines, in order; none as soon as one
    such line has none (most pastes: at their first line)."""
    names = []
    for raw in raws:
        st = raw.strip()
        if not st or st == _GROUP_SEPARATOR:
            continue
        m = pattern.match(raw)
        if m is None:
            return []
        names.append(m["label"])
    return names


def _labels_hold(kind: str, names: list[str]) -> bool:
    """Whether labels of this kind, in the order of the lines they open, are a tool's: line
    numbers that only rise; a few tasks; a few hosts, none read as an exception's type or a
    capitalised word, and some with a digit, a dot or a dash (`gpu-03`, not `note`)."""
    if kind == "stamp":
        return True
    if kind == "line":
        from itertools import pairwise

        numbers = [int(n) for n in names]
        return all(b > a for a, b in pairwise(numbers))
    distinct = set(names)
    if len(distinct) > LABELLED_SOURCES or 2 * len(distinct) > len(names):
        return False  # (each source prints several lines: keys of a config each name one)
    if kind in ("task", "file"):
        return True
    if any(_NOT_HOST.search(n) for n in distinct):
        return False
    if kind == "container":  # (a service's own name: `sglang`, `router`)
        return True
    if kind == "pod":  # (a pod's generated name: `sglang-7d9f8c6b5-x2x4q`, `sglang-0`)
        return all("-" in n.split(" ")[-2] for n in distinct)
    return any(c.isdigit() or c in ".-" for n in distinct for c in n)


DOUBLE_SPACED_RUN = 4
"""Lines at least, each alone between blank lines, for a run of them to read as double-spaced."""


def _single_spaced(raws: list[str], frames: bool) -> Iterable[tuple[int, str]]:
    """:func:`_numbered`'s lines, with the blank line between each two lines of a double-spaced
    run taken out (a paste copied with a blank line after each of its lines: from some terminals
    and web pages). Read double-spaced, a record's message that went on to the next line, or a
    row a terminal cut, ends at the blank; each line keeps its number.

    A run is at least DOUBLE_SPACED_RUN lines each alone between single blank lines, two of
    them at least starting a record, a frame, a traceback or a code fence: prose written in
    one-line paragraphs has no such lines; a traceback's own blank lines (around `During
    handling ...`) read as three blank lines once doubled, and end a run."""
    keep = _kept_of_double_spaced(raws) if len(raws) >= 2 * DOUBLE_SPACED_RUN - 1 else None
    if keep is None:
        return _numbered(raws, frames)
    numbered = _numbered([raws[i] for i in keep], frames)
    return ((keep[k - 1] + 1, line) for k, line in numbered)


def _kept_of_double_spaced(raws: list[str]) -> list[int] | None:
    """Indexes of the lines :func:`_single_spaced` keeps, or None when it keeps them all."""
    blank = [not r.strip() for r in raws]
    n, drop = len(raws), set[int]()
    alone = [
        not blank[i] and (i == 0 or blank[i - 1]) and (i == n - 1 or blank[i + 1]) for i in range(n)
    ]
    i = 0
    while i < n:
        if not alone[i]:
            i += 1
            continue
        run = [i]
        while run[-1] + 2 < n and alone[run[-1] + 2]:
            run.append(run[-1] + 2)
        i = run[-1] + 1
        if len(run) < DOUBLE_SPACED_RUN:
            continue
        marked = sum(1 for k in run if _STARTS_RECORD.match(raws[k]) or _FENCE_LINE.match(raws[k]))
        if marked >= 2:
            drop.update(k + 1 for k in run[:-1])
    return [k for k in range(n) if k not in drop] if drop else None


_FENCE_LINE = compile_regex(r"\s{0,40}(?:```|~~~)")


def _numbered(raws: list[str], frames: bool) -> Iterable[tuple[int, str]]:
    """(number, line) of the paste's lines, those a terminal cut at its width joined again
    (`frames`: the paste may hold frame lines)."""
    if len(raws) > 2:
        width = _wrap_width(raws)
        if width:
            return _unwrapped(raws, width)
        if frames:
            return _frames_rejoined(raws)
    return enumerate(raws, start=1)


_LOG_KEYS = frozenset(
    ["level", "levelname", "severity", "log", "stream", "time", "timestamp", "@timestamp", "logger"]
)
"""Keys of a structured log record (a JSON logging formatter, docker's json-file driver,
cluster log shippers): one of them tells a log record from an HTTP error body."""
_LOG_KEY_HINT = compile_regex('"(?:' + "|".join(sorted(_LOG_KEYS)) + ')"\\s*:')
"""One of :data:`_LOG_KEYS` as a key: a cheap look before a line is decoded as JSON."""
_TEXT_KEYS = ("message", "msg", "log", "text", "exc_info", "exception", "stack_trace", "stack")
"""Keys whose string values are what the record printed, in the order they are read."""


def _cleaned(no: int, parts: list[str]) -> list[Line]:
    """The lines a structured record printed, each cleaned as :func:`clean_lines` cleans a
    pasted line, all numbered as the record's line."""
    out: list[Line] = []
    for part in parts:
        out.extend(_clean_one(no, part) if _NEEDS_CLEANING.search(part) else [Line(no, part)])
    return out


def _json_logged(raw: str) -> list[str] | None:
    """The printed text of a line that is one structured log record (`{"level": "ERROR",
    "message": "Scheduler hit an exception: Traceback ...\\n  File ..."}`, docker's
    `{"log": "ValueError: x\\n", "stream": "stderr", ...}`), split at its own line breaks; None
    for any other line (an HTTP error body has no log keys and stays one line)."""
    st = raw.strip()
    if not st.endswith("}") or not _LOG_KEY_HINT.search(st):
        return None
    import json

    try:
        record = json.loads(st)
    except (ValueError, RecursionError):  # (not JSON, or nested deeper than the decoder goes)
        return None
    if not isinstance(record, dict) or not _LOG_KEYS.intersection(record):
        return None
    texts = [v for k in _TEXT_KEYS if isinstance(v := record.get(k), str) and v.strip()]
    lines = "\n".join(t.rstrip("\n") for t in texts).split("\n")
    if len(lines) < 2 and not isinstance(record.get("log"), str):
        return None  # (one line of message: read as the record's error field, where it is)
    return lines


_ESCAPED_TRACE = compile_regex(
    r"Traceback \(most recent call last\):(?:\\r)?\\n"
    r"|\\n {2,8}File \\{0,3}\"[^\"\n]{1,1000}?\\{0,3}\", line \d"
    r"|\", line \d{1,7}, in [\w<>.]{1,200}\\n"
)
"""A traceback whose line breaks are a string's escapes: its header followed by `\\n`, a
frame line after one (`\\n  File \\"/x.py\\", line 3` in JSON, `\\n  File "/x.py", line 3`
in a Python repr), or one before it (`x.py", line 3, in f\\n`: a paste cut inside a frame)."""
_ESCAPE = compile_regex(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)")
_UNESCAPED = {"n": "\n", "t": "    ", "r": "", '"': '"', "'": "'", "\\": "\\", "/": "/"}
ESCAPE_DEPTH = 3
"""How many times a traceback escaped inside an escaped string (JSON inside JSON, a repr
of a JSON body) is unescaped at most."""


def _unescape_one(m: re.Match[str]) -> str:
    code = m[1]
    if len(code) > 1:  # (\\uXXXX, \\xXX)
        return chr(int(code[1:], 16))
    return _UNESCAPED.get(code, m[0])


def _unescaped_quote(raw: str, at: int, quote: str, forward: bool) -> int:
    """The index of the first `quote` after `at` (`forward`) or the last before it that no
    backslash escapes; -1 when there is none."""
    i = at
    while True:
        i = raw.find(quote, i) if forward else raw.rfind(quote, 0, i)
        if i < 0:
            return -1
        k = i
        while k > 0 and raw[k - 1] == "\\":
            k -= 1
        if (i - k) % 2 == 0:
            return i
        i = i + 1 if forward else i


def escaped_traceback(raw: str, depth: int = ESCAPE_DEPTH) -> list[str] | None:
    """The lines of a pasted line that holds a traceback inside a string's escapes (a logged
    repr, a JSON value, a whole paste escaped onto one line; an HTTP error body's message is
    read by the body's reader), or None for any other line. The string is the one around the
    traceback: of its two possible quotes, the one that opens before it and closes last (a
    JSON string's inner `"` and a Python repr's inner `'` are escaped, the other quote is
    not), a quote that closes before one that never does; with no opening quote, the rest of
    the line. The text before it starts the first line, as printed, unless it is only the name
    the string was logged under (`error=`, `output.error=`: a line of its own, so a frame line
    the string opens with is read as one); a blank line ends the string's lines (what follows
    it is not their message), and the text after the string (`", "type": ...}`) is a line of
    its own after that."""
    m = _ESCAPED_TRACE.search(raw)
    return None if m is None else _unescaped_lines(raw, m.span(), depth)


def _unescaped_lines(raw: str, span: tuple[int, int], depth: int) -> list[str]:
    """:func:`escaped_traceback` of a line whose escaped text (a traceback) is at `span`."""
    start, end = 0, len(raw)
    best = (False, -1)
    for quote in "\"'":
        opener = _unescaped_quote(raw, span[0], quote, forward=False)
        if opener < 0:
            continue
        closer = _unescaped_quote(raw, span[1], quote, forward=True)
        # a quote that closes the string beats one that never closes (a quote inside the
        # string that its own quotes need not escape: `File "x.py"` in a repr's '...')
        found = (closer >= 0, len(raw) if closer < 0 else closer)
        if found > best:
            best, start, end = found, opener + 1, found[1]
    inner = _ESCAPE.sub(_unescape_one, raw[start:end]).split("\n")
    rest = raw[end:]
    if len(inner) > 1 and not inner[-1].strip(_CLOSERS):  # (`\\n'`: a string cut before it)
        rest = inner.pop() + rest
    before = raw[:start]
    if start and before[:-1].strip() and _NAMED_VALUE.fullmatch(before, 0, start - 1):
        lines = [before[:-1], *inner]  # (the name it was logged under: a line of its own)
    else:
        lines = [before + inner[0], *inner[1:]]
    if depth > 1:
        lines = [x for ln in lines for x in (escaped_traceback(ln, depth - 1) or [ln])]
    return [*lines, "", rest] if rest.strip() else [*lines, ""]


ESCAPED_BREAKS = 2
"""Line-break escapes (`\\n`) a line's string needs, at least, to be read as text of several
lines logged as a string's repr (`output.error='Error: ...\\n[2026-...] ...'`): one is a string
with a break in it (a message, a format), not a paste of several lines."""
_NAMED_VALUE = compile_regex(r"\s{0,40}(?:[\w.\[\]-]{1,80}\s{0,3}[=:]\s{0,3})?")
"""What may stand before such a string: nothing, or the name it was logged under (`error=`,
`output.error=`, `msg: `); a string inside other text (an exception's message quoting a
reply's body) is that text's."""


def escaped_text(raw: str) -> list[str] | None:
    """The lines of a pasted line that holds text of several lines inside a quoted string's
    escapes (what :func:`escaped_traceback` does for a traceback, for any text: a log, a bare
    error line, prose, logged as a repr), or None: no quoted string with a break escape in it,
    with more than a name before it, or the line is an HTTP error body (its reader reads its
    message, escapes and all)."""
    named = _NAMED_VALUE.match(raw)  # (the name it was logged under, if any)
    at = named.end() if named else 0
    quote = raw[at : at + 1]
    if quote not in ("'", '"'):
        return None
    close = _unescaped_quote(raw, at + 1, quote, forward=True)
    if "\\n" not in raw[at + 1 : close if close >= 0 else len(raw)]:
        return None  # (its breaks are in another string of the line)
    from errexplain.parse.inline import json_errors  # (only for such a line)

    if json_errors(raw):
        return None
    lines = _unescaped_lines(raw, (at + 1, at + 1), ESCAPE_DEPTH)
    while lines and not lines[-1].strip(_CLOSERS):  # (the string's closing quote)
        lines.pop()
    return lines if sum(1 for ln in lines if ln.strip()) > ESCAPED_BREAKS else None


def _body_holding_trace(raw: str) -> bool:
    """Whether the line holds an HTTP error body whose message holds the traceback (JSON, or a
    client's repr of it: `Error code: 500 - {'message': 'Traceback ...\\n ...'}`): the parser
    reads the body's message, its traceback too, and says where it came from."""
    from errexplain.parse.inline import json_errors

    return any(_TRACE_HEAD in m or _FRAME_HEAD in m for _, m in json_errors(raw))


_TRACE_HEAD, _FRAME_HEAD = "Traceback (most recent call last)", '\n  File "'


_CLOSERS = " \"'`,;)]}"
"""What may close a string and the value it is in (`'`, `"}`, `',`)."""


WRAP_MIN_WIDTH, WRAP_MIN_LINES = 60, 3


def _wrap_width(raws: list[str]) -> int:
    """The width a terminal or a mail client hard-wrapped the paste at, or 0: no line is
    longer, at least WRAP_MIN_LINES distinct lines are exactly that long and followed by text,
    and lines that long outnumber twice over those a little shorter (text that was not wrapped
    has no such spike in its line lengths)."""
    width = max(map(len, raws))
    if width < WRAP_MIN_WIDTH:
        return 0
    from itertools import pairwise

    # distinct lines (a record repeated word for word is one), but a frame line cut inside its
    # path with what it carried over: frames of one directory cut at the same width share their
    # head (`  File "/usr/lib/.../sglang/srt/disaggregati`), not their rest
    full = {
        (r, nxt if _OPEN_FRAME.search(r) else "")
        for r, nxt in pairwise(raws)
        if len(r) == width and nxt.strip() and not _rule(r)
    }
    if len(full) < WRAP_MIN_LINES - 1:
        return 0
    near = sum(1 for r in raws if width - 10 <= len(r) < width)
    if len(full) < WRAP_MIN_LINES:
        # two lines: no line a little shorter, and only cuts no writer would make (inside a
        # word or a token, or just before a space)
        after = dict(pairwise(raws))
        cuts = [_cut_inside(r, nxt or after[r]) for r, nxt in full]
        return width if not near and all(cuts) else 0
    return width if len(full) >= 2 * near else 0


def _rule(line: str) -> bool:
    """A rule drawn to the terminal's width, maybe with a title in it (`=====`, `_ _ _ _`,
    pytest's `==== FAILURES ====` and `____ test_x ____`), or a line of a box drawn to it
    (rich's panels: `│ ... │`, `╭── Traceback ──╮`): never a line cut at that width."""
    st = line.strip()
    if st[:1] in _BOX_LEFT and st[-1:] in _BOX_RIGHT:
        return True
    return len(set(st)) < 2 or _DRAWN_RULE.fullmatch(st) is not None


_BOX_LEFT, _BOX_RIGHT = frozenset("│┃║╭╰┌└┏┗╔╚"), frozenset("│┃║╮╯┐┘┓┛╗╝")


_DRAWN_RULE = compile_regex(r"([=_\-#*~+])(?: ?\1){2,}(?: .{0,500} (?:\1 ?){2,}\1)?")
"""A rule of one character, spaced or not, with a title in it or not (its own name: `_RULE` is
IPython's `----` rule, a structural line)."""


def _cut_inside(line: str, nxt: str) -> bool:
    """Whether a line and the next read as one line cut at a fixed width: the cut splits a word
    (`... no previous assis` / `tant message`) or a JSON or code token (`"type":` / `"error"`),
    or falls just before a space; a writer breaks a line after a word or a sentence's end."""
    if not (line and nxt):
        return False
    a, b = line[-1], nxt[0]
    return (
        (a.isalnum() and b.isalnum())
        or (b == " " and nxt[1:2].strip() != "")
        or a in _OPENS_TOKEN
        or b in _CLOSES_TOKEN
        or (a == "." and b.islower())  # (`self.` / `soft`: no sentence starts lower-case)
        or (b == "." and nxt[1:2].isalnum())  # (`self` / `.soft`: no line starts with a dot)
    )


_OPENS_TOKEN = frozenset('"{[(=/\\_')
"""Characters no writer ends a line with but a cut may: inside a JSON body, a call, a path."""
_CLOSES_TOKEN = frozenset('"}]),:;=')
"""Characters a line cut inside a token may start with (a writer's line starts with a word, a
path, a quote mark of markdown or a log record's bracket)."""


def _unwrapped(raws: list[str], width: int) -> Iterator[tuple[int, str]]:
    """(number, line) of the paste with each line cut at `width` joined to the text the cut
    carried to the next line (as printed: no space added), numbered by its first line; a new log
    record, a frame or a blank line is never the rest of a cut line."""
    i = 0
    while i < len(raws):
        no, line = i + 1, raws[i]
        while len(raws[i]) == width and i + 1 < len(raws) and _carries(raws[i], raws[i + 1]):
            i += 1
            line += raws[i]
        yield no, line
        i += 1


_OPEN_FRAME = compile_regex(r'File "[^"\n]{1,1000}\Z')
_FRAME_REST = compile_regex(r'[^"\s]{1,1000}", {0,4}line {0,4}\d')


def _frames_rejoined(raws: list[str]) -> Iterator[tuple[int, str]]:
    """(number, line) of a paste too short to tell the width it was cut at, with each frame
    line cut inside its path joined to the rest of it: a frame's path never ends a line
    unclosed, and its rest (`trypoints/http_server.py", line 105, in f`) is no line of its own."""
    i = 0
    while i < len(raws):
        no, line = i + 1, raws[i]
        nxt = raws[i + 1] if i + 1 < len(raws) else ""
        if 'File "' in line and _FRAME_REST.match(nxt) and _OPEN_FRAME.search(line):
            line += nxt
            i += 1
        yield no, line
        i += 1


def _carries(cut: str, nxt: str) -> bool:
    """Whether `nxt` can be what a line cut at the wrap width carried over: text after a line
    that is neither a rule nor a structural line (IPython pads its headers to the width), and
    not itself the start of a record, a frame or a header."""
    st, head = nxt.strip(), cut.strip()
    if not st or _rule(head) or _STARTS_RECORD.match(nxt) or line_kind(head):
        return False
    if ": " in st and exception_head(st, lax=False):
        return False  # (a line as long as the cut ones by chance, the exception line after it)
    # a frame line cut inside its path: what follows (`ts/http_server.py", line 548, in f`) reads
    # as a frame whose head was cut, and is the rest of this one (behind a stream prefix too:
    # `(worker6, rank=6, pid=7)   File "/home/u/s` cut at the width)
    return not line_kind(st) or _OPEN_FRAME.search(head) is not None


_STARTS_RECORD = compile_regex(
    rf'(?:{_ANY_PREFIX.pattern})|\s*File "|Traceback \(|During handling|The above exception'
)


BREAK_MARK = "\u23ce"
"""`⏎`, which a text flattened onto one line (a digest of PR bodies, an export) shows where its
line breaks were: ``crashes on idle ranks: ⏎ ``` ⏎ AssertionError: <message> ⏎ ``` ⏎ ## Root
cause``."""


def _unmarked(numbered: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The numbered lines with each line flattened with `⏎` marks split at them again, its parts
    keeping its number (the space put on each side of a mark taken off)."""
    for no, raw in numbered:
        if BREAK_MARK not in raw:
            yield no, raw
            continue
        for part in raw.split(BREAK_MARK):
            part = part[1:] if part[:1] == " " else part
            yield no, part[:-1] if part[-1:] == " " else part


def _unflattened(raw: str) -> list[str]:
    """A line holding one ray worker's prefix again and again (a log pasted where markdown
    joined its lines: `(W pid=7) File "x.py", line 3, in f (W pid=7) raise ...`) split before
    each of them; any other line as it is."""
    found = [m for m in _RAY_PREFIX.finditer(raw) if m.group(0).endswith(" ")]
    if len(found) < 2 or len({m.group(0) for m in found}) != 1:
        return [raw]
    cuts = (
        [0, *(m.start() for m in found[1:])]
        if found[0].start() == 0
        else [0, *(m.start() for m in found)]
    )
    return [raw[a:b].rstrip() for a, b in zip(cuts, [*cuts[1:], len(raw)], strict=True)]


_ENTITY = compile_regex(r"&(?:(quot|amp|lt|gt|apos|nbsp)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));")
"""The HTML character references a page's source writes for what an error prints (`&#39;`,
`&quot;`, `&lt;`, `&gt;`, `&amp;`): read as the characters, so the message is the printed one.
Only these (not the whole `html` module, whose table of names costs a start-up to import)."""
_ESCAPED_QUOTE = compile_regex(r"&(?:quot|apos|#0*3[49]|#[xX]0*2[27]);")
"""A quote written as a reference: with no raw double quote anywhere, the paste is a page's
HTML source (its quotes all escaped), and its references are read; a message that merely holds
`&lt;` (an HTML body quoted in an error, in a traceback with its raw `File "` quotes) is kept."""
_NAMED = {"quot": '"', "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": " "}


def _entity(m: re.Match[str]) -> str:
    name, dec, hexa = m.groups()
    if name:
        return _NAMED[name]
    code = int(dec) if dec else int(hexa, 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group(0)


def _one_break(text: str) -> str:
    """The text with every line break (`\\r\\n`, a lone `\\r`) made `\\n`."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class ByStart:
    """Texts filed by their first `start` characters (and a `key`), at most `cap` of each: a
    text is compared only with those that start as it does, a bounded number however long the
    paste, so that comparing every line with every other stays linear."""

    def __init__(self, start: int, cap: int) -> None:
        self._start, self._cap = start, cap
        self._filed: dict[tuple[object, str], set[str]] = {}

    def add(self, text: str, key: object = None) -> None:
        filed = self._filed.setdefault((key, text[: self._start]), set())
        if len(filed) < self._cap:
            filed.add(text)

    def near(self, text: str, key: object = None) -> Collection[str]:
        """The texts filed that start as `text` does (its first `start` characters)."""
        return self._filed.get((key, text[: self._start]), ())


def pasted_line(text: str, no: int) -> str | None:
    """Line `no` of the text as pasted (from 1), numbered as :func:`clean_lines` numbers it
    (a lone `\\r` breaks a line too, as a progress bar's redraw does), or None."""
    if no <= 0:
        return None
    lines = pasted_lines(text, no)
    return lines[no - 1] if no <= len(lines) else None


def pasted_lines(text: str, upto: int | None = None) -> list[str]:
    """The text's lines as pasted, numbered as :func:`clean_lines` numbers them (from 1 for
    index 0): what a cleaned line was before its cleaning (an issue title's tag, taken off);
    without the labels a tool put before each line (:func:`_unlabelled`: they are not what the
    program printed). `upto`: only the first `upto` lines are needed (the rest is not split)."""
    blocks = _labelled_blocks(text)  # (first: the caller's text, whose hash is kept)
    text = _one_break(readable(text))
    lines = text.split("\n") if upto is None else text.split("\n", upto)[:upto]
    for start, end, _, pattern, _ in blocks:
        for i in range(start, min(end, len(lines))):
            lines[i] = _label_split(pattern, lines[i])[0]
    return lines


def _dedented(raws: list[str]) -> list[str]:
    """The lines without the margin every non-blank one shares: a paste indented as a whole
    (four spaces make a markdown code block) has its log prefixes and traceback at the margin,
    where they are looked for; relative indentation (a traceback's frames) is kept."""
    margin = min((len(r) - len(r.lstrip(" ")) for r in raws if r.strip()), default=0)
    return [r[margin:] for r in raws] if margin else raws


def _at_margin(raws: list[str], head: str, indented: bool) -> list[str]:
    """The lines moved to the paste's margin: a paste indented as a whole (a markdown code
    block, a notebook cell's output) or pasted as list items, by what its first line opens with,
    else each indented code block of a post (`indented`: the paste may hold one)."""
    if head[:1] == " ":
        raws = _dedented(raws)
    elif head in ("- ", "* "):
        raws = _unbulleted(raws)
    elif indented:
        raws = _blocks_at_margin(raws)
    return _uncommented(raws)


def _blocks_at_margin(raws: list[str]) -> list[str]:
    """The lines with each indented code block of a post that holds a log (a line of it opens
    with a log prefix, a fence or a traceback's header) moved to the margin, where those are
    looked for, as markdown shows it; a block whose lines a tool labelled is left to
    :func:`_indented_blocks`, which reads it as pasted. (Code, such as the source a test
    runner's report shows, keeps its indentation.)"""
    out = raws
    for start, end, margin in _indented_runs(raws):
        block = [r[margin:] for r in raws[start:end]]
        if any(map(_opens_log, block)) and _labelling(block) is None:
            out = list(raws) if out is raws else out
            out[start:end] = block
    return out


def _opens_log(line: str) -> bool:
    return line[:3] in ("```", "~~~") or line.startswith(TRACEBACK) or bool(_ANY_PREFIX.match(line))


_COMMENT_LEADERS = ("//", "#", "*")
_COMMENT_ENDS = frozenset({"/*", "/**", "*/", "**/"})


def _uncommented(raws: list[str]) -> list[str]:
    """The lines without the comment leader every non-blank one opens with, after its
    indentation (a docstring of C-style comment lines, ` * <message>`; a block of `# ` or `// `
    lines): a paste that is a comment quoting an error has the error's lines after the leaders,
    their own indentation kept. A leader alone, or a C comment's opening or closing, is a blank
    line. A paste where some line has no leader is left as it is."""
    lead = gap = ""
    commented = 0
    for r in raws:  # (a paste whose first line is no comment is left at that line)
        st = r.strip()
        if not st or st in _COMMENT_ENDS:
            continue
        if not lead:
            lead = next((c for c in _COMMENT_LEADERS if st.startswith(c)), "")
            gap = lead + " "
        if not lead or not (st.startswith(gap) or st == lead):
            return raws
        commented += 1
    if commented < 2:
        return raws
    out = []
    for r in raws:
        st = r.lstrip()
        out.append(st[len(gap) :] if st.startswith(gap) else "" if r.strip() else r)
    return out


def _unbulleted(raws: list[str]) -> list[str]:
    """The lines without the markdown list marker every non-blank one opens with (a log or a
    traceback pasted as list items, `- ` before each line): what follows each marker is the
    line as printed, its indentation kept (a frame's code line). A paste where some lines
    carry no marker is left as it is (a list item's own `- ` is taken off line by line)."""
    marker = next((r[:2] for r in raws if r.strip()), "")
    if len(raws) < 2 or any(r.strip() and not r.startswith(marker) for r in raws):
        return raws
    return [r[len(marker) :] if r.strip() else r for r in raws]


def _clean_one(no: int, raw: str) -> list[Line]:
    s = _unquote(raw) if raw.lstrip().startswith(">") else raw
    fence_before = fence_after = False
    if "```" in s or ("~~~" in s and not _caret_line(s)):
        fence_before, s, fence_after = _split_fences(s)
    if "<" in s and (m := _HTML_OPEN.match(s)):
        fence_before, s = True, s[m.end() :]
    if "</" in s and (m := _HTML_CLOSE.search(s)):
        fence_after, s = True, s[: m.start()]
    if "`" in s:
        s = _strip_backticks(s)
    if s[:2] in ("- ", "* "):  # a markdown list item holding the error (`+ ` opens a group)
        s = _unlisted(s)
    s, rank, prefix, stream = _strip_prefixes(s)
    if s.startswith("["):
        s = _strip_title_tag(s)
    parts = _split_header(s) if "Traceback" in s else [s]
    lines = [Line(no, part, rank, prefix, stream) for part in parts]
    if fence_before:
        lines.insert(0, Line(no, "", fence=True))
    if fence_after:
        lines.append(Line(no, "", fence=True))
    return lines


def _caret_line(s: str) -> bool:
    """A line of `~` and `^` marks under a frame's code (Python 3.11 and newer:
    `~~~~~~~~~~^^^^^^`), not a `~~~` fence."""
    return "^" in s and not s.strip(" ~^")


def _unquote(s: str) -> str:
    """Remove markdown blockquote markers (`> `), but not a `>>>` prompt."""
    for _ in range(8):
        t = s.lstrip()
        if not t.startswith(">") or t.startswith(">>>"):
            return s
        s = t[2:] if t.startswith("> ") else t[1:]
    return s


def _split_fences(s: str) -> tuple[bool, str, bool]:
    """Find a fence at the start (with its info string) or glued to the end of a line."""
    before = after = False
    t = s.strip()
    for mark in ("```", "~~~"):
        if t.startswith(mark):
            rest = t.lstrip(mark[0])
            info = _INFO_STRING.fullmatch(rest) and not rest[:1].isupper()
            before, s = True, "" if info else rest
            break
    if s.rstrip().endswith("```"):
        after, s = True, s.rstrip()[:-3]
        s = s.rstrip("`") if s.endswith("`") and not s.endswith("``") else s
    return before, s, after


def _strip_backticks(s: str) -> str:
    """Remove inline-code backticks around a pasted error (possibly spanning lines)."""
    t = s.strip()
    if t.startswith("`") and not t.startswith("``") and t.count("`") % 2 == 1:
        return t[1:]
    if t.endswith("`") and not t.endswith("``") and t.count("`") % 2 == 1:
        return s.rstrip()[:-1]
    if len(t) > 1 and t.startswith("`") and t.endswith("`") and t.count("`") == 2:
        return t[1:-1]
    return s


def _unemphasized(s: str) -> str:
    """A line without the markdown emphasis marks a post put before its log record."""
    marks = _EMPHASIS.match(s) if s[:1] in "*_" else None
    return s[marks.end() :] if marks else s


def _strip_prefixes(s: str) -> tuple[str, str | None, str, str]:
    """Strip log prefixes from the start of a line, and the markdown emphasis marks before any
    of them: (rest, rank, log prefix, stream prefix)."""
    rank: str | None = None
    prefix = stream = ""
    s = _unemphasized(s)
    if not _ANY_PREFIX.match(s):
        return s, rank, prefix, stream
    for _ in range(6):
        found = _match_prefix(s)
        if found is None:
            break
        m, is_stream = found
        rank = _rank_of(m) or rank
        if is_stream and not prefix:
            stream += _STREAM_STAMP.sub("", m.group(0)).strip()
        else:
            prefix += m.group(0)
        s = _unemphasized(s[m.end() :])  # (marks after a collector's stamp too)
    return s, rank, prefix, stream


_STREAM_STAMP = compile_regex(
    rf"{_STAMP}(?: ?(?:Z|[+-]\d\d:?\d\d))?:?"
    r"|(?:[A-Z][a-z]{2} )?[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,9})?"
    r"|[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]{2,5}"
    r"|(?<=stdout|stderr) [FP]\b"
    r"|(?<=\d) \d{1,6}\.\d{3} ?\Z"  # (BuildKit's seconds after its step)
)
"""The stamp in a stream prefix (a collector's, journald's, a container runtime's, with its
full/partial flag): each line has its own, so the stream a line belongs to is named without it
(the lines of one process are one stream however far apart in time they were printed)."""


def _match_prefix(s: str) -> tuple[re.Match[str], bool] | None:
    for pattern, is_stream in _PREFIXES:
        m = pattern.match(s)
        if m and m.end() > 0:
            return m, is_stream
    return None


def _rank_of(m: re.Match[str]) -> str | None:
    groups = m.groupdict()
    rank, name = (groups.get("rank") or "").strip(), groups.get("name")
    if rank and name is not None:
        return f"rank{rank}"
    if rank:
        return rank if not rank.isdigit() else f"rank{rank}"
    if name and _RANK_NAME.fullmatch(name):
        return name
    return None


def _strip_title_tag(s: str) -> str:
    m = _TITLE_TAG.match(s)
    return s[m.end() :] if m else s


def _split_header(s: str) -> list[str]:
    """Split `log message: Traceback (most recent call last):` into the message and header."""
    i = s.find(TRACEBACK)
    if i <= 0:
        return [s]
    head, header = s[:i].rstrip(), TRACEBACK
    if head.endswith("+ Exception Group"):
        head, header = head[: -len("+ Exception Group")].rstrip(), _GROUP_HEADER
    if not head.strip() or head.endswith(("Exception Group", "|", "+", '"', "'")):
        return [s]  # (a quote before it: a traceback inside a string, as in a JSON body)
    tail = s[i + len(TRACEBACK) :].strip()
    return [head, header, tail] if tail else [head, header]


def _unlisted(s: str) -> str:
    """A markdown list item's text without its marker when that text is an exception line, a
    traceback's header or a frame (`- ValueError: ...`); else the line as it is: a line of a
    message may open with `- ` itself (a list the message prints)."""
    rest = s[2:].lstrip(" ")
    if "`" in rest:
        rest = _strip_backticks(rest)
    if (
        exception_head(rest, False)
        or rest.startswith(("Traceback", 'File "'))
        or _ANY_PREFIX.match(rest)  # a log record
    ):
        return rest
    return s


@memo(maxsize=512)
def exception_head(st: str, lax: bool) -> tuple[str, str] | None:
    """(type, first message line) if `st` is an exception line such as `ValueError: bad`.

    Strict mode wants a name ending in Error/Exception/Warning/Interrupt/Exit or a known
    builtin; `lax` (right after frames) also takes any CamelCase name followed by a colon and
    a message.
    """
    if not (st[:1].isalpha() or st[:1] == "_"):
        return None
    m = _HEAD.fullmatch(st)
    if m is None or (m["args"] and m["msg"] is None):
        return None
    name = m["type"]
    last = name.rsplit(".", 1)[-1].lstrip("_")  # (a module's private class: `_Unsupported`)
    # (Python prints a class with an empty message as its name alone: a name and a colon with
    # nothing after it is a heading, `Client:` over the next block, not an exception line)
    if not _plausible(last) and not (lax and _camel(last) and (m["msg"] or "").strip()):
        return None
    return name, (m["msg"] or "").strip()


CUT_NAME_MIN = 6
"""Characters of an exception's name a paste cut inside it must keep (`Assert` of
`AssertionError`); fewer name too many classes or none."""


def cut_exception_name(st: str) -> str | None:
    """The builtin exception class whose name `st` is the start of, cut before its end
    (`AssertionErro`, the last line of a paste that stops inside its exception line), when
    only one class name starts so; else None. Only the line right after a traceback's frames
    is read so."""
    if len(st) < CUT_NAME_MIN or not st.isidentifier() or _plausible(st):
        return None
    names = [
        n
        for n in dir(builtins)
        if n.startswith(st)
        and n != st
        and isinstance(t := getattr(builtins, n), type)
        and issubclass(t, BaseException)
    ]
    return names[0] if len(names) == 1 else None


def _plausible(last: str) -> bool:
    if last in _KNOWN:
        return True
    if not last.endswith(_SUFFIXES) or last in _SUFFIXES:
        return False
    return last[:1].isupper() and not last.isupper()


def _camel(last: str) -> bool:
    return last[:1].isupper() and not last.isupper() and last.isidentifier()


def embedded_exception(st: str) -> tuple[str, str] | None:
    """An exception stringified inside a log line: `... with exception KVTransferError(x): msg`."""
    found = embedded_exceptions(st)
    return (found[0][0], found[0][1]) if found else None


_MAX_EMBEDDED = 32


def embedded_exceptions(st: str) -> list[tuple[str, str, bool]]:
    """(type, message, quoted) of each exception inside a line. One quoted in backticks or
    quotes ends at its closing quote, and the search goes on after it (prose that quotes two
    errors); an unquoted one runs to the end of the line (and may continue on the next)."""
    out: list[tuple[str, str, bool]] = []
    if ":" not in st:
        return out
    pos = 0
    while len(out) < _MAX_EMBEDDED:
        m = _EMBEDDED.search(st, pos)
        if m is None:
            break
        quote = st[m.start() - 1] if m.start() else ""
        end = -1
        if quote in ("`", '"'):  # prose: "I get `ValueError: x` when ..."
            end = st.find(quote, m.end())
        elif quote == "'":  # the message may hold apostrophes: the last quote closes it
            end = st.rfind(quote, m.end())
        if end < 0:
            out.append((m["type"], st[m.end() :].strip(), False))
            break
        out.append((m["type"], st[m.end() : end].strip(), True))
        pos = end + 1
    return out


_QUOTED_ASSERT = compile_regex(
    r"`assert (?P<test>[^`\n]{3,300})`|\"assert (?P<dtest>[^`\"\n]{3,300})\""
)
"""An assert statement in backticks (which may hold string literals in either quote:
``assert header["num_frames"] == 1``) or in double quotes."""
_TRAILING_EXCEPTION = compile_regex(r"\s+AssertionError\b.{0,300}$")
"""The exception line a quote ran on into after the statement (`"assert x is False
AssertionError"`: a traceback's last two lines joined), not part of the test."""
_LINE_OF = compile_regex(r"(?:line|L) ?(?P<no>\d{1,9})(?: of| in)? ?$")
_LINE_AFTER = compile_regex(r"(?::|,? line |#L)(?P<no>\d{1,9})")
_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-")


_TITLE_TAGS = ("[bug]", "[feature]", "[question]", "[usage]", "bug:", "bug report:")


def title_text(line: str, first: bool = False) -> str | None:
    """An issue title's text after its tag, when the line (as pasted: the cleaner takes a
    leading tag off) is one: it opens with an issue tag, after a markdown heading's `#` if any
    (`# [Bug] X fails to start: <message>`, `[Bug] <message>`), or it is a first-level heading
    that opens the paste (`first`: `# <message>`, a post's or a notes file's title; not a line
    of a `#` comment block). Posters put the error there, whole or after a colon, as they would
    in quotes."""
    raw = line.strip()
    st = raw.lstrip("#> ")
    low = st.lower()
    for tag in _TITLE_TAGS:
        if low.startswith(tag):
            return st[len(tag) :].lstrip(": ").strip() or None
    if first and raw.startswith("# "):
        return st or None
    return None


_LABELLED = compile_regex(
    r"(?:[-*+]\s+|\d{1,3}[.)]\s+)?[*_]{0,2}(?i:error|exception|报错|错误|エラー)[*_]{0,2}"
    r"\s{0,3}[:\uff1a][*_]{0,2}\s{0,3}(?P<rest>\S.*)"
)


def labelled_text(line: str) -> str | None:
    """What a line says after a failure label that opens it (`Error: <message>`, `- **Error**:
    <message>`, `报错` and a full-width colon), as a post puts the error it met: the message,
    without a type (a type would have made the line an exception line)."""
    m = _LABELLED.match(line.strip())
    return m["rest"].strip() if m else None


_NAMED_ASSERT = compile_regex(
    r"\b(?i:assert(?:ion)?)`?\s{1,3}(?:statement\s{1,3}|check\s{1,3})?in\s{1,3}`?"
    r"(?P<module>[a-z_][a-z0-9_]{2,80})\.(?P<function>[A-Za-z_]\w{2,80})(?:\(\))?`?"
    r"(?=[^\n]{0,80}\b(?i:fires|fired|fails|failed|triggers|triggered|trips|tripped|is hit|hits)\b)"
)
"""An assert named by the module and function it is in, said to fail (`the hard `assert` in
`lora_manager.fetch_new_loras()` then fires`): the module's name is lower-case (not a class)."""


def named_assert(st: str) -> tuple[str, str] | None:
    """(the file, the function) of an assert a line of prose names by its module and function
    and says failed, or None."""
    m = _NAMED_ASSERT.search(st)
    return (m["module"] + ".py", m["function"]) if m else None


def quoted_asserts(st: str) -> list[tuple[str, tuple[str, int | None] | None]]:
    """Assert statements quoted in prose (``the assertion `assert x is None` fails in line 9
    of pkg/mod.py``): (the test, the file named in the same line and its line number or None).
    """
    found = [
        _TRAILING_EXCEPTION.sub("", (m["test"] or m["dtest"]).strip())
        for m in _QUOTED_ASSERT.finditer(st)
    ]
    found = (found + _parenthesized_asserts(st))[:_MAX_EMBEDDED]
    if not found:
        return []
    where = _mentioned_file(st)
    return [(test, where) for test in found if test]


def _parenthesized_asserts(st: str) -> list[str]:
    """Assert statements in parentheses beside a word for the failure (``crashes with an
    assertion error (assert len(out) > 0) when ...``): the test up to the balancing ``)``."""
    if "assert" not in st.lower().replace("(assert ", ""):
        return []
    found: list[str] = []
    at = st.find("(assert ")
    while at >= 0 and len(found) < _MAX_EMBEDDED:
        depth, end = 1, at + 1
        while end < len(st) and depth and end - at < 300:
            depth += {"(": 1, ")": -1}.get(st[end], 0)
            end += 1
        test = st[at + len("(assert ") : end - 1].strip()
        if depth == 0 and len(test) >= 3 and not {"`", '"'} & set(test):
            found.append(test)
        at = st.find("(assert ", end)
    return found


def _mentioned_file(st: str) -> tuple[str, int | None] | None:
    """The first ``*.py`` path in a line of prose, with the line number written next to it
    (``x.py:12``, ``x.py, line 12``, ``line 12 of x.py``)."""
    at = st.find(".py")
    while at >= 0:
        end = at + 3
        if end == len(st) or not (st[end].isalnum() or st[end] == "_"):
            start = at
            while start > 0 and at - start < 300 and st[start - 1] in _PATH_CHARS:
                start -= 1
            path = st[start:end].lstrip("./")
            if len(path) > 3:
                after = _LINE_AFTER.match(st, end)
                before = _LINE_OF.search(st[max(0, start - 20) : start])
                no = after or before
                return path, int(no["no"]) if no else None
        at = st.find(".py", end)
    return None


def line_kind(st: str) -> str:
    """Classify a non-blank stripped line by its structure, cheapest tests first."""
    c = st[0]
    if c == "F":
        if st.startswith('File "'):
            return "frame" if FRAME.fullmatch(st) else ""
        return _jupyter_kind(st)
    if c in "CI-" and (kind := _jupyter_kind(st)):
        return kind
    if c in "+~^.[":
        if st.startswith(_GROUP):
            return "group"
        if _SEPARATOR.fullmatch(st):
            return "separator"
        return "skip" if skippable(st) else ""
    if c in "TE" and _HEADER.fullmatch(st):
        return "header"
    if c in "TD" and st in CHAIN:
        return "chain"
    if st.endswith(_JHEADER_END) and _JHEADER.fullmatch(st):
        return "jheader"
    return _cut_frame_kind(st)


def _cut_frame_kind(st: str) -> str:
    """A frame whose `File "` head the paster cut off, or one condensed to `x.py:12 f`."""
    if '", line ' in st:
        return "frame" if CUT_FRAME.fullmatch(st) else ""
    return "frame" if ".py:" in st and SHORT_FRAME.fullmatch(st) else ""


def _jupyter_kind(st: str) -> str:
    """An IPython frame (`File ~/x.py:7, in f()`, `Cell In[3], line 5`) or the `----` rule."""
    if st[0] == "-":
        return "rule" if _RULE.fullmatch(st) else ""
    if st.startswith(("File ", "Cell In", "Input In")) and JFRAME.fullmatch(st):
        return "jframe"
    return ""


def skippable(st: str) -> bool:
    """Caret lines, elided frames and `[Previous line repeated N more times]`."""
    if not st.strip("~^ "):
        return True
    return st == "..." or st.startswith(("[Previous line repeated", "...<"))


def structural(st: str) -> bool:
    """A line that belongs to traceback structure, never to a message."""
    return line_kind(st) in _STRUCTURAL


_STRUCTURAL = frozenset(
    ("header", "frame", "chain", "group", "separator", "jheader", "jframe", "rule")
)


def indent(text: str) -> int:
    return len(text) - len(text.lstrip())
