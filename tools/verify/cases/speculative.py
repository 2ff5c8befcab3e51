"""Cases for errors/sglang/srt/speculative/ (spec_info, spec_registry, standalone_worker_v2)."""

from harness import case

# StandaloneWorkerV2._validate_vocab_compatibility reads only the draft runner's vocab size and the
# draft tokenizer; the worker is built without __init__ (which loads both models) and given those.
STANDALONE = """\
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
from types import SimpleNamespace
from sglang.srt.configs.model_config import ModelConfig
from sglang.srt.speculative.standalone_worker_v2 import StandaloneWorkerV2

def vocab(name):
    return ModelConfig(verify_fixtures.hub_model(name)).vocab_size

def worker(draft_vocab_size, draft_tokenizer=None):
    w = object.__new__(StandaloneWorkerV2)
    w._draft_worker = SimpleNamespace(
        draft_runner=SimpleNamespace(model_config=SimpleNamespace(vocab_size=draft_vocab_size)),
        draft_worker=SimpleNamespace(tokenizer=draft_tokenizer),
    )
    return w
"""

CASES = [
    case("44e7f3f2fcb013e5"),
    case(
        "35039660aee1b956",
        setup=(
            "from types import SimpleNamespace\n"
            "from sglang.srt.speculative.spec_info import SpeculativeAlgorithm\n"
            "@SpeculativeAlgorithm.register('MYSPEC')\n"
            "def make_worker(server_args):\n"
            "    return object\n"
            "algo = SpeculativeAlgorithm.from_string('myspec')\n"
        ),
        before="algo.create_worker(SimpleNamespace(disable_overlap_schedule=False))\n",
        after="algo.create_worker(SimpleNamespace(disable_overlap_schedule=True))\n",
        note="a plugin algorithm registered with the default supports_overlap=False; the scheduler"
        " calls create_worker with the resolved server args, of which only"
        " disable_overlap_schedule is read before the raise",
    ),
    case(
        "7f2e3bb2f50d345d",
        setup=STANDALONE,
        before=(
            "worker(vocab('Qwen/Qwen2.5-0.5B-Instruct'))._validate_vocab_compatibility("
            "vocab('meta-llama/Llama-3.1-70B-Instruct'), None)\n"
        ),
        after=(
            "worker(vocab('meta-llama/Llama-3.2-1B-Instruct'))._validate_vocab_compatibility("
            "vocab('meta-llama/Llama-3.1-70B-Instruct'), None)\n"
        ),
        note="the worker's check with the vocab sizes of the example's models (fixture configs);"
        " the tokenizer comparison is left out (None), it is the next entry's check",
    ),
    case(
        "3653209d26121e44",
        setup=STANDALONE
        + (
            "target = SimpleNamespace(get_vocab=lambda: {'<s>': 0, 'hello': 1, 'world': 2})\n"
            "custom = SimpleNamespace(get_vocab=lambda: {'<s>': 0, 'world': 1, 'hello': 2})\n"
        ),
        before="worker(3, custom)._validate_vocab_compatibility(3, target)\n",
        after="worker(3, target)._validate_vocab_compatibility(3, target)\n",
        note="tokenizers stand in by their get_vocab() (the only method the check calls): equal"
        " sizes, different token-to-id maps in the before half, the target's own map after",
    ),
]
