"""Cases for errors/sglang/srt/lora/lora_registry.yaml: the tokenizer-side adapter registry
that TokenizerManager.init_lora builds from --lora-paths (`fixtures_verc.tokenizer_manager`;
sgl_kernel's no-op stand-in first, as for the manager's other cases)."""

from harness import case

SETUP = (
    "import verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()\n"
    "from fixtures_verc import tokenizer_manager\n"
    "LLAMA = '--model-path meta-llama/Llama-3.1-8B-Instruct'\n"
)

CASES = [
    case(
        "8a3747e20aaae0a7",
        setup=SETUP,
        before=(
            "tokenizer_manager(LLAMA + ' --lora-paths sql=/l/sql-v1 sql=/l/sql-v2').init_lora()\n"
        ),
        after=(
            "tokenizer_manager(LLAMA + ' --lora-paths sql-v1=/l/sql-v1 sql-v2=/l/sql-v2')"
            ".init_lora()\n"
        ),
        note="the example's launch commands, then the tokenizer manager's init_lora, which"
        " registers --lora-paths (the registry does not open the adapter paths)",
    ),
]
