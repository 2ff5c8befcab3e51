"""Cases for errors/sglang/srt/layers/quantization/fp8_utils.yaml: the scheduler's
initialize_fp8_gemm_config() after the launch flags were resolved and published for rank 0,
then the block-FP8 linear dispatch a [128, 128] block-quantized layer makes."""

from harness import case

_SETUP = (
    "import verify_fixtures\n"
    "from sglang.srt.layers.quantization import fp8_utils\n"
    "def dispatch(flags):\n"
    "    verify_fixtures.published_rank0(flags)\n"
    "    fp8_utils.initialize_fp8_gemm_config()\n"
    "    fp8_utils.dispatch_w8a8_block_fp8_linear(weight_block_size=[128, 128])\n"
)
_NOTE = (
    "the example's flags resolved and published as the scheduler does, then"
    " initialize_fp8_gemm_config (scheduler init) and the dispatch of a [128, 128] block-FP8"
    " linear layer"
)

CASES = [
    case(
        "5bdfb92572eb0374",
        setup=_SETUP,
        before=(
            "dispatch('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"
            " --fp8-gemm-backend flashinfer_trtllm')\n"
        ),
        after="dispatch('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8')\n",
        gpu="H200",
        note=_NOTE + "; the fake H200 (SM90) is the example's premise",
    ),
    case(
        "2c5f7d99ae04fda9",
        setup=_SETUP,
        before=(
            "dispatch('--model-path Qwen/Qwen3-235B-A22B --tp-size 8 --fp8-gemm-backend cutlass')\n"
        ),
        after=(
            "dispatch('--model-path Qwen/Qwen3-235B-A22B --tp-size 8"
            " --fp8-gemm-backend deep_gemm')\n"
        ),
        note=_NOTE + "; on the fake H100; the FP8 checkpoint's quantization config is not"
        " needed, the dispatch reads only the backend and the block size; deep_gemm is not"
        " installed here, so the after half stops at the DeepGEMM availability check",
    ),
]
