"""errexplain.input.logs: candidate lines found by byte search, regions around them, bounded
regions on dense logs, compressed files, directories and byte ranges."""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import lzma

import pytest
from tests.logs_data import CUDA, burst, info, traceback

from errexplain.errors import InputError
from errexplain.input import logs
from errexplain.input.logs import candidates, expand, open_log, quiet_split, regions


def _regions(data: bytes, **kw):
    return list(regions(io.BytesIO(data), **kw))


def _text(data: bytes, **kw) -> str:
    return "".join(r.data.decode() for r in _regions(data, **kw))


def test_candidates_find_each_kind_of_error_line():
    text = (
        b"ok line\n"
        b"ValueError: bad\n"
        b"[x] ERROR: failed\n"
        b"an Exception here\n"
        b'{"object": "error", "message": "m"}\n'
        b"Traceback (most recent call last):\n"
        b"Elephant Emu\n"  # an E that starts none of the words
        b"{no body}\n"
    )
    starts = [line for line, _ in candidates(text)]
    lines = [text[s : text.index(b"\n", s)] for s in starts]
    assert lines == [
        b"ValueError: bad",
        b"[x] ERROR: failed",
        b"an Exception here",
        b'{"object": "error", "message": "m"}',
        b"Traceback (most recent call last):",
    ]


def test_dense_anchor_bytes_fall_back_to_word_search():
    noise = b"EEEE {{{{ " * 2000 + b"\n"
    text = noise + b"KeyError: 'x'\n" + noise + b'{"detail": "Not Found"}\n'
    lines = [text[s : text.index(b"\n", s)] for s, _ in candidates(text)]
    assert lines == [b"KeyError: 'x'", b'{"detail": "Not Found"}']


def test_a_quiet_log_has_no_regions():
    assert _regions(info("2026-01-01 00:00:00", 500).encode()) == []


def test_region_holds_the_whole_traceback_and_little_else():
    quiet = info("2026-01-01 00:00:00", 300)
    data = (quiet + traceback("2026-01-01 00:00:01", 0) + quiet).encode()
    found = _regions(data)
    assert len(found) == 1
    text = found[0].data.decode()
    assert "Traceback (most recent call last)" in text and CUDA in text
    assert len(text.splitlines()) <= logs.BEFORE + 1 + logs.HEADER_AFTER
    assert data[found[0].offset :].startswith(found[0].data)


def test_a_traceback_with_no_error_word_is_found_by_its_header():
    tb = 'Traceback (most recent call last):\n  File "x.py", line 1, in f\nKeyboardInterrupt\n'
    data = (info("2026-01-01 00:00:00", 300) + tb + info("2026-01-01 00:00:00", 300)).encode()
    assert "KeyboardInterrupt" in _text(data)


def test_windows_merge_and_regions_cross_blocks(monkeypatch):
    monkeypatch.setattr(logs, "BLOCK", 16 * 1024)
    quiet = info("2026-01-01 00:00:00", 200)
    data = "".join(quiet + burst(f"2026-01-01 00:00:0{k}", range(4)) for k in range(5)).encode()
    found = _regions(data)
    assert len(found) == 5
    for r in found:
        assert data[r.offset : r.offset + len(r.data)] == r.data
        assert r.data.decode().count(CUDA) == 4


def test_a_last_line_without_line_end_is_read():
    data = (info("2026-01-01 00:00:00", 50) + "ValueError: at the very end").encode()
    assert _text(data).endswith("ValueError: at the very end\n")


def test_a_dense_log_gives_bounded_regions_and_keeps_the_final_traceback(monkeypatch):
    monkeypatch.setattr(logs, "BLOCK", 64 * 1024)
    body = "".join(burst(f"2026-01-01 00:00:{k % 60:02d}", range(8)) for k in range(600))
    data = (body + traceback("2026-01-01 23:59:59", 3, "ValueError: the very last one")).encode()
    found = _regions(data, max_region=16 * 1024)
    assert all(len(r.data) <= 16 * 1024 for r in found)
    assert b"".join(r.data for r in found) == data  # every byte once, in order
    assert found[-1].data.decode().endswith("ValueError: the very last one\n")


def test_limit_reads_a_byte_range():
    data = (burst("2026-01-01 00:00:00", range(2)) + info("2026-01-01 00:00:01", 100)).encode()
    half = data.index(b"Decode")
    stream = io.BytesIO(data)
    assert b"".join(r.data for r in regions(stream, limit=half)).count(CUDA.encode()) == 2


def test_quiet_split_cuts_at_line_starts_away_from_errors(tmp_path):
    quiet = info("2026-01-01 00:00:00", 3000)
    data = (quiet + burst("2026-01-01 00:00:01", range(8)) + quiet) * 3
    path = tmp_path / "big.log"
    path.write_text(data)
    ranges = quiet_split(str(path), 2)
    raw = path.read_bytes()
    assert ranges[0][0] == 0 and ranges[-1][1] == len(raw)
    for (_, b), (c, _) in itertools.pairwise(ranges):
        assert b == c and raw[b - 1 : b] == b"\n"
    total = 0
    for a, b in ranges:
        with open(path, "rb") as fh:
            fh.seek(a)
            total += sum(r.data.count(CUDA.encode()) for r in regions(fh, limit=b - a))
    assert total == 24


@pytest.mark.parametrize(
    ("suffix", "compress"),
    [(".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress), (".log", bytes)],
)
def test_open_log_decompresses_by_extension(tmp_path, suffix, compress):
    data = burst("2026-01-01 00:00:00", range(2)).encode()
    path = tmp_path / f"server{suffix}"
    path.write_bytes(compress(data))
    log = open_log(str(path))
    try:
        assert log.stream.read() == data
        assert log.size == path.stat().st_size
    finally:
        log.close()


def test_open_log_zstd(tmp_path):
    zstandard = pytest.importorskip("zstandard")
    path = tmp_path / "server.log.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(b"ValueError: x\n"))
    log = open_log(str(path))
    try:
        assert log.stream.read() == b"ValueError: x\n"
    finally:
        log.close()


def test_zst_without_zstandard_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(logs, "zstd_available", lambda: False)
    path = tmp_path / "server.log.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd")
    with pytest.raises(InputError, match="zstandard") as info_:
        open_log(str(path))
    assert "errexplain[zstd]" in (info_.value.hint or "")


def test_expand_walks_directories_sorted_skipping_hidden(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / ".git").mkdir()
    for name in ("b/2.log", "b/1.log.gz", "a.log", ".hidden", ".git/x"):
        (tmp_path / name).write_text("x")
    got = expand([str(tmp_path), "-", str(tmp_path / "a.log")])
    assert [p.replace(str(tmp_path), "") for p in got] == ["/a.log", "/b/1.log.gz", "/b/2.log", "-"]


def test_expand_and_open_report_missing_paths(tmp_path):
    with pytest.raises(InputError, match="no such file or directory"):
        expand([str(tmp_path / "nope")])
    with pytest.raises(InputError, match="no such file"):
        open_log(str(tmp_path / "nope.log"))


def test_lines_longer_than_the_buffer(monkeypatch):
    monkeypatch.setattr(logs, "BLOCK", 4096)
    long_line = "x" * 20000 + "\n"
    data = (long_line * 3 + "ValueError: after long lines\n" + long_line * 3).encode()
    assert "ValueError: after long lines" in _text(data)


def test_a_window_still_owed_lines_at_a_block_end_keeps_them_all(monkeypatch):
    """A header wants HEADER_AFTER lines; an error word a few lines below it, with the block
    ending just after, wants only AFTER: the window must still reach the end of the traceback
    (here a KeyboardInterrupt, which has no error word), wherever the block ends."""
    frames = "".join(f'  File "m{k}.py", line {k}, in f{k}\n    step({k})\n' for k in range(40))
    tb = (
        "Traceback (most recent call last):\n"
        '  File "start.py", line 1, in <module>\n'
        "    raise_if(ValueError)\n" + frames + "KeyboardInterrupt\n"
    )
    quiet = info("2026-01-01 00:00:00", 400)
    data = (quiet + tb + quiet).encode()
    at = data.index(b"    raise_if")
    for block in range(at + 40, at + 1200, 97):
        monkeypatch.setattr(logs, "BLOCK", block)
        text = _text(data)
        assert tb in text, block


def test_a_run_of_tracebacks_is_one_window_without_looking_between_the_headers(monkeypatch):
    """A dense stretch gives the regions it gave when every candidate line was looked at,
    but the candidates between the headers of a run are not looked for."""
    text = "".join(
        info(f"2026-10-02 10:00:{k:02d}", k % 3) + burst(f"2026-10-02 10:00:{k:02d}", range(8))
        for k in range(60)
    ).encode()
    looked: list[int] = []
    real = logs.candidates

    def counted(buf, start=0, end=None):
        looked.append((len(buf) if end is None else end) - start)
        return real(buf, start, end)

    monkeypatch.setattr(logs, "MAX_REGION", 16 * 1024)
    monkeypatch.setattr(logs, "candidates", counted)
    for block in (4096, 32 * 1024, 1024 * 1024):
        monkeypatch.setattr(logs, "BLOCK", block)
        monkeypatch.setattr(logs, "RUN", 8)
        looked.clear()
        fast = _regions(text)
        assert sum(looked) < len(text) // 4
        monkeypatch.setattr(logs, "RUN", 10**9)  # no runs: every candidate line
        assert fast == _regions(text)


def test_a_long_region_is_not_cut_between_a_chain_line_and_the_traceback_below(monkeypatch):
    monkeypatch.setattr(logs, "MAX_REGION", 4096)
    chained = (
        traceback("2026-10-02 10:00:00", 0, "KeyError: 'w'")
        + "During handling of the above exception, another exception occurred:\n\n"
    )
    text = (
        burst("2026-10-02 10:00:00", range(4)) + chained + traceback("2026-10-02 10:00:00", 0)
    ) * 20
    for region in logs.regions(io.BytesIO(text.encode())):
        assert not region.data.rstrip().endswith(b"another exception occurred:")
