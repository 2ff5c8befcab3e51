"""The extraction pipeline: read sources, walk them, resolve, merge, write."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from errexplain._startup import Record
from errexplain.extract.build import Plan, build
from errexplain.extract.resolve import resolve
from errexplain.extract.scan import scan
from errexplain.extract.sources import read_sources
from errexplain.extract.writer import (
    PROJECT_FILE,
    ChangedOnDisk,
    dump,
    project_text,
    read_bytes,
    read_module_files,
    read_project_file,
    remove_file,
    write_if_unchanged,
)


class ExtractReport(Record):
    """What an extraction read, found and changed (or would change, with ``dry_run``)."""

    files_read: int
    files_skipped: tuple[tuple[str, str], ...]
    sites_by_kind: Mapping[str, int]
    entries_added: int
    entries_updated: int
    entries_removed: int
    warnings: tuple[str, ...]
    changes: tuple[str, ...]
    files_written: tuple[str, ...] = ()
    dry_run: bool = False

    @property
    def sites(self) -> int:
        return sum(self.sites_by_kind.values())


def _project_doc(meta: dict[str, Any], project: str, version: str) -> dict[str, Any]:
    """``project.yaml`` with name and version set, other keys kept in place."""
    doc = {"name": project, **meta}
    doc["name"] = project
    doc["version"] = version
    return doc


def _outputs(
    out: Path, plan: Plan, project: str, version: str
) -> list[tuple[str, str, bytes | None]]:
    """(file name, new text, bytes loaded before the merge) for every catalog file."""
    meta, raw = read_project_file(out)
    outputs = [(PROJECT_FILE, project_text(meta, raw, _project_doc(meta, project, version)), raw)]
    outputs += [(name, dump(doc), plan.loaded.get(name)) for name, doc in plan.docs.items()]
    return outputs


def _write(out: Path, plan: Plan, project: str, version: str, dry_run: bool) -> list[str]:
    """Write the changed files (or list them, with ``dry_run``); refuse concurrent edits."""
    written = []
    for name, text, expected in _outputs(out, plan, project, version):
        path = out / name
        if dry_run:
            if read_bytes(path) != text.encode("utf-8"):
                written.append(name)
            continue
        try:
            if write_if_unchanged(path, text, expected):
                written.append(name)
        except ChangedOnDisk:
            plan.warnings.append(
                f"{path}: changed on disk during the extraction, "
                "not written; run the extraction again"
            )
    for name in plan.emptied:
        try:
            if dry_run or remove_file(out / name, plan.loaded[name]):
                written.append(name)
        except ChangedOnDisk:
            plan.warnings.append(
                f"{out / name}: changed on disk during the extraction, "
                "not removed; run the extraction again"
            )
    return written


def extract(
    source: str | Path,
    project: str,
    version: str,
    *,
    out: Path,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ExtractReport:
    """Extract the raise/assert sites of ``source`` into the catalog directory ``out``.

    ``source`` is a directory, a wheel, an sdist or an installed distribution's name. Existing
    entries are merged (curated text kept); with ``dry_run`` nothing is written.
    Raises :class:`errexplain.errors.ExtractError` when the source cannot be read.
    """
    out = Path(out)
    files = read_sources(source, project)
    results = scan(files, progress)
    resolved = resolve(results)
    plan = build(read_module_files(out), resolved.sites, project, version)
    written = _write(out, plan, project, version, dry_run)
    kinds = Counter(s.kind for s in resolved.sites)
    return ExtractReport(
        files_read=sum(1 for r in results if r.error is None),
        files_skipped=tuple((r.path, r.error) for r in results if r.error is not None),
        sites_by_kind=MappingProxyType(dict(sorted(kinds.items()))),
        entries_added=plan.added,
        entries_updated=plan.updated,
        entries_removed=plan.removed,
        warnings=tuple(plan.warnings) + resolved.warnings,
        changes=tuple(plan.changes),
        files_written=tuple(written),
        dry_run=dry_run,
    )


def format_report(report: ExtractReport, *, max_lines: int = 20) -> str:
    """A short plain-text summary; with ``dry_run`` it lists the first changes."""
    kinds = ", ".join(f"{n} {k}" for k, n in report.sites_by_kind.items()) or "none"
    verb = "would write" if report.dry_run else "wrote"
    lines = [
        f"files read: {report.files_read}, skipped: {len(report.files_skipped)}",
        f"sites: {report.sites} ({kinds})",
        f"entries: {report.entries_added} added, {report.entries_updated} updated, "
        f"{report.entries_removed} removed",
        f"catalog files: {verb} {len(report.files_written)}",
        f"warnings: {len(report.warnings)}",
    ]
    for path, reason in report.files_skipped[:max_lines]:
        lines.append(f"  skipped {path}: {reason}")
    if report.dry_run:
        lines += [f"  {c}" for c in report.changes[:max_lines]]
        if len(report.changes) > max_lines:
            lines.append(f"  ... and {len(report.changes) - max_lines} more changes")
    return "\n".join(lines)
