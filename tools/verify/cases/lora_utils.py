"""Cases for errors/sglang/srt/lora/utils.yaml."""

from harness import case

CASES = [
    case("26fc2bd93adaaffa"),
]
