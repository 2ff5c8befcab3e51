"""Cases for errors/sglang/srt/arg_groups/overrides.yaml."""

from harness import case

CASES = [
    case("cb3a846b214dd429"),
    case("16c0f1bb5923e92a"),
    case(
        "bfd7c504c04746b4",
        gpu="B200",
        note=(
            "TRTLLM MLA needs Blackwell before the KV-dtype check is reached; the check "
            "verified (the KV dtype) does not read the device"
        ),
    ),
    case("08f9bebedd35cb6a"),
    case("8c7f238386c357cd"),
]
