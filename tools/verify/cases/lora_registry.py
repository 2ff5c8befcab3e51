"""Cases for errors/sglang/srt/lora/lora_registry.yaml: the tokenizer-side adapter registry."""

from harness import case

CASES = [
    case("30501290fdb984d4"),
]
