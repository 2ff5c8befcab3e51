"""Cases for errors/sglang/srt/mem_cache/kv_cache_configurator.yaml."""

from harness import case

CASES = [
    case("db7bfab82c1d56d3"),
    case("9c2746a78dcbe322"),
    case("b1e6ddb93518db5d"),
    case("52065385c8587e96"),
]
