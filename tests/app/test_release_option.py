"""`--release PROJECT=RELEASE` on explain and lookup, over a history catalog written to
tmp_path: a stated release picks and pins the wording that release raises; a malformed value
is a usage error; a release or project the catalog's history does not know is an input error
naming what it knows. The bundled catalog is left out (store.catalog_dirs is narrowed to the
--catalog directories), so only the entries written here can answer."""

from __future__ import annotations

import io
import json
import sys

import pytest
from typer.testing import CliRunner

from errexplain.app import explain, lookup
from errexplain.app.context import Context, Options, open_catalog
from errexplain.catalog import store
from errexplain.catalog.locate import user_dirs
from errexplain.catalog.yamlio import dump_yaml
from errexplain.cli import run_argv
from errexplain.errors import ExitCode, InputError

CUR = "c000000000000001"  # current wording, curated: 1.2..2.0 sglang/new.py
OLD = "c000000000000002"  # older wording, derived, lineage -> CUR: 1.0..1.1 sglang/old.py
PLAIN = "d000000000000001"  # an entry of a project without history

MSG = "cache size 9000 exceeds the limit of 8192 tokens"
LINE = f"ValueError: {MSG}\n"
MEANING = "The KV cache was asked for more tokens than its limit."
URL = "https://example.org/sglang/blob/v{version}/python/{path}#L{line}"
UNKNOWN_HINT = "hint: known: 1.0 to 2.0, release candidates and dev builds excepted\n"


def _write(root, project: str, module: str | None, entries: list[dict], **more) -> None:
    proot = root / project
    proot.mkdir(parents=True, exist_ok=True)
    (proot / "project.yaml").write_text(dump_yaml({"name": project, **more}))
    if entries:
        (proot / "mod.yaml").write_text(dump_yaml({"module": module, "entries": entries}))


def _history(root, project: str = "sglang", ids: tuple[str, str] = (CUR, OLD)) -> None:
    cur, old = ids
    _write(
        root,
        project,
        f"{project}/new.py",
        [
            {
                "id": cur,
                "exception": "ValueError",
                "template": "cache size <n> exceeds the limit of <limit> tokens",
                "source": {"path": f"{project}/new.py", "line": 42, "function": "Cache.grow"},
                "releases": {"first": "1.2", "last": "2.0"},
                "at": f"1.2 {project}/new.py:40 Cache.grow; 2.0 :42",
                "meaning": MEANING,
                "solutions": ["Lower --max-total-tokens."],
                "examples": [MSG],
            },
            {
                "id": old,
                "exception": "ValueError",
                "template": "cache size <size> exceeds the limit of <limit> tokens",
                "source": {"path": f"{project}/old.py", "line": 12, "function": "grow_cache"},
                "releases": {"first": "1.0", "last": "1.1"},
                "at": f"1.0 {project}/old.py:10 grow_cache; 1.1 :12",
                "lineage": cur,
                "derived": True,
                "meaning": "Raised in `grow_cache`.",
            },
        ],
        version="2.0",
        repository=f"https://example.org/{project}",
        link=f"https://example.org/{project}/blob/v{{version}}/{{prefix}}{{path}}#L{{line}}",
        path_prefix="python/",
    )
    (root / project / "releases.yaml").write_text(
        dump_yaml(
            {
                "releases": ["1.0", "1.1", "1.2", "2.0"],
                "paths": {f"{project}/old.py": "1.0..1.1", f"{project}/new.py": "1.2..2.0"},
            }
        )
    )


def _plain_project(root) -> None:
    _write(
        root,
        "demo",
        "demo/mod.py",
        [
            {
                "id": PLAIN,
                "exception": "KeyError",
                "template": "no adapter named <name> is loaded",
                "source": {"path": "demo/mod.py", "line": 7, "function": "load"},
            }
        ],
        version="3.1",
    )


@pytest.fixture(autouse=True)
def _no_bundled_catalog(monkeypatch):
    """Only the --catalog directories: the bundled catalog is not read."""
    monkeypatch.setattr(store, "catalog_dirs", user_dirs)


@pytest.fixture
def catalog(tmp_path):
    root = tmp_path / "catalog"
    _history(root)
    _plain_project(root)
    return str(root)


# ------------------------------------------------------------------ app.explain.run / lookup


def _ctx(catalog: str, release=(), fmt: str = "json", stdin: bytes = b"") -> Context:
    opts = Options(fmt, catalogs=(catalog,), release=tuple(release))
    return Context(opts, io.BytesIO(stdin), io.StringIO(), io.StringIO(), False)


def _explain(catalog: str, release=(), fmt: str = "json", text: str = LINE):
    ctx = _ctx(catalog, release, fmt, text.encode())
    code = explain.run(ctx, "-")
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue()


def test_only_the_catalog_written_here_is_read(catalog):
    view = open_catalog(_ctx(catalog))
    assert len(view) == 3
    assert view.history_projects() == ("sglang",)


def test_explain_without_release_answers_with_the_current_wording(catalog):
    code, out, err = _explain(catalog)
    assert code == ExitCode.EXPLAINED and err == ""
    [error] = json.loads(out)["errors"]
    assert [m["id"] for m in error["matches"]] == [CUR, OLD]
    assert error["release_guess"]["stated"] is False


def test_explain_with_a_stated_release_gives_the_pinned_answer(catalog):
    code, out, err = _explain(catalog, [("sglang", "1.0")])
    assert code == ExitCode.EXPLAINED and err == ""
    [error] = json.loads(out)["errors"]
    assert error["release_guess"] == {
        "project": "sglang",
        "first": "1.0",
        "last": "1.0",
        "evidence": ["stated: sglang=1.0"],
        "stated": True,
    }
    top = error["matches"][0]
    assert top["id"] == OLD
    assert top["source"] == {
        "project": "sglang",
        "version": "1.0",
        "path": "sglang/old.py",
        "line": 10,
        "function": "grow_cache",
        "url": URL.format(version="1.0", path="sglang/old.py", line=10),
        "test_file": False,
    }
    assert top["releases"] == {"first": "1.0", "last": "1.1"}
    assert top["current"] == {"id": CUR, "path": "sglang/new.py", "line": 42}
    assert top["prose_from_current"] is True and top["meaning"] == MEANING


def test_explain_text_names_the_stated_release(catalog):
    code, out, _ = _explain(catalog, [("sglang", "1.1")], fmt="text")
    assert code == ExitCode.EXPLAINED
    assert "\n  release: sglang 1.1 (as stated)\n" in out
    assert "sglang 1.1: sglang/old.py:12 in grow_cache" in out
    assert URL.format(version="1.1", path="sglang/old.py", line=12) in out


def test_lookup_follows_the_stated_release(catalog):
    ctx = _ctx(catalog, [("sglang", "1.2")])
    assert lookup.run(ctx, LINE.strip(), "") == ExitCode.EXPLAINED
    top = json.loads(ctx.stdout.getvalue())["errors"][0]["matches"][0]
    assert top["id"] == CUR
    assert (top["source"]["version"], top["source"]["line"]) == ("1.2", 40)


def test_an_unknown_release_is_an_input_error_naming_the_known_range(catalog):
    with pytest.raises(InputError) as info:
        _explain(catalog, [("sglang", "9.9")])
    exc = info.value
    assert exc.exit_code == ExitCode.BAD_INPUT
    assert exc.message == "--release sglang=9.9: 9.9 is not a sglang release this catalog knows"
    assert exc.hint is not None and exc.hint.startswith("known: 1.0 to 2.0")


def test_a_project_without_history_is_an_input_error(catalog):
    with pytest.raises(InputError) as info:
        _explain(catalog, [("demo", "3.1")])
    exc = info.value
    assert exc.exit_code == ExitCode.BAD_INPUT
    assert exc.message == ("--release demo=3.1: the catalog holds no release history of 'demo'")
    assert exc.hint == "projects with a history: sglang"


def test_a_catalog_without_any_history(tmp_path):
    _plain_project(tmp_path)
    with pytest.raises(InputError) as info:
        _explain(str(tmp_path), [("sglang", "1.0")])
    assert info.value.hint == "projects with a history: none"


# ---------------------------------------------------------------------------- the command line


class Result:
    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code, self.stdout, self.stderr = code, stdout, stderr


def cli(*args: str, stdin: str | None = None) -> Result:
    """The real command line (the error boundary included) with click's stream isolation."""
    with CliRunner().isolation(input=stdin) as (out, err, _):
        code = run_argv(["errexplain", *args])
        sys.stdout.flush()
        sys.stderr.flush()
        return Result(code, out.getvalue().decode(), err.getvalue().decode())


def test_cli_explain_release_gives_the_pinned_answer(catalog):
    r = cli("explain", "--release", "sglang=1.0", "--catalog", catalog, "--json", "-", stdin=LINE)
    assert r.code == ExitCode.EXPLAINED, r.stderr
    [error] = json.loads(r.stdout)["errors"]
    assert error["release_guess"]["stated"] is True
    top = error["matches"][0]
    assert top["id"] == OLD
    assert (top["source"]["version"], top["source"]["line"]) == ("1.0", 10)


@pytest.mark.parametrize(
    ("value", "release"),
    [("sglang==1.1", "1.1"), ("sglang=v1.1", "1.1"), (" sglang = 2.0 ", "2.0")],
)
def test_cli_release_spellings(catalog, value, release):
    r = cli("lookup", "--release", value, "--catalog", catalog, "--json", LINE.strip())
    assert r.code == ExitCode.EXPLAINED, r.stderr
    error = json.loads(r.stdout)["errors"][0]
    assert error["release_guess"]["evidence"] == [f"stated: sglang={release}"]
    assert error["matches"][0]["source"]["version"] == release


@pytest.mark.parametrize("command", ["explain", "lookup"])
@pytest.mark.parametrize("value", ["sglang", "=1", "sglang=", "="])
def test_cli_a_malformed_release_is_a_usage_error(catalog, command, value):
    last = "-" if command == "explain" else LINE.strip()
    r = cli(command, "--release", value, "--catalog", catalog, last, stdin=LINE)
    assert r.code == ExitCode.BAD_INPUT == 2
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    # click's usage banner, then the error on one line of its own
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("Error:")]
    assert errors == [
        f"Error: Invalid value for --release: {value!r}: expected PROJECT=RELEASE, "
        "e.g. sglang=0.4.6"
    ]
    assert r.stderr.rstrip("\n").splitlines()[-1] == errors[0]


@pytest.mark.parametrize("command", ["explain", "lookup"])
def test_cli_an_unknown_release_is_an_input_error(catalog, command):
    last = "-" if command == "explain" else LINE.strip()
    r = cli(command, "--release", "sglang=9.9", "--catalog", catalog, last, stdin=LINE)
    assert r.code == ExitCode.BAD_INPUT
    assert r.stdout == ""
    assert r.stderr == (
        "errexplain: --release sglang=9.9: 9.9 is not a sglang release this catalog knows\n"
        + UNKNOWN_HINT
    )


def test_cli_a_project_without_history_is_an_input_error(catalog):
    r = cli("explain", "--release", "demo=3.1", "--catalog", catalog, "-", stdin=LINE)
    assert r.code == ExitCode.BAD_INPUT
    assert r.stderr == (
        "errexplain: --release demo=3.1: the catalog holds no release history of 'demo'\n"
        "hint: projects with a history: sglang\n"
    )


# --------------------------------------------------------------------------------- known bugs


def test_a_stated_release_counts_with_two_history_projects(tmp_path):
    _history(tmp_path, "acme", ("a000000000000001", "a000000000000002"))  # sorts first
    _history(tmp_path, "sglang")
    code, out, _ = _explain(str(tmp_path), [("sglang", "1.0")])
    assert code == ExitCode.EXPLAINED
    error = json.loads(out)["errors"][0]
    assert error["release_guess"] is not None and error["release_guess"]["stated"] is True
    sglang = [m for m in error["matches"] if m["source"]["project"] == "sglang"]
    assert sglang[0]["id"] == OLD
    assert sglang[0]["source"]["line"] == 10
