"""tools/adapted.py: which upstream a file's header says it was adapted from."""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import adapted  # noqa: E402


def test_the_upstream_is_the_repository_of_the_url_after_adapted_from():
    head = "# Adapted from https://github.com/vllm-project/vllm/blob/v0.6.4/vllm/x.py\n"
    assert adapted.upstreams_of(head, "pkg") == ["vllm"]
    head = "# Copied and adapted from: https://github.com/hao-ai-lab/FastVideo\n\n# SPDX\n"
    head += "# Adapted from vllm: https://github.com/vllm-project/vllm/blob/v0.7.3/vllm/envs.py\n"
    assert adapted.upstreams_of(head, "pkg") == ["fastvideo", "vllm"]
    assert adapted.upstreams_of(
        "# Ported from NVIDIA/TensorRT-LLM (github.com/NVIDIA/TensorRT-LLM)\n", "pkg"
    ) == ["tensorrt-llm"]


def test_a_project_named_without_a_url_counts_and_lookalike_names_do_not():
    assert adapted.upstreams_of(
        "# Adapted from HuggingFace transformers' modeling_x.py\n", "pkg"
    ) == ["transformers"]
    # `nano-vllm-uno` is not vLLM; the package itself is never its own upstream
    assert adapted.upstreams_of("# Adapted from nano-vllm-uno's tree builder\n", "pkg") == []
    assert (
        adapted.upstreams_of("# Adapted from https://github.com/org/pkg/blob/main/a.py\n", "pkg")
        == []
    )
    assert adapted.upstreams_of("# Adapted from the paper's pseudo-code\n", "pkg") == []


def test_adapted_files_maps_each_upstream_to_its_files(tmp_path: Path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("# Adapted from https://github.com/vllm-project/vllm\nx = 1\n")
    (pkg / "sub" / "b.py").write_text("\n" * 30 + "# Adapted from https://github.com/o/late\n")
    (pkg / "sub" / "c.py").write_text("# Adapted from https://github.com/o/FastVideo\n")
    found = adapted.adapted_files(tmp_path, "pkg")
    # b.py says it past the header: not a header claim
    assert found == {"vllm": {"pkg/a.py"}, "fastvideo": {"pkg/sub/c.py"}}


def test_every_verb_form_of_a_copy_counts():
    """Headers say it in the present tense too (`# Adapt from <url>`, `# copy from <url>`,
    `# copy and modify from <url>`), not only `adapted from`."""
    url = "https://github.com/fla-org/flash-linear-attention/blob/main/fla/utils.py"
    for verb in ("Adapt from", "Adapts from", "copy from", "Copy and modify from", "Port from"):
        assert adapted.upstreams_of(f"# {verb} {url}\n", "pkg") == ["flash-linear-attention"]
    # a verb that says nothing of copying does not count
    assert adapted.upstreams_of(f"# See {url}\n", "pkg") == []


def test_write_replaces_the_block_where_it_stands(tmp_path: Path):
    project = tmp_path / "project.yaml"
    project.write_text(
        "name: pkg\nadapted_from:\n  old:\n  - pkg/x.py\n# kept note\nshared_wording:\n"
        "  vllm: a b\n"
    )
    adapted.write(project, {"vllm": {"pkg/a.py"}})
    assert project.read_text() == (
        "name: pkg\n"
        "# files whose header says they were adapted from another project (tools/adapted.py)\n"
        "adapted_from:\n  vllm:\n  - pkg/a.py\n# kept note\nshared_wording:\n  vllm: a b\n"
    )


def test_the_url_may_stand_on_the_comment_line_after_adapted_from():
    """`# Adapted from` alone on its line, the URL on the next comment line (sglang's model
    files, below a 15-line license header: HEADER_LINES reaches past it)."""
    head = "# Adapted from\n# https://github.com/vllm-project/vllm/blob/abc/vllm/x.py#L1\n"
    assert adapted.upstreams_of(head, "pkg") == ["vllm"]
    assert adapted.upstreams_of("# Adapted from:\n# https://github.com/o/Up\n", "pkg") == ["up"]
    # words after `from` on its own line: the next line is not read for it
    head = "# Adapted from the paper's pseudo-code\n# https://github.com/o/other\n"
    assert adapted.upstreams_of(head, "pkg") == []
    # (nor a following line that is code, not a comment)
    assert adapted.upstreams_of("# Adapted from\nURL = 'https://github.com/o/x'\n", "pkg") == []


def test_only_the_files_own_header_counts_not_strings_or_indented_comments(tmp_path: Path):
    """A string the code holds (C source with its own `// copy from <url>` line) and a comment
    indented into a class's body (where one class came from) are not the file's header; nor do
    `import copy` and a `from x import` on the next line read as `copy from x`."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "c_source.py").write_text(
        'import os\n\nSOURCE = """\n#include <x.h>\n'
        "// copy from https://github.com/NVIDIA/nccl/blob/master/src/nccl.h.in\n"
        'typedef int x;\n"""\n'
    )
    (pkg / "one_class.py").write_text(
        "import torch\n\n\nclass Missing(torch.nn.Identity):\n    # Adapted from\n"
        "    # https://github.com/vllm-project/vllm/blob/abc/vllm/utils.py\n    pass\n"
    )
    (pkg / "imports.py").write_text("import copy\n\nfrom transformers import Config\n")
    (pkg / "doc.py").write_text(
        '"""The loader.\n\nAdapted from https://github.com/vllm-project/vllm/blob/x/y.py\n"""\n'
    )
    (pkg / "long_doc.py").write_text(
        '"""Adapted from https://github.com/o/Up/blob/x/y.py\n' + "more words\n" * 40 + '"""\n'
    )
    found = adapted.adapted_files(tmp_path, "pkg")
    assert found == {"vllm": {"pkg/doc.py"}, "up": {"pkg/long_doc.py"}}


def test_header_comments_keep_the_comments_and_the_opening_docstring():
    head = '# SPDX\n"""Doc\ncopied from x"""\nimport a  # trailing\nS = "not read"\n'
    assert adapted.header_comments(head) == '# SPDX\n"""Doc\ncopied from x"""'
    # a head cut inside the opening docstring keeps its lines; cut inside another string,
    # nothing of that string
    assert adapted.header_comments('"""Doc\nAdapted from y\n') == '"""Doc\nAdapted from y\n'
    assert adapted.header_comments('import a\nS = """\n// copy from y\n') == ""
