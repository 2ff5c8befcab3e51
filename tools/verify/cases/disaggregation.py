"""Cases for errors/sglang/srt/disaggregation/ (nixl/conn, utils)."""

from harness import case

CASES = [
    case(
        "11ebe463859c9e7b",
        setup="from sglang.srt.disaggregation.nixl.conn import _resolve_ucx_device_list\n",
        before='_resolve_ucx_device_list("mlx5_0:1,mlx5_1:1", 0)\n',
        after='_resolve_ucx_device_list("mlx5_0,mlx5_1", 0)\n',
        note="the function NixlKVManager.__init__ calls with the --disaggregation-ib-device value"
        " (UCX backend, UCX_NET_DEVICES unset) for GPU 0; nixl itself is not installed here",
    ),
    case(
        "1e3f9536bfd6979e",
        setup=(
            "import torch\n"
            "from types import SimpleNamespace\n"
            "from sglang.srt.disaggregation.utils import MetadataBuffers\n"
            "buffers = MetadataBuffers(4, 16, torch.bfloat16, 0)\n"
            "def req(top_logprobs_num):\n"
            "    return SimpleNamespace(\n"
            "        metadata_buffer_index=0, output_ids=[7], cached_tokens=0,\n"
            "        cached_tokens_device=0, cached_tokens_host=0, cached_tokens_storage=0,\n"
            "        get_mm_token_counts=lambda: (0, 0, 0), return_logprob=True,\n"
            "        logprob=SimpleNamespace(\n"
            "            output_token_logprobs_val=[-0.1], output_token_logprobs_idx=[7],\n"
            "            output_top_logprobs_val=[[-0.1] * top_logprobs_num],\n"
            "            output_top_logprobs_idx=[list(range(top_logprobs_num))],\n"
            "        ),\n"
            "    )\n"
        ),
        before="buffers.set_buf(req(200))\n",
        after=(
            "try:\n"
            "    buffers.set_buf(req(5))\n"
            "except AttributeError:\n"
            "    pass  # past the capacity check: the fake request lacks later fields\n"
        ),
        note="the prefill side's metadata buffer (default capacity 128 top logprobs, on CPU) filled"
        " for a request whose first token carries 200 (before) or 5 (after) top logprobs; the"
        " request is a stand-in with the fields set_buf reads",
    ),
]

# CommonKVManager.try_ensure_parallel_info (decode side) compares the prefill server's parallel
# info, fetched from its bootstrap server's /route, with its own. The manager is built without
# __init__ (which opens transfer-engine connections) and given the attributes the method reads;
# requests.get answers with the prefill server's info, as a bootstrap server would.
ENSURE = """\
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
from types import SimpleNamespace
import sglang.srt.disaggregation.common.conn as conn
StateType = conn.StateType

def prefill(**info):
    body = dict(attn_tp_size=8, attn_cp_size=1, dp_size=1, pp_size=1, page_size=64,
                kv_cache_dtype="auto", follow_bootstrap_room=True)
    body.update(info)
    conn.requests.get = lambda url, timeout=None: SimpleNamespace(
        status_code=200, json=lambda: body, text="")

def decode(page_size=64, kv_cache_dtype="auto", attn_tp_size=8, attn_cp_size=1, pp_size=1,
           state_types=()):
    m = object.__new__(conn.CommonKVManager)
    m.prefill_info_table = {}
    m.kv_args = SimpleNamespace(page_size=page_size, state_types=list(state_types), engine_rank=0)
    m.kv_cache_dtype_str = kv_cache_dtype
    m.kv_layout = None
    m.dsv41_spec_layout = None
    m.is_mla_backend = False
    m.is_hybrid_mla_backend = False
    m.dcp_size = 1
    m.attn_tp_size = attn_tp_size
    m.attn_cp_size = attn_cp_size
    m.attn_cp_rank = 0
    m.pp_size = pp_size
    m.pp_rank = 0
    m.enable_all_cp_ranks_for_transfer = False
    return m
"""

NOTE = (
    "the decode side's check with the values the two servers run with (the prefill's from a"
    " stubbed bootstrap /route answer); the flags-to-values resolution of each server is not run"
)

CASES += [
    case(
        "f79ddcc5362a5b2a",
        setup=ENSURE,
        before='prefill(page_size=1)\ndecode(page_size=64).try_ensure_parallel_info("p:8998")\n',
        after='prefill(page_size=64)\ndecode(page_size=64).try_ensure_parallel_info("p:8998")\n',
        note=NOTE,
    ),
    case(
        "c8871d357a3f3620",
        setup=ENSURE,
        before='prefill(kv_cache_dtype="auto")\n'
        'decode(kv_cache_dtype="fp8_e4m3").try_ensure_parallel_info("p:8998")\n',
        after='prefill(kv_cache_dtype="fp8_e4m3")\n'
        'decode(kv_cache_dtype="fp8_e4m3").try_ensure_parallel_info("p:8998")\n',
        note=NOTE,
    ),
    case(
        "b4a2c084fa402677",
        setup=ENSURE,
        before="prefill(attn_tp_size=8)\n"
        "decode(attn_tp_size=4, state_types=[StateType.BLOCK_SCALE])"
        '.try_ensure_parallel_info("p:8998")\n',
        after="prefill(attn_tp_size=8)\n"
        "decode(attn_tp_size=8, state_types=[StateType.BLOCK_SCALE])"
        '.try_ensure_parallel_info("p:8998")\n',
        note=NOTE + "; an MXFP8 KV pool adds the block_scale state type (non-MLA model)",
    ),
    case(
        "07e56e35665cb82e",
        setup=ENSURE,
        before='prefill()\ndecode(attn_cp_size=2).try_ensure_parallel_info("p:8998")\n',
        after='prefill()\ndecode(attn_cp_size=1).try_ensure_parallel_info("p:8998")\n',
        note=NOTE,
    ),
    case(
        "5cd62cc250628759",
        setup=ENSURE,
        before='prefill(pp_size=4)\ndecode(pp_size=2).try_ensure_parallel_info("p:8998")\n',
        after='prefill(pp_size=4)\ndecode(pp_size=1).try_ensure_parallel_info("p:8998")\n',
        note=NOTE,
    ),
]
