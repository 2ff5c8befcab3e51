"""Cases for errors/sglang/srt/model_executor/cuda_graph_config.yaml.

These are argparse `type=` functions: on the command line argparse prints the message after
the whole usage text (`error: argument --cuda-graph-config: ...`, exit 2). The cases call the
function that holds the check with the example's flag value, which raises the same message as
a traceback.
"""

from harness import case

_NOTE = (
    "the argparse type function of the example's flag, called with the example's value"
    " (prepare_server_args calls it the same way while parsing)"
)
_CFG = "from sglang.srt.model_executor.cuda_graph_config import parse_cuda_graph_config_arg\n"

CASES = [
    case(
        "d3a10d49ec4c4fdd",
        setup="from sglang.srt.model_executor.cuda_graph_config import"
        " parse_cuda_graph_backend_arg\n",
        before='parse_cuda_graph_backend_arg("tc_piecewise")\n',
        after='parse_cuda_graph_backend_arg("breakable")\n',
        note=_NOTE,
    ),
    case(
        "f6807fdaa67fcb44",
        setup=_CFG,
        before='parse_cuda_graph_config_arg("{decode:{max_bs:64}}")\n',
        after='parse_cuda_graph_config_arg(\'{"decode": {"max_bs": 64}}\')\n',
        note=_NOTE + "; the shell passes the unquoted before value as {decode:{max_bs:64}}",
    ),
    case(
        "1ddabcc41e477d50",
        setup=_CFG,
        before="parse_cuda_graph_config_arg('{\"max_bs\": 64}')\n",
        after='parse_cuda_graph_config_arg(\'{"decode": {"max_bs": 64}}\')\n',
        note=_NOTE,
    ),
    case(
        "0f9482d532dee732",
        setup=_CFG,
        before='parse_cuda_graph_config_arg(\'{"decode": {"cuda_graph_max_bs": 64}}\')\n',
        after='parse_cuda_graph_config_arg(\'{"decode": {"max_bs": 64}}\')\n',
        note=_NOTE,
    ),
]
