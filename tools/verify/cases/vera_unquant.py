"""Cases for errors/sglang/srt/layers/quantization/unquant.yaml."""

from harness import case

CASES = [
    case(
        "1785ab681b2f6ce9",
        setup=(
            "import verify_fixtures\n"
            "from sglang.srt.layers.quantization.unquant import initialize_bf16_gemm_config\n"
            "def gemm_config(flags):\n"
            "    verify_fixtures.published_rank0(flags)\n"
            "    initialize_bf16_gemm_config()  # scheduler init, after publishing\n"
        ),
        before="gemm_config('--model-path Qwen/Qwen3-8B --bf16-gemm-backend cutedsl')\n",
        after="gemm_config('--model-path Qwen/Qwen3-8B')\n",
        note="the example's flags resolved, validated and published for rank 0, then the"
        " scheduler's initialize_bf16_gemm_config; the fake H100 (SM90) is the example's"
        " premise",
    ),
]
