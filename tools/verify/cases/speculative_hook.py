"""Cases for errors/sglang/srt/arg_groups/speculative_hook.yaml."""

from harness import case
from serve import Expr, arch_model, serve

_GEMMA_TARGET = "verify_fixtures.hub_model('google/gemma-4-31b-it')"
_GEMMA_DRAFT = Expr(arch_model("Gemma4AssistantForCausalLM", "gemma4_assistant"))

CASES = [
    case(
        "5ab82581c15d30d1",
        before=serve(
            _GEMMA_TARGET,
            "--speculative-algorithm",
            "EAGLE3",
            "--speculative-draft-model-path",
            _GEMMA_DRAFT,
        ),
        after=serve(
            _GEMMA_TARGET,
            "--speculative-algorithm",
            "NEXTN",
            "--speculative-draft-model-path",
            _GEMMA_DRAFT,
        ),
        note="the example's launch; the draft is a config-only Gemma4AssistantForCausalLM"
        " fixture (the check reads the draft's architectures), the target a Llama stand-in",
    ),
    case("07ee9440e043dfaf"),
    case("e6242df00acfc202"),
    case("02665afbadfa43e3"),
    case("750e649a0abf9844"),
    case("b9fb12d81f8fd774"),
    case("7befb96734afcd5e"),
    case("4f15438050761547"),
    case("7f59c4626c7fa7ea"),
    case("15015a2c7c80e40a"),
    case("6c62bf4fbc4d2766"),
    case("7b702cc939a2c276"),
    case("9c01d1763bd1e885"),
    case("5d89ed7ac7c07f19"),
    case("4390bd94ab8b1c7d"),
]
