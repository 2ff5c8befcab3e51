"""Cases for errors/sglang/srt/configs/model_config.yaml."""

from harness import case

CASES = [
    case("079d630315be4052"),
    case("ea9d1b7a221f03f6"),
    case("54eec189a6271e63"),
    case("d1fcc5adf9f249e2"),
    case("64ee45f325c0b19e"),
]
