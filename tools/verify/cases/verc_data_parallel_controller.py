"""Cases for errors/sglang/srt/managers/data_parallel_controller.yaml: how the DP controller
of a server with --dp-size > 1 dispatches a tokenized request to its DP workers."""

from harness import case

# The request goes through the tokenizer manager of the launch (`fixtures_verc`), then to a
# DataParallelController made with object.__new__ and what its dispatch reads: the load
# balance method as __init__ resolves it from the published args, one stand-in socket per DP
# rank (records what it is sent). sgl_kernel's no-op stand-in first, as for the manager.
DISPATCH = """\
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
from fixtures_verc import tokenizer_manager, tokenize, generate_req
from sglang.srt.managers.data_parallel_controller import (
    DataParallelController,
    LoadBalanceMethod,
)
from sglang.srt.runtime_context import get_parallel

class Worker:
    def __init__(self):
        self.sent = []

    def send_pyobj(self, obj, flags=0, protocol=None):
        self.sent.append(obj)

    def send(self, data, flags=0):
        self.sent.append(data)

def dispatch(flags, **request):
    tm = tokenizer_manager(flags)
    tokenized = tokenize(tm, generate_req(**request))
    verify_fixtures.published_rank0(tm.server_args)  # the controller's process
    controller = object.__new__(DataParallelController)
    controller.load_balance_method = LoadBalanceMethod.from_str(
        get_parallel().load_balance_method
    )
    controller.workers = [Worker() for _ in range(get_parallel().num_dp_ranks)]
    controller._active_workers = list(range(len(controller.workers)))
    controller.round_robin_counter = 0
    methods = {
        LoadBalanceMethod.ROUND_ROBIN: controller.round_robin_scheduler,
        LoadBalanceMethod.FOLLOW_BOOTSTRAP_ROOM: controller.follow_bootstrap_room_scheduler,
    }
    methods[controller.load_balance_method](tokenized)

PREFILL = (
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill"
    " --tp-size 2 --dp-size 2 --enable-dp-attention"
)
"""

CASES = [
    case(
        "ab58c533fa3b5421",
        setup=DISPATCH,
        before="dispatch(PREFILL, text='Hello')\n",
        after=(
            "dispatch(PREFILL, text='Hello', bootstrap_host='10.0.0.2', bootstrap_port=8998,"
            " bootstrap_room=1234)\n"
        ),
        note="the example's /generate body sent to a PD prefill server with two DP ranks"
        " (mooncake transfer, load balancing auto); the after half carries the bootstrap"
        " fields the router adds to what it forwards",
    ),
]
