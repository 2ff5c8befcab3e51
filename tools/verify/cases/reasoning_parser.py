"""Cases for errors/sglang/srt/parser/reasoning_parser.yaml."""

from harness import case

CASES = [
    case("60a30be7bb4479e1"),
]
CASES.append(case("4f52b1e2f23aa3ab"))
