"""Cases for errors/sglang/srt/function_call/function_call_parser.yaml."""

from harness import case

CASES = [
    case("32c1668551e87523"),
]
