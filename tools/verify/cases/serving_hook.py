"""Cases for errors/sglang/srt/arg_groups/serving_hook.yaml."""

from harness import case

CASES = [
    case("3994bf3167de9565"),
    case("f38bb541741fe411"),
    case(
        "f5521bcac19e901a",
        after="python -m sglang.launch_server --model-path Qwen/Qwen3-8B\n",
        note="granian is not installed in the verify venv (the example's premise); installing"
        " it cannot be undone for the before half, so the after half is the second solution"
        " (no --enable-http2)",
    ),
    case("84228dd638e950b9"),
    case("774467d108c01b9f"),
    case("cab8708fe56ebede"),
]
