"""Cases for errors/sglang/srt/arg_groups/validation_hook.yaml."""

from harness import case

_IB = (
    "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp-size 8"
    " --disaggregation-mode prefill"
)

CASES = [
    case("8ab4a02da6758bbc"),
    case("1d04a3621b20c2fa"),
    case("af09fb73c62de4f9"),
    case("16b45766bba96ca6"),
    case("b7633f2409b8c941"),
    case("5658f8d9f6f03e66"),
    case("21f009d215171840"),
    case(
        "75b0d5b5e4921dbf",
        setup=(
            "import verify_fixtures\n"
            "from sglang.srt.server_args import ServerArgs\n"
            "from sglang.srt.speculative.spec_info import SpeculativeAlgorithm\n"
            "SpeculativeAlgorithm.register('MY_SPEC')(lambda *a, **k: None)\n"
            "def engine_args(**kw):\n"
            "    sa = ServerArgs(model_path=verify_fixtures.hub_model('Qwen/Qwen3-8B'), **kw)\n"
            "    sa.resolve_once()\n"
            "    sa.check_server_args()\n"
        ),
        before='engine_args(speculative_algorithm="MY_SPEC", enable_mixed_chunk=True)\n',
        after='engine_args(speculative_algorithm="MY_SPEC")\n',
        note="the example's sgl.Engine keywords through ServerArgs, resolve_once and"
        " check_server_args, with MY_SPEC registered as a plugin would (a worker factory that"
        " is never called here)",
    ),
    case("b2bab4042f7ea0ff"),
    case("e235a9e5ddaa214e"),
    case("7b363740b142f9e7"),
    case(
        "aa452427225bcd39",
        before=_IB
        + " --disaggregation-transfer-backend mooncake --disaggregation-ib-device mlx5_0\n",
        after=_IB
        + " --disaggregation-transfer-backend mooncake_tcp --disaggregation-ib-device mlx5_0\n",
        note="the example's launch without `docker run` on this machine, which has no"
        " /sys/class/infiniband (the example's premise); exposing RDMA devices cannot run here,"
        " so the after half is the second solution (mooncake_tcp)",
    ),
    case("b0e1b7b88bc709d7"),
]
