"""Cases for errors/sglang/srt/entrypoints/openai/serving_chat.yaml."""

from harness import case

CASES = [
    case("82dc8d2565449d6c"),
    case("7f2ab98ca1beadd4"),
]
