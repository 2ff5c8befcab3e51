"""Cases for errors/sglang/srt/distributed/utils.yaml."""

from harness import case

PP = "from sglang.srt.distributed.utils import get_pp_indices\nimport os\n"

CASES = [
    case(
        "b840df860c357973",
        setup=PP,
        before='os.environ["SGLANG_PP_LAYER_PARTITION"] = "16,16,16,13"\nget_pp_indices(80, 0, 2)\n',
        after='os.environ["SGLANG_PP_LAYER_PARTITION"] = "40,40"\nget_pp_indices(80, 0, 2)\n',
        note="the call the model's make_layers makes on PP rank 0 for Llama-3.1-70B (80 layers) with"
        " --pp-size 2 and the example's SGLANG_PP_LAYER_PARTITION",
    ),
    case(
        "cd44f4f31882ab01",
        setup=PP,
        before='os.environ["SGLANG_PP_LAYER_PARTITION"] = "16,16"\nget_pp_indices(80, 0, 2)\n',
        after='os.environ["SGLANG_PP_LAYER_PARTITION"] = "40,40"\nget_pp_indices(80, 0, 2)\n',
        note="the call the model's make_layers makes on PP rank 0 for Llama-3.1-70B (80 layers) with"
        " --pp-size 2 and the example's SGLANG_PP_LAYER_PARTITION",
    ),
]
