"""Cases for errors/sglang/srt/arg_groups/model_hook.yaml."""

from harness import case
from serve import arch_model, serve

# Config-only fixtures: the architecture and model_type of the example's hub model, with
# transformers' defaults for the other fields. The checks read the architecture and the
# resolved backends.
GPT_OSS = arch_model("GptOssForCausalLM", "gpt_oss")
LLAMA4 = arch_model("Llama4ForCausalLM", "llama4_text")
GEMMA4 = arch_model("Gemma4ForConditionalGeneration", "gemma4")
OLMO3 = arch_model("Olmo3ForCausalLM", "olmo3")
LFM2_MOE = arch_model("Lfm2MoeForCausalLM", "lfm2_moe")
_NOTE = "the example's launch with a config-only fixture of the model's architecture"

CASES = [
    case(
        "16f8e2f64e947ed4",
        before=serve(GPT_OSS, "--tp-size", "4", "--attention-backend", "flashinfer"),
        after=serve(GPT_OSS, "--tp-size", "4", "--attention-backend", "triton"),
        note=_NOTE,
    ),
    case(
        "75a829b03219ffc1",
        before=serve(
            GPT_OSS, "--tp-size", "8", "--ep-size", "8", "--moe-runner-backend", "triton_kernel"
        ),
        after=serve(GPT_OSS, "--tp-size", "8", "--moe-runner-backend", "triton_kernel"),
        note=_NOTE,
    ),
    case(
        "3e0ca4efa2d07d03",
        before=serve(LLAMA4, "--tp-size", "8", "--attention-backend", "flashinfer"),
        after=serve(LLAMA4, "--tp-size", "8", "--attention-backend", "fa3"),
        note=_NOTE,
    ),
    case(
        "0b487eb6fb5c46f5",
        before=serve(GEMMA4, "--tp-size", "2", "--attention-backend", "fa3"),
        after=serve(GEMMA4, "--tp-size", "2", "--attention-backend", "triton"),
        note=_NOTE,
    ),
    case(
        "295e371447c8fbab",
        before=serve(OLMO3, "--attention-backend", "flashinfer"),
        after=serve(OLMO3, "--attention-backend", "triton"),
        note=_NOTE,
    ),
    case(
        "244b086b57a7d965",
        before=serve(LFM2_MOE, "--attention-backend", "triton"),
        after=serve(LFM2_MOE, "--attention-backend", "flashinfer"),
        note=_NOTE,
    ),
    case("d291bb3fe6401177"),
    case("86005b70e3a654d6"),
]
