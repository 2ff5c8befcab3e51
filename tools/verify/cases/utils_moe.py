"""Cases for errors/sglang/srt/layers/moe/utils.yaml: the scheduler's initialize_moe_config()
after the launch flags were resolved and published for rank 0."""

from harness import case

_SETUP = "import verify_fixtures\nfrom sglang.srt.layers.moe.utils import initialize_moe_config\n"

CASES = [
    case(
        "bc94c1e619a605e1",
        setup=_SETUP
        + "BASE = ('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --ep-size 8 --moe-a2a-backend"
        " deepep --enable-dp-attention --dp-size 8 ')\n",
        before=(
            "verify_fixtures.published_rank0(BASE + '--enable-single-batch-overlap')\n"
            "initialize_moe_config()\n"
        ),
        after=(
            "verify_fixtures.published_rank0(BASE + '--enable-two-batch-overlap')\n"
            "initialize_moe_config()\n"
        ),
        gpu="H100",
        note="the example's flags resolved and published as the scheduler does, then"
        " initialize_moe_config (scheduler init); the fake H100 (SM90) is the example's premise",
    ),
    case(
        "82ba295aa289da66",
        setup=_SETUP + "from sglang.srt.server_args import ServerArgs\n",
        before=(
            "M = verify_fixtures.hub_model('Qwen/Qwen3-30B-A3B')\n"
            "verify_fixtures.published_rank0(ServerArgs(model_path=M,"
            " moe_runner_backend='flashinfer'))\n"
            "initialize_moe_config()\n"
        ),
        after=(
            "M = verify_fixtures.hub_model('Qwen/Qwen3-30B-A3B')\n"
            "verify_fixtures.published_rank0(ServerArgs(model_path=M,"
            " moe_runner_backend='flashinfer_cutlass'))\n"
            "initialize_moe_config()\n"
        ),
        note="sglang.Engine(**kwargs) builds ServerArgs(**kwargs) (no argparse choices); the"
        " case resolves and publishes it as the scheduler does, then initialize_moe_config",
    ),
]
