"""tools/corpus.py: folding a round into the real-paste corpus skips copies of corpus cases, and
a case found to be no real paste moves to excluded.yaml, never folded in again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import corpus  # noqa: E402

PASTE = (
    "".join(
        f"[rank{r}] shard {r} of the checkpoint loaded into the pinned pool at offset {r * 4096}\n"
        for r in range(8)
    )
    + "RuntimeError: the pool ran out of pinned buffers for layer 3 after the warm-up finished\n"
)


def _round(root: Path, cases: dict[str, str]) -> Path:
    (root / "cases").mkdir(parents=True)
    items = []
    for cid, text in cases.items():
        (root / "cases" / f"{cid}.txt").write_text(text, encoding="utf-8")
        items.append({"id": cid, "source": f"https://example.org/{cid}", "final_message": cid})
    (root / "truth.yaml").write_text(yaml.safe_dump(items), encoding="utf-8")
    return root


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(corpus, "CORPUS", tmp_path / "real")
    return tmp_path / "real"


def _ids(home: Path, name: str) -> list[str]:
    return [c["id"] for c in yaml.safe_load((home / name).read_text(encoding="utf-8"))]


def test_a_copy_of_a_corpus_case_is_not_folded_in(home: Path, tmp_path: Path):
    assert corpus.main([str(_round(tmp_path / "r1", {"aa001": PASTE}))]) == 0
    copy = "Notes, second copy:\n" + PASTE
    other = "A different paste: ValueError: bad page size 64 for the cache\n"
    # the error line alone, as another person pastes it: few runs, all shared, no copy
    alone = PASTE.splitlines()[-1] + "\n"
    rnd = _round(tmp_path / "r2", {"bb001": copy, "bb002": other, "bb003": alone})
    assert corpus.main([str(rnd)]) == 0
    assert _ids(home, "truth.yaml") == ["aa001", "bb002", "bb003"]
    assert corpus.main(["--force", str(tmp_path / "r2")]) == 0
    assert _ids(home, "truth.yaml") == ["aa001", "bb001", "bb002", "bb003"]


def test_an_excluded_case_leaves_the_corpus_and_stays_out(home: Path, tmp_path: Path):
    assert corpus.main([str(_round(tmp_path / "r1", {"aa001": PASTE}))]) == 0
    assert corpus.main(["--exclude", "aa001"]) == 2  # (a reason is required)
    assert corpus.main(["--exclude", "zz999", "--reason", "x"]) == 2  # (not in the corpus)
    assert corpus.main(["--exclude", "aa001", "--reason", "a catalog page"]) == 0
    assert _ids(home, "truth.yaml") == [] and _ids(home, "excluded.yaml") == ["aa001"]
    assert not (home / "cases" / "aa001.txt").exists()
    (excluded,) = yaml.safe_load((home / "excluded.yaml").read_text(encoding="utf-8"))
    assert excluded["reason"] == "a catalog page" and excluded["split"] in ("dev", "test")
    assert corpus.main([str(tmp_path / "r1")]) == 0  # (folding the round again: still out)
    assert _ids(home, "truth.yaml") == []


def test_taken_lists_kept_and_excluded_sources_once(home: Path, tmp_path: Path):
    rnd = _round(tmp_path / "r1", {"aa001": PASTE, "aa002": "ValueError: bad page size 64\n"})
    assert corpus.main([str(rnd)]) == 0
    assert corpus.main(["--exclude", "aa002", "--reason", "a generated page"]) == 0
    out = tmp_path / "taken.txt"
    assert corpus.main(["--taken", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines() == [
        "https://example.org/aa001",
        "https://example.org/aa002",
    ]


def test_taken_never_writes_into_the_corpus(home: Path, tmp_path: Path):
    assert corpus.main([str(_round(tmp_path / "r1", {"aa001": PASTE}))]) == 0
    before = sorted(p.name for p in home.rglob("*"))
    assert corpus.main(["--taken", str(home / "truth.yaml")]) == 2
    assert sorted(p.name for p in home.rglob("*")) == before
    assert _ids(home, "truth.yaml") == ["aa001"]
