"""Cases for errors/sglang/srt/arg_groups/hicache_hook.yaml."""

from harness import case

CASES = [
    case("f22c7d50feaa0440"),
    case("93ceb24e8ba5d64b"),
]
