"""A catalog view over entries held in memory: what tests, `catalog check` and library callers
with their own entries match against, without building an index file. Same answers as the
binary index (the same filing words and word statistics, see errexplain.match.normalize)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.match.normalize import filing_words, word_stats
from errexplain.match.rank import site_key
from errexplain.match.sites import site_table
from errexplain.match.template import compile_template
from errexplain.models import Candidate, Entry, Project, Related, WordStats, lineage_since

if TYPE_CHECKING:
    from collections.abc import Sequence

    from errexplain.match.release import Facts


class MemoryCatalog:
    """A :class:`~errexplain.models.CatalogView` of a sequence of entries (positions are their
    order)."""

    def __init__(
        self,
        entries: Sequence[Entry],
        release_facts: Sequence[Facts] = (),
        projects: Sequence[Project] = (),
    ) -> None:
        self._entries = tuple(entries)
        self._facts = {f.project: f for f in release_facts}
        self._projects = {p.name: p for p in projects}
        self._ids = {e.id: pos for pos, e in enumerate(self._entries)}
        since = lineage_since(self._entries)
        self._candidates = [
            candidate_of(pos, e, since.get(e.id)) for pos, e in enumerate(self._entries)
        ]
        self._buckets: dict[str, list[tuple[int, str]]] = {}
        for pos, filed in enumerate(filing_words([e.template for e in self._entries])):
            if filed is not None:
                self._buckets.setdefault(filed[0], []).append((pos, filed[1]))
        self._bases = {
            e.exception: e.base for e in self._entries if e.base and e.base != e.exception
        }
        self._stats: WordStats | None = None
        self._sites: dict[str, tuple[int, ...]] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def bucket(self, word: str, present: set[str]) -> list[Candidate]:
        return [
            self._candidates[pos]
            for pos, second in self._buckets.get(word, ())
            if not second or second in present
        ]

    def candidate(self, pos: int) -> Candidate:
        return self._candidates[pos]

    def candidates(self) -> list[Candidate]:
        return list(self._candidates)

    def word_stats(self) -> WordStats:
        if self._stats is None:
            self._stats = word_stats([e.template for e in self._entries])
        return self._stats

    def entry(self, pos: int) -> Entry:
        return self._entries[pos]

    def at(self, pos: int) -> str | None:
        return self._entries[pos].at

    def related(self, pos: int) -> tuple[Related, ...]:
        from errexplain.catalog.relation import related_why

        me = self._entries[pos]
        out = []
        for rid in self._entries[pos].related:
            other = self._ids.get(rid)
            if other is not None:
                e = self._entries[other]
                out.append(Related(e.id, e.template, e.exception, related_why(me, e)))
        return tuple(out)

    def position(self, entry_id: str) -> int | None:
        return self._ids.get(entry_id)

    def sites(self, file_name: str, function: str) -> list[Candidate]:
        return self.sites_at(site_key(file_name, function))

    def site_positions(self, key: str, messages: bool = True) -> tuple[int, ...]:
        if self._sites is None:
            self._sites = site_table(self._entries)
        found = self._sites.get(key, ())
        return found if messages else tuple(p for p in found if not self._entries[p].template)

    def sites_at(self, key: str, messages: bool = True) -> list[Candidate]:
        return [self._candidates[p] for p in self.site_positions(key, messages)]

    def history_projects(self) -> tuple[str, ...]:
        return tuple(sorted(self._facts))

    def project(self, name: str) -> Project | None:
        return self._projects.get(name)

    def release_facts(self, project: str) -> Facts | None:
        return self._facts.get(project)

    def known_base(self, exc_type: str) -> str | None:
        return self._bases.get(exc_type)


def candidate_of(pos: int, e: Entry, since: str | None = None) -> Candidate:
    """The candidate (typed row) of an entry at a position (`since`: see
    :func:`~errexplain.models.lineage_since`)."""
    return Candidate.of(pos, e, compile_template(e.template).literal_len, since)
