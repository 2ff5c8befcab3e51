"""Cases for errors/sglang/srt/distributed/utils.yaml."""

from harness import case

PP = "from sglang.srt.distributed.utils import get_pp_indices\nimport os\n"

CASES = [
    case(
        "b840df860c357973",
        setup=PP,
        before=(
            'os.environ["SGLANG_PP_LAYER_PARTITION"] = "16,16,16,13"\nget_pp_indices(80, 0, 2)\n'
        ),
        after='os.environ["SGLANG_PP_LAYER_PARTITION"] = "40,40"\nget_pp_indices(80, 0, 2)\n',
        note="the call the model's make_layers makes on PP rank 0 for Llama-3.1-70B"
        " (80 layers) with --pp-size 2 and the example's SGLANG_PP_LAYER_PARTITION",
    ),
    case(
        "cd44f4f31882ab01",
        setup=PP,
        before='os.environ["SGLANG_PP_LAYER_PARTITION"] = "16,16"\nget_pp_indices(80, 0, 2)\n',
        after='os.environ["SGLANG_PP_LAYER_PARTITION"] = "40,40"\nget_pp_indices(80, 0, 2)\n',
        note="the call the model's make_layers makes on PP rank 0 for Llama-3.1-70B"
        " (80 layers) with --pp-size 2 and the example's SGLANG_PP_LAYER_PARTITION",
    ),
]

CASES += [
    case(
        "3a4a4973aad5743e",
        setup="from sglang.srt.distributed.bootstrap import _check_tp_memory_balance\n",
        before="_check_tp_memory_balance(pre_model_load_memory=61.37, local_gpu_memory=78.85)\n",
        after="_check_tp_memory_balance(pre_model_load_memory=78.41, local_gpu_memory=78.85)\n",
        note="the check measure_pre_model_load_memory runs on a TP rank (tp_size > 1), with the"
        " free memory (GB) of the example message: the group's minimum 61.37 while this GPU has"
        " 78.85 free (another process holds memory on one GPU); after, every GPU is free, so the"
        " minimum is close to the local value. The measurement itself needs GPUs",
    ),
    case(
        "4a2e1cfb31726eb7",
        setup=(
            "import os, torch\n"
            'os.environ.pop("SGLANG_NCCL_SO_PATH", None)\n'
            "from sglang.srt.distributed.device_communicators.pynccl_wrapper import"
            " find_nccl_library\n"
        ),
        before="find_nccl_library()\n",
        after=(
            'torch.version.cuda = "12.8"  # what a CUDA build of torch reports\n'
            "find_nccl_library()\n"
        ),
        gpu="cpu",
        note="the verify venv's torch is the CPU build (torch.version.cuda, .hip and .musa are"
        " None), the before half's premise; the after half sets the version string a cu128"
        " wheel reports, the only value the check reads",
    ),
]
