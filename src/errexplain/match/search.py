"""Keyword search over the catalog's templates (`errexplain search`): fuzzy and ranked."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.match.normalize import words
from errexplain.match.template import compile_template

if TYPE_CHECKING:
    from errexplain.models import CatalogView

POOL = 200
"""Candidates sharing the most idf weight with the query that get a fuzzy score."""
TEST_MARGIN = 0.1
"""An entry raised from the project's own test files ranks after library entries scoring up
to this much less."""


def search(view: CatalogView, query: str, limit: int = 10) -> list[tuple[int, float]]:
    """Entries whose template best fits some keywords, best first, as (position, score)."""
    from rapidfuzz import fuzz, utils

    stats = view.word_stats()
    acc: dict[int, float] = {}
    for w in sorted(set(words(query))):  # a fixed order: float sums never vary by run
        for pos in stats.postings.get(w, ()):
            acc[pos] = acc.get(pos, 0.0) + stats.idf[w]
    pool = sorted(acc, key=lambda p: (-acc[p], p))[:POOL]
    q = query
    scored = []
    for pos in pool:
        cand = view.candidate(pos)
        template = cand.template
        text = compile_template(template).literal_text
        score = fuzz.token_set_ratio(q, text, processor=utils.default_process) / 100.0
        rank = score - (TEST_MARGIN if cand.in_tests else 0.0)
        scored.append((pos, score, (-round(rank, 6), not cand.curated, len(template), pos)))
    scored.sort(key=lambda t: t[2])
    return [(pos, score) for pos, score, _ in scored[:limit]]
