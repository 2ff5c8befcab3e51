"""Cases for errors/sglang/srt/entrypoints/openai/serving_completions.yaml."""

from harness import case

CASES = [
    case("82537856f5e76b91"),
]
