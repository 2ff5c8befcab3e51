"""Launch code for cases whose model is a fixture built in Python rather than a hub name.

`serve(model, *flags)` is the Python source that `harness.bash_code` makes of a launch command
(parse, resolve, validate), with `--model-path` set to the Python expression `model`, e.g.
`verify_fixtures.model_dir("DeepseekV3ForCausalLM", index_topk=2048)`. Use it when a check
reads a config value (architecture, a field) that no hub fixture has, and say so in the
case's note.
"""

from __future__ import annotations

from harness import SERVER_ARGS_CODE


class Expr(str):
    """A flag value given as a Python expression (e.g. a fixture directory), not a literal."""


def serve(model: str, *flags: str) -> str:
    """Python source for `sglang serve --model-path <model> <flags>` (model: an expression;
    flags: literal strings, or `Expr` expressions)."""
    argv = ", ".join(
        ["'--model-path'", model, *(f if isinstance(f, Expr) else repr(f) for f in flags)]
    )
    return SERVER_ARGS_CODE.format(argv=f"[{argv}]")


QWEN3_NEXT_CONFIG = {
    "model_type": "qwen3_next",
    "hidden_size": 2048,
    "intermediate_size": 5120,
    "num_hidden_layers": 48,
    "num_attention_heads": 16,
    "num_key_value_heads": 2,
    "head_dim": 256,
    "full_attention_interval": 4,
    "linear_conv_kernel_dim": 4,
    "linear_key_head_dim": 128,
    "linear_value_head_dim": 128,
    "linear_num_key_heads": 16,
    "linear_num_value_heads": 32,
    "num_experts": 512,
    "num_experts_per_tok": 10,
    "moe_intermediate_size": 512,
    "shared_expert_intermediate_size": 512,
    "decoder_sparse_step": 1,
    "norm_topk_prob": True,
    "partial_rotary_factor": 0.25,
    "rope_theta": 10000000,
    "max_position_embeddings": 262144,
    "vocab_size": 151936,
    "rms_norm_eps": 1e-6,
    "hidden_act": "silu",
    "tie_word_embeddings": False,
    "bos_token_id": 151643,
    "eos_token_id": 151645,
}
"""Qwen/Qwen3-Next-80B-A3B-Instruct's config.json values (hybrid Gated DeltaNet + attention)."""

QWEN3_NEXT = f"verify_fixtures.model_dir('Qwen3NextForCausalLM', **{QWEN3_NEXT_CONFIG!r})"
"""A model-path expression for the Qwen3-Next fixture."""


def arch_model(arch: str, model_type: str, **config: object) -> str:
    """A model-path expression for a config-only fixture of `arch`: the architecture and
    model_type (transformers' defaults for every other field), with `config` merged over."""
    items = ", ".join(f"{k}={v!r}" for k, v in {"model_type": model_type, **config}.items())
    return f"verify_fixtures.model_dir({arch!r}, {items})"
