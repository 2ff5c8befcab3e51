"""tools/walklist.py: the walk lists a corpus collector is given are drawn from the catalog by
kind (older wordings with where they were raised, current ones with their place), reproducible
from their seed, and a later list of one seed starts where an earlier one stopped."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import walklist  # noqa: E402

OLDER = """\
module: sglang/srt/a.py
entries:
- id: '1'
  exception: ValueError
  template: 'the pool ran out of pinned buffers for layer <i> after warm-up'
  source: sglang/srt/a.py:10 Pool.take
  at: 0.4.0..0.4.5 sglang/srt/a.py:10 Pool.take
  removed_in: 0.4.6
- id: '2'
  exception: ValueError
  template: '<x> bad'
  source: sglang/srt/a.py:20 f
  removed_in: 0.4.6
- id: '3'
  exception: RuntimeError
  template: 'the scheduler could not reserve the requested slots for <n> requests'
  source: sglang/srt/a.py:30 Scheduler.reserve
- id: '4'
  exception: AssertionError
  template: 'a test-only message long enough to be listed if it were not in tests'
  source: sglang/test/test_a.py:5 test_it
"""


@pytest.fixture
def catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "srt").mkdir()
    (tmp_path / "srt" / "a.yaml").write_text(OLDER, encoding="utf-8")
    monkeypatch.setattr(walklist, "CATALOG", tmp_path)
    return tmp_path


def test_items_by_kind_with_where_they_were_raised(catalog: Path):
    older = walklist.items("older", 28)
    assert older == [
        "ValueError: the pool ran out of pinned buffers for layer <i> after warm-up  || "
        "0.4.0..0.4.5 sglang/srt/a.py:10 Pool.take"
    ]  # (the placeholder-only `<x> bad` is too short to walk)
    assert walklist.items("current", 28) == [
        "RuntimeError: the scheduler could not reserve the requested slots for <n> requests  || "
        "sglang/srt/a.py:30 Scheduler.reserve"
    ]  # (a message of the project's tests is not listed)


def test_lists_are_seeded_and_skip_continues(catalog: Path, capsys: pytest.CaptureFixture[str]):
    for i in range(5):
        extra = f"""- id: 'c{i}'
  exception: KeyError
  template: 'a current message number {i} with enough literal text to walk'
  source: sglang/srt/a.py:{40 + i} g
"""
        with (catalog / "srt" / "a.yaml").open("a", encoding="utf-8") as f:
            f.write(extra)
    assert walklist.main(["current", "--seed", "3", "--count", "6"]) == 0
    whole = capsys.readouterr().out.splitlines()
    assert walklist.main(["current", "--seed", "3", "--count", "6"]) == 0
    assert capsys.readouterr().out.splitlines() == whole
    assert walklist.main(["current", "--seed", "3", "--count", "2", "--skip", "4"]) == 0
    assert capsys.readouterr().out.splitlines() == whole[4:6]
    assert [ln.split(".", 1)[0] for ln in whole] == ["1", "2", "3", "4", "5", "6"]


def test_bad_counts_are_refused(catalog: Path, capsys: pytest.CaptureFixture[str]):
    assert walklist.main(["older", "--seed", "1", "--count", "0"]) == 2
    assert "--count" in capsys.readouterr().err
