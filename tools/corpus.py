"""Fold collected pastes into the real-paste corpus (bench/real/): python tools/corpus.py DIR...

Each DIR holds `truth.yaml` and `cases/<id>.txt` (bench/real/README.md). Cases are copied into
bench/real/cases/ with their ids prefixed by `--prefix` when given; a case whose source URL and
final message are already in the corpus is skipped. Every new case is given a split, dev or
test, once, at random (seeded by its id, so folding in the same cases again gives the same split);
an existing case's split is never changed.
"""

from __future__ import annotations

import argparse
import hashlib
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--prefix", default="")
    args = ap.parse_args(argv)
    truth_path = CORPUS / "truth.yaml"
    cases = yaml.safe_load(truth_path.read_text(encoding="utf-8")) if truth_path.exists() else []
    seen = {(c["source"], c.get("final_message")) for c in cases}
    ids = {c["id"] for c in cases}
    (CORPUS / "cases").mkdir(parents=True, exist_ok=True)
    added = 0
    for d in args.dirs:
        for c in yaml.safe_load((d / "truth.yaml").read_text(encoding="utf-8")) or []:
            key = (c["source"], c.get("final_message"))
            new_id = f"{args.prefix}{c['id']}"
            if key in seen or new_id in ids:
                print(f"skip {d}/{c['id']}: already in the corpus", file=sys.stderr)
                continue
            text = (d / "cases" / f"{c['id']}.txt").read_bytes()
            (CORPUS / "cases" / f"{new_id}.txt").write_bytes(text)
            c = {**c, "id": new_id, "split": c.get("split") or split_of(new_id)}
            c["expected_alternatives"] = [_site(a) for a in c.get("expected_alternatives") or []]
            cases.append({k: c.get(k) for k in KEYS})
            seen.add(key)
            ids.add(new_id)
            added += 1
    cases.sort(key=lambda c: c["id"])
    truth_path.write_text(
        yaml.safe_dump(cases, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    print(f"added {added}; corpus now {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
