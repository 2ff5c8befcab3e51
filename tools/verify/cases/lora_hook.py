"""Cases for errors/sglang/srt/arg_groups/lora_hook.yaml."""

from harness import case

CASES = [
    case("7fed7df91b54e5bb"),
    case("c62e380e2887a6af"),
    case("15d76c1377918e08"),
    case("6244b719ca316efc"),
    case("c1c9fdf8dc7a1767"),
    case("6bfd18479d4092c8"),
    case("70fa9724aa54c846"),
    case("848eef7e65df05b3"),
    case("18f41486f625836d"),
    case("f5f8efef38983003"),
    case("8a49c52322d11af7"),
    case("c876896938bf9811"),
    case("9a02192f39419710"),
    case("e5c10fdfb7fd3177"),
]
