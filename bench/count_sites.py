"""Count message-carrying raise/assert sites independently and check the catalog covers them.

Usage: python bench/count_sites.py WHEEL_OR_DIR [--catalog errors/sglang] [--show N]

The count is deliberately naive and shares no code with ``errexplain.extract``: a plain
``ast.walk`` over every ``Raise`` whose exception is a call with at least one argument, and
every ``Assert`` with a message. Each site is then looked up in the catalog by
(path, line, kind); missing sites are grouped by a coarse reason.
"""

from __future__ import annotations

import argparse
import ast
import sys
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import yaml


def iter_files(source: Path) -> Iterator[tuple[str, bytes]]:
    if source.is_dir():
        root = source.parent if (source / "__init__.py").exists() else source
        for path in sorted(source.rglob("*.py")):
            yield path.relative_to(root).as_posix(), path.read_bytes()
        return
    with zipfile.ZipFile(source) as archive:
        for name in sorted(archive.namelist()):
            if name.endswith(".py") and ".dist-info/" not in name:
                yield name, archive.read(name)


def _reason(node: ast.AST) -> str:
    if isinstance(node, ast.Assert):
        return f"assert with a {type(node.msg).__name__} message"
    assert isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
    func = node.exc.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if name.lstrip("_")[:1].islower():
        return "raise of a lower-case call (helper function?)"
    if all(isinstance(a, ast.Starred) for a in node.exc.args) and not node.exc.keywords:
        return "only *args"
    return f"raise with a {type(node.exc.args[0] if node.exc.args else node.exc).__name__} arg"


def count(source: Path) -> tuple[dict[tuple[str, int, str], ast.AST], list[str]]:
    sites: dict[tuple[str, int, str], ast.AST] = {}
    broken = []
    for path, data in iter_files(source):
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError) as exc:
            broken.append(f"{path}: {exc}")
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                if node.exc.args or node.exc.keywords:
                    sites[(path, node.lineno, "raise")] = node
            elif isinstance(node, ast.Assert) and node.msg is not None:
                sites[(path, node.lineno, "assert")] = node
    return sites, broken


def catalog_sites(catalog: Path) -> set[tuple[str, int, str]]:
    found = set()
    for file in catalog.rglob("*.yaml"):
        doc = yaml.load(file.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        for entry in (doc or {}).get("entries") or []:
            src = entry.get("source") or {}
            if entry.get("removed_in") or "path" not in src:
                continue
            found.add((src["path"], src["line"], entry.get("kind", "raise")))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("--catalog", type=Path, default=Path("errors/sglang"))
    parser.add_argument("--show", type=int, default=5, help="examples listed per reason")
    args = parser.parse_args(argv)
    sites, broken = count(args.source)
    kinds = Counter(kind for _, _, kind in sites)
    print(
        f"message-carrying sites: {len(sites)} ({kinds['raise']} raise, {kinds['assert']} assert)"
    )
    for line in broken:
        print(f"  unparsable: {line}")
    catalog = catalog_sites(args.catalog)
    missing = defaultdict(list)
    for key, node in sorted(sites.items(), key=lambda kv: kv[0]):
        if key not in catalog:
            missing[_reason(node)].append(f"{key[0]}:{key[1]}: {ast.unparse(node)[:120]}")
    covered = len(sites) - sum(len(v) for v in missing.values())
    pct = 100.0 * covered / len(sites) if sites else 100.0
    extra = len(catalog - set(sites))
    print(
        f"catalog covers {covered}/{len(sites)} = {pct:.2f}% "
        f"(+{extra} catalog sites the naive count does not see, e.g. helper returns)"
    )
    for reason, items in sorted(missing.items(), key=lambda kv: -len(kv[1])):
        print(f"missing, {reason}: {len(items)}")
        for item in items[: args.show]:
            print(f"    {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
