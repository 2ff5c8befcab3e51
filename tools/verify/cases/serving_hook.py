"""Cases for errors/sglang/srt/arg_groups/serving_hook.yaml."""

from harness import case

CASES = [
    case("3994bf3167de9565"),
]
