"""The byte-search path of `errexplain scan` (regions found by byte search, blocks, byte ranges
split over workers, compressed input) groups exactly what a plain parse of each whole file
groups: same errors, counts, ranks, first/last seen and files, on varied generated logs."""

from __future__ import annotations

import gzip
import io

import pytest
from tests.logs_data import varied_log

from errexplain import triage as tr
from errexplain.input import logs


def _simple(paths):
    """The reference: each file decoded whole and parsed at once, line by line."""
    acc = tr._Acc()
    for p in paths:
        raw = p.read_bytes()
        tr._fold(acc, gzip.decompress(raw) if p.suffix == ".gz" else raw, str(p))
    return acc.result()


def _fast(paths, workers):
    plan = tr.plan([str(p) for p in paths], workers)
    return tr.triage(plan, io.BytesIO(), workers).groups


def _facts(groups):
    """Everything a group says. Dates are compared where the error's own lines carry a
    timestamp (rank-prefixed records): an unstamped traceback is dated by the nearest stamped
    line above it, and a whole-file parse merges its repeats into one occurrence before dating,
    so the reference can only date the first of them."""
    return sorted(
        (
            g.error.type,
            g.error.message,
            tuple((f.path, f.line, f.function) for f in g.error.frames),
            g.error.count,
            tuple(sorted(g.error.ranks)),
            (g.first_seen, g.last_seen) if g.error.ranks else None,
            g.files,
        )
        for g in groups
    )


def _write(tmp_path, seed, dense):
    a = tmp_path / "node0.log"
    a.write_text(varied_log(seed, dense=dense), newline="")
    b = tmp_path / "node1.log.gz"
    b.write_bytes(gzip.compress(varied_log(seed + 1000, records=150, dense=dense).encode()))
    return [a, b]


@pytest.mark.parametrize("dense", [False, True], ids=["sparse", "dense"])
@pytest.mark.parametrize("seed", range(8))
def test_fast_path_groups_like_a_whole_file_parse(tmp_path, monkeypatch, seed, dense):
    paths = _write(tmp_path, seed, dense)
    want = _facts(_simple(paths))
    assert want  # every generated log has errors
    monkeypatch.setattr(logs, "BLOCK", 32 * 1024)  # many blocks: windows cross block ends
    assert _facts(_fast(paths, 1)) == want
    monkeypatch.setattr(tr, "SPLIT_AT", 1024)  # the big file in byte ranges over 2 workers
    assert _facts(_fast(paths[:1], 2)) == _facts(_simple(paths[:1]))
