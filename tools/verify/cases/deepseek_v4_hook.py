"""Cases for errors/sglang/srt/arg_groups/deepseek_v4_hook.yaml."""

from harness import case

CASES = [
    case("c346d6e4239622c6"),
    case("404f63598980dcf0"),
]
