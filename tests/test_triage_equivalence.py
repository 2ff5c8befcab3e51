"""The byte-search path of `errexplain scan` (regions found by byte search, blocks, byte ranges
split over workers, compressed input) groups exactly what a plain parse of each whole file
groups: same errors, counts, ranks, first/last seen and files, on varied generated logs."""

from __future__ import annotations

import gzip
import io

import pytest
from tests.logs_data import crash_loop, varied_log

from errexplain import repeats
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


@pytest.mark.heavy
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


def _groups(part):
    """Every field of every group, as `errexplain scan` reports it."""
    return [(g.error, g.first_seen, g.last_seen, g.files, g.sample) for g in part.groups]


def _one_task(path, budget=tr.PARSE_BUDGET):
    return tr.scan_task(tr.Task(str(path)), budget)


@pytest.mark.parametrize("seed", range(6))
def test_a_crash_loop_groups_like_a_whole_file_parse_parsing_each_traceback_once(
    tmp_path, monkeypatch, seed
):
    """Repeats that differ in rank, time or a number in the message group exactly as the
    whole-file parse groups them, and only the distinct tracebacks are parsed."""
    path = tmp_path / "loop.log"
    path.write_text(crash_loop(seed), newline="")
    want = _facts(_simple([path]))
    monkeypatch.setattr(logs, "BLOCK", 32 * 1024)
    monkeypatch.setattr(logs, "MAX_REGION", 16 * 1024)
    parsed = []
    real = repeats.self_contained
    monkeypatch.setattr(repeats, "self_contained", lambda *a: parsed.append(1) or real(*a))
    assert _facts(_fast([path], 1)) == want
    assert 0 < len(parsed) < 400 / 2  # 400 tracebacks
    monkeypatch.setattr(tr, "SPLIT_AT", 1024)  # two byte ranges, cut between two tracebacks
    assert len(tr.plan([str(path)], 2).tasks) == 2
    assert _facts(_fast([path], 2)) == want


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("make", [crash_loop, lambda s: varied_log(s, dense=True)])
def test_parsing_distinct_tracebacks_reports_what_parsing_each_region_reports(
    tmp_path, monkeypatch, seed, make
):
    """Every field (the error record with its line number, dates, files, the sample), also
    where a region must be parsed whole (chains, log lines, the same rank twice a second)."""
    path = tmp_path / "dense.log"
    path.write_text(make(seed) * 2, newline="")
    monkeypatch.setattr(logs, "BLOCK", 64 * 1024)
    monkeypatch.setattr(logs, "MAX_REGION", 16 * 1024)
    new = _one_task(path)
    monkeypatch.setattr(tr, "fold_units", lambda *a: None)  # each region parsed whole
    assert _groups(new) == _groups(_one_task(path))


@pytest.mark.heavy
def test_a_repeating_dense_log_past_the_parse_budget_is_counted_whole(tmp_path):
    """Repeats cost no parse: a crash loop far larger than the budget has exact counts."""
    path = tmp_path / "loop.log"
    path.write_text(crash_loop(1) * 20, newline="")
    whole = _facts(_simple([path]))
    part = _one_task(path, budget=32 * 1024)
    assert part.unparsed == 0
    assert _facts(part.groups) == whole
