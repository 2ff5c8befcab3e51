"""errexplain.app: every command run on in-memory streams, with the small test catalog merged
over the bundled one (Options.catalogs). Exit codes, stdout and stderr are checked apart; domain
errors are raised for the CLI boundary (tests/cli/test_boundary.py) to print."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from errexplain.app import catalog as catalog_cmds
from errexplain.app import explain, listing, lookup, related, search, show
from errexplain.app.context import Context, Options
from errexplain.catalog.yamlio import dump_yaml
from errexplain.errors import CatalogError, ExitCode, InputError

DATA = Path(__file__).parent.parent / "data"
CATALOG = str(DATA / "catalog")

FEATURE = "e3ed514efbc85910"  # curated, related to DEFERRED
DEFERRED = "e0c0fd40da030a91"  # curated, related to FEATURE
TWIN = "c70821dca67aeab7"  # derived, nothing related
FEATURE_MSG = "feature length does not match image grids: 5824 != 5760"

TRACEBACK = f"""\
Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/demo/pkg/images.py", line 360, in prepare
    raise ValueError(msg)
ValueError: {FEATURE_MSG}
"""


class Run:
    """A command's outcome: exit code and both streams."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> dict:
        data = json.loads(self.out)
        assert data["schema"] == 1
        return data


def _ctx(fmt: str = "text", stdin: bytes = b"", **opts) -> Context:
    opts.setdefault("catalogs", (CATALOG,))
    return Context(Options(fmt, **opts), io.BytesIO(stdin), io.StringIO(), io.StringIO(), False)


def run(command, *args, fmt: str = "text", stdin: bytes = b"", **opts) -> Run:
    ctx = _ctx(fmt, stdin, **opts)
    code = command(ctx, *args)
    assert isinstance(code, ExitCode)
    return Run(code, ctx.stdout.getvalue(), ctx.stderr.getvalue())


# ------------------------------------------------------------------------------- explain.run


def test_explain_stdin_text():
    r = run(explain.run, "-", stdin=TRACEBACK.encode())
    assert r.code == ExitCode.EXPLAINED
    assert "Pixel rows and grid patch counts disagree." in r.out
    assert "Pin the processor version." in r.out
    assert r.err == ""


def test_explain_stdin_json():
    r = run(explain.run, "-", fmt="json", stdin=TRACEBACK.encode())
    assert r.code == ExitCode.EXPLAINED
    data = r.json()
    [error] = data["errors"]
    assert error["exception"]["type"] == "ValueError"
    assert error["exception"]["message"] == FEATURE_MSG
    top = error["matches"][0]
    assert top["id"] == FEATURE
    assert top["kind"] == "exact"
    assert top["values"] == {"pixel_values.shape[0]": "5824", "sum(patch_counts)": "5760"}
    assert [rel["id"] for rel in top["related"]] == [DEFERRED]
    assert data["input"] == {
        "name": "stdin",
        "bytes": len(TRACEBACK.encode()),
        "skipped_bytes": 0,
        "warnings": [],
    }
    assert r.err == ""


def test_explain_a_file(tmp_path):
    f = tmp_path / "log.txt"
    f.write_text("noise before\n" + TRACEBACK)
    r = run(explain.run, str(f), fmt="json")
    assert r.code == ExitCode.EXPLAINED
    assert r.json()["input"]["name"] == str(f)


def test_explain_rich_on_a_string_stream():
    r = run(explain.run, "-", fmt="rich", stdin=TRACEBACK.encode(), color=False)
    assert r.code == ExitCode.EXPLAINED
    assert "Pixel rows and grid patch counts disagree." in r.out
    assert "\x1b[" not in r.out


def test_explain_auto_format_is_text_off_a_terminal():
    auto = run(explain.run, "-", fmt="auto", stdin=TRACEBACK.encode())
    text = run(explain.run, "-", fmt="text", stdin=TRACEBACK.encode())
    assert auto.out == text.out


def test_explain_no_match_exits_1():
    r = run(explain.run, "-", stdin=b"ZebraError: giraffe quux wobble\n")
    assert r.code == ExitCode.NO_MATCH
    assert "No catalog entry matches this message." in r.out
    assert "(nearest known class Exception)" in r.out


def test_explain_json_no_match_exits_1():
    r = run(explain.run, "-", fmt="json", stdin=b"ZebraError: giraffe quux wobble\n")
    assert r.code == ExitCode.NO_MATCH
    [error] = r.json()["errors"]
    assert error["matches"] == []
    assert error["generic"].startswith("(nearest known class Exception)")


def test_explain_invalid_utf8_warns_on_stderr():
    r = run(explain.run, "-", stdin=TRACEBACK.encode() + b"\xff\xfe trailing\n")
    assert r.code == ExitCode.EXPLAINED
    assert r.err.startswith("errexplain: warning: stdin is not valid UTF-8")


@pytest.mark.parametrize("stdin", [b"", b"  \n\n\t\n"])
def test_explain_empty_input(stdin):
    with pytest.raises(InputError, match=r"^stdin is empty: nothing to explain$") as info:
        run(explain.run, "-", stdin=stdin)
    assert "errexplain explain -" in (info.value.hint or "")


def test_explain_no_exception_in_input():
    with pytest.raises(InputError) as info:
        run(explain.run, "-", stdin=b"\n  hello world  \nbye\n")
    assert info.value.message == "no Python exception found in stdin (first line: 'hello world')"
    assert "SomeError: message" in (info.value.hint or "")


def test_explain_no_exception_long_first_line_is_cut():
    with pytest.raises(InputError) as info:
        run(explain.run, "-", stdin=b"x" * 100)
    assert info.value.message.endswith(f"(first line: {'x' * 80 + '...'!r})")


def test_explain_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        run(explain.run, str(tmp_path / "missing.log"))


def test_explain_bad_user_catalog(tmp_path):
    with pytest.raises(CatalogError, match="catalog directory not found"):
        run(explain.run, "-", stdin=TRACEBACK.encode(), catalogs=(str(tmp_path / "nope"),))


def test_explain_cutoff_option():
    msg = b"RuntimeError: NCCL error: unhandled system error\n"
    assert run(explain.run, "-", stdin=msg).code == ExitCode.EXPLAINED
    strict = run(explain.run, "-", fmt="json", stdin=msg, cutoff=1.01)
    assert strict.code == ExitCode.NO_MATCH
    assert strict.json()["errors"][0]["nearest"]


# -------------------------------------------------------------------------------- lookup.run


@pytest.mark.parametrize(
    ("message", "exc_type", "expected"),
    [
        ("ValueError: bad value", "", ("ValueError", "bad value")),
        (
            "  torch.OutOfMemoryError: CUDA out of memory  ",
            "",
            ("torch.OutOfMemoryError", "CUDA out of memory"),
        ),
        ("MyException: x", "", ("MyException", "x")),
        ("UserWarning: careful", "", ("UserWarning", "careful")),
        ("KeyboardInterrupt: now", "", ("KeyboardInterrupt", "now")),
        ("SystemExit: 2", "", ("SystemExit", "2")),
        ("ValueError: line one\nline two", "", ("ValueError", "line one\nline two")),
        ("ValueError: bad value", "TypeError", ("TypeError", "ValueError: bad value")),
        ("note: not a type", "", ("", "note: not a type")),
        ("ValueError:no space", "", ("", "ValueError:no space")),
        ("just a message", "", ("", "just a message")),
    ],
)
def test_split_type(message, exc_type, expected):
    assert lookup.split_type(message, exc_type) == expected


def test_lookup_typed_message_json():
    r = run(lookup.run, f"ValueError: {FEATURE_MSG}", "", fmt="json")
    assert r.code == ExitCode.EXPLAINED
    [error] = r.json()["errors"]
    assert (error["exception"]["type"], error["exception"]["message"]) == (
        "ValueError",
        FEATURE_MSG,
    )
    assert error["matches"][0]["id"] == FEATURE
    assert r.err == ""


def test_lookup_with_explicit_type_text():
    r = run(lookup.run, FEATURE_MSG, "ValueError")
    assert r.code == ExitCode.EXPLAINED
    assert "Pixel rows and grid patch counts disagree." in r.out


def test_lookup_no_match():
    r = run(lookup.run, "giraffe quux wobble", "ZebraError")
    assert r.code == ExitCode.NO_MATCH
    assert "No catalog entry matches this message." in r.out


def test_lookup_of_a_whole_traceback_explains_it_as_explain_does():
    looked = run(lookup.run, TRACEBACK, "", fmt="json").json()["errors"]
    explained = run(explain.run, "-", fmt="json", stdin=TRACEBACK.encode()).json()["errors"]
    assert looked == explained
    [error] = looked
    assert (error["exception"]["type"], error["exception"]["message"]) == (
        "ValueError",
        FEATURE_MSG,
    )
    assert error["exception"]["frames"][0]["function"] == "prepare"
    assert error["matches"][0]["id"] == FEATURE


@pytest.mark.parametrize(
    ("text", "form"),
    [
        (
            f"[2026-03-01 09:00:00 TP0] Loading.\n[2026-03-01 09:00:01 TP0] Error: {FEATURE_MSG}",
            "log",
        ),
        (f'{{"object": "error", "message": "{FEATURE_MSG}", "code": 400}}', "json"),
        (f"processor failed: ValueError('{FEATURE_MSG}')", "repr"),
    ],
)
def test_lookup_of_a_log_finds_its_error(text, form):
    [error] = run(lookup.run, text, "", fmt="json").json()["errors"]
    assert (error["exception"]["message"], error["exception"]["form"]) == (FEATURE_MSG, form)
    assert error["matches"][0]["id"] == FEATURE


def test_lookup_with_a_type_takes_the_text_as_the_message():
    [error] = run(lookup.run, TRACEBACK, "ValueError", fmt="json").json()["errors"]
    assert error["exception"]["message"] == TRACEBACK


def test_lookup_api_reads_a_traceback():
    import errexplain

    exp = errexplain.lookup(TRACEBACK, catalogs=(CATALOG,))
    assert (exp.error.type, exp.error.message, exp.error.form) == (
        "ValueError",
        FEATURE_MSG,
        "traceback",
    )
    assert errexplain.lookup(f"ValueError: {FEATURE_MSG}", catalogs=(CATALOG,)).error.form == (
        "line"
    )


@pytest.mark.parametrize(("message", "exc_type"), [("", ""), ("   ", "ValueError")])
def test_lookup_empty_message(message, exc_type):
    with pytest.raises(InputError, match="the message is empty"):
        run(lookup.run, message, exc_type)


# ---------------------------------------------------------------------------------- show.run


def test_show_text():
    r = run(show.run, FEATURE)
    assert r.code == ExitCode.EXPLAINED
    first = r.out.splitlines()[0]
    assert first.startswith(f"{FEATURE}  ValueError: feature length does not match image grids: ")
    assert "Pixel rows and grid patch counts disagree." in r.out
    assert "feature length does not match image grids: 5824 != 5760" in r.out  # an example
    assert r.err == ""


def test_show_rich():
    r = run(show.run, FEATURE, fmt="rich", color=False)
    assert r.code == ExitCode.EXPLAINED
    assert f"{FEATURE} · demo" in r.out
    assert "Pixel rows and grid patch counts disagree." in r.out


def test_show_id_is_trimmed_and_lower_cased():
    assert run(show.run, f"  {FEATURE.upper()} ", fmt="json").json()["entry"]["id"] == FEATURE


def test_show_unknown_id():
    with pytest.raises(InputError, match=r"^no catalog entry has the id 0000000000000000$") as info:
        run(show.run, "0" * 16)
    assert "16 hex digits" in (info.value.hint or "")


# ------------------------------------------------------------------------------- related.run


def test_related_by_id():
    r = run(related.run, FEATURE)
    assert r.code == ExitCode.EXPLAINED
    lines = r.out.splitlines()
    assert lines[0] == f"Related to {FEATURE} (ValueError):"
    assert DEFERRED in lines[1]
    assert "demo/pkg/images.py:400" in r.out


def test_related_by_message_json():
    r = run(related.run, "deferred feature length does not match image grids", fmt="json")
    assert r.code == ExitCode.EXPLAINED
    [row] = r.json()["entries"]
    assert row["id"] == FEATURE
    assert (row["path"], row["line"], row["project"]) == ("demo/pkg/images.py", 360, "demo")
    assert "score" not in row


def test_related_none():
    r = run(related.run, TWIN)
    assert r.code == ExitCode.NO_MATCH
    assert r.out.splitlines() == [f"Related to {TWIN} (AssertionError):", "(nothing found)"]


def test_related_unknown_id():
    with pytest.raises(InputError, match="no catalog entry has the id"):
        run(related.run, "0" * 16)


def test_related_message_without_match():
    with pytest.raises(InputError, match="no catalog entry matches that message"):
        run(related.run, "giraffe quux wobble zebra")


# -------------------------------------------------------------------------------- search.run


def test_search_json_ranked_with_scores():
    r = run(search.run, "feature length image grids", 10, fmt="json")
    assert r.code == ExitCode.EXPLAINED
    rows = r.json()["entries"]
    assert 0 < len(rows) <= 10
    ids = [row["id"] for row in rows]
    assert FEATURE in ids
    assert DEFERRED in ids
    scores = [row["score"] for row in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(0 <= s <= 1 for s in scores)


def test_search_limit_and_text():
    r = run(search.run, "feature length image grids", 2)
    assert r.code == ExitCode.EXPLAINED
    assert len(r.out.splitlines()) == 4  # two lines per entry
    assert r.out.startswith("1.00  ")


def test_search_nothing_found():
    r = run(search.run, "zzqqxxyy wwvvkk", 10)
    assert r.code == ExitCode.NO_MATCH
    assert r.out == "(nothing found)\n"


def test_search_nothing_found_json():
    r = run(search.run, "zzqqxxyy wwvvkk", 10, fmt="json")
    assert r.code == ExitCode.NO_MATCH
    assert r.json()["entries"] == []


@pytest.mark.parametrize("query", ["", "   "])
def test_search_without_keywords(query):
    with pytest.raises(InputError, match="no keywords given"):
        run(search.run, query, 10)


# ------------------------------------------------------------------------------- listing.run


def test_list_one_project_json():
    r = run(listing.run, "demo", "", "", 0, fmt="json")
    assert r.code == ExitCode.EXPLAINED
    rows = r.json()["entries"]
    assert len(rows) == 11
    assert {row["project"] for row in rows} == {"demo"}


@pytest.mark.parametrize(
    ("exc_type", "path", "limit", "expected"),
    [
        ("AssertionError", "", 0, {TWIN, "7faa7e20158272e2"}),
        ("", "other/dist.py", 0, {"7faa7e20158272e2"}),
        ("ValueError", "images.py", 0, {FEATURE, DEFERRED}),
        ("ValueError", "images.py", 1, None),
    ],
)
def test_list_filters(exc_type, path, limit, expected):
    r = run(listing.run, "demo", exc_type, path, limit, fmt="json")
    ids = {row["id"] for row in r.json()["entries"]}
    if expected is None:
        assert len(ids) == limit
    else:
        assert ids == expected


def test_list_text():
    r = run(listing.run, "demo", "TypeError", "", 0)
    assert r.code == ExitCode.EXPLAINED
    assert r.out.splitlines()[0].startswith(
        "888b81856c534134  TypeError: image QKV shapes must match"
    )
    assert "demo/pkg/types.py:11" in r.out


def test_list_nothing():
    r = run(listing.run, "no-such-project", "", "", 0)
    assert r.code == ExitCode.NO_MATCH
    assert r.out == "(nothing found)\n"


# ------------------------------------------------------------------------------ catalog check


def _write_catalog(root: Path, entries: list[dict]) -> str:
    proj = root / "proj"
    proj.mkdir(parents=True)
    (proj / "project.yaml").write_text(dump_yaml({"name": "proj"}))
    (proj / "mod.yaml").write_text(dump_yaml({"entries": entries}))
    return str(root)


def _entry(n: int, template: str, **extra) -> dict:
    return {"id": f"{n:016x}", "exception": "ValueError", "template": template, **extra}


def test_catalog_check_ok():
    r = run(catalog_cmds.check, CATALOG)
    assert r.code == ExitCode.EXPLAINED
    assert r.out == "catalog OK: 11 entries in 1 project(s), 2 examples all ranked first\n"
    assert r.err == ""


def test_catalog_check_problems(tmp_path):
    directory = _write_catalog(
        tmp_path,
        [
            _entry(1, "disk full on device <dev>", related=["f" * 16]),
            _entry(2, "network unreachable: <h>", examples=["zebra giraffe"]),
        ],
    )
    r = run(catalog_cmds.check, directory)
    assert r.code == ExitCode.BAD_INPUT
    assert r.out == ""
    lines = r.err.splitlines()
    assert len(lines) == 3
    assert lines[0].endswith(f"entry {1:016x}: related: unknown id {'f' * 16}")
    assert lines[1].endswith(f"entry {2:016x}: example 'zebra giraffe': no match")
    assert lines[2] == "errexplain: catalog check failed: 2 problem(s) in 2 entries"
    assert all(line.startswith("errexplain: ") for line in lines)


def test_catalog_check_missing_directory(tmp_path):
    with pytest.raises(CatalogError, match="catalog directory not found"):
        run(catalog_cmds.check, str(tmp_path / "nope"))


def test_catalog_check_invalid_yaml(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text("name: [\n")
    with pytest.raises(CatalogError, match="invalid YAML"):
        run(catalog_cmds.check, str(tmp_path))


# ------------------------------------------------------------------------------ catalog stats


def test_catalog_stats_json():
    r = run(catalog_cmds.stats, fmt="json")
    assert r.code == ExitCode.EXPLAINED
    stats = r.json()["stats"]
    assert stats["by_project"]["demo"] == 11
    assert stats["entries"] == sum(stats["by_project"].values())
    assert stats["entries"] == sum(stats["by_kind"].values())
    assert stats["curated_vs_derived"]["demo curated"] == 2
    assert stats["curated_vs_derived"]["demo derived"] == 9
    counts = list(stats["by_exception"].values())
    assert counts == sorted(counts, reverse=True)


def test_catalog_stats_text():
    r = run(catalog_cmds.stats)
    assert r.code == ExitCode.EXPLAINED
    lines = r.out.splitlines()
    assert lines[0].startswith("entries: ")
    for heading in ("by project:", "curated vs derived:", "by kind:", "by exception:"):
        assert heading in lines
    assert "       11  demo" in lines
    assert "        2  demo curated" in lines


# ------------------------------------------------------------------------------- catalog lint


def test_catalog_lint_small_catalog():
    r = run(catalog_cmds.lint, CATALOG)
    assert r.code == ExitCode.NO_MATCH  # findings over --max 0 (issue 12)
    lines = r.out.splitlines()
    assert lines[0] == "too generic: 1 (over --max 0)"
    assert "2a98951e34eff474" in lines[1]
    assert "duplicate templates: 2 (over --max 0)" in lines
    assert lines[-1] == "dangling related ids: 0"
    assert run(catalog_cmds.lint, CATALOG, ["2"]).code == ExitCode.EXPLAINED


def test_catalog_lint_dangling_ids_fail(tmp_path):
    directory = _write_catalog(
        tmp_path, [_entry(1, "disk full on device <dev>", related=["f" * 16])]
    )
    r = run(catalog_cmds.lint, directory)
    assert r.code == ExitCode.NO_MATCH
    assert "dangling related ids: 1 (over --max 0)" in r.out.splitlines()
    assert f"related: unknown id {'f' * 16}" in r.out


def test_catalog_lint_caps_long_lists(tmp_path):
    directory = _write_catalog(tmp_path, [_entry(n, f"<e{n}>") for n in range(25)])
    r = run(catalog_cmds.lint, directory)
    assert r.code == ExitCode.NO_MATCH
    lines = r.out.splitlines()
    assert lines[0] == "too generic: 25 (over --max 0)"
    assert lines[21] == "  ... and 5 more"
    assert lines[22] == "duplicate templates: 0"


def test_show_a_former_id_says_which_wording_it_is_now():
    # an id a history build merged into another wording (releases.yaml `formerly`) still
    # shows that wording, and says so: on stderr in text, as `alias_of` in JSON
    from errexplain.catalog.yamlio import read_yaml

    releases = Path(__file__).resolve().parents[2] / "errors" / "sglang" / "releases.yaml"
    old, now = sorted(read_yaml(releases)["formerly"].items())[0]
    r = run(show.run, old)
    assert r.code == ExitCode.EXPLAINED and r.out.startswith(now)
    assert r.err == f"note: {old} is a former id: that wording is now part of {now}, shown here\n"
    data = run(show.run, old, fmt="json").json()
    assert (data["entry"]["id"], data["alias_of"]) == (now, now)
    assert run(show.run, now, fmt="json").json()["alias_of"] is None
