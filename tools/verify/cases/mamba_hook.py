"""Cases for errors/sglang/srt/arg_groups/mamba_hook.yaml."""

from harness import case
from serve import QWEN3_NEXT, serve

_NOTE = (
    "the example's launch with a config-only Qwen3-Next fixture (the real model's"
    " config.json values) for the hub name"
)
_TP4 = ("--tp-size", "4")

CASES = [
    case(
        "eab162d6c3ec8dd6",
        before=serve(
            QWEN3_NEXT,
            *_TP4,
            "--linear-attn-backend",
            "flashinfer",
            "--mamba-radix-cache-strategy",
            "extra_buffer",
        ),
        after=serve(
            QWEN3_NEXT,
            *_TP4,
            "--linear-attn-backend",
            "triton",
            "--mamba-radix-cache-strategy",
            "extra_buffer",
        ),
        note=_NOTE,
    ),
    case(
        "32982ca58bfb141d",
        before=serve(
            QWEN3_NEXT, *_TP4, "--mamba-radix-cache-strategy", "no_buffer", "--page-size", "64"
        ),
        after=serve(
            QWEN3_NEXT, *_TP4, "--mamba-radix-cache-strategy", "extra_buffer", "--page-size", "64"
        ),
        note=_NOTE,
    ),
    case(
        "bd4ff3dbfe145e9f",
        before=serve(QWEN3_NEXT, *_TP4, "--mamba-radix-cache-strategy", "no_buffer"),
        after=serve(
            QWEN3_NEXT,
            *_TP4,
            "--mamba-radix-cache-strategy",
            "no_buffer",
            "--disable-overlap-schedule",
        ),
        note=_NOTE,
    ),
    case(
        "048ba3530af69e1f",
        before=serve(
            QWEN3_NEXT,
            "--attention-backend",
            "trtllm_mha",
            "--mamba-radix-cache-strategy",
            "no_buffer",
            "--disable-overlap-schedule",
        ),
        after=serve(
            QWEN3_NEXT,
            "--attention-backend",
            "trtllm_mha",
            "--mamba-radix-cache-strategy",
            "extra_buffer",
        ),
        note="the example's flags; Qwen3.5-27B stands in as the Qwen3-Next fixture (a hybrid"
        " linear-attention model too): the check reads the resolved strategy and backend",
    ),
]
