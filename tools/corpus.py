"""Fold collected pastes into the real-paste corpus (bench/real/): python tools/corpus.py DIR...

Each DIR holds `truth.yaml` and `cases/<id>.txt` (bench/real/README.md). Cases are copied into
bench/real/cases/ with their ids prefixed by `--prefix` when given; a case whose source URL and
final message are already in the corpus is skipped. Every new case is given a split, dev or
test, once, at random (seeded by its id, so folding in the same cases again gives the same split);
an existing case's split is never changed. A case whose text shares half of its 8-word runs (40 at
least) with a case in the corpus (the same paste in another copy of a file, another index id, a
thread's digest) is not folded in unless `--force`: look at both (two people's pastes of one
stack share most of their runs too).

`python tools/corpus.py --taken FILE` writes the source URL of every case, kept or excluded, one
per line, sorted: the list a collector skips (bench/real/COLLECTING.md).

`python tools/corpus.py --exclude ID[,ID...] --reason TEXT` moves cases out of the corpus into
bench/real/excluded.yaml (their id, split, source, final message and the reason; the paste's
text is deleted): a case found not to be a real paste after it was folded in. A source listed
there is never folded in again.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "bench" / "real"
KEYS = (
    "id",
    "split",
    "source",
    "exception_type",
    "final_message",
    "category",
    "formats",
    "release",
    "expected_path",
    "expected_line",
    "expected_literal",
    "expected_alternatives",
    "release_site",
    "expected_project",
    "notes",
)


def split_of(case_id: str) -> str:
    digest = hashlib.sha256(f"errexplain-corpus:{case_id}".encode()).digest()
    return "dev" if digest[0] % 2 == 0 else "test"


def _site(alt: object) -> dict[str, object]:
    """An accepted alternative site as truth.yaml holds it, `{path, line}`, from that or from a
    collector's `path:line` string."""
    if isinstance(alt, dict):
        return alt
    path, _, line = str(alt).rpartition(":")
    if not path or not line.strip().isdigit():
        return {"path": str(alt), "line": None}
    return {"path": path.strip(), "line": int(line)}


EXCLUDED_KEYS = ("id", "split", "source", "final_message", "reason")


def _read(path: Path) -> list[dict[str, object]]:
    return (yaml.safe_load(path.read_text(encoding="utf-8")) or []) if path.exists() else []


def _write(path: Path, cases: list[dict[str, object]]) -> None:
    cases.sort(key=lambda c: str(c["id"]))
    path.write_text(
        yaml.safe_dump(cases, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )


def exclude(ids: list[str], reason: str) -> int:
    """Move the cases `ids` from truth.yaml to excluded.yaml with `reason`; their text goes."""
    truth_path, excluded_path = CORPUS / "truth.yaml", CORPUS / "excluded.yaml"
    cases, excluded = _read(truth_path), _read(excluded_path)
    unknown = set(ids) - {str(c["id"]) for c in cases}
    if unknown:
        print(f"error: not in the corpus: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for c in cases:
        if c["id"] in ids:
            excluded.append({k: (reason if k == "reason" else c.get(k)) for k in EXCLUDED_KEYS})
            (CORPUS / "cases" / f"{c['id']}.txt").unlink(missing_ok=True)
    _write(truth_path, [c for c in cases if c["id"] not in ids])
    _write(excluded_path, excluded)
    print(f"excluded {len(ids)}; corpus now {len(cases) - len(ids)} cases")
    return 0


def write_taken(out: Path) -> int:
    """Write the source of every case, kept or excluded, one per line, sorted and unique (a
    collector skips these threads and pages; folding skips them anyway, by source and message)."""
    if out.resolve().is_relative_to(CORPUS.resolve()):
        print("error: --taken writes outside bench/real/", file=sys.stderr)
        return 2
    sources = {
        str(c["source"])
        for c in [*_read(CORPUS / "truth.yaml"), *_read(CORPUS / "excluded.yaml")]
        if c.get("source")
    }
    out.write_text("".join(f"{s}\n" for s in sorted(sources)), encoding="utf-8")
    print(f"{len(sources)} sources written to {out}")
    return 0


OVERLAP, OVERLAP_RUNS = 0.5, 40
"""Share of a new case's 8-word runs found in one corpus case, and their least number, that make
it a copy of that one (a paste of a message alone shares all its few runs with every other paste
of that message: not a copy)."""
_WORD = re.compile(r"\w+")


def shingles(text: str) -> set[tuple[str, ...]]:
    """The 8-word runs of a text, lower-cased (its words only: punctuation and layout aside)."""
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + 8]) for i in range(max(0, len(words) - 7))}


COMMON_IN = 5
"""A run found in this many corpus cases is boilerplate (sglang's issue template checklist, a
standard CUDA error's advice), not evidence of a copy: left out when cases are compared."""


def common_runs(corpus: dict[str, set[tuple[str, ...]]]) -> set[tuple[str, ...]]:
    """The runs found in COMMON_IN corpus cases or more."""
    seen: dict[tuple[str, ...], int] = {}
    for own in corpus.values():
        for run in own:
            seen[run] = seen.get(run, 0) + 1
    return {run for run, n in seen.items() if n >= COMMON_IN}


def copy_of(
    runs: set[tuple[str, ...]],
    corpus: dict[str, set[tuple[str, ...]]],
    common: set[tuple[str, ...]],
) -> tuple[str, float] | None:
    """The corpus case a text of these 8-word `runs` mostly repeats (OVERLAP or more of them,
    boilerplate runs left out), or None."""
    own = runs - common
    if not own:
        return None
    shares = ((k, len(own & v)) for k, v in corpus.items())
    best = max(shares, key=lambda kv: kv[1], default=None)
    if best is None or best[1] < OVERLAP_RUNS or best[1] < OVERLAP * len(own):
        return None
    return best[0], best[1] / len(own)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="*", type=Path)
    ap.add_argument("--prefix", default="")
    ap.add_argument("--exclude", default="", help="comma-separated case ids to move out")
    ap.add_argument("--reason", default="", help="why the excluded cases are no real pastes")
    ap.add_argument("--force", action="store_true", help="fold in copies of corpus cases too")
    ap.add_argument("--taken", type=Path, help="write every case's source URL to this file")
    args = ap.parse_args(argv)
    if args.taken:
        return write_taken(args.taken)
    if args.exclude:
        if not args.reason.strip():
            print("error: --exclude needs --reason", file=sys.stderr)
            return 2
        return exclude([i.strip() for i in args.exclude.split(",") if i.strip()], args.reason)
    if not args.dirs:
        print("error: give round directories to fold in, or --exclude", file=sys.stderr)
        return 2
    truth_path = CORPUS / "truth.yaml"
    cases = _read(truth_path)
    excluded = _read(CORPUS / "excluded.yaml")
    seen = {(c["source"], c.get("final_message")) for c in [*cases, *excluded]}
    ids = {c["id"] for c in [*cases, *excluded]}
    (CORPUS / "cases").mkdir(parents=True, exist_ok=True)
    runs = {
        p.stem: shingles(p.read_text(encoding="utf-8", errors="replace"))
        for p in (CORPUS / "cases").glob("*.txt")
    }
    common = common_runs(runs)
    added = 0
    for d in args.dirs:
        for c in yaml.safe_load((d / "truth.yaml").read_text(encoding="utf-8")) or []:
            key = (c["source"], c.get("final_message"))
            new_id = f"{args.prefix}{c['id']}"
            if key in seen or new_id in ids:
                print(f"skip {d}/{c['id']}: already in the corpus", file=sys.stderr)
                continue
            text = (d / "cases" / f"{c['id']}.txt").read_bytes()
            own = shingles(text.decode("utf-8", "replace"))
            copy = None if args.force else copy_of(own, runs, common)
            if copy is not None:
                print(
                    f"skip {d}/{c['id']}: {copy[1]:.0%} of its text is case {copy[0]}'s "
                    "(--force folds it in)",
                    file=sys.stderr,
                )
                continue
            runs[new_id] = own
            (CORPUS / "cases" / f"{new_id}.txt").write_bytes(text)
            c = {**c, "id": new_id, "split": c.get("split") or split_of(new_id)}
            c["expected_alternatives"] = [_site(a) for a in c.get("expected_alternatives") or []]
            cases.append({k: c.get(k) for k in KEYS})
            seen.add(key)
            ids.add(new_id)
            added += 1
    _write(truth_path, cases)
    print(f"added {added}; corpus now {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
