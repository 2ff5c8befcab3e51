"""Cases for errors/sglang/srt/layers/attention/attention_registry.yaml: the launch command's
server args resolved as the harness does, then the attention backends looked up in
ATTENTION_BACKENDS the way the model runner's setup does (verify_fixtures.attention_backends)."""

from harness import case

_NOTE = (
    "the example's launch flags resolved, then the registry's backend factory called with a"
    " runner built from them (use_mla_backend from the model config); the after half passes"
    " the registry's checks and stops inside the backend's constructor, which needs a real"
    " model runner"
)


def _backends(flags: str) -> str:
    return f"import verify_fixtures\nverify_fixtures.attention_backends({flags!r})\n"


def _after(flags: str) -> str:
    return _backends(flags)


_MLLAMA = (
    "import verify_fixtures\n"
    "M = verify_fixtures.model_dir(\n"
    '    "MllamaForConditionalGeneration", model_type="mllama",\n'
    '    text_config={"model_type": "mllama_text_model", "hidden_size": 4096,'
    ' "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 40,'
    ' "intermediate_size": 14336, "vocab_size": 128256,'
    ' "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38]},\n'
    '    vision_config={"model_type": "mllama_vision_model", "image_size": 560,'
    ' "patch_size": 14, "hidden_size": 1280, "attention_heads": 16, "max_num_tiles": 4},\n'
    "    hidden_size=None, num_attention_heads=None, num_key_value_heads=None,\n"
    "    num_hidden_layers=None, intermediate_size=None, vocab_size=None,\n"
    "    rope_scaling=None, max_position_embeddings=None)\n"
)

CASES = [
    case(
        "7b13835a0a0e55c6",
        before=_backends("--model-path Qwen/Qwen3-32B --attention-backend trtllm_mla"),
        after=_after("--model-path Qwen/Qwen3-32B --attention-backend trtllm_mha"),
        note=_NOTE,
        gpu="B200",
    ),
    case(
        "523dd2ca5f434a80",
        before=_backends(
            "--model-path meta-llama/Llama-3.1-70B-Instruct --tp-size 4"
            " --decode-attention-backend cutedsl_mla"
        ),
        after=_after("--model-path meta-llama/Llama-3.1-70B-Instruct --tp-size 4"),
        note=_NOTE,
        gpu="B200",
    ),
    case(
        "07901783df9e65a0",
        before=_backends(
            "--model-path deepseek-ai/DeepSeek-R1 --tp-size 8 --attention-backend trtllm_mha"
        ),
        after=_after(
            "--model-path deepseek-ai/DeepSeek-R1 --tp-size 8 --attention-backend trtllm_mla"
        ),
        note=_NOTE,
        gpu="B200",
    ),
    case(
        "110d9823ba2b844f",
        before=_backends("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend fa3"),
        after=_after(
            "--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend flashinfer"
        ),
        note=_NOTE + "; the fake B200 (SM100) is the example's premise",
        gpu="B200",
    ),
    case(
        "c3596313cefd0cbb",
        setup=_MLLAMA,
        before="verify_fixtures.attention_backends(f'--model-path {M} --attention-backend triton')",
        after="verify_fixtures.attention_backends(f'--model-path {M}"
        " --attention-backend flashinfer')",
        note=_NOTE + "; M is a local Llama-3.2-11B-Vision (mllama) config",
    ),
]
