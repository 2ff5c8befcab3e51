"""Cases for errors/sglang/srt/lora/lora_registry.yaml: the tokenizer-side adapter registry."""

from harness import case

MODEL = "import verify_fixtures\nmodel_path = verify_fixtures.model_dir()\n"

CASES = [
    case("30501290fdb984d4"),
    case("8a3747e20aaae0a7", setup=MODEL),
]
