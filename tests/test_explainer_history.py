"""Release-aware explaining (issue 10) on a tiny history catalog built in memory: the paste's
release (stated, version strings, frame paths, frames at a recorded line) picks between the
wordings of one check, pins the source to that release, lends an older wording the prose of
its lineage's head, and shows up in the text and JSON answers. Every test runs on the
in-memory catalog and on the binary index built from the same entries."""

from __future__ import annotations

import json

import pytest

from errexplain._startup import replace
from errexplain.catalog.index import Index
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import AMBIGUOUS_NOTE, explain_message, explain_text
from errexplain.match.rank import (
    OLDER_AGE,
    OLDER_PRIOR,
    RELEASE_FIT,
    RELEASE_MISFIT,
    _release_adjust,
    rank,
)
from errexplain.match.release import Facts, Window, version_strings, window
from errexplain.models import Candidate, Current, Entry, Project, ReleaseGuess, Source
from errexplain.render.json import match_dict, render_explanations
from errexplain.render.plain import render_explanations as render_plain
from errexplain.render.view import release_history

ORDER = ("1.0", "1.1", "1.2", "2.0")
OLD_PRIOR = OLDER_PRIOR + OLDER_AGE * (3 - 1) / 3
"""What a wording last raised by 1.1 (index 1 of 3) yields with no release known."""

CUR = "c000000000000001"  # the check's current wording (head), curated: 1.2..2.0 new.py
OLD = "c000000000000002"  # its older wording, derived, lineage -> CUR: 1.0..1.1 old.py
GONE = "c000000000000003"  # a removed check: 1.0..1.1 old.py, removed_in 1.2
LAUNCH = "c000000000000004"  # one template at two sites: 1.0..1.2 launch.py (removed_in 2.0)
ENGINE = "c000000000000005"  # ... and 1.1..2.0 engine.py

CACHE_MSG = "cache size 9000 exceeds the limit of 8192 tokens"
CACHE = f"ValueError: {CACHE_MSG}"
GONE_MSG = "RuntimeError: scheduler lost worker 3 during warmup"
WORKER_MSG = "RuntimeError: worker 3 failed to start"
HEAD_MEANING = "The KV cache was asked for more tokens than its limit."
HEAD_SOLUTIONS = ("Lower --max-total-tokens.", "Raise --mem-fraction-static.")
CUR_TEMPLATE = "cache size <n> exceeds the limit of <limit> tokens"


def history(
    project: str = "sglang", order: tuple[str, ...] = ORDER
) -> tuple[list[Entry], Facts, Project]:
    """The catalog: entries, release facts and project record. `order` names the four
    releases (oldest first); paths live under the package directory `project`."""
    r0, r1, r2, r3 = order
    p = project
    proj = Project(
        p,
        r3,
        f"https://example.org/{p}",
        f"https://example.org/{p}/blob/v{{version}}/{{prefix}}{{path}}#L{{line}}",
        "python/",
    )

    def src(path: str, line: int, func: str, version: str) -> Source:
        return Source(p, version, f"{p}/{path}", line, func, proj.url(f"{p}/{path}", line, version))

    entries = [
        Entry(
            CUR,
            p,
            "ValueError",
            CUR_TEMPLATE,
            src("new.py", 42, "Cache.grow", r3),
            releases=(r2, r3),
            at=f"{r2} {p}/new.py:40 Cache.grow; {r3} :42",
            meaning=HEAD_MEANING,
            trigger="n > limit",
            solutions=HEAD_SOLUTIONS,
            examples=(CACHE_MSG,),
        ),
        # the same literal text (a renamed variable): a message matches both wordings alike
        Entry(
            OLD,
            p,
            "ValueError",
            "cache size <size> exceeds the limit of <limit> tokens",
            src("old.py", 12, "grow_cache", r1),
            releases=(r0, r1),
            at=f"{r0} {p}/old.py:10 grow_cache; {r1} :12",
            lineage=CUR,
            derived=True,
            meaning="Assertion-free check in `grow_cache`: size > limit.",
        ),
        Entry(
            GONE,
            p,
            "RuntimeError",
            "scheduler lost worker <rank> during warmup",
            src("old.py", 30, "Scheduler.warmup", r1),
            releases=(r0, r1),
            at=f"{r0}..{r1} {p}/old.py:30 Scheduler.warmup",
            removed_in=r2,
            derived=True,
            meaning="Raised in `Scheduler.warmup`.",
        ),
        Entry(
            LAUNCH,
            p,
            "RuntimeError",
            "worker <rank> failed to start",
            src("launch.py", 50, "launch_worker", r2),
            releases=(r0, r2),
            at=f"{r0}..{r2} {p}/launch.py:50 launch_worker",
            removed_in=r3,
            derived=True,
            meaning="Raised in `launch_worker`.",
        ),
        Entry(
            ENGINE,
            p,
            "RuntimeError",
            "worker <rank> failed to start",
            src("engine.py", 75, "Engine.start", r3),
            releases=(r1, r3),
            at=f"{r1} {p}/engine.py:70 Engine.start; {r2}..{r3} :75",
            derived=True,
            meaning="Raised in `Engine.start`.",
        ),
    ]
    facts = Facts(
        p,
        tuple(order),
        {
            f"{p}/old.py": f"{r0}..{r1}",
            f"{p}/new.py": f"{r2}..{r3}",
            f"{p}/launch.py": f"{r0}..{r2}",
            f"{p}/engine.py": f"{r1}..{r3}",
            f"{p}/main.py": f"{r0}..{r3}",
        },
    )
    return entries, facts, proj


def memory(project: str = "sglang", order: tuple[str, ...] = ORDER) -> MemoryCatalog:
    entries, facts, proj = history(project, order)
    return MemoryCatalog(entries, release_facts=[facts], projects=[proj])


def index(project: str = "sglang", order: tuple[str, ...] = ORDER) -> Index:
    entries, facts, proj = history(project, order)
    return Index.from_bytes(build_bytes(entries, [proj], "k", [facts]))


VIEWS = {"memory": memory, "index": index}


@pytest.fixture(params=sorted(VIEWS), scope="module")
def view(request):
    return VIEWS[request.param]()


def traceback(path: str, line: int, message: str = CACHE, func: str = "f") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n'
        "    main()\n"
        f'  File "/usr/lib/python3/site-packages/{path}", line {line}, in {func}\n'
        "    raise err\n"
        f"{message}\n"
    )


def one(text: str, view, **kw):
    [x] = explain_text(text, view, **kw)
    return x


def ids(x) -> list[str]:
    return [m.entry.id for m in x.matches]


def flat(text: str) -> str:
    """Plain output with its wrapping undone."""
    return " ".join(text.split())


# ------------------------------------------------------------------- nothing known of the release


def test_without_a_release_the_current_wording_wins_the_tie(view):
    x = explain_message(CACHE_MSG, "ValueError", view)
    assert ids(x) == [CUR, OLD]
    cur, old = x.matches
    assert cur.kind == old.kind == "exact"
    assert old.score == pytest.approx(cur.score - OLD_PRIOR)
    assert "an older wording (sglang 1.0 to 1.1)" in old.reasons
    assert not any("older wording" in r for r in cur.reasons)
    assert not x.ambiguous
    # the head is the current wording itself: nothing to point at, nothing borrowed
    assert cur.current is None and not cur.borrowed
    assert cur.entry.source.version == "2.0" and cur.entry.source.line == 42
    assert x.notes == ()
    # after matching, the wording alone narrows the release
    assert x.release_guess == ReleaseGuess(
        "sglang", "1.2", "2.0", ("this wording is raised by: 1.2 to 2.0",)
    )


def test_the_tie_is_real_and_only_the_older_prior_breaks_it(view):
    """Without a window the two wordings score exactly alike; the window with nothing known
    lowers the older one by OLDER_PRIOR (and OLDER_AGE by its age) and says why."""
    facts = view.release_facts("sglang")
    plain = {h.id: h for h in rank(view, CACHE_MSG, "ValueError").hits}
    assert plain[CUR].raw == plain[OLD].raw
    ranked = rank(view, CACHE_MSG, "ValueError", window=window(facts, None))
    assert [h.id for h in ranked.hits] == [CUR, OLD]
    assert ranked.hits[1].raw == pytest.approx(ranked.hits[0].raw - OLD_PRIOR)


def _cand(releases: tuple[str, str] | None, project: str = "sglang") -> Candidate:
    return Candidate(
        pos=0,
        id=OLD,
        exception="ValueError",
        base=None,
        template="t",
        path=None,
        function=None,
        line=None,
        project=project,
        kind="raise",
        curated=False,
        literal_len=1,
        condition=None,
        releases=releases,
    )


INDEX = {r: i for i, r in enumerate(ORDER)}


@pytest.mark.parametrize(
    ("releases", "lo_hi", "delta", "reason"),
    [
        (("1.0", "1.1"), (None, None), -OLD_PRIOR, "an older wording (sglang 1.0 to 1.1)"),
        # last raised longer ago: yields a little more
        (
            ("1.0", "1.0"),
            (None, None),
            -OLDER_PRIOR - OLDER_AGE,
            "an older wording (sglang 1.0 to 1.0)",
        ),
        (
            ("1.0", "1.2"),
            (None, None),
            -OLDER_PRIOR - OLDER_AGE / 3,
            "an older wording (sglang 1.0 to 1.2)",
        ),
        (("1.2", "2.0"), (None, None), 0.0, None),
        (
            ("1.0", "1.1"),
            (0, 0),
            RELEASE_FIT,
            "raised by sglang 1.0 to 1.1, as this paste's release",
        ),
        (
            ("1.0", "1.1"),
            (1, 3),
            RELEASE_FIT,
            "raised by sglang 1.0 to 1.1, as this paste's release",
        ),
        (
            ("1.2", "2.0"),
            (0, 1),
            -RELEASE_MISFIT,
            "raised by sglang 1.2 to 2.0, not by this paste's release",
        ),
        (("1.0", "9.9"), (0, 0), 0.0, None),  # a release the facts do not know
        (None, (0, 0), 0.0, None),  # no history on this entry
    ],
)
def test_release_adjust(releases, lo_hi, delta, reason):
    reasons: list[str] = []
    win = Window("sglang", INDEX, *lo_hi, len(ORDER) - 1)
    assert _release_adjust(_cand(releases), win, reasons) == pytest.approx(delta)
    assert reasons == ([reason] if reason else [])


def test_release_adjust_ignores_other_projects_and_no_window():
    reasons: list[str] = []
    win = Window("sglang", INDEX, 0, 0, 3)
    assert _release_adjust(_cand(("1.2", "2.0"), project="torch"), win, reasons) == 0.0
    assert _release_adjust(_cand(("1.2", "2.0")), None, reasons) == 0.0
    assert reasons == []


# ---------------------------------------------------------------------------- a stated release


def test_a_stated_release_picks_the_older_wording_and_pins_it(view):
    x = one(CACHE, view, release={"sglang": "1.0"})
    assert ids(x) == [OLD, CUR]
    old, cur = x.matches
    assert "raised by sglang 1.0 to 1.1, as this paste's release" in old.reasons
    assert "raised by sglang 1.2 to 2.0, not by this paste's release" in cur.reasons
    assert old.score - cur.score == pytest.approx(RELEASE_FIT + RELEASE_MISFIT)
    src = old.entry.source
    assert (src.version, src.path, src.line, src.function) == (
        "1.0",
        "sglang/old.py",
        10,
        "grow_cache",
    )
    assert src.url == "https://example.org/sglang/blob/v1.0/python/sglang/old.py#L10"
    assert x.release_guess == ReleaseGuess("sglang", "1.0", "1.0", ("stated: sglang=1.0",), True)


def test_an_older_wording_borrows_the_heads_prose_and_names_the_head(view):
    x = one(CACHE, view, release={"sglang": "1.0"})
    old = x.matches[0]
    assert old.borrowed
    assert old.entry.meaning == HEAD_MEANING
    assert old.entry.solutions == HEAD_SOLUTIONS
    assert old.entry.trigger == "n > limit"
    assert old.current == Current(CUR, CUR_TEMPLATE, "sglang/new.py", 42)
    assert any("written for the current wording of this check" in n for n in x.notes)
    # the head itself, listed second, is neither borrowed nor pointing anywhere
    assert not x.matches[1].borrowed and x.matches[1].current is None


@pytest.mark.parametrize(
    ("release", "top", "version", "path", "line"),
    [
        ("1.0", OLD, "1.0", "sglang/old.py", 10),
        ("1.1", OLD, "1.1", "sglang/old.py", 12),
        ("1.2", CUR, "1.2", "sglang/new.py", 40),
        ("2.0", CUR, "2.0", "sglang/new.py", 42),
    ],
)
def test_the_source_follows_the_stated_release(view, release, top, version, path, line):
    x = one(CACHE, view, release={"sglang": release})
    m = x.matches[0]
    assert m.entry.id == top
    src = m.entry.source
    assert (src.version, src.path, src.line) == (version, path, line)
    assert src.url == f"https://example.org/sglang/blob/v{version}/python/{path}#L{line}"
    assert m.borrowed == (top == OLD)
    assert bool(x.notes) == (top == OLD)


def test_a_release_unknown_to_the_catalog_is_ignored(view):
    """The commands refuse it (app.context.stated_releases); the explainer falls back to
    guessing."""
    x = one(CACHE, view, release={"sglang": "9.9"})
    assert ids(x)[0] == CUR
    assert x.release_guess is not None and not x.release_guess.stated


# --------------------------------------------------------------------- the release from the paste


def test_a_frame_at_an_old_path_narrows_the_guess(view):
    x = one(traceback("sglang/old.py", 99), view)
    g = x.release_guess
    assert g is not None and not g.stated
    assert (g.first, g.last) == ("1.0", "1.1")
    assert "frame path sglang/old.py exists in: 1.0 to 1.1" in g.evidence
    old = x.matches[0]
    assert old.entry.id == OLD
    assert "a traceback frame is in sglang/old.py" in old.reasons
    # line 99 is no recorded line: pinned to the latest release of the guess
    assert (old.entry.source.version, old.entry.source.line) == ("1.1", 12)
    assert old.borrowed and old.current is not None and old.current.id == CUR


def test_a_frame_in_a_file_of_every_release_says_nothing(view):
    x = one(traceback("sglang/main.py", 5), view)
    assert ids(x)[0] == CUR
    assert x.release_guess is not None
    assert not any("frame path" in e for e in x.release_guess.evidence)


@pytest.mark.parametrize(
    ("path", "line", "top", "release"),
    [
        ("sglang/old.py", 10, OLD, "1.0"),
        ("sglang/old.py", 12, OLD, "1.1"),
        ("sglang/new.py", 40, CUR, "1.2"),
        ("sglang/new.py", 42, CUR, "2.0"),
    ],
)
def test_a_frame_at_a_recorded_line_narrows_to_its_span(view, path, line, top, release):
    x = one(traceback(path, line), view)
    m = x.matches[0]
    assert m.entry.id == top
    g = x.release_guess
    assert g is not None and (g.first, g.last) == (release, release)
    assert g.evidence[0] == f"a frame at {path}:{line}, where this site sits in: {release}"
    assert (m.entry.source.version, m.entry.source.path, m.entry.source.line) == (
        release,
        path,
        line,
    )


VERSIONED = ("0.1.0", "0.1.1", "0.2.0", "1.0.0")


@pytest.fixture(params=sorted(VIEWS), scope="module")
def versioned(request):
    """The same catalog with three-part releases: version strings are read only in that shape
    (`sglang==1.0` is not read), and only for sglang."""
    return VIEWS[request.param]("sglang", VERSIONED)


def test_a_version_string_decides(versioned):
    assert version_strings("pip install sglang==0.1.0", "sglang") == ["0.1.0"]
    x = one(f"pip install sglang==0.1.0\n{CACHE}\n", versioned)
    g = x.release_guess
    assert g == ReleaseGuess("sglang", "0.1.0", "0.1.0", ("version string sglang 0.1.0: 0.1.0",))
    m = x.matches[0]
    assert m.entry.id == OLD and m.borrowed
    assert (m.entry.source.version, m.entry.source.line) == ("0.1.0", 10)


def test_a_version_string_outweighs_a_conflicting_frame(versioned):
    text = "sglang==0.1.1\n" + traceback("sglang/new.py", 77)
    x = one(text, versioned)
    g = x.release_guess
    assert g is not None and (g.first, g.last) == ("0.1.1", "0.1.1")
    assert g.evidence[0] == "version string sglang 0.1.1: 0.1.1"
    assert any(
        "sglang/new.py" in e and "conflicts with the rest, not used" in e for e in g.evidence
    )
    assert x.matches[0].entry.id == OLD
    assert x.matches[0].entry.source.line == 12


# --------------------------------------------------------------------------- a removed check


def test_a_removed_wording_has_no_current_one(view):
    x = explain_message(GONE_MSG.split(": ", 1)[1], "RuntimeError", view)
    m = x.matches[0]
    assert m.entry.id == GONE
    assert m.current is None and not m.borrowed
    assert "an older wording (sglang 1.0 to 1.1)" in m.reasons
    assert release_history(m) == (
        "raised by sglang 1.0 to 1.1 (at sglang/old.py:30, 1.1); removed after 1.1"
    )
    out = flat(render_plain([x]))
    assert (
        "Releases: raised by sglang 1.0 to 1.1 (at sglang/old.py:30, 1.1); removed after 1.1" in out
    )
    assert "(removed in 1.2)" in out
    d = match_dict(m)
    assert d["current"] is None
    assert d["releases"] == {"first": "1.0", "last": "1.1"}
    assert d["prose_from_current"] is False


# ------------------------------------------------------------- one template, two sites in time


@pytest.mark.parametrize(
    ("release", "top", "other_reason"),
    [
        (None, ENGINE, "an older wording (sglang 1.0 to 1.2)"),
        ("1.0", LAUNCH, "raised by sglang 1.1 to 2.0, not by this paste's release"),
        ("2.0", ENGINE, "raised by sglang 1.0 to 1.2, not by this paste's release"),
    ],
)
def test_the_release_tells_two_sites_of_one_template_apart(view, release, top, other_reason):
    x = one(WORKER_MSG, view, release={"sglang": release} if release else None)
    assert ids(x)[0] == top
    assert not x.ambiguous and AMBIGUOUS_NOTE not in x.notes
    assert other_reason in x.matches[1].reasons
    assert x.matches[0].score > x.matches[1].score


@pytest.mark.parametrize(
    ("text", "top", "version"),
    [
        ("The server log ends with `worker 3 failed to start` every time.", ENGINE, "1.0.0"),
        ("On sglang==0.1.0 the log says: worker 3 failed to start", LAUNCH, "0.1.0"),
    ],
)
def test_a_message_without_an_exception_line_follows_the_release(versioned, text, top, version):
    """A catalogued message quoted alone (no `Type:` printed) is ordered and pinned by the
    paste's release like any error: no release known, the wording raised most recently first;
    a version string in the paste, the site that release raises it at."""
    x = one(text, versioned)
    assert x.error.type == "" and ids(x)[0] == top
    assert x.matches[0].entry.source.version == version
    g = x.release_guess
    assert g is not None and (top != LAUNCH or (g.first, g.last) == (version, version))


def test_a_release_both_sites_raise_in_leaves_them_ambiguous(view):
    x = one(WORKER_MSG, view, release={"sglang": "1.1"})
    assert x.ambiguous and AMBIGUOUS_NOTE in x.notes
    assert set(ids(x)) == {LAUNCH, ENGINE}
    assert x.matches[0].score == x.matches[1].score
    where = {m.entry.id: (m.entry.source.version, m.entry.source.line) for m in x.matches}
    assert where == {LAUNCH: ("1.1", 50), ENGINE: ("1.1", 70)}


def test_a_frame_tells_two_sites_of_one_template_apart(view):
    x = one(traceback("sglang/launch.py", 50, WORKER_MSG, "launch_worker"), view)
    assert ids(x)[0] == LAUNCH and not x.ambiguous
    assert x.release_guess is not None
    assert (x.release_guess.first, x.release_guess.last) == ("1.0", "1.2")
    assert x.matches[0].entry.source.version == "1.2"


# ------------------------------------------------------------------------------- text and JSON


def test_the_text_answer_shows_the_release_and_the_history(view):
    x = one(CACHE, view, release={"sglang": "1.0"})
    out = render_plain([x])
    assert "\n  release: sglang 1.0 (as stated)\n" in out
    assert release_history(x.matches[0]) == (
        "raised by sglang 1.0 to 1.1 (at sglang/old.py:10, 1.0); later releases word this "
        "check 'cache size {n} exceeds the limit of {limit} tokens' (at sglang/new.py:42)"
    )
    flat_out = flat(out)
    assert "Releases: " + release_history(x.matches[0]) in flat_out
    assert "sglang 1.0: sglang/old.py:10 in grow_cache" in flat_out
    assert "https://example.org/sglang/blob/v1.0/python/sglang/old.py#L10" in out
    assert HEAD_MEANING in flat_out and "1. Lower --max-total-tokens." in flat_out
    assert "written for the current wording of this check" in flat_out


def test_the_text_answer_shows_the_guess_evidence(view):
    out = render_plain([one(traceback("sglang/old.py", 99), view)])
    assert "\n  release: sglang 1.0 to 1.1 (frame path sglang/old.py exists in: 1.0 to 1.1" in out


def test_the_json_answer_carries_releases_current_and_the_guess(view):
    doc = json.loads(render_explanations([one(CACHE, view, release={"sglang": "1.0"})]))
    [err] = doc["errors"]
    assert err["release_guess"] == {
        "project": "sglang",
        "first": "1.0",
        "last": "1.0",
        "evidence": ["stated: sglang=1.0"],
        "stated": True,
    }
    old, cur = err["matches"]
    assert old["id"] == OLD
    assert old["releases"] == {"first": "1.0", "last": "1.1"}
    assert old["current"] == {"id": CUR, "path": "sglang/new.py", "line": 42}
    assert old["prose_from_current"] is True
    assert old["meaning"] == HEAD_MEANING
    assert old["source"]["version"] == "1.0" and old["source"]["line"] == 10
    # the current wording names itself
    assert cur["id"] == CUR
    assert cur["releases"] == {"first": "1.2", "last": "2.0"}
    assert cur["current"] == {"id": CUR, "path": "sglang/new.py", "line": 42}
    assert cur["prose_from_current"] is False


def test_the_json_guess_from_the_paste_is_not_stated(view):
    doc = json.loads(render_explanations([one(traceback("sglang/old.py", 10), view)]))
    g = doc["errors"][0]["release_guess"]
    assert g["stated"] is False and (g["first"], g["last"]) == ("1.0", "1.0")
    assert g["evidence"] == ["a frame at sglang/old.py:10, where this site sits in: 1.0"]


def test_no_history_no_release_fields():
    entries, _, proj = history()
    plain = MemoryCatalog(entries, projects=[proj])
    [x] = explain_text(CACHE, plain, release={"sglang": "1.0"})
    assert x.release_guess is None
    assert all(not m.borrowed and m.current is None for m in x.matches)
    doc = json.loads(render_explanations([x]))
    assert doc["errors"][0]["release_guess"] is None
    assert "\n  release: " not in render_plain([x])


# ------------------------------------------------------------------ memory and index agree


PASTES = [
    (CACHE, None),
    (CACHE, {"sglang": "1.0"}),
    (CACHE, {"sglang": "1.2"}),
    (traceback("sglang/old.py", 99), None),
    (traceback("sglang/old.py", 10), None),
    (traceback("sglang/new.py", 40), None),
    (GONE_MSG, None),
    (WORKER_MSG, None),
    (WORKER_MSG, {"sglang": "1.1"}),
    (traceback("sglang/launch.py", 50, WORKER_MSG, "launch_worker"), None),
]


@pytest.mark.parametrize(("text", "release"), PASTES)
def test_memory_catalog_and_index_answer_the_same(text, release):
    a = explain_text(text, memory(), release=release)
    b = explain_text(text, index(), release=release)
    assert a == b
    assert render_explanations(a) == render_explanations(b)
    assert render_plain(a) == render_plain(b)


def test_the_index_keeps_the_history():
    idx, mem = index(), memory()
    assert idx.history_projects() == mem.history_projects() == ("sglang",)
    assert idx.release_facts("sglang") == mem.release_facts("sglang")
    assert idx.release_facts("torch") is None
    pos = idx.position(OLD)
    assert pos is not None
    e = idx.entry(pos)
    assert (e.releases, e.at, e.lineage) == (
        ("1.0", "1.1"),
        "1.0 sglang/old.py:10 grow_cache; 1.1 :12",
        CUR,
    )
    gone = idx.entry(idx.position(GONE))  # type: ignore[arg-type]
    assert gone.removed_in == "1.2"


# --------------------------------------------------------------------------------- known bugs


def test_the_older_wording_reason_names_its_own_project():
    x = explain_message(CACHE_MSG, "ValueError", memory("demo"))
    assert ids(x) == [CUR, OLD]
    assert "an older wording (demo 1.0 to 1.1)" in x.matches[1].reasons


def test_a_stated_release_counts_when_the_catalog_has_two_histories():
    entries, facts, proj = history()
    other = Facts("alpha", ("0.1", "0.2"), {})  # sorts before sglang
    view = MemoryCatalog(entries, release_facts=[other, facts], projects=[proj])
    x = one(CACHE, view, release={"sglang": "1.0"})
    assert x.release_guess is not None and x.release_guess.stated
    assert ids(x)[0] == OLD
    assert x.matches[0].entry.source.line == 10


def test_borrowed_curated_prose_is_not_called_derived(view):
    x = one(CACHE, view, release={"sglang": "1.0"})
    assert x.matches[0].borrowed
    out = render_plain([x])
    assert "(derived from the source code, not curated)" not in out
    assert x.generic is None


def test_a_pinned_source_never_keeps_a_link_to_another_site():
    entries, facts, _ = history()
    view = MemoryCatalog(entries, release_facts=[facts])  # no project records
    src = one(CACHE, view, release={"sglang": "1.0"}).matches[0].entry.source
    assert (src.version, src.path, src.line) == ("1.0", "sglang/old.py", 10)
    assert src.url is None or src.url.endswith("/v1.0/python/sglang/old.py#L10")


# ------------------------------------------- a removed wording that a current template generalizes


def _wording(ident: str, template: str, releases: tuple[str, str], removed: str | None) -> Entry:
    return Entry(
        ident,
        "sglang",
        "ValueError",
        template,
        Source("sglang", releases[1], "sglang/x.py", 10, "f", None),
        releases=releases,
        removed_in=removed,
    )


OLD_LEAK = _wording("d" * 16, "token_to_kv_pool memory leak detected! <msg>", ("1.0", "1.1"), "1.2")
NEW_LEAK = _wording("e" * 16, "<pool_name> memory leak detected! <msg>", ("1.2", "2.0"), None)


@pytest.mark.parametrize(
    ("new_template", "found"),
    [
        ("<pool_name> memory leak detected! <msg>", True),  # a literal made a placeholder
        ("<pool_name> leak detected! <msg>", False),  # too little of the old text is left
        ("<pool_name> detected! memory leak <msg>", False),  # not in the old order
    ],
)
def test_a_removed_wording_points_at_the_current_template_that_generalizes_it(new_template, found):
    """The lineage did not follow the move (another file, a literal made a placeholder): the
    removed wording's match still names the current check when a current match generalizes
    its text (d002, d050)."""
    from errexplain.explainer import _generalizes, _same_text_now
    from errexplain.models import Match

    new = replace(NEW_LEAK, template=new_template)
    assert _generalizes(new, OLD_LEAK) is found
    out = _same_text_now((Match(OLD_LEAK, 0.96, "exact"), Match(new, 0.96, "exact")))
    assert (out[0].current is not None and out[0].current.id == new.id) is found
    assert out[1].current is None
    other_type = replace(new, exception="RuntimeError")
    assert not _generalizes(other_type, OLD_LEAK)


def test_the_current_wording_is_named_at_its_latest_place_and_beside_the_old_file():
    """Two current sites generalize a removed wording: a caller in another file and the helper
    that took the check over in the old wording's own file. The helper is named, at the place
    its last release has it, though the match's source was pinned to an older release."""
    from errexplain.explainer import _same_text_now
    from errexplain.models import Match

    old = replace(OLD_LEAK, source=replace(OLD_LEAK.source, path="sglang/pools/alloc.py", line=40))
    caller = replace(
        NEW_LEAK,
        id="f" * 16,
        source=replace(NEW_LEAK.source, path="sglang/engine.py", line=7),
        at="1.2..2.0 sglang/engine.py:7 f",
    )
    pinned = replace(NEW_LEAK.source, version="1.2", path="sglang/pools/alloc.py", line=55)
    helper = replace(
        NEW_LEAK, source=pinned, at="1.2 sglang/pools/alloc.py:55 f; 2.0 sglang/pools/leak.py:90"
    )
    for matches in ((caller, helper), (helper, caller)):
        out = _same_text_now(
            (Match(old, 0.99, "exact"), *(Match(e, 0.95, "exact") for e in matches))
        )
        current = out[0].current
        assert current is not None
        assert (current.id, current.path, current.line) == (helper.id, "sglang/pools/leak.py", 90)


# ------------------------------------------ a frame where an earlier wording of the check sat


def _moved_check(p: str = "sglang") -> tuple[list[Entry], Facts, Project]:
    """One check whose code moved from runner.py to decode/runner.py in 1.2; its older wording
    reads a module constant written out (the extractor expands the raising module's own
    constants, not imported ones), its current one the constant's name. A sibling runner
    raises the current text too, in every release."""
    entries, facts, proj = history(p)

    def runner(ident: str, template: str, path: str, line: int, cls: str, span: str, **extra):
        first, _, last = span.partition("..")
        return Entry(
            ident,
            p,
            "Exception",
            template,
            Source(p, "2.0", f"{p}/{path}", line, f"{cls}.__init__", None),
            releases=(first, last),
            at=f"{span} {p}/{path}:{line} {cls}.__init__",
            derived=True,
            **extra,
        )

    head, older, sibling = "c0000000000000a1", "c0000000000000a2", "c0000000000000a3"
    current = "graph capture failed: <e>\n<CAPTURE_HELP>"
    written_out = (
        "graph capture failed: <e>\nPossible solutions: lower --mem-fraction-static, "
        "lower --cuda-graph-max-bs, or disable the graphs with --disable-cuda-graph, "
        "and open an issue with the whole log if none of these helps"
    )
    entries += [
        runner(head, current, "decode/runner.py", 80, "DecodeRunner", "1.2..2.0"),
        runner(
            older,
            written_out,
            "runner.py",
            338,
            "Runner",
            "1.0..1.1",
            lineage=head,
            removed_in="1.2",
        ),
        runner(sibling, current, "draft_runner.py", 50, "DraftRunner", "1.0..2.0"),
    ]
    paths = {
        **facts.paths,
        f"{p}/runner.py": "1.0..1.1",
        f"{p}/decode/runner.py": "1.2..2.0",
        f"{p}/draft_runner.py": "1.0..2.0",
        f"{p}/model_runner.py": "1.0..2.0",
    }
    return entries, replace(facts, paths=paths), proj


MOVED_PASTE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/py/site-packages/sglang/model_runner.py", line 20, in init_graphs\n'
    "    self.graph_runner = Runner(self)\n"
    '  File "/opt/py/site-packages/sglang/runner.py", line 338, in __init__\n'
    "    raise Exception(\n"
    "Exception: graph capture failed: out of memory\n"
)


@pytest.mark.parametrize("kind", ["memory", "index"])
def test_a_frame_where_an_earlier_wording_sat_credits_its_lineage(kind):
    """The paste (release 1.1, message cut before the written-out help text) ends at the raise
    in runner.py, where the check's older wording sat: the check's current wording, moved to
    decode/runner.py since, is the answer, not the sibling runner that words it alike."""
    entries, facts, proj = _moved_check()
    if kind == "memory":
        view = MemoryCatalog(entries, release_facts=[facts], projects=[proj])
    else:
        view = Index.from_bytes(build_bytes(entries, [proj], "k", [facts]))
    x = one(MOVED_PASTE, view)
    top = x.matches[0]
    assert top.entry.id == "c0000000000000a1"
    assert any(
        "sglang/runner.py (__init__), where an earlier release raised this check" in r
        for r in top.reasons
    )
    sibling = next(m for m in x.matches if m.entry.id == "c0000000000000a3")
    assert sibling.score < top.score
    assert any("no frame is in this site's file" in r for r in sibling.reasons)


# --------------------------------------------- twins told apart by an older release's line


def test_a_frame_at_an_older_line_tells_twins_of_one_file_apart():
    """The same assert text in two classes' __init__ of one file: scores tie (same file, same
    function name); the frame's line is where one of them sat in an earlier release."""
    entries, facts, proj = history()
    p = "sglang"

    def twin(ident: str, cls: str, now: int, then: int) -> Entry:
        return Entry(
            ident,
            p,
            "AssertionError",
            "not yet support tp_size!=1",
            Source(p, "2.0", f"{p}/offloader.py", now, f"{cls}.__init__", None),
            releases=("1.0", "2.0"),
            at=f"1.0..1.1 {p}/offloader.py:{then} {cls}.__init__; 1.2..2.0 :{now}",
            derived=True,
        )

    entries += [
        twin("c0000000000000b1", "CpuOffloader", 381, 373),
        twin("c0000000000000b2", "GpuOffloader", 484, 460),
    ]
    paths = {**facts.paths, f"{p}/offloader.py": "1.0..2.0"}
    for view in (
        MemoryCatalog(entries, release_facts=[replace(facts, paths=paths)], projects=[proj]),
        Index.from_bytes(build_bytes(entries, [proj], "k", [replace(facts, paths=paths)])),
    ):
        paste = traceback("sglang/offloader.py", 460, "AssertionError: not yet support tp_size!=1")
        x = one(paste.replace("in f\n", "in __init__\n"), view)
        assert x.matches[0].entry.id == "c0000000000000b2"
        assert any("raised it at the traceback's line 460" in r for r in x.matches[0].reasons)
        # a line neither sat at: the tie stands (both listed, ambiguous)
        x = one(paste.replace("line 460", "line 999").replace("in f\n", "in __init__\n"), view)
        assert {m.entry.id for m in x.matches[:2]} == {"c0000000000000b1", "c0000000000000b2"}
        assert x.ambiguous


# ------------------------------------------- a removed check whose place another site took


def test_a_removed_wording_follows_replaced_by_to_where_its_check_lives_now():
    """The warning of a message was dropped and the raise beside it kept (`replaced_by`), and
    that raise was later reworded into a helper (its lineage's head, live): the warning's match
    names the helper's wording as where the check lives now. A chain that ends in a removed
    check, or loops, names nothing."""
    from errexplain.explainer import _replaced_now
    from errexplain.models import Match

    warned = replace(
        _wording("a" * 16, "pool leak detected! <size>", ("1.0", "1.0"), "1.1"),
        exception="warning",
        kind="log",
        replaced_by="b" * 16,
    )
    raised = replace(
        _wording("b" * 16, "pool leak detected! <size>", ("1.0", "1.1"), "1.2"),
        lineage="e" * 16,
    )
    head = replace(NEW_LEAK, source=replace(NEW_LEAK.source, path="sglang/check.py", line=77))
    view = MemoryCatalog([warned, raised, head])
    m = _replaced_now(view, Match(warned, 0.9, "fuzzy"))
    assert m.current is not None and (m.current.id, m.current.path) == (head.id, "sglang/check.py")
    # a match whose check lives on already is left as it is
    live = Match(warned, 0.9, "fuzzy", current=m.current)
    assert _replaced_now(view, live) is live
    # the chain ends in a removed check: nothing is named
    gone = replace(head, removed_in="2.0")
    assert (
        _replaced_now(MemoryCatalog([warned, raised, gone]), Match(warned, 0.9, "fuzzy")).current
        is None
    )
    # a loop names nothing and ends
    looped = replace(raised, lineage=None, replaced_by="a" * 16)
    assert (
        _replaced_now(MemoryCatalog([warned, looped]), Match(warned, 0.9, "fuzzy")).current is None
    )


# ------------------------------------------- the function a paste names, among sites of one text


def _site(ident: str, path: str, function: str, removed: str | None) -> Entry:
    e = _wording(
        ident, "parent node lost its child key", ("1.0", "2.0" if not removed else "1.1"), removed
    )
    return replace(e, source=replace(e.source, path=path, function=function))


LIVE = _site("1" * 16, "sglang/cache/tree.py", "TreeCache._delete_leaf", None)
HOST = _site("2" * 16, "sglang/cache/host_tree.py", "HostTreeCache.evict_pages", "1.2")
DISK = _site("3" * 16, "sglang/cache/disk_tree.py", "DiskTreeCache.spill_pages", "1.2")


@pytest.mark.parametrize(
    ("paste", "first"),
    [
        # the removed site's function named as code: it comes first, though it scores less
        ("We hit `AssertionError: parent node lost its child key` in `evict_pages()`.", HOST.id),
        # a plain word of the function's name is no name of it
        ("We hit `AssertionError: parent node lost its child key` when pages evict.", LIVE.id),
        # two sites' functions named: nothing tells them apart
        (
            "AssertionError: parent node lost its child key\nseen in evict_pages and spill_pages",
            LIVE.id,
        ),
        # the best match's own function named: it stays first
        ("AssertionError: parent node lost its child key (in _delete_leaf, evict_pages)", LIVE.id),
    ],
)
def test_the_function_a_paste_names_brings_its_site_of_the_text_first(paste, first):
    from errexplain.explainer import _named_function
    from errexplain.models import Match, RaisedError

    matches = tuple(Match(e, s, "exact") for e, s in ((LIVE, 0.99), (HOST, 0.985), (DISK, 0.985)))
    error = RaisedError("AssertionError", "parent node lost its child key")
    out = _named_function(matches, error, paste)
    assert out[0].entry.id == first
    assert sorted(m.entry.id for m in out) == sorted(m.entry.id for m in matches)
    if first != LIVE.id:
        assert "evict_pages" in out[0].reasons[-1] and out[0].score == 0.985


def test_a_traceback_names_functions_of_its_frames_not_of_the_site():
    """With frames, the frames have ordered the sites: a caller's name in them is no evidence."""
    from errexplain.explainer import _named_function
    from errexplain.models import Frame, Match, RaisedError

    matches = tuple(Match(e, s, "exact") for e, s in ((LIVE, 0.99), (HOST, 0.985)))
    frame = Frame("sglang/cache/tree.py", 10, "evict_pages", "self._delete_leaf(node)")
    error = RaisedError("AssertionError", "parent node lost its child key", frames=(frame,))
    out = _named_function(matches, error, "in evict_pages\nAssertionError: parent node lost")
    assert out == matches
