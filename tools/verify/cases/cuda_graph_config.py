"""Cases for errors/sglang/srt/model_executor/cuda_graph_config.yaml."""

from harness import case

CASES = [
    case("d3a10d49ec4c4fdd"),
    case("f6807fdaa67fcb44"),
    case("1ddabcc41e477d50"),
    case("0f9482d532dee732"),
]
