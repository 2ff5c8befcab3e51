"""Record which of a project's messages another project raises word for word, in its
project.yaml (`shared_wording`): python tools/shared.py --project sglang --upstream vllm SRC...

sglang carries many messages copied with code from vLLM into files whose header does not say so
(tools/adapted.py finds the files that do). A paste of such a message, with nothing in it that
names sglang, may well be vLLM's error: the explainer caps such a match below confident and
names the other project (explainer._shared_wording). This tool reads the other project's
released source (each SRC an unpacked tree, an sdist or a wheel; read with errexplain's own
extractor, nothing imported or run), collects the literal text of every message it raises or
logs, and lists the catalog entries of the project whose literal text is the same, chunk for
chunk (placeholders aside), with at least MIN_LITERAL literal characters: a short generic text
(`Unsupported <x>`) says nothing of who raised it.

The upstream releases read are written into the block's comment. The block replaces the
previous `shared_wording` entry of that upstream only; other upstreams are kept.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MIN_LITERAL = 15
KEY = "shared_wording"
HEAD = "# messages other projects' released source raises word for word (tools/shared.py)"


def upstream_literals(sources: list[str], package: str) -> set[tuple[str, ...]]:
    """The literal chunks of every message template extracted from the sources."""
    from errexplain.extract.run import resolve, scan
    from errexplain.extract.sources import read_sources
    from errexplain.match.template import TemplateSyntaxError, compile_template

    found: set[tuple[str, ...]] = set()
    for source in sources:
        for site in resolve(scan(read_sources(source, package), None)).sites:
            if not site.template:
                continue
            try:
                compiled = compile_template(site.template)
            except TemplateSyntaxError:
                continue
            if compiled.literal_len >= MIN_LITERAL:
                found.add(compiled.literals)
    return found


def shared_ids(catalog_dir: Path, literals: set[tuple[str, ...]]) -> list[str]:
    """Ids of the catalog's entries whose literal chunks are some upstream message's."""
    from errexplain.catalog.load import load_catalog
    from errexplain.match.template import compile_template

    out = []
    for entry in load_catalog([catalog_dir]).entries:
        if entry.template and compile_template(entry.template).literals in literals:
            out.append(entry.id)
    return sorted(set(out))


def top_level_blocks(text: str) -> list[tuple[str | None, list[str]]]:
    """The lines of a YAML file grouped by top-level key (None: lines before the first key);
    the comment lines right above a key go with it."""
    blocks: list[tuple[str | None, list[str]]] = [(None, [])]
    pending: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            pending.append(line)
            continue
        if line and not line[0].isspace() and not line.startswith("-") and ":" in line:
            blocks.append((line.split(":", 1)[0], [*pending, line]))
        else:
            blocks[-1][1].extend([*pending, line])
        pending = []
    blocks[-1][1].extend(pending)
    return blocks


def write(project_yaml: Path, upstream: str, ids: list[str], releases: list[str]) -> None:
    """Replace `upstream`'s list in the `shared_wording` block of project.yaml (the block is
    added at the end when missing); every other block and upstream is kept as it is."""
    from errexplain.catalog.load import load_project

    old = dict(load_project(project_yaml.parent).shared)
    kept = {u: v.split() for u, v in old.items() if u != upstream}
    kept[upstream] = ids
    notes = {u: line for u in kept for line in _old_notes(project_yaml, u)}
    notes[upstream] = f"#   {upstream}: {', '.join(releases)}"
    lines = [HEAD, *(notes[u] for u in sorted(notes)), f"{KEY}:"]
    for name in sorted(kept):
        lines.append(f"  {name}:")
        lines.extend(f"  - '{i}'" for i in kept[name])
    blocks = [b for b in top_level_blocks(project_yaml.read_text(encoding="utf-8")) if b[0] != KEY]
    body = "\n".join(line for _, block in blocks for line in block).rstrip("\n")
    project_yaml.write_text(body + "\n" + "\n".join(lines) + "\n", encoding="utf-8")


def _old_notes(project_yaml: Path, upstream: str) -> list[str]:
    """The comment line naming the releases an upstream's list was read from."""
    mark = f"#   {upstream}: "
    text = project_yaml.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith(mark)][:1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--project", default="sglang")
    ap.add_argument("--upstream", required=True, help="the other project's name (vllm)")
    ap.add_argument("--package", help="its package directory (default: the name, - as _)")
    ap.add_argument("--releases", required=True, help="the releases read, for the comment")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args(argv)
    package = args.package or args.upstream.replace("-", "_")
    catalog_dir = REPO / "errors" / args.project
    try:
        literals = upstream_literals(args.sources, package)
    except Exception as exc:  # an unreadable source: say which, no traceback
        print(f"shared: {exc}", file=sys.stderr)
        return 2
    ids = shared_ids(catalog_dir, literals)
    releases = [r.strip() for r in args.releases.split(",") if r.strip()]
    write(catalog_dir / "project.yaml", args.upstream, ids, releases)
    print(f"{args.upstream}: {len(literals)} upstream texts, {len(ids)} entries share one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
