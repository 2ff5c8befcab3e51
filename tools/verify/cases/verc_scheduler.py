"""Cases for errors/sglang/srt/managers/scheduler.yaml: checks the scheduler makes while it
is set up, before it loads anything."""

from harness import case

# The scheduler of TP rank 0 made with object.__new__, with what the prefill-alignment set-up
# reads (published server args, the model config, the disaggregation mode); then the steps
# Scheduler.__init__ runs in this order: init_chunked_prefill, the three alignment inits and
# check_truncation_align_fits_chunk. The scheduler module imports the model layers, which
# import sgl_kernel on a CUDA host: the no-op stand-in is installed first.
SCHEDULER = """\
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
from sglang.srt.configs.model_config import ModelConfig
from sglang.srt.disaggregation.utils import DisaggregationMode
from sglang.srt.managers.scheduler import Scheduler
from sglang.srt.runtime_context import get_disagg

def prefill_alignment(flags):
    scheduler = object.__new__(Scheduler)
    scheduler.server_args = verify_fixtures.published_rank0(flags)
    scheduler.model_config = ModelConfig.from_server_args(scheduler.server_args)
    scheduler.disaggregation_mode = DisaggregationMode(get_disagg().disaggregation_mode)
    scheduler.init_chunked_prefill()
    scheduler.init_deterministic_inference_config()
    scheduler.init_dsa_kpool_truncation_align()
    scheduler.init_mamba_truncation_align()
    scheduler.check_truncation_align_fits_chunk()

SERVER = (
    "--model-path Qwen/Qwen3-8B --enable-deterministic-inference --attention-backend flashinfer"
)
"""

CASES = [
    case(
        "8ad6a3267c68abc2",
        setup=SCHEDULER,
        before='prefill_alignment(SERVER + " --chunked-prefill-size 1024")\n',
        after='prefill_alignment(SERVER + " --chunked-prefill-size 4096")\n',
        note="the example's launch commands, then TP rank 0's scheduler set-up of the prefill"
        " alignment (flashinfer's default split tile, 4096)",
    ),
]
