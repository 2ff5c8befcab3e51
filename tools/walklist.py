"""Write a shuffled list of catalogued sglang messages for a corpus collector to walk:
python tools/walklist.py {older,current} --count N --seed S [--skip K] [--out FILE]

A walk looks each listed message up in public threads and notes (the search tool's `find_string`
and `search`) and keeps the pastes it finds (bench/real/COLLECTING.md). `older`: wordings that
the newest release no longer has (entries with `removed_in`), each with the releases and places
it was raised (`at`); `current`: wordings of the newest release outside its tests, each with its
place. Only messages with at least --min-literal characters of literal text (a placeholder-only
or very short message finds everything and nothing). The order is a seeded shuffle, so a list is
made again from its seed; `--skip` starts past the items an earlier list of the same seed took.
Each line: `N. Type: first line of the template  || where`.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
CATALOG = REPO / "errors" / "sglang"
_PLACEHOLDER = re.compile(r"<[^<>]*>")

try:  # the C loader: about ten times faster over the whole catalog
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - pyyaml built without libyaml
    from yaml import SafeLoader as Loader  # type: ignore[assignment]


def _in_tests(source: str) -> bool:
    path = source.split()[0] if source else ""
    name = path.rsplit("/", 1)[-1]
    return "/test/" in path or "/tests/" in path or name.startswith("test_")


def items(kind: str, min_literal: int) -> list[str]:
    """Every listed message of `kind`, in the catalog's file and entry order."""
    out = []
    for f in sorted(CATALOG.rglob("*.yaml")):
        doc = yaml.load(f.read_text(encoding="utf-8"), Loader=Loader)
        if not isinstance(doc, dict):
            continue
        for e in doc.get("entries") or []:
            template = str(e.get("template") or "")
            source = str(e.get("source") or "")
            literal = _PLACEHOLDER.sub("", template).strip()
            if len(literal) < min_literal or _in_tests(source):
                continue
            removed = bool(e.get("removed_in"))
            if removed != (kind == "older"):
                continue
            head = template.splitlines()[0][:160]
            where = str(e.get("at") or source) if removed else source
            out.append(f"{e.get('exception')}: {head}  || {where}"[:400])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=("older", "current"))
    ap.add_argument("--count", type=int, default=130)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--min-literal", type=int, default=28)
    ap.add_argument("--out", type=Path, help="file to write (default: stdout)")
    args = ap.parse_args(argv)
    if args.count < 1 or args.skip < 0:
        print("error: --count must be 1 or more and --skip 0 or more", file=sys.stderr)
        return 2
    listed = items(args.kind, args.min_literal)
    random.Random(args.seed).shuffle(listed)
    chosen = listed[args.skip : args.skip + args.count]
    text = "".join(f"{i}. {item}\n" for i, item in enumerate(chosen, args.skip + 1))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"{len(chosen)} of {len(listed)} {args.kind} messages written to {args.out}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
