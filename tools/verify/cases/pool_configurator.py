"""Cases for errors/sglang/srt/model_executor/pool_configurator.yaml."""

from harness import case

CASES = [
    case("0a21b0896fb3a8dd"),
    case("e8545cce7f1dadca"),
    case("bb59498a7c5b8a8d"),
]
