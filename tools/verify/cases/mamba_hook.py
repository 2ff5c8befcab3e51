"""Cases for errors/sglang/srt/arg_groups/mamba_hook.yaml."""

from harness import case

CASES = [
    case("eab162d6c3ec8dd6"),
    case("32982ca58bfb141d"),
    case("bd4ff3dbfe145e9f"),
    case("048ba3530af69e1f"),
]
