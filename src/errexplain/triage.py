"""Whole-log triage (`errexplain scan`): every distinct error of many logs, grouped across lines,
ranks and files, counted and dated.

Each input (a file, a byte range of a big uncompressed file, or stdin) is a task. A task reads
its regions (errexplain.input.logs: byte searches find them, only they are decoded), parses each
with `parse_traceback` (a region of several tracebacks one distinct traceback at a time, each
parsed once per task: errexplain.repeats), and folds the errors into groups keyed like the
parser's own merge (type, message, frames by their last two path parts). With several tasks and
workers they run in a process pool (`Scan`, started before the caller waits, so that it can
open the catalog meanwhile); the groups of all tasks are merged in input order. An error-dense
file is split for the workers between two tracebacks that parse the same apart. Dating: the log
timestamps of the lines that show the error's message give first and last seen.

Memory is bounded: a region is at most MAX_REGION bytes, a task parses at most PARSE_BUDGET bytes
(repeats of a traceback already parsed do not count; past that, an error-dense log is read, not
parsed, and said so) and always parses its last TAIL_REGIONS regions, so the last traceback of a
log is never lost; at most MAX_GROUPS groups are kept.

A Jupyter notebook (a file whose head is a notebook's JSON, any extension) is read as the
outputs its cells saved (errexplain.parse.notebook): its tracebacks are escaped strings inside
the JSON, which the byte searches would not find. It is read whole, so only one up to
NOTEBOOK_MAX bytes; a larger one is read as text.
"""

from __future__ import annotations

import io
import os

from errexplain._startup import TYPE_CHECKING, Record, replace
from errexplain.input.logs import HEADER, expand, open_log, quiet_split, regions
from errexplain.models import RaisedError
from errexplain.parse import parse_traceback
from errexplain.parse.lines import pasted_lines
from errexplain.parse.stamps import stamp
from errexplain.repeats import Memo, fold_units, seamless

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from concurrent.futures import Future
    from typing import Any, BinaryIO

    from errexplain.input.logs import Region

PARSE_BUDGET = 96 * 1024 * 1024
TAIL_REGIONS = 2
MAX_GROUPS = 2000
SAMPLE = 64 * 1024
"""Text kept around a group's first occurrence (the release guess reads version strings in it)."""
SPLIT_AT = 64 * 1024 * 1024
"""An uncompressed file larger than this is split into byte ranges, one per worker."""
NOTEBOOK_MAX = 512 * 1024 * 1024
"""A notebook larger than this (decompressed) is read as text, as any log: it is read whole."""
_HEAD = 4096
_NOTEBOOK_KEYS = (b'"cells"', b'"worksheets"', b'"nbformat"')


class Group(Record):
    """One distinct error: `error.count` and `error.ranks` cover every occurrence."""

    error: RaisedError
    first_seen: str | None
    last_seen: str | None
    files: tuple[str, ...]
    sample: str


class Task(Record):
    path: str
    start: int = 0
    end: int | None = None
    index: int = 0


class Partial(Record):
    groups: tuple[Group, ...]
    read: int
    unparsed: int


class Triage(Record):
    groups: tuple[Group, ...]
    files: tuple[str, ...]
    bytes_read: int
    unparsed: int
    dropped_groups: int = 0

    def warnings(self) -> list[str]:
        out = []
        if self.unparsed:
            out.append(
                f"{self.unparsed:,} bytes of error-dense log were read but not parsed (a limit "
                f"of {PARSE_BUDGET // 2**20} MB parsed per input; the last errors of each input "
                "are always parsed): counts are lower bounds"
            )
        if self.dropped_groups:
            out.append(f"more than {MAX_GROUPS} distinct errors: {self.dropped_groups} not shown")
        return out


def _key(err: RaisedError) -> tuple[object, ...]:
    """The parser's merge key, on the message's first line: a per-line-prefixed log can have
    the parser join the next record of the same rank and second to a message."""
    frames = tuple(("/".join(f.path.split("/")[-2:]), f.line, f.function) for f in err.frames)
    return (err.type, err.message.split("\n", 1)[0], frames)


class _Acc:
    """Groups being built: key -> [error, count, ranks, first, last, files, sample]."""

    def __init__(self) -> None:
        self.groups: dict[tuple[object, ...], list[Any]] = {}
        self.dropped = 0

    def add(
        self,
        err: RaisedError,
        dates: list[str],
        files: Sequence[str],
        sample: str | Callable[[], str],
    ) -> None:
        """Add one error (`sample`: the text around it, or a function giving it, called only
        for a new group)."""
        key = _key(err)
        g = self.groups.get(key)
        if g is None:
            if len(self.groups) >= MAX_GROUPS:
                self.dropped += 1
                return
            text = sample if isinstance(sample, str) else sample()
            self.groups[key] = [err, err.count, dict.fromkeys(err.ranks), None, None, {}, text]
            g = self.groups[key]
        else:
            if len(err.message) < len(g[0].message):  # the cleanest wording is shown
                g[0] = err
            g[1] += err.count
            g[2].update(dict.fromkeys(err.ranks))
        if dates:
            g[3] = min(dates) if g[3] is None else min(g[3], *dates)
            g[4] = max(dates) if g[4] is None else max(g[4], *dates)
        g[5].update(dict.fromkeys(files))

    def merge(self, groups: Sequence[Group]) -> None:
        for g in groups:
            dates = [d for d in (g.first_seen, g.last_seen) if d]
            self.add(g.error, dates, g.files, g.sample)

    def result(self) -> tuple[Group, ...]:
        from errexplain._startup import replace

        return tuple(
            Group(
                replace(err, count=count, ranks=tuple(r for r in ranks if r)),
                first,
                last,
                tuple(files),
                sample,
            )
            for err, count, ranks, first, last, files, sample in self.groups.values()
        )


def _needle(err: RaisedError) -> str:
    first = err.message.strip().split("\n", 1)[0][:60]
    return first if len(first) >= 8 else err.type or first


def _dates(lines: list[str], err: RaisedError) -> list[str]:
    """Timestamps of the lines that show this error's message (else the nearest line above
    its own that has one)."""
    needle = _needle(err)
    found = [s for ln in lines if needle and needle in ln for s in (stamp(ln),) if s]
    if found:
        return found
    for ln in reversed(lines[: max(err.line_no, 1)]):
        s = stamp(ln)
        if s:
            return [s]
    return []


def _fold(acc: _Acc, data: bytes, name: str, memo: Memo | None = None) -> int:
    """Add the errors of a region to `acc`; returns the bytes parsed. With a memo, a region of
    several tracebacks is parsed one distinct traceback at a time (errexplain.repeats)."""
    if memo is not None and data.find(HEADER, data.find(HEADER) + 1) > 0:  # two or more
        done = fold_units(data, memo, _dates, _sample)
        if done is not None:
            for err, dates, sample in done[0]:
                acc.add(err, dates, (name,), sample)
            return done[1]
    text = data.decode("utf-8", errors="replace")
    errors = parse_traceback(text)
    if not errors:
        return len(data)
    lines = pasted_lines(text)  # (numbered as the parser numbers them: a lone \r breaks too)
    for err in errors:
        acc.add(err, _dates(lines, err), (name,), _sample(lines, err.line_no))
    return len(data)


def _sample(lines: list[str], line_no: int) -> str:
    """SAMPLE characters of a region from 40 lines above the line `line_no` (from 1)."""
    at = sum(len(ln) + 1 for ln in lines[: max(line_no - 40, 0)])
    return "\n".join(lines)[at : at + SAMPLE]


_COUNTERS: Any = None  # shared progress counters of the pool's tasks (set in each worker)


def _init_worker(counters: Any) -> None:
    global _COUNTERS
    _COUNTERS = counters


def scan_stream(
    stream: BinaryIO,
    name: str,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
    budget: int = PARSE_BUDGET,
) -> Partial:
    """Group the errors of one stream (at most `limit` bytes of it)."""
    acc = _Acc()
    parsed = unparsed = read = 0
    tail: list[Region] = []

    def seen(n: int) -> None:
        nonlocal read
        read = n
        if progress is not None:
            progress(n)

    memo = Memo()
    for region in regions(stream, limit, seen):
        if parsed < budget:
            parsed += _fold(acc, region.data, name, memo)
            continue
        tail.append(region)
        if len(tail) > TAIL_REGIONS:
            unparsed += len(tail.pop(0).data)
    for region in tail:
        _fold(acc, region.data, name, memo)
    return Partial(acc.result(), read, unparsed)


def scan_task(
    task: Task, budget: int = PARSE_BUDGET, step: Callable[[int], None] | None = None
) -> Partial:
    """Group the errors of one file or byte range, in a worker process (progress goes to the
    shared counters) or here (progress goes to `step`): bytes of the file on disk read."""
    notebook = _notebook_outputs(task)
    log = open_log(task.path)
    try:
        if task.start:
            log.stream.seek(task.start)
        limit = None if task.end is None else task.end - task.start
        raw = log.raw
        stream = log.stream
        if notebook is not None:  # (read already: the whole file counts as read)
            stream = notebook[0]
            if raw is not None:
                raw.seek(0, os.SEEK_END)

        def progress(n: int) -> None:
            done = raw.tell() - task.start if raw is not None else n
            if step is not None:
                step(done)
            elif _COUNTERS is not None:
                _COUNTERS[task.index] = done

        found = scan_stream(stream, task.path, limit, progress, budget)
    finally:
        log.close()
    return found if notebook is None else replace(found, read=notebook[1])


def _notebook_outputs(task: Task) -> tuple[BinaryIO, int] | None:
    """What a notebook's cells printed (errexplain.parse.notebook), as a stream, and the
    notebook's size, when the task is a whole file that is a Jupyter notebook
    (:func:`_notebook_head`); None for any other file, a range of one, a notebook with no saved
    output or one larger than NOTEBOOK_MAX: read as text."""
    if task.start or task.end is not None:
        return None
    log = open_log(task.path)
    try:
        head = log.stream.read(_HEAD)
        if not _notebook_head(head):
            return None
        data = _read_upto(log.stream, head, NOTEBOOK_MAX + 1)
    except (OSError, EOFError, ValueError):
        return None  # (a broken compressed file: the text reader says so)
    finally:
        log.close()
    if len(data) > NOTEBOOK_MAX:
        return None
    from errexplain.parse.notebook import notebook_outputs

    printed = notebook_outputs(data.decode("utf-8", errors="replace"))
    return None if printed is None else (io.BytesIO(printed.encode("utf-8")), len(data))


def _notebook_head(head: bytes) -> bool:
    """Whether a file's first bytes are a Jupyter notebook's JSON: `{` and one of a notebook's
    top-level keys (nbformat 4 writes `"cells"` first)."""
    return head.lstrip()[:1] == b"{" and any(k in head for k in _NOTEBOOK_KEYS)


def _read_upto(stream: BinaryIO, head: bytes, most: int) -> bytes:
    """`head` and what follows it in `stream`, up to `most` bytes in all."""
    parts, n = [head], len(head)
    while n < most and (chunk := stream.read(min(most - n, 1 << 20))):
        parts.append(chunk)
        n += len(chunk)
    return b"".join(parts)


def _is_notebook(path: str) -> bool:
    log = open_log(path)
    try:
        return _notebook_head(log.stream.read(_HEAD))
    except (OSError, EOFError, ValueError):
        return False
    finally:
        log.close()


class Plan(Record):
    """What to scan: the files in order, the tasks they make and their size on disk."""

    files: tuple[str, ...]
    tasks: tuple[Task, ...]
    total: int
    stdin: bool = False


_COMPRESSED_EXTS = (".gz", ".bz2", ".xz", ".zst")


def plan(paths: Sequence[str], workers: int) -> Plan:
    """The tasks for these paths: a big uncompressed file scanned alone (or with fewer files
    than workers) is split into byte ranges at quiet points, one per worker."""
    files = expand(list(paths))
    on_disk = [f for f in files if f != "-"]
    tasks: list[Task] = []
    for f in on_disk:
        size = os.path.getsize(f)
        plain = os.path.splitext(f)[1].lower() not in _COMPRESSED_EXTS
        if plain and size > SPLIT_AT and len(on_disk) < workers and not _is_notebook(f):
            for a, b in quiet_split(f, workers // len(on_disk), seamless):
                tasks.append(Task(f, a, b, len(tasks)))
        else:
            tasks.append(Task(f, index=len(tasks)))
    total = sum(os.path.getsize(f) for f in on_disk)
    return Plan(tuple(files), tuple(tasks), total, "-" in files)


class Scan:
    """A triage under way (a context manager). With several tasks and workers the workers start
    reading at once, and this process is free for other work until `result`; otherwise the
    tasks run in this process when `result` is called. stdin is always read in this process."""

    def __init__(self, p: Plan, stdin: BinaryIO, workers: int, budget: int = PARSE_BUDGET) -> None:
        self.plan, self.stdin, self.budget = p, stdin, budget
        self.parallel = workers > 1 and len(p.tasks) > 1
        self._pool: Any = None
        self._futures: list[Future[Partial]] = []
        self._counters: Any = None
        if self.parallel:
            self._start(min(workers, len(p.tasks)))

    def _start(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        ctx = multiprocessing.get_context(method)
        self._counters = ctx.Array("q", len(self.plan.tasks), lock=False)
        self._pool = ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_init_worker, initargs=(self._counters,)
        )
        self._futures = [self._pool.submit(scan_task, t, self.budget) for t in self.plan.tasks]

    def __enter__(self) -> Scan:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def result(self, progress: Callable[[int], None] | None = None) -> Triage:
        """Every input's groups, merged in the order the inputs were given."""
        p = self.plan
        done = self._wait(progress) if self.parallel else self._here(progress)
        order = {f: k for k, f in enumerate(p.files)}
        parts = [(order[t.path], part) for t, part in zip(p.tasks, done, strict=True)]
        if p.stdin:
            parts.append((order["-"], scan_stream(self.stdin, "stdin", budget=self.budget)))
        parts.sort(key=lambda kp: kp[0])  # stable: the ranges of one file stay in order
        return merge([part for _, part in parts], p.files)

    def _here(self, progress: Callable[[int], None] | None) -> list[Partial]:
        out = []
        done = 0
        for t in self.plan.tasks:
            mark = done

            def step(n: int, mark: int = mark) -> None:
                if progress is not None:
                    progress(mark + n)

            out.append(scan_task(t, self.budget, step))
            done += os.path.getsize(t.path) if t.end is None else t.end - t.start
        return out

    def _wait(self, progress: Callable[[int], None] | None) -> list[Partial]:
        from concurrent.futures import FIRST_EXCEPTION, wait

        pending = set(self._futures)
        while pending:
            _, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
            if progress is not None:
                progress(sum(self._counters))
            for f in self._futures:
                if f.done() and f.exception() is not None:
                    raise f.exception()  # type: ignore[misc]
        return [f.result() for f in self._futures]


def triage(
    p: Plan,
    stdin: BinaryIO,
    workers: int,
    progress: Callable[[int], None] | None = None,
    budget: int = PARSE_BUDGET,
) -> Triage:
    """Scan every input of the plan and merge the groups in the order the inputs were given
    (stdin is read here, the files in the workers)."""
    with Scan(p, stdin, workers, budget) as scan:
        return scan.result(progress)


def merge(parts: Sequence[Partial], files: Sequence[str]) -> Triage:
    acc = _Acc()
    for part in parts:
        acc.merge(part.groups)
    return Triage(
        acc.result(),
        tuple(files),
        sum(p.read for p in parts),
        sum(p.unparsed for p in parts),
        acc.dropped,
    )
