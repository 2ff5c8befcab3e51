"""Cases for errors/sglang/srt/arg_groups/pd_disaggregation_hook.yaml."""

from harness import case

CASES = [
    case("d3460b1664e173ff"),
    case("569a825829f615dc"),
    case("bcdad3b7d9e5ebac"),
    case(
        "70d53f9d8736e7c8",
        before=(
            "python -m sglang.launch_server --model-path Qwen/Qwen3-VL-8B-Instruct"
            " --encoder-only --language-only\n"
        ),
        after=(
            "python -m sglang.launch_server --model-path Qwen/Qwen3-VL-8B-Instruct"
            " --encoder-only --port 30001\n"
        ),
        note="the after of the example is two launches; the case runs the encoder-only one."
        " The Qwen3-VL hub name becomes a text-only Qwen3 fixture, so that launch stops at the"
        " encoder-disaggregation model check (another error)",
    ),
    case("f11b6e8e16a986da"),
    case("aeb927d3e3ceb372"),
]
