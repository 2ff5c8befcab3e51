"""Walk many files, in parallel worker processes when there are enough of them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

from errexplain.extract.records import FileResult
from errexplain.extract.sources import SourceFile
from errexplain.extract.visitor import visit_source

Progress = Callable[[int, int], None]
PARALLEL_MIN_FILES = 200
_CHUNK = 16


def _quiet_worker() -> None:
    """Workers ignore Ctrl-C; the parent handles it (see catalog.load.quiet_worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _workers() -> int:
    return min(os.cpu_count() or 1, 8)


def scan(files: Sequence[SourceFile], progress: Progress | None = None) -> list[FileResult]:
    """Visit every file, in input order; ``progress(done, total)`` after each one."""
    total = len(files)
    workers = _workers()
    if total < PARALLEL_MIN_FILES or workers < 2:
        return _collect((visit_source(f.path, f.data) for f in files), total, progress)
    with ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker) as pool:
        results = pool.map(
            visit_source, [f.path for f in files], [f.data for f in files], chunksize=_CHUNK
        )
        return _collect(results, total, progress)


def _collect(
    results: Iterable[FileResult], total: int, progress: Progress | None
) -> list[FileResult]:
    out: list[FileResult] = []
    for result in results:
        out.append(result)
        if progress is not None:
            progress(len(out), total)
    return out
