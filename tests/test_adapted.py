"""Messages of files a project adapted from another project's source (project.yaml
`adapted_from`): without anything in the paste that names the project, a match is not
confident, and a paste that names only the other project gets a look-alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.views import catalog_view

from errexplain.catalog.load import CatalogError, load_project
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import SHARED_CAP, explain_text
from errexplain.models import Entry, Project, Source, make_id

ADAPTED = "pkg/loader/weights.py"
OWN_PREFIX = r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: [A-Z]{2}\d{1,3})+\] "
PROJECT = Project("pkg", "1.0", adapted=(("lmdeploy", (ADAPTED,)),), own_prefixes=(OWN_PREFIX,))


def _entry(path: str, template: str) -> Entry:
    return Entry(
        id=make_id("pkg", path, "load#9", template),
        project="pkg",
        exception="ValueError",
        template=template,
        source=Source("pkg", "1.0", path, 9, "load", None),
        derived=True,
    )


ENTRIES = (
    _entry(ADAPTED, "Cannot find the config file for <method>"),
    _entry("pkg/own/server.py", "The server cannot start with <n> workers today"),
    _entry("pkg/own/attn.py", "VLLM_ATTENTION_BACKEND=<backend> is not a known attention backend"),
)


@pytest.fixture(params=["memory", "index"])
def view(request):
    return catalog_view(request.param, ENTRIES, [PROJECT])


def test_project_adapted_from(view):
    assert view.project("pkg").adapted_from(ADAPTED) == "lmdeploy"
    assert view.project("pkg").adapted_from("pkg/own/server.py") is None


def test_a_bare_line_of_an_adapted_file_is_not_confident(view):
    (exp,) = explain_text("ValueError: Cannot find the config file for awq\n", view)
    assert exp.matches[0].entry.source.path == ADAPTED
    assert exp.matches[0].score == SHARED_CAP
    assert any("adapted this code from lmdeploy" in n for n in exp.notes)


@pytest.mark.parametrize(
    "text",
    [
        "$ python -m pkg.launch\nValueError: Cannot find the config file for awq\n",
        'Traceback (most recent call last):\n  File "/env/site-packages/pkg/loader/weights.py",'
        " line 9, in load\n    raise ValueError(msg)\nValueError: Cannot find the config file"
        " for awq\n",
    ],
)
def test_a_paste_that_names_the_project_keeps_its_score(view, text):
    (exp,) = explain_text(text, view)
    assert exp.matches[0].score > SHARED_CAP and not any("adapted" in n for n in exp.notes)


@pytest.mark.parametrize(
    ("text", "hedged"),
    [
        # the project's own logging printed the record (its stamp with ranks): its text
        ("[2026-01-02 10:00:00 TP3] Cannot find the config file for awq\n", False),
        ("```\n[2026-01-02 10:00:00 DP1 TP3] Cannot find the config file for awq\n```\n", False),
        # a stamp any logger prints, or the record of another line: no evidence
        ("[2026-01-02 10:00:00] Cannot find the config file for awq\n", True),
        ("Cannot find the config file for awq\n", True),
        # an exception line a multi-rank log prefixed: the raising code may be anyone's
        ("[2026-01-02 10:00:00 TP3] ValueError: Cannot find the config file for awq\n", True),
    ],
)
def test_a_record_the_projects_own_logging_printed_is_its_own(view, text, hedged):
    """project.yaml `own_log_prefixes`: a log record whose line opens with a prefix only the
    project's logging prints is the project's, though another project has the same text."""
    (exp,) = explain_text(text, view)
    assert exp.matches[0].entry.source.path == ADAPTED
    assert any("adapted this code from lmdeploy" in n for n in exp.notes) == hedged
    assert (exp.matches[0].score == SHARED_CAP) == hedged


def test_own_log_prefixes_in_project_yaml(tmp_path: Path):
    (tmp_path / "project.yaml").write_text("name: pkg\nown_log_prefixes:\n- '\\[x\\] '\n")
    assert load_project(tmp_path).own_prefixes == ("\\[x\\] ",)
    for bad in ("own_log_prefixes: x\n", "own_log_prefixes:\n- '('\n", "own_log_prefixes: [1]\n"):
        (tmp_path / "project.yaml").write_text("name: pkg\n" + bad)
        with pytest.raises(CatalogError, match="own_log_prefixes"):
            load_project(tmp_path)


def test_a_paste_that_names_only_the_other_project_gets_a_look_alike(view):
    text = "lmdeploy serve crashed:\nValueError: Cannot find the config file for awq\n"
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.nearest[0].entry.source.path == ADAPTED
    assert any("the paste names" in n and "lmdeploy" in n for n in exp.notes)


def test_own_files_are_unaffected(view):
    (exp,) = explain_text("ValueError: The server cannot start with 3 workers today\n", view)
    assert exp.matches[0].score > SHARED_CAP and not exp.notes


def test_adapted_from_in_project_yaml(tmp_path: Path):
    (tmp_path / "project.yaml").write_text(
        "name: pkg\nadapted_from:\n  lmdeploy:\n  - pkg/a.py\n  - pkg/b.py\n"
    )
    assert load_project(tmp_path).adapted == (("lmdeploy", ("pkg/a.py", "pkg/b.py")),)
    for bad in (
        "adapted_from: [pkg/a.py]\n",
        "adapted_from:\n  x: [1]\n",
        "adapted_from:\n  x: y\n",
    ):
        (tmp_path / "project.yaml").write_text("name: pkg\n" + bad)
        with pytest.raises(CatalogError, match="adapted_from"):
            load_project(tmp_path)


@pytest.mark.parametrize(
    "text",
    [
        "$ vllm serve Qwen/Qwen3-8B --tensor-parallel-size 4\n"
        "ValueError: The server cannot start with 4 workers today\n",
        "Running with LMDeploy 0.6, I get:\n"
        "`ValueError: The server cannot start with 4 workers today`\n",
        # Chinese prose writes the name between ideographs (word characters to `\w`)
        "模型是使用vllm部署的，启动时报错：\n"  # noqa: RUF001
        "ValueError: The server cannot start with 4 workers today\n",
        # the paste logged as a string's repr: an escaped line break before the name
        "output.error='Started it:\\nvllm serve Qwen/Qwen3-8B\\n"
        "ValueError: The server cannot start with 4 workers today'\n",
    ],
)
def test_a_paste_that_names_only_a_sibling_engine_gets_a_look_alike(view, text):
    """Not an adapted file, no frames: the paste names vLLM (or another engine) and never the
    project, so the project's site with the same text is a look-alike, listed as nearest."""
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.nearest[0].entry.source.path == "pkg/own/server.py"
    assert any("the paste names" in n and "never pkg" in n for n in exp.notes)


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve works; pkg fails:\nValueError: The server cannot start with 4 workers today\n",
        "ValueError: The server cannot start with 4 workers today (vllm)\n",
        # named as what works: the poster's contrast, not what raised the error
        "Same model on vLLM 0.6 works fine; here it stops with:\n"
        "ValueError: The server cannot start with 4 workers today\n",
        "下面是日志，使用vllm可以正常拉起来。\n"  # noqa: RUF001
        "ValueError: The server cannot start with 4 workers today\n",
    ],
)
def test_the_engine_named_beside_the_project_or_inside_the_message_is_no_evidence(view, text):
    (exp,) = explain_text(text, view)
    assert exp.matches and exp.matches[0].entry.source.path == "pkg/own/server.py"


@pytest.mark.parametrize(
    "var", ["VLLM_USE_V1=1", "LMDEPLOY_LOG_LEVEL", "VLLM_ALLREDUCE_USE_SYMM_MEM"]
)
def test_a_sibling_engines_setting_in_the_messages_own_words_gets_a_look_alike(view, var):
    """The message goes on past the template with an environment variable of another engine:
    that engine raised it (its own wording grew a clause about its own setting)."""
    text = f"AssertionError: The server cannot start with 4 workers today when {var} is set\n"
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.nearest[0].entry.source.path == "pkg/own/server.py"
    assert any("the paste names" in n for n in exp.notes)


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: VLLM_ATTENTION_BACKEND=FOO is not a known attention backend\n",
        # a name that only starts like the setting of an engine
        "AssertionError: The server cannot start with 4 workers today when MYVLLM_X=1 is set\n",
    ],
)
def test_a_setting_the_template_itself_names_is_no_evidence(view, text):
    (exp,) = explain_text(text, view)
    assert exp.matches and not any("the paste names" in n for n in exp.notes)


@pytest.mark.parametrize(
    "label",
    ["- **vLLM**: ", "vllm: ", "On vLLM 0.9 it fails with ", "vllm 报错："],  # noqa: RUF001
)
def test_an_error_labelled_with_a_sibling_engine_in_a_post_that_names_both_is_a_look_alike(
    view, label
):
    """A post comparing engines labels each error with the one that raised it: the lead of the
    line that quotes the error names vLLM (and not pkg), though pkg is named elsewhere."""
    text = (
        "Both engines fail with 4 workers on pkg 1.0 and vLLM:\n\n"
        f"{label}`ValueError: The server cannot start with 4 workers today`\n"
        "- **pkg**: `ValueError: Cannot find the config file for awq`\n"
    )
    first, second = explain_text(text, view)
    assert not first.matches and first.nearest[0].entry.source.path == "pkg/own/server.py"
    assert any("labels it as vllm's" in n for n in first.notes)
    # the line labelled with pkg keeps its match (the adapted file's cap aside)
    assert second.matches[0].entry.source.path == ADAPTED


@pytest.mark.parametrize(
    "line",
    [
        # the lead says vLLM works, or names pkg too, or is a sentence, not a label
        "vLLM works, pkg says ValueError: The server cannot start with 4 workers today\n",
        "vLLM and pkg: ValueError: The server cannot start with 4 workers today\n",
        "After trying everything from the vLLM guide and rebuilding the image twice, I get "
        "ValueError: The server cannot start with 4 workers today\n",
    ],
)
def test_a_lead_that_is_no_label_of_a_sibling_engine_is_no_evidence(view, line):
    (exp,) = explain_text("pkg 1.0 on 8 GPUs.\n" + line, view)
    assert exp.matches and exp.matches[0].entry.source.path == "pkg/own/server.py"


@pytest.mark.parametrize(
    ("engine", "msg"),
    [
        ("vllm", "The server cannot start with 4 workers today"),
        ("lmdeploy", "Cannot find the config file for awq"),
    ],
)
def test_an_engine_named_beside_another_quoted_error_is_said_of_that_error(view, engine, msg):
    # a report quotes our error, then compares it with the engine's own, quoted on its line:
    # the name is said of that one, and our match stays a match
    text = (
        f"The run fails with:\nValueError: {msg}\n\n"
        f"{engine}'s similar error is `Weight loading failed for shard 3 of 8`.\n"
    )
    exp = next(e for e in explain_text(text, view) if e.error.type == "ValueError")
    assert exp.matches and exp.matches[0].entry.project == "pkg"
    # the same name on a line that quotes nothing is said of this paste: a look-alike
    alone = f"Running {engine} 0.6, the run fails with:\nValueError: {msg}\n"
    exp = next(e for e in explain_text(alone, view) if e.error.type == "ValueError")
    assert not exp.matches and exp.nearest[0].entry.project == "pkg"


@pytest.mark.parametrize(
    "text",
    [
        # a denied "work" is no contrast (an editor's apostrophe too)
        'In LMDeploy it did not work and showed "ValueError: The server cannot start with 4 '
        'workers today".\n',
        "In LMDeploy it didn\u2019t work and showed \u201cValueError: The server cannot start "
        "with 4 workers today\u201d.\n",
        # "work" in another sentence of the line says nothing of the engine
        "I need this model to work on my home PC. In LMDeploy 0.6 it stops with "
        '"ValueError: The server cannot start with 4 workers today".\n',
    ],
)
def test_an_engine_named_in_the_sentence_that_quotes_the_error_gets_a_look_alike(view, text):
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.nearest[0].entry.source.path == "pkg/own/server.py"


@pytest.mark.parametrize(
    "text",
    [
        # apostrophes inside words quote nothing (`the model's ... the recipe's`)
        "On vLLM 0.6 with the model's published checkpoint, the recipe's 16-way run cannot "
        "start: ValueError: The server cannot start with 4 workers today\n",
        # a post flattened onto one line: a quote in another sentence is said of nothing here
        'The "1 GPU" tab of the guide says "start the server exactly as the guide shows" and '
        "that works. On vLLM 0.6 the 16-way run stops: ValueError: The server cannot start "
        "with 4 workers today\n",
    ],
)
def test_the_engine_named_in_a_sentence_that_quotes_nothing_gets_a_look_alike(view, text):
    exp = next(e for e in explain_text(text, view) if e.error.type == "ValueError")
    assert not exp.matches and exp.nearest[0].entry.source.path == "pkg/own/server.py"


def test_a_paste_flattened_with_break_marks_is_read_by_its_lines(view):
    """A digest that flattened the paste onto one line (`⏎` for its breaks): the engine named
    on a line of its own is said of this paste, not of the message quoted on another line."""
    lines = [
        "Deploying with vllm on 2 GPUs fails:",
        "`ERROR 02-22 00:01:41 engine.py:400] The server cannot start with 4 workers today`",
        "ValueError: The server cannot start with 4 workers today",
    ]
    for text in ("\n".join(lines) + "\n", " \u23ce ".join(lines)):
        exp = next(e for e in explain_text(text, view) if e.error.type == "ValueError")
        assert not exp.matches and exp.nearest[0].entry.project == "pkg", text


def test_a_library_named_in_the_paste_is_no_look_alike():
    # a file adapted from a library (not an engine people run): naming the library, as pastes
    # do in versions and imports, does not make the project's match a look-alike
    project = Project("pkg", "1.0", adapted=(("transformers", (ADAPTED,)),))
    view = MemoryCatalog(ENTRIES, projects=[project])
    text = "transformers==4.57.1\nValueError: Cannot find the config file for awq\n"
    (exp,) = explain_text(text, view)
    assert exp.matches and exp.matches[0].score == SHARED_CAP


def test_a_platform_that_runs_the_engine_named_in_the_paste_is_no_look_alike(view):
    # Xinference (like a cloud console or a notebook service) starts the project as one of its
    # backends and passes its errors on: naming the platform says who relayed the error, not
    # that another engine raised it
    text = (
        "Launching the model with xinference 1.5 fails:\n"
        "RuntimeError: [address=0.0.0.0:37905, pid=4194] The server cannot start with 4 "
        "workers today\n"
    )
    (exp,) = explain_text(text, view)
    assert exp.matches and exp.matches[0].entry.source.path == "pkg/own/server.py"
    assert not any("look-alike" in n for n in exp.notes)


def test_a_package_directory_in_a_path_names_it_even_on_a_line_that_quotes_source(view):
    """A notebook's traceback pasted as one line (zx008's shape): the frame's path runs through
    `.../site-packages/lmdeploy/...` on a line that also quotes the raise's f-string source. The
    quoted source is not another message the name is said of: code ran in that package."""
    text = (
        "out = run() 3 frames [/usr/lib/python3.10/site-packages/lmdeploy/loader/weights.py] in "
        'load(config) ---> 9 raise ValueError( 10 f"Cannot find the config file for {method}" '
        "ValueError: Cannot find the config file for awq\n"
    )
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.nearest[0].entry.source.path == ADAPTED
    assert any("the paste names lmdeploy" in n for n in exp.notes)
    assert not any("several places" in n for n in exp.notes)


# ---------------------------------------------------------------- wording shared word for word

SHARED_TEXT = "The loader found no weights for layer <n> in the checkpoint"
SHARED_ENTRY = _entry("pkg/own/loader.py", SHARED_TEXT)
OTHER_ENTRY = ENTRIES[1]
SHARING = Project("pkg", "1.0", shared=(("vllm", SHARED_ENTRY.id),))
SHARED_LINE = "ValueError: The loader found no weights for layer 7 in the checkpoint\n"


@pytest.fixture(params=["memory", "index"])
def sharing(request):
    return catalog_view(request.param, (SHARED_ENTRY, OTHER_ENTRY), [SHARING])


def test_project_shares():
    two = Project("pkg", shared=(("vllm", f"{'a' * 16} {'b' * 16}"), ("tgi", "c" * 16)))
    assert two.shares("b" * 16) == "vllm" and two.shares("c" * 16) == "tgi"
    assert two.shares("d" * 16) is None
    assert two.shares("aaaaaaaa" + "b" * 8) is None  # (not an id that straddles two)
    assert two.read_wording_of("tgi") and not two.read_wording_of("lmdeploy")


def test_a_text_another_project_raises_word_for_word_is_not_confident(sharing):
    """No header says the file was adapted, but the other project's released source raises the
    same words (project.yaml `shared_wording`): a paste that names neither is capped."""
    (exp,) = explain_text(
        "ValueError: The loader found no weights for layer 7 in the checkpoint\n", sharing
    )
    assert exp.matches[0].entry.id == SHARED_ENTRY.id and exp.matches[0].score == SHARED_CAP
    assert any("vllm raises the same text word for word" in r for r in exp.matches[0].reasons)
    assert any("vllm's released source raises this same text" in n for n in exp.notes)


def test_a_shared_text_keeps_its_score_when_the_paste_names_the_project(sharing):
    text = "$ python -m pkg.serve\n" + SHARED_LINE
    (exp,) = explain_text(text, sharing)
    assert exp.matches[0].score > SHARED_CAP and not exp.notes


def test_a_shared_text_in_a_paste_that_names_only_the_other_project_is_a_look_alike(sharing):
    text = "$ vllm serve my/model\n" + SHARED_LINE
    (exp,) = explain_text(text, sharing)
    assert not exp.matches and exp.nearest[0].entry.id == SHARED_ENTRY.id


@pytest.mark.parametrize(
    "line",
    [
        SHARED_LINE,
        # a message quoted bare in notes (no exception line): read as a catalogued line
        "- Error: `The loader found no weights for layer 7 in the checkpoint`\n",
    ],
)
def test_a_shared_text_named_only_as_the_other_projects_stays_a_look_alike(sharing, line):
    """Both readings of a paste that names only the other project (an exception line, a bare
    quoted message) list the project's site as nearest and say it is a look-alike: the bare
    line's reading does not put the site back as a match. (`VLLM-compatible`: a name glued to
    a word by a hyphen is no engine named in the paste's prose, but it names the project whose
    released source raises the text.)"""
    text = "Fixes for our runner (VLLM-compatible):\n" + line
    (exp,) = explain_text(text, sharing)
    assert not exp.matches and exp.nearest[0].entry.id == SHARED_ENTRY.id
    assert any("the paste names vllm, never pkg" in n and "look-alike" in n for n in exp.notes)


def test_a_text_no_other_project_raises_is_unaffected(sharing):
    (exp,) = explain_text("ValueError: The server cannot start with 3 workers today\n", sharing)
    assert exp.matches[0].score > SHARED_CAP and not exp.notes


def test_shared_wording_in_project_yaml(tmp_path: Path):
    a, b = "0" * 16, "f" * 16
    (tmp_path / "project.yaml").write_text(
        f"name: pkg\nshared_wording:\n  vllm:\n  - '{b}'\n  - '{a}'\n  - '{b}'\n"
    )
    assert load_project(tmp_path).shared == (("vllm", f"{a} {b}"),)
    for bad in ("shared_wording:\n  vllm: [xyz]\n", "shared_wording:\n  vllm: x\n"):
        (tmp_path / "project.yaml").write_text("name: pkg\n" + bad)
        with pytest.raises(CatalogError, match="shared_wording"):
            load_project(tmp_path)


def test_a_shared_text_is_capped_whichever_of_its_tied_sites_is_listed_first():
    """The same text at two sites, the other project sharing the wording of one: which tied
    site is listed first is no evidence, so the cap holds either way round."""
    twin = _entry("pkg/aaa/loader.py", SHARED_TEXT)  # (listed first: the shorter path)
    for shared_id in (SHARED_ENTRY.id, twin.id):
        project = Project("pkg", "1.0", shared=(("vllm", shared_id),))
        view = catalog_view("memory", (SHARED_ENTRY, twin), [project])
        (exp,) = explain_text(SHARED_LINE, view)
        assert exp.ambiguous and all(m.score == SHARED_CAP for m in exp.matches[:1])


def test_in_a_file_adapted_from_a_project_whose_wording_was_read_its_text_decides():
    """A file adapted from a project whose released source was read for shared wording
    (`shared_wording` lists it) keeps the messages the project added of its own: only those
    the other project raises word for word are capped. A file adapted from a project that was
    not read is capped whole (its messages are not known)."""
    adapted = "pkg/models/llama.py"
    shared = _entry(adapted, SHARED_TEXT)
    own = _entry(adapted, "The llama loader needs <n> shards on this platform today")
    read = Project("pkg", "1.0", adapted=(("vllm", (adapted,)),), shared=(("vllm", shared.id),))
    unread = Project("pkg", "1.0", adapted=(("vllm", (adapted,)),))
    own_line = "ValueError: The llama loader needs 3 shards on this platform today\n"
    for kind in ("memory", "index"):
        view = catalog_view(kind, (shared, own), [read])
        (exp,) = explain_text(own_line, view)
        assert exp.matches[0].entry.id == own.id and exp.matches[0].score > SHARED_CAP
        assert not exp.notes
        (exp,) = explain_text(SHARED_LINE, view)
        assert exp.matches[0].entry.id == shared.id and exp.matches[0].score == SHARED_CAP
        view = catalog_view(kind, (shared, own), [unread])
        (exp,) = explain_text(own_line, view)
        assert exp.matches[0].score == SHARED_CAP
