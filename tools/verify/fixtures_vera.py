"""Fixtures shared by vera_* case files (imported as `fixtures_vera` in the verify venv)."""

from __future__ import annotations

from typing import Any


def tp_rank0(tp_size: int = 1) -> Any:
    """Publish server args for TP rank 0 of a `tp_size` launch of a Llama fixture, so that
    layers built afterwards partition their weights for rank 0 (a logical TP group, no
    communication). Returns the server args."""
    import verify_fixtures

    return verify_fixtures.published_rank0(
        f"--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size {tp_size}"
    )


def load_meta(layer: Any, name: str, shape: tuple[int, ...], *args: Any) -> None:
    """Hand a checkpoint tensor of `shape` (meta device: shape only) to the weight loader of
    `layer`'s parameter `name`, as the model loader does."""
    import torch

    param = getattr(layer, name)
    with torch.device("meta"):
        weight = torch.empty(*shape, dtype=param.dtype)
    param.weight_loader(param, weight, *args)


def quant_layer(
    quantization_config: dict[str, Any],
    flags: str,
    cls_name: str,
    *args: Any,
    prefix: str,
    arch: str = "LlamaForCausalLM",
    **config: Any,
) -> Any:
    """Build one linear layer (`sglang.srt.layers.linear.<cls_name>(*args)`) of TP rank 0 with
    the quantization config the model loader makes for `sglang serve --model-path M FLAGS`,
    where M is a fixture model directory of `arch` with `quantization_config` (and `config`
    overrides). Weights are created on the meta device."""
    import torch
    import verify_fixtures
    from sglang.srt.layers import linear

    model = verify_fixtures.model_dir(arch, quantization_config=quantization_config, **config)
    quant_config = verify_fixtures.rank0_quant_config(f"--model-path {model} {flags}")
    with torch.device("meta"):
        return getattr(linear, cls_name)(
            *args, bias=False, quant_config=quant_config, prefix=prefix
        )


def rank0_moe(flags: str) -> Any:
    """`verify_fixtures.published_rank0(flags)`, then the scheduler's `initialize_moe_config()`
    (what it does for a model with experts): the MoE runner and all-to-all backends the MoE
    layers read. Returns the server args."""
    import verify_fixtures
    from sglang.srt.layers.moe.utils import initialize_moe_config

    server_args = verify_fixtures.published_rank0(flags)
    initialize_moe_config()
    return server_args


def register_cuda_quantization() -> None:
    """Register the quantization methods sglang's registry adds at import time on a CUDA host
    (`mxfp4`): the worker imported sglang on CPU-only torch, before the fake device."""
    from sglang.srt.layers import quantization
    from sglang.srt.layers.quantization.mxfp4 import Mxfp4Config

    for table in (quantization.BASE_QUANTIZATION_METHODS, quantization.QUANTIZATION_METHODS):
        table.setdefault("mxfp4", Mxfp4Config)


GPT_OSS_20B: dict[str, Any] = {
    "model_type": "gpt_oss",
    "hidden_size": 2880,
    "intermediate_size": 2880,
    "num_hidden_layers": 24,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "num_local_experts": 32,
    "experts_per_token": 4,
    "sliding_window": 128,
    "layer_types": ["sliding_attention", "full_attention"] * 12,
    "vocab_size": 201088,
    "max_position_embeddings": 131072,
    "quantization_config": {
        "quant_method": "mxfp4",
        "modules_to_not_convert": [
            "model.layers.*.self_attn",
            "model.layers.*.mlp.router",
            "model.embed_tokens",
            "lm_head",
        ],
    },
}
"""openai/gpt-oss-20b's config.json values the checks read."""


def gpt_oss_20b(**config: Any) -> str:
    """A config-only directory standing in for openai/gpt-oss-20b."""
    import verify_fixtures

    return verify_fixtures.model_dir("GptOssForCausalLM", **{**GPT_OSS_20B, **config})
