"""Build, extend and audit a project's release history in its catalog (docs/catalog.md).

Usage:
  python tools/history.py build --src-root /work/src --versions versions.txt --out errors/sglang
  python tools/history.py add SRC --version X [--out errors/sglang]
  python tools/history.py audit --src-root /work/src --from A --to B
  python tools/history.py check-ids --before OLD_CATALOG_DIR [--after errors/sglang]
  python tools/history.py aliases --before OLD_CATALOG_DIR [--out errors/sglang]

`build` walks every release (`SRC_ROOT/<project>-<version>`, a wheel or sdist unpacked there)
in packaging-version order and rewrites the catalog; a second run changes nothing. `add`
continues the stored history with one release. `audit` prints the pairings between two
releases that were not exact, so a reader can check them. `check-ids` verifies that every id
of an older catalog still exists with its curated fields unchanged. `aliases` adds to
`formerly` the derived ids of an older catalog that a build merged into another wording
without keeping an alias (builds before aliases existed). Walk results are cached by
file content under the user cache dir (`--cache DIR` to choose, `--no-cache` for none).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from packaging.version import Version

from errexplain.catalog.yamlio import read_yaml
from errexplain.extract.filecache import FileCache, default_cache_dir
from errexplain.extract.history import (
    CURATED_KEYS,
    add_aliases,
    build_history,
    history_from_entries,
    lost_aliases,
    paths_from_doc,
    read_releases_file,
    render,
    write_catalog,
)
from errexplain.extract.lineage import Audit, History
from errexplain.extract.merge import curated_related
from errexplain.extract.writer import expand_entry, read_module_files, read_project_file


def _cache(args: argparse.Namespace) -> FileCache:
    if args.no_cache:
        return FileCache(None)
    return FileCache(Path(args.cache) if args.cache else default_cache_dir())


def _versions(path: Path) -> list[str]:
    names = [v.strip() for v in path.read_text().splitlines() if v.strip()]
    return sorted(dict.fromkeys(names), key=Version)


def _source(root: Path, project: str, version: str) -> Path:
    base = root / f"{project}-{version}"
    for candidate in (base, base / "python"):
        if (candidate / project).is_dir():
            return candidate
    return base


def _finish(
    out: Path, history: History, paths: dict[str, set[int]], project: str, started: float
) -> None:
    old_files = read_module_files(out)
    meta, _ = read_project_file(out)
    before = sum(len(cf.entries) for cf in old_files)
    formerly = (read_releases_file(out) or {}).get("formerly") or {}
    rendered = render(history, project, old_files, meta.get("version"), paths, formerly)
    written = write_catalog(out, rendered, old_files)
    after = sum(len(doc["entries"]) for doc in rendered.docs.values())
    print(
        f"releases: {len(history.releases)}  lineages: {rendered.lineages}  "
        f"wordings: {rendered.wordings}  removed lineages: {rendered.removed_lineages}"
    )
    print(f"entries: {before} before, {after} after; files written or removed: {len(written)}")
    for ident in rendered.kept_unmatched:
        print(f"  kept unchanged (not found in the history): {ident}")
    print(f"time: {time.perf_counter() - started:.1f} s")


def cmd_build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    out = Path(args.out)
    meta, _ = read_project_file(out)
    project = str(meta.get("name") or args.project)
    versions = _versions(Path(args.versions))
    sources = [(v, _source(Path(args.src_root), project, v)) for v in versions]
    cache = _cache(args)
    history, paths = build_history(
        sources,
        project,
        cache,
        progress=(lambda m: print(m, file=sys.stderr)) if args.verbose else None,
    )
    cache.close()
    print(
        f"walked {cache.walked} files, reused {cache.hits} from memory and "
        f"{cache.disk_hits} from the disk cache"
    )
    _finish(out, history, paths, project, started)
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    out = Path(args.out)
    meta, _ = read_project_file(out)
    project = str(meta.get("name") or args.project)
    doc = read_releases_file(out)
    if doc is None:
        print(f"{out}: no releases.yaml; run `build` first", file=sys.stderr)
        return 2
    releases = list(doc["releases"])
    if args.version in releases:
        print(f"{args.version} is already in the history", file=sys.stderr)
        return 2
    entries = [e for cf in read_module_files(out) for e in cf.entries]
    history = history_from_entries(releases, entries)
    cache = _cache(args)
    history, paths = build_history(
        [(args.version, Path(args.src))], project, cache, history=history, paths=paths_from_doc(doc)
    )
    cache.close()
    _finish(out, history, paths, project, started)
    return 0


def _describe(a: Audit) -> str:
    s = a.score
    parts = (
        f"score {s.total:.2f} (message {s.message:.2f}, path {s.path:.1f}, "
        f"function {s.function:.1f}, exception {s.exception:.0f}, guard {s.guard:.2f})"
        if s
        else a.how
    )
    return (
        f"{parts}\n  - {a.old.path}:{a.old.line} {a.old.function} {a.old.exception}: "
        f"{a.old.template}\n  + {a.new.path}:{a.new.line} {a.new.function} "
        f"{a.new.exception}: {a.new.template}"
    )


def cmd_audit(args: argparse.Namespace) -> int:
    root = Path(args.src_root)
    cache = _cache(args)
    history, _ = build_history(
        [(v, _source(root, args.project, v)) for v in (args.from_, args.to)], args.project, cache
    )
    cache.close()
    for a in history.audit:
        print(_describe(a))
    born = sum(1 for lin in history.lineages if lin.occurrences[0][0] == 1)
    ended = sum(1 for lin in history.lineages if lin.last[0] == 0)
    print(
        f"{args.from_} -> {args.to}: {len(history.audit)} pairings not exact, "
        f"{ended} sites gone, {born} new"
    )
    return 0


def _by_id(root: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(root.rglob("*.yaml")):
        doc = read_yaml(path)
        if isinstance(doc, dict):
            for e in doc.get("entries") or []:
                out[str(e["id"])] = expand_entry(e)
    return out


def cmd_check_ids(args: argparse.Namespace) -> int:
    before, after = _by_id(Path(args.before)), _by_id(Path(args.after))
    problems = []
    formerly = (read_releases_file(Path(args.after)) or {}).get("formerly") or {}
    merged = 0
    for ident, old in sorted(before.items()):
        new = after.get(ident)
        if new is None and formerly.get(ident) in after and old.get("derived") is not False:
            merged += 1  # a derived wording now part of another: its id names that one
            continue
        if new is None:
            problems.append(f"{ident}: missing")
            continue
        if old.get("derived") is False:
            # an empty related list is the code's to fill (merge.curated_related)
            keys = [k for k in CURATED_KEYS if k != "related" or curated_related(old)]
            changed = [k for k in keys if old.get(k) != new.get(k)]
            if changed:
                problems.append(f"{ident}: curated fields changed: {', '.join(changed)}")
    for p in problems:
        print(p)
    print(
        f"{len(before)} ids before, {len(after)} after, {merged} merged into another wording "
        f"(releases.yaml formerly), {len(problems)} problems"
    )
    return 1 if problems else 0


def cmd_aliases(args: argparse.Namespace) -> int:
    out = Path(args.out)
    before, after = _by_id(Path(args.before)), _by_id(out)
    releases = (read_releases_file(out) or {}).get("releases") or []
    found = lost_aliases(before, after, releases)
    try:
        added = add_aliases(out, found, set(after))
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{len(found)} old ids raised now as another wording, {added} aliases added")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", help="walk cache dir (default: the user cache dir)")
    parser.add_argument("--no-cache", action="store_true", help="no on-disk walk cache")
    parser.add_argument("--project", default="sglang")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="rebuild the whole history")
    p.add_argument("--src-root", required=True)
    p.add_argument("--versions", required=True, help="file with one release per line")
    p.add_argument("--out", default="errors/sglang")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(run=cmd_build)
    p = sub.add_parser("add", help="continue the history with one release")
    p.add_argument("src", help="the release's source tree, wheel or sdist")
    p.add_argument("--version", required=True)
    p.add_argument("--out", default="errors/sglang")
    p.set_defaults(run=cmd_add)
    p = sub.add_parser("audit", help="print the non-exact pairings between two releases")
    p.add_argument("--src-root", required=True)
    p.add_argument("--from", dest="from_", required=True)
    p.add_argument("--to", required=True)
    p.set_defaults(run=cmd_audit)
    p = sub.add_parser("check-ids", help="every old id still exists, curated text unchanged")
    p.add_argument("--before", required=True)
    p.add_argument("--after", default="errors/sglang")
    p.set_defaults(run=cmd_check_ids)
    p = sub.add_parser("aliases", help="keep the ids an older build merged without an alias")
    p.add_argument("--before", required=True)
    p.add_argument("--out", default="errors/sglang")
    p.set_defaults(run=cmd_aliases)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
