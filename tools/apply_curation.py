"""Apply curated text written in the staging format onto the extracted catalog.

Usage: python tools/apply_curation.py CURATION.yaml [...] [--catalog errors/sglang] [--dry-run]

A staging item names a raise site by `path` + `line` (in the pinned release) and carries the
curated layer (meaning, trigger, situations, solutions, example_fix, examples) plus `related`
as a list of {path, line}. Each item is applied only if the site exists and at least one example
matches the site's template; examples that do not match are dropped and reported. Curated text
then survives re-extraction (the extractor never overwrites curated fields).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from errexplain.catalog.yamlio import read_yaml
from errexplain.extract.writer import expand_entry
from errexplain.match.template import match

DERIVED: dict[str, Any] = {}
CURATED = ("meaning", "trigger", "situations", "solutions", "example_fix", "examples")


def as_text(value: Any) -> Any:
    """A YAML plain scalar like `- Step: do this` parses as {'Step': 'do this'}: undo that."""
    if isinstance(value, list):
        return [as_text(v) for v in value]
    if isinstance(value, dict) and len(value) == 1:
        ((k, v),) = value.items()
        return f"{k}: {v}"
    return value


def module_file(root: Path, path: str) -> Path:
    rel = path.split("/", 1)[1] if "/" in path else path
    return root / (rel[:-3] + ".yaml")


def load(path: Path) -> Any:
    return read_yaml(path)


def find(doc: Any, line: int, path: str) -> dict[str, Any] | None:
    for e in doc.get("entries") or []:
        src = expand_entry(e).get("source") or {}
        if src.get("line") == line and src.get("path") == path:
            return e
    return None


def _curate(item: dict[str, Any], entry: dict[str, Any], report: list[str]) -> bool:
    """Copy an item's curated text into its entry; False (and why, in report) if skipped."""
    where = f"{item.get('path')}:{item.get('line')}"
    given = item.get("examples") or []
    examples = [x for x in given if match(entry["template"], x) is not None]
    for x in given:
        if x not in examples:
            report.append(
                f"DROP example of {where}: {x[:70]!r} does not match {entry['template'][:70]!r}"
            )
    if not examples:
        report.append(f"SKIP {where}: no example matches the template")
        return False
    if not item.get("meaning") or len(item.get("solutions") or []) < 1:
        report.append(f"SKIP {where}: no meaning or solutions")
        return False
    DERIVED.setdefault(entry["id"], entry.get("meaning"))
    for key in CURATED:
        if item.get(key):
            entry[key] = as_text(item[key]) if key != "example_fix" else item[key]
    entry["examples"] = examples
    entry["derived"] = False
    return True


def _related_ids(
    item: dict[str, Any], entry: dict[str, Any], doc_for: Any, report: list[str]
) -> list[str]:
    ids: list[str] = []
    for rel in item.get("related") or []:
        d = doc_for(rel["path"])
        target = find(d, rel["line"], rel["path"]) if d else None
        if target is None:
            report.append(
                f"related of {item['path']}:{item['line']}: {rel['path']}:{rel['line']} not found"
            )
        elif target["id"] != entry["id"]:
            ids.append(target["id"])
    return ids


def apply(items: list[dict[str, Any]], root: Path) -> tuple[dict[Path, Any], list[str]]:
    docs: dict[Path, Any] = {}
    report: list[str] = []

    def doc_for(path: str) -> Any:
        f = module_file(root, path)
        if f not in docs:
            docs[f] = load(f) if f.is_file() else None
        return docs[f]

    curated = []
    for item in items:
        doc = doc_for(item["path"])
        entry = find(doc, item["line"], item["path"]) if doc else None
        if entry is None:
            report.append(
                f"SKIP {item.get('path')}:{item.get('line')}: no such site in the catalog"
            )
        elif _curate(item, entry, report):
            item["_entry"] = entry  # (counted as applied by main)
            curated.append((item, entry))
    for item, entry in curated:
        ids = _related_ids(item, entry, doc_for, report)
        old = [r for r in entry.get("related") or [] if r not in ids]
        entry["related"] = (ids + old)[:8]
    return docs, report


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--catalog", default="errors/sglang")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    items: list[dict[str, Any]] = []
    for f in args.files:
        items.extend(load(Path(f)) or [])
    docs, report = apply(items, Path(args.catalog))
    applied = sum(1 for i in items if i.get("_entry") is not None)
    print("\n".join(report))
    print(f"applied {applied} of {len(items)} curated items", file=sys.stderr)
    if not args.dry_run:
        write(docs)
        prune(docs, Path(args.catalog))
    return 0


def write(docs: dict[Path, Any]) -> None:
    from errexplain.extract.writer import dump

    for path, doc in docs.items():
        if doc is not None:
            path.write_text(dump(doc), encoding="utf-8")


def prune(docs: dict[Path, Any], root: Path) -> None:
    """Drop examples that do not rank their entry first; an entry left without examples loses
    its curated layer (it goes back to the derived text of the extractor)."""
    from errexplain.catalog.integrity import examples_rank_first
    from errexplain.catalog.load import load_catalog

    catalog = load_catalog([root.parent])
    bad: dict[str, set[str]] = {}
    for p in examples_rank_first(catalog):
        entry = catalog.by_id()[p.entry_id]
        bad.setdefault(p.entry_id, set()).update(x for x in entry.examples if x[:60] in p.message)
    for doc in docs.values():
        for e in (doc or {}).get("entries") or []:
            if e["id"] not in bad:
                continue
            e["examples"] = [x for x in e.get("examples") or [] if x not in bad[e["id"]]]
            src = expand_entry(e).get("source") or {}
            print(
                f"PRUNE {e['id']} {src.get('path')}:{src.get('line')}: "
                f"{len(bad[e['id']])} example(s) not ranked first"
            )
            if not e["examples"]:
                for key in CURATED:
                    e.pop(key, None)
                e["derived"] = True
                e["meaning"] = DERIVED.get(e["id"]) or e.get("meaning")
    write(docs)


if __name__ == "__main__":
    sys.exit(main())
