"""Lineage decisions on small synthetic trees modelled on real sglang history."""

from __future__ import annotations

from textwrap import dedent

import pytest

from errexplain.extract.lineage import (
    THRESHOLD,
    History,
    Lineage,
    Site,
    message_similarity,
    pair,
    replacement,
    score,
)
from errexplain.extract.resolve import resolve
from errexplain.extract.visitor import visit_source


def sites_of(files: dict[str, str]) -> tuple[Site, ...]:
    """The resolved sites of a tree given as path -> source."""
    return resolve(
        visit_source(p, dedent(code).encode()) for p, code in sorted(files.items())
    ).sites


def history_of(*trees: dict[str, str], with_classes: bool = False) -> History:
    """Release 0.n from tree n; `with_classes`: each release given the classes it defines (as
    a build does), else none (the lineage's class rules then stay out of it)."""
    history = History()
    for n, tree in enumerate(trees):
        results = [visit_source(p, dedent(code).encode()) for p, code in sorted(tree.items())]
        classes = {(c.path, c.name): c.bases for r in results for c in r.classes}
        history.add(f"0.{n}", resolve(results).sites, classes if with_classes else None)
    return history


def one_lineage(history: History) -> list[Site]:
    (lineage,) = history.lineages
    return [s for _, s in lineage.occurrences]


def test_unchanged_sites_continue_exactly():
    code = {"pkg/a.py": 'def f(x):\n    if x:\n        raise ValueError("bad x")\n'}
    moved_down = {"pkg/a.py": '\n\ndef f(x):\n    if x:\n        raise ValueError("bad x")\n'}
    history = history_of(code, moved_down, code)
    assert [s.line for s in one_lineage(history)] == [3, 5, 3]
    assert history.audit == []


def test_same_message_twice_in_a_function_pairs_by_line():
    two = 'def f(x):\n    if x:\n        raise ValueError("bad")\n    raise ValueError("bad")\n'
    history = history_of({"a.py": two}, {"a.py": "\n" + two})
    assert [[s.line for _, s in lin.occurrences] for lin in history.lineages] == [[3, 4], [4, 5]]


# 0.4.6 -> 0.4.7: "EAGLE is not supportted in attention backend ..." lost its typo.
def test_reworded_message_in_place():
    before = """
    class EAGLEWorker:
        def init_attention_backend(self):
            if self.backend not in ("flashinfer", "triton"):
                raise ValueError(f"EAGLE is not supportted in attention backend {self.backend}")
    """
    after = before.replace("supportted", "supported")
    history = history_of(
        {"sglang/srt/speculative/eagle_worker.py": before},
        {"sglang/srt/speculative/eagle_worker.py": after},
    )
    first, second = one_lineage(history)
    assert "supportted" in first.template and "supported" in second.template
    (audit,) = history.audit
    assert audit.score is not None and audit.score.total >= THRESHOLD


# 0.4.6 -> 0.4.7: ModelRunner.init_attention_backend became ModelRunner._get_attention_backend.
def test_renamed_function():
    before = """
    class ModelRunner:
        def init_attention_backend(self):
            if self.backend == "x":
                return 1
            raise ValueError(f"Invalid attention backend: {self.backend}")
    """
    after = before.replace("init_attention_backend", "_get_attention_backend")
    path = "sglang/srt/model_executor/model_runner.py"
    history = history_of({path: before}, {path: after})
    assert [s.function for s in one_lineage(history)] == [
        "ModelRunner.init_attention_backend",
        "ModelRunner._get_attention_backend",
    ]


# A file moved to another package with its function (e.g. sglang/srt/utils.py helpers moved
# under sglang/srt/utils/): same file name, same function and text.
def test_file_moved_to_another_package():
    code = """
    def get_bool_env_var(name):
        if name is None:
            raise ValueError(f"environment variable name must be set, got {name!r}")
    """
    history = history_of(
        {"sglang/srt/layers/parallel_utils.py": code},
        {"sglang/srt/distributed/parallel_utils.py": code},
    )
    assert [s.path for s in one_lineage(history)] == [
        "sglang/srt/layers/parallel_utils.py",
        "sglang/srt/distributed/parallel_utils.py",
    ]


# 0.4.6 -> 0.4.7: deepseek_nextn.py's check moved into deepseek_v2.py (renamed class too).
def test_file_and_class_renamed_in_the_same_package():
    before = """
    class DeepseekV3ForCausalLMNextN:
        def load_weights(self, config):
            assert config.num_nextn_predict_layers == 1, "Only 1 nextn layer is supportted"
    """
    after = """
    class DeepseekV2ForCausalLM:
        def load_weights(self, config):
            assert config.num_nextn_predict_layers == 1, "Only 1 nextn layer is supported"
    """
    history = history_of(
        {"sglang/srt/models/deepseek_nextn.py": before}, {"sglang/srt/models/deepseek_v2.py": after}
    )
    assert len(history.lineages) == 1


def test_a_new_message_in_the_same_function_is_a_new_lineage_that_replaces_the_old():
    before = 'def f(x):\n    if x < 0:\n        raise ValueError("x must not be negative")\n'
    after = (
        'def f(x):\n    if x < 0:\n        raise ValueError("x is negative, expected a count")\n'
    )
    history = history_of({"a.py": before}, {"a.py": after})
    old, new = history.lineages
    assert old.last[0] == 0 and new.occurrences[0][0] == 1
    assert old.replaced_by == (1, 1)


def test_the_same_text_elsewhere_under_another_guard_is_not_a_continuation():
    raise_ = '        raise ValueError("tokenizer path is missing")\n'
    before = {"sglang/a/x.py": "def f(p):\n    if p:\n" + raise_}
    after = {"sglang/b/y.py": "def g(q):\n    if q:\n" + raise_}
    assert len(history_of(before, after).lineages) == 2


def test_generic_text_moved_to_an_unrelated_file_is_not_followed():
    before = {"sglang/a/x.py": 'def forward(e):\n    raise NotImplementedError(f"{e}")\n'}
    after = {"sglang/b/y.py": 'def forward(e):\n    raise NotImplementedError(f"{e}")\n'}
    assert len(history_of(before, after).lineages) == 2


def test_a_site_missing_for_one_release_is_revived_with_a_gap():
    code = {"a.py": 'def f():\n    raise ValueError("gone for a release")\n'}
    history = history_of(code, {"a.py": "x = 1\n"}, code)
    (lineage,) = history.lineages
    assert [r for r, _ in lineage.occurrences] == [0, 2]
    assert [a.how for a in history.audit] == ["revived"]


def test_greedy_takes_the_best_pair_first():
    old = sites_of({"a.py": 'def f():\n    raise ValueError("alpha beta gamma delta")\n'})
    new = sites_of(
        {
            "a.py": 'def f():\n    raise ValueError("alpha beta gamma")\n'
            '    raise ValueError("alpha beta gamma delta!")\n'
        }
    )
    (p,) = pair(old, new)
    assert new[p.new].template == "alpha beta gamma delta!" and not p.exact


def test_new_site_kinds_are_compared_generically():
    a = Site("a.py", 1, "log", "warning", "cache is cold", "f")
    b = Site("a.py", 2, "log", "warning", "cache is cold!", "f")
    s = score(a, b)
    assert s is not None and s.total >= THRESHOLD
    blank = Site("a.py", 1, "bare", "ValueError", "", "f")
    assert score(blank, blank) is not None


@pytest.mark.parametrize(
    ("old", "expected"),
    [
        (Site("a.py", 3, "raise", "ValueError", "x must be positive", "f"), 0),
        (Site("a.py", 3, "raise", "ValueError", "x must be positive", "g"), None),
    ],
)
def test_replacement_needs_the_same_function(old, expected):
    new = [Site("a.py", 4, "raise", "TypeError", "x must be a positive int", "f")]
    assert replacement(old, new, [0]) == expected


# 0.5.15.post1 -> 0.5.16: the legacy-GPU check left ModelRunner.load_model for a helper in
# model_runner_components/load_model_utils.py, word for word.
def test_message_moved_verbatim_into_a_helper_elsewhere():
    before = """
    class ModelRunner:
        def load_model(self, cap):
            if cap[1] < 5:
                raise RuntimeError("SGLang only supports sm75 and above.")
    """
    after = """
    def maybe_downgrade_dtype_for_legacy_gpu(cap):
        if cap[1] < 5:
            raise RuntimeError("SGLang only supports sm75 and above.")
    """
    history = history_of(
        {"sglang/srt/model_executor/model_runner.py": before},
        {"sglang/srt/model_executor/model_runner_components/load_model_utils.py": after},
    )
    assert len(history.lineages) == 1
    assert [a.how for a in history.audit] == ["verbatim"]


def test_the_same_words_moved_to_another_function_of_the_file_and_logged_at_another_level():
    # modelled on sglang's "Prefill bootstrap failed ..." (0.5.12 -> 0.5.13): the log call moved
    # from a queue method to a scheduler mixin of the same file, at warning level, and the rank
    # placeholder was renamed; the guard differs too
    before = """
    import logging
    logger = logging.getLogger(__name__)

    class PrefillBootstrapQueue:
        def pop_bootstrapped(self, req, e):
            if e is not None:
                logger.error(
                    f"Prefill bootstrap failed for request rank={self.tp_rank} "
                    f"{req.rid=} with exception {e}"
                )
    """
    after = """
    import logging
    logger = logging.getLogger(__name__)

    class PrefillMixin:
        def handle_bootstrap_failure(self, req, e):
            logger.warning(
                f"Prefill bootstrap failed for request rank={self.ps.tp_rank} "
                f"{req.rid=} with exception {e}"
            )
    """
    path = "sglang/srt/disaggregation/prefill.py"
    history = history_of({path: before}, {path: after})
    assert len(history.lineages) == 1
    # the same words in another file are not followed this way (pass 2c is per file)
    elsewhere = history_of({path: before}, {"sglang/srt/disaggregation/decode.py": after})
    assert len(elsewhere.lineages) == 2


def test_same_words_in_a_file_twice_are_not_guessed():
    before = """
    def a(x):
        if x > 1:
            raise ValueError(f"the value {x} is not allowed in this configuration")
    """
    after = """
    class C:
        def b(self, y):
            if not y.ok:
                raise TypeError(f"the value {y} is not allowed in this configuration")
        def c(self, z):
            if z is None:
                raise RuntimeError(f"the value {z} is not allowed in this configuration")
    """
    path = "pkg/mod.py"
    history = history_of({path: before}, {path: after})
    assert len(history.lineages) == 3


# 0.5.20 -> 0.5.21: a new message-less assert appeared between two of a function's asserts;
# 0.4.3 -> 0.4.4: an attribute checked by a bare assert was renamed.
def test_asserts_without_a_message_pair_by_what_they_check():
    before = """
    class Pool:
        def create_buffer(self):
            assert self.size > 0, "need pages"
            assert self.store_dtype == torch.uint8
            return 1
    """
    after = """
    class Pool:
        def create_buffer(self):
            assert self.size > 0, "need pages"
            assert (
                self.layout is not None
            )
            assert self.store_dtype == torch.uint8
            return 1
    """
    history = history_of({"pkg/p.py": before}, {"pkg/p.py": after})
    by_statement = {
        lin.last[1].statement: [s.line for _, s in lin.occurrences] for lin in history.lineages
    }
    assert by_statement["assert self.store_dtype == torch.uint8"] == [5, 8]
    assert by_statement["assert ( self.layout is not None )"] == [5]  # new in the release
    renamed = history_of(
        {"pkg/s.py": "class S:\n    def step(self):\n        assert self.being_chunked is None\n"},
        {"pkg/s.py": "class S:\n    def step(self):\n        assert self.chunked is None\n"},
    )
    (lineage,) = renamed.lineages
    assert [s.statement for _, s in lineage.occurrences] == [
        "assert self.being_chunked is None",
        "assert self.chunked is None",
    ]


# modelled on sglang's disaggregation refactor (0.5.x): a decode-side check left
# mooncake/conn.py for the shared common/conn.py and was touched up on the way
# ("Losing connection" -> "Lost connection"); the file name stayed
MOVED_BEFORE = """
class MooncakeKVManager:
    def _handle_node_failure(self, failed_bootstrap_addr, affected):
        if affected:
            raise ConnectionError(
                f"Losing connection with prefill instance (bootstrap_addr: "
                f"{failed_bootstrap_addr}), {len(affected)} requests affected"
            )
"""
MOVED_AFTER = (  # a new class, method and argument name: only the file name stayed
    MOVED_BEFORE.replace("Losing", "Lost")
    .replace("MooncakeKVManager", "CommonKVManager")
    .replace("_handle_node_failure", "on_prefill_lost")
    .replace("affected)", "rooms)")
    .replace("if affected:", "if rooms:")
)


def test_a_message_moved_to_another_package_and_touched_up_is_followed():
    history = history_of(
        {"sglang/srt/disaggregation/mooncake/conn.py": MOVED_BEFORE},
        {"sglang/srt/disaggregation/common/conn.py": MOVED_AFTER},
    )
    first, second = one_lineage(history)
    assert "Losing" in first.template and "Lost" in second.template
    assert [a.how for a in history.audit] == ["moved"]


def test_a_moved_message_with_a_near_rival_is_not_guessed():
    rival = (
        MOVED_AFTER.replace("on_prefill_lost", "on_decode_lost")
        .replace("prefill instance", "decode instance")
        .replace("class CommonKVManager", "class CommonKVReceiver")
    )
    history = history_of(
        {"sglang/srt/disaggregation/mooncake/conn.py": MOVED_BEFORE},
        {"sglang/srt/disaggregation/common/conn.py": MOVED_AFTER + rival},
    )
    assert len(history.lineages) == 3


def test_a_moved_message_that_kept_nothing_of_its_place_is_another_check():
    elsewhere = MOVED_AFTER.replace("if rooms:", "if rooms and self.strict:")
    history = history_of(
        {"sglang/srt/disaggregation/mooncake/conn.py": MOVED_BEFORE},
        {"sglang/srt/disaggregation/common/transfer.py": elsewhere},
    )
    assert len(history.lineages) == 2


# modelled on sglang 0.5.11 -> 0.5.12: ColumnParallelLinear.weight_loader's bare
# `assert param_data.shape == loaded_weight.shape` gained a message, while a copy of the layer
# under multimodal_gen/ (a file also named linear.py) asserts the same test in another function
BARE_ASSERT = """
class ColumnParallelLinear:
    def weight_loader(self, param_data, loaded_weight):
        assert param_data.shape == loaded_weight.shape
"""
WITH_MESSAGE = """
class ColumnParallelLinear:
    def weight_loader(self, param_data, loaded_weight):
        assert param_data.shape == loaded_weight.shape, (
            f"param_data.shape={param_data.shape} != loaded_weight.shape={loaded_weight.shape}"
        )
"""
COPY = """
class MergedColumnParallelLinear:
    def _weight_loader_v2_block_quant_scale(self, param_data, loaded_weight):
        assert param_data.shape == loaded_weight.shape
"""


def test_an_assert_that_gained_a_message_continues_its_bare_self():
    history = history_of(
        {"sglang/srt/layers/linear.py": BARE_ASSERT},
        {
            "sglang/srt/layers/linear.py": WITH_MESSAGE,
            "sglang/multimodal_gen/runtime/layers/linear.py": COPY,
        },
    )
    (srt,) = [
        [s for _, s in lin.occurrences]
        for lin in history.lineages
        if lin.occurrences[0][1].path == "sglang/srt/layers/linear.py"
    ]
    assert [bool(s.template) for s in srt] == [False, True]
    (copy,) = [lin for lin in history.lineages if "multimodal_gen" in lin.last[1].path]
    assert len(copy.occurrences) == 1  # a new lineage: the same statement is not the same check


def test_the_same_statement_in_another_function_is_another_check():
    history = history_of(
        {"sglang/srt/layers/linear.py": BARE_ASSERT},
        {"sglang/multimodal_gen/runtime/layers/linear.py": COPY},
    )
    assert len(history.lineages) == 2


def _llama_lookup(history: History) -> Lineage:
    """The lineage of llama.py's message-less site (the `params_dict` lookup)."""
    (lookup,) = [
        lin
        for lin in history.lineages
        if lin.occurrences[0][1].path.endswith("llama.py") and not lin.occurrences[0][1].template
    ]
    return lookup


# modelled on sglang 0.5.16 -> 0.5.17: LlamaForCausalLM.load_weights guarded its
# `param = params_dict[name]` (no KeyError left there; the function goes on logging), while the
# LFM2 model's file, beside it, has the same statement in a method of the same name
LOADER_BARE = """
class LlamaForCausalLM:
    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
            param = params_dict[name]
            if param is None:
                logger.warning(f"Parameter {name} not found in params_dict of the llama model")
"""
LOADER_GUARDED = """
class LlamaForCausalLM:
    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
            if name not in params_dict:
                logger.warning(f"Parameter {name} not found in params_dict of the llama model")
                continue
"""
LFM2 = """
class Lfm2BidirectionalModel:
    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
            param = params_dict[name]
"""


def test_a_statement_whose_function_lives_on_is_not_followed_into_another_file():
    """A message-less site's only identity is its place: while its function still has sites
    in the new release (it was edited, not moved), the same statement in a like-named method
    of another file is another check, and the site's lineage ends."""
    models = "sglang/srt/models/"
    history = history_of(
        {models + "llama.py": LOADER_BARE, models + "lfm2.py": ""},
        {models + "llama.py": LOADER_GUARDED, models + "lfm2.py": LFM2},
    )
    lookup = _llama_lookup(history)
    assert [v for v, _ in lookup.occurrences] == [0]  # ends: not continued in lfm2.py
    (copy,) = [lin for lin in history.lineages if lin.last[1].path.endswith("lfm2.py")]
    assert [v for v, _ in copy.occurrences] == [1]


def test_a_statement_whose_file_and_class_were_renamed_together_is_followed():
    """The old function has no site left in the new release (the module was renamed and its
    class with it): the same statement in the like-named method is the same check, moved."""
    history = history_of(
        {
            "sglang/srt/models/llama.py": LOADER_BARE.replace(
                "            if param is None:\n", ""
            ).replace(
                '                logger.warning(f"Parameter {name} not found in params_dict of the '
                'llama model")\n',
                "",
            )
        },
        {"sglang/srt/models/lfm2.py": LFM2},
    )
    (lineage,) = history.lineages
    assert [s.path.rsplit("/", 1)[-1] for _, s in lineage.occurrences] == ["llama.py", "lfm2.py"]


LOADER_SILENT = """
class LlamaForCausalLM:
    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
            if name not in params_dict:
                continue
"""


def test_a_statement_whose_class_lives_on_is_not_followed_into_another_class_elsewhere():
    """The guarded loader has no site left at all, but its class is still defined in its file:
    the like-named method of another file's class (no base of it) is another check."""
    models = "sglang/srt/models/"
    history = history_of(
        {models + "llama.py": LOADER_BARE},
        {models + "llama.py": LOADER_SILENT, models + "lfm2.py": LFM2},
        with_classes=True,
    )
    lookup = _llama_lookup(history)
    assert [v for v, _ in lookup.occurrences] == [0]


SCHEDULER_BEFORE = """
class Scheduler:
    def process_batch_result_prefill(self, batch, result):
        assert result.extend_input_len_per_req is not None
"""
SCHEDULER_AFTER = """
from sglang.srt.managers.scheduler_output_processor_mixin import SchedulerOutputProcessorMixin

class Scheduler(SchedulerOutputProcessorMixin):
    def event_loop(self):
        pass
"""
MIXIN = """
class SchedulerOutputProcessorMixin:
    def process_batch_result_prefill(self, batch, result):
        assert result.extend_input_len_per_req is not None
"""


def test_a_statement_moved_into_a_mixin_its_class_inherits_is_followed():
    """The method left `Scheduler` for a mixin `Scheduler` inherits, in a file of its own: the
    class lives on, but the site moved with its method."""
    managers = "sglang/srt/managers/"
    history = history_of(
        {managers + "scheduler.py": SCHEDULER_BEFORE},
        {
            managers + "scheduler.py": SCHEDULER_AFTER,
            managers + "scheduler_output_processor_mixin.py": MIXIN,
        },
        with_classes=True,
    )
    (lineage,) = history.lineages
    assert [s.path.rsplit("/", 1)[-1] for _, s in lineage.occurrences] == [
        "scheduler.py",
        "scheduler_output_processor_mixin.py",
    ]


# modelled on sglang 0.5.6.post2 -> 0.5.7: the scheduler's watchdog became a shared helper that
# names what it watches and whether it is soft; the log line kept every word, in order, and
# grew; nothing of its place (file, function, guard) stayed
GROWN_BEFORE = """
class SchedulerChecks:
    def watchdog_thread(self):
        logger.error(f"Watchdog timeout ({self.watchdog_timeout=})")
"""
GROWN_AFTER = """
class WatchdogRaw:
    def _watchdog_once(self):
        logger.error(
            f"{self.debug_name} watchdog timeout "
            f"({self.watchdog_timeout=}, {self.soft=})"
        )
"""


def test_a_message_that_kept_its_words_and_grew_in_a_shared_helper_is_followed():
    history = history_of(
        {"sglang/srt/managers/scheduler_checks.py": GROWN_BEFORE},
        {"sglang/srt/utils/watchdog.py": GROWN_AFTER},
    )
    first, second = one_lineage(history)
    assert first.template.startswith("Watchdog") and "soft" in second.template
    assert [a.how for a in history.audit] == ["grown"]


def test_a_grown_message_with_a_twin_or_quoting_a_short_one_is_not_guessed():
    twin = GROWN_AFTER.replace("WatchdogRaw", "WatchdogSoft").replace("_once", "_twice")
    history = history_of(
        {"sglang/srt/managers/scheduler_checks.py": GROWN_BEFORE},
        {"sglang/srt/utils/watchdog.py": GROWN_AFTER + twin},
    )
    assert len(history.lineages) == 3
    long = GROWN_AFTER.replace(
        '"{self.debug_name} watchdog timeout "',
        '"{self.debug_name} stopped answering health checks and the watchdog timeout "',
    ).replace("self.soft=}", "self.soft=}; see the dump of every thread above for the cause")
    history = history_of(
        {"sglang/srt/managers/scheduler_checks.py": GROWN_BEFORE},
        {"sglang/srt/utils/watchdog.py": long},
    )
    assert len(history.lineages) == 2


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # a word of the old text is only the tail of a longer word in the new one
        ("consumer_count must be positive", "total_consumer_count must be positive"),
        # a value-like word of the old text (`Mamba/SSM`) is literal text, not a placeholder
        (
            "--decode-enable-radix-cache is incompatible with Mamba/SSM models",
            "--decode-enable-radix-cache is incompatible with sliding window (SWA) models",
        ),
    ],
)
def test_grown_keeps_whole_words_of_the_literal_text(before, after):
    history = history_of(
        {"sglang/a/x.py": f'def f(n):\n    if n:\n        raise ValueError("{before}")\n'},
        {"sglang/b/y.py": f'def g(m):\n    if m > 1:\n        raise ValueError("{after}")\n'},
    )
    assert len(history.lineages) == 2


# 0.5.13 -> 0.5.14: CudaGraphRunner moved to runner/decode_cuda_graph_runner.py, which imports
# the help text its module used to define: one release's message has the constant written out,
# the next only its name.
def test_a_check_moved_away_from_the_constant_it_words_is_followed():
    old = {
        "sglang/srt/model_executor/cuda_graph_runner.py": """
        HELP = "Possible solutions: lower --mem-fraction-static or disable the graphs."

        class CudaGraphRunner:
            def __init__(self, e):
                raise Exception(f"Capture cuda graph failed: {e}\\n{HELP}")
        """,
    }
    new = {
        "sglang/srt/model_executor/runner/decode_cuda_graph_runner.py": """
        from sglang.srt.model_executor.help import HELP

        class DecodeCudaGraphRunner:
            def __init__(self, e):
                raise Exception(f"Capture cuda graph failed: {e}\\n{HELP}")
        """,
    }
    before, after = sites_of(old)[0], sites_of(new)[0]
    assert "Possible solutions" in before.template and "<HELP>" in after.template
    assert message_similarity(before, after) == 1.0
    assert [s.path for s in one_lineage(history_of(old, new))] == [
        "sglang/srt/model_executor/cuda_graph_runner.py",
        "sglang/srt/model_executor/runner/decode_cuda_graph_runner.py",
    ]


@pytest.mark.parametrize(
    ("short", "long", "expands"),
    [
        ("Capture failed: <e>\n<HELP_TEXT>", "Capture failed: <e>\nTry a smaller batch.", True),
        # only a constant's name may hold written-out text; <e> must stay <e>
        ("Capture failed: <e>\n<HELP_TEXT>", "Capture failed: boom\nTry a smaller batch.", False),
        ("Capture failed: <reason>", "Capture failed: out of memory", False),
        # too little literal text to say it is the same message
        ("Failed: <HELP>", "Failed: see the docs", False),
    ],
)
def test_a_constant_written_out_is_the_same_message(short, long, expands):
    from errexplain.extract.lineage import _expands

    assert _expands(short, long) is expands


# modelled on sglang 0.5.14 -> 0.5.15: a literal wording per parser became one helper's template
# in the same file; and on 0.5.10 -> 0.5.11: the pool's name in a leak message became a value
GENERAL_BEFORE = """
def resolve_parsers(args):
    if args.fallback:
        logger.warning(
            "--tool-call-parser=auto specified but could not detect "
            "tool-call parser from chat template. Disabling tool-call parser."
        )
"""
GENERAL_BOTH = GENERAL_BEFORE.replace("resolve_parsers(args)", "resolve_both(args)") + (
    GENERAL_BEFORE.replace("resolve_parsers(args)", "resolve_reasoning(args)")
    .replace("tool-call-parser=", "reasoning-parser=")
    .replace("tool-call parser", "reasoning parser")
)
GENERAL_AFTER = """
def _log_undetected(attr, label):
    logger.warning(
        f"--{attr}=auto specified but could not detect "
        f"{label} from chat template. Disabling {label}."
    )
"""


def test_a_wording_made_a_helper_template_in_its_file_is_followed():
    history = history_of(
        {"sglang/srt/parser/detect.py": GENERAL_BEFORE},
        {"sglang/srt/parser/detect.py": GENERAL_AFTER},
    )
    first, second = one_lineage(history)
    assert first.template.startswith("--tool-call-parser") and "<label>" in second.template
    assert [a.how for a in history.audit] == ["generalised"]


def test_wordings_generalised_by_one_helper_are_replaced_by_it():
    """Two checks' wordings, one helper's template: which one it continues is not guessed;
    both lineages end, replaced by the helper."""
    history = history_of(
        {"sglang/srt/parser/detect.py": GENERAL_BOTH},
        {"sglang/srt/parser/detect.py": GENERAL_AFTER},
    )
    tool, reasoning, helper = history.lineages
    assert helper.occurrences[0][0] == 1 and "<label>" in helper.last[1].template
    assert tool.replaced_by == reasoning.replaced_by == (1, 2)


@pytest.mark.parametrize(
    "after",
    [
        # too little of the old text is kept
        'def f(x):\n    logger.warning(f"--{x}=auto specified. Disabling {x}.")\n',
        # kept in another file with nothing of its place
        None,
    ],
)
def test_a_generalised_wording_needs_its_words_and_its_place(after):
    tree = (
        {"sglang/srt/parser/detect.py": after}
        if after
        else {"sglang/srt/other/elsewhere.py": GENERAL_AFTER}
    )
    history = history_of({"sglang/srt/parser/detect.py": GENERAL_BEFORE}, tree)
    old, new = history.lineages
    assert old.last[0] == 0 and new.occurrences[0][0] == 1
    assert "generalised" not in [a.how for a in history.audit]


# 0.4.6.post3 -> 0.4.6.post4: `check_memory` warned and, under a flag, raised one message; the
# warning went and the raise stayed.
WARN_AND_RAISE = """
import warnings

class Scheduler:
    def check_memory(self, size, total, strict):
        if size != total:
            msg = f"token pool leak detected! {size=}, {total=}"
            warnings.warn(msg)
            if strict:
                raise ValueError(msg)
"""
RAISE_ONLY = """
class Scheduler:
    def check_memory(self, size, total, strict):
        if size != total:
            msg = f"token pool leak detected! {size=}, {total=}"
            raise ValueError(msg)
"""


def test_a_dropped_twin_of_a_message_is_replaced_by_the_twin_that_stays():
    """Two sites said one message in one function; a release kept only the raise. The
    warning's lineage ends, replaced by the raise's, which carries its check on."""
    history = history_of({"pkg/s.py": WARN_AND_RAISE}, {"pkg/s.py": RAISE_ONLY})
    ended = [lin for lin in history.lineages if lin.last[0] == 0]
    kept = [lin for lin in history.lineages if lin.last[0] == 1]
    assert len(ended) == 1 and len(kept) == 1
    assert ended[0].last[1].kind == "log" and kept[0].last[1].kind == "raise"
    assert ended[0].replaced_by == (1, history.lineages.index(kept[0]))


def test_a_dropped_site_whose_words_another_function_keeps_is_not_replaced_by_it():
    """The same words in another function are another check: no replacement."""
    other = RAISE_ONLY.replace("def check_memory", "def check_pool")
    history = history_of({"pkg/s.py": WARN_AND_RAISE}, {"pkg/s.py": other})
    assert all(lin.replaced_by is None for lin in history.lineages)
