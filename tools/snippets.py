"""Build the catalog's source snippets (errexplain/_snippets/<project>.snip, format in
errexplain.catalog.snippets) from unpacked releases.

Usage:
  python tools/snippets.py --src-root /work/src [--project sglang] [--out src/errexplain/_snippets]

For every entry of the bundled catalog whose source (release, path, line) exists under
`SRC_ROOT/<project>-<release>/`, the snippet is the statement at that line (its whole extent,
from the file's syntax tree) with up to BEFORE lines before and AFTER lines after, at most
MAX_LINES in all. The project's license file is copied beside the snippets (the wheel ships
both). Run it again after the catalog gains releases; the output is deterministic.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import sys
import zlib
from collections import Counter
from pathlib import Path

from errexplain.catalog.snippets import format_meta, pack
from errexplain.catalog.store import load

BEFORE, AFTER, MAX_LINES = 4, 2, 16
LICENSES = {"sglang": "Apache-2.0"}


def _extents(source: str) -> dict[int, int]:
    """First line -> last line of every statement (the widest that starts on a line)."""
    out: dict[int, int] = {}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return out
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(
            node,
            (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.ClassDef,
                ast.If,
                ast.For,
                ast.While,
                ast.With,
                ast.Try,
                ast.AsyncFor,
                ast.AsyncWith,
            ),
        ):
            end = node.end_lineno or node.lineno
            out[node.lineno] = max(out.get(node.lineno, node.lineno), end)
    return out


def _cpp_extents(source: str) -> dict[int, int]:
    """First line -> last line of the statement starting on each line of a C/C++ source: up
    to the line its `;` ends (a check streamed or called over several lines)."""
    lines = source.splitlines()
    out: dict[int, int] = {}
    for k, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        for end in range(k, min(len(lines), k + MAX_LINES) + 1):
            if lines[end - 1].rstrip().endswith((";", "{", "}")):
                out[k] = end
                break
    return out


def _cut(lines: list[str], extents: dict[int, int], at: int) -> tuple[int, list[str]]:
    end = min(extents.get(at, at), at + MAX_LINES - BEFORE - AFTER - 1)
    first = max(1, at - BEFORE)
    last = min(len(lines), end + AFTER)
    return first, [ln.rstrip() for ln in lines[first - 1 : last]]


def build(src_root: Path, project: str) -> tuple[list[tuple[str, str]], int]:
    view = load(())
    files: dict[tuple[str, str], tuple[list[str], dict[int, int]] | None] = {}
    blobs, missing = [], 0
    for pos in range(len(view)):
        c = view.candidate(pos)
        if c.project != project or not c.path or not c.line:
            continue
        release = view.entry(pos).source.version
        key = (release, c.path)
        if key not in files:
            path = src_root / f"{project}-{release}" / c.path
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
            reach = _extents if c.path.endswith(".py") else _cpp_extents
            files[key] = (text.splitlines(), reach(text)) if text is not None else None
        found = files[key]
        if found is None or c.line > len(found[0]):
            missing += 1
            continue
        first, cut = _cut(*found, c.line)
        blobs.append((c.id, f"{project} {release}\t{c.path}\t{first}\t{c.line}\n" + "\n".join(cut)))
    blobs.sort(key=lambda b: b[1].partition("\n")[0].split("\t")[:2])  # one file's together
    return blobs, missing


def zdict_for(blobs: list[tuple[str, str]]) -> bytes:
    """A zlib preset dictionary: the commonest lines, most common last (zlib's preference)."""
    counts = Counter(ln.strip() for _, text in blobs for ln in text.splitlines()[1:])
    common = [ln for ln, n in counts.most_common(4000) if n > 3 and len(ln) > 8]
    out = b""
    for ln in common:
        if len(out) + len(ln) + 1 > 32 * 1024:
            break
        out = (ln + "\n").encode() + out
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src-root", type=Path, required=True)
    ap.add_argument("--project", default="sglang")
    ap.add_argument("--out", type=Path, default=Path("src/errexplain/_snippets"))
    args = ap.parse_args()
    blobs, missing = build(args.src_root, args.project)
    zdict = zdict_for(blobs)
    license_name = LICENSES.get(args.project, "")
    meta = {
        "project": args.project,
        "license": license_name,
        "license_file": f"{args.project}.LICENSE",
        "source": f"{args.project} releases unpacked under {args.src_root.name}/",
    }
    args.out.mkdir(parents=True, exist_ok=True)
    data = pack(format_meta(meta), zdict, blobs)
    (args.out / f"{args.project}.snip").write_bytes(data)
    licenses = sorted(args.src_root.glob(f"{args.project}-*/*.dist-info/licenses/LICENSE"))
    if licenses:
        shutil.copyfile(licenses[-1], args.out / f"{args.project}.LICENSE")
    raw = sum(len(t) for _, t in blobs)
    print(
        f"{len(blobs)} snippets ({missing} entries without a source file), "
        f"{raw:,} bytes of text -> {len(data):,} bytes; zlib of all at once would be "
        f"{len(zlib.compress(''.join(t for _, t in blobs).encode(), 9)):,}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
